/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace.c: opening a trace with everything the views need, and its
 * process table.
 *
 * etl_trace_open_full() is the reader's open (etl_trace_open_with_hooks())
 * with two hooks: the decoder's (etl-trace-decode.c: schemas, volumes,
 * file names) and the process table's, here.  The process table's hook
 * names the Process and Thread records (kernel HookIds, relogged classic
 * classes, Microsoft-Windows-Kernel-Process events) to the index walk,
 * which keeps them; they are decoded at the first etl_trace_get_process_table(),
 * when every schema is registered: a Microsoft-Windows-Kernel-Process event
 * can only be decoded once the trace's metadata, which may come later, is.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace.h"
#include "etl-process-table-private.h"

#include "etl-format-private.h"

/* The kernel's Process and Thread classes, for records relogged with a full header. */
static const EtlGuid process_class
    = { 0x3d6fa8d0, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
static const EtlGuid thread_class
    = { 0x3d6fa8d1, 0xfe05, 0x11d0, { 0x9d, 0xda, 0x00, 0xc0, 0x4f, 0xd7, 0xba, 0x7c } };
/* Microsoft-Windows-Kernel-Process */
static const EtlGuid kernel_process_provider
    = { 0x22fb2cd6, 0x0e7b, 0x422b, { 0xa0, 0xc7, 0x2f, 0xad, 0x1f, 0xd0, 0xe7, 0x16 } };

#define THREAD_SET_NAME 72

/* The hook's provider classes. */
enum
{
  CLASS_NONE,
  CLASS_PROCESS,
  CLASS_THREAD,
  CLASS_KERNEL_PROCESS,
};

/* The hook's one kind: a lifetime record, kept. */
enum
{
  KIND_NONE,
  KIND_LIFETIME,
  N_KINDS = KIND_LIFETIME
};

typedef struct
{
  EtlProcessTable *processes;           /* from the end of the walk */
  EtlKeptRecords *lifetime_records;     /* until first used */
  EtlTrace *trace;                      /* the trace that owns this, once the walk is over */
  GOnce processes_once;                 /* builds the process table from them */
} TraceProcesses;

static const EtlTraceHookClass processes_hook_class;

/* ------------------------------------------------------------------------ */
/* The process table's hook                                                 */

static guint
classify_provider (const EtlGuid *provider)
{
  if (etl_guid_equal (provider, &process_class))
    return CLASS_PROCESS;
  if (etl_guid_equal (provider, &thread_class))
    return CLASS_THREAD;
  if (etl_guid_equal (provider, &kernel_process_provider))
    return CLASS_KERNEL_PROCESS;
  return CLASS_NONE;
}

/* Process Start, End, DCStart, DCEnd (1–4); Thread the same and SetName (72). */
static guint
classify_opcode (guint cls, guint opcode)
{
  switch (cls)
    {
    case CLASS_PROCESS:
      return opcode >= 1 && opcode <= 4 ? KIND_LIFETIME : KIND_NONE;
    case CLASS_THREAD:
      return (opcode >= 1 && opcode <= 4) || opcode == THREAD_SET_NAME ? KIND_LIFETIME : KIND_NONE;
    default:
      return KIND_NONE;
    }
}

/* HookId 0x0301–0x0304, 0x0501–0x0504 and 0x0548. */
static guint
classify_hook (guint16 hook_id)
{
  switch (hook_id >> 8)
    {
    case 0x03:
      return classify_opcode (CLASS_PROCESS, hook_id & 0xFF);
    case 0x05:
      return classify_opcode (CLASS_THREAD, hook_id & 0xFF);
    default:
      return KIND_NONE;
    }
}

/* Microsoft-Windows-Kernel-Process events 1–5 and 15 (process and thread
 * start, stop and rundown) by event id; the classic classes by opcode. */
static guint
classify_record (guint cls, guint8 header_type, guint8 opcode, const guint8 *record, gsize size)
{
  if (header_type == ETL_HEADER_TYPE_EVENT_HEADER32 || header_type == ETL_HEADER_TYPE_EVENT_HEADER64)
    {
      guint id;

      if (size < ETL_EVENT_HEADER_SIZE)
        return KIND_NONE;
      /* EVENT_HEADER.EventDescriptor.Id */
      id = etl_read_u16 (record + 40);
      if (cls == CLASS_KERNEL_PROCESS && ((id >= 1 && id <= 5) || id == 15))
        return KIND_LIFETIME;
      /* A classic event logged through EVENT_HEADER keeps its class semantics. */
      if (etl_read_u16 (record + 4) & ETL_EVENT_HEADER_FLAG_CLASSIC_HEADER)
        return classify_opcode (cls, opcode);
      return KIND_NONE;
    }
  return classify_opcode (cls, opcode);
}

static void
hook_finish (gpointer data, EtlTrace *trace)
{
  TraceProcesses *p = data;

  p->processes = etl_process_table_new (etl_trace_get_schema_registry (trace));
  p->lifetime_records = etl_trace_steal_kept_records (trace, &processes_hook_class, KIND_LIFETIME);
  p->trace = trace;
}

static void
trace_processes_free (gpointer data)
{
  TraceProcesses *p = data;

  g_clear_pointer (&p->lifetime_records, etl_kept_records_free);
  g_clear_pointer (&p->processes, etl_process_table_unref);
  g_free (p);
}

static const EtlTraceHookClass processes_hook_class = {
  .n_kinds = N_KINDS,
  .kept_kinds = 1u << KIND_LIFETIME,
  .any_provider_opcode = -1,
  .classify_provider = classify_provider,
  .classify_hook = classify_hook,
  .classify_record = classify_record,
  .finish = hook_finish,
  .free = trace_processes_free,
};

/* ------------------------------------------------------------------------ */
/* Opening                                                                  */

/**
 * etl_trace_open_full:
 * @paths: (array zero-terminated=1): the .etl files to open together
 * @manifests: (array zero-terminated=1) (nullable): instrumentation manifest
 *   files (XML) to describe events with, as etl_trace_load_manifest()
 * @progress: (scope call) (nullable): called as buffers are read
 * @progress_data: closure for @progress
 * @cancellable: (nullable): a #GCancellable; checked between buffers
 * @error: return location for a #GError
 *
 * Opens the files as etl_trace_open_with_hooks() does (read-only, every
 * buffer walked and decompressed, the per-processor streams of all files
 * merged by FILETIME, on etl_trace_get_open_threads() threads, the same
 * result with any number of them), and gathers during the same walk what
 * decoding needs (etl_trace_decode_hook_init(): the kernel's MOF layouts,
 * the user's manifests and @manifests, the trace's MetaData records and
 * EventSource manifests, its volume mapping) and the process table's
 * records (etl_trace_get_process_table()).
 *
 * A file that cannot be read at all (missing, empty, not an .etl file) fails
 * the whole open with %ETL_ERROR_OPEN, %ETL_ERROR_EMPTY or %ETL_ERROR_NOT_ETL;
 * damage inside a file does not (#EtlFileInfo.problems).  A manifest in
 * @manifests that cannot be read fails the open with the manifest parser's
 * error (etl_manifest_load_file()), before any file is read.  Cancellation
 * returns %NULL with %G_IO_ERROR_CANCELLED.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
EtlTrace *
etl_trace_open_full (const char *const *paths, const char *const *manifests, EtlProgressFunc progress,
                     gpointer progress_data, GCancellable *cancellable, GError **error)
{
  EtlTraceHook hooks[2];
  TraceProcesses *p;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Decoding first: the process table decodes with its schemas. */
  if (!etl_trace_decode_hook_init (&hooks[0], manifests, error))
    return NULL;
  p = g_new0 (TraceProcesses, 1);
  p->processes_once = (GOnce) G_ONCE_INIT;
  hooks[1].klass = &processes_hook_class;
  hooks[1].data = p;
  return etl_trace_open_with_hooks (paths, hooks, G_N_ELEMENTS (hooks), progress, progress_data, cancellable,
                                    error);
}

