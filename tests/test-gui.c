/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The main window: loading off the main thread (and cancelling it), lanes,
 * the loss legend, zoom actions, the info bar, the event list and the details
 * pane, filtering, selection following between list and timeline, the start
 * page, Close, exports and the state file.  Run under Xvfb; skipped without a
 * display.  XDG directories point into a temporary folder so the recent files
 * list, the demo trace and state.ini never touch the user's. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-filter.h"
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
    fixture->window = etl_test_window_new (1200, 800);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  etl_test_window_clear (&fixture->window);
}

static gboolean
not_loading (gpointer window)
{
  return !etl_window_get_loading (window);
}

/* Opens @paths and iterates the main loop until the window has loaded. */
static void
open_and_wait (EtlWindow *window, const char *const *paths)
{
  etl_test_window_open (window, paths, g_strv_length ((char **) paths));
  g_assert_true (etl_window_get_loading (window));
  /* Then lets the widgets draw once. */
  etl_test_wait_drained (not_loading, window, "the window to load");
}

static void
test_open_net (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *legend = NULL;
  guint64 ev = 1, bu = 1;
  gint64 b, e, b2, e2;
  GActionGroup *zoom;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { path, NULL });

  g_assert_nonnull (etl_window_get_trace (fixture->window));
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "8 CPUs"));
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "net.4.5.2.x64.etl"));

  g_assert_cmpuint (etl_window_get_n_loss_files (fixture->window), ==, 1);
  g_assert_true (etl_window_get_loss_totals (fixture->window, 0, &ev, &bu));
  g_assert_cmpuint (ev, ==, 0);
  g_assert_cmpuint (bu, ==, 0);
  legend = etl_window_dup_loss_legend (fixture->window, 0);
  g_assert_nonnull (strstr (legend, "EventsLost 0 · BuffersLost 0"));
  g_assert_nonnull (strstr (legend, "0 lost"));

  /* zoom.zoom-in halves the visible range; zoom-fit restores it. */
  zoom = gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "zoom");
  g_assert_nonnull (zoom);
  g_assert_false (g_action_group_get_action_enabled (zoom, "zoom-out"));
  etl_window_get_visible_range (fixture->window, &b, &e);
  g_action_group_activate_action (zoom, "zoom-in", NULL);
  etl_window_get_visible_range (fixture->window, &b2, &e2);
  g_assert_cmpint (e2 - b2, ==, (e - b) / 2);
  g_assert_cmpint (b2, ==, b + (e - b) / 4);
  g_assert_true (g_action_group_get_action_enabled (zoom, "zoom-out"));
  g_action_group_activate_action (zoom, "zoom-fit", NULL);
  etl_window_get_visible_range (fixture->window, &b2, &e2);
  g_assert_cmpint (b2, ==, b);
  g_assert_cmpint (e2, ==, e);
}

static void
test_open_amsi (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *legend = NULL;
  guint64 ev = 0, bu = 1;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { path, NULL });

  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);
  g_assert_true (etl_window_get_loss_totals (fixture->window, 0, &ev, &bu));
  g_assert_cmpuint (ev, ==, 3);
  g_assert_cmpuint (bu, ==, 0);
  legend = etl_window_dup_loss_legend (fixture->window, 0);
  g_assert_nonnull (strstr (legend, "EventsLost 3 · BuffersLost 0"));
}

/* Two files, one merged timeline, one legend row per file. */
static void
test_open_merged (Fixture *fixture, gconstpointer data)
{
  g_autofree char *net = NULL;
  g_autofree char *amsi = NULL;
  guint64 ev = 0, bu = 1;

  if (etl_test_skip_without_display (have_display) ||
      (net = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL ||
      (amsi = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { net, amsi, NULL });

  g_assert_cmpuint (etl_trace_get_n_files (etl_window_get_trace (fixture->window)), ==, 2);
  g_assert_cmpuint (etl_trace_get_n_records (etl_window_get_trace (fixture->window)), ==, 179474 + 21);
  g_assert_cmpuint (etl_window_get_n_loss_files (fixture->window), ==, 2);
  g_assert_true (etl_window_get_loss_totals (fixture->window, 1, &ev, &bu));
  g_assert_cmpuint (ev, ==, 3);
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "net.4.5.2.x64.etl, AMSITrace.etl"));
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));
}

