/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-thread-time
 * @title: Thread time
 * @short_description: where threads spent their time, running or not, as a weighted call tree
 *
 * PerfView's Thread Time view (TraceEvent's ThreadTimeStackComputer) built
 * from the thread states of etl_thread_states_new() and the CSwitch and
 * ReadyThread stacks of etl_stacks_compute(): every interval of a thread's
 * life in the range becomes one path of an #EtlStackTree weighted by its
 * length in 100-ns ticks (%ETL_STACK_TREE_UNIT_TICKS).
 *
 * A path, outermost first: `Process NAME (PID)` (etl_process_format_name()
 * of the thread's process at the interval's start; `Process(?)` when the
 * process table does not know the thread), `Thread (TID)`, the frames of a
 * stack outermost first, then a pseudo-frame as the innermost frame:
 *
 * - **Running** → `CPU_TIME`, under the stack of the CSwitch that switched
 *   the thread in (its New Thread Stack: where it resumed).  PerfView
 *   charges the time from a switch-in to the thread's first CPU sample to
 *   that same stack, then each span between consecutive samples to the
 *   earlier sample's stack; this tree does not read the samples (the
 *   "CPU samples" tree, etl_stack_tree_new(), shows where running time
 *   went), so the whole running interval goes to the switch-in stack.
 * - **Waiting** → `BLOCKED_TIME`, under the stack where the thread blocked:
 *   the New Thread Stack of the CSwitch that next switched it in (the
 *   kernel walks the stack of the thread being switched in, which is still
 *   where it called the wait).  When the ReadyThread that ended the wait
 *   has a stack (the readying thread's: WPA's Ready Thread Stack), a frame
 *   `READIED BY TID(T) NAME (PID)` (`READIED BY TID(0) DPC/idle` for
 *   a DPC or the idle thread) and the waker's frames, outermost first, each
 *   named `FRAME (READIED_BY)`, come between the blocking stack and
 *   `BLOCKED_TIME`, as PerfView appends them.
 * - **Ready** → `READIED_TIME`, under the next switch-in's stack (no waker
 *   frames).  PerfView calls it `READIED_TIME (waiting for cpu)` and shows
 *   it only above 0.5 ms, adding the ready time to the blocked time below;
 *   here every Ready interval is its own path, so BLOCKED_TIME is exactly
 *   the Waiting time.  A preemption (switch-out in state Ready, no
 *   ReadyThread) is Ready too.
 * - **Not running** (a trace without ReadyThread records) → `BLOCKED_TIME`
 *   for the whole switched-out time, under the next switch-in's stack: Ready
 *   and Waiting cannot be told apart, nor is there a waker.
 *
 * Stack frames are named in full by etl_stacks_symbolize()
 * (`module.dll+0xOFFSET`): a blocking call site is what this view is for,
 * and without symbol files the offset is what tells two call sites of one
 * module apart (the sample tree groups by module instead).
 *
 * Edge cases:
 *
 * - Intervals are clipped to [@from, @to): an interval cut by the range
 *   counts its part inside, under the same stacks, even when the switch-in
 *   or ReadyThread that gives them lies outside the range.
 * - A thread's time counts from its first CSwitch or ReadyThread to the
 *   trace's last record (etl_thread_states_new()'s states); before that
 *   nothing is known and nothing is charged.  The root's total is thus the
 *   sum over the threads of the part of the range their states cover.
 * - A Waiting, Ready or Not-running interval with no later switch-in (the
 *   thread was still switched out when the trace ended), or a switch-in
 *   without a stack, has no blocking stack: its time goes to the thread
 *   frame then the pseudo-frame (with the waker frames when the ReadyThread
 *   has a stack).
 * - The idle thread (id 0) has no states and no time.  A thread id in
 *   @tids that the states do not know adds nothing.  Thread ids reused
 *   after a Thread End are one thread (as in etl_thread_states_new()); the
 *   process frame follows the process table at each interval.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-thread-time.h"

#include <string.h>

