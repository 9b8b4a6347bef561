/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-parallel
 * @title: Parallel ranges
 * @short_description: one pass over the records split into contiguous ranges, one thread each
 *
 * The whole-trace aggregates (`etlscope-cli stats`, the grouped summary,
 * sampled CPU usage) visit every record once and keep per-key tables; they
 * split the records into as many contiguous ranges as there are processors,
 * give each range to a #GThread with its own tables, and merge the tables
 * afterwards in range order, so the result is the serial one.  Worker 0
 * runs in the calling thread (so it may report progress from there); the
 * others are joined before etl_parallel_ranges() returns.  Plain GLib
 * threads, so the same code runs on Windows.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-parallel.h"

#define MAX_WORKERS 16

typedef struct
{
  guint worker;
  guint64 first;
  guint64 last;
  EtlRangeFunc func;
  gpointer user_data;
} Job;

static gpointer
run_job (gpointer data)
{
  Job *job = data;

  job->func (job->worker, job->first, job->last, job->user_data);
  return NULL;
}

/**
 * etl_parallel_n_workers:
 * @n_items: items to visit
 * @min_items_per_worker: fewer than this many items a worker are not worth
 *   a thread
 *
 * Returns: how many workers to use: the processors GLib sees
 *   (g_get_num_processors(), at most 16), fewer for small inputs, at least 1
 */
guint
etl_parallel_n_workers (guint64 n_items, guint64 min_items_per_worker)
{
  guint n = MIN (g_get_num_processors (), MAX_WORKERS);
  guint64 by_size = n_items / MAX (min_items_per_worker, 1);

  if (by_size < n)
    n = (guint)by_size;
  return MAX (n, 1);
}

/**
 * etl_parallel_ranges:
 * @n_workers: 1 to 16 workers (etl_parallel_n_workers())
 * @first: first item
 * @last: one past the last item
 * @func: (scope call): called once per worker with its range; the ranges
 *   are contiguous, in worker order, and cover [@first, @last)
 * @user_data: closure for @func
 *
 * Runs @func over [@first, @last) split into @n_workers ranges of (nearly)
 * equal length: worker 0 in the calling thread, the others in new threads,
 * all joined before returning.  A thread that cannot be created runs its
 * range in the calling thread instead.
 */
void
etl_parallel_ranges (guint n_workers, guint64 first, guint64 last, EtlRangeFunc func, gpointer user_data)
{
  Job jobs[MAX_WORKERS];
  GThread *threads[MAX_WORKERS] = { NULL };
  guint64 n = last > first ? last - first : 0;

  g_return_if_fail (func != NULL);
  n_workers = CLAMP (n_workers, 1, MAX_WORKERS);
  for (guint w = 0; w < n_workers; w++)
    {
      jobs[w].worker = w;
      jobs[w].first = first + n * w / n_workers;
      jobs[w].last = first + n * (w + 1) / n_workers;
      jobs[w].func = func;
      jobs[w].user_data = user_data;
    }
  for (guint w = 1; w < n_workers; w++)
    {
      g_autofree char *name = g_strdup_printf ("etl-range-%u", w);

      threads[w] = g_thread_try_new (name, run_job, &jobs[w], NULL);
    }
  run_job (&jobs[0]);
  for (guint w = 1; w < n_workers; w++)
    {
      if (threads[w] != NULL)
        g_thread_join (threads[w]);
      else
        run_job (&jobs[w]);
    }
}