/* A missing file and a garbage file show the info bar with the reader's
 * message and keep the trace that was shown. */
static void
test_open_bad (Fixture *fixture, gconstpointer data)
{
  g_autofree char *amsi = NULL;
  g_autofree char *garbage = NULL;
  g_autofree char *missing = NULL;
  g_autoptr (GError) error = NULL;
  guint8 junk[8192];
  int fd;

  if (etl_test_skip_without_display (have_display) || (amsi = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { amsi, NULL });
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));

  fd = g_file_open_tmp ("etlscope-garbage-XXXXXX.etl", &garbage, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < sizeof junk; i++)
    junk[i] = (guint8) g_test_rand_int_range (0, 256);
  /* Closed first: on Windows g_file_set_contents() cannot replace a file
   * that is still open. */
  g_close (fd, NULL);
  g_assert_true (g_file_set_contents (garbage, (const char *) junk, sizeof junk, &error));
  g_assert_no_error (error);

  /* Garbage alone: nothing loads, the AMSI trace stays. */
  open_and_wait (fixture->window, (const char *const[]) { garbage, NULL });
  g_assert_true (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), garbage));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), "offset"));
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "AMSITrace.etl"));
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);

  /* A missing file next to a good one: the good one loads. */
  missing = g_build_filename (g_get_tmp_dir (), "etlscope-does-not-exist.etl", NULL);
  open_and_wait (fixture->window, (const char *const[]) { missing, amsi, NULL });
  g_assert_true (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), missing));
  g_assert_cmpuint (etl_trace_get_n_files (etl_window_get_trace (fixture->window)), ==, 1);
  g_assert_cmpuint (etl_window_get_n_loss_files (fixture->window), ==, 1);

  /* A good file again hides the info bar. */
  open_and_wait (fixture->window, (const char *const[]) { amsi, NULL });
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));

  g_unlink (garbage);
}


static gboolean
idle_pred (gpointer window)
{
  return !etl_window_get_busy (window) && !etl_timeline_view_is_busy (etl_window_get_timeline (window));
}

static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_drained (idle_pred, window, "the window and its timeline to be idle");
}

static guint64
count_pid (EtlTrace *trace, guint32 want)
{
  guint64 n = 0;
  guint32 pid;

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    if (etl_trace_get_pid (trace, i, &pid) && pid == want)
      n++;
  return n;
}

/* No file: the start page; a trace: the trace page; Close: the start page. */
static void
test_start_page_close (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  g_assert_cmpstr (etl_window_get_page (fixture->window), ==, "start");
  g_assert_null (etl_window_get_trace (fixture->window));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (fixture->window), "close-trace"));

  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  g_assert_cmpstr (etl_window_get_page (fixture->window), ==, "trace");
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fixture->window), "close-trace"));

  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "close-trace", NULL);
  g_assert_cmpstr (etl_window_get_page (fixture->window), ==, "start");
  g_assert_null (etl_window_get_trace (fixture->window));
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 0);
  g_assert_cmpstr (etl_window_get_status (fixture->window), ==, "No trace loaded");

  /* Opened files went into the recent list. */
  {
    g_autoptr (GFile) file = g_file_new_for_path (path);
    g_autofree char *uri = g_file_get_uri (file);

    g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  }
}

