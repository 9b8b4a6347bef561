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
 * of each subject name (the MOF classes of etl-mof-kernel.c:
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
/* The decoder keeps at most this many fields; a subject past it takes the slow path. */
#define MAX_PLAN_PROPERTIES 64

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
  gint32 offset; /* -1: no such field */
  guint8 size;
  guint8 is_signed;
} SubjectField;

typedef struct
{
  PlanKey key;
  gboolean decode; /* use etl_process_table_resolve_record() */
  SubjectField pid[MAX_SUBJECT_NAMES];
  SubjectField tid[MAX_SUBJECT_NAMES];
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
  Plan *last;
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

/* The size of one element of a fixed-size in-type for @pointer_size, as the
 * decoder walks it; 0 for the variable ones. */
static guint
fixed_size (guint in_type, guint pointer_size)
{
  switch (in_type)
    {
    case ETL_IN_INT8:
    case ETL_IN_UINT8:
    case ETL_IN_ANSICHAR:
      return 1;
    case ETL_IN_INT16:
    case ETL_IN_UINT16:
    case ETL_IN_UNICODECHAR:
      return 2;
    case ETL_IN_INT32:
    case ETL_IN_UINT32:
    case ETL_IN_FLOAT:
    case ETL_IN_BOOLEAN:
    case ETL_IN_HEXINT32:
      return 4;
    case ETL_IN_INT64:
    case ETL_IN_UINT64:
    case ETL_IN_DOUBLE:
    case ETL_IN_FILETIME:
    case ETL_IN_HEXINT64:
      return 8;
    case ETL_IN_GUID:
    case ETL_IN_SYSTEMTIME:
      return 16;
    case ETL_IN_POINTER:
    case ETL_IN_SIZET:
      return pointer_size;
    default:
      return 0;
    }
}

/* Whether the decoder gives @in_type a raw number (EtlField.has_number), and
 * whether it sign-extends it. */
static gboolean
integer_type (guint in_type, guint out_type, gboolean *is_signed)
{
  switch (in_type)
    {
    case ETL_IN_INT8:
    case ETL_IN_INT16:
    case ETL_IN_INT32:
    case ETL_IN_INT64:
      *is_signed = TRUE;
      return TRUE;
    case ETL_IN_UINT64:
      *is_signed = out_type == ETL_OUT_NULL || out_type == ETL_OUT_LONG;
      return TRUE;
    case ETL_IN_UINT8:
    case ETL_IN_UINT16:
    case ETL_IN_UINT32:
    case ETL_IN_HEXINT32:
    case ETL_IN_HEXINT64:
    case ETL_IN_BOOLEAN:
    case ETL_IN_POINTER:
    case ETL_IN_SIZET:
    case ETL_IN_FILETIME:
      *is_signed = FALSE;
      return TRUE;
    default:
      return FALSE;
    }
}

static gint
name_index (const char *const *names, const char *name)
{
  for (guint n = 0; names[n] != NULL; n++)
    if (g_ascii_strcasecmp (name, names[n]) == 0)
      return (gint)n;
  return -1;
}

static void
plan_build (EtlProcessResolver *r, Plan *plan, const EtlRecord *record)
{
  g_autoptr (EtlSchema) schema = NULL;
  guint pointer_size = (record->header_type == ETL_HEADER_TYPE_SYSTEM32 || record->header_type == ETL_HEADER_TYPE_COMPACT32
                        || record->header_type == ETL_HEADER_TYPE_PERFINFO32)
                           ? 4
                           : 8;
  gsize offset = 0;
  gboolean fixed = TRUE;
  guint n;

  for (guint i = 0; i < MAX_SUBJECT_NAMES; i++)
    plan->pid[i].offset = plan->tid[i].offset = -1;
  if (r->registry == NULL)
    return;
  schema = etl_schema_registry_lookup_record (r->registry, record);
  if (schema == NULL)
    return;
  n = MIN (schema->n_top_level, schema->n_properties);
  for (guint i = 0; i < n; i++)
    {
      const EtlProperty *prop = &schema->properties[i];
      gboolean plain = prop->count == 1
                       && (prop->flags
                           & (ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_LENGTH | ETL_PROPERTY_PARAM_COUNT
                              | ETL_PROPERTY_PARAM_FIXED_COUNT | ETL_PROPERTY_TO_END | ETL_PROPERTY_INLINE_COUNT))
                              == 0;
      guint size = plain ? fixed_size (prop->in_type, pointer_size) : 0;
      gint pn = prop->name != NULL ? name_index (etl_process_subject_pid_names, prop->name) : -1;
      gint tn = prop->name != NULL ? name_index (etl_process_subject_tid_names, prop->name) : -1;

      if (pn >= 0 || tn >= 0)
        {
          SubjectField *f = pn >= 0 ? &plan->pid[pn] : &plan->tid[tn];
          gboolean is_signed = FALSE;

          if (!fixed || size == 0 || i >= MAX_PLAN_PROPERTIES
              || !integer_type (prop->in_type, prop->out_type, &is_signed))
            {
              plan->decode = TRUE;
              return;
            }
          if (f->offset < 0)
            {
              f->offset = (gint32)offset;
              f->size = (guint8)size;
              f->is_signed = (guint8)is_signed;
            }
        }
      if (size == 0)
        fixed = FALSE;
      offset += size;
      if (offset > G_MAXINT32 / 2)
        fixed = FALSE;
    }
}

/* The plan of a kernel record's kind; @record is read only to build a new
 * plan: when it is %NULL, the record at @index of @trace is read for that. */
static const Plan *
plan_for (EtlProcessResolver *r, const EtlRecordBrief *brief, const EtlRecord *record, EtlTrace *trace,
          guint64 index)
{
  PlanKey key;
  Plan *plan;

  memset (&key, 0, sizeof key);
  key.hook_id = brief->hook_id;
  key.version = brief->version;
  key.header_type = brief->header_type;
  key.kind = brief->kind;
  if (r->last != NULL && plan_key_equal (&r->last->key, &key))
    return r->last;
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
  r->last = plan;
  return plan;
}

/* find_field() + field_number() of etl-process-table.c over the plan: the
 * first name whose first property the payload holds. */
static gboolean
plan_number (const SubjectField *fields, guint n_names, const EtlRecordBrief *record, guint64 *value)
{
  for (guint n = 0; n < n_names; n++)
    {
      const SubjectField *f = &fields[n];
      const guint8 *p;
      guint64 v = 0;

      if (f->offset < 0 || record->user_data == NULL || record->user_data_len < (gsize)f->offset + f->size)
        continue;
      p = record->user_data + f->offset;
      for (guint b = 0; b < f->size; b++)
        v |= (guint64)p[b] << (8 * b);
      if (f->is_signed)
        switch (f->size)
          {
          case 1: v = (guint64)(gint64)(gint8)v; break;
          case 2: v = (guint64)(gint64)(gint16)v; break;
          case 4: v = (guint64)(gint64)(gint32)v; break;
          default: break;
          }
      *value = v;
      return TRUE;
    }
  return FALSE;
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

      if (no_header_pid && plan_number (plan->tid, resolver->n_tid_names, record, &v) && v != NO_ID)
        out_tid = (guint32)v;
      if (plan_number (plan->pid, resolver->n_pid_names, record, &v) && v != NO_ID)
        {
          *pid = (guint32)v;
          if (tid)
            *tid = out_tid;
          return TRUE;
        }
      if (no_header_pid && plan_number (plan->tid, resolver->n_tid_names, record, &v) && v != NO_ID
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
