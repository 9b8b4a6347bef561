/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-thread-rows
 * @title: Thread rows
 * @short_description: the records of some threads within some times
 *
 * What happened on a set of threads, each within its own times: the rows of
 * the Regions view's selected instances (each instance's thread from its
 * Start to its Stop), for the grouped summary of "why are these slow".  The
 * same spans give the flame graph of those instances
 * (etl_stack_tree_new_for_threads()), and the two count a SampledProfile
 * record by the same rule: the thread its payload names.
 *
 * A record's thread (etl_thread_rows_record_thread()) is the ThreadId of its
 * header (EVENT_HEADER, EVENT_TRACE_HEADER, SYSTEM_TRACE_HEADER and their
 * compact forms), except for the PERFINFO SampledProfile records, whose
 * header has none: their payload's ThreadId (PerfInfo_SampledProfile, as
 * the stack tree reads it).  The other PERFINFO records (system calls,
 * interrupts, DPCs, page faults) and headers whose ThreadId is -1 belong to
 * no thread and are never in the result.
 *
 * The spans are merged per thread (those of one thread that overlap become
 * one, so no record counts twice) and sorted; their union in time gives the
 * runs of records to read, found by binary search in the time-ordered
 * merged sequence (etl_trace_lower_bound()).  Only those records are read,
 * each once, its header peeked in place (etl_trace_peek_record()), and its
 * time looked up among its thread's spans from where that thread's last
 * record was (records come in time order: a step, else a binary search);
 * the runs are split between a thread per processor (etl_parallel_ranges()).
 * O(S log S + R_in / P) for S spans, the R_in records their union covers and
 * P processors.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <stdlib.h>
#include <string.h>

#include "etl-parallel.h"
#include "etl-stack-tree-private.h"
#include "etl-thread-rows.h"

#define CANCEL_STEP 4096
#define MAX_WORKERS 16            /* etl_parallel_n_workers()'s most */
#define MIN_PER_WORKER 65536      /* fewer records a worker are not worth a thread */

/**
 * etl_thread_rows_record_thread:
 * @brief: a record, from etl_trace_peek_record()
 *
 * The thread a record belongs to for etl_thread_rows_new() (see the section
 * description): its header's ThreadId, or for a PERFINFO SampledProfile the
 * ThreadId of its payload (PerfInfo_SampledProfile: InstructionPointer, a
 * pointer, then ThreadId, 32 bits).
 *
 * Returns: the ThreadId, %ETL_THREAD_ROWS_NO_THREAD when the record has
 *   none (other PERFINFO records, a header's -1, a payload too short)
 */
guint32
etl_thread_rows_record_thread (const EtlRecordBrief *brief)
{
  guint32 tid;

  g_return_val_if_fail (brief != NULL, ETL_THREAD_ROWS_NO_THREAD);
  if (etl_stack_tree_sample_thread (brief->header_type, brief->hook_id, brief->user_data, brief->user_data_len, &tid))
    return tid;
  if (brief->header_type == ETL_HEADER_TYPE_PERFINFO32 || brief->header_type == ETL_HEADER_TYPE_PERFINFO64
      || !brief->has_pid)
    return ETL_THREAD_ROWS_NO_THREAD;
  return brief->tid;
}

/* A run of records to read: [first, last) of the merged sequence; @before
 * counts the records of the runs before it. */
typedef struct
{
  guint64 first;
  guint64 last;
  guint64 before;
} Run;

typedef struct
{
  EtlTrace *trace;
  const EtlStackTreeSpan *spans; /* merged */
  guint n_spans;
  const Run *runs;
  guint n_runs;
  GArray *out[MAX_WORKERS]; /* guint64, each worker's rows, ascending */
  GCancellable *cancellable;
  gint cancelled;
} Job;

