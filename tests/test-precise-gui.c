/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The CPU Usage (Precise) tab (issue 20): on the synthetic waits schedule
 * (etl-synth-waits.c) its groups New Process ▸ New Thread ▸ Readying
 * Process ▸ Wait Reason hold the schedule's switch-ins with their known
 * Ready, Waits and CPU Usage sums, to the tick; the sums sort; "Visible
 * range" (the default) keeps the switch-ins of the timeline's zoomed range
 * and follows it, one regrouping for a burst of changes; "Selected range"
 * keeps those of the timeline's selection; "Whole trace" ignores both; the
 * details below the table show a switch-in's fields and its New Thread and
 * Ready Thread stacks (the schedule written with its StackWalk records),
 * a DPC's readying, a row no ReadyThread readied, a group's sums; a trace
 * without CSwitch records shows the message instead.  Run under Xvfb;
 * skipped without a display.  With ETLSCOPE_SCREENSHOT_DIR set, the
 * screenshot test saves precise-stacks-WxH.png there
 * (ETLSCOPE_SCREENSHOT_SIZE, default 1600x1000; the Xvfb screen must be at
 * least that large). */

#include "config.h"

#include <limits.h>
#include <locale.h>
#include <string.h>

#include <stdio.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-precise-view.h"
#include "etl-synth.h"
#include "etl-test-gui-util.h"
#include "etl-time-ruler.h"
#include "etl-view-panel.h"
#include "etl-window.h"

/* 0.1 ms in 100-ns ticks: the schedule's unit. */
#define T(x) ((gint64)(x) * 1000)
/* The schedule starts 1 ms after the trace's origin. */
#define S T (10)

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
  char *dir;
} Fixture;

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  if (have_display)
    fixture->window = etl_test_window_new (1600, 1000);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  etl_test_window_clear (&fixture->window);
  if (fixture->dir != NULL)
    {
      etl_test_rm_rf (fixture->dir);
      g_clear_pointer (&fixture->dir, g_free);
    }
}

static EtlPreciseView *
precise_view (EtlWindow *window)
{
  GtkWidget *page = etl_view_panel_get_view_widget (etl_window_get_view_panel (window), "precise");

  g_assert_nonnull (page);
  g_assert_true (ETL_IS_PRECISE_VIEW (page));
  return ETL_PRECISE_VIEW (page);
}

static gboolean
idle (gpointer window)
{
  return etl_test_window_views_idle (window) && !etl_precise_view_is_busy (precise_view (window));
}

static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_drained (idle, window, "the window and its views to be idle");
}

static void
open_path (EtlWindow *window, const char *path)
{
  etl_test_window_open (window, &path, 1);
  wait_idle (window);
}

/* Writes the waits schedule (2 CPUs, with ReadyThread; with its CSwitch
 * and ReadyThread stacks when @stacks) and opens it. */
static gboolean
open_waits (Fixture *fixture, gboolean stacks)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  EtlSynthParams params;

  if (etl_test_skip_without_display (have_display))
    return FALSE;
  fixture->dir = g_dir_make_tmp ("etlscope-precise-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (fixture->dir, "waits.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.waits = TRUE;
  params.waits_stacks = stacks;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  open_path (fixture->window, path);
  return TRUE;
}

/* @value with one decimal as the table writes it: digits grouped by the
 * locale's thousands separator in groups of its first grouping size (all
 * the locales the tests run in group uniformly).  printf's ' flag is no
 * reference on Windows, whose C runtime ignores it. */
static char *
want_grouped (gint64 tenths)
{
  const struct lconv *lc = localeconv ();
  const char *sep = lc->thousands_sep != NULL ? lc->thousands_sep : "";
  int size = lc->grouping != NULL && lc->grouping[0] > 0 && lc->grouping[0] != CHAR_MAX ? lc->grouping[0] : 0;
  g_autofree char *digits = g_strdup_printf ("%" G_GINT64_FORMAT, tenths / 10);
  GString *out = g_string_new (NULL);
  gsize n = strlen (digits);

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && size > 0 && sep[0] != '\0' && (n - i) % (gsize) size == 0)
        g_string_append (out, sep);
      g_string_append_c (out, digits[i]);
    }
  g_string_append_printf (out, ".%d", (int) (tenths % 10));
  return g_string_free (out, FALSE);
}

typedef struct
{
  const char *label;
  guint64 count;
  gint64 ready, waits, cpu_usage; /* 100-ns ticks */
  guint n_children;
} WantRow;

