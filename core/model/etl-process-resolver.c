/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-process-resolver
 * @title: EtlProcessResolver
 * @short_description: etl_process_table_resolve_record() for every record of a trace
 *
 * An #EtlProcessResolver answers what etl_process_table_resolve_record()
 * answers — the process and thread a record belongs to — with the same
 * result for every record, but without decoding kernel payloads into text.
 * etl_process_table_resolve_record() decodes a SYSTEM, COMPACT or PERFINFO
 * record's whole payload (etl_decode_record()) to find its subject fields
 * (ProcessId, PID, StackProcess…; TThreadId, ThreadId, NewThreadId…); over
 * tens of millions of records (PerfInfo SampledProfile is most of a
 * sampling trace) that is most of the time of `etlscope-cli stats` and of
 * the grouped summary.
 *
 * The resolver works that out once per kind of record instead: for each
 * distinct (provider, HookId, version, header type) it looks the record's
 * schema up (etl_schema_registry_lookup_record(), as etl_decode_record()
 * does for kernel records) and, when every property before the subject
 * fields has a fixed size (integers, pointers of the header's pointer size,
 * GUIDs…), keeps the byte offset, size and signedness of the first property
 * of each subject name (etl_schema_plan_fixed_fields(); the MOF classes of etl-mof-kernel.c:
 * PerfInfo_SampledProfile ThreadId after the InstructionPointer, CSwitch
 * NewThreadId at 0, Process_TypeGroup1 ProcessId after UniqueProcessKey…).
 * A field is present exactly when the payload holds its last byte, as the
 * decoder stops at the first property the data cannot hold.  Kinds whose
 * subject follows a variable-size property, or is not an integer, fall back
 * to etl_process_table_resolve_record() itself.
 *
 * Own code rather than a decoder call for speed, as the header above says;
 * tests/test-process-table.c checks it against
 * etl_process_table_resolve_record() on every record of the corpus and of a
 * synthetic trace.
 *
 * A resolver keeps caches and is not thread-safe: make one per worker
 * thread; the table and registry it reads are.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-process-resolver.h"
#include "etl-process-table-private.h"

#define NO_ID G_MAXUINT32
#define MAX_SUBJECT_NAMES 8

/* Kernel records only: their provider follows from the HookId. */
typedef struct
{
  guint16 hook_id;
  guint8 version;
  guint8 header_type;
  guint8 kind;
  guint8 pad[3];
} PlanKey;

typedef struct
{
  PlanKey key;
  gboolean decode; /* use etl_process_table_resolve_record() */
  EtlFixedField pid[MAX_SUBJECT_NAMES];
  EtlFixedField tid[MAX_SUBJECT_NAMES];
} Plan;

/* One remembered lookup: @result is the answer for @id at every FILETIME in
 * [@from, @to). */
typedef struct
{
  guint32 id;
  gboolean used;
  gint64 from;
  gint64 to;
  gconstpointer result;
} Memo;

#define N_MEMOS 1024 /* direct-mapped by id */
#define N_RECENT_PLANS 64 /* 6 bits of a hash */

struct _EtlProcessResolver
{
  Memo threads[N_MEMOS];
  Memo processes[N_MEMOS];
  EtlProcessTable *table;
  EtlSchemaRegistry *registry;
  gboolean finished;
  guint n_pid_names;
  guint n_tid_names;
  GHashTable *plans; /* PlanKey* (in Plan) → Plan* */
  Plan *recent[N_RECENT_PLANS]; /* direct-mapped by plan_key_hash(): kinds interleave */
};

static guint
plan_key_hash (gconstpointer p)
{
  const PlanKey *k = p;

  return ((guint)k->hook_id << 16 | (guint)k->version << 8 | k->header_type) ^ ((guint)k->kind * 2654435761u);
}

static gboolean
plan_key_equal (gconstpointer a, gconstpointer b)
{
  return memcmp (a, b, sizeof (PlanKey)) == 0;
}

/**
 * etl_process_resolver_new:
 * @table: a finished process table (etl_trace_get_process_table());
 *   the resolver decodes with its schema registry, as it does
 *
 * Returns: (transfer full): a resolver for one thread; free with
 *   etl_process_resolver_free()
 */
EtlProcessResolver *
etl_process_resolver_new (EtlProcessTable *table)
{
  EtlProcessResolver *r;
  EtlSchemaRegistry *registry;

  g_return_val_if_fail (table != NULL, NULL);
  r = g_new0 (EtlProcessResolver, 1);
  r->table = etl_process_table_ref (table);
  registry = etl_process_table_get_registry (table);
  r->registry = registry != NULL ? etl_schema_registry_ref (registry) : NULL;
  r->finished = etl_process_table_is_finished (table);
  while (etl_process_subject_pid_names[r->n_pid_names] != NULL)
    r->n_pid_names++;
  while (etl_process_subject_tid_names[r->n_tid_names] != NULL)
    r->n_tid_names++;
  g_assert (r->n_pid_names <= MAX_SUBJECT_NAMES && r->n_tid_names <= MAX_SUBJECT_NAMES);
  r->plans = g_hash_table_new_full (plan_key_hash, plan_key_equal, NULL, g_free);
  return r;
}

