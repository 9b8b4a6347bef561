/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-trace
 * @title: EtlTrace
 * @short_description: one or more .etl files as a single time-ordered sequence
 *
 * An #EtlTrace maps each file read-only, walks every buffer's
 * WMI_BUFFER_HEADER, decodes the TRACE_LOGFILE_HEADER, orders each
 * processor's buffers by SequenceNumber and merges the per-processor record
 * streams of all files by converted FILETIME (ties: file, processor,
 * position).  It keeps a compact index (#EtlIndexEntry, 20 bytes a record,
 * allocated at its exact size) and re-reads records from the mapping, or from
 * a small cache of decompressed buffers, on demand.  The open reads,
 * decompresses, indexes and merges on etl_trace_get_open_threads() threads
 * ("Parallel open" below); the result does not depend on their number.
 *
 * Nothing read from a file is trusted: every count is capped, every access
 * bounds-checked, and a problem is recorded with the file, the byte offset and
 * the reason while the valid records are kept.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-private.h"

#include "etl-manifest.h"
#include "etl-mof-derived.h"
#include "etl-mof-kernel.h"
#include "etl-tdh-system.h"

G_DEFINE_QUARK (etl-error-quark, etl_error)

static gint open_threads = 0;   /* atomic; 0 = automatic */

/**
 * etl_trace_set_open_threads:
 * @n_threads: worker threads for etl_trace_open_full(), 1 to 64; 0 = automatic
 *
 * Sets, for the whole process, how many threads read, decompress, index and
 * merge a trace while it is opened.  Automatic (0, the default) means the
 * environment variable `ETLSCOPE_THREADS` when it holds a number from 1 to 64,
 * else g_get_num_processors().  Values above 64 are taken as 64.  The result
 * of an open does not depend on the number of threads.  Thread-safe; affects
 * the opens started afterwards.
 */
void
etl_trace_set_open_threads (guint n_threads)
{
  g_atomic_int_set (&open_threads, (gint) MIN (n_threads, MAX_OPEN_THREADS));
}

/**
 * etl_trace_get_open_threads:
 *
 * The number of threads the next etl_trace_open_full() uses: what
 * etl_trace_set_open_threads() set, or else `ETLSCOPE_THREADS`, or else
 * g_get_num_processors().
 *
 * Returns: 1 to 64
 */
guint
etl_trace_get_open_threads (void)
{
  guint n = (guint) g_atomic_int_get (&open_threads);

  if (n == 0)
    {
      const char *env = g_getenv ("ETLSCOPE_THREADS");
      guint64 v;

      if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, MAX_OPEN_THREADS, &v, NULL))
        n = (guint) v;
    }
  if (n == 0)
    n = g_get_num_processors ();
  return CLAMP (n, 1, MAX_OPEN_THREADS);
}

static gint
compare_buffers (gconstpointer a, gconstpointer b)
{
  const EtlBuffer *x = a, *y = b;

  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  if (x->sequence != y->sequence)
    return x->sequence < y->sequence ? -1 : 1;
  return x->offset < y->offset ? -1 : (x->offset > y->offset);
}

/* ------------------------------------------------------------------------ */
/* Opening                                                                  */

/* The schemas every trace starts with, registered once per process: the
 * kernel's MOF classes and the manifests in the user's folder
 * ($XDG_DATA_HOME/etlscope/manifests/, read at the first open).
 * (TraceLogging events describe themselves.) */
static gpointer
build_base_registry (gpointer data)
{
  EtlSchemaRegistry *base = etl_schema_registry_new ();

  etl_mof_register_kernel (base);
  etl_manifest_load_user_dir (base, NULL, NULL);
  return base;
}