static void
check_row (GtkTreeModel *model, GtkTreeIter *iter, const WantRow *want)
{
  g_autofree char *label = NULL;
  g_autofree char *ready_text = NULL;
  g_autofree char *want_ready_text = NULL;
  guint64 count;
  gint64 ready, waits, cpu_usage, switch_in;

  gtk_tree_model_get (model, iter, ETL_PRECISE_VIEW_COLUMN_LABEL, &label, ETL_PRECISE_VIEW_COLUMN_COUNT, &count,
                      ETL_PRECISE_VIEW_COLUMN_READY, &ready,
                      ETL_PRECISE_VIEW_COLUMN_WAITS, &waits, ETL_PRECISE_VIEW_COLUMN_CPU_USAGE, &cpu_usage,
                      ETL_PRECISE_VIEW_COLUMN_SWITCH_IN, &switch_in, -1);
  g_test_message ("row %s", label);
  g_assert_cmpstr (label, ==, want->label);
  g_assert_cmpuint (count, ==, want->count);
  g_assert_cmpint (ready, ==, want->ready);
  /* As shown: µs with one decimal and the locale's thousands separators. */
  ready_text = etl_precise_view_dup_cell_text (model, iter, ETL_PRECISE_VIEW_COLUMN_READY);
  want_ready_text = want_grouped (want->ready);
  g_assert_cmpstr (ready_text, ==, want_ready_text);
  g_assert_cmpint (waits, ==, want->waits);
  g_assert_cmpint (cpu_usage, ==, want->cpu_usage);
  g_assert_cmpint (switch_in, ==, -1);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, iter), ==, want->n_children);
}

/* The row at @path ("0:1:0", indices from the top) of @model. */
static void
check_path (GtkTreeModel *model, const char *path, const WantRow *want)
{
  GtkTreeIter iter;

  g_test_message ("path %s", path);
  g_assert_true (gtk_tree_model_get_iter_from_string (model, &iter, path));
  check_row (model, &iter, want);
}

static void
test_groups (Fixture *fixture, gconstpointer data)
{
  EtlPreciseView *view;
  GtkTreeModel *model;
  GtkTreeIter leaf;
  gint64 switch_in;
  g_autofree char *waits_text = NULL;

  if (!open_waits (fixture, FALSE))
    return;
  view = precise_view (fixture->window);
  g_assert_nonnull (etl_precise_view_get_states (view));
  g_assert_null (etl_precise_view_get_message (view));
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view));

  /* New Process, by pid: Idle, alpha, beta, gamma; 17 switch-ins.  The
   * sums over the three processes: Ready 1.2 ms, Waits 7.7 ms, CPU Usage
   * 6.6 ms (as test-thread-states.c checks on the rows). */
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 4);
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 4, T (3), T (35), T (34), 2 });
  check_path (model, "2", &(WantRow){ "beta.exe (2000)", 2, T (3), T (20), T (11), 1 });
  check_path (model, "3", &(WantRow){ "gamma.exe (3000)", 3, T (6), T (22), T (21), 1 });
  {
    GtkTreeIter iter;
    g_autofree char *label = NULL;
    guint64 count;
    gint64 ready, waits;

    g_assert_true (gtk_tree_model_get_iter_from_string (model, &iter, "0"));
    gtk_tree_model_get (model, &iter, ETL_PRECISE_VIEW_COLUMN_LABEL, &label, ETL_PRECISE_VIEW_COLUMN_COUNT, &count,
                        ETL_PRECISE_VIEW_COLUMN_READY, &ready, ETL_PRECISE_VIEW_COLUMN_WAITS, &waits, -1);
    g_assert_cmpstr (label, ==, "Idle (0)");
    g_assert_cmpuint (count, ==, 17 - 4 - 2 - 3);
    g_assert_cmpint (ready, ==, 0);
    g_assert_cmpint (waits, ==, 0);
  }
  /* alpha ▸ A (1004): first seen at 1.0 ms (not readied), then readied by
   * gamma's C at 5.0 after WrAlertByThreadId (37): Ready 0.1, Waits 3.0. */
  check_path (model, "1:0", &(WantRow){ "Thread 1004", 2, T (1), T (30), T (21), 2 });
  check_path (model, "1:0:0", &(WantRow){ "gamma.exe (3000)", 1, T (1), T (30), T (11), 1 });
  check_path (model, "1:0:0:0", &(WantRow){ "WrAlertByThreadId", 1, T (1), T (30), T (11), 1 });
  check_path (model, "1:0:1", &(WantRow){ "Not readied", 1, 0, 0, T (10), 1 });
  check_path (model, "1:0:1:0", &(WantRow){ "Wait Reason unknown", 1, 0, 0, T (10), 1 });
  /* alpha ▸ D (1008): woken by a DPC after DelayExecution (4). */
  check_path (model, "1:1", &(WantRow){ "Thread 1008", 2, T (2), T (5), T (13), 2 });
  check_path (model, "1:1:0", &(WantRow){ "DPC / Idle (0)", 1, T (2), T (5), T (8), 1 });
  check_path (model, "1:1:0:0", &(WantRow){ "DelayExecution", 1, T (2), T (5), T (8), 1 });
  /* beta ▸ B readied by alpha's D after UserRequest (6). */
  check_path (model, "2:0:0", &(WantRow){ "alpha.exe (1000)", 1, T (3), T (20), T (6), 1 });
  check_path (model, "2:0:0:0", &(WantRow){ "UserRequest", 1, T (3), T (20), T (6), 1 });
  /* gamma ▸ C: readied by beta after WrQueue (15); preempted (WrPreempted
   * 32, no ReadyThread: Ready 0.3 from the switch-out) and first seen. */
  check_path (model, "3:0", &(WantRow){ "Thread 3004", 3, T (6), T (22), T (21), 2 });
  check_path (model, "3:0:0:0", &(WantRow){ "WrQueue", 1, T (3), T (22), T (10), 1 });
  check_path (model, "3:0:1", &(WantRow){ "Not readied", 2, T (3), 0, T (11), 2 });
  check_path (model, "3:0:1:0", &(WantRow){ "WrPreempted", 1, T (3), 0, T (7), 1 });

  /* A leaf: the switch-in itself, at 2.8 ms after the schedule's start. */
  g_assert_true (gtk_tree_model_get_iter_from_string (model, &leaf, "2:0:0:0:0"));
  gtk_tree_model_get (model, &leaf, ETL_PRECISE_VIEW_COLUMN_SWITCH_IN, &switch_in,
                      -1);
  waits_text = etl_precise_view_dup_cell_text (model, &leaf, ETL_PRECISE_VIEW_COLUMN_WAITS);
  g_assert_cmpint (switch_in, ==, S + T (28));
  {
    g_autofree char *label = NULL;

    g_autofree char *preempted = NULL;
    GtkTreeIter not_readied;

    /* B, readied by alpha's D (1008), on CPU 1; C after its preemption,
     * readied by no ReadyThread. */
    gtk_tree_model_get (model, &leaf, ETL_PRECISE_VIEW_COLUMN_LABEL, &label, -1);
    g_assert_cmpstr (label, ==, "CPU 1 · Readying Thread Id 1008");
    g_assert_true (gtk_tree_model_get_iter_from_string (model, &not_readied, "3:0:1:0:0"));
    gtk_tree_model_get (model, &not_readied, ETL_PRECISE_VIEW_COLUMN_LABEL, &preempted, -1);
    g_assert_cmpstr (preempted, ==, "CPU 0");
  }
  /* 2.0 ms in µs, with the locale's thousands separator. */
  {
    g_autofree char *want = want_grouped (20000);

    g_assert_cmpstr (waits_text, ==, want);
  }
  /* The table draws that text: the Waits column's cell, given the leaf. */
  {
    GtkTreeViewColumn *column = gtk_tree_view_get_column (etl_precise_view_get_tree_view (view), 3);
    g_autoptr (GList) cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (column));
    g_autofree char *shown = NULL;

    g_assert_cmpstr (gtk_tree_view_column_get_title (column), ==, "Waits (µs)");
    gtk_tree_view_column_cell_set_cell_data (column, model, &leaf, FALSE, FALSE);
    g_object_get (cells->data, "text", &shown, NULL);
    g_assert_cmpstr (shown, ==, waits_text);
  }

  /* Sorted by Waits, longest first: alpha 3.5 ms, gamma, beta, Idle. */
  gtk_tree_sortable_set_sort_column_id (GTK_TREE_SORTABLE (model), ETL_PRECISE_VIEW_COLUMN_WAITS,
                                        GTK_SORT_DESCENDING);
  check_path (model, "0", &(WantRow){ "alpha.exe (1000)", 4, T (3), T (35), T (34), 2 });
  check_path (model, "1", &(WantRow){ "gamma.exe (3000)", 3, T (6), T (22), T (21), 1 });
  check_path (model, "2", &(WantRow){ "beta.exe (2000)", 2, T (3), T (20), T (11), 1 });
}

