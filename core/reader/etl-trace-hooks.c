/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-hooks.c: the index walk's hooks, and the feed that hands them
 * their records.
 *
 * The reader does not know what any record means beyond its header.  The
 * layers above it do: a few records describe the others (in-trace TDH
 * metadata, EventSource manifests and volume mappings for decode/; process
 * and thread records for model/).  Each of those layers registers an
 * #EtlTraceHook when it opens a trace (etl_trace_open_with_hooks()).  The
 * index walk classifies every record from what its fast path already read:
 * the provider id's class (asked once per provider), the HookId (once per
 * HookId) and, for the rare records of a claimed provider, the hook's look
 * at the record's bytes.  The answer, a feed kind of 3 bits, rides in the
 * record's index entry until the merge; then the records of each kind are
 * handed over in merged time order, or kept (their index positions, or
 * copies when the serial walk's positions are not final) for the hook to
 * read after the open.
 *
 * Feed kinds are the hooks' kinds numbered one after the other (hook 0's
 * 1..n, then hook 1's, …), at most 7 in all.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-private.h"

#include <string.h>

/* Caps on what a hostile trace can make the reader keep, per kind. */
#define MAX_KEPT_RECORDS (2u * 1024 * 1024)
#define MAX_KEPT_BYTES   (256u * 1024 * 1024)

/* A record kept by copy (the serial walk, whose index positions change). */
typedef struct
{
  guint file;
  guint cpu;
  gint64 filetime;
  guint64 file_offset;
  GBytes *bytes; /* the whole record */
} KeptRecord;

struct _EtlKeptRecords
{
  GArray *items;        /* guint64 index positions (by_index) or KeptRecord */
  gsize bytes;          /* sum of the kept records' Size */
};

static EtlKeptRecords *
kept_new (gboolean by_index)
{
  EtlKeptRecords *kept = g_new0 (EtlKeptRecords, 1);

  kept->items = g_array_new (FALSE, FALSE, by_index ? sizeof (guint64) : sizeof (KeptRecord));
  return kept;
}

/* Whether @kept holds index positions rather than copies. */
static inline gboolean
kept_by_index (const EtlKeptRecords *kept)
{
  return g_array_get_element_size (kept->items) == sizeof (guint64);
}

/* Copies @record (or keeps its @index) for the hook, within the caps. */
static void
kept_add (EtlKeptRecords *kept, const EtlRecord *record, guint64 index)
{
  KeptRecord k;

  if (kept->items->len >= MAX_KEPT_RECORDS || kept->bytes + record->size > MAX_KEPT_BYTES
      || record->raw == NULL || record->size > record->raw_len)
    return;
  if (kept_by_index (kept))
    {
      kept->bytes += record->size;
      g_array_append_val (kept->items, index);
      return;
    }
  k.file = record->file;
  k.cpu = record->cpu;
  k.filetime = record->filetime;
  k.file_offset = record->file_offset;
  k.bytes = g_bytes_new (record->raw, record->size);
  kept->bytes += record->size;
  g_array_append_val (kept->items, k);
}

/**
 * etl_kept_records_free:
 * @kept: (transfer full) (nullable): kept records
 */
void
etl_kept_records_free (EtlKeptRecords *kept)
{
  if (kept == NULL)
    return;
  if (!kept_by_index (kept))
    for (guint i = 0; i < kept->items->len; i++)
      g_clear_pointer (&g_array_index (kept->items, KeptRecord, i).bytes, g_bytes_unref);
  g_array_unref (kept->items);
  g_free (kept);
}

/**
 * etl_kept_records_get_n:
 * @kept: kept records (etl_trace_steal_kept_records())
 *
 * Returns: how many records were kept
 */
guint
etl_kept_records_get_n (const EtlKeptRecords *kept)
{
  g_return_val_if_fail (kept != NULL, 0);
  return kept->items->len;
}

/**
 * etl_kept_records_read:
 * @kept: kept records (etl_trace_steal_kept_records())
 * @trace: the trace they were kept from
 * @i: which, below etl_kept_records_get_n(), in merged order
 * @record: (out caller-allocates): the record, decoded again, with its
 *   file, processor, FILETIME and file offset; clear it with
 *   etl_record_clear()
 *
 * Reads the @i-th kept record: from the trace by its index position
 * (etl_trace_get_record()) or from its copy.  Thread-safe.
 *
 * Returns: %TRUE when the record could be read
 */
gboolean
etl_kept_records_read (const EtlKeptRecords *kept, EtlTrace *trace, guint i, EtlRecord *record)
{
  const KeptRecord *k;
  const guint8 *data;
  gsize len;

  g_return_val_if_fail (kept != NULL && trace != NULL && i < kept->items->len, FALSE);
  if (kept_by_index (kept))
    {
      guint64 index = g_array_index (kept->items, guint64, i);

      return index < etl_trace_get_n_records (trace) && etl_trace_get_record (trace, index, record, NULL);
    }
  k = &g_array_index (kept->items, KeptRecord, i);
  data = g_bytes_get_data (k->bytes, &len);
  if (!etl_record_decode (data, len, record, NULL))
    return FALSE;
  record->file = k->file;
  record->cpu = k->cpu;
  record->filetime = k->filetime;
  record->file_offset = k->file_offset;
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Setting up                                                               */

/* Takes the hooks (their data with them) and numbers their kinds. */
void
etl_trace_hooks_init (EtlTrace *trace, const EtlTraceHook *hooks, guint n_hooks)
{
  guint kind = 1;

  g_assert (n_hooks <= ETL_TRACE_MAX_HOOKS);
  trace->provider_class = g_byte_array_new ();
  trace->any_opcode = -1;
  trace->n_lists = 1;
  trace->n_hooks = n_hooks;
  for (guint h = 0; h < n_hooks; h++)
    {
      const EtlTraceHookClass *klass = hooks[h].klass;

      trace->hooks[h] = hooks[h];
      trace->kind_base[h] = (guint8) (kind - 1);
      g_assert (kind - 1 + klass->n_kinds <= ETL_TRACE_MAX_HOOK_KINDS);
      for (guint k = 1; k <= klass->n_kinds; k++, kind++)
        {
          trace->kind_hook[kind] = (guint8) h;
          trace->kind_list[kind] = 0;
          if (klass->kept_kinds & (1u << k))
            {
              trace->kind_list[kind] = (guint8) trace->n_lists;
              trace->kept[trace->n_lists++] = kept_new (FALSE);
            }
        }
      if (klass->any_provider_opcode >= 0)
        {
          g_assert (trace->any_opcode < 0);
          trace->any_opcode = klass->any_provider_opcode;
          trace->any_opcode_hook = (guint8) h;
        }
    }
}

/* Frees what the hooks did not take, then the hooks' data, last hook first
 * (a hook's data may borrow from an earlier one's). */
void
etl_trace_hooks_clear (EtlTrace *trace)
{
  for (guint l = 1; l < trace->n_lists; l++)
    g_clear_pointer (&trace->kept[l], etl_kept_records_free);
  for (guint h = trace->n_hooks; h-- > 0;)
    if (trace->hooks[h].klass->free != NULL && trace->hooks[h].data != NULL)
      trace->hooks[h].klass->free (g_steal_pointer (&trace->hooks[h].data));
  trace->n_hooks = 0;
  g_clear_pointer (&trace->provider_class, g_byte_array_unref);
}

/**
 * etl_trace_get_hook_data:
 * @trace: a trace
 * @klass: a hook's class
 *
 * Returns: (transfer none) (nullable): the data of the trace's hook of
 *   class @klass, or %NULL when the trace was opened without one
 */
gpointer
etl_trace_get_hook_data (EtlTrace *trace, const EtlTraceHookClass *klass)
{
  g_return_val_if_fail (trace != NULL, NULL);
  for (guint h = 0; h < trace->n_hooks; h++)
    if (trace->hooks[h].klass == klass)
      return trace->hooks[h].data;
  return NULL;
}

/**
 * etl_trace_steal_kept_records:
 * @trace: a trace
 * @klass: the class of one of its hooks
 * @kind: one of the hook's @kept_kinds
 *
 * Takes the records of @kind the walk kept for the hook, in merged order,
 * at most 2,097,152 records and 256 MiB of them (a hostile trace cannot make
 * the reader keep more).  Meant for the hook's @finish; a second call
 * returns %NULL.
 *
 * Returns: (transfer full) (nullable): the kept records
 */
EtlKeptRecords *
etl_trace_steal_kept_records (EtlTrace *trace, const EtlTraceHookClass *klass, guint kind)
{
  g_return_val_if_fail (trace != NULL && klass != NULL, NULL);
  for (guint h = 0; h < trace->n_hooks; h++)
    if (trace->hooks[h].klass == klass)
      {
        guint list;

        g_return_val_if_fail (kind >= 1 && kind <= klass->n_kinds, NULL);
        list = trace->kind_list[trace->kind_base[h] + kind];
        g_return_val_if_fail (list != 0, NULL);
        return g_steal_pointer (&trace->kept[list]);
      }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* Classifying                                                              */

/* Which hook claims @provider, and its class there: hook << 5 | class. */
guint8
etl_trace_hooks_classify_provider (EtlTrace *trace, const EtlGuid *provider)
{
  for (guint h = 0; h < trace->n_hooks; h++)
    {
      const EtlTraceHookClass *klass = trace->hooks[h].klass;
      guint cls = klass->classify_provider != NULL ? klass->classify_provider (provider) : 0;

      if (cls != 0)
        {
          g_assert (cls <= ETL_TRACE_MAX_HOOK_CLASSES);
          return (guint8) (h << ETL_HOOK_CLASS_SHIFT | cls);
        }
    }
  return 0;
}

/* The feed kind of a kernel record, from its HookId. */
guint
etl_trace_hooks_classify_hook (EtlTrace *trace, guint16 hook_id)
{
  for (guint h = 0; h < trace->n_hooks; h++)
    {
      const EtlTraceHookClass *klass = trace->hooks[h].klass;
      guint kind = klass->classify_hook != NULL ? klass->classify_hook (hook_id) : 0;

      if (kind != 0)
        {
          g_assert (kind <= klass->n_kinds);
          return trace->kind_base[h] + kind;
        }
    }
  return 0;
}

static inline guint
classify_with (EtlTrace *trace, guint h, guint cls, guint8 header_type, guint8 opcode, const guint8 *record,
               gsize size)
{
  const EtlTraceHookClass *klass = trace->hooks[h].klass;
  guint kind = klass->classify_record != NULL ? klass->classify_record (cls, header_type, opcode, record, size) : 0;

  g_assert (kind <= klass->n_kinds);
  return kind != 0 ? trace->kind_base[h] + kind : 0;
}

/*
 * The feed kind of a record whose provider has class @provider_class (0:
 * unclaimed, asked for because of its opcode).  An @any_provider_opcode
 * record goes to that hook first, whoever claims its provider.
 */
guint
etl_trace_hooks_classify_record (EtlTrace *trace, guint8 provider_class, guint8 header_type, guint8 opcode,
                                 const guint8 *record, gsize size)
{
  guint kind = 0;

  if (trace->any_opcode == opcode
      && (header_type == ETL_HEADER_TYPE_EVENT_HEADER32 || header_type == ETL_HEADER_TYPE_EVENT_HEADER64))
    kind = classify_with (trace, trace->any_opcode_hook, 0, header_type, opcode, record, size);
  if (kind == 0 && provider_class != 0)
    kind = classify_with (trace, provider_class >> ETL_HOOK_CLASS_SHIFT,
                          provider_class & ((1u << ETL_HOOK_CLASS_SHIFT) - 1), header_type, opcode, record, size);
  return kind;
}

/* ------------------------------------------------------------------------ */
/* Handing over                                                             */

/*
 * A record of feed kind @kind, in merged order: kept (@index is its merged
 * position, used once etl_trace_hooks_keep_by_index() was called) or given
 * to its hook.  A kept record needs only raw, raw_len and size; a handed
 * over one is fully decoded.
 */
void
etl_trace_hooks_add (EtlTrace *trace, guint kind, const EtlRecord *record, guint64 index)
{
  const EtlTraceHook *hook;

  if (kind == 0 || kind > ETL_TRACE_MAX_HOOK_KINDS)
    return;
  if (trace->kind_list[kind] != 0)
    {
      kept_add (trace->kept[trace->kind_list[kind]], record, index);
      return;
    }
  hook = &trace->hooks[trace->kind_hook[kind]];
  if (hook->klass->add != NULL)
    hook->klass->add (hook->data, kind - trace->kind_base[trace->kind_hook[kind]], record);
}

/*
 * The parallel open: kept records are index positions in the final index
 * (every kept list is still empty).  A trace of millions of thread records
 * keeps 8 bytes for each instead of a copy.
 */
void
etl_trace_hooks_keep_by_index (EtlTrace *trace)
{
  for (guint l = 1; l < trace->n_lists; l++)
    {
      g_assert (trace->kept[l]->items->len == 0);
      etl_kept_records_free (trace->kept[l]);
      trace->kept[l] = kept_new (TRUE);
    }
}

/*
 * Keeps all of @indexes (index positions of the records of kept list @list,
 * in merged order; @bytes the sum of their sizes) when the caps cannot stop
 * any of them.  Returns FALSE, keeping nothing, when the caller must add
 * them one by one.
 */
gboolean
etl_trace_hooks_keep_indexes (EtlTrace *trace, guint list, GArray *indexes, guint64 bytes)
{
  EtlKeptRecords *kept = trace->kept[list];

  g_assert (list >= 1 && list < trace->n_lists);
  if (!kept_by_index (kept) || (guint64) kept->items->len + indexes->len > MAX_KEPT_RECORDS
      || (guint64) kept->bytes + bytes > MAX_KEPT_BYTES)
    return FALSE;
  g_array_append_vals (kept->items, indexes->data, indexes->len);
  kept->bytes += (gsize) bytes;
  return TRUE;
}

/* The walk is over: each hook's @finish, in order. */
void
etl_trace_hooks_finish (EtlTrace *trace)
{
  for (guint h = 0; h < trace->n_hooks; h++)
    if (trace->hooks[h].klass->finish != NULL)
      trace->hooks[h].klass->finish (trace->hooks[h].data, trace);
}