/* win.open-files (paths), the list's 179,474 rows, the timeline's 8 lanes. */
static void
test_open_action_list (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  const char *paths[2] = { NULL, NULL };
  EtlEventList *list;
  GtkTreeModel *model;
  GtkTreeIter iter;
  g_autofree char *time = NULL;
  g_autofree char *provider = NULL;
  g_autofree char *count_text = NULL;
  guint64 row = 1;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;

  paths[0] = path;
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "open-files", g_variant_new_strv (paths, 1));
  g_assert_true (etl_window_get_loading (fixture->window));
  wait_idle (fixture->window);

  g_assert_nonnull (etl_window_get_trace (fixture->window));
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);
  list = etl_window_get_event_list (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (list), ==, 179474);
  /* The list's model holds every row; its tree view shows a page of them
   * (the rows on screen), never the row set. */
  model = GTK_TREE_MODEL (etl_event_list_get_model (list));
  g_assert_cmpint (gtk_tree_model_iter_n_children (model, NULL), ==, 179474);
  g_assert_true (gtk_tree_view_get_model (etl_event_list_get_tree_view (list))
                 == GTK_TREE_MODEL (etl_event_list_get_page (list)));
  g_assert_cmpint (gtk_tree_model_iter_n_children (gtk_tree_view_get_model (etl_event_list_get_tree_view (list)), NULL),
                   >, 0);
  g_assert_cmpint (gtk_tree_model_iter_n_children (gtk_tree_view_get_model (etl_event_list_get_tree_view (list)), NULL),
                   <, 100);
  count_text = g_strdup_printf ("%'u rows", 179474u);
  g_assert_cmpstr (etl_filter_bar_get_count_text (etl_window_get_filter_bar (fixture->window)), ==, count_text);

  /* The first row is the EventTrace header at time 0; the last row is
   * reachable and formats. */
  g_assert_true (gtk_tree_model_get_iter_first (model, &iter));
  gtk_tree_model_get (model, &iter, ETL_EVENT_MODEL_COLUMN_TIME, &time, ETL_EVENT_MODEL_COLUMN_PROVIDER, &provider,
                      ETL_EVENT_MODEL_COLUMN_ROW, &row, -1);
  g_assert_cmpstr (time, ==, "0.0 µs");
  g_assert_cmpstr (provider, ==, "EventTrace");
  g_assert_cmpuint (row, ==, 0);
  g_clear_pointer (&time, g_free);
  g_assert_true (gtk_tree_model_iter_nth_child (model, &iter, NULL, 179473));
  gtk_tree_model_get (model, &iter, ETL_EVENT_MODEL_COLUMN_ROW, &row, ETL_EVENT_MODEL_COLUMN_TIME, &time, -1);
  g_assert_cmpuint (row, ==, 179473);
  g_assert_nonnull (time);
  g_assert_false (gtk_tree_model_iter_next (model, &iter));

  /* Only the rows on screen were read, not the whole trace. */
  g_assert_cmpuint (etl_event_model_get_n_reads (etl_event_list_get_model (list)), <, 2000);
}

/* A left click on the @index-th row on screen of @tree_view, as the display
 * sends it. */
static void
click_row (GtkTreeView *tree_view, guint index)
{
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) index, -1);
  GdkEvent *event = gdk_event_new (GDK_BUTTON_PRESS);
  GdkRectangle rect;

  gtk_tree_view_get_background_area (tree_view, path, NULL, &rect);
  g_assert_cmpint (rect.height, >, 0);
  event->button.window = g_object_ref (gtk_tree_view_get_bin_window (tree_view));
  event->button.x = rect.x + 40;
  event->button.y = rect.y + rect.height / 2;
  event->button.button = GDK_BUTTON_PRIMARY;
  event->button.time = GDK_CURRENT_TIME;
  gdk_event_set_device (event, gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())));
  gtk_widget_event (GTK_WIDGET (tree_view), event);
  gdk_event_free (event);
}