/* Walks the rows under @parent depth first, checking that each row's path
 * leads back to it, that its parent and its previous sibling are what the
 * walk came from, and that the model's columns have their types; returns
 * the rows seen. */
static guint64
walk_model (GtkTreeModel *model, GtkTreeIter *parent, guint depth)
{
  GtkTreeIter iter, prev;
  guint64 rows = 0;
  gint n = 0;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    {
      g_assert_cmpint (gtk_tree_model_iter_n_children (model, parent), ==, 0);
      return 0;
    }
  do
    {
      g_autoptr (GtkTreePath) path = gtk_tree_model_get_path (model, &iter);
      GtkTreeIter again, up, nth;
      g_autofree char *a = NULL;
      g_autofree char *b = NULL;

      g_assert_cmpint (gtk_tree_path_get_depth (path), ==, (gint) depth + 1);
      g_assert_cmpint (gtk_tree_path_get_indices (path)[depth], ==, n);
      g_assert_true (gtk_tree_model_get_iter (model, &again, path));
      gtk_tree_model_get (model, &iter, ETL_PRECISE_VIEW_COLUMN_LABEL, &a, -1);
      gtk_tree_model_get (model, &again, ETL_PRECISE_VIEW_COLUMN_LABEL, &b, -1);
      g_assert_cmpstr (a, ==, b);
      g_assert_true (gtk_tree_model_iter_nth_child (model, &nth, parent, n));
      g_assert_true (nth.user_data == iter.user_data && nth.user_data2 == iter.user_data2);
      if (parent != NULL)
        {
          g_assert_true (gtk_tree_model_iter_parent (model, &up, &iter));
          g_assert_true (up.user_data == parent->user_data && up.user_data2 == parent->user_data2);
        }
      else
        g_assert_false (gtk_tree_model_iter_parent (model, &up, &iter));
      if (n > 0)
        {
          GtkTreeIter back = iter;

          g_assert_true (gtk_tree_model_iter_previous (model, &back));
          g_assert_true (back.user_data == prev.user_data && back.user_data2 == prev.user_data2);
        }
      prev = iter;
      n++;
      rows += 1 + walk_model (model, &iter, depth + 1);
    }
  while (gtk_tree_model_iter_next (model, &iter));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, parent), ==, n);
  return rows;
}

