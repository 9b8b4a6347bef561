/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-call-tree.c: PerfView's stack views over weighted samples
 * (etl-call-samples.c, etl-call-tree.c): By Name, Call Tree, the butterfly
 * of a recursive function (deepest instance), grouping by module, folding,
 * include/exclude, the flame graph's tree of the same stacks; then the same
 * views over a synthetic trace whose frames resolve through CppCon.pdb
 * (etl-test-cppcon.h) and over thread time.
 */
#include "config.h"

#include <string.h>

#include "etl-call-tree.h"
#include "etl-symbol-resolver.h"
#include "etl-test-cppcon.h"
#include "etl-thread-states.h"
#include "etl-thread-time.h"
#include "etl-trace.h"

/* Ten samples, outermost first:
 *   ×3 at 100, 200, 300: ntdll.dll, app.exe!main, app.exe!A, lib.dll!B
 *   ×2 at 400, 500:      ntdll.dll, app.exe!main, app.exe!A
 *   ×1 at 600:           ntdll.dll, app.exe!main, app.exe!C, lib.dll!B
 *   ×4 at 700…1000:      ntdll.dll, app.exe!main, app.exe!R, lib.dll!X, app.exe!R, lib.dll!Y */
static EtlCallSamples *
hand_samples (void)
{
  static const char *const s1[] = { "ntdll.dll", "app.exe!main", "app.exe!A", "lib.dll!B" };
  static const char *const s2[] = { "ntdll.dll", "app.exe!main", "app.exe!A" };
  static const char *const s3[] = { "ntdll.dll", "app.exe!main", "app.exe!C", "lib.dll!B" };
  static const char *const s4[] = { "ntdll.dll", "app.exe!main", "app.exe!R", "lib.dll!X", "app.exe!R", "lib.dll!Y" };
  static const struct
  {
    const char *const *names;
    guint n;
    guint times;
  } stacks[] = { { s1, 4, 3 }, { s2, 3, 2 }, { s3, 4, 1 }, { s4, 6, 4 } };
  EtlCallSamples *s = etl_call_samples_new (ETL_STACK_TREE_UNIT_SAMPLES);
  gint64 t = 100;

  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    for (guint k = 0; k < stacks[i].times; k++, t += 100)
      {
        guint32 ids[8];

        for (guint f = 0; f < stacks[i].n; f++)
          ids[f] = etl_call_samples_intern (s, stacks[i].names[f]);
        etl_call_samples_add (s, ids, stacks[i].n, 1, t);
      }
  return s;
}

static void
assert_function (const EtlCallFunction *f, const char *name, guint64 inclusive, guint64 exclusive, gint64 first,
                 gint64 last)
{
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, name);
  g_assert_cmpuint (f->inclusive, ==, inclusive);
  g_assert_cmpuint (f->exclusive, ==, exclusive);
  if (first >= 0)
    {
      g_assert_cmpint (f->first, ==, first);
      g_assert_cmpint (f->last, ==, last);
    }
}