static void
trace_register_schemas (EtlTrace *trace)
{
  static GOnce base_once = G_ONCE_INIT;
  EtlSchemaRegistry *base = g_once (&base_once, build_base_registry, NULL);

  etl_schema_registry_add_all (trace->registry, base);
}

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
 * Opens the files read-only, walks every buffer, decompresses compressed ones,
 * decodes each TRACE_LOGFILE_HEADER, and merges the per-processor streams of
 * all files into one sequence ordered by FILETIME.  Files are never written.
 * The reading, decompression, indexing and merging run on
 * etl_trace_get_open_threads() threads (etl_trace_set_open_threads(),
 * `ETLSCOPE_THREADS`); @progress is still called from the calling thread only,
 * and the result is the same with any number of threads.  When a processor's
 * records are out of time order (clock skew, a hostile file) the files are
 * read a second time by a serial walk, whose order defines the result, and
 * @progress starts again from 0.
 *
 * A file that cannot be read at all (missing, empty, not an .etl file) fails
 * the whole open with %ETL_ERROR_OPEN, %ETL_ERROR_EMPTY or %ETL_ERROR_NOT_ETL.
 * Damage inside a file does not: the valid records are kept and each problem
 * (%ETL_ERROR_TRUNCATED, %ETL_ERROR_CORRUPT, %ETL_ERROR_DECOMPRESS) is listed
 * in #EtlFileInfo.problems.  Cancellation returns %NULL with
 * %G_IO_ERROR_CANCELLED.
 *
 * During the same walk it gathers what decoding needs (see
 * etl_trace_get_schema_registry()): the kernel's MOF layouts and the user's
 * manifests ($XDG_DATA_HOME/etlscope/manifests/, read once per process, at
 * the first open), then the KernelTraceControl MetaData (TDH) records and
 * EventSource manifests of every file opened together, the SysConfig volume
 * mapping and the process table (etl-trace-feed.c: only those records are
 * decoded in full; the rest keep the fast path).  A manifest in @manifests
 * that cannot be read fails the open with the manifest parser's error
 * (etl_manifest_load_file()).  On Windows the registry also asks the
 * machine's TDH about events the trace's own metadata does not describe
 * (etl_tdh_system_attach()).
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
EtlTrace *
etl_trace_open_full (const char *const *paths, const char *const *manifests, EtlProgressFunc progress,
                     gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlTrace) trace = NULL;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  trace = g_new0 (EtlTrace, 1);
  g_atomic_ref_count_init (&trace->ref_count);
  trace->files = g_ptr_array_new_with_free_func ((GDestroyNotify) etl_file_free);
  trace->buffers = g_array_new (FALSE, FALSE, sizeof (EtlBuffer));
  trace->providers = g_array_new (FALSE, FALSE, sizeof (EtlGuid));
  trace->provider_ids = g_hash_table_new_full (etl_guid_hash, etl_guid_equal_func, g_free, NULL);
  trace->losses = g_array_new (FALSE, FALSE, sizeof (EtlLoss));
  trace->cache = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_bytes_unref);
  g_queue_init (&trace->cache_order);
  g_mutex_init (&trace->cache_lock);
  trace->origin = G_MAXINT64;
  trace->file_names_once = (GOnce) G_ONCE_INIT;
  trace->processes_once = (GOnce) G_ONCE_INIT;
  trace->provider_feed = g_byte_array_new ();
  trace->registry = etl_schema_registry_new ();
  /* On Windows, events the trace does not describe ask the machine's TDH. */
  etl_tdh_system_attach (trace->registry);
  trace->volumes = etl_volume_map_new ();
  trace_register_schemas (trace);
  for (guint i = 0; manifests != NULL && manifests[i] != NULL; i++)
    if (!etl_manifest_load_file (trace->registry, manifests[i], NULL, error))
      return NULL;
  trace->processes = etl_process_table_new (trace->registry);
  trace->feed = etl_trace_feed_new (trace->registry, trace->volumes, trace->processes);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      EtlFile *f;
      guint first_buffer = trace->buffers->len;

      if (i >= G_MAXUINT16)
        {
          g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: offset 0 (0x0): too many files (at most 65535)", paths[i]);
          return NULL;
        }
      f = etl_file_open (paths[i], error);
      if (f == NULL)
        return NULL;
      g_ptr_array_add (trace->files, f);
      if (!etl_file_walk_buffers (trace, f, i, cancellable, error))
        return NULL;
      etl_file_populate (trace, f, first_buffer);
      if (trace->buffers->len == first_buffer)
        {
          g_set_error (error, ETL_ERROR, ETL_ERROR_NOT_ETL,
                       "%s: offset 0 (0x0): not an .etl file: no valid WMI_BUFFER_HEADER", f->info.path);
          return NULL;
        }
      if (!etl_file_read_header (trace, f, first_buffer, error))
        return NULL;
      etl_file_prepare_clock (f);
      trace->origin = MIN (trace->origin, f->info.header_filetime);
      trace->n_cpus = MAX (trace->n_cpus, f->info.n_cpus);
    }

  g_array_sort (trace->buffers, compare_buffers);
  if (!etl_trace_merge_parallel (trace, progress, progress_data, cancellable, error))
    return NULL;
  etl_trace_feed_finish (trace->feed);
  trace->lifetime_records = etl_trace_feed_steal_lifetimes (trace->feed);
  trace->file_name_records = etl_trace_feed_steal_file_names (trace->feed);
  g_clear_pointer (&trace->feed, etl_trace_feed_free);

  return g_steal_pointer (&trace);
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

