/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Thread time (etl-thread-time.c) of the synthetic waits schedule with its
 * CSwitch and ReadyThread stacks (etl-synth-waits.c, `synth --waits
 * --stacks`): the schedule's intervals, restated here from its table, must
 * land under the documented paths to the 100-ns tick — blocked time under
 * the next switch-in's stack and the waker's READIED_BY frames, ready and
 * CPU time under the switch-in stack — for every thread, for a thread
 * filter and a range cutting intervals, without ReadyThread records, and
 * without stacks; then the same through `etlscope-cli stacks --thread-time`.
 * Times: ms from the trace's start, the schedule starting at 1 ms, the
 * trace ending at 7 ms. */

#include "config.h"

#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

#include "etl-stack-tree.h"
#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-thread-time.h"
#include "etl-trace.h"

#define MS G_GINT64_CONSTANT (10000) /* 100-ns ticks in a millisecond */
#define T(x) ((guint64) (x) * 1000)  /* x tenths of a ms, in ticks */
#define NONE ETL_STACK_TREE_NONE

/* Frames, outermost first, as etl_stacks_symbolize() names them. */
#define PROC_ALPHA "Process alpha.exe (1000)"
#define PROC_BETA  "Process beta.exe (2000)"
#define PROC_GAMMA "Process gamma.exe (3000)"
/* New Thread Stack after a wait of reason s: ntdll+0x5E3C0, exe+0x800,
 * exe+0x1000+s×0x100, ntdll+0xA0000+s×0x10, ntoskrnl+0x20000+s×0x100. */
#define STACK(exe, s_exe, s_ntdll, s_ntos)                                                          \
  "ntdll.dll+0x5e3c0", exe "+0x800", exe "+0x" s_exe, "ntdll.dll+0xa0" s_ntdll, "ntoskrnl.exe+0x2" s_ntos
#define A_AFTER_37 STACK ("alpha.exe", "3500", "250", "2500")     /* WrAlertByThreadId */
#define A_START    STACK ("alpha.exe", "4f00", "3f0", "3f00")     /* first switch-in */
#define D_AFTER_4  STACK ("alpha.exe", "1400", "040", "0400")     /* DelayExecution */
#define B_AFTER_6  STACK ("beta.exe", "1600", "060", "0600")      /* UserRequest */
#define C_AFTER_15 STACK ("gamma.exe", "1f00", "0f0", "0f00")     /* WrQueue */
#define C_AFTER_32 STACK ("gamma.exe", "3000", "200", "2000")     /* WrPreempted */
/* Ready Thread Stack of a readying thread, woken thread at place k. */
#define WAKER(tid, proc, exe, k)                                                                   \
  "READIED BY TID(" tid ") " proc, "ntdll.dll+0x5e3c0 (READIED_BY)", exe "+0x800 (READIED_BY)",         \
      exe "+0x80" k "0 (READIED_BY)", "ntdll.dll+0xb0000 (READIED_BY)", "ntoskrnl.exe+0x40000 (READIED_BY)"

static char *
write_waits (const char *dir, const char *name, gboolean no_ready_thread, gboolean stacks)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, name, NULL);
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.waits = TRUE;
  params.no_ready_thread = no_ready_thread;
  params.waits_stacks = stacks;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  return path;
}

typedef struct
{
  char *dir;
  char *path;
  EtlTrace *trace;
  EtlStacks *stacks;
  EtlThreadStates *states;
  gint64 origin;
} Fixture;