/**
 * etl_trace_open:
 * @paths: (array zero-terminated=1): the .etl files to open together
 * @progress: (scope call) (nullable): called as buffers are read
 * @progress_data: closure for @progress
 * @cancellable: (nullable): a #GCancellable; checked between buffers
 * @error: return location for a #GError
 *
 * etl_trace_open_full() without manifest files.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
EtlTrace *
etl_trace_open (const char *const *paths, EtlProgressFunc progress, gpointer progress_data,
                GCancellable *cancellable, GError **error)
{
  return etl_trace_open_full (paths, NULL, progress, progress_data, cancellable, error);
}

/* ------------------------------------------------------------------------ */
/* The process table                                                        */

#define KEPT_CHUNK 65536u

typedef struct
{
  EtlKeptRecords *kept;
  EtlTrace *trace;
  guint first;
} KeptReader;

/* EtlProcessTableReader over a chunk of kept records (thread-safe). */
static gboolean
kept_read (gpointer data, guint i, EtlRecord *record)
{
  KeptReader *k = data;

  return etl_kept_records_read (k->kept, k->trace, k->first + i, record);
}

/* The process table from the Process/Thread records the walk kept, on first
 * use: decoded with every schema the trace knows by then, in chunks, each
 * read and decoded in parallel and added in order. */
static gpointer
build_processes (gpointer data)
{
  TraceProcesses *p = data;
  g_autoptr (EtlKeptRecords) kept = g_steal_pointer (&p->lifetime_records);
  guint n = kept != NULL ? etl_kept_records_get_n (kept) : 0;
  KeptReader reader = { kept, p->trace, 0 };

  for (reader.first = 0; reader.first < n; reader.first += KEPT_CHUNK)
    etl_process_table_add_read_records (p->processes, MIN (n - reader.first, KEPT_CHUNK), kept_read, &reader);
  etl_process_table_finish (p->processes);
  return p->processes;
}

/**
 * etl_trace_get_process_table:
 * @trace: a trace opened with etl_trace_open_full()
 *
 * The processes and threads of all files.  Their Process and Thread
 * records (kernel, Microsoft-Windows-Kernel-Process) are gathered during
 * the open's walk and decoded at the first call, with every schema the
 * trace knows by then (thread-safe).
 *
 * Returns: (transfer none): the table (read-only, thread-safe)
 */
EtlProcessTable *
etl_trace_get_process_table (EtlTrace *trace)
{
  TraceProcesses *p;

  g_return_val_if_fail (trace != NULL, NULL);
  p = etl_trace_get_hook_data (trace, &processes_hook_class);
  g_return_val_if_fail (p != NULL, NULL);
  return g_once (&p->processes_once, build_processes, p);
}

/**
 * etl_trace_get_record_process:
 * @trace: a trace opened with etl_trace_open_full()
 * @record: one of its records
 * @decoded: (nullable): @record's fields when the caller has them (a kernel
 *   record names its process in its payload)
 *
 * etl_process_table_lookup_record() on the trace's process table.
 *
 * Returns: (transfer none) (nullable): the process the record belongs to
 */
const EtlProcess *
etl_trace_get_record_process (EtlTrace *trace, const EtlRecord *record, const EtlDecoded *decoded)
{
  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  return etl_process_table_lookup_record (etl_trace_get_process_table (trace), record, decoded);
}
