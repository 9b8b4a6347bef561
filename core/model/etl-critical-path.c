/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-critical-path
 * @title: Critical path
 * @short_description: the chain of threads whose work a thread waited for
 *
 * The critical path of thread T over a range [from, to] answers "what was
 * T's time spent on": where T ran or was ready, T itself; where T waited
 * until another thread readied it, whatever that thread was doing
 * meanwhile, found the same way.  This is Perfetto's critical path
 * (its "critical path lite" stops after one "woken by" hop; this one is
 * transitive), computed from the thread states of etl-thread-states.c:
 * a Waiting state's @readying_tid is the header ThreadId of the ReadyThread
 * record that ended it (Microsoft's ReadyThread MOF page).
 *
 * The rule, for a thread t over an interval [a, b] at hop h (the thread
 * asked about is t at hop 0 over [from, to]), state by state of t in time
 * order, each clipped to [a, b]:
 *
 * - Running and Ready are segments of t at hop h.
 * - A Waiting state that ended at or before b because a thread w readied it
 *   (w not 0, not %ETL_THREAD_STATES_NO_ID, not t) is replaced by the
 *   critical path of w over the clipped wait, at hop h + 1, each of its
 *   segments naming t as @woke_tid.
 * - A Waiting state readied by a DPC or the idle thread (0), or not readied
 *   by b (it lasts past b, or to the trace's end), stays a Waiting segment
 *   of t; so does every %ETL_THREAD_STATE_NOT_RUNNING state (a trace without
 *   ReadyThread records has no "readied by" links).
 * - Guards: when w is already on the chain of hops that led here (t, the
 *   thread t readied, …, the thread asked about) — a cycle, which
 *   consistent input cannot give since a waiting thread readies nobody —
 *   or when h + 1 would exceed %ETL_CRITICAL_PATH_MAX_DEPTH, the wait stays
 *   a Waiting segment of t and #EtlCriticalPathCounts counts it.
 * - Time of [a, b] where t has no state (before its first CSwitch or
 *   ReadyThread, after its last state, a gap) is an
 *   %ETL_CRITICAL_PATH_UNKNOWN segment of t at hop h.  A thread the states
 *   do not know at all (no CSwitch named it) is therefore one Unknown
 *   segment over its whole interval, at hop 0 as at any hop.
 *
 * The segments tile [from, to] exactly, in time order, each of positive
 * length; [from, from] gives none.  Cost: a binary search and one step per
 * state overlapping each interval followed; the intervals of one hop are
 * disjoint, so the work is bounded by the path's depth times the states
 * overlapping [from, to].
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-critical-path.h"

#include "etl-gallop.h"

#define NO_ID ETL_THREAD_STATES_NO_ID

typedef struct
{
  EtlThreadStates *states;
  EtlProcessTable *table; /* nullable */
  GArray *segments;
  EtlCriticalPathCounts counts;
  guint32 chain[ETL_CRITICAL_PATH_MAX_DEPTH + 1]; /* chain[h]: the thread at hop h */
} Walk;

static void
emit (Walk *w, guint32 tid, guint32 pid_hint, guint hop, gint64 start, gint64 end, guint kind,
      gint8 wait_reason)
{
  EtlCriticalPathSegment seg = { 0 };
  const EtlThread *th = NULL;

  g_assert (end > start);
  if (w->table != NULL && tid != 0)
    th = etl_process_table_lookup_thread (w->table, tid, start);
  seg.start = start;
  seg.end = end;
  seg.tid = tid;
  seg.pid = th != NULL ? th->pid : tid == 0 ? 0 : pid_hint;
  seg.woke_tid = hop > 0 ? w->chain[hop - 1] : NO_ID;
  seg.kind = (guint8)kind;
  seg.wait_reason = wait_reason;
  seg.hop = (guint16)hop;
  g_array_append_val (w->segments, seg);
  w->counts.max_hop = MAX (w->counts.max_hop, hop);
}

/* TRUE when the wait @s (ending at or before the interval's end) is to be
 * replaced by its readying thread's path, from hop @hop; counts a refusal
 * by the guards. */
static gboolean
follow (Walk *w, guint32 tid, guint hop, const EtlThreadState *s)
{
  guint32 waker = s->readying_tid;

  if (s->kind != ETL_THREAD_STATE_WAITING || waker == 0 || waker == NO_ID || waker == tid)
    return FALSE;
  for (guint h = 0; h <= hop; h++)
    if (w->chain[h] == waker)
      {
        w->counts.cycles++;
        return FALSE;
      }
  if (hop + 1 > ETL_CRITICAL_PATH_MAX_DEPTH)
    {
      w->counts.depth_limited++;
      return FALSE;
    }
  return TRUE;
}

/* The path of @tid over [@a, @b] at hop @hop (chain[hop] is set here). */
static void
walk (Walk *w, guint32 tid, guint32 pid_hint, guint hop, gint64 a, gint64 b)
{
  guint n = 0, i;
  const EtlThreadState *st = etl_thread_states_get (w->states, tid, &n);
  gint64 cursor = a;

  w->chain[hop] = tid;
  i = st != NULL ? (guint) etl_gallop_ending_after (st, n, sizeof (EtlThreadState),
                                                     G_STRUCT_OFFSET (EtlThreadState, end), 0, a)
                  : 0;
  for (; st != NULL && i < n && st[i].start < b; i++)
    {
      const EtlThreadState *s = &st[i];
      gint64 start = MAX (s->start, cursor), end = MIN (s->end, b);

      if (end <= start)
        continue;
      if (start > cursor)
        emit (w, tid, pid_hint, hop, cursor, start, ETL_CRITICAL_PATH_UNKNOWN,
              ETL_THREAD_STATES_UNKNOWN);
      if (s->end <= b && follow (w, tid, hop, s))
        walk (w, s->readying_tid, s->readying_pid, hop + 1, start, end);
      else
        emit (w, tid, pid_hint, hop, start, end, s->kind, s->wait_reason);
      cursor = end;
    }
  if (cursor < b)
    emit (w, tid, pid_hint, hop, cursor, b, ETL_CRITICAL_PATH_UNKNOWN, ETL_THREAD_STATES_UNKNOWN);
}

/**
 * etl_critical_path_compute:
 * @states: the trace's thread states (etl_thread_states_new())
 * @table: (nullable): the trace's process table
 *   (etl_trace_get_process_table()), to name each segment's process; NULL
 *   leaves hop 0's pid unknown and hops' pids those of the ReadyThread
 * @tid: the thread whose path is wanted (any id; one the states do not know
 *   gives a single Unknown segment)
 * @from: the range's start, FILETIME (100-ns ticks)
 * @to: its end, FILETIME; @to ≥ @from
 * @counts: (out caller-allocates) (optional): what the computation met
 *
 * Computes the critical path of @tid over [@from, @to] by the rule of the
 * section overview (Perfetto's critical path, made transitive): the
 * thread's own Running and Ready time, and for each wait that another
 * thread ended with a ReadyThread, that thread's path over the wait.
 *
 * Returns: (transfer full) (element-type EtlCriticalPathSegment): the
 *   segments, tiling [@from, @to] in time order (empty when @from = @to);
 *   free with g_array_unref().  NULL only on a programming error (@states
 *   NULL or @to < @from).
 */
GArray *
etl_critical_path_compute (EtlThreadStates *states, EtlProcessTable *table, guint32 tid,
                           gint64 from, gint64 to, EtlCriticalPathCounts *counts)
{
  Walk w = { 0 };

  g_return_val_if_fail (states != NULL, NULL);
  g_return_val_if_fail (to >= from, NULL);

  w.states = states;
  w.table = table;
  w.segments = g_array_new (FALSE, FALSE, sizeof (EtlCriticalPathSegment));
  if (to > from)
    walk (&w, tid, NO_ID, 0, from, to);
  if (counts != NULL)
    *counts = w.counts;
  return w.segments;
}

/**
 * etl_critical_path_kind_name:
 * @kind: an #EtlCriticalPathSegment's kind
 *
 * Returns: (transfer none): etl_thread_state_kind_name() of an
 *   #EtlThreadStateKind, "Unknown" for %ETL_CRITICAL_PATH_UNKNOWN
 */
const char *
etl_critical_path_kind_name (guint kind)
{
  return kind == ETL_CRITICAL_PATH_UNKNOWN ? "Unknown"
                                           : etl_thread_state_kind_name ((EtlThreadStateKind)kind);
}