/**
 * etl_trace_ref:
 * @trace: a trace
 *
 * Returns: (transfer full): @trace with one more reference
 */
EtlTrace *
etl_trace_ref (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_atomic_ref_count_inc (&trace->ref_count);
  return trace;
}

/**
 * etl_trace_unref:
 * @trace: (transfer full): a trace
 *
 * Drops a reference; the last one unmaps the files.
 */
void
etl_trace_unref (EtlTrace *trace)
{
  g_return_if_fail (trace != NULL);
  if (!g_atomic_ref_count_dec (&trace->ref_count))
    return;
  g_ptr_array_unref (trace->files);
  g_array_unref (trace->buffers);
  g_free (trace->index);
  g_free (trace->pids);
  g_array_unref (trace->providers);
  g_hash_table_unref (trace->provider_ids);
  g_array_unref (trace->losses);
  g_hash_table_unref (trace->cache);
  g_queue_clear (&trace->cache_order);
  g_mutex_clear (&trace->cache_lock);
  g_clear_pointer (&trace->feed, etl_trace_feed_free);
  g_clear_pointer (&trace->provider_feed, g_byte_array_unref);
  if (trace->lifetime_records != NULL)
    etl_trace_feed_build_process_table (g_steal_pointer (&trace->lifetime_records), NULL, NULL, NULL);
  g_clear_pointer (&trace->processes, etl_process_table_unref);
  g_clear_pointer (&trace->file_names, etl_mof_file_names_free);
  if (trace->file_name_records != NULL)
    etl_mof_file_names_free (etl_trace_feed_build_file_names (g_steal_pointer (&trace->file_name_records),
                                                              NULL, NULL, NULL, NULL));
  g_clear_pointer (&trace->volumes, etl_volume_map_free);
  g_clear_pointer (&trace->registry, etl_schema_registry_unref);
  g_free (trace);
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */

/**
 * etl_trace_get_n_files:
 * @trace: a trace
 *
 * Returns: the number of files opened together
 */
guint
etl_trace_get_n_files (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, 0);
  return trace->files->len;
}

/**
 * etl_trace_get_file_info:
 * @trace: a trace
 * @file: file index, below etl_trace_get_n_files()
 *
 * Returns: (transfer none): the file's header fields and what the reader found
 */
const EtlFileInfo *
etl_trace_get_file_info (EtlTrace *trace, guint file)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (file < trace->files->len, NULL);
  return &((EtlFile *) g_ptr_array_index (trace->files, file))->info;
}

/**
 * etl_trace_get_n_problems:
 * @trace: a trace
 *
 * Returns: problems recorded over all files (damaged buffers, truncation, …)
 */
guint
etl_trace_get_n_problems (EtlTrace *trace)
{
  guint n = 0;

  g_return_val_if_fail (trace != NULL, 0);
  for (guint i = 0; i < trace->files->len; i++)
    n += ((EtlFile *) g_ptr_array_index (trace->files, i))->info.problems->len;
  return n;
}

/**
 * etl_trace_get_n_providers:
 * @trace: a trace
 *
 * Returns: distinct provider GUIDs seen
 */
guint
etl_trace_get_n_providers (EtlTrace *trace)
{
  return trace->providers->len;
}