/* The table's model (EtlPreciseModel under the sorting) agrees with
 * itself everywhere: paths, parents, siblings, counts; and the rows the
 * view says it was filled with are all there. */
static void
test_model (Fixture *fixture, gconstpointer data)
{
  EtlPreciseView *view;
  GtkTreeModel *sorted, *model;
  guint n_rows = 0;

  if (!open_waits (fixture, FALSE))
    return;
  view = precise_view (fixture->window);
  sorted = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view));
  g_assert_true (GTK_IS_TREE_MODEL_SORT (sorted));
  model = gtk_tree_model_sort_get_model (GTK_TREE_MODEL_SORT (sorted));
  g_assert_true (ETL_IS_PRECISE_MODEL (model));
  g_assert_cmpint (gtk_tree_model_get_n_columns (model), ==, ETL_PRECISE_VIEW_N_COLUMNS);
  g_assert_true (gtk_tree_model_get_column_type (model, ETL_PRECISE_VIEW_COLUMN_WAITS) == G_TYPE_INT64);
  etl_precise_view_get_last_fill (view, &n_rows, NULL);
  /* 4 processes, 6 threads, readying processes, wait reasons and the 17
   * switch-ins: whatever the grouping, every row is reachable once. */
  g_assert_cmpuint (walk_model (model, NULL, 0), ==, n_rows);
  g_assert_cmpuint (etl_precise_model_get_n_rows (ETL_PRECISE_MODEL (model)), ==, n_rows);
  g_assert_cmpuint (n_rows, >, 17);
}

static void
test_range (Fixture *fixture, gconstpointer data)
{
  EtlPreciseView *view;
  GtkTreeModel *model;
  gint64 origin;

  if (!open_waits (fixture, FALSE))
    return;
  view = precise_view (fixture->window);
  origin = etl_trace_get_origin (etl_window_get_trace (fixture->window));
  /* 2.0 to 4.0 ms of the schedule: the switch-ins of D at 2.2, B at 2.8,
   * C at 3.5, and idle at 3.0 and 3.4. */
  etl_timeline_view_set_selection (etl_window_get_timeline (fixture->window), origin + S + T (20), origin + S + T (40));
  etl_precise_view_set_range_mode (view, ETL_PRECISE_VIEW_RANGE_SELECTED);
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 4);
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 1, T (2), T (5), T (8), 1 });
  check_path (model, "2", &(WantRow){ "beta.exe (2000)", 1, T (3), T (20), T (6), 1 });
  check_path (model, "3", &(WantRow){ "gamma.exe (3000)", 1, T (3), T (22), T (10), 1 });

  /* Whole trace: all of it again. */
  etl_precise_view_set_range_mode (view, ETL_PRECISE_VIEW_RANGE_WHOLE);
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 4, T (3), T (35), T (34), 2 });
}

/* Selects the row at @path ("1:0:0:0:0"), its parents expanded. */
static void
select_path (EtlPreciseView *view, const char *path_text)
{
  GtkTreeView *tv = etl_precise_view_get_tree_view (view);
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_string (path_text);

  gtk_tree_view_expand_to_path (tv, path);
  gtk_tree_selection_select_path (gtk_tree_view_get_selection (tv), path);
  g_assert_true (gtk_tree_selection_path_is_selected (gtk_tree_view_get_selection (tv), path));
}

/* The frames the details list for @which, against @want (NULL-ended). */
static void
check_frames (EtlPreciseDetails *details, EtlPreciseStack which, const char *const *want)
{
  GtkTreeModel *model = gtk_tree_view_get_model (etl_precise_details_get_stack_view (details, which));
  GtkTreeIter iter;
  guint n = 0;

  g_assert_null (etl_precise_details_get_stack_message (details, which));
  g_assert_nonnull (model);
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, (gint)g_strv_length ((char **)want));
  if (gtk_tree_model_get_iter_first (model, &iter))
    do
      {
        g_autofree char *index = NULL;
        g_autofree char *frame = NULL;
        g_autofree char *want_index = g_strdup_printf ("#%u", n);

        gtk_tree_model_get (model, &iter, ETL_PRECISE_DETAILS_FRAME_INDEX, &index, ETL_PRECISE_DETAILS_FRAME_NAME,
                            &frame, -1);
        g_test_message ("frame %u: %s", n, frame);
        g_assert_cmpstr (index, ==, want_index);
        g_assert_cmpstr (frame, ==, want[n]);
        n++;
      }
    while (gtk_tree_model_iter_next (model, &iter));
}

