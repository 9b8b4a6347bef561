/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The grouped summary (the Summary tab): it fills from the trace, sorts
 * by a header click, follows the selected time range, and activating a
 * group filters the list to exactly that group's count.  Run under Xvfb;
 * skipped without a display.  With ETLSCOPE_SCREENSHOT_DIR set, the
 * screenshot test saves grouped-summary.png (1600×1000) there. */

#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "etl-test-gui-util.h"
#include "etl-window.h"

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
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
}

static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_drained (etl_test_window_views_idle, window, "the window and its views to be idle");
}

static gboolean
open_net (EtlWindow *window)
{
  g_autofree char *path = NULL;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return FALSE;
  etl_test_window_open (window, (const char *const[]) { path }, 1);
  wait_idle (window);
  return TRUE;
}

static guint64
row_count (GtkTreeModel *model, GtkTreeIter *iter)
{
  guint64 count;

  gtk_tree_model_get (model, iter, ETL_GROUP_VIEW_COLUMN_COUNT, &count, -1);
  return count;
}

static gboolean
find_row (GtkTreeModel *model, GtkTreeIter *parent, const char *label, GtkTreeIter *out)
{
  if (!gtk_tree_model_iter_children (model, out, parent))
    return FALSE;
  do
    {
      g_autofree char *text = NULL;

      gtk_tree_model_get (model, out, ETL_GROUP_VIEW_COLUMN_LABEL, &text, -1);
      if (g_strcmp0 (text, label) == 0)
        return TRUE;
    }
  while (gtk_tree_model_iter_next (model, out));
  return FALSE;
}

static void
test_fill_sort_activate (Fixture *fixture, gconstpointer data)
{
  EtlGroupView *view;
  GtkTreeView *tv;
  GtkTreeModel *model;
  GtkTreeIter iter, perfinfo, sample;
  g_autoptr (GtkTreePath) path = NULL;
  EtlGroupSummary *summary;
  guint64 previous;
  guint n;

  if (!open_net (fixture->window))
    return;
  /* The summary is the bottom panel's second tab (Alt+2). */
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "show-view", g_variant_new_int32 (2));
  etl_test_wait_paint (GTK_WIDGET (fixture->window));
  view = etl_window_get_group_view (fixture->window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (view)));
  tv = etl_group_view_get_tree_view (view);
  model = gtk_tree_view_get_model (tv);
  summary = etl_group_view_get_summary (view);
  g_assert_nonnull (summary);
  g_assert_cmpuint (etl_group_summary_get_total (summary), ==, 179474);

  /* Fills: one top-level row per provider, largest first. */
  n = (guint)gtk_tree_model_iter_n_children (model, NULL);
  g_assert_cmpuint (n, ==, etl_group_summary_get_root (summary)->children->len);
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  g_assert_cmpuint (row_count (model, &iter), ==, 79530);
  g_assert_true (find_row (model, NULL, "PerfInfo", &perfinfo));
  g_assert_true (find_row (model, &perfinfo, "PerfInfo/Sample", &sample));
  g_assert_cmpuint (row_count (model, &sample), ==, 79528);

  /* Sorts: a click on Count sorts ascending, a second descending. */
  gtk_tree_view_column_clicked (gtk_tree_view_get_column (tv, 1));
  previous = 0;
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  g_assert_cmpuint (row_count (model, &iter), ==, 2); /* Microsoft-Windows-Kernel-Process */
  do
    {
      g_assert_cmpuint (row_count (model, &iter), >=, previous);
      previous = row_count (model, &iter);
    }
  while (gtk_tree_model_iter_next (model, &iter));
  g_assert_cmpuint (previous, ==, 79530);
  gtk_tree_view_column_clicked (gtk_tree_view_get_column (tv, 1));
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  g_assert_cmpuint (row_count (model, &iter), ==, 79530);
  /* By First: the trace header's provider comes first. */
  gtk_tree_view_column_clicked (gtk_tree_view_get_column (tv, 3));
  {
    gint64 first_prev = G_MININT64;

    g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
    do
      {
        gint64 first;

        gtk_tree_model_get (model, &iter, ETL_GROUP_VIEW_COLUMN_FIRST, &first, -1);
        g_assert_cmpint (first, >=, first_prev);
        first_prev = first;
      }
    while (gtk_tree_model_iter_next (model, &iter));
  }

  /* Activating PerfInfo ▸ PerfInfo/Sample keeps exactly its 79,528 rows. */
  g_assert_true (find_row (model, NULL, "PerfInfo", &perfinfo));
  g_assert_true (find_row (model, &perfinfo, "PerfInfo/Sample", &sample));
  path = gtk_tree_model_get_path (model, &sample);
  gtk_tree_view_expand_to_path (tv, path);
  gtk_tree_view_row_activated (tv, path, gtk_tree_view_get_column (tv, 0));
  wait_idle (fixture->window);
  /* The group's rows are shown in the Events tab. */
  g_assert_cmpstr (etl_window_get_view_tab (fixture->window), ==, "events");
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 79528);
  g_assert_cmpuint (etl_row_set_get_n (etl_window_get_rows (fixture->window)), ==, 79528);
  g_assert_cmpuint (etl_summary_get_n_records (etl_timeline_view_get_summary (etl_window_get_timeline (fixture->window))),
                    ==, 79528);
  /* The summary follows the filter. */
  summary = etl_group_view_get_summary (view);
  g_assert_cmpuint (etl_group_summary_get_total (summary), ==, 79528);
  g_assert_cmpuint (gtk_tree_model_iter_n_children (gtk_tree_view_get_model (tv), NULL), ==, 1);

  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "clear-filter", NULL);
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 179474);
  g_assert_cmpuint (etl_group_summary_get_total (etl_group_view_get_summary (view)), ==, 179474);
}