/**
 * etl_trace_get_provider:
 * @trace: a trace
 * @provider_index: from etl_trace_get_provider_index()
 *
 * Returns: (transfer none) (nullable): the provider GUID
 */
const EtlGuid *
etl_trace_get_provider (EtlTrace *trace, guint provider_index)
{
  if (provider_index >= trace->providers->len)
    return NULL;
  return &g_array_index (trace->providers, EtlGuid, provider_index);
}

/**
 * etl_trace_get_n_cpus:
 * @trace: a trace
 *
 * Returns: highest processor index in any buffer of any file, plus one
 */
guint
etl_trace_get_n_cpus (EtlTrace *trace)
{
  return trace->n_cpus;
}

/**
 * etl_trace_get_origin:
 * @trace: a trace
 *
 * Returns: FILETIME of the earliest EventTrace header record among the files:
 *   relative times are measured from it
 */
gint64
etl_trace_get_origin (EtlTrace *trace)
{
  return trace->origin;
}

/**
 * etl_trace_get_first_filetime:
 * @trace: a trace
 *
 * Returns: FILETIME of the first merged record, or the origin with none
 */
gint64
etl_trace_get_first_filetime (EtlTrace *trace)
{
  return trace->n_index ? entry_filetime (&trace->index[0]) : trace->origin;
}

/**
 * etl_trace_get_last_filetime:
 * @trace: a trace
 *
 * Returns: FILETIME of the last merged record, or the origin with none
 */
gint64
etl_trace_get_last_filetime (EtlTrace *trace)
{
  return trace->n_index ? entry_filetime (&trace->index[trace->n_index - 1]) : trace->origin;
}

/**
 * etl_trace_filetime_to_ms:
 * @trace: a trace
 * @filetime: a FILETIME
 *
 * Returns: milliseconds from etl_trace_get_origin() to @filetime
 */
double
etl_trace_filetime_to_ms (EtlTrace *trace, gint64 filetime)
{
  return (double) (filetime - trace->origin) / 10000.0;
}

/**
 * etl_trace_get_losses:
 * @trace: a trace
 * @n_losses: (out): length of the returned array
 *
 * The loss time series of all files, sorted by time: buffers flagged
 * EVENTS_LOST or BUFFER_LOST, gaps in each file's SequenceNumber series, and
 * real-time lost-event records.  The header totals (EventsLost, BuffersLost)
 * are in #EtlFileInfo.
 *
 * Returns: (transfer none) (array length=n_losses): the losses
 */