static void
check_field (EtlPreciseDetails *details, const char *name, const char *want)
{
  g_test_message ("field %s", name);
  g_assert_cmpstr (etl_precise_details_get_field (details, name), ==, want);
}

/* The details of three switch-ins of the schedule written with its stacks
 * (etl-synth-waits.c gives the frames), of a group, and of nothing. */
static void
test_details (Fixture *fixture, gconstpointer data)
{
  EtlPreciseView *view;
  EtlPreciseDetails *details;
  g_autofree char *waits = want_grouped (30000);
  g_autofree char *alpha_waits = want_grouped (35000);
  g_autofree char *usage = want_grouped (11000);
  g_autofree char *time = NULL;
  /* A (1004) switched in at 4.1 ms after WrAlertByThreadId (37, 0x25):
   * where it blocked; and the ReadyThread by gamma's C at 4.0 ms, A being
   * the first of A, D, B, C. */
  const char *const a_new[] = { "ntoskrnl.exe+0x22500", "ntdll.dll+0xa0250", "alpha.exe+0x3500", "alpha.exe+0x800",
                                "ntdll.dll+0x5e3c0", NULL };
  const char *const a_ready[] = { "ntoskrnl.exe+0x40000", "ntdll.dll+0xb0000", "gamma.exe+0x8000", "gamma.exe+0x800",
                                  "ntdll.dll+0x5e3c0", NULL };
  /* D (1008) at 2.2 ms after DelayExecution (4), readied by a DPC (D is
   * second: +0x10). */
  const char *const d_new[] = { "ntoskrnl.exe+0x20400", "ntdll.dll+0xa0040", "alpha.exe+0x1400", "alpha.exe+0x800",
                                "ntdll.dll+0x5e3c0", NULL };
  const char *const d_ready[] = { "ntoskrnl.exe+0x30010", "ntoskrnl.exe+0x31000", NULL };
  /* C (3004) at 4.8 ms after its preemption (WrPreempted, 32 = 0x20). */
  const char *const c_new[] = { "ntoskrnl.exe+0x22000", "ntdll.dll+0xa0200", "gamma.exe+0x3000", "gamma.exe+0x800",
                                "ntdll.dll+0x5e3c0", NULL };

  if (!open_waits (fixture, TRUE))
    return;
  g_assert_true (etl_window_show_view_tab (fixture->window, "precise"));
  view = precise_view (fixture->window);
  details = etl_precise_view_get_details (view);
  g_assert_true (etl_precise_details_is_empty (details));

  /* alpha ▸ Thread 1004 ▸ gamma.exe ▸ WrAlertByThreadId ▸ its switch-in. */
  select_path (view, "1:0:0:0:0");
  g_assert_false (etl_precise_details_is_empty (details));
  check_field (details, "CPU", "1");
  check_field (details, "New Process", "alpha.exe (1000)");
  check_field (details, "New Thread Id", "1004");
  check_field (details, "Readying Process", "gamma.exe (3000)");
  check_field (details, "Readying Thread Id", "3004");
  check_field (details, "Old Process", "Idle (0)");
  check_field (details, "Old Thread Id", "0");
  time = etl_time_format_span (S + T (41));
  check_field (details, "Switch-In Time", time);
  g_clear_pointer (&time, g_free);
  time = etl_time_format_span (S + T (10));
  check_field (details, "Last Switch-Out Time", time);
  check_field (details, "Ready (µs)", "100.0");
  check_field (details, "Waits (µs)", waits);
  check_field (details, "CPU Usage (µs)", usage);
  check_field (details, "New Prev Wait Reason", "WrAlertByThreadId (37), UserMode");
  check_field (details, "New Prev State", "Waiting (5)");
  check_field (details, "New Priority", "13"); /* 10 + 1004 mod 7 */
  check_field (details, "Old Priority", "0");
  check_frames (details, ETL_PRECISE_STACK_NEW, a_new);
  check_frames (details, ETL_PRECISE_STACK_READY, a_ready);
  g_assert_cmpstr (etl_precise_details_get_stack_caption (details, ETL_PRECISE_STACK_READY), ==,
                   "Ready Thread Stack · readied by thread 3004 of gamma.exe (3000)");

  /* alpha ▸ Thread 1008 ▸ DPC / Idle (0) ▸ DelayExecution ▸ its switch-in. */
  select_path (view, "1:1:0:0:0");
  check_field (details, "New Thread Id", "1008");
  check_field (details, "Readying Thread Id", "0 (a DPC or idle)");
  check_field (details, "New Prev Wait Reason", "DelayExecution (4), UserMode");
  check_frames (details, ETL_PRECISE_STACK_NEW, d_new);
  check_frames (details, ETL_PRECISE_STACK_READY, d_ready);
  g_assert_cmpstr (etl_precise_details_get_stack_caption (details, ETL_PRECISE_STACK_READY), ==,
                   "Ready Thread Stack · readied from a DPC or idle (thread 0)");

  /* gamma ▸ Thread 3004 ▸ Not readied ▸ WrPreempted ▸ its switch-in: no
   * ReadyThread, so no Ready Thread Stack; its own stack is there. */
  select_path (view, "3:0:1:0:0");
  check_field (details, "New Thread Id", "3004");
  check_field (details, "Readying Thread Id", "— (no ReadyThread)");
  check_field (details, "New Prev State", "Ready (1)");
  check_frames (details, ETL_PRECISE_STACK_NEW, c_new);
  g_assert_true (g_str_has_prefix (etl_precise_details_get_stack_message (details, ETL_PRECISE_STACK_READY),
                                   "Not readied by a ReadyThread record"));
  g_assert_cmpint (gtk_tree_model_iter_n_children (
                       gtk_tree_view_get_model (etl_precise_details_get_stack_view (details, ETL_PRECISE_STACK_READY)),
                       NULL),
                   ==, 0);

  /* A group: its sums, no switch-in field. */
  select_path (view, "1");
  g_assert_false (etl_precise_details_is_empty (details));
  g_assert_cmpstr (etl_precise_details_get_title (details), ==, "alpha.exe (1000)");
  check_field (details, "Count", "4");
  check_field (details, "Waits (µs)", alpha_waits);
  check_field (details, "Ready (µs)", "300.0");
  g_assert_null (etl_precise_details_get_field (details, "New Thread Id"));
  select_path (view, "1:0:0");
  g_assert_cmpstr (etl_precise_details_get_title (details), ==, "alpha.exe (1000) ▸ Thread 1004 ▸ gamma.exe (3000)");

  /* Nothing selected: the hint. */
  gtk_tree_selection_unselect_all (gtk_tree_view_get_selection (etl_precise_view_get_tree_view (view)));
  g_assert_true (etl_precise_details_is_empty (details));
}