/**
 * etl_process_resolver_free:
 * @resolver: (transfer full) (nullable): a resolver
 */
void
etl_process_resolver_free (EtlProcessResolver *resolver)
{
  if (resolver == NULL)
    return;
  g_hash_table_unref (resolver->plans);
  etl_process_table_unref (resolver->table);
  if (resolver->registry != NULL)
    etl_schema_registry_unref (resolver->registry);
  g_free (resolver);
}

static void
plan_build (EtlProcessResolver *r, Plan *plan, const EtlRecord *record)
{
  static const char *const *const lists[] = { etl_process_subject_pid_names, etl_process_subject_tid_names, NULL };
  EtlFixedField *const fields[] = { plan->pid, plan->tid };
  g_autoptr (EtlSchema) schema = NULL;

  for (guint i = 0; i < MAX_SUBJECT_NAMES; i++)
    plan->pid[i].offset = plan->tid[i].offset = -1;
  if (r->registry == NULL)
    return;
  schema = etl_schema_registry_lookup_record (r->registry, record);
  if (schema == NULL)
    return;
  plan->decode = !etl_schema_plan_fixed_fields (schema, etl_record_get_pointer_size (record), lists, fields);
}

/* The plan of a kernel record's kind; @record is read only to build a new
 * plan: when it is %NULL, the record at @index of @trace is read for that. */
static const Plan *
plan_for (EtlProcessResolver *r, const EtlRecordBrief *brief, const EtlRecord *record, EtlTrace *trace,
          guint64 index)
{
  PlanKey key;
  Plan *plan, **slot;

  memset (&key, 0, sizeof key);
  key.hook_id = brief->hook_id;
  key.version = brief->version;
  key.header_type = brief->header_type;
  key.kind = brief->kind;
  slot = &r->recent[(plan_key_hash (&key) * 2654435761u) >> 26]; /* 6 bits */
  if (*slot != NULL && plan_key_equal (&(*slot)->key, &key))
    return *slot;
  plan = g_hash_table_lookup (r->plans, &key);
  if (plan == NULL)
    {
      EtlRecord full;

      if (record == NULL)
        {
          if (!etl_trace_get_record (trace, index, &full, NULL))
            return NULL;
          record = &full;
        }
      plan = g_new0 (Plan, 1);
      plan->key = key;
      plan_build (r, plan, record);
      g_hash_table_insert (r->plans, &plan->key, plan);
      if (record == &full)
        etl_record_clear (&full);
    }
  *slot = plan;
  return plan;
}

static inline guint
memo_slot (guint32 id)
{
  return (id * 2654435761u) >> 22; /* 10 bits */
}

/**
 * etl_process_resolver_lookup_thread:
 * @resolver: a resolver
 * @tid: a thread id
 * @filetime: when, FILETIME
 *
 * Exactly etl_process_table_lookup_thread() on the resolver's table,
 * remembering the answer and the span of time it holds for.
 *
 * Returns: (transfer none) (nullable): the thread, or %NULL
 */
const EtlThread *
etl_process_resolver_lookup_thread (EtlProcessResolver *resolver, guint32 tid, gint64 filetime)
{
  Memo *m = &resolver->threads[memo_slot (tid)];

  if (!m->used || m->id != tid || filetime < m->from || filetime >= m->to)
    {
      m->result = etl_process_table_lookup_thread_span (resolver->table, tid, filetime, &m->from, &m->to);
      m->id = tid;
      m->used = TRUE;
    }
  return m->result;
}

/**
 * etl_process_resolver_lookup:
 * @resolver: a resolver
 * @pid: a process id
 * @filetime: when, FILETIME
 *
 * Exactly etl_process_table_lookup() on the resolver's table, remembering
 * the answer and the span of time it holds for.
 *
 * Returns: (transfer none) (nullable): the process, or %NULL
 */
const EtlProcess *
etl_process_resolver_lookup (EtlProcessResolver *resolver, guint32 pid, gint64 filetime)
{
  Memo *m = &resolver->processes[memo_slot (pid)];

  if (!m->used || m->id != pid || filetime < m->from || filetime >= m->to)
    {
      m->result = etl_process_table_lookup_span (resolver->table, pid, filetime, &m->from, &m->to);
      m->id = pid;
      m->used = TRUE;
    }
  return m->result;
}

static void
brief_from_record (EtlRecordBrief *b, const EtlRecord *r)
{
  memset (b, 0, sizeof *b);
  b->header_type = r->header_type;
  b->kind = r->kind;
  b->has_pid = r->has_pid;
  b->opcode = r->opcode;
  b->hook_id = r->hook_id;
  b->event_id = r->event_id;
  b->version = r->version;
  b->pid = r->pid;
  b->tid = r->tid;
  b->filetime = r->filetime;
  b->user_data = r->user_data;
  b->user_data_len = r->user_data_len;
}

/* Whether the record's subject may be in its payload: a kernel record with
 * a payload, when there are schemas to read it with. */
