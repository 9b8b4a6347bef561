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
 * ("Parallel open" in etl-trace-merge.c); the result does not depend on their
 * number.
 *
 * The reader knows records by their headers only.  What a record means is
 * the business of the layers above (decode/, model/): they register hooks
 * with the open (#EtlTraceHookClass, etl-trace-hooks.c) and get, during the
 * same walk, the few records they need decoded; etl_trace_open_full()
 * (model/etl-trace.c) opens a trace with the decoder's and the process
 * table's hooks.
 *
 * Nothing read from a file is trusted: every count is capped, every access
 * bounds-checked, and a problem is recorded with the file, the byte offset and
 * the reason while the valid records are kept.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-private.h"

G_DEFINE_QUARK (etl-error-quark, etl_error)

static gint open_threads = 0;   /* atomic; 0 = automatic */

/**
 * etl_trace_set_open_threads:
 * @n_threads: worker threads for etl_trace_open_with_hooks() (and so
 *   etl_trace_open_full()), 1 to 64; 0 = automatic
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
 * The number of threads the next etl_trace_open_with_hooks() uses: what
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

/**
 * etl_trace_open_with_hooks:
 * @paths: (array zero-terminated=1): the .etl files to open together
 * @hooks: (array length=n_hooks) (nullable): what the layers above ask of
 *   the index walk; the trace takes their data (transfer full), also when
 *   the open fails
 * @n_hooks: number of @hooks, at most %ETL_TRACE_MAX_HOOKS
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
 * During the same walk each hook gets the records it asks for (see
 * #EtlTraceHookClass): only those are decoded in full, the rest keep the
 * fast path.  etl_trace_open_full() is this with the decoder's and the
 * process table's hooks.
 *
 * A file that cannot be read at all (missing, empty, not an .etl file) fails
 * the whole open with %ETL_ERROR_OPEN, %ETL_ERROR_EMPTY or %ETL_ERROR_NOT_ETL.
 * Damage inside a file does not: the valid records are kept and each problem
 * (%ETL_ERROR_TRUNCATED, %ETL_ERROR_CORRUPT, %ETL_ERROR_DECOMPRESS) is listed
 * in #EtlFileInfo.problems.  Cancellation returns %NULL with
 * %G_IO_ERROR_CANCELLED.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
EtlTrace *
etl_trace_open_with_hooks (const char *const *paths, const EtlTraceHook *hooks, guint n_hooks,
                           EtlProgressFunc progress, gpointer progress_data, GCancellable *cancellable,
                           GError **error)
{
  g_autoptr (EtlTrace) trace = NULL;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  g_return_val_if_fail (n_hooks <= ETL_TRACE_MAX_HOOKS, NULL);
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
  g_mutex_init (&trace->derived_lock);
  g_cond_init (&trace->derived_cond);
  trace->origin = G_MAXINT64;
  etl_trace_hooks_init (trace, hooks, n_hooks);

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
  etl_trace_hooks_finish (trace);

  return g_steal_pointer (&trace);
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
  etl_trace_hooks_clear (trace);
  etl_trace_derived_clear (trace);
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
