/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-trace-stats
 * @title: EtlTraceStats
 * @short_description: records per provider, kind, header type, processor and process
 *
 * etl_trace_stats_compute() counts every record of a trace the way
 * `etlscope-cli stats` reports it.  It aggregates from the in-memory index
 * where it can (provider index, header type, processor) and reads each
 * record's header once (its kind, and its process: the header's, or for
 * kernel records the subject in the payload, found with an
 * #EtlProcessResolver without decoding the payload).  Counts are kept per
 * index value — provider index, record kind, process lifetime — and named
 * once at the end, not per record: provider names come from each
 * provider's first readable record (TraceLogging names live in its
 * PROV_TRAITS item), process names from the process table.
 *
 * The records are split into contiguous ranges, one per worker thread
 * (etl_parallel_ranges()), each with its own tables; the merge takes the
 * earliest record of each provider over all ranges, so the result equals a
 * serial pass in record order.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-names.h"
#include "etl-parallel.h"
#include "etl-process-resolver.h"
#include "etl-trace-stats.h"

#define NO_ROW G_MAXUINT64
#define NO_ID G_MAXUINT32
#define MIN_ROWS_PER_WORKER 65536

typedef struct
{
  guint64 *provider_counts;   /* n_providers + 1: the last for "(other)" */
  guint64 *provider_first;    /* first readable row of each provider */
  GArray *unreadable;         /* guint64 rows */
  guint64 kinds[ETL_N_RECORD_KINDS + 1];
  guint64 header_types[256];
  guint64 *cpus;              /* n_cpus */
  GHashTable *other_cpus;     /* cpu → count, beyond n_cpus */
  guint64 *process_counts;    /* per process lifetime */
  GHashTable *pid_counts;     /* pid without a lifetime → count */
  guint64 no_process;
} Worker;

typedef struct
{
  EtlTrace *trace;
  EtlProcessTable *processes;
  guint n_providers;
  guint n_cpus;
  guint n_processes;
  Worker *workers;
} Job;

static void
worker_add_process (Job *job, Worker *w, EtlProcessResolver *resolver, guint32 pid, gint64 filetime)
{
  const EtlProcess *process = etl_process_resolver_lookup (resolver, pid, filetime);

  if (process != NULL && process->index < job->n_processes)
    w->process_counts[process->index]++;
  else
    {
      gpointer key = GUINT_TO_POINTER (pid);

      g_hash_table_insert (w->pid_counts, key,
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (w->pid_counts, key)) + 1));
    }
}

static void
count_range (guint worker, guint64 first, guint64 last, gpointer data)
{
  Job *job = data;
  Worker *w = &job->workers[worker];
  EtlTrace *trace = job->trace;
  g_autoptr (EtlProcessResolver) resolver = etl_process_resolver_new (job->processes);

  for (guint64 i = first; i < last; i++)
    {
      guint p = etl_trace_get_provider_index (trace, i);
      guint cpu = etl_trace_get_cpu (trace, i);
      guint32 pid;
      EtlRecordBrief r;

      w->header_types[etl_trace_get_header_type (trace, i)]++;
      if (cpu < job->n_cpus)
        w->cpus[cpu]++;
      else
        g_hash_table_insert (w->other_cpus, GUINT_TO_POINTER (cpu),
                             GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (w->other_cpus, GUINT_TO_POINTER (cpu))) + 1));
      if (etl_trace_peek_record (trace, i, &r))
        {
          if (p < job->n_providers)
            {
              w->provider_counts[p]++;
              if (w->provider_first[p] == NO_ROW)
                w->provider_first[p] = i;
            }
          else
            w->provider_counts[job->n_providers]++;
          w->kinds[MIN ((guint)r.kind, (guint)ETL_N_RECORD_KINDS)]++;
          if (etl_process_resolver_resolve_brief (resolver, trace, i, &r, &pid, NULL))
            worker_add_process (job, w, resolver, pid, r.filetime);
          else
            w->no_process++;
          etl_record_brief_clear (&r);
        }
      else
        {
          /* Named at the merge: "(other)" before the provider's first readable record. */
          g_array_append_val (w->unreadable, i);
          if (etl_trace_get_pid (trace, i, &pid))
            worker_add_process (job, w, resolver, pid, etl_trace_get_filetime (trace, i));
          else
            w->no_process++;
        }
    }
}

static void
add_count (GHashTable *counts, const char *key, guint64 n)
{
  gpointer value;

  if (n == 0)
    return;
  value = g_hash_table_lookup (counts, key);
  if (value == NULL)
    g_hash_table_insert (counts, g_strdup (key), GSIZE_TO_POINTER ((gsize)n));
  else
    g_hash_table_insert (counts, g_strdup (key), GSIZE_TO_POINTER (GPOINTER_TO_SIZE (value) + (gsize)n));
}

/**
 * etl_trace_stats_compute:
 * @trace: a trace
 * @n_workers: worker threads to use, 0 for one per processor
 *   (etl_parallel_n_workers())
 *
 * Counts every record of @trace per provider, kind, header type, processor
 * and process, as `etlscope-cli stats` prints them (see the section
 * overview).  Builds the trace's process table if it is not built yet.
 * Runs in the calling thread and @n_workers − 1 more; the result does not
 * depend on @n_workers.
 *
 * Returns: (transfer full): the counts; free with etl_trace_stats_free()
 */