#include "etl-gallop.h"
#include "etl-process-table.h"
#include "etl-stack-tree-private.h"
#include "etl-trace.h"

#define NO_STATE G_MAXUINT

typedef struct
{
  EtlStackTreeBuilder *tree;
  EtlStacks *stacks;
  EtlTrace *trace;
  EtlProcessTable *table;
  GPtrArray *path; /* interned names, outermost first */
  EtlCallSamples *samples; /* etl_thread_time_samples_new(): the paths go here instead */
  GArray *ids;             /* guint32: the path's ids in @samples */
} Builder;

static void
push (Builder *b, const char *name)
{
  g_ptr_array_add (b->path, (gpointer) etl_stack_tree_builder_intern (b->tree, name));
}

static void
push_take (Builder *b, char *name)
{
  push (b, name);
  g_free (name);
}

/* The frames of record @index's stack, outermost first, each followed by
 * @suffix; nothing when it has none. */
static void
push_stack (Builder *b, guint64 index, const char *suffix)
{
  g_autoptr (GArray) frames = NULL;
  gint64 filetime;
  guint32 pid = 0;

  if (!etl_stacks_has_stack (b->stacks, index))
    return;
  frames = etl_stacks_get_frames (b->stacks, index, &pid);
  if (frames == NULL)
    return;
  filetime = etl_trace_get_filetime (b->trace, index);
  for (guint f = MIN (frames->len, ETL_STACKS_MAX_FRAMES); f > 0; f--)
    {
      g_autofree char *name
          = etl_stacks_symbolize (b->stacks, pid, filetime, g_array_index (frames, guint64, f - 1), NULL);

      push_take (b, g_strconcat (name, suffix, NULL));
    }
}

static const EtlProcess *
process_of (Builder *b, guint32 tid, gint64 filetime)
{
  const EtlThread *th = etl_process_table_lookup_thread (b->table, tid, filetime);

  if (th == NULL)
    return NULL;
  return th->process != NULL ? th->process : etl_process_table_lookup (b->table, th->pid, filetime);
}

/* The process and thread frames. */
static void
push_thread (Builder *b, guint32 tid, gint64 filetime)
{
  const EtlThread *th = etl_process_table_lookup_thread (b->table, tid, filetime);

  if (th == NULL)
    push (b, "Process(?)");
  else
    {
      g_autofree char *name = etl_process_format_name (process_of (b, tid, filetime), th->pid);

      push_take (b, g_strconcat ("Process ", name, NULL));
    }
  push_take (b, g_strdup_printf ("Thread (%u)", tid));
}

/* The waker frames of the ReadyThread that began @ready (see the section
 * description). */
static void
push_waker (Builder *b, const EtlThreadState *ready)
{
  if (ready->readying_tid == ETL_THREAD_STATES_NO_ID || !etl_stacks_has_stack (b->stacks, ready->record))
    return;
  if (ready->readying_tid == 0)
    push (b, "READIED BY TID(0) DPC/idle");
  else
    {
      g_autofree char *name = etl_process_format_name (process_of (b, ready->readying_tid, ready->start),
                                                        ready->readying_pid);

      push_take (b, g_strdup_printf ("READIED BY TID(%u) %s", ready->readying_tid, name));
    }
  push_stack (b, ready->record, ETL_THREAD_TIME_READIED_BY_SUFFIX);
}

/* The first Running state after @j (the switch-in that ends j's time off
 * the processor), NO_STATE when none: states alternate, so it is a step or
 * two ahead. */
static guint
next_run (const EtlThreadState *s, guint n, guint j)
{
  for (guint k = j + 1; k < n; k++)
    if (s[k].kind == ETL_THREAD_STATE_RUNNING)
      return k;
  return NO_STATE;
}