/* Selecting in the timeline moves the list, and the other way round. */
static void
test_selection_follows (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *details = NULL;
  EtlTimelineView *timeline;
  EtlEventList *list;
  GtkTreeView *tree_view;
  g_autoptr (GtkTreePath) tree_path = NULL;
  guint64 first = 0, last = 0;
  gint64 b, e, b2, e2, t;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  wait_idle (fixture->window);
  timeline = etl_window_get_timeline (fixture->window);
  list = etl_window_get_event_list (fixture->window);
  tree_view = etl_event_list_get_tree_view (list);

  /* Timeline → list: the click path selects the row and emits. */
  etl_timeline_view_select_row (timeline, 120000, FALSE);
  g_signal_emit_by_name (timeline, "event-selected", (guint64) 120000);
  etl_test_drain ();
  g_assert_cmpuint (etl_event_list_get_selected_row (list), ==, 120000);
  g_assert_cmpuint (etl_event_list_get_cursor (list), ==, 120000);
  /* Scrolled to it: on screen, and the tree view's cursor row shows it. */
  g_assert_true (etl_event_list_get_visible_range (list, &first, &last));
  g_test_message ("visible %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, first, last);
  g_assert_cmpuint (first, <=, 120000);
  g_assert_cmpuint (last, >=, 120000);
  gtk_tree_view_get_cursor (tree_view, &tree_path, NULL);
  g_assert_nonnull (tree_path);
  {
    GtkTreeModel *shown = gtk_tree_view_get_model (tree_view);
    GtkTreeIter iter;
    guint64 shown_row = 0;

    g_assert_true (gtk_tree_model_get_iter (shown, &iter, tree_path));
    gtk_tree_model_get (shown, &iter, ETL_EVENT_MODEL_COLUMN_ROW, &shown_row, -1);
    g_assert_cmpuint (shown_row, ==, 120000);
  }
  details = etl_details_dup_text (etl_window_get_details (fixture->window));
  g_assert_nonnull (strstr (details, "120000 of 179474"));

  /* List → timeline: a user selection centres the event in the timeline,
   * the zoom level kept. */
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "zoom"), "zoom-in",
                                  NULL);
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "zoom"), "zoom-in",
                                  NULL);
  etl_window_get_visible_range (fixture->window, &b, &e);
  /* A click on row 1000: the cursor moves and the row alone is selected
   * (the list selects several rows; the cursor's is the one shown). */
  etl_event_list_select_row (list, 999);
  g_assert_true (etl_event_list_get_visible_range (list, &first, &last));
  g_assert_cmpuint (last, >, 999);
  click_row (tree_view, (guint) (1000 - first));
  etl_test_drain ();
  g_assert_cmpuint (etl_event_list_get_selected_row (list), ==, 1000);
  g_assert_cmpuint (etl_timeline_view_get_selected_row (timeline), ==, 1000);
  etl_window_get_visible_range (fixture->window, &b2, &e2);
  g_assert_cmpint (e2 - b2, ==, e - b);
  t = etl_trace_get_filetime (etl_window_get_trace (fixture->window), 1000);
  g_assert_cmpint (b2, <=, t);
  g_assert_cmpint (e2, >=, t);
  g_free (details);
  details = etl_details_dup_text (etl_window_get_details (fixture->window));
  g_assert_nonnull (strstr (details, "1000 of 179474"));
}

/* Filtering by process 3988 reduces the list and the timeline's lanes. */
static void
test_filter_pid (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  EtlTimelineView *timeline;
  EtlSummary *summary;
  guint64 expected, lane_sum = 0;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  wait_idle (fixture->window);
  timeline = etl_window_get_timeline (fixture->window);
  g_assert_cmpuint (etl_summary_get_n_records (etl_timeline_view_get_summary (timeline)), ==, 179474);

  expected = count_pid (etl_window_get_trace (fixture->window), 3988);
  g_assert_cmpuint (expected, >, 0);
  g_assert_cmpuint (expected, <, 179474);

  filter->has_pid = TRUE;
  filter->pid = 3988;
  etl_filter_bar_set_filter (etl_window_get_filter_bar (fixture->window), filter);
  g_assert_true (etl_window_get_busy (fixture->window));
  wait_idle (fixture->window);

  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, expected);
  g_assert_cmpuint (etl_row_set_get_n (etl_window_get_rows (fixture->window)), ==, expected);
  summary = etl_timeline_view_get_summary (timeline);
  g_assert_cmpuint (etl_summary_get_n_records (summary), ==, expected);
  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    lane_sum += etl_summary_get_lane_total (summary, lane);
  g_assert_cmpuint (lane_sum, ==, expected);
  g_assert_nonnull (strstr (etl_filter_bar_get_count_text (etl_window_get_filter_bar (fixture->window)), " of "));

  /* Clearing the filter brings every row back. */
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "clear-filter", NULL);
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 179474);
  g_assert_cmpuint (etl_summary_get_n_records (etl_timeline_view_get_summary (timeline)), ==, 179474);
}

/* The path valgrind memcheck runs (meson test gui-memcheck): open, zoom,
 * filter, select, close — every piece of the window's own code once. */