/* The child of @node named @name, or fails. */
static guint
child (const EtlCallNode *nodes, guint node, const char *name)
{
  for (guint c = nodes[node].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
    if (strcmp (nodes[c].name, name) == 0)
      return c;
  g_error ("no child %s under %s", name, nodes[node].name);
  return ETL_STACK_TREE_NONE;
}

static void
assert_node (const EtlCallNode *n, guint64 inclusive, guint64 exclusive)
{
  g_assert_cmpuint (n->inclusive, ==, inclusive);
  g_assert_cmpuint (n->exclusive, ==, exclusive);
}

static void
test_samples (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  const guint32 *frames;
  const EtlCallStack *st;

  g_assert_cmpuint (etl_call_samples_get_n_samples (s), ==, 10);
  g_assert_cmpuint (etl_call_samples_get_total (s), ==, 10);
  g_assert_cmpuint (etl_call_samples_get_n_stacks (s), ==, 4);
  g_assert_cmpuint (etl_call_samples_get_n_names (s), ==, 8);
  st = etl_call_samples_get_stack (s, 3, &frames);
  g_assert_cmpuint (st->n_frames, ==, 6);
  g_assert_cmpuint (st->count, ==, 4);
  g_assert_cmpuint (st->weight, ==, 4);
  g_assert_cmpint (st->first, ==, 700);
  g_assert_cmpint (st->last, ==, 1000);
  g_assert_cmpuint (frames[2], ==, frames[4]);
  g_assert_cmpstr (etl_call_samples_get_name (s, frames[2]), ==, "app.exe!R");
}

static void
test_by_name (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  g_autoptr (EtlCallTree) tree = etl_call_tree_new (s, NULL, NULL, NULL);
  const EtlCallFunction *f;
  guint n = 0;

  g_assert_cmpuint (etl_call_tree_get_total (tree), ==, 10);
  g_assert_cmpuint (etl_call_tree_get_filtered (tree), ==, 0);
  f = etl_call_tree_get_by_name (tree, &n);
  g_assert_cmpuint (n, ==, 8);
  /* By exclusive, then inclusive, then name. */
  assert_function (&f[0], "lib.dll!B", 4, 4, 100, 600);
  assert_function (&f[1], "lib.dll!Y", 4, 4, 700, 1000);
  assert_function (&f[2], "app.exe!A", 5, 2, 100, 500);
  assert_function (&f[3], "app.exe!main", 10, 0, 100, 1000);
  assert_function (&f[4], "ntdll.dll", 10, 0, 100, 1000);
  /* Twice in each of its stacks, counted once. */
  assert_function (&f[5], "app.exe!R", 4, 0, 700, 1000);
  assert_function (&f[6], "lib.dll!X", 4, 0, 700, 1000);
  assert_function (&f[7], "app.exe!C", 1, 0, 600, 600);
  g_assert_true (etl_call_tree_find_function (tree, "app.exe!C") != NULL);
  g_assert_null (etl_call_tree_find_function (tree, "app.exe!Z"));
}

static void
test_call_tree (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  g_autoptr (EtlCallTree) tree = etl_call_tree_new (s, NULL, NULL, NULL);
  const EtlCallNode *nodes;
  guint n = 0, main, a, r, c;

  nodes = etl_call_tree_get_nodes (tree, &n);
  g_assert_cmpuint (n, ==, 11);
  g_assert_cmpstr (nodes[0].name, ==, ETL_CALL_TREE_ROOT);
  assert_node (&nodes[0], 10, 0);
  main = child (nodes, child (nodes, 0, "ntdll.dll"), "app.exe!main");
  assert_node (&nodes[main], 10, 0);
  g_assert_cmpuint (nodes[main].depth, ==, 2);
  /* Callees heaviest first: A 5, R 4, C 1. */
  a = nodes[main].first_child;
  g_assert_cmpstr (nodes[a].name, ==, "app.exe!A");
  r = nodes[a].next_sibling;
  g_assert_cmpstr (nodes[r].name, ==, "app.exe!R");
  c = nodes[r].next_sibling;
  g_assert_cmpstr (nodes[c].name, ==, "app.exe!C");
  g_assert_cmpuint (nodes[c].next_sibling, ==, ETL_STACK_TREE_NONE);
  assert_node (&nodes[a], 5, 2);
  g_assert_cmpint (nodes[a].first, ==, 100);
  g_assert_cmpint (nodes[a].last, ==, 500);
  assert_node (&nodes[child (nodes, a, "lib.dll!B")], 3, 3);
  assert_node (&nodes[child (nodes, c, "lib.dll!B")], 1, 1);
  /* The recursion is two nodes deep in the tree. */
  {
    guint x = child (nodes, r, "lib.dll!X"), r2 = child (nodes, x, "app.exe!R"), y = child (nodes, r2, "lib.dll!Y");

    assert_node (&nodes[r], 4, 0);
    assert_node (&nodes[r2], 4, 0);
    assert_node (&nodes[y], 4, 4);
    g_assert_cmpuint (nodes[y].depth, ==, 6);
    g_assert_cmpint (nodes[y].first, ==, 700);
  }
  /* Every node: inclusive = exclusive + callees' inclusive. */
  for (guint i = 0; i < n; i++)
    {
      guint64 sum = nodes[i].exclusive;

      for (guint k = nodes[i].first_child; k != ETL_STACK_TREE_NONE; k = nodes[k].next_sibling)
        sum += nodes[k].inclusive;
      g_assert_cmpuint (sum, ==, nodes[i].inclusive);
    }
}

static void
test_butterfly (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  g_autoptr (EtlCallTree) tree = etl_call_tree_new (s, NULL, NULL, NULL);
  g_autoptr (EtlCallButterfly) r = etl_call_tree_butterfly (tree, "app.exe!R");
  g_autoptr (EtlCallButterfly) b = etl_call_tree_butterfly (tree, "lib.dll!B");
  g_autoptr (EtlCallButterfly) nt = etl_call_tree_butterfly (tree, "ntdll.dll");

  /* R's deepest instance is called by X and calls Y (the first instance
   * would say main and X). */
  assert_function (&r->focus, "app.exe!R", 4, 0, 700, 1000);
  g_assert_cmpuint (r->callers->len, ==, 1);
  assert_function (&g_array_index (r->callers, EtlCallFunction, 0), "lib.dll!X", 4, 0, 700, 1000);
  g_assert_cmpuint (r->callees->len, ==, 1);
  assert_function (&g_array_index (r->callees, EtlCallFunction, 0), "lib.dll!Y", 4, 4, 700, 1000);

  assert_function (&b->focus, "lib.dll!B", 4, 4, 100, 600);
  g_assert_cmpuint (b->callers->len, ==, 2);
  assert_function (&g_array_index (b->callers, EtlCallFunction, 0), "app.exe!A", 3, 0, 100, 300);
  assert_function (&g_array_index (b->callers, EtlCallFunction, 1), "app.exe!C", 1, 0, 600, 600);
  g_assert_cmpuint (b->callees->len, ==, 0);

  g_assert_cmpuint (nt->callers->len, ==, 1);
  assert_function (&g_array_index (nt->callers, EtlCallFunction, 0), ETL_CALL_TREE_ROOT, 10, 0, 100, 1000);
  assert_function (&g_array_index (nt->callees, EtlCallFunction, 0), "app.exe!main", 10, 0, 100, 1000);

  g_assert_null (etl_call_tree_butterfly (tree, "nowhere"));
}

static void
test_group_name (void)
{
  static const char *const cases[][2] = {
    { "ntdll.dll!RtlUserThreadStart", "ntdll.dll!*" },
    { "ntdll.dll", "ntdll.dll!*" },
    { "ntdll.dll+0x455b", "ntdll.dll!*" },
    { "ntoskrnl.exe", "ntoskrnl.exe!*" },
    { "KERNEL32.DLL+0x10 (READIED_BY)", "KERNEL32.DLL!* (READIED_BY)" },
    { "CPU_TIME", "CPU_TIME" },
    { "Thread (1004)", "Thread (1004)" },
    { "Process app.exe (1000)", "Process app.exe (1000)" },
    { "System.String.Concat", "System.String.Concat" },
    { "?", "?" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *g = etl_call_tree_group_name (cases[i][0]);

      g_assert_cmpstr (g, ==, cases[i][1]);
    }
}

static void
test_group_by_module (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  EtlCallTreeOptions o = { .group_by_module = TRUE };
  g_autoptr (EtlCallTree) tree = etl_call_tree_new (s, &o, NULL, NULL);
  g_autoptr (EtlCallButterfly) app = NULL;
  const EtlCallFunction *f;
  const EtlCallNode *nodes;
  guint n = 0, nt, a, l;

  f = etl_call_tree_get_by_name (tree, &n);
  g_assert_cmpuint (n, ==, 3);
  assert_function (&f[0], "lib.dll!*", 8, 8, 100, 1000);
  assert_function (&f[1], "app.exe!*", 10, 2, 100, 1000);
  assert_function (&f[2], "ntdll.dll!*", 10, 0, 100, 1000);
  g_assert_cmpuint (etl_call_tree_get_total (tree), ==, 10);

  nodes = etl_call_tree_get_nodes (tree, &n);
  g_assert_cmpuint (n, ==, 6);
  nt = child (nodes, 0, "ntdll.dll!*");
  a = child (nodes, nt, "app.exe!*");
  assert_node (&nodes[a], 10, 2);
  l = child (nodes, a, "lib.dll!*");
  assert_node (&nodes[l], 8, 4);
  assert_node (&nodes[child (nodes, child (nodes, l, "app.exe!*"), "lib.dll!*")], 4, 4);

  /* app.exe!*'s deepest instance: under ntdll.dll!* in 6 samples, under
   * lib.dll!* in the 4 recursive ones; it calls lib.dll!* in 8. */
  app = etl_call_tree_butterfly (tree, "app.exe!*");
  assert_function (&app->focus, "app.exe!*", 10, 2, 100, 1000);
  g_assert_cmpuint (app->callers->len, ==, 2);
  assert_function (&g_array_index (app->callers, EtlCallFunction, 0), "ntdll.dll!*", 6, 0, 100, 600);
  assert_function (&g_array_index (app->callers, EtlCallFunction, 1), "lib.dll!*", 4, 0, 700, 1000);
  g_assert_cmpuint (app->callees->len, ==, 1);
  assert_function (&g_array_index (app->callees, EtlCallFunction, 0), "lib.dll!*", 8, 8, 100, 1000);
}

static void
test_fold (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  /* Below 45 % of 10 (inclusive < 4.5): B, C, R, X, Y fold; A (5) stays. */
  EtlCallTreeOptions o = { .fold_percent = 45 };
  g_autoptr (EtlCallTree) tree = etl_call_tree_new (s, &o, NULL, NULL);
  const EtlCallFunction *f;
  const EtlCallNode *nodes;
  guint n = 0, main;

  f = etl_call_tree_get_by_name (tree, &n);
  g_assert_cmpuint (n, ==, 3);
  assert_function (&f[0], "app.exe!main", 10, 5, 100, 1000);
  assert_function (&f[1], "app.exe!A", 5, 5, 100, 500);
  assert_function (&f[2], "ntdll.dll", 10, 0, 100, 1000);
  g_assert_cmpuint (etl_call_tree_get_total (tree), ==, 10);
  nodes = etl_call_tree_get_nodes (tree, &n);
  g_assert_cmpuint (n, ==, 4);
  main = child (nodes, child (nodes, 0, "ntdll.dll"), "app.exe!main");
  assert_node (&nodes[main], 10, 5);
  assert_node (&nodes[child (nodes, main, "app.exe!A")], 5, 5);

  /* 40 %: B, R, X and Y (4 each) stay; C folds: B's caller is then main. */
  o.fold_percent = 40;
  {
    g_autoptr (EtlCallTree) t40 = etl_call_tree_new (s, &o, NULL, NULL);
    g_autoptr (EtlCallButterfly) b = NULL;

    etl_call_tree_get_by_name (t40, &n);
    g_assert_cmpuint (n, ==, 7);
    g_assert_null (etl_call_tree_find_function (t40, "app.exe!C"));
    b = etl_call_tree_butterfly (t40, "lib.dll!B");
    g_assert_cmpuint (b->callers->len, ==, 2);
    assert_function (&g_array_index (b->callers, EtlCallFunction, 0), "app.exe!A", 3, 0, 100, 300);
    assert_function (&g_array_index (b->callers, EtlCallFunction, 1), "app.exe!main", 1, 0, 600, 600);
  }
}

static void
test_filters (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  const char *const exclude_x[] = { "lib.dll!X", NULL };
  const char *const include_c[] = { "app.exe!C", NULL };
  const char *const include_lib[] = { "lib.dll!*", NULL };
  const char *const exclude_lib[] = { "lib.dll!*", NULL };
  const char *const none[] = { NULL };

  {
    EtlCallTreeOptions o = { .exclude = exclude_x };
    g_autoptr (EtlCallTree) t = etl_call_tree_new (s, &o, NULL, NULL);

    g_assert_cmpuint (etl_call_tree_get_total (t), ==, 6);
    g_assert_cmpuint (etl_call_tree_get_filtered (t), ==, 4);
    g_assert_null (etl_call_tree_find_function (t, "app.exe!R"));
  }
  {
    EtlCallTreeOptions o = { .include = include_c };
    g_autoptr (EtlCallTree) t = etl_call_tree_new (s, &o, NULL, NULL);

    g_assert_cmpuint (etl_call_tree_get_total (t), ==, 1);
    g_assert_cmpuint (etl_call_tree_get_filtered (t), ==, 9);
    assert_function (etl_call_tree_find_function (t, "lib.dll!B"), "lib.dll!B", 1, 1, 600, 600);
  }
  {
    EtlCallTreeOptions o = { .include = include_lib, .exclude = none };
    g_autoptr (EtlCallTree) t = etl_call_tree_new (s, &o, NULL, NULL);

    g_assert_cmpuint (etl_call_tree_get_total (t), ==, 8);
    /* S2 (main, A without a lib.dll frame) is out: A keeps S1's 3. */
    assert_function (etl_call_tree_find_function (t, "app.exe!A"), "app.exe!A", 3, 0, 100, 300);
  }
  /* Patterns match after grouping: lib.dll!* is then a frame name. */
  {
    EtlCallTreeOptions o = { .group_by_module = TRUE, .exclude = exclude_lib };
    g_autoptr (EtlCallTree) t = etl_call_tree_new (s, &o, NULL, NULL);

    g_assert_cmpuint (etl_call_tree_get_total (t), ==, 2);
    assert_function (etl_call_tree_find_function (t, "app.exe!*"), "app.exe!*", 2, 2, 400, 500);
  }
}

static void
test_stack_tree (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  EtlCallTreeOptions o = { .fold_percent = 45 };
  g_autoptr (EtlCallTree) tree = etl_call_tree_new (s, &o, NULL, NULL);
  g_autoptr (EtlStackTree) st = etl_call_tree_to_stack_tree (tree);
  const EtlStackTreeNode *nodes;
  guint n = 0, main, a;

  nodes = etl_stack_tree_get_nodes (st, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (nodes[0].total, ==, 10);
  main = etl_stack_tree_find_child (st, etl_stack_tree_find_child (st, 0, "ntdll.dll"), "app.exe!main");
  g_assert_cmpuint (nodes[main].total, ==, 10);
  g_assert_cmpuint (nodes[main].self, ==, 5);
  a = etl_stack_tree_find_child (st, main, "app.exe!A");
  g_assert_cmpuint (nodes[a].total, ==, 5);
  g_assert_cmpint (etl_stack_tree_get_unit (st), ==, ETL_STACK_TREE_UNIT_SAMPLES);
}

static void
test_cancel (void)
{
  g_autoptr (EtlCallSamples) s = hand_samples ();
  g_autoptr (GCancellable) c = g_cancellable_new ();
  g_autoptr (GError) error = NULL;

  g_cancellable_cancel (c);
  g_assert_null (etl_call_tree_new (s, NULL, c, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* The CppCon trace: names from the PDB, then the views. */
static void
test_cppcon (void)
{
  g_autofree char *sym = etl_test_cppcon_symbols_dir ();
  g_autofree char *dir = NULL, *path = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) sympath = NULL;
  g_autoptr (EtlSymbolResolver) resolver = NULL;
  g_autoptr (EtlCallSamples) plain = NULL, named = NULL;
  g_autoptr (EtlCallTree) tree = NULL;
  g_autoptr (EtlCallButterfly) main = NULL;
  const EtlCallFunction *f;
  const char *paths[2] = { NULL, NULL };
  gint64 t0;
  guint n = 0;

  if (sym == NULL)
    return;
  dir = g_dir_make_tmp ("etl-call-tree-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "cppcon.etl", NULL);
  etl_test_write_cppcon_trace (path);
  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  stacks = etl_stacks_compute (trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  /* Without symbols: modules, consecutive frames of one module merged. */
  plain = etl_call_samples_new_cpu (stacks, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_call_samples_get_n_samples (plain), ==, 10);
  g_assert_cmpuint (etl_call_samples_get_n_stacks (plain), ==, 1);

  sympath = etl_symbol_path_parse (sym, &error);
  g_assert_no_error (error);
  resolver = etl_symbol_resolver_new (stacks, sympath, TRUE);
  etl_symbol_resolver_attach (resolver);
  named = etl_call_samples_new_cpu (stacks, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_call_samples_get_n_stacks (named), ==, 4);
  tree = etl_call_tree_new (named, NULL, NULL, &error);
  g_assert_no_error (error);
  t0 = etl_call_tree_get_nodes (tree, &n)[0].first;
  f = etl_call_tree_get_by_name (tree, &n);
  g_assert_cmpuint (n, ==, 5);
  assert_function (&f[0], CPPCON_ENTROPY, 7, 7, -1, -1);
  assert_function (&f[1], CPPCON_OPERATOR, 9, 2, -1, -1);
  assert_function (&f[2], CPPCON_COMMIT, 1, 1, -1, -1);
  assert_function (&f[3], CPPCON_MAIN, 10, 0, -1, -1);
  assert_function (&f[4], "ntdll.dll", 10, 0, -1, -1);
  /* 1 ms apart: __get_entropy in samples 1-3 and 7-10, commit in 6. */
  g_assert_cmpint (f[0].first, ==, t0);
  g_assert_cmpint (f[0].last - t0, ==, 9 * 10000);
  g_assert_cmpint (f[2].first - t0, ==, 5 * 10000);
  g_assert_cmpint (f[2].last, ==, f[2].first);

  /* main recurses under std::operator<<: its deepest instance. */
  main = etl_call_tree_butterfly (tree, CPPCON_MAIN);
  g_assert_cmpuint (main->callers->len, ==, 2);
  assert_function (&g_array_index (main->callers, EtlCallFunction, 0), "ntdll.dll", 6, 0, -1, -1);
  assert_function (&g_array_index (main->callers, EtlCallFunction, 1), CPPCON_OPERATOR, 4, 0, -1, -1);
  g_assert_cmpuint (main->callees->len, ==, 3);
  assert_function (&g_array_index (main->callees, EtlCallFunction, 0), CPPCON_OPERATOR, 5, 2, -1, -1);
  assert_function (&g_array_index (main->callees, EtlCallFunction, 1), CPPCON_ENTROPY, 4, 4, -1, -1);
  assert_function (&g_array_index (main->callees, EtlCallFunction, 2), CPPCON_COMMIT, 1, 1, -1, -1);

  /* Grouped: two modules; folded at 15 %: commit (10 %) goes to main. */
  {
    EtlCallTreeOptions o = { .group_by_module = TRUE };
    g_autoptr (EtlCallTree) g = etl_call_tree_new (named, &o, NULL, NULL);

    f = etl_call_tree_get_by_name (g, &n);
    g_assert_cmpuint (n, ==, 2);
    assert_function (&f[0], "CppCon.exe!*", 10, 10, -1, -1);
    assert_function (&f[1], "ntdll.dll!*", 10, 0, -1, -1);
  }
  {
    EtlCallTreeOptions o = { .fold_percent = 15 };
    g_autoptr (EtlCallTree) g = etl_call_tree_new (named, &o, NULL, NULL);

    g_assert_null (etl_call_tree_find_function (g, CPPCON_COMMIT));
    assert_function (etl_call_tree_find_function (g, CPPCON_MAIN), CPPCON_MAIN, 10, 1, -1, -1);
  }
  etl_symbol_resolver_detach (resolver);
  etl_test_rm_rf (dir);
}

/* Thread time feeds the same views: the samples carry the tree's paths
 * (synth --waits --stacks). */
static void
test_thread_time (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etl-call-tree-waits-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "waits.etl", NULL);
  EtlSynthParams params;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlThreadStates) states = NULL;
  g_autoptr (EtlStackTree) direct = NULL, via = NULL;
  g_autoptr (EtlCallSamples) samples = NULL;
  g_autoptr (EtlCallTree) tree = NULL;
  const char *paths[2] = { NULL, NULL };
  const EtlStackTreeNode *a, *b;
  guint na = 0, nb = 0;

  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.waits = TRUE;
  params.waits_stacks = TRUE;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  stacks = etl_stacks_compute (trace, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  states = etl_thread_states_new (trace, NULL, &error);
  g_assert_no_error (error);
  direct = etl_thread_time_tree_new (states, stacks, NULL, 0, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  samples = etl_thread_time_samples_new (states, stacks, NULL, 0, G_MININT64, G_MAXINT64, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (etl_call_samples_get_unit (samples), ==, ETL_STACK_TREE_UNIT_TICKS);
  tree = etl_call_tree_new (samples, NULL, NULL, &error);
  g_assert_no_error (error);
  via = etl_call_tree_to_stack_tree (tree);
  a = etl_stack_tree_get_nodes (direct, &na);
  b = etl_stack_tree_get_nodes (via, &nb);
  g_assert_cmpuint (a[0].total, >, 0);
  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpuint (a[0].total, ==, b[0].total);
  g_assert_cmpuint (etl_call_tree_get_total (tree), ==, a[0].total);
  g_assert_cmpuint (etl_thread_time_tree_sum (direct, ETL_THREAD_TIME_BLOCKED), ==,
                    etl_thread_time_tree_sum (via, ETL_THREAD_TIME_BLOCKED));
  g_assert_cmpuint (etl_call_tree_find_function (tree, ETL_THREAD_TIME_CPU)->exclusive, ==,
                    etl_thread_time_tree_sum (direct, ETL_THREAD_TIME_CPU));
  etl_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/call-tree/samples", test_samples);
  g_test_add_func ("/etl/call-tree/by-name", test_by_name);
  g_test_add_func ("/etl/call-tree/call-tree", test_call_tree);
  g_test_add_func ("/etl/call-tree/butterfly", test_butterfly);
  g_test_add_func ("/etl/call-tree/group-name", test_group_name);
  g_test_add_func ("/etl/call-tree/group-by-module", test_group_by_module);
  g_test_add_func ("/etl/call-tree/fold", test_fold);
  g_test_add_func ("/etl/call-tree/filters", test_filters);
  g_test_add_func ("/etl/call-tree/stack-tree", test_stack_tree);
  g_test_add_func ("/etl/call-tree/cancel", test_cancel);
  g_test_add_func ("/etl/call-tree/cppcon", test_cppcon);
  g_test_add_func ("/etl/call-tree/thread-time", test_thread_time);
  return g_test_run ();
}