static void
test_range_and_chain (Fixture *fixture, gconstpointer data)
{
  EtlGroupView *view;
  EtlTrace *trace;
  GtkTreeModel *model;
  GtkTreeIter iter;
  gint64 begin, end;
  guint64 expected = 0;
  gboolean found = FALSE;

  if (!open_net (fixture->window))
    return;
  view = etl_window_get_group_view (fixture->window);
  trace = etl_window_get_trace (fixture->window);
  begin = etl_trace_get_origin (trace) + 2000 * 10000;
  end = etl_trace_get_origin (trace) + 3000 * 10000;
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      gint64 t = etl_trace_get_filetime (trace, i);

      expected += t >= begin && t < end;
    }
  g_assert_cmpuint (expected, >, 0);
  etl_timeline_view_set_selection (etl_window_get_timeline (fixture->window), begin, end);
  etl_group_view_set_use_range (view, TRUE);
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_group_summary_get_total (etl_group_view_get_summary (view)), ==, expected);
  g_assert_cmpint (etl_group_summary_get_begin (etl_group_view_get_summary (view)), ==, begin);

  /* Whole trace again, grouped by process then thread. */
  etl_group_view_set_use_range (view, FALSE);
  g_assert_true (etl_group_view_set_keys (view, "process,thread"));
  g_assert_false (etl_group_view_set_keys (view, "nonsense"));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_group_summary_get_total (etl_group_view_get_summary (view)), ==, 179474);
  model = gtk_tree_view_get_model (etl_group_view_get_tree_view (view));
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  do
    {
      g_autofree char *label = NULL;

      gtk_tree_model_get (model, &iter, ETL_GROUP_VIEW_COLUMN_LABEL, &label, -1);
      if (g_strcmp0 (label, "Test.x64.exe (3676)") == 0)
        {
          found = TRUE;
          g_assert_cmpuint (row_count (model, &iter), ==, 45459);
          g_assert_cmpint (gtk_tree_model_iter_n_children (model, &iter), >, 1);
        }
    }
  while (gtk_tree_model_iter_next (model, &iter));
  g_assert_true (found);
}