static void
test_smoke (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  gint64 begin, end, begin2, end2;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 21);

  etl_window_get_visible_range (fixture->window, &begin, &end);
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "zoom"), "zoom-in", NULL);
  wait_idle (fixture->window);
  etl_window_get_visible_range (fixture->window, &begin2, &end2);
  g_assert_cmpint (end2 - begin2, <, end - begin);

  filter->has_pid = TRUE;
  filter->pid = 29868;
  etl_filter_bar_set_filter (etl_window_get_filter_bar (fixture->window), filter);
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 5);
  etl_event_list_select_row (etl_window_get_event_list (fixture->window), 4);
  wait_idle (fixture->window);

  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "close-trace", NULL);
  wait_idle (fixture->window);
  g_assert_null (etl_window_get_trace (fixture->window));
}

/* gcevents.etl cut in the middle of its third 64 KiB buffer: the info bar
 * names the file, the offset and the reason, and the good records are
 * listed. */
static void
test_open_truncated (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *cut = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;
  int fd;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("gcevents.etl")) == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (len, >, 3 * 65536);
  fd = g_file_open_tmp ("etlscope-cut-XXXXXX.etl", &cut, &error);
  g_assert_no_error (error);
  g_close (fd, NULL);
  g_assert_true (g_file_set_contents (cut, contents, 2 * 65536 + 65536 / 2, &error));
  g_assert_no_error (error);

  open_and_wait (fixture->window, (const char *const[]) { cut, NULL });
  g_assert_true (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), cut));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), "offset"));
  g_assert_nonnull (etl_window_get_trace (fixture->window));
  g_assert_cmpuint (etl_trace_get_n_records (etl_window_get_trace (fixture->window)), >, 0);
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==,
                    etl_trace_get_n_records (etl_window_get_trace (fixture->window)));
  g_assert_cmpstr (etl_window_get_page (fixture->window), ==, "trace");
  g_unlink (cut);
}

/* Cancel right after starting a load: the window stays as it was and a
 * later open works. */
static void
test_cancel_load (Fixture *fixture, gconstpointer data)
{
  g_autofree char *net = NULL;
  g_autofree char *amsi = NULL;
  g_autoptr (GFile) file = NULL;
  guint refs;

  if (etl_test_skip_without_display (have_display) ||
      (net = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL ||
      (amsi = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  /* Nothing shown: cancelling leaves the start page. */
  file = g_file_new_for_path (net);
  refs = etl_test_ref_count (fixture->window);
  etl_window_open_files (fixture->window, &file, 1);
  g_assert_true (etl_window_get_loading (fixture->window));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (fixture->window), "cancel"));
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "cancel", NULL);
  g_assert_false (etl_window_get_loading (fixture->window));
  etl_test_wait_jobs_done (fixture->window, refs, "the cancelled load's worker to stop and report");
  g_assert_null (etl_window_get_trace (fixture->window));
  g_assert_cmpstr (etl_window_get_page (fixture->window), ==, "start");

  /* A trace shown: cancelling a new load keeps it. */
  open_and_wait (fixture->window, (const char *const[]) { amsi, NULL });
  refs = etl_test_ref_count (fixture->window);
  etl_window_open_files (fixture->window, &file, 1);
  etl_window_cancel (fixture->window);
  etl_test_wait_jobs_done (fixture->window, refs, "the cancelled load's worker to stop and report");
  g_assert_cmpuint (etl_trace_get_n_records (etl_window_get_trace (fixture->window)), ==, 21);
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "AMSITrace.etl"));

  /* And a later open works. */
  open_and_wait (fixture->window, (const char *const[]) { net, NULL });
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 179474);
}

/* TraceLogging fields in the details pane. */
static void
test_details_tracelogging (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("primitive-types.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  etl_event_list_select_row (etl_window_get_event_list (fixture->window), 2);
  text = etl_details_format (etl_window_get_trace (fixture->window), 2);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "PrimitiveTypesTest"));
  g_assert_nonnull (strstr (text, "Provider\tsolar_system"));
  g_assert_nonnull (strstr (text, "string_type\tMercury"));
  g_assert_nonnull (strstr (text, "int16_type\t-51"));
  g_assert_nonnull (strstr (text, "uint64_type\t204"));
  g_assert_nonnull (strstr (text, "guid_type\t0ad614c4-0ef4-4225-8"));
  g_assert_nonnull (strstr (text, "file_time_type\t2021-09-09T"));
  g_assert_nonnull (strstr (text, "EXTENDED_INFO"));
  g_assert_nonnull (strstr (text, "EVENT_SCHEMA_TL"));
  g_assert_nonnull (strstr (text, "Time (UTC)\t"));
  g_assert_null (strstr (text, "could not be decoded"));
  g_assert_nonnull (strstr (text, "0000  "));
}