/* The schedule written without its StackWalk records: both stacks say so. */
static void
test_details_no_stacks (Fixture *fixture, gconstpointer data)
{
  EtlPreciseView *view;
  EtlPreciseDetails *details;

  if (!open_waits (fixture, FALSE))
    return;
  view = precise_view (fixture->window);
  details = etl_precise_view_get_details (view);
  select_path (view, "1:0:0:0:0");
  check_field (details, "New Thread Id", "1004");
  g_assert_cmpstr (etl_precise_details_get_stack_message (details, ETL_PRECISE_STACK_NEW), ==, "No stack recorded");
  g_assert_cmpstr (etl_precise_details_get_stack_message (details, ETL_PRECISE_STACK_READY), ==, "No stack recorded");
}

/* Counts the zoomed range, follows it, keeps the selected switch-in
 * selected through a regrouping; Whole trace ignores the zoom. */
static void
test_visible (Fixture *fixture, gconstpointer data)
{
  EtlPreciseView *view;
  EtlPreciseDetails *details;
  EtlZoomManager *zoom;
  GtkTreeModel *model;
  gint64 origin, begin, end;

  if (!open_waits (fixture, FALSE))
    return;
  view = precise_view (fixture->window);
  details = etl_precise_view_get_details (view);
  zoom = etl_window_get_zoom_manager (fixture->window);
  origin = etl_trace_get_origin (etl_window_get_trace (fixture->window));
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view));
  g_assert_cmpint (etl_precise_view_get_range_mode (view), ==, ETL_PRECISE_VIEW_RANGE_VISIBLE);

  /* Zoomed to 2.0–4.0 ms of the schedule: as the selected range above. */
  etl_zoom_manager_set_visible (zoom, origin + S + T (20), origin + S + T (40));
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  etl_precise_view_get_counted_range (view, &begin, &end);
  g_assert_cmpint (begin, ==, origin + S + T (20));
  g_assert_cmpint (end, ==, origin + S + T (40));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 4);
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 1, T (2), T (5), T (8), 1 });
  check_path (model, "2", &(WantRow){ "beta.exe (2000)", 1, T (3), T (20), T (6), 1 });
  check_path (model, "3", &(WantRow){ "gamma.exe (3000)", 1, T (3), T (22), T (10), 1 });

  /* Scrolled to 4.0–6.0 ms: A at 4.1 (readied by C), C at 4.8
   * (preempted), idle at 4.5, 5.2 and 5.5; no beta. */
  etl_zoom_manager_set_visible (zoom, origin + S + T (40), origin + S + T (60));
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 3);
  check_path (model, "0", &(WantRow){ "Idle (0)", 3, 0, 0, T (3) + T (8) + T (5), 1 });
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 1, T (1), T (30), T (11), 1 });
  check_path (model, "2", &(WantRow){ "gamma.exe (3000)", 1, T (3), 0, T (7), 1 });

  /* A's switch-in selected stays selected when the range still holds it,
   * and the details go when it does not. */
  select_path (view, "1:0:0:0:0");
  check_field (details, "New Thread Id", "1004");
  etl_zoom_manager_set_visible (zoom, origin + S + T (35), origin + S + T (60));
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 1, T (1), T (30), T (11), 1 });
  check_path (model, "2", &(WantRow){ "gamma.exe (3000)", 2, T (6), T (22), T (17), 1 });
  check_field (details, "New Thread Id", "1004");
  {
    g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_string ("1:0:0:0:0");
    GtkTreeSelection *selection = gtk_tree_view_get_selection (etl_precise_view_get_tree_view (view));

    g_assert_true (gtk_tree_selection_path_is_selected (selection, path));
  }
  /* Open groups stay open through a regrouping: gamma, opened here. */
  {
    GtkTreeView *tv = etl_precise_view_get_tree_view (view);
    g_autoptr (GtkTreePath) gamma_before = gtk_tree_path_new_from_string ("2");
    g_autoptr (GtkTreePath) beta_after = gtk_tree_path_new_from_string ("2");
    g_autoptr (GtkTreePath) gamma_after = gtk_tree_path_new_from_string ("3");

    gtk_tree_view_expand_row (tv, gamma_before, FALSE);
    etl_zoom_manager_set_visible (zoom, origin + S + T (20), origin + S + T (60));
    wait_idle (fixture->window);
    model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view));
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
    /* Idle, alpha, beta (new here, closed), gamma (open). */
    check_path (model, "2", &(WantRow){ "beta.exe (2000)", 1, T (3), T (20), T (6), 1 });
    g_assert_false (gtk_tree_view_row_expanded (tv, beta_after));
    g_assert_true (gtk_tree_view_row_expanded (tv, gamma_after));
    check_field (details, "New Thread Id", "1004");
  }
  etl_zoom_manager_set_visible (zoom, origin + S + T (45), origin + S + T (60));
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  g_assert_true (etl_precise_details_is_empty (details));

  /* Whole trace: the zoom does not count, nor does a change of it. */
  etl_precise_view_set_range_mode (view, ETL_PRECISE_VIEW_RANGE_WHOLE);
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 4, T (3), T (35), T (34), 2 });
  etl_zoom_manager_set_visible (zoom, origin + S + T (20), origin + S + T (40));
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 4, T (3), T (35), T (34), 2 });
  etl_precise_view_get_counted_range (view, &begin, &end);
  g_assert_cmpint (begin, ==, 0);
  g_assert_cmpint (end, ==, 0);

  /* Back to Visible range: the zoom set meanwhile. */
  etl_precise_view_set_range_mode (view, ETL_PRECISE_VIEW_RANGE_VISIBLE);
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  check_path (model, "1", &(WantRow){ "alpha.exe (1000)", 1, T (2), T (5), T (8), 1 });
}