static void
fixture_open (Fixture *f, gboolean no_ready_thread, gboolean stacks)
{
  g_autoptr (GError) error = NULL;
  const char *paths[2] = { NULL, NULL };

  f->dir = g_dir_make_tmp ("etlscope-thread-time-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = write_waits (f->dir, "waits.etl", no_ready_thread, stacks);
  paths[0] = f->path;
  f->trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  f->stacks = etl_stacks_compute (f->trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  f->states = etl_thread_states_new (f->trace, NULL, &error);
  g_assert_no_error (error);
  f->origin = etl_trace_get_origin (f->trace);
}

static void
fixture_close (Fixture *f)
{
  etl_thread_states_unref (f->states);
  etl_stacks_unref (f->stacks);
  etl_trace_unref (f->trace);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static EtlStackTree *
tree_of (Fixture *f, const guint32 *tids, guint n_tids, gint64 from_ms10, gint64 to_ms10)
{
  g_autoptr (GError) error = NULL;
  EtlStackTree *tree = etl_thread_time_tree_new (f->states, f->stacks, tids, n_tids, f->origin + T (from_ms10),
                                                 f->origin + T (to_ms10), NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (tree);
  g_assert_cmpint (etl_stack_tree_get_unit (tree), ==, ETL_STACK_TREE_UNIT_TICKS);
  return tree;
}

/* The node at the end of @path (NULL-terminated names from the root's
 * child on), NONE when missing. */
static guint
node_at (EtlStackTree *tree, const char *const *path)
{
  guint node = 0;

  for (guint k = 0; path[k] != NULL && node != NONE; k++)
    node = etl_stack_tree_find_child (tree, node, path[k]);
  return node;
}

/* The self weight at @path, asserting the node exists and is a leaf. */
#define assert_leaf(tree, want, ...)                                                               \
  G_STMT_START                                                                                     \
  {                                                                                                \
    const char *const path_[] = { __VA_ARGS__, NULL };                                             \
    guint n_, node_ = node_at (tree, path_);                                                       \
    const EtlStackTreeNode *nodes_ = etl_stack_tree_get_nodes (tree, &n_);                         \
                                                                                                   \
    g_assert_cmpuint (node_, !=, NONE);                                                            \
    g_assert_cmpuint (nodes_[node_].first_child, ==, NONE);                                        \
    g_assert_cmpuint (nodes_[node_].self, ==, want);                                               \
    g_assert_cmpuint (nodes_[node_].total, ==, want);                                              \
  }                                                                                                \
  G_STMT_END

/* The time under leaves named @leaf, below node @under (0: everywhere). */
static guint64
leaf_sum (EtlStackTree *tree, guint under, const char *leaf)
{
  guint n;
  const EtlStackTreeNode *nodes = etl_stack_tree_get_nodes (tree, &n);
  guint64 sum = 0;

  for (guint i = 1; i < n; i++)
    {
      gboolean below = under == 0;

      if (strcmp (nodes[i].name, leaf) != 0)
        continue;
      g_assert_cmpuint (nodes[i].first_child, ==, NONE); /* pseudo-frames are innermost */
      for (guint k = nodes[i].parent; k != NONE && !below; k = nodes[k].parent)
        below = k == under;
      if (below)
        sum += nodes[i].self;
    }
  return sum;
}

static guint
thread_node (EtlStackTree *tree, const char *process, const char *thread)
{
  const char *const path[] = { process, thread, NULL };

  return node_at (tree, path);
}

/* The StackWalk records the schedule gains, and the stacks they attach. */
static void
test_synth_stacks (void)
{
  Fixture f = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *plain = NULL;
  g_autoptr (EtlTrace) plain_trace = NULL;
  const char *paths[2] = { NULL, NULL };
  const EtlThreadState *a;
  guint n = 0;
  g_auto (GStrv) cswitch = NULL;
  g_auto (GStrv) ready = NULL;
  const char *const want_cswitch[] = { "ntoskrnl.exe+0x22500", "ntdll.dll+0xa0250", "alpha.exe+0x3500",
                                       "alpha.exe+0x800", "ntdll.dll+0x5e3c0", NULL };
  const char *const want_ready[] = { "ntoskrnl.exe+0x40000", "ntdll.dll+0xb0000", "gamma.exe+0x8000",
                                     "gamma.exe+0x800", "ntdll.dll+0x5e3c0", NULL };

  fixture_open (&f, FALSE, TRUE);
  plain = write_waits (f.dir, "plain.etl", FALSE, FALSE);
  paths[0] = plain;
  plain_trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* 7 Image Loads and one StackWalk per CSwitch (17) and ReadyThread (5). */
  g_assert_cmpuint (etl_trace_get_n_records (f.trace), ==, etl_trace_get_n_records (plain_trace) + 7 + 22);
  g_assert_cmpuint (etl_stacks_get_n_stack_records (f.stacks), ==, 22);
  g_assert_cmpuint (etl_stacks_get_n_attached (f.stacks), ==, 22);
  g_assert_cmpuint (etl_stacks_get_n_modules (f.stacks), ==, 7);

  /* A (1004): Running, Waiting, Ready (the ReadyThread by C at 4.0 ms),
   * Running (the CSwitch at 4.1 ms: the stack where it blocked). */
  a = etl_thread_states_get (f.states, 1004, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpint (a[2].kind, ==, ETL_THREAD_STATE_READY);
  g_assert_cmpint (a[3].kind, ==, ETL_THREAD_STATE_RUNNING);
  cswitch = etl_stacks_dup_symbolized (f.stacks, a[3].record);
  ready = etl_stacks_dup_symbolized (f.stacks, a[2].record);
  g_assert_nonnull (cswitch);
  g_assert_nonnull (ready);
  g_assert_true (g_strv_equal ((const char *const *) cswitch, want_cswitch));
  g_assert_true (g_strv_equal ((const char *const *) ready, want_ready));

  g_unlink (plain);
  fixture_close (&f);
}

/* Every thread over the whole trace. */
static void
test_all_threads (void)
{
  Fixture f = { 0 };
  g_autoptr (EtlStackTree) tree = NULL;
  guint n;
  const EtlStackTreeNode *nodes;
  guint a, b, c, d;

  fixture_open (&f, FALSE, TRUE);
  tree = tree_of (&f, NULL, 0, 0, 70);
  nodes = etl_stack_tree_get_nodes (tree, &n);

  /* Each thread from its first scheduler record to the trace's end at 7 ms:
   * A 1.0, B 1.0, D 2.0, C 1.6 ms. */
  g_assert_cmpuint (nodes[0].total, ==, T (60) + T (60) + T (50) + T (54));
  a = thread_node (tree, PROC_ALPHA, "Thread (1004)");
  d = thread_node (tree, PROC_ALPHA, "Thread (1008)");
  b = thread_node (tree, PROC_BETA, "Thread (2004)");
  c = thread_node (tree, PROC_GAMMA, "Thread (3004)");
  g_assert_cmpuint (a, !=, NONE);
  g_assert_cmpuint (nodes[a].total, ==, T (60));
  g_assert_cmpuint (nodes[d].total, ==, T (50));
  g_assert_cmpuint (nodes[b].total, ==, T (60));
  g_assert_cmpuint (nodes[c].total, ==, T (54));

  /* A: waited 2.0–5.0 ms (WrAlertByThreadId), blocked where its switch-in
   * at 5.1 ms shows, readied by C (gamma) at 5.0 ms. */
  assert_leaf (tree, T (30), PROC_ALPHA, "Thread (1004)", A_AFTER_37, WAKER ("3004", "gamma.exe (3000)", "gamma.exe", "0"),
               "BLOCKED_TIME");
  /* … Ready 5.0–5.1 ms under the same stack, no waker frames. */
  assert_leaf (tree, T (1), PROC_ALPHA, "Thread (1004)", A_AFTER_37, "READIED_TIME");
  /* … Running 1.0–2.0 ms (first switch-in) and 5.1–6.2 ms. */
  assert_leaf (tree, T (10), PROC_ALPHA, "Thread (1004)", A_START, "CPU_TIME");
  assert_leaf (tree, T (11), PROC_ALPHA, "Thread (1004)", A_AFTER_37, "CPU_TIME");
  /* … Waiting 6.2–7.0 ms, never switched in again: no stack. */
  assert_leaf (tree, T (8), PROC_ALPHA, "Thread (1004)", "BLOCKED_TIME");
  g_assert_cmpuint (leaf_sum (tree, a, "CPU_TIME"), ==, T (21));
  g_assert_cmpuint (leaf_sum (tree, a, "BLOCKED_TIME"), ==, T (38));
  g_assert_cmpuint (leaf_sum (tree, a, "READIED_TIME"), ==, T (1));

  /* D: DelayExecution 2.5–3.0 ms, readied by a DPC (kernel stack, k = 1). */
  assert_leaf (tree, T (5), PROC_ALPHA, "Thread (1008)", D_AFTER_4, "READIED BY TID(0) DPC/idle",
               "ntoskrnl.exe+0x31000 (READIED_BY)", "ntoskrnl.exe+0x30010 (READIED_BY)", "BLOCKED_TIME");
  assert_leaf (tree, T (2), PROC_ALPHA, "Thread (1008)", D_AFTER_4, "READIED_TIME");
  /* B: UserRequest 1.5–3.5 ms, readied by D (alpha, k = 2); WrPushLock
   * 4.4–6.0 ms, readied by A but never switched in: the waker's frames
   * without a blocking stack, then Ready to the end. */
  assert_leaf (tree, T (20), PROC_BETA, "Thread (2004)", B_AFTER_6, WAKER ("1008", "alpha.exe (1000)", "alpha.exe", "2"),
               "BLOCKED_TIME");
  assert_leaf (tree, T (16), PROC_BETA, "Thread (2004)", WAKER ("1004", "alpha.exe (1000)", "alpha.exe", "2"),
               "BLOCKED_TIME");
  assert_leaf (tree, T (10), PROC_BETA, "Thread (2004)", "READIED_TIME");
  /* C: WrQueue 2.0–4.2 ms readied by B (k = 3); preempted 5.5–5.8 ms:
   * Ready under the stack of its switch-in after WrPreempted. */
  assert_leaf (tree, T (22), PROC_GAMMA, "Thread (3004)", C_AFTER_15, WAKER ("2004", "beta.exe (2000)", "beta.exe", "3"),
               "BLOCKED_TIME");
  assert_leaf (tree, T (3), PROC_GAMMA, "Thread (3004)", C_AFTER_32, "READIED_TIME");
  assert_leaf (tree, T (7), PROC_GAMMA, "Thread (3004)", C_AFTER_32, "CPU_TIME");

  /* The Running, Waiting and Ready states of the table, summed. */
  g_assert_cmpuint (leaf_sum (tree, 0, "CPU_TIME"), ==, T (21) + T (13) + T (11) + T (21));
  g_assert_cmpuint (leaf_sum (tree, 0, "BLOCKED_TIME"), ==, T (38) + T (35) + T (36) + T (27));
  g_assert_cmpuint (leaf_sum (tree, 0, "READIED_TIME"), ==, T (1) + T (2) + T (13) + T (6));
  fixture_close (&f);
}

/* Two threads, 3.0–4.5 ms: intervals cut by the range keep their stacks
 * (the switch-in and ReadyThread that give them lie outside). */
static void
test_range (void)
{
  Fixture f = { 0 };
  g_autoptr (EtlStackTree) tree = NULL;
  const guint32 tids[] = { 3004, 1004, 77 }; /* 77: not a thread of the trace */
  const char *const alpha[] = { PROC_ALPHA, NULL };
  guint n;
  const EtlStackTreeNode *nodes;

  fixture_open (&f, FALSE, TRUE);
  tree = tree_of (&f, tids, G_N_ELEMENTS (tids), 30, 45);
  nodes = etl_stack_tree_get_nodes (tree, &n);
  g_assert_cmpuint (nodes[0].total, ==, 2 * T (15));
  /* A waited 2.0–5.0 ms: 3.0–4.5 of it. */
  assert_leaf (tree, T (15), PROC_ALPHA, "Thread (1004)", A_AFTER_37, WAKER ("3004", "gamma.exe (3000)", "gamma.exe", "0"),
               "BLOCKED_TIME");
  /* C waited 2.0–4.2 ms (3.0–4.2 of it), was Ready 4.2–4.5 ms. */
  assert_leaf (tree, T (12), PROC_GAMMA, "Thread (3004)", C_AFTER_15, WAKER ("2004", "beta.exe (2000)", "beta.exe", "3"),
               "BLOCKED_TIME");
  assert_leaf (tree, T (3), PROC_GAMMA, "Thread (3004)", C_AFTER_15, "READIED_TIME");
  /* Only the threads asked for: not D (alpha) nor B (beta). */
  g_assert_cmpuint (thread_node (tree, PROC_ALPHA, "Thread (1008)"), ==, NONE);
  g_assert_cmpuint (node_at (tree, (const char *const[]){ PROC_BETA, NULL }), ==, NONE);
  g_assert_cmpuint (nodes[node_at (tree, alpha)].total, ==, T (15));
  fixture_close (&f);
}

/* Without ReadyThread records the whole switched-out time is blocked, under
 * the next switch-in's stack, with no waker. */
static void
test_no_ready_thread (void)
{
  Fixture f = { 0 };
  g_autoptr (EtlStackTree) tree = NULL;
  guint n;
  const EtlStackTreeNode *nodes;

  fixture_open (&f, TRUE, TRUE);
  g_assert_false (etl_thread_states_has_ready_thread (f.states));
  tree = tree_of (&f, NULL, 0, 0, 70);
  nodes = etl_stack_tree_get_nodes (tree, &n);
  g_assert_cmpuint (nodes[0].total, ==, T (60) + T (60) + T (50) + T (54));
  /* A: switched out 2.0–5.1 ms. */
  assert_leaf (tree, T (31), PROC_ALPHA, "Thread (1004)", A_AFTER_37, "BLOCKED_TIME");
  /* C's preemption 5.5–5.8 ms is not told apart either. */
  assert_leaf (tree, T (3), PROC_GAMMA, "Thread (3004)", C_AFTER_32, "BLOCKED_TIME");
  g_assert_cmpuint (leaf_sum (tree, 0, "READIED_TIME"), ==, 0);
  g_assert_cmpuint (leaf_sum (tree, 0, "CPU_TIME"), ==, T (66));
  g_assert_cmpuint (leaf_sum (tree, 0, "BLOCKED_TIME"), ==, T (224) - T (66));
  for (guint i = 0; i < n; i++)
    g_assert_null (strstr (nodes[i].name, "READIED"));
  fixture_close (&f);
}

/* Without stacks every interval is under its thread frame alone; the sample
 * tree of the same trace stays in samples. */
static void
test_no_stacks (void)
{
  Fixture f = { 0 };
  g_autoptr (EtlStackTree) tree = NULL;
  g_autoptr (EtlStackTree) samples = NULL;
  g_autoptr (GError) error = NULL;

  fixture_open (&f, FALSE, FALSE);
  tree = tree_of (&f, NULL, 0, 0, 70);
  g_assert_cmpuint (etl_stack_tree_get_max_depth (tree), ==, 3);
  assert_leaf (tree, T (38), PROC_ALPHA, "Thread (1004)", "BLOCKED_TIME");
  assert_leaf (tree, T (1), PROC_ALPHA, "Thread (1004)", "READIED_TIME");
  assert_leaf (tree, T (21), PROC_ALPHA, "Thread (1004)", "CPU_TIME");
  samples = etl_stack_tree_new (f.stacks, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (etl_stack_tree_get_unit (samples), ==, ETL_STACK_TREE_UNIT_SAMPLES);
  fixture_close (&f);
}

static void
test_cancelled (void)
{
  Fixture f = { 0 };
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  EtlStackTree *tree;

  fixture_open (&f, FALSE, TRUE);
  g_cancellable_cancel (cancel);
  tree = etl_thread_time_tree_new (f.states, f.stacks, NULL, 0, G_MININT64, G_MAXINT64, cancel, &error);
  g_assert_null (tree);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  fixture_close (&f);
}

/* Runs the CLI; returns its stdout, the exit status in *@status. */
static char *
run_cli (int *status, char **err_out, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  char *out = NULL, *err = NULL;
  va_list args;

  g_ptr_array_add (argv, (gpointer) g_getenv ("ETLSCOPE_CLI"));
  g_assert_nonnull (argv->pdata[0]);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *) argv->pdata,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  *status = g_subprocess_get_exit_status (proc);
  *err_out = err;
  return out;
}

/* `synth --waits --stacks` then `stacks --thread-time`: the figures above
 * in ms, the heaviest path first; usage errors exit with status 2. */
static void
test_cli (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *dir = g_dir_make_tmp ("etlscope-thread-time-cli-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *o, *top;
  JsonArray *frames, *tids;
  const char *const want[] = { PROC_ALPHA, "Thread (1004)", A_AFTER_37,
                               WAKER ("3004", "gamma.exe (3000)", "gamma.exe", "0"), "BLOCKED_TIME" };
  int status;

  g_assert_no_error (error);
  path = g_build_filename (dir, "waits.etl", NULL);
  out = run_cli (&status, &err, "synth", "--waits", "--stacks", "-o", path, NULL);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "stacks", "--thread-time", "--tid", "1004", "--tid", "3004", "--from", "3",
                 "--to", "4.5", "--top", "2", path, NULL);
  g_assert_cmpstr (err, ==, "");
  g_assert_cmpint (status, ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  o = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpint (json_object_get_int_member (o, "stack_records"), ==, 22);
  tids = json_object_get_array_member (o, "threads");
  g_assert_cmpuint (json_array_get_length (tids), ==, 2);
  g_assert_cmpint (json_array_get_int_element (tids, 1), ==, 3004);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "total_ms"), 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "blocked_ms"), 2.7, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "readied_ms"), 0.3, 1e-9);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "cpu_ms"), 0.0, 1e-9);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "paths")), ==, 2);
  top = json_array_get_object_element (json_object_get_array_member (o, "paths"), 0);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (top, "ms"), 1.5, 1e-9);
  frames = json_object_get_array_member (top, "frames");
  g_assert_cmpuint (json_array_get_length (frames), ==, G_N_ELEMENTS (want));
  for (guint k = 0; k < G_N_ELEMENTS (want); k++)
    g_assert_cmpstr (json_array_get_string_element (frames, k), ==, want[k]);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  out = run_cli (&status, &err, "stacks", "--thread-time", "--tid", "x", path, NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "--tid"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  out = run_cli (&status, &err, "stacks", "--tid", "1004", path, NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "--thread-time"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  out = run_cli (&status, &err, "synth", "--stacks", "-o", path, NULL);
  g_assert_cmpint (status, ==, 2);
  g_assert_nonnull (strstr (err, "--waits"));

  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/thread-time/synth-stacks", test_synth_stacks);
  g_test_add_func ("/etl/thread-time/all-threads", test_all_threads);
  g_test_add_func ("/etl/thread-time/range", test_range);
  g_test_add_func ("/etl/thread-time/no-ready-thread", test_no_ready_thread);
  g_test_add_func ("/etl/thread-time/no-stacks", test_no_stacks);
  g_test_add_func ("/etl/thread-time/cancelled", test_cancelled);
  g_test_add_func ("/etl/thread-time/cli", test_cli);
  return g_test_run ();
}