/* Export the filtered visible range as .etl and the timeline as images. */
static void
test_exports (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *etl = NULL;
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  g_autoptr (EtlTrace) slice = NULL;
  g_autoptr (GError) error = NULL;
  static const char *const images[] = { "t.png", "t.svg", "t.pdf" };
  gint64 b, e;
  guint64 expected = 0;
  EtlTrace *trace;
  EtlRowSet *rows;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  filter->has_pid = TRUE;
  filter->pid = 3988;
  etl_filter_bar_set_filter (etl_window_get_filter_bar (fixture->window), filter);
  wait_idle (fixture->window);
  /* Zoomed to fit, the visible range has margins: the export range is the
   * records' span, never before the first. */
  trace = etl_window_get_trace (fixture->window);
  etl_window_get_export_range (fixture->window, &b, &e);
  g_assert_cmpint (b, ==, etl_trace_get_first_filetime (trace));
  g_assert_cmpint (e, ==, etl_trace_get_last_filetime (trace) + 1);
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "zoom"), "zoom-in",
                                  NULL);
  etl_window_get_export_range (fixture->window, &b, &e);
  etl_window_get_visible_range (fixture->window, NULL, NULL);
  rows = etl_window_get_rows (fixture->window);
  for (guint64 k = 0; k < etl_row_set_get_n (rows); k++)
    {
      gint64 t = etl_trace_get_filetime (trace, etl_row_set_get (rows, k));

      if (t >= b && t < e)
        expected++;
    }
  g_assert_cmpuint (expected, >, 0);

  dir = g_dir_make_tmp ("etlscope-export-XXXXXX", &error);
  g_assert_no_error (error);
  etl = g_build_filename (dir, "slice.etl", NULL);
  etl_window_export_selection (fixture->window, etl);
  g_assert_true (etl_window_get_busy (fixture->window));
  etl_test_wait_drained (etl_test_window_not_busy, fixture->window, "the window to be idle");
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), "Exported"));
  slice = etl_trace_open ((const char *const[]) { etl, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* The header record plus the records kept. */
  g_assert_cmpuint (etl_trace_get_n_records (slice), ==, expected + 1);
  g_unlink (etl);

  for (guint i = 0; i < G_N_ELEMENTS (images); i++)
    {
      g_autofree char *image = g_build_filename (dir, images[i], NULL);
      g_autofree char *contents = NULL;
      g_autofree char *missing = g_build_filename (dir, "no-such-folder", images[i], NULL);
      gsize len = 0;

      /* Over an existing file: replaced whole (written atomically). */
      g_assert_true (g_file_set_contents (image, "old", 3, NULL));
      g_assert_true (etl_window_export_image (fixture->window, image, &error));
      g_assert_no_error (error);
      /* A failed export creates nothing. */
      g_assert_false (etl_window_export_image (fixture->window, missing, &error));
      g_assert_nonnull (error);
      g_clear_error (&error);
      g_assert_false (g_file_test (missing, G_FILE_TEST_EXISTS));
      g_assert_true (g_file_get_contents (image, &contents, &len, &error));
      g_assert_cmpuint (len, >, 1000);
      if (i == 0)
        g_assert_cmpmem (contents, 4, "\x89PNG", 4);
      else if (i == 1)
        g_assert_nonnull (strstr (contents, "<svg"));
      else
        g_assert_cmpmem (contents, 5, "%PDF-", 5);
      g_unlink (image);
    }
  /* No temporary file is left behind. */
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      g_assert_true (g_str_has_suffix (name, ".etl"));
  }
  g_rmdir (dir);
}

/* Lane modes through the timeline's action group, from the window. */
static void
test_lane_mode (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  GActionGroup *group;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  group = gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "timeline");
  g_assert_nonnull (group);
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("provider"));
  wait_idle (fixture->window);
  g_assert_cmpint (etl_timeline_view_get_lane_mode (etl_window_get_timeline (fixture->window)), ==,
                   ETL_LANE_PROVIDER);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), >=, 25);
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("cpu"));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);
}