/* A drag-zoom: 40 changes of the visible range, the main loop running
 * between them, make one regrouping or two (not 40), for the last range. */
static void
test_visible_coalesced (Fixture *fixture, gconstpointer data)
{
  EtlPreciseView *view;
  EtlZoomManager *zoom;
  GtkTreeModel *model;
  gint64 origin, begin, end, t0, drag_ms;
  guint before;

  if (!open_waits (fixture, FALSE))
    return;
  view = precise_view (fixture->window);
  zoom = etl_window_get_zoom_manager (fixture->window);
  origin = etl_trace_get_origin (etl_window_get_trace (fixture->window));
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view));
  before = etl_precise_view_get_n_groupings (view);
  t0 = g_get_monotonic_time ();
  for (guint i = 0; i < 40; i++)
    {
      /* From 0.0–6.0 ms down to 2.0–4.0 ms of the schedule. */
      gint64 shrink = T (20) * (gint64)i / 39;

      etl_zoom_manager_set_visible (zoom, origin + S + shrink, origin + S + T (60) - shrink);
      etl_test_drain ();
    }
  drag_ms = (g_get_monotonic_time () - t0) / 1000;
  wait_idle (fixture->window);
  model = gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)); /* a regrouping makes a new model */
  g_test_message ("%u groupings in a drag of %" G_GINT64_FORMAT " ms", etl_precise_view_get_n_groupings (view) - before,
                  drag_ms);
  g_assert_cmpuint (etl_precise_view_get_n_groupings (view) - before, >=, 1);
  /* One after the drag; changes coalesce only when they come faster than
   * ETL_PRECISE_VIEW_RANGE_DELAY_MS apart, so a drag that a slow machine or
   * a sanitizer build stretches may regroup once per such delay (under
   * ASan the 40 changes took 8 s: 200 ms apart). */
  g_assert_cmpuint (etl_precise_view_get_n_groupings (view) - before, <=,
                    2 + drag_ms / ETL_PRECISE_VIEW_RANGE_DELAY_MS);
  etl_precise_view_get_counted_range (view, &begin, &end);
  g_assert_cmpint (begin, ==, origin + S + T (20));
  g_assert_cmpint (end, ==, origin + S + T (40));
  check_path (model, "2", &(WantRow){ "beta.exe (2000)", 1, T (3), T (20), T (6), 1 });
}