/* Adds the intervals of thread @tid clipped to [@from, @to). */
static void
add_thread (Builder *b, EtlThreadStates *states, guint32 tid, gint64 from, gint64 to)
{
  const EtlThreadState *s;
  guint n = 0;

  s = etl_thread_states_get (states, tid, &n);
  if (s == NULL || n == 0)
    return;
  /* From the first state that ends after @from to the last that starts
   * before @to. */
  for (guint j = (guint) etl_gallop_ending_after (s, n, sizeof (EtlThreadState),
                                                 G_STRUCT_OFFSET (EtlThreadState, end), 0, from);
       j < n && s[j].start < to; j++)
    {
      gint64 start = MAX (s[j].start, from), end = MIN (s[j].end, to);
      const char *leaf;

      if (end <= start)
        continue;
      g_ptr_array_set_size (b->path, 0);
      push_thread (b, tid, start);
      if (s[j].kind == ETL_THREAD_STATE_RUNNING)
        {
          push_stack (b, s[j].record, "");
          leaf = ETL_THREAD_TIME_CPU;
        }
      else
        {
          guint run = next_run (s, n, j);

          if (run != NO_STATE)
            push_stack (b, s[run].record, "");
          if (s[j].kind == ETL_THREAD_STATE_READY)
            leaf = ETL_THREAD_TIME_READIED;
          else
            {
              leaf = ETL_THREAD_TIME_BLOCKED;
              if (s[j].kind == ETL_THREAD_STATE_WAITING && j + 1 < n && s[j + 1].kind == ETL_THREAD_STATE_READY
                  && s[j + 1].start == s[j].end)
                push_waker (b, &s[j + 1]);
            }
        }
      push (b, leaf);
      if (b->samples != NULL)
        {
          g_array_set_size (b->ids, 0);
          for (guint k = 0; k < b->path->len; k++)
            {
              guint32 id = etl_call_samples_intern (b->samples, g_ptr_array_index (b->path, k));

              g_array_append_val (b->ids, id);
            }
          etl_call_samples_add (b->samples, (const guint32 *) b->ids->data, b->ids->len, (guint64) (end - start),
                                start);
        }
      else
        etl_stack_tree_builder_add (b->tree, (const char *const *) b->path->pdata, b->path->len,
                                    (guint64) (end - start));
    }
}

/* Adds the intervals of the threads (or of all) to @b. */
static gboolean
add_threads (Builder *b, EtlThreadStates *states, EtlStacks *stacks, const guint32 *tids, guint n_tids,
             gint64 from_filetime, gint64 to_filetime, GCancellable *cancellable, GError **error)
{
  const guint32 *all;
  guint n_all = 0;

  b->stacks = stacks;
  b->trace = etl_stacks_get_trace (stacks);
  b->table = etl_trace_get_process_table (b->trace);
  all = etl_thread_states_get_threads (states, &n_all);
  if (n_tids == 0)
    {
      tids = all;
      n_tids = n_all;
    }
  for (guint i = 0; i < n_tids; i++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (tids[i] != 0)
        add_thread (b, states, tids[i], from_filetime, to_filetime);
    }
  return TRUE;
}

/**
 * etl_thread_time_tree_new:
 * @states: the trace's thread states (etl_thread_states_new())
 * @stacks: the same trace's stacks (etl_stacks_compute()); its trace's
 *   process table names the processes
 * @tids: (array length=n_tids) (nullable): the threads to include, each
 *   once (a thread listed twice counts twice)
 * @n_tids: the number of @tids; 0 for every thread the states know
 * @from_filetime: start of the range, FILETIME, inclusive
 * @to_filetime: end of the range, FILETIME, exclusive
 * @cancellable: (nullable): checked once a thread
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * Builds PerfView's Thread Time tree of the threads over the range (the
 * rules are in the section description; TraceEvent's
 * ThreadTimeStackComputer and Microsoft's CSwitch, ReadyThread and
 * StackWalk_Event MOF pages are where they come from): each Running, Ready,
 * Waiting or Not-running interval, clipped to the range, is a path weighted
 * by its length, ending in `CPU_TIME`, `READIED_TIME` or `BLOCKED_TIME`.
 * Runs in the calling thread (meant for a worker); the cost is one path per
 * state, each stack read once.
 *
 * Returns: (transfer full) (nullable): the tree, in
 *   %ETL_STACK_TREE_UNIT_TICKS (100-ns); %NULL when cancelled
 */
