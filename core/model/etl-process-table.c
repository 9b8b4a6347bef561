/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-process-table
 * @title: EtlProcessTable
 * @short_description: processes and threads of a trace, by id and lifetime
 *
 * Built while a trace is indexed from the records that describe process and
 * thread lifetimes: the kernel's Process class (MOF Process_V2..V4_TypeGroup1:
 * Start, End, DCStart, DCEnd), its Thread class (Thread_V2..V4_TypeGroup1 and
 * Thread SetName) and the Microsoft-Windows-Kernel-Process manifest events
 * ProcessStart/ProcessStop/ThreadStart/ThreadStop.  Their fields are read
 * through the payload decoder by name (ProcessId, ParentId, ImageFileName,
 * CommandLine, TThreadId, …), so every layout the schema registry knows
 * feeds the table.  A trace's table is built from its kept records in
 * parallel; there the kernel Thread records, millions in a long trace,
 * read their two ids in place at the offsets the schema gives
 * (etl_schema_plan_fixed_fields()) instead of through the decoder, and
 * tests/test-process-table.c checks that the table equals one built record
 * by record with the decoder.
 *
 * Windows reuses process and thread ids, so each is keyed by id and time: a
 * lookup returns the lifetime of that id that started last at or before the
 * time asked, or the first one when the time lies before all of them (a
 * record logged before its process's rundown record, as PerfView's own
 * events at the start of a trace are).  Records of the same creation seen
 * twice (the kernel's Process/Start and Kernel-Process ProcessStart, a
 * DCStart and its DCEnd) merge into one entry.
 *
 * Which process a record belongs to follows TraceEvent's rules: kernel
 * records (SYSTEM, COMPACT and PERFINFO headers) carry the subject in their
 * payload (ProcessId, or a thread id such as TThreadId, IssuingThreadId,
 * NewThreadId or the sample's ThreadId, resolved through the thread table);
 * every other record has its process id in its header.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-process-table.h"
#include "etl-process-table-private.h"

#include <string.h>

#include "etl-names.h"
#include "etl-parallel.h"

/* Two records of the same creation or exit (kernel Process/Start and
 * Kernel-Process ProcessStart) lie this close: one second, FILETIME ticks. */
#define MERGE_WINDOW G_GINT64_CONSTANT (10000000)
/* A hostile trace cannot grow the table without bound. */
#define MAX_EVENTS (4u * 1024 * 1024)
#define NO_ID G_MAXUINT32

/* Microsoft-Windows-Kernel-Process */
static const EtlGuid kernel_process_provider
    = { 0x22fb2cd6, 0x0e7b, 0x422b, { 0xa0, 0xc7, 0x2f, 0xad, 0x1f, 0xd0, 0xe7, 0x16 } };
/* The kernel's Process and Thread classes (ProcessGuid, ThreadGuid), for
 * records relogged with a full header. */
static const EtlGuid process_class
    = { 0x3d6fa8d0, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
static const EtlGuid thread_class
    = { 0x3d6fa8d1, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };

#define HOOK_GROUP_PROCESS 0x03
#define HOOK_GROUP_THREAD 0x05
#define THREAD_OPCODE_SET_NAME 72

/* One lifetime record, kept until etl_process_table_finish() orders them. */
typedef struct
{
  gint64 filetime;
  guint seq;
  guint8 is_thread;
  guint8 event;
  guint32 pid;
  guint32 tid;
  guint32 parent_pid;
  guint32 session_id;
  guint32 exit_status;
  gint64 create_time;
  guint64 unique_process_key;
  char *image_name;
  char *command_line; /* or the thread name */
} Pending;

/* Per id: the lifetimes in the order they began. */
typedef struct
{
  guint first; /* index into the sorted array */
  guint count;
} IdRange;

struct _EtlProcessTable
{
  gatomicrefcount ref_count;
  EtlSchemaRegistry *registry;
  GArray *pending; /* Pending */
  gboolean finished;

  /* After finish: sorted by (pid, begin); processes_by_start for listing. */
  EtlProcess *processes;
  guint n_processes;
  gint64 *process_from;   /* lookup key of processes[i] */
  guint *process_by_pid;  /* indices into processes, grouped by pid, by begin */
  GHashTable *pid_ranges; /* pid -> IdRange* */

  EtlThread *threads;
  guint n_threads;
  gint64 *thread_from;
  guint *thread_by_tid;
  GHashTable *tid_ranges;

  GPtrArray *building[2]; /* during finish: process and thread lifetimes (Building) */
};

/**
 * etl_process_table_new:
 * @registry: (nullable): the schemas that etl_process_table_add_record() and
 *   etl_process_table_lookup_record() decode Process and Thread records with
 *
 * Returns: (transfer full): an empty table; add records, then call
 *   etl_process_table_finish() before looking anything up
 */
EtlProcessTable *
etl_process_table_new (EtlSchemaRegistry *registry)
{
  EtlProcessTable *table = g_new0 (EtlProcessTable, 1);

  g_atomic_ref_count_init (&table->ref_count);
  table->registry = registry ? etl_schema_registry_ref (registry) : NULL;
  table->pending = g_array_new (FALSE, TRUE, sizeof (Pending));
  table->pid_ranges = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  table->tid_ranges = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  return table;
}

/**
 * etl_process_table_ref:
 * @table: a table
 *
 * Returns: (transfer full): @table
 */
EtlProcessTable *
etl_process_table_ref (EtlProcessTable *table)
{
  g_return_val_if_fail (table != NULL, NULL);
  g_atomic_ref_count_inc (&table->ref_count);
  return table;
}

static void
clear_pending (GArray *pending)
{
  for (guint i = 0; i < pending->len; i++)
    {
      Pending *p = &g_array_index (pending, Pending, i);

      g_free (p->image_name);
      g_free (p->command_line);
    }
  g_array_set_size (pending, 0);
}

/**
 * etl_process_table_unref:
 * @table: (transfer full): a table
 */
void
etl_process_table_unref (EtlProcessTable *table)
{
  g_return_if_fail (table != NULL);
  if (!g_atomic_ref_count_dec (&table->ref_count))
    return;
  clear_pending (table->pending);
  g_array_unref (table->pending);
  for (guint i = 0; i < table->n_processes; i++)
    {
      g_free (table->processes[i].image_name);
      g_free (table->processes[i].command_line);
    }
  g_free (table->processes);
  g_free (table->process_from);
  g_free (table->process_by_pid);
  for (guint i = 0; i < table->n_threads; i++)
    g_free (table->threads[i].name);
  g_free (table->threads);
  g_free (table->thread_from);
  g_free (table->thread_by_tid);
  g_hash_table_unref (table->pid_ranges);
  g_hash_table_unref (table->tid_ranges);
  g_clear_pointer (&table->registry, etl_schema_registry_unref);
  g_free (table);
}

/* ------------------------------------------------------------------------ */
/* Adding                                                                   */

static Pending *
pending_new (EtlProcessTable *table, gint64 filetime)
{
  Pending *p;

  if (table->pending->len >= MAX_EVENTS)
    return NULL;
  g_array_set_size (table->pending, table->pending->len + 1);
  p = &g_array_index (table->pending, Pending, table->pending->len - 1);
  p->filetime = filetime;
  p->seq = table->pending->len - 1;
  return p;
}

/* The file part of a path ("\Device\HarddiskVolume2\Windows\cmd.exe" → "cmd.exe"). */
static char *
file_part (const char *path)
{
  const char *slash;

  if (path == NULL || *path == '\0')
    return NULL;
  slash = strrchr (path, '\\');
  if (slash == NULL)
    slash = strrchr (path, '/');
  return g_strdup (slash != NULL ? slash + 1 : path);
}

/**
 * etl_process_table_add_process:
 * @table: a table not yet finished
 * @event: what the record says about the lifetime
 * @filetime: the record's time, FILETIME
 * @info: the record's fields; strings are copied
 *
 * Adds one process record.  Records may come in any order; they are applied
 * in time order by etl_process_table_finish().
 */
void
etl_process_table_add_process (EtlProcessTable *table, EtlLifetimeEvent event, gint64 filetime,
                               const EtlProcessInfo *info)
{
  Pending *p;

  g_return_if_fail (table != NULL && info != NULL);
  g_return_if_fail (!table->finished);

  p = pending_new (table, filetime);
  if (p == NULL)
    return;
  p->is_thread = FALSE;
  p->event = event;
  p->pid = info->pid;
  p->tid = NO_ID;
  p->parent_pid = info->parent_pid;
  p->session_id = info->session_id;
  p->exit_status = info->exit_status;
  p->create_time = info->create_time;
  p->unique_process_key = info->unique_process_key;
  p->image_name = file_part (info->image_name);
  p->command_line
      = info->command_line && *info->command_line ? g_strdup (info->command_line) : NULL;
}

/**
 * etl_process_table_add_thread:
 * @table: a table not yet finished
 * @event: what the record says about the lifetime
 * @filetime: the record's time, FILETIME
 * @pid: the owning process id (G_MAXUINT32 when the record does not say,
 *   as for a SetName record without ProcessId)
 * @tid: the thread id
 * @name: (nullable): the thread's name, when the record gives one
 *
 * Adds one thread record (Thread Start/End/DCStart/DCEnd/SetName).
 */
void
etl_process_table_add_thread (EtlProcessTable *table, EtlLifetimeEvent event, gint64 filetime,
                              guint32 pid, guint32 tid, const char *name)
{
  Pending *p;

  g_return_if_fail (table != NULL);
  g_return_if_fail (!table->finished);

  p = pending_new (table, filetime);
  if (p == NULL)
    return;
  p->is_thread = TRUE;
  p->event = event;
  p->pid = pid;
  p->tid = tid;
  p->session_id = NO_ID;
  p->command_line = name && *name ? g_strdup (name) : NULL;
}

/* Which lifetime record a record is, and of what; FALSE for any other record. */
static gboolean
classify (const EtlRecord *record, gboolean *is_thread, EtlLifetimeEvent *event)
{
  guint opcode;

  if (record->kind == ETL_RECORD_KIND_KERNEL || record->kind == ETL_RECORD_KIND_PERFINFO)
    {
      guint group = record->hook_id >> 8;

      if (group != HOOK_GROUP_PROCESS && group != HOOK_GROUP_THREAD)
        return FALSE;
      *is_thread = group == HOOK_GROUP_THREAD;
      opcode = record->hook_id & 0xFF;
    }
  else if (record->kind == ETL_RECORD_KIND_CLASSIC)
    {
      if (etl_guid_equal (&record->provider, &process_class))
        *is_thread = FALSE;
      else if (etl_guid_equal (&record->provider, &thread_class))
        *is_thread = TRUE;
      else
        return FALSE;
      opcode = record->opcode;
    }
  else if (record->kind == ETL_RECORD_KIND_MANIFEST
           && etl_guid_equal (&record->provider, &kernel_process_provider))
    {
      /* ProcessStart 1, ProcessStop 2, ThreadStart 3, ThreadStop 4,
       * ProcessRundown 15, ThreadRundown 5 (the provider's manifest). */
      switch (record->event_id)
        {
        case 1:
          *is_thread = FALSE;
          *event = ETL_LIFETIME_START;
          return TRUE;
        case 2:
          *is_thread = FALSE;
          *event = ETL_LIFETIME_END;
          return TRUE;
        case 3:
          *is_thread = TRUE;
          *event = ETL_LIFETIME_START;
          return TRUE;
        case 4:
          *is_thread = TRUE;
          *event = ETL_LIFETIME_END;
          return TRUE;
        case 5:
          *is_thread = TRUE;
          *event = ETL_LIFETIME_RUNDOWN_START;
          return TRUE;
        case 15:
          *is_thread = FALSE;
          *event = ETL_LIFETIME_RUNDOWN_START;
          return TRUE;
        default:
          return FALSE;
        }
    }
  else
    return FALSE;

  switch (opcode)
    {
    case 1:
      *event = ETL_LIFETIME_START;
      return TRUE;
    case 2:
      *event = ETL_LIFETIME_END;
      return TRUE;
    case 3:
      *event = ETL_LIFETIME_RUNDOWN_START;
      return TRUE;
    case 4:
      *event = ETL_LIFETIME_RUNDOWN_END;
      return TRUE;
    case THREAD_OPCODE_SET_NAME:
      if (*is_thread)
        {
          *event = ETL_LIFETIME_INFO;
          return TRUE;
        }
      return FALSE;
    default:
      return FALSE;
    }
}

/**
 * etl_process_table_is_lifetime_record:
 * @record: a decoded record
 *
 * Whether @record describes a process or thread lifetime, so the indexer
 * hands it to etl_process_table_add_record(): kernel Process and Thread
 * Start/End/DCStart/DCEnd (HookId 0x0301–0x0304, 0x0501–0x0504, also with a
 * full header), Thread SetName (0x0548) and Microsoft-Windows-Kernel-Process
 * events 1–5 and 15.
 *
 * Returns: %TRUE for those records
 */
gboolean
etl_process_table_is_lifetime_record (const EtlRecord *record)
{
  gboolean is_thread;
  EtlLifetimeEvent event;

  g_return_val_if_fail (record != NULL, FALSE);
  return classify (record, &is_thread, &event);
}

static const EtlField *
find_field (const EtlDecoded *decoded, const char *const *names)
{
  for (guint n = 0; names[n] != NULL; n++)
    for (guint i = 0; i < decoded->fields->len; i++)
      {
        const EtlField *f = &g_array_index (decoded->fields, EtlField, i);

        /* The first letters first: this runs for every kernel record. */
        if (f->name != NULL && ((f->name[0] ^ names[n][0]) & ~0x20) == 0
            && g_ascii_strcasecmp (f->name, names[n]) == 0)
          return f;
      }
  return NULL;
}

static gboolean
field_number (const EtlDecoded *decoded, const char *const *names, guint64 *value)
{
  const EtlField *f = find_field (decoded, names);

  if (f == NULL)
    return FALSE;
  if (f->has_number)
    {
      *value = f->number;
      return TRUE;
    }
  if (f->value != NULL)
    {
      const char *s = f->value;
      char *end = NULL;
      guint64 v;

      if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        v = g_ascii_strtoull (s + 2, &end, 16);
      else
        v = g_ascii_strtoull (s, &end, 10);
      if (end != s && end != NULL && *end == '\0')
        {
          *value = v;
          return TRUE;
        }
    }
  return FALSE;
}

static const char *
field_string (const EtlDecoded *decoded, const char *const *names)
{
  const EtlField *f = find_field (decoded, names);

  return f != NULL ? f->value : NULL;
}

/* A FILETIME field: its raw number, or its ISO 8601 text. */
static gint64
field_filetime (const EtlDecoded *decoded, const char *const *names)
{
  const EtlField *f = find_field (decoded, names);
  g_autoptr (GDateTime) dt = NULL;

  if (f == NULL)
    return 0;
  if (f->has_number)
    return (gint64)f->number;
  if (f->value == NULL)
    return 0;
  dt = g_date_time_new_from_iso8601 (f->value, NULL);
  if (dt == NULL)
    return 0;
  /* 1601-01-01 to 1970-01-01 in 100-ns ticks. */
  return G_GINT64_CONSTANT (116444736000000000) + g_date_time_to_unix (dt) * 10000000
         + g_date_time_get_microsecond (dt) * 10;
}

static const char *const pid_names[] = { "ProcessId", "ProcessID", "PID", NULL };
static const char *const parent_names[]
    = { "ParentId", "ParentID", "ParentProcessId", "ParentProcessID", NULL };
static const char *const session_names[] = { "SessionId", "SessionID", NULL };
static const char *const exit_names[] = { "ExitStatus", "ExitCode", NULL };
static const char *const key_names[] = { "UniqueProcessKey", NULL };
static const char *const image_names[] = { "ImageFileName", "ImageName", NULL };
static const char *const command_names[] = { "CommandLine", NULL };
static const char *const create_names[] = { "CreateTime", NULL };
static const char *const tid_names[] = { "TThreadId", "ThreadId", "ThreadID", "TID", NULL };
static const char *const thread_name_names[] = { "ThreadName", NULL };

/* What one lifetime record says, decoded (thread-safe: only the registry is
 * read) and added later in record order. */
typedef struct
{
  gboolean ok;
  gboolean is_thread;
  EtlLifetimeEvent event;
  gint64 filetime;
  guint32 pid;
  guint32 tid;
  char *thread_name;
  EtlProcessInfo info; /* image_name and command_line owned */
} ParsedLifetime;

static void
parsed_clear (ParsedLifetime *p)
{
  g_free (p->thread_name);
  g_free ((char *)p->info.image_name);
  g_free ((char *)p->info.command_line);
  memset (p, 0, sizeof *p);
}

static gboolean
name_in (const char *name, const char *const *const *lists)
{
  for (guint l = 0; lists[l] != NULL; l++)
    for (guint n = 0; lists[l][n] != NULL; n++)
      if (g_ascii_strcasecmp (name, lists[l][n]) == 0)
        return TRUE;
  return FALSE;
}

/* How many fields of @record's payload parse_lifetime() needs decoded: up
 * to the last property it reads, when every property before it is a plain
 * scalar (one field each, so fields and properties line up); else all.
 * Only for kernel records, whose schema is the registry's for the record
 * (as etl_decode_record_prefix() finds it).  A thread record reads 2 of
 * Thread_TypeGroup1's fields instead of formatting all of them. */
static guint
lifetime_prefix (EtlProcessTable *table, const EtlRecord *record, gboolean is_thread, GHashTable *cache)
{
  static const char *const *const thread_lists[] = { pid_names, tid_names, thread_name_names, NULL };
  static const char *const *const process_lists[] = { pid_names,  parent_names, session_names, exit_names,
                                                      key_names,  image_names,  command_names, create_names,
                                                      NULL };
  g_autoptr (EtlSchema) schema = NULL;
  guint last = 0, n;

  if (record->kind != ETL_RECORD_KIND_KERNEL && record->kind != ETL_RECORD_KIND_PERFINFO)
    return G_MAXUINT;
  schema = etl_schema_registry_lookup_record (table->registry, record);
  if (schema == NULL)
    return G_MAXUINT;
  if (cache != NULL)
    {
      /* Schemas live as long as the registry; the low bit of their address is free. */
      gpointer hit = g_hash_table_lookup (cache, GSIZE_TO_POINTER ((gsize)schema | (is_thread ? 1 : 0)));

      if (hit != NULL)
        return GPOINTER_TO_UINT (hit) - 1;
    }
  n = MIN (schema->n_top_level, schema->n_properties);
  for (guint i = 0; i < n; i++)
    {
      const EtlProperty *prop = &schema->properties[i];

      if (prop->name != NULL && name_in (prop->name, is_thread ? thread_lists : process_lists))
        last = i + 1;
    }
  for (guint i = 0; i < last; i++)
    {
      const EtlProperty *prop = &schema->properties[i];

      if (prop->count != 1
          || (prop->flags
              & (ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_COUNT | ETL_PROPERTY_PARAM_FIXED_COUNT | ETL_PROPERTY_TO_END
                 | ETL_PROPERTY_INLINE_COUNT))
                 != 0)
        {
          last = G_MAXUINT;
          break;
        }
    }
  last = last == G_MAXUINT ? G_MAXUINT : MAX (last, 1);
  if (cache != NULL && last < G_MAXUINT)
    g_hash_table_insert (cache, GSIZE_TO_POINTER ((gsize)schema | (is_thread ? 1 : 0)), GUINT_TO_POINTER (last + 1));
  return last;
}

/* Where a kind of kernel Thread record holds its ids, for reading them in
 * place: Thread_TypeGroup1 has ProcessId and TThreadId first.  Kinds with a
 * ThreadName, or ids past a variable-size property, decode (@decode). */
typedef struct
{
  guint16 hook_id;
  guint8 version;
  guint8 header_type;
  guint8 kind;
  gboolean decode;
  EtlFixedField pid[G_N_ELEMENTS (pid_names) - 1];
  EtlFixedField tid[G_N_ELEMENTS (tid_names) - 1];
  EtlFixedField name[G_N_ELEMENTS (thread_name_names) - 1];
} ThreadPlan;

/* What one worker's parse_lifetime() calls remember (not thread-safe). */
typedef struct
{
  GHashTable *prefix;  /* lifetime_prefix()'s */
  GArray *thread_plans; /* ThreadPlan: a handful of kinds */
} ParseCache;

static void
parse_cache_init (ParseCache *cache)
{
  cache->prefix = g_hash_table_new (NULL, NULL);
  cache->thread_plans = g_array_new (FALSE, FALSE, sizeof (ThreadPlan));
}

static void
parse_cache_clear (ParseCache *cache)
{
  g_hash_table_unref (cache->prefix);
  g_array_unref (cache->thread_plans);
}

static const ThreadPlan *
thread_plan_for (EtlProcessTable *table, const EtlRecord *record, ParseCache *cache)
{
  static const char *const *const lists[] = { pid_names, tid_names, thread_name_names, NULL };
  g_autoptr (EtlSchema) schema = NULL;
  ThreadPlan plan;

  for (guint i = 0; i < cache->thread_plans->len; i++)
    {
      const ThreadPlan *p = &g_array_index (cache->thread_plans, ThreadPlan, i);

      if (p->hook_id == record->hook_id && p->version == record->version && p->header_type == record->header_type
          && p->kind == record->kind)
        return p;
    }
  memset (&plan, 0, sizeof plan);
  plan.hook_id = record->hook_id;
  plan.version = (guint8)record->version;
  plan.header_type = record->header_type;
  plan.kind = (guint8)record->kind;
  schema = etl_schema_registry_lookup_record (table->registry, record);
  if (schema == NULL)
    plan.decode = TRUE; /* the decoder may take an earlier version's schema */
  else
    {
      EtlFixedField *const fields[] = { plan.pid, plan.tid, plan.name };
      plan.decode = !etl_schema_plan_fixed_fields (schema, etl_record_get_pointer_size (record), lists, fields)
                    || plan.name[0].offset >= 0;
    }
  g_array_append_val (cache->thread_plans, plan);
  return &g_array_index (cache->thread_plans, ThreadPlan, cache->thread_plans->len - 1);
}

/* parse_lifetime() of a kernel Thread record whose ids lie at fixed offsets,
 * without the decoder: what find_field() and field_number() would find in
 * its decoded fields.  %FALSE when the record needs the decoder. */
static gboolean
parse_thread_in_place (EtlProcessTable *table, const EtlRecord *record, ParsedLifetime *out, ParseCache *cache)
{
  const ThreadPlan *plan;
  guint64 pid, tid;

  if (cache == NULL || !out->is_thread
      || (record->kind != ETL_RECORD_KIND_KERNEL && record->kind != ETL_RECORD_KIND_PERFINFO))
    return FALSE;
  plan = thread_plan_for (table, record, cache);
  if (plan->decode)
    return FALSE;
  if (!etl_fixed_field_read (plan->pid, G_N_ELEMENTS (plan->pid), record->user_data, record->user_data_len, &pid))
    {
      if (!record->has_pid)
        return TRUE; /* not ok: as parse_lifetime() */
      pid = record->pid;
    }
  if (!etl_fixed_field_read (plan->tid, G_N_ELEMENTS (plan->tid), record->user_data, record->user_data_len, &tid))
    {
      if (!record->has_pid)
        return TRUE;
      tid = record->tid;
    }
  out->filetime = record->filetime;
  out->pid = (guint32)pid;
  out->tid = (guint32)tid;
  out->ok = TRUE;
  return TRUE;
}

static gboolean
parse_lifetime (EtlProcessTable *table, const EtlRecord *record, ParsedLifetime *out, ParseCache *cache)
{
  g_autoptr (EtlDecoded) decoded = NULL;
  guint64 pid = NO_ID, v;

  memset (out, 0, sizeof *out);
  if (!classify (record, &out->is_thread, &out->event) || table->registry == NULL)
    return FALSE;
  if (parse_thread_in_place (table, record, out, cache))
    return out->ok;
  decoded = etl_decode_record_prefix (table->registry, NULL, record,
                                      lifetime_prefix (table, record, out->is_thread, cache ? cache->prefix : NULL));
  if (decoded == NULL || decoded->schema == NULL || decoded->fields == NULL)
    return FALSE;

  if (!field_number (decoded, pid_names, &pid))
    {
      /* Kernel-Process ThreadStart and thread SetName are logged by the process itself. */
      if (!out->is_thread || !record->has_pid)
        return FALSE;
      pid = record->pid;
    }
  out->filetime = record->filetime;
  out->pid = (guint32)pid;
  if (out->is_thread)
    {
      guint64 tid;

      if (!field_number (decoded, tid_names, &tid))
        {
          if (!record->has_pid)
            return FALSE;
          tid = record->tid;
        }
      out->tid = (guint32)tid;
      out->thread_name = g_strdup (field_string (decoded, thread_name_names));
    }
  else
    {
      out->info.pid = (guint32)pid;
      out->info.session_id = NO_ID;
      if (field_number (decoded, parent_names, &v))
        out->info.parent_pid = (guint32)v;
      if (field_number (decoded, session_names, &v))
        out->info.session_id = (guint32)v;
      if (field_number (decoded, exit_names, &v))
        out->info.exit_status = (guint32)v;
      if (field_number (decoded, key_names, &v))
        out->info.unique_process_key = v;
      out->info.create_time = field_filetime (decoded, create_names);
      out->info.image_name = g_strdup (field_string (decoded, image_names));
      out->info.command_line = g_strdup (field_string (decoded, command_names));
    }
  out->ok = TRUE;
  return TRUE;
}

static void
add_parsed (EtlProcessTable *table, const ParsedLifetime *p)
{
  if (p->is_thread)
    etl_process_table_add_thread (table, p->event, p->filetime, p->pid, p->tid, p->thread_name);
  else
    etl_process_table_add_process (table, p->event, p->filetime, &p->info);
}

/**
 * etl_process_table_add_record:
 * @table: a table not yet finished
 * @record: a record whose etl_process_table_is_lifetime_record() is %TRUE
 *
 * Decodes @record with the table's schema registry and adds what it says.
 *
 * Returns: %TRUE when the record was a lifetime record with a process or
 *   thread id; %FALSE for any other record or when no schema decoded the id
 */
gboolean
etl_process_table_add_record (EtlProcessTable *table, const EtlRecord *record)
{
  ParsedLifetime parsed;
  gboolean ok;

  g_return_val_if_fail (table != NULL && record != NULL, FALSE);
  g_return_val_if_fail (!table->finished, FALSE);

  ok = parse_lifetime (table, record, &parsed, NULL);
  if (ok)
    add_parsed (table, &parsed);
  parsed_clear (&parsed);
  return ok;
}

typedef struct
{
  EtlProcessTable *table;
  EtlProcessTableReader read;
  gpointer read_data;
  ParsedLifetime *parsed;
} ParseJob;

static void
parse_range (guint worker, guint64 first, guint64 last, gpointer data)
{
  ParseJob *job = data;
  ParseCache cache;

  (void)worker;
  parse_cache_init (&cache);
  for (guint64 i = first; i < last; i++)
    {
      EtlRecord record;

      if (!job->read (job->read_data, (guint)i, &record))
        continue;
      parse_lifetime (job->table, &record, &job->parsed[i], &cache);
      etl_record_clear (&record);
    }
  parse_cache_clear (&cache);
}

/* etl_process_table_add_record() for @n_records records in a row, read by
 * @read and decoded in parallel (one thread per processor; @read must be
 * thread-safe) and added in their order, so the table is the same
 * (etl-process-table-private.h).  Kernel Thread records read their ids in
 * place (parse_thread_in_place()), as the test compares. */
void
etl_process_table_add_read_records (EtlProcessTable *table, guint n_records, EtlProcessTableReader read,
                                    gpointer read_data)
{
  g_autofree ParsedLifetime *parsed = NULL;
  ParseJob job;

  g_return_if_fail (table != NULL && read != NULL);
  g_return_if_fail (!table->finished);

  parsed = g_new0 (ParsedLifetime, MAX (n_records, 1));
  job.table = table;
  job.read = read;
  job.read_data = read_data;
  job.parsed = parsed;
  etl_parallel_ranges (etl_parallel_n_workers (n_records, 4096), 0, n_records, parse_range, &job);
  for (guint i = 0; i < n_records; i++)
    {
      if (parsed[i].ok)
        add_parsed (table, &parsed[i]);
      parsed_clear (&parsed[i]);
    }
}

/* ------------------------------------------------------------------------ */
/* Building                                                                 */

typedef struct
{
  EtlProcess p; /* or the thread's fields in the thread pass */
  EtlThread t;
  gint64 from;    /* lookup key: where this lifetime begins */
  gboolean alive; /* no End seen yet */
  guint pos;      /* position in the listing */
} Building;

static gint
compare_pending (gconstpointer a, gconstpointer b)
{
  const Pending *x = a, *y = b;

  if (x->filetime != y->filetime)
    return x->filetime < y->filetime ? -1 : 1;
  return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static void
fill (char **dst, const char *src)
{
  if ((*dst == NULL || **dst == '\0') && src != NULL && *src != '\0')
    {
      g_free (*dst);
      *dst = g_strdup (src);
    }
}

static void
merge_process (EtlProcess *e, const Pending *p)
{
  fill (&e->image_name, p->image_name);
  fill (&e->command_line, p->command_line);
  if (e->parent_pid == 0)
    e->parent_pid = p->parent_pid;
  if (e->session_id == NO_ID)
    e->session_id = p->session_id;
  if (e->unique_process_key == 0)
    e->unique_process_key = p->unique_process_key;
  e->first_seen = MIN (e->first_seen, p->filetime);
  e->last_seen = MAX (e->last_seen, p->filetime);
}

/* The newest lifetime of @id in @by_id (GPtrArray of Building per id). */
static Building *
current_of (GHashTable *by_id, guint32 id)
{
  GPtrArray *list = g_hash_table_lookup (by_id, GUINT_TO_POINTER (id));

  return list != NULL && list->len > 0 ? g_ptr_array_index (list, list->len - 1) : NULL;
}

static Building *
new_lifetime (GHashTable *by_id, GPtrArray *all, guint32 id, gint64 start, gint64 seen)
{
  GPtrArray *list = g_hash_table_lookup (by_id, GUINT_TO_POINTER (id));
  Building *prev = list != NULL && list->len > 0 ? g_ptr_array_index (list, list->len - 1) : NULL;
  Building *b = g_new0 (Building, 1);

  if (list == NULL)
    {
      list = g_ptr_array_new ();
      g_hash_table_insert (by_id, GUINT_TO_POINTER (id), list);
    }
  b->alive = TRUE;
  b->p.session_id = NO_ID;
  /* A lifetime whose start is unknown begins where the previous one of
   * the same id ended (or at the dawn of time for the first). */
  if (start != 0)
    b->from = start;
  else if (prev != NULL)
    {
      gint64 prev_end = MAX (prev->p.end_time, prev->t.end_time); /* one of them is set */

      b->from = prev_end != 0 ? prev_end : seen;
    }
  else
    b->from = G_MININT64;
  b->p.first_seen = b->p.last_seen = seen;
  g_ptr_array_add (list, b);
  g_ptr_array_add (all, b);
  return b;
}

static void
apply_process (GHashTable *by_pid, GPtrArray *all, const Pending *p)
{
  Building *cur = current_of (by_pid, p->pid);
  Building *b = NULL;
  gint64 t = p->filetime;

  switch ((EtlLifetimeEvent)p->event)
    {
    case ETL_LIFETIME_START:
      {
        gint64 start = p->create_time != 0 ? p->create_time : t;

        if (cur != NULL && cur->alive && cur->p.start_time != 0
            && ABS (cur->p.start_time - start) <= MERGE_WINDOW)
          b = cur;
        else
          {
            if (cur != NULL && cur->alive)
              cur->p.end_time = t; /* its End record was lost */
            if (cur != NULL)
              cur->alive = FALSE;
            b = new_lifetime (by_pid, all, p->pid, start, t);
            b->p.start_time = start;
          }
        /* The kernel's own record is the more precise start. */
        if (p->create_time == 0 && b->p.start_time > t)
          b->p.start_time = t;
      }
      break;

    case ETL_LIFETIME_RUNDOWN_START:
      b = cur != NULL && cur->alive ? cur : new_lifetime (by_pid, all, p->pid, 0, t);
      break;

    case ETL_LIFETIME_END:
      if (cur != NULL && cur->alive)
        b = cur;
      else if (cur != NULL && ABS (cur->p.end_time - t) <= MERGE_WINDOW)
        b = cur; /* the same exit seen by a second provider */
      else
        b = new_lifetime (by_pid, all, p->pid, 0, t);
      if (b->alive || b->p.end_time == 0)
        b->p.end_time = t;
      b->alive = FALSE;
      if (p->exit_status != 0 || b->p.exit_status == 0)
        b->p.exit_status = p->exit_status;
      break;

    case ETL_LIFETIME_RUNDOWN_END:
    case ETL_LIFETIME_INFO:
    default:
      b = cur != NULL && cur->alive ? cur : new_lifetime (by_pid, all, p->pid, 0, t);
      break;
    }
  b->p.pid = p->pid;
  merge_process (&b->p, p);
}

static void
apply_thread (GHashTable *by_tid, GPtrArray *all, const Pending *p)
{
  Building *cur = current_of (by_tid, p->tid);
  Building *b = NULL;
  gint64 t = p->filetime;
  gboolean same_owner = cur != NULL && (p->pid == NO_ID || cur->t.pid == p->pid);

  switch ((EtlLifetimeEvent)p->event)
    {
    case ETL_LIFETIME_START:
      if (cur != NULL && cur->alive && same_owner && cur->t.start_time != 0
          && ABS (cur->t.start_time - t) <= MERGE_WINDOW)
        b = cur;
      else
        {
          if (cur != NULL && cur->alive)
            {
              cur->t.end_time = t;
              cur->alive = FALSE;
            }
          b = new_lifetime (by_tid, all, p->tid, t, t);
          b->t.start_time = t;
        }
      break;

    case ETL_LIFETIME_END:
      if (cur != NULL && (cur->alive || ABS (cur->t.end_time - t) <= MERGE_WINDOW) && same_owner)
        b = cur;
      else
        b = new_lifetime (by_tid, all, p->tid, 0, t);
      if (b->alive || b->t.end_time == 0)
        b->t.end_time = t;
      b->alive = FALSE;
      break;

    case ETL_LIFETIME_RUNDOWN_START:
    case ETL_LIFETIME_RUNDOWN_END:
    case ETL_LIFETIME_INFO:
    default:
      if (cur != NULL && cur->alive && same_owner)
        b = cur;
      else
        {
          if (cur != NULL && cur->alive)
            {
              cur->t.end_time = t;
              cur->alive = FALSE;
            }
          b = new_lifetime (by_tid, all, p->tid, 0, t);
        }
      break;
    }
  b->t.tid = p->tid;
  if (p->pid != NO_ID)
    b->t.pid = p->pid;
  else if (b->t.pid == 0 && cur == NULL)
    b->t.pid = NO_ID;
  fill (&b->t.name, p->command_line);
  b->p.first_seen = MIN (b->p.first_seen, t);
  b->p.last_seen = MAX (b->p.last_seen, t);
}

static gint64
listing_start (const Building *b, gboolean threads)
{
  return threads ? b->t.start_time : b->p.start_time;
}

static guint32
id_of (const Building *b, gboolean threads)
{
  return threads ? b->t.tid : b->p.pid;
}

/* Listing order: lifetimes already running when the trace began first, by
 * id (as a process list reads), then the others by start time. */
static gint
compare_listing (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Building *x = *(Building *const *)a, *y = *(Building *const *)b;
  gboolean threads = GPOINTER_TO_INT (user_data);
  gint64 sx = listing_start (x, threads), sy = listing_start (y, threads);
  guint32 ix = id_of (x, threads), iy = id_of (y, threads);

  if ((sx == 0) != (sy == 0))
    return sx == 0 ? -1 : 1;
  if (sx == 0 && ix != iy)
    return ix < iy ? -1 : 1;
  if (sx == 0 && x->p.first_seen != y->p.first_seen)
    return x->p.first_seen < y->p.first_seen ? -1 : 1;
  if (sx != sy)
    return sx < sy ? -1 : 1;
  return ix < iy ? -1 : (ix > iy);
}

static gint
compare_id_from (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const Building *x = *(Building *const *)a, *y = *(Building *const *)b;
  gboolean threads = GPOINTER_TO_INT (user_data);
  guint32 ix = id_of (x, threads), iy = id_of (y, threads);

  if (ix != iy)
    return ix < iy ? -1 : 1;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  return x->pos < y->pos ? -1 : (x->pos > y->pos);
}

/* Orders @all for listing (sets each pos) and builds the per-id lookup. */
static void
index_lifetimes (GPtrArray *all, gboolean threads, guint **by_id_out, gint64 **from_out,
                 GHashTable *ranges)
{
  g_autoptr (GPtrArray) by_id = g_ptr_array_new ();
  guint *by_id_index;
  gint64 *from;

  g_ptr_array_sort_with_data (all, compare_listing, GINT_TO_POINTER (threads));
  for (guint i = 0; i < all->len; i++)
    {
      Building *b = g_ptr_array_index (all, i);

      b->pos = i;
      g_ptr_array_add (by_id, b);
    }
  g_ptr_array_sort_with_data (by_id, compare_id_from, GINT_TO_POINTER (threads));
  by_id_index = g_new (guint, MAX (by_id->len, 1));
  from = g_new (gint64, MAX (by_id->len, 1));
  for (guint i = 0; i < by_id->len; i++)
    {
      Building *b = g_ptr_array_index (by_id, i);
      guint32 id = id_of (b, threads);
      IdRange *r = g_hash_table_lookup (ranges, GUINT_TO_POINTER (id));

      if (r == NULL)
        {
          r = g_new0 (IdRange, 1);
          r->first = i;
          g_hash_table_insert (ranges, GUINT_TO_POINTER (id), r);
        }
      r->count++;
      by_id_index[i] = b->pos;
      from[i] = b->from;
    }
  *by_id_out = by_id_index;
  *from_out = from;
}

/* The lifetime of @id at @filetime: the last one begun at or before it, else the first. */
static gint
lookup_index (GHashTable *ranges, const guint *by_id, const gint64 *from, guint32 id,
              gint64 filetime)
{
  const IdRange *r = g_hash_table_lookup (ranges, GUINT_TO_POINTER (id));
  guint lo, hi;

  if (r == NULL)
    return -1;
  lo = r->first;
  hi = r->first + r->count;
  /* First entry whose begin is after @filetime. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (from[mid] <= filetime)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gint)by_id[lo > r->first ? lo - 1 : r->first];
}

static void
free_list (gpointer list)
{
  g_ptr_array_unref (list);
}

/* etl_process_table_finish()'s pass over the pending records of one kind
 * (@kind 0: processes, 1: threads): the lifetimes, indexed by id, into
 * table->building[@kind].  The two passes share nothing. */
static void
finish_kind (guint worker, guint64 first, guint64 last, gpointer data)
{
  EtlProcessTable *table = data;

  (void)worker;
  for (guint64 kind = first; kind < last; kind++)
    {
      gboolean threads = kind == 1;
      g_autoptr (GHashTable) by_id = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, free_list);
      GPtrArray *all = g_ptr_array_new_with_free_func (g_free);

      for (guint i = 0; i < table->pending->len; i++)
        {
          const Pending *p = &g_array_index (table->pending, Pending, i);

          if (threads && p->is_thread)
            apply_thread (by_id, all, p);
          else if (!threads && !p->is_thread)
            apply_process (by_id, all, p);
        }
      if (threads)
        index_lifetimes (all, TRUE, &table->thread_by_tid, &table->thread_from, table->tid_ranges);
      else
        index_lifetimes (all, FALSE, &table->process_by_pid, &table->process_from, table->pid_ranges);
      table->building[kind] = all;
    }
}

/**
 * etl_process_table_finish:
 * @table: a table
 *
 * Applies the records added so far in time order and builds the lookups.
 * Call once, before any lookup and before sharing the table between
 * threads; afterwards the table is read-only and thread-safe.  A second call
 * does nothing.
 */
void
etl_process_table_finish (EtlProcessTable *table)
{
  g_autoptr (GPtrArray) all_p = NULL;
  g_autoptr (GPtrArray) all_t = NULL;

  g_return_if_fail (table != NULL);
  if (table->finished)
    return;
  table->finished = TRUE;

  /* Records arrive in time order from a trace: sort only when they did not. */
  for (guint i = 1; i < table->pending->len; i++)
    if (compare_pending (&g_array_index (table->pending, Pending, i - 1), &g_array_index (table->pending, Pending, i)) > 0)
      {
        g_array_sort (table->pending, compare_pending);
        break;
      }
  /* Processes and threads are built side by side: they meet only at the end,
   * where each thread finds its process. */
  etl_parallel_ranges (2, 0, 2, finish_kind, table);
  clear_pending (table->pending);
  all_p = g_steal_pointer (&table->building[0]);
  all_t = g_steal_pointer (&table->building[1]);

  table->n_processes = all_p->len;
  table->processes = g_new0 (EtlProcess, MAX (all_p->len, 1));
  for (guint i = 0; i < all_p->len; i++)
    {
      Building *b = g_ptr_array_index (all_p, i);

      table->processes[i] = b->p;
      table->processes[i].index = i;
    }

  table->n_threads = all_t->len;
  table->threads = g_new0 (EtlThread, MAX (all_t->len, 1));
  for (guint i = 0; i < all_t->len; i++)
    {
      Building *b = g_ptr_array_index (all_t, i);
      EtlThread *t = &table->threads[i];

      *t = b->t;
      if (t->pid != NO_ID)
        t->process = etl_process_table_lookup (
            table, t->pid, t->start_time != 0 ? t->start_time : b->p.first_seen);
    }
}

/* ------------------------------------------------------------------------ */
/* Lookups                                                                  */

/**
 * etl_process_table_get_processes:
 * @table: a finished table
 * @n_processes: (out): number of entries
 *
 * Every process lifetime: those running when the trace began first (by
 * pid), then those started during it (by start time).
 *
 * Returns: (transfer none) (array length=n_processes): the processes
 */
const EtlProcess *
etl_process_table_get_processes (EtlProcessTable *table, guint *n_processes)
{
  g_return_val_if_fail (table != NULL && n_processes != NULL, NULL);
  g_return_val_if_fail (table->finished, NULL);
  *n_processes = table->n_processes;
  return table->processes;
}

/**
 * etl_process_table_get_threads:
 * @table: a finished table
 * @n_threads: (out): number of entries
 *
 * Every thread lifetime, in the order of etl_process_table_get_processes().
 *
 * Returns: (transfer none) (array length=n_threads): the threads
 */
const EtlThread *
etl_process_table_get_threads (EtlProcessTable *table, guint *n_threads)
{
  g_return_val_if_fail (table != NULL && n_threads != NULL, NULL);
  g_return_val_if_fail (table->finished, NULL);
  *n_threads = table->n_threads;
  return table->threads;
}

/**
 * etl_process_table_lookup:
 * @table: a finished table
 * @pid: a process id
 * @filetime: when, FILETIME
 *
 * The lifetime of @pid that began last at or before @filetime, or its first
 * lifetime when @filetime lies before all of them.
 *
 * Returns: (transfer none) (nullable): the process, or %NULL when no record
 *   described @pid
 */
const EtlProcess *
etl_process_table_lookup (EtlProcessTable *table, guint32 pid, gint64 filetime)
{
  gint i;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (table->finished, NULL);
  i = lookup_index (table->pid_ranges, table->process_by_pid, table->process_from, pid, filetime);
  return i >= 0 ? &table->processes[i] : NULL;
}

/**
 * etl_process_table_lookup_thread:
 * @table: a finished table
 * @tid: a thread id
 * @filetime: when, FILETIME
 *
 * As etl_process_table_lookup(), for threads.
 *
 * Returns: (transfer none) (nullable): the thread, or %NULL
 */
const EtlThread *
etl_process_table_lookup_thread (EtlProcessTable *table, guint32 tid, gint64 filetime)
{
  gint i;

  g_return_val_if_fail (table != NULL, NULL);
  g_return_val_if_fail (table->finished, NULL);
  i = lookup_index (table->tid_ranges, table->thread_by_tid, table->thread_from, tid, filetime);
  return i >= 0 ? &table->threads[i] : NULL;
}

/* lookup_index(), and the FILETIMEs [*span_from, *span_to) that give the
 * same answer for @id. */
static gint
lookup_index_span (GHashTable *ranges, const guint *by_id, const gint64 *from, guint32 id, gint64 filetime,
                   gint64 *span_from, gint64 *span_to)
{
  const IdRange *r = g_hash_table_lookup (ranges, GUINT_TO_POINTER (id));
  guint lo, hi;

  *span_from = G_MININT64;
  *span_to = G_MAXINT64;
  if (r == NULL)
    return -1;
  lo = r->first;
  hi = r->first + r->count;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (from[mid] <= filetime)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > r->first)
    *span_from = from[lo - 1];
  if (lo < r->first + r->count)
    *span_to = from[lo];
  return (gint)by_id[lo > r->first ? lo - 1 : r->first];
}

/* etl_process_table_lookup() and the FILETIMEs [*from, *to) around
 * @filetime that give the same answer (etl-process-table-private.h). */
const EtlProcess *
etl_process_table_lookup_span (EtlProcessTable *table, guint32 pid, gint64 filetime, gint64 *from, gint64 *to)
{
  gint i;

  g_return_val_if_fail (table != NULL && table->finished, NULL);
  i = lookup_index_span (table->pid_ranges, table->process_by_pid, table->process_from, pid, filetime, from, to);
  return i >= 0 ? &table->processes[i] : NULL;
}

/* etl_process_table_lookup_thread() and the FILETIMEs [*from, *to) around
 * @filetime that give the same answer (etl-process-table-private.h). */
const EtlThread *
etl_process_table_lookup_thread_span (EtlProcessTable *table, guint32 tid, gint64 filetime, gint64 *from,
                                      gint64 *to)
{
  gint i;

  g_return_val_if_fail (table != NULL && table->finished, NULL);
  i = lookup_index_span (table->tid_ranges, table->thread_by_tid, table->thread_from, tid, filetime, from, to);
  return i >= 0 ? &table->threads[i] : NULL;
}

/* Whether etl_process_table_finish() ran (etl-process-table-private.h). */
gboolean
etl_process_table_is_finished (EtlProcessTable *table)
{
  return table->finished;
}

/* The registry it decodes with (etl-process-table-private.h). */
EtlSchemaRegistry *
etl_process_table_get_registry (EtlProcessTable *table)
{
  return table->registry;
}

/* Payload fields that name a kernel record's subject, as TraceEvent reads
 * them: the process first, then a thread. */
const char *const etl_process_subject_pid_names[]
    = { "ProcessId", "ProcessID", "PID", "StackProcess", NULL };
const char *const etl_process_subject_tid_names[]
    = { "TThreadId", "ThreadId", "IssuingThreadId", "NewThreadId", "TTID", "StackThread", NULL };

/**
 * etl_process_table_resolve_record:
 * @table: a finished table
 * @record: a decoded record
 * @decoded: (nullable): @record's fields, when the caller has them already
 * @pid: (out): the process id the record belongs to
 * @tid: (out) (optional): its thread id, G_MAXUINT32 when unknown
 *
 * The process and thread a record belongs to.  Kernel records (SYSTEM,
 * COMPACT, PERFINFO headers) name their subject in the payload: ProcessId
 * (Process, Image, TcpIp/UdpIp "PID", StackWalk StackProcess); else the
 * header's process id; else, when the header has none (PERFINFO) or -1, a
 * thread id in the payload (Thread TThreadId, SampledProfile ThreadId,
 * DiskIo IssuingThreadId, CSwitch NewThreadId, FileIo TTID, StackWalk
 * StackThread) or the header's, resolved through the thread table.  Other
 * records use their header.
 *
 * Returns: %TRUE when a process id was found
 */
gboolean
etl_process_table_resolve_record (EtlProcessTable *table, const EtlRecord *record,
                                  const EtlDecoded *decoded, guint32 *pid, guint32 *tid)
{
  g_autoptr (EtlDecoded) own = NULL;
  guint32 out_tid = NO_ID;
  guint64 v;

  g_return_val_if_fail (table != NULL && record != NULL && pid != NULL, FALSE);

  *pid = NO_ID;
  if (record->has_pid)
    out_tid = record->tid;
  if (record->kind == ETL_RECORD_KIND_KERNEL || record->kind == ETL_RECORD_KIND_PERFINFO)
    {
      if (decoded == NULL && table->registry != NULL && record->user_data_len > 0)
        decoded = own = etl_decode_record (table->registry, NULL, record);
      if (decoded != NULL && decoded->fields != NULL)
        {
          if ((!record->has_pid || record->pid == NO_ID)
              && field_number (decoded, etl_process_subject_tid_names, &v) && v != NO_ID)
            out_tid = (guint32)v;
          if (field_number (decoded, etl_process_subject_pid_names, &v) && v != NO_ID)
            {
              *pid = (guint32)v;
              if (tid)
                *tid = out_tid;
              return TRUE;
            }
          /* A thread named in the payload only stands in for a header
           * without a process (PERFINFO, or -1): DiskIo's IssuingThreadId
           * is not the thread that logged the request. */
          if ((!record->has_pid || record->pid == NO_ID)
              && field_number (decoded, etl_process_subject_tid_names, &v) && v != NO_ID && table->finished)
            {
              const EtlThread *t
                  = etl_process_table_lookup_thread (table, (guint32)v, record->filetime);

              if (t != NULL && t->pid != NO_ID)
                {
                  *pid = t->pid;
                  if (tid)
                    *tid = (guint32)v;
                  return TRUE;
                }
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
  if (out_tid != NO_ID && table->finished)
    {
      const EtlThread *t = etl_process_table_lookup_thread (table, out_tid, record->filetime);

      if (t != NULL && t->pid != NO_ID)
        {
          *pid = t->pid;
          return TRUE;
        }
    }
  return FALSE;
}

/**
 * etl_process_table_lookup_record:
 * @table: a finished table
 * @record: a decoded record
 * @decoded: (nullable): @record's fields, when the caller has them already
 *   (saves decoding kernel records a second time)
 *
 * The process a record belongs to (etl_process_table_resolve_record()) at
 * the record's time.
 *
 * Returns: (transfer none) (nullable): the process, or %NULL when the record
 *   names no process or no record described it
 */
const EtlProcess *
etl_process_table_lookup_record (EtlProcessTable *table, const EtlRecord *record,
                                 const EtlDecoded *decoded)
{
  guint32 pid;

  g_return_val_if_fail (table != NULL && record != NULL, NULL);
  if (!etl_process_table_resolve_record (table, record, decoded, &pid, NULL))
    return NULL;
  return etl_process_table_lookup (table, pid, record->filetime);
}

/**
 * etl_process_format_name:
 * @process: (nullable): a process
 * @pid: the process id to show when @process is %NULL or has no name
 *
 * Formats a process as tools show it: "Test.x64.exe (3676)"; without a
 * name, "Process(3676)" as TraceEvent does.
 *
 * Returns: (transfer full): the text
 */
char *
etl_process_format_name (const EtlProcess *process, guint32 pid)
{
  if (process != NULL && process->image_name != NULL)
    return g_strdup_printf ("%s (%u)", process->image_name, process->pid);
  return g_strdup_printf ("Process(%u)", process != NULL ? process->pid : pid);
}

/**
 * etl_process_dup_short_name:
 * @process: (nullable): a process
 *
 * The image name without its ".exe" extension ("Test.x64.exe" → "Test.x64"),
 * as TraceEvent's ProcessName (PName) shows it.
 *
 * Returns: (transfer full) (nullable): the name, or %NULL without one
 */
char *
etl_process_dup_short_name (const EtlProcess *process)
{
  gsize len;

  if (process == NULL || process->image_name == NULL)
    return NULL;
  len = strlen (process->image_name);
  if (len > 4 && g_ascii_strcasecmp (process->image_name + len - 4, ".exe") == 0)
    return g_strndup (process->image_name, len - 4);
  return g_strdup (process->image_name);
}