const EtlLoss *
etl_trace_get_losses (EtlTrace *trace, guint *n_losses)
{
  *n_losses = trace->losses->len;
  return (const EtlLoss *) (void *) trace->losses->data;
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                 */

/**
 * etl_trace_get_schema_registry:
 * @trace: a trace
 *
 * The schemas that describe this trace's events: the kernel's MOF layouts,
 * the user's manifests, every file's KernelTraceControl MetaData and
 * EventSource manifests, and manifests loaded with etl_trace_load_manifest().
 *
 * Returns: (transfer none): the registry (thread-safe)
 */
EtlSchemaRegistry *
etl_trace_get_schema_registry (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->registry;
}

/**
 * etl_trace_get_volume_map:
 * @trace: a trace
 *
 * Returns: (transfer none): NT device paths to DOS paths, from the trace's
 *   SysConfig VolumeMapping records (read-only)
 */
const EtlVolumeMap *
etl_trace_get_volume_map (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->volumes;
}

/* EtlTraceFeedReader: the kept records of a parallel open are index positions. */
static gboolean
feed_read_record (gpointer data, guint64 index, EtlRecord *record)
{
  EtlTrace *trace = data;

  return index < trace->n_index && etl_trace_get_record (trace, index, record, NULL);
}

/* The process table from the Process/Thread records the walk kept, on first use. */
static gpointer
build_processes (gpointer data)
{
  EtlTrace *trace = data;

  etl_trace_feed_build_process_table (g_steal_pointer (&trace->lifetime_records), trace->processes,
                                      feed_read_record, trace);
  return trace->processes;
}

/**
 * etl_trace_get_process_table:
 * @trace: a trace
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
  g_return_val_if_fail (trace != NULL, NULL);
  return g_once (&trace->processes_once, build_processes, trace);
}

/**
 * etl_trace_load_manifest:
 * @trace: a trace
 * @path: an instrumentation manifest (.man / .xml) file
 * @info: (out caller-allocates) (optional): what was registered; see
 *   etl_manifest_load_file()
 * @error: return location for the manifest parser's #GError (file, line,
 *   reason)
 *
 * Registers the events a manifest describes, for File ▸ Load Manifest… after
 * the trace is open.  Decoding done afterwards uses them; the process table
 * built at open is kept.  Thread-safe against decoding in other threads.
 *
 * Returns: %TRUE when the manifest was read
 */
gboolean
etl_trace_load_manifest (EtlTrace *trace, const char *path, EtlManifestInfo *info, GError **error)
{
  g_return_val_if_fail (trace != NULL && path != NULL, FALSE);
  return etl_manifest_load_file (trace->registry, path, info, error);
}

/**
 * etl_trace_decode_record:
 * @trace: a trace
 * @record: one of its records (etl_trace_get_record())
 *
 * etl_decode_record() with the trace's schemas and volume map.
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_trace_decode_record (EtlTrace *trace, const EtlRecord *record)
{
  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  return etl_decode_record (trace->registry, trace->volumes, record);
}

/**
 * etl_trace_decode_record_prefix:
 * @trace: a trace
 * @record: one of its records (etl_trace_get_record())
 * @max_fields: decode at most this many fields
 *
 * etl_decode_record_prefix() with the trace's schemas and volume map: the
 * first @max_fields fields, for previews (the event list's Payload column).
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_trace_decode_record_prefix (EtlTrace *trace, const EtlRecord *record, guint max_fields)
{
  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  return etl_decode_record_prefix (trace->registry, trace->volumes, record, max_fields);
}

/**
 * etl_trace_get_record_process:
 * @trace: a trace
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

/* The FileObject → name table for derived FileName fields, built on first use. */
static gpointer
build_file_names (gpointer data)
{
  EtlTrace *trace = data;

  trace->file_names = etl_trace_feed_build_file_names (g_steal_pointer (&trace->file_name_records), trace->registry,
                                                       trace->volumes, feed_read_record, trace);
  return trace->file_names;
}

/**
 * etl_trace_get_derived_fields:
 * @trace: a trace
 * @record: one of its records
 * @decoded: @record's fields (etl_trace_decode_record())
 *
 * The fields TraceEvent computes for kernel events from their payload and
 * header (etl_mof_derived_fields(): BuildTime, ElapsedTimeMSec, a sample's
 * processor and priority, a thread's creator, the FileName of a FileKey
 * from the trace's FileIo name records — decoded at the first call — …),
 * with the clock of
 * @record's file: PerfFreq for QPC, 10,000,000 for system time,
 * CpuSpeedInMHz × 10^6 for CPU cycles.
 *
 * Returns: (transfer full) (nullable) (element-type EtlField): the derived
 *   fields, or %NULL when none apply; free with g_array_unref()
 */
GArray *
etl_trace_get_derived_fields (EtlTrace *trace, const EtlRecord *record, const EtlDecoded *decoded)
{
  const EtlFileInfo *info;
  gint64 freq = 0;

  g_return_val_if_fail (trace != NULL && record != NULL && decoded != NULL, NULL);
  if (decoded->schema == NULL || decoded->schema->source != ETL_SCHEMA_SOURCE_MOF || record->file >= trace->files->len)
    return NULL;
  info = &((EtlFile *) g_ptr_array_index (trace->files, record->file))->info;
  switch (info->clock_type)
    {
    case ETL_CLOCK_QPC: freq = info->perf_freq; break;
    case ETL_CLOCK_SYSTEM_TIME: freq = 10000000; break;
    case ETL_CLOCK_CPU_CYCLE: freq = (gint64) info->cpu_speed_mhz * 1000000; break;
    default: break;
    }
  return etl_mof_derived_fields (decoded, record, freq, g_once (&trace->file_names_once, build_file_names, trace));
}