static int
cmp_by_start (gconstpointer a, gconstpointer b)
{
  const EtlStackTreeSpan *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* The run holding the @k-th record to read (the last run whose @before ≤
 * @k). */
static guint
run_of (const Job *job, guint64 k)
{
  guint lo = 0, hi = job->n_runs;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (job->runs[mid].before <= k)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The first span at or after @lo of thread @tid that ends after @t (the
 * spans of a thread are disjoint and sorted, so by their stops too), or
 * the first span of a later thread. */
static guint
first_after (const EtlStackTreeSpan *spans, guint lo, guint n_spans, guint32 tid, gint64 t)
{
  guint hi = n_spans;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].tid < tid || (spans[mid].tid == tid && spans[mid].stop <= t))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* A worker's place in the spans of each thread it met: records come in
 * time order, so a thread's next record is in the same span or a later
 * one.  A small table indexed by the ThreadId's hash holds the threads
 * first seen (a trace's busy threads); the others go to a hash table. */
#define CURSOR_BITS 7

typedef struct
{
  guint32 tid;
  guint span;
  gboolean used;
} Cursor;

typedef struct
{
  Cursor table[1 << CURSOR_BITS];
  GHashTable *more; /* ThreadId → span index */
} Cursors;

/* Whether time @t of thread @tid lies in one of the merged spans, as
 * etl_stack_tree_spans_contain() answers, for times that do not decrease:
 * from the span the thread's last record reached, a step or two, else a
 * binary search, so that a record costs O(1) however many spans there
 * are. */
static gboolean
contains_forward (const Job *job, Cursors *cur, guint32 tid, gint64 t)
{
  const EtlStackTreeSpan *spans = job->spans;
  Cursor *slot = &cur->table[(tid * 2654435761u) >> (32 - CURSOR_BITS)];
  gpointer found;
  guint c;

  if (slot->used && slot->tid == tid)
    c = slot->span;
  else if (!slot->used)
    {
      slot->used = TRUE;
      slot->tid = tid;
      c = first_after (spans, 0, job->n_spans, tid, t);
    }
  else
    {
      if (cur->more == NULL)
        cur->more = g_hash_table_new (g_direct_hash, g_direct_equal);
      c = g_hash_table_lookup_extended (cur->more, GUINT_TO_POINTER (tid), NULL, &found)
              ? GPOINTER_TO_UINT (found)
              : first_after (spans, 0, job->n_spans, tid, t);
      slot = NULL;
    }
  for (guint step = 0; step < 2 && c < job->n_spans && spans[c].tid == tid && spans[c].stop <= t; step++)
    c++;
  if (c < job->n_spans && spans[c].tid == tid && spans[c].stop <= t)
    c = first_after (spans, c, job->n_spans, tid, t);
  if (slot != NULL)
    slot->span = c;
  else
    g_hash_table_insert (cur->more, GUINT_TO_POINTER (tid), GUINT_TO_POINTER (c));
  return c < job->n_spans && spans[c].tid == tid && spans[c].start <= t && t < spans[c].stop;
}

/* One worker: the records [@first, @last) of the runs laid end to end. */
static void
read_range (guint worker, guint64 first, guint64 last, gpointer user_data)
{
  Job *job = user_data;
  GArray *out = job->out[worker];
  g_autofree Cursors *cur = g_new0 (Cursors, 1);
  guint r = first < last ? run_of (job, first) : job->n_runs;
  guint64 n_read = 0;

  for (guint64 k = first; k < last && r < job->n_runs; r++)
    {
      const Run *run = &job->runs[r];
      guint64 i = run->first + (k - run->before);
      guint64 end = run->first + MIN (last - run->before, run->last - run->first);

      for (; i < end; i++, k++)
        {
          EtlRecordBrief b;
          guint32 tid;

          if (++n_read % CANCEL_STEP == 0
              && (g_atomic_int_get (&job->cancelled) || g_cancellable_is_cancelled (job->cancellable)))
            {
              g_atomic_int_set (&job->cancelled, 1);
              g_clear_pointer (&cur->more, g_hash_table_unref);
              return;
            }
          if (!etl_trace_peek_record (job->trace, i, &b))
            continue;
          tid = etl_thread_rows_record_thread (&b);
          if (tid != ETL_THREAD_ROWS_NO_THREAD && contains_forward (job, cur, tid, b.filetime))
            g_array_append_val (out, i);
          etl_record_brief_clear (&b);
        }
    }
  g_clear_pointer (&cur->more, g_hash_table_unref);
}

/**
 * etl_thread_rows_new:
 * @trace: a trace
 * @spans: (array length=n_spans) (nullable): threads and times: a record
 *   counts when its thread (etl_thread_rows_record_thread()) is a span's
 *   @tid and its FILETIME lies in [@start, @stop) of that span; spans may
 *   overlap (a record is counted once) and come in any order
 * @n_spans: their number
 * @cancellable: (nullable): checked every 4096 records read
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * The rows (positions in @trace's merged sequence) of the records of the
 * spans' threads within their times, in ascending order: what a set of
 * intervals did (the Regions view's "Summary of these"), for the grouped
 * summary (etl_group_summary_compute()) and the views that take a row set.
 * Reads only the records within the union of the spans, each once, in the
 * calling thread (meant for a worker) and, for more than 65,536 records, a
 * thread per further processor; see the section description.  A record
 * that cannot be read is left out.
 *
 * Returns: (transfer full) (nullable): the rows, %NULL when cancelled
 */
EtlRowSet *
etl_thread_rows_new (EtlTrace *trace, const EtlStackTreeSpan *spans, guint n_spans, GCancellable *cancellable,
                     GError **error)
{
  g_autofree EtlStackTreeSpan *merged = NULL;
  g_autofree EtlStackTreeSpan *by_start = NULL;
  g_autoptr (GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  Job job = { 0 };
  guint n, n_workers;
  guint64 total = 0, n_rows = 0, at = 0;
  guint64 *rows;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (spans != NULL || n_spans == 0, NULL);

  /* The threads' times, merged per thread (etl_stack_tree_merge_spans()),
   * then their union in time: the runs of records to read. */
  merged = n_spans > 0 ? g_memdup2 (spans, (gsize) n_spans * sizeof *spans) : NULL;
  n = etl_stack_tree_merge_spans (merged, n_spans, NULL, NULL);
  by_start = n > 0 ? g_memdup2 (merged, (gsize) n * sizeof *merged) : NULL;
  if (n > 0)
    qsort (by_start, n, sizeof *by_start, cmp_by_start);
  for (guint i = 0; i < n;)
    {
      gint64 start = by_start[i].start, stop = by_start[i].stop;
      Run run;

      for (i++; i < n && by_start[i].start <= stop; i++)
        stop = MAX (stop, by_start[i].stop);
      run.first = etl_trace_lower_bound (trace, start);
      run.last = etl_trace_lower_bound (trace, stop);
      run.before = total;
      if (run.last > run.first)
        {
          g_array_append_val (runs, run);
          total += run.last - run.first;
        }
    }

  /* The runs laid end to end, split between the workers. */
  job.trace = trace;
  job.spans = merged;
  job.n_spans = n;
  job.runs = (const Run *) (gpointer) runs->data;
  job.n_runs = runs->len;
  job.cancellable = cancellable;
  n_workers = MIN (etl_parallel_n_workers (total, MIN_PER_WORKER), MAX_WORKERS);
  for (guint w = 0; w < n_workers; w++)
    job.out[w] = g_array_new (FALSE, FALSE, sizeof (guint64));
  if (total > 0)
    etl_parallel_ranges (n_workers, 0, total, read_range, &job);
  for (guint w = 0; w < n_workers; w++)
    n_rows += job.out[w]->len;
  rows = g_new (guint64, MAX (n_rows, 1));
  for (guint w = 0; w < n_workers; w++)
    {
      if (job.out[w]->len > 0)
        memcpy (rows + at, job.out[w]->data, (gsize) job.out[w]->len * sizeof (guint64));
      at += job.out[w]->len;
      g_array_unref (job.out[w]);
    }
  if (job.cancelled || g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      g_free (rows);
      if (error != NULL && *error == NULL)
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
      return NULL;
    }
  return etl_row_set_new_take (rows, n_rows);
}