static inline gboolean
wants_plan (EtlProcessResolver *resolver, const EtlRecordBrief *record)
{
  return (record->kind == ETL_RECORD_KIND_KERNEL || record->kind == ETL_RECORD_KIND_PERFINFO)
         && resolver->registry != NULL && record->user_data_len > 0;
}

/* The resolution of @record given its @plan (%NULL unless wants_plan(); never
 * one to decode). */
static gboolean
resolve_planned (EtlProcessResolver *resolver, const EtlRecordBrief *record, const Plan *plan, guint32 *pid,
                 guint32 *tid)
{
  guint32 out_tid = NO_ID;
  guint64 v;

  *pid = NO_ID;
  if (record->has_pid)
    out_tid = record->tid;
  if (plan != NULL)
    {
      gboolean no_header_pid = !record->has_pid || record->pid == NO_ID;

      if (no_header_pid
          && etl_fixed_field_read (plan->tid, resolver->n_tid_names, record->user_data, record->user_data_len, &v)
          && v != NO_ID)
        out_tid = (guint32)v;
      if (etl_fixed_field_read (plan->pid, resolver->n_pid_names, record->user_data, record->user_data_len, &v)
          && v != NO_ID)
        {
          *pid = (guint32)v;
          if (tid)
            *tid = out_tid;
          return TRUE;
        }
      if (no_header_pid
          && etl_fixed_field_read (plan->tid, resolver->n_tid_names, record->user_data, record->user_data_len, &v)
          && v != NO_ID
          && resolver->finished)
        {
          const EtlThread *t = etl_process_resolver_lookup_thread (resolver, (guint32)v, record->filetime);

          if (t != NULL && t->pid != NO_ID)
            {
              *pid = t->pid;
              if (tid)
                *tid = (guint32)v;
              return TRUE;
            }
        }
    }
  if (tid)
    *tid = out_tid;
  if (record->has_pid && record->pid != NO_ID)
    {
      *pid = record->pid;
      return TRUE;
    }
  if (out_tid != NO_ID && resolver->finished)
    {
      const EtlThread *t = etl_process_resolver_lookup_thread (resolver, out_tid, record->filetime);

      if (t != NULL && t->pid != NO_ID)
        {
          *pid = t->pid;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * etl_process_resolver_resolve:
 * @resolver: a resolver
 * @record: a record of the trace whose table and registry @resolver uses
 * @pid: (out): the process id the record belongs to
 * @tid: (out) (optional): its thread id, G_MAXUINT32 when unknown
 *
 * Exactly etl_process_table_resolve_record (table, @record, %NULL, @pid,
 * @tid) with the resolver's table, faster (see the section overview).
 *
 * Returns: %TRUE when a process id was found
 */
gboolean
etl_process_resolver_resolve (EtlProcessResolver *resolver, const EtlRecord *record, guint32 *pid,
                              guint32 *tid)
{
  EtlRecordBrief brief;
  const Plan *plan = NULL;

  g_return_val_if_fail (resolver != NULL && record != NULL && pid != NULL, FALSE);

  brief_from_record (&brief, record);
  if (wants_plan (resolver, &brief))
    {
      plan = plan_for (resolver, &brief, record, NULL, 0);
      if (plan->decode)
        return etl_process_table_resolve_record (resolver->table, record, NULL, pid, tid);
    }
  return resolve_planned (resolver, &brief, plan, pid, tid);
}

/**
 * etl_process_resolver_resolve_brief:
 * @resolver: a resolver
 * @trace: the trace whose process table @resolver was made with
 * @index: the record's position in @trace's merged sequence
 * @brief: that record, as etl_trace_peek_record() gives it
 * @pid: (out): the process id the record belongs to
 * @tid: (out) (optional): its thread id, G_MAXUINT32 when unknown
 *
 * Exactly etl_process_resolver_resolve() on the record etl_trace_get_record()
 * gives at @index, reading that full record only for the first record of a
 * kind of kernel record and for the kinds whose subject fields need the
 * decoder.
 *
 * Returns: %TRUE when a process id was found
 */
gboolean
etl_process_resolver_resolve_brief (EtlProcessResolver *resolver, EtlTrace *trace, guint64 index,
                                    const EtlRecordBrief *brief, guint32 *pid, guint32 *tid)
{
  const Plan *plan = NULL;

  g_return_val_if_fail (resolver != NULL && trace != NULL && brief != NULL && pid != NULL, FALSE);

  if (wants_plan (resolver, brief))
    {
      plan = plan_for (resolver, brief, NULL, trace, index);
      if (plan == NULL || plan->decode)
        {
          EtlRecord full;
          gboolean found;

          if (!etl_trace_get_record (trace, index, &full, NULL))
            {
              *pid = NO_ID;
              if (tid)
                *tid = NO_ID;
              return FALSE;
            }
          found = etl_process_resolver_resolve (resolver, &full, pid, tid);
          etl_record_clear (&full);
          return found;
        }
    }
  return resolve_planned (resolver, brief, plan, pid, tid);
}