EtlStackTree *
etl_thread_time_tree_new (EtlThreadStates *states, EtlStacks *stacks, const guint32 *tids, guint n_tids,
                          gint64 from_filetime, gint64 to_filetime, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlStackTreeBuilder) tree = NULL;
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  Builder b = { 0 };

  g_return_val_if_fail (states != NULL && stacks != NULL, NULL);
  g_return_val_if_fail (tids != NULL || n_tids == 0, NULL);

  tree = etl_stack_tree_builder_new (ETL_STACK_TREE_UNIT_TICKS);
  b.tree = tree;
  b.path = path;
  if (!add_threads (&b, states, stacks, tids, n_tids, from_filetime, to_filetime, cancellable, error))
    return NULL;
  return etl_stack_tree_builder_finish (g_steal_pointer (&tree));
}

/**
 * etl_thread_time_samples_new:
 * @states: as etl_thread_time_tree_new()
 * @stacks: as etl_thread_time_tree_new()
 * @tids: (array length=n_tids) (nullable): as etl_thread_time_tree_new()
 * @n_tids: as etl_thread_time_tree_new()
 * @from_filetime: start of the range, FILETIME, inclusive
 * @to_filetime: end of the range, FILETIME, exclusive
 * @cancellable: (nullable): checked once a thread
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * The same paths as etl_thread_time_tree_new(), each a sample weighted by
 * its interval's length in 100-ns ticks at the interval's (clipped) start,
 * for the call-tree views (etl_call_tree_new()).
 *
 * Returns: (transfer full) (nullable): the samples, in
 *   %ETL_STACK_TREE_UNIT_TICKS; %NULL when cancelled
 */
EtlCallSamples *
etl_thread_time_samples_new (EtlThreadStates *states, EtlStacks *stacks, const guint32 *tids, guint n_tids,
                             gint64 from_filetime, gint64 to_filetime, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlStackTreeBuilder) tree = NULL;
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (EtlCallSamples) samples = NULL;
  Builder b = { 0 };

  g_return_val_if_fail (states != NULL && stacks != NULL, NULL);
  g_return_val_if_fail (tids != NULL || n_tids == 0, NULL);

  /* The builder only interns the names (one copy per distinct name). */
  tree = etl_stack_tree_builder_new (ETL_STACK_TREE_UNIT_TICKS);
  samples = etl_call_samples_new (ETL_STACK_TREE_UNIT_TICKS);
  b.tree = tree;
  b.path = path;
  b.samples = samples;
  b.ids = ids;
  if (!add_threads (&b, states, stacks, tids, n_tids, from_filetime, to_filetime, cancellable, error))
    return NULL;
  return g_steal_pointer (&samples);
}

/**
 * etl_thread_time_tree_sum:
 * @tree: a thread-time tree (etl_thread_time_tree_new())
 * @pseudo_frame: %ETL_THREAD_TIME_BLOCKED, %ETL_THREAD_TIME_READIED or
 *   %ETL_THREAD_TIME_CPU
 *
 * Returns: the tree's time under @pseudo_frame, 100-ns units: the summed
 *   self weight of the nodes of that name (the pseudo-frames end every
 *   path)
 */
guint64
etl_thread_time_tree_sum (EtlStackTree *tree, const char *pseudo_frame)
{
  const EtlStackTreeNode *nodes;
  guint64 sum = 0;
  guint n = 0;

  g_return_val_if_fail (tree != NULL && pseudo_frame != NULL, 0);
  nodes = etl_stack_tree_get_nodes (tree, &n);
  for (guint i = 1; i < n; i++)
    if (nodes[i].self > 0 && strcmp (nodes[i].name, pseudo_frame) == 0)
      sum += nodes[i].self;
  return sum;
}