EtlTraceStats *
etl_trace_stats_compute (EtlTrace *trace, guint n_workers)
{
  EtlTraceStats *stats;
  Job job;
  guint64 n;
  g_autofree guint64 *provider_first = NULL;
  g_autofree char **provider_names = NULL;

  g_return_val_if_fail (trace != NULL, NULL);

  n = etl_trace_get_n_records (trace);
  if (n_workers == 0)
    n_workers = etl_parallel_n_workers (n, MIN_ROWS_PER_WORKER);
  memset (&job, 0, sizeof job);
  job.trace = trace;
  job.processes = etl_trace_get_process_table (trace);
  job.n_providers = etl_trace_get_n_providers (trace);
  job.n_cpus = MAX (etl_trace_get_n_cpus (trace), 1);
  etl_process_table_get_processes (job.processes, &job.n_processes);
  job.workers = g_new0 (Worker, n_workers);
  for (guint w = 0; w < n_workers; w++)
    {
      Worker *wk = &job.workers[w];

      wk->provider_counts = g_new0 (guint64, job.n_providers + 1);
      wk->provider_first = g_new (guint64, job.n_providers + 1);
      for (guint p = 0; p <= job.n_providers; p++)
        wk->provider_first[p] = NO_ROW;
      wk->unreadable = g_array_new (FALSE, FALSE, sizeof (guint64));
      wk->cpus = g_new0 (guint64, job.n_cpus);
      wk->other_cpus = g_hash_table_new (NULL, NULL);
      wk->process_counts = g_new0 (guint64, job.n_processes + 1);
      wk->pid_counts = g_hash_table_new (NULL, NULL);
    }

  etl_parallel_ranges (n_workers, 0, n, count_range, &job);

  stats = g_new0 (EtlTraceStats, 1);
  stats->by_provider = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  stats->by_kind = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  stats->by_header_type = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  stats->by_cpu = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  stats->by_process = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  stats->n_records = n;

  /* Providers: each named from its first readable record. */
  provider_first = g_new (guint64, job.n_providers + 1);
  provider_names = g_new0 (char *, job.n_providers + 1);
  for (guint p = 0; p < job.n_providers; p++)
    {
      EtlRecord r;

      provider_first[p] = NO_ROW;
      for (guint w = 0; w < n_workers; w++)
        provider_first[p] = MIN (provider_first[p], job.workers[w].provider_first[p]);
      if (provider_first[p] != NO_ROW && etl_trace_get_record (trace, provider_first[p], &r, NULL))
        {
          provider_names[p] = etl_record_dup_provider_name (&r);
          etl_record_clear (&r);
        }
    }

  for (guint w = 0; w < n_workers; w++)
    {
      Worker *wk = &job.workers[w];
      GHashTableIter iter;
      gpointer key, value;

      for (guint p = 0; p <= job.n_providers; p++)
        add_count (stats->by_provider, p < job.n_providers && provider_names[p] != NULL ? provider_names[p] : "(other)",
                   wk->provider_counts[p]);
      for (guint u = 0; u < wk->unreadable->len; u++)
        {
          guint64 row = g_array_index (wk->unreadable, guint64, u);
          guint p = etl_trace_get_provider_index (trace, row);

          add_count (stats->by_provider,
                     p < job.n_providers && provider_names[p] != NULL && provider_first[p] < row ? provider_names[p]
                                                                                                   : "(other)",
                     1);
        }
      stats->n_unreadable += wk->unreadable->len;
      for (guint k = 0; k <= ETL_N_RECORD_KINDS; k++)
        add_count (stats->by_kind, etl_record_kind_name ((EtlRecordKind)k), wk->kinds[k]);
      for (guint t = 0; t < 256; t++)
        add_count (stats->by_header_type, etl_header_type_name ((guint8)t), wk->header_types[t]);
      for (guint c = 0; c < job.n_cpus; c++)
        if (wk->cpus[c] > 0)
          {
            char num[16];

            g_snprintf (num, sizeof num, "%u", c);
            add_count (stats->by_cpu, num, wk->cpus[c]);
          }
      g_hash_table_iter_init (&iter, wk->other_cpus);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          char num[16];

          g_snprintf (num, sizeof num, "%u", GPOINTER_TO_UINT (key));
          add_count (stats->by_cpu, num, GPOINTER_TO_SIZE (value));
        }
      {
        guint n_processes;
        const EtlProcess *processes = etl_process_table_get_processes (job.processes, &n_processes);

        for (guint i = 0; i < job.n_processes && i < n_processes; i++)
          if (wk->process_counts[i] > 0)
            {
              g_autofree char *name = etl_process_format_name (&processes[i], processes[i].pid);

              add_count (stats->by_process, name, wk->process_counts[i]);
            }
      }
      g_hash_table_iter_init (&iter, wk->pid_counts);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          g_autofree char *name = etl_process_format_name (NULL, GPOINTER_TO_UINT (key));

          add_count (stats->by_process, name, GPOINTER_TO_SIZE (value));
        }
      add_count (stats->by_process, "none", wk->no_process);

      g_free (wk->provider_counts);
      g_free (wk->provider_first);
      g_array_unref (wk->unreadable);
      g_free (wk->cpus);
      g_hash_table_unref (wk->other_cpus);
      g_free (wk->process_counts);
      g_hash_table_unref (wk->pid_counts);
    }
  for (guint p = 0; p < job.n_providers; p++)
    g_free (provider_names[p]);
  g_free (job.workers);
  return stats;
}

/**
 * etl_trace_stats_free:
 * @stats: (transfer full) (nullable): counts from etl_trace_stats_compute()
 */
void
etl_trace_stats_free (EtlTraceStats *stats)
{
  if (stats == NULL)
    return;
  g_hash_table_unref (stats->by_provider);
  g_hash_table_unref (stats->by_kind);
  g_hash_table_unref (stats->by_header_type);
  g_hash_table_unref (stats->by_cpu);
  g_hash_table_unref (stats->by_process);
  g_free (stats);
}