static gboolean
has_trace (gpointer window)
{
  return etl_window_get_trace (window) != NULL && idle_pred (window);
}

/* The demo trace is generated once into the cache and opened. */
static void
test_demo_wait (Fixture *fixture, gconstpointer data)
{
  g_autofree char *demo = g_build_filename (g_get_user_cache_dir (), "etlscope", "demo.etl", NULL);

  if (etl_test_skip_without_display (have_display))
    return;
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "open-demo", NULL);
  etl_test_wait_drained (has_trace, fixture->window, "the window to show a trace");
  g_assert_true (g_file_test (demo, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);
  g_assert_cmpuint (etl_event_list_get_n_rows (etl_window_get_event_list (fixture->window)), ==, 200001);
}

/* Destroying the window writes state.ini; a new window reads it back. */
static void
test_state_file (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = etl_window_get_state_path ();
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) error = NULL;

  if (etl_test_skip_without_display (have_display))
    return;
  g_unlink (path);
  gtk_widget_destroy (GTK_WIDGET (fixture->window));
  g_clear_object (&fixture->window);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (g_key_file_has_key (kf, "window", "maximized", NULL));
  /* The bottom panel's tab and state (issue 18: no more list/trace panes). */
  {
    g_autofree char *tab = g_key_file_get_string (kf, "panel", "tab", NULL);

    g_assert_cmpstr (tab, ==, "events");
  }
  g_assert_true (g_key_file_has_key (kf, "panel", "maximized", NULL));
  g_assert_false (g_key_file_has_key (kf, "panes", "list", NULL));

  /* Written explicitly too. */
  fixture->window = g_object_ref_sink (etl_window_new (NULL));
  g_unlink (path);
  g_assert_true (etl_window_save_state (fixture->window, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = NULL;
  int status;

  /* Before GTK reads them. */
  xdg = etl_test_private_xdg ("etlscope-gui-XXXXXX");
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add ("/etl/gui/open/net", Fixture, NULL, fixture_setup, test_open_net, fixture_teardown);
  g_test_add ("/etl/gui/open/amsi", Fixture, NULL, fixture_setup, test_open_amsi, fixture_teardown);
  g_test_add ("/etl/gui/open/merged", Fixture, NULL, fixture_setup, test_open_merged, fixture_teardown);
  g_test_add ("/etl/gui/open/bad", Fixture, NULL, fixture_setup, test_open_bad, fixture_teardown);

  g_test_add ("/etl/gui/start-page/close", Fixture, NULL, fixture_setup, test_start_page_close, fixture_teardown);
  g_test_add ("/etl/gui/list/open-action", Fixture, NULL, fixture_setup, test_open_action_list, fixture_teardown);
  g_test_add ("/etl/gui/list/selection-follows", Fixture, NULL, fixture_setup, test_selection_follows,
              fixture_teardown);
  g_test_add ("/etl/gui/filter/pid", Fixture, NULL, fixture_setup, test_filter_pid, fixture_teardown);
  g_test_add ("/etl/gui/smoke", Fixture, NULL, fixture_setup, test_smoke, fixture_teardown);
  g_test_add ("/etl/gui/open/truncated", Fixture, NULL, fixture_setup, test_open_truncated, fixture_teardown);
  g_test_add ("/etl/gui/open/cancel", Fixture, NULL, fixture_setup, test_cancel_load, fixture_teardown);
  g_test_add ("/etl/gui/details/tracelogging", Fixture, NULL, fixture_setup, test_details_tracelogging,
              fixture_teardown);
  g_test_add ("/etl/gui/lane-mode", Fixture, NULL, fixture_setup, test_lane_mode, fixture_teardown);
  g_test_add ("/etl/gui/export", Fixture, NULL, fixture_setup, test_exports, fixture_teardown);
  g_test_add ("/etl/gui/demo", Fixture, NULL, fixture_setup, test_demo_wait, fixture_teardown);
  g_test_add ("/etl/gui/state-file", Fixture, NULL, fixture_setup, test_state_file, fixture_teardown);

  status = g_test_run ();
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return status;
}
