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
 * The computation sweeps the spans' boundaries in time order, keeping the
 * set of threads whose span is open, and reads only the records that lie
 * between two boundaries while some thread is open (found by binary search
 * in the time-ordered merged sequence, etl_trace_lower_bound()): each such
 * record is read once, its header peeked in place (etl_trace_peek_record()).
 * O(S log S + R_in) for S spans and the R_in records their union covers.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <stdlib.h>

#include "etl-stack-tree-private.h"
#include "etl-thread-rows.h"

#define CANCEL_STEP 4096

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

/* A span's end, for the sweep: its time and whether it opens its thread. */
typedef struct
{
  gint64 time;
  guint32 tid;
  gboolean open;
} Boundary;

/* By time; at one time the ends before the beginnings (a thread's spans
 * are disjoint after merging, so this only keeps the active set small). */
static int
cmp_boundary (gconstpointer a, gconstpointer b)
{
  const Boundary *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return (int) x->open - (int) y->open;
}

/* Appends to @rows the records in [@first, @last) whose thread is in
 * @active.  FALSE when cancelled (@error set). */
static gboolean
collect (EtlTrace *trace, guint64 first, guint64 last, GHashTable *active, GArray *rows, guint64 *n_read,
         GCancellable *cancellable, GError **error)
{
  for (guint64 i = first; i < last; i++)
    {
      EtlRecordBrief b;
      guint32 tid;

      if (++*n_read % CANCEL_STEP == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!etl_trace_peek_record (trace, i, &b))
        continue;
      tid = etl_thread_rows_record_thread (&b);
      etl_record_brief_clear (&b);
      if (tid != ETL_THREAD_ROWS_NO_THREAD && g_hash_table_contains (active, GUINT_TO_POINTER (tid)))
        g_array_append_val (rows, i);
    }
  return TRUE;
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
 * calling thread (meant for a worker); see the section description.  A
 * record that cannot be read is left out.
 *
 * Returns: (transfer full) (nullable): the rows, %NULL when cancelled
 */
EtlRowSet *
etl_thread_rows_new (EtlTrace *trace, const EtlStackTreeSpan *spans, guint n_spans, GCancellable *cancellable,
                     GError **error)
{
  g_autofree EtlStackTreeSpan *merged = NULL;
  g_autofree Boundary *bounds = NULL;
  g_autoptr (GHashTable) active = NULL; /* ThreadId → spans open */
  g_autoptr (GArray) rows = NULL;
  guint64 pos, n_read = 0;
  guint n, n_bounds;
  guint64 n_rows;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (spans != NULL || n_spans == 0, NULL);

  rows = g_array_new (FALSE, FALSE, sizeof (guint64));
  merged = n_spans > 0 ? g_memdup2 (spans, (gsize) n_spans * sizeof *spans) : NULL;
  n = etl_stack_tree_merge_spans (merged, n_spans, NULL, NULL);
  n_bounds = 2 * n;
  bounds = g_new (Boundary, MAX (n_bounds, 1));
  for (guint i = 0; i < n; i++)
    {
      bounds[2 * i] = (Boundary){ merged[i].start, merged[i].tid, TRUE };
      bounds[2 * i + 1] = (Boundary){ merged[i].stop, merged[i].tid, FALSE };
    }
  if (n_bounds > 0)
    qsort (bounds, n_bounds, sizeof *bounds, cmp_boundary);

  /* Between two consecutive boundary times the open threads do not change:
   * the records there are read when some thread is open. */
  active = g_hash_table_new (g_direct_hash, g_direct_equal);
  pos = n_bounds > 0 ? etl_trace_lower_bound (trace, bounds[0].time) : 0;
  for (guint k = 0; k < n_bounds;)
    {
      gint64 t = bounds[k].time;
      guint64 next_pos;

      for (; k < n_bounds && bounds[k].time == t; k++)
        {
          gpointer key = GUINT_TO_POINTER (bounds[k].tid);
          guint open = GPOINTER_TO_UINT (g_hash_table_lookup (active, key));

          if (bounds[k].open)
            g_hash_table_insert (active, key, GUINT_TO_POINTER (open + 1));
          else if (open > 1)
            g_hash_table_insert (active, key, GUINT_TO_POINTER (open - 1));
          else
            g_hash_table_remove (active, key);
        }
      if (k == n_bounds)
        break;
      next_pos = etl_trace_lower_bound (trace, bounds[k].time);
      if (g_hash_table_size (active) > 0
          && !collect (trace, pos, next_pos, active, rows, &n_read, cancellable, error))
        return NULL;
      pos = next_pos;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  n_rows = rows->len;
  return etl_row_set_new_take ((guint64 *) (gpointer) g_array_free (g_steal_pointer (&rows), FALSE), n_rows);
}