static void
test_no_cswitch (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  EtlPreciseView *view;
  const char *message;

  if (etl_test_skip_without_display (have_display))
    return;
  if ((path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_path (fixture->window, path);
  view = precise_view (fixture->window);
  g_assert_true (etl_window_show_view_tab (fixture->window, "precise"));
  g_assert_cmpstr (etl_window_get_view_tab (fixture->window), ==, "precise");
  g_assert_cmpuint (etl_thread_states_get_counts (etl_precise_view_get_states (view))->cswitch, ==, 0);
  message = etl_precise_view_get_message (view);
  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, "No CSwitch records: record with the kernel's CSWITCH flag"));
  g_assert_cmpint (gtk_tree_model_iter_n_children (gtk_tree_view_get_model (etl_precise_view_get_tree_view (view)),
                                                   NULL),
                   ==, 0);
}

static void
test_screenshot (Fixture *fixture, gconstpointer data)
{
  const char *dir = g_getenv ("ETLSCOPE_SCREENSHOT_DIR");
  const char *size = g_getenv ("ETLSCOPE_SCREENSHOT_SIZE");
  GtkTreeView *tv;
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  int w, h, want_w = 1600, want_h = 1000;

  if (dir == NULL)
    {
      g_test_skip ("set ETLSCOPE_SCREENSHOT_DIR to save precise-stacks-WxH.png");
      return;
    }
  if (size != NULL && sscanf (size, "%dx%d", &want_w, &want_h) != 2)
    g_error ("ETLSCOPE_SCREENSHOT_SIZE %s: not WxH", size);
  g_action_group_change_action_state (G_ACTION_GROUP (fixture->window), "show-session", g_variant_new_boolean (FALSE));
  gtk_window_move (GTK_WINDOW (fixture->window), 0, 0);
  gtk_window_resize (GTK_WINDOW (fixture->window), want_w, want_h);
  if (!open_waits (fixture, TRUE))
    return;
  for (int pass = 0, ask_w = want_w, ask_h = want_h; pass < 3; pass++)
    {
      int extra_h = gdk_window_get_height (gtk_widget_get_window (GTK_WIDGET (fixture->window))) - want_h;
      int extra_w = gdk_window_get_width (gtk_widget_get_window (GTK_WIDGET (fixture->window))) - want_w;

      if (extra_h == 0 && extra_w == 0)
        break;
      ask_h -= extra_h;
      ask_w -= extra_w;
      gtk_window_resize (GTK_WINDOW (fixture->window), ask_w, ask_h);
      etl_test_wait_paint (GTK_WIDGET (fixture->window));
    }
  g_assert_true (etl_window_show_view_tab (fixture->window, "precise"));
  tv = etl_precise_view_get_tree_view (precise_view (fixture->window));
  /* alpha, and beta, open to their switch-ins. */
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int)i + 1, -1);

      gtk_tree_view_expand_row (tv, path, TRUE);
    }
  /* A's switch-in readied by gamma's C: its two stacks below the table. */
  select_path (precise_view (fixture->window), "1:0:0:0:0");
  {
    g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_string ("1:0:0:0:0");

    gtk_tree_view_scroll_to_cell (tv, path, NULL, TRUE, 0.9, 0.0);
  }
  etl_test_wait_transitions (GTK_WIDGET (fixture->window));
  w = gdk_window_get_width (gtk_widget_get_window (GTK_WIDGET (fixture->window)));
  h = gdk_window_get_height (gtk_widget_get_window (GTK_WIDGET (fixture->window)));
  g_test_message ("screenshot %d×%d", w, h);
  g_assert_cmpint (w, ==, want_w); /* the view does not widen the window */
  pixbuf = gdk_pixbuf_get_from_window (gtk_widget_get_window (GTK_WIDGET (fixture->window)), 0, 0, w, h);
  g_assert_nonnull (pixbuf);
  out = g_strdup_printf ("%s/precise-stacks-%dx%d.png", dir, want_w, want_h);
  gdk_pixbuf_save (pixbuf, out, "png", &error, NULL);
  g_assert_no_error (error);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();
  have_display = gtk_init_check (&argc, &argv);

  g_test_add ("/etl/gui/precise/groups", Fixture, NULL, fixture_setup, test_groups, fixture_teardown);
  g_test_add ("/etl/gui/precise/model", Fixture, NULL, fixture_setup, test_model, fixture_teardown);
  g_test_add ("/etl/gui/precise/range", Fixture, NULL, fixture_setup, test_range, fixture_teardown);
  g_test_add ("/etl/gui/precise/details", Fixture, NULL, fixture_setup, test_details, fixture_teardown);
  g_test_add ("/etl/gui/precise/details-no-stacks", Fixture, NULL, fixture_setup, test_details_no_stacks,
              fixture_teardown);
  g_test_add ("/etl/gui/precise/visible", Fixture, NULL, fixture_setup, test_visible, fixture_teardown);
  g_test_add ("/etl/gui/precise/visible-coalesced", Fixture, NULL, fixture_setup, test_visible_coalesced,
              fixture_teardown);
  g_test_add ("/etl/gui/precise/no-cswitch", Fixture, NULL, fixture_setup, test_no_cswitch, fixture_teardown);
  g_test_add ("/etl/gui/precise/screenshot", Fixture, NULL, fixture_setup, test_screenshot, fixture_teardown);
  return g_test_run ();
}