static void
test_screenshot (Fixture *fixture, gconstpointer data)
{
  const char *dir = g_getenv ("ETLSCOPE_SCREENSHOT_DIR");
  GtkTreeView *tv;
  GtkTreeModel *model;
  GtkTreeIter iter;
  g_autoptr (GdkPixbuf) pixbuf = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  int w, h;

  if (dir == NULL)
    {
      g_test_skip ("set ETLSCOPE_SCREENSHOT_DIR to save docs/screenshots/grouped-summary.png");
      return;
    }
  /* The trace area alone, as in the other screenshots of a trace. */
  g_action_group_change_action_state (G_ACTION_GROUP (fixture->window), "show-session", g_variant_new_boolean (FALSE));
  if (!open_net (fixture->window))
    return;
  tv = etl_group_view_get_tree_view (etl_window_get_group_view (fixture->window));
  model = gtk_tree_view_get_model (tv);
  /* The header bar is outside the default size: shrink to 1600×1000 in all. */
  gtk_window_move (GTK_WINDOW (fixture->window), 0, 0);
  for (int pass = 0, want_w = 1600, want = 1000; pass < 3; pass++)
    {
      int extra = gdk_window_get_height (gtk_widget_get_window (GTK_WIDGET (fixture->window))) - 1000;
      int extra_w = gdk_window_get_width (gtk_widget_get_window (GTK_WIDGET (fixture->window))) - 1600;

      if (extra == 0 && extra_w == 0)
        break;
      want -= extra;
      want_w -= extra_w; /* the frame of client-side decorations without a window manager */
      gtk_window_resize (GTK_WINDOW (fixture->window), want_w, want);
      etl_test_wait_paint (GTK_WIDGET (fixture->window));
    }
  /* The Summary tab of the bottom panel. */
  g_assert_true (etl_window_show_view_tab (fixture->window, "summary"));
  /* Expand the two largest providers. */
  for (int i = 0; i < 2 && gtk_tree_model_iter_nth_child (model, &iter, NULL, i); i++)
    {
      g_autoptr (GtkTreePath) path = gtk_tree_model_get_path (model, &iter);

      gtk_tree_view_expand_row (tv, path, FALSE);
    }
  etl_test_wait_paint (GTK_WIDGET (fixture->window));
  {
    int min_w, nat_w, min_h, nat_h, gmin, gnat;

    gtk_widget_get_preferred_width (GTK_WIDGET (fixture->window), &min_w, &nat_w);
    gtk_widget_get_preferred_height (GTK_WIDGET (fixture->window), &min_h, &nat_h);
    gtk_widget_get_preferred_width (GTK_WIDGET (etl_window_get_group_view (fixture->window)), &gmin, &gnat);
    g_test_message ("window min %d×%d, summary min width %d", min_w, min_h, gmin);
  }
  w = gdk_window_get_width (gtk_widget_get_window (GTK_WIDGET (fixture->window)));
  h = gdk_window_get_height (gtk_widget_get_window (GTK_WIDGET (fixture->window)));
  g_test_message ("screenshot %d×%d", w, h);
  g_assert_cmpint (w, ==, 1600); /* the summary does not widen the window */
  pixbuf = gdk_pixbuf_get_from_window (gtk_widget_get_window (GTK_WIDGET (fixture->window)), 0, 0, w, h);
  g_assert_nonnull (pixbuf);
  out = g_build_filename (dir, "grouped-summary.png", NULL);
  gdk_pixbuf_save (pixbuf, out, "png", &error, NULL);
  g_assert_no_error (error);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();
  have_display = gtk_init_check (&argc, &argv);

  g_test_add ("/etl/gui/summary/fill-sort-activate", Fixture, NULL, fixture_setup, test_fill_sort_activate,
              fixture_teardown);
  g_test_add ("/etl/gui/summary/range-and-chain", Fixture, NULL, fixture_setup, test_range_and_chain,
              fixture_teardown);
  g_test_add ("/etl/gui/summary/screenshot", Fixture, NULL, fixture_setup, test_screenshot, fixture_teardown);
  return g_test_run ();
}
