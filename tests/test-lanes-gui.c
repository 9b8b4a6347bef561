/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The timeline's lanes in the main window (issue 10, "Lanes"): the lane area
 * scrolls inside its own pane, so a trace with many processes in Process
 * mode neither grows the window nor pushes the event list off screen.  Run
 * under Xvfb; skipped without a display. */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-cpu-graph.h"
#include "etl-synth.h"
#include "etl-test-gui-util.h"
#include "etl-window.h"

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
    fixture->window = etl_test_window_new (1200, 800);
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

static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_timeline_idle (window);
}

static void
open_and_wait (EtlWindow *window, GPtrArray *paths)
{
  etl_test_window_open (window, (const char *const *) paths->pdata, paths->len);
  wait_idle (window);
}

/* Four synthetic traces of different seeds, like a diaghub collection:
 * 24 processes each, mostly different PIDs. */
static GPtrArray *
write_four_traces (Fixture *fixture)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;

  fixture->dir = g_dir_make_tmp ("etlscope-lanes-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 4; i++)
    {
      EtlSynthParams params;
      char *path = g_strdup_printf ("%s/part%u.etl", fixture->dir, i);

      etl_synth_params_init (&params);
      params.n_cpus = 4;
      params.n_records = 20000;
      params.seed = 11 + i * 7;
      g_assert_true (etl_synth_write (&params, path, &error));
      g_assert_no_error (error);
      g_ptr_array_add (paths, path);
    }
  return paths;
}

/* The widget's allocation, translated into the window's coordinates. */
static void
get_rect_in_window (GtkWidget *widget, GtkWidget *window, GdkRectangle *rect)
{
  int x = 0, y = 0;

  g_assert_true (gtk_widget_translate_coordinates (widget, window, 0, 0, &x, &y));
  rect->x = x;
  rect->y = y;
  rect->width = gtk_widget_get_allocated_width (widget);
  rect->height = gtk_widget_get_allocated_height (widget);
}

static void
test_process_mode_keeps_window_size (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GPtrArray) paths = NULL;
  GtkWidget *window, *list, *timeline, *scroller;
  GActionGroup *group;
  GdkRectangle list_rect;
  GtkAdjustment *adj;
  int w0, h0, w1, h1, a0;
  guint n_lanes;

  if (etl_test_skip_without_display (have_display))
    return;
  window = GTK_WIDGET (fixture->window);
  paths = write_four_traces (fixture);
  open_and_wait (fixture->window, paths);
  g_assert_nonnull (etl_window_get_trace (fixture->window));
  gtk_window_get_size (GTK_WINDOW (window), &w0, &h0);
  a0 = gtk_widget_get_allocated_height (window);

  group = gtk_widget_get_action_group (window, "timeline");
  g_assert_nonnull (group);
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("process"));
  wait_idle (fixture->window);

  /* Many lanes: more than fit at their smallest height in the pane. */
  n_lanes = etl_window_get_n_lanes (fixture->window);
  g_assert_cmpuint (n_lanes, >, 60);
  timeline = GTK_WIDGET (etl_window_get_timeline (fixture->window));
  scroller = gtk_widget_get_ancestor (timeline, GTK_TYPE_SCROLLED_WINDOW);
  g_assert_nonnull (scroller);
  g_assert_cmpint (gtk_widget_get_allocated_height (timeline), >=, (int) n_lanes * 14);
  g_assert_cmpint (gtk_widget_get_allocated_height (scroller), <, gtk_widget_get_allocated_height (timeline));

  /* The window kept its size... */
  gtk_window_get_size (GTK_WINDOW (window), &w1, &h1);
  g_assert_cmpint (w1, ==, w0);
  g_assert_cmpint (h1, ==, h0);
  g_assert_cmpint (gtk_widget_get_allocated_height (window), ==, a0);

  /* ...the event list is on screen, inside the window, with room for rows... */
  list = GTK_WIDGET (etl_window_get_event_list (fixture->window));
  g_assert_true (gtk_widget_get_mapped (list));
  get_rect_in_window (list, window, &list_rect);
  g_assert_cmpint (list_rect.y, >=, 0);
  g_assert_cmpint (list_rect.y + list_rect.height, <=, gtk_widget_get_allocated_height (window));
  g_assert_cmpint (list_rect.height, >=, 100);

  /* ...and the lanes scroll in their pane: its range is the lanes' height. */
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), ==, gtk_widget_get_allocated_height (timeline));
  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), ==,
                     gtk_adjustment_get_upper (adj) - gtk_adjustment_get_page_size (adj));
  g_assert_cmpfloat (gtk_adjustment_get_value (adj), >, 0);

  /* Back to CPU mode: 4 lanes fill the pane, or scroll at their smallest
   * height when the pane is shorter than that. */
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("cpu"));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 4);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adj), ==, MAX (gtk_adjustment_get_page_size (adj), 4 * 14));
  gtk_window_get_size (GTK_WINDOW (window), &w1, &h1);
  g_assert_cmpint (h1, ==, h0);
}

/* Process mode on net.4.5.2.x64.etl: one lane per process, "name (PID)",
 * most records first, samples attributed through their threads. */
static void
test_process_lanes_net (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  EtlTimelineView *timeline;
  EtlSummary *summary;
  GActionGroup *group;
  guint n, lane_3676 = G_MAXUINT;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  g_ptr_array_add (paths, path);
  open_and_wait (fixture->window, paths);
  group = gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "timeline");
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("process"));
  wait_idle (fixture->window);

  timeline = etl_window_get_timeline (fixture->window);
  summary = etl_timeline_view_get_summary (timeline);
  g_assert_nonnull (summary);
  g_assert_cmpint (etl_summary_get_mode (summary), ==, ETL_LANE_PROCESS);
  n = etl_window_get_n_lanes (fixture->window);
  g_assert_cmpuint (n, ==, etl_summary_get_n_lanes (summary));
  g_test_message ("%u process lanes; first: %s (%" G_GUINT64_FORMAT ")", n, etl_summary_get_lane_label (summary, 0),
                  etl_summary_get_lane_total (summary, 0));
  for (guint lane = 0; lane < n; lane++)
    {
      const char *label = etl_summary_get_lane_label (summary, lane);

      if (g_strcmp0 (label, "Test.x64.exe (3676)") == 0)
        lane_3676 = lane;
      if (lane + 2 < n)
        g_assert_cmpuint (etl_summary_get_lane_total (summary, lane), >=,
                          etl_summary_get_lane_total (summary, lane + 1));
    }
  /* 33 processes of the table with records, PIDs 616 and 988 (not in the
   * table), "No process"; the idle threads' samples lead, then the test. */
  g_assert_cmpuint (n, ==, 36);
  g_assert_cmpstr (etl_summary_get_lane_label (summary, 0), ==, "Idle (0)");
  g_assert_cmpuint (lane_3676, ==, 1);
  g_assert_cmpuint (etl_summary_get_lane_total (summary, 1), ==, 45457);
  g_assert_cmpstr (etl_summary_get_lane_label (summary, 2), ==, "PerfView.exe (3988)");
  g_assert_cmpstr (etl_summary_get_lane_label (summary, n - 1), ==, "No process");
}

/* A primary-button click at (@x, @y) in @widget's window. */
static void
click_at (GtkWidget *widget, double x, double y)
{
  GdkEvent *event = gdk_event_new (GDK_BUTTON_PRESS);

  event->button.window = g_object_ref (gtk_widget_get_window (widget));
  event->button.button = GDK_BUTTON_PRIMARY;
  event->button.x = x;
  event->button.y = y;
  gdk_event_set_device (event, gdk_seat_get_pointer (gdk_display_get_default_seat (gdk_display_get_default ())));
  gtk_widget_event (widget, event);
  gdk_event_free (event);
}

/* Expanding Test.x64.exe (3676) by a click on its label: one lane per
 * thread of it right below, each a thread of pid 3676 in the process table,
 * together holding the process's records; a second click collapses it. */
static void
test_process_expand_threads (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  EtlTimelineView *timeline;
  EtlProcessTable *table;
  EtlSummary *summary;
  GActionGroup *group;
  guint n, n_threads = 0;
  guint64 thread_sum = 0;
  int lane_h;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  g_ptr_array_add (paths, path);
  open_and_wait (fixture->window, paths);
  group = gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "timeline");
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("process"));
  wait_idle (fixture->window);
  timeline = etl_window_get_timeline (fixture->window);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 36);
  summary = etl_timeline_view_get_summary (timeline);
  g_assert_cmpstr (etl_summary_get_lane_label (summary, 1), ==, "Test.x64.exe (3676)");

  /* Click the label of lane 1. */
  lane_h = etl_timeline_view_get_lane_height (timeline, gtk_widget_get_allocated_height (GTK_WIDGET (timeline)));
  click_at (GTK_WIDGET (timeline), 20, lane_h * 1.5);
  g_assert_true (etl_timeline_view_get_process_expanded (timeline, 3676));
  wait_idle (fixture->window);

  summary = etl_timeline_view_get_summary (timeline);
  n = etl_summary_get_n_lanes (summary);
  table = etl_trace_get_process_table (etl_window_get_trace (fixture->window));
  g_assert_cmpstr (etl_summary_get_lane_label (summary, 1), ==, "Test.x64.exe (3676)");
  g_assert_false (etl_summary_get_lane_is_thread (summary, 1));
  for (guint lane = 2; lane < n && etl_summary_get_lane_is_thread (summary, lane); lane++)
    {
      guint32 tid = etl_summary_get_lane_id (summary, lane);
      guint n_all;
      const EtlThread *all = etl_process_table_get_threads (table, &n_all);
      gboolean of_3676 = FALSE;

      for (guint t = 0; t < n_all; t++)
        if (all[t].tid == tid && all[t].pid == 3676)
          of_3676 = TRUE;
      g_assert_true (of_3676);
      g_assert_nonnull (strstr (etl_summary_get_lane_label (summary, lane), "TID "));
      g_assert_cmpuint (etl_summary_get_lane_total (summary, lane), >, 0);
      if (lane > 2)
        g_assert_cmpuint (etl_summary_get_lane_total (summary, lane), <=, etl_summary_get_lane_total (summary, lane - 1));
      thread_sum += etl_summary_get_lane_total (summary, lane);
      n_threads++;
    }
  g_test_message ("Test.x64.exe: %u thread lanes, %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " records", n_threads,
                  thread_sum, etl_summary_get_lane_total (summary, 1));
  g_assert_cmpuint (n_threads, >=, 2);
  g_assert_cmpuint (n, ==, 36 + n_threads);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, n);
  /* Every record of the process but one (no ThreadId) has a thread. */
  g_assert_cmpuint (n_threads, ==, 4);
  g_assert_cmpuint (etl_summary_get_lane_total (summary, 1), ==, 45457);
  g_assert_cmpuint (thread_sum, ==, 45456);
  g_assert_cmpstr (etl_summary_get_lane_label (summary, 2 + n_threads), ==, "PerfView.exe (3988)");

  etl_test_maybe_screenshot (fixture->window, "ETL_LANES_SCREENSHOTS", "process-thread-lanes", wait_idle);

  /* A second click collapses it. */
  click_at (GTK_WIDGET (timeline), 20, lane_h * 1.5);
  g_assert_false (etl_timeline_view_get_process_expanded (timeline, 3676));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 36);
}

/* CPU mode on the synthetic schedule (4 CPUs, 100 ms; see
 * tests/test-cpu-segments.c): the lanes show who ran when.  At 25.025 ms
 * CPU 3 runs delta.exe's thread 4004 and CPU 1 is idle; a click there
 * selects that CSwitch record. */
static void
test_cpu_cswitch_lanes (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  g_autofree char *text = NULL;
  EtlTimelineView *timeline;
  const EtlCpuSegment *seg;
  EtlSynthParams params;
  gint64 t0, t1, origin, at;
  int w, h, lane_h;
  double x;

  if (etl_test_skip_without_display (have_display))
    return;
  fixture->dir = g_dir_make_tmp ("etlscope-lanes-XXXXXX", &error);
  g_assert_no_error (error);
  g_ptr_array_add (paths, g_build_filename (fixture->dir, "schedule.etl", NULL));
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.schedule = TRUE;
  params.schedule_ms = 100;
  g_assert_true (etl_synth_write (&params, g_ptr_array_index (paths, 0), &error));
  g_assert_no_error (error);
  open_and_wait (fixture->window, paths);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 4);

  timeline = etl_window_get_timeline (fixture->window);
  w = gtk_widget_get_allocated_width (GTK_WIDGET (timeline));
  h = gtk_widget_get_allocated_height (GTK_WIDGET (timeline));
  lane_h = etl_timeline_view_get_lane_height (timeline, h);
  etl_window_get_visible_range (fixture->window, &t0, &t1);
  origin = etl_trace_get_origin (etl_window_get_trace (fixture->window));
  at = origin + 25 * 10000 + 250;
  x = ETL_LABEL_COLUMN_WIDTH + (double) (at - t0) / (double) (t1 - t0) * (w - ETL_LABEL_COLUMN_WIDTH);

  seg = etl_timeline_view_segment_at (timeline, x, lane_h * 3.5, w, h);
  g_assert_nonnull (seg);
  g_assert_cmpuint (seg->tid, ==, 4004);
  g_assert_cmpuint (seg->pid, ==, 4000);
  text = etl_timeline_view_dup_segment_text_at (timeline, x, lane_h * 3.5, w, h);
  g_assert_cmpstr (text, ==, "TID 4004 · delta.exe (4000)");
  /* CPU 1 is idle then (slot 6 of its period). */
  g_assert_null (etl_timeline_view_segment_at (timeline, x, lane_h * 1.5, w, h));

  /* A process has the CPU usage graph's colour in the CPU lanes: at 25.6 ms
   * (no record nearby) CPU 3's segment is delta.exe's colour at 55 % over
   * the lane's background, which CPU 1 (idle, same shading) shows. */
  {
    EtlCpuGraph *graph = etl_window_get_cpu_graph (fixture->window);
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create (surface);
    GdkRGBA want;
    const guint8 *pixels;
    int stride, px;
    guint32 seg_px, bg_px;

    while (etl_cpu_graph_is_busy (graph))
      g_main_context_iteration (NULL, TRUE);
    g_assert_true (etl_cpu_graph_get_process_color (graph, 4000, &want));
    g_assert_false (etl_cpu_graph_get_process_color (graph, 4242, &want)); /* no such process */
    g_assert_true (etl_cpu_graph_get_process_color (graph, 4000, &want));
    etl_timeline_view_render (timeline, cr, w, h);
    cairo_surface_flush (surface);
    pixels = cairo_image_surface_get_data (surface);
    stride = cairo_image_surface_get_stride (surface);
    px = (int) (ETL_LABEL_COLUMN_WIDTH + (double) (origin + 256000 - t0) / (double) (t1 - t0) * (w - ETL_LABEL_COLUMN_WIDTH));
    seg_px = *(const guint32 *) (pixels + (gsize) (lane_h * 3 + lane_h / 2) * stride + (gsize) px * 4);
    bg_px = *(const guint32 *) (pixels + (gsize) (lane_h * 1 + lane_h / 2) * stride + (gsize) px * 4);
    for (int shift = 0; shift <= 16; shift += 8)
      {
        double c = shift == 16 ? want.red : shift == 8 ? want.green : want.blue;
        double bg = ((bg_px >> shift) & 0xff) / 255.0;
        double expected = 255.0 * (0.55 * c + 0.45 * bg);

        g_assert_cmpfloat (fabs (((seg_px >> shift) & 0xff) - expected), <=, 3.0);
      }
    cairo_destroy (cr);
    cairo_surface_destroy (surface);
  }

  etl_test_maybe_screenshot (fixture->window, "ETL_LANES_SCREENSHOTS", "cpu-cswitch-lanes", wait_idle);
}

/* The labels of the lanes drawn, through the widget's API. */
static GPtrArray *
drawn_labels (EtlTimelineView *timeline)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  guint n = etl_timeline_view_get_n_lanes (timeline);

  for (guint i = 0; i < n; i++)
    {
      const char *label = etl_timeline_view_get_lane_label (timeline, i);

      g_assert_nonnull (label);
      g_ptr_array_add (labels, g_strdup (label));
    }
  g_assert_null (etl_timeline_view_get_lane_label (timeline, n));
  return labels;
}

/* All the summary's lanes. */
static GPtrArray *
expected_labels (EtlSummary *summary, gpointer unused)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);

  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    g_ptr_array_add (labels, g_strdup (etl_summary_get_lane_label (summary, lane)));
  return labels;
}

static void
assert_labels (GPtrArray *got, GPtrArray *want)
{
  for (guint i = 0; i < MAX (got->len, want->len); i++)
    g_test_message ("lane %u: drawn %s, expected %s", i, i < got->len ? (char *) g_ptr_array_index (got, i) : "-",
                    i < want->len ? (char *) g_ptr_array_index (want, i) : "-");
  g_assert_cmpuint (got->len, ==, want->len);
  for (guint i = 0; i < want->len; i++)
    g_assert_cmpstr (g_ptr_array_index (got, i), ==, g_ptr_array_index (want, i));
}

/* In the schedule, delta.exe (4000; thread 4004) lives from 20 to 70 ms. */
static gboolean
is_delta_lane (EtlSummary *summary, guint lane)
{
  guint id = etl_summary_get_lane_id (summary, lane);

  return etl_summary_get_lane_is_thread (summary, lane) ? id == 4004 : id == 4000;
}

/* Independently of the view: the lanes of @summary with no record in
 * [@begin, @end).  Process, provider and CPU lanes from the records
 * themselves (etl_summary_get_lane_of_row(): a process lane counts every
 * record of the process); thread lanes from the schedule, which runs 1004,
 * 1008, 2004, 3004 and 3008 in every 10 ms and 4004 only from 20 to 70 ms,
 * and logs records of thread 0 of a process (its Process and Image records)
 * only at 0, 20, 70 and 100 ms. */
static gboolean *
empty_lanes (EtlTrace *trace, EtlSummary *summary, gint64 begin, gint64 end)
{
  guint n = etl_summary_get_n_lanes (summary);
  gboolean *empty = g_new (gboolean, n);

  for (guint lane = 0; lane < n; lane++)
    empty[lane] = TRUE;
  for (guint64 row = etl_trace_lower_bound (trace, begin); row < etl_trace_lower_bound (trace, end); row++)
    empty[etl_summary_get_lane_of_row (summary, trace, row)] = FALSE;
  for (guint lane = 0; lane < n; lane++)
    if (etl_summary_get_lane_is_thread (summary, lane))
      {
        guint tid = etl_summary_get_lane_id (summary, lane);

        g_assert_cmpint (etl_summary_get_mode (summary), ==, ETL_LANE_PROCESS);
        empty[lane] = tid == 0 || tid == 4004;
      }
  return empty;
}

static GPtrArray *
labels_except (EtlSummary *summary, const gboolean *empty)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);

  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    if (!empty[lane])
      g_ptr_array_add (labels, g_strdup (etl_summary_get_lane_label (summary, lane)));
  return labels;
}

static void
set_hide_empty (EtlWindow *window, gboolean hide)
{
  GActionGroup *group = gtk_widget_get_action_group (GTK_WIDGET (window), "timeline");
  g_autoptr (GVariant) state = NULL;

  g_action_group_change_action_state (group, "hide-empty-lanes", g_variant_new_boolean (hide));
  state = g_action_group_get_action_state (group, "hide-empty-lanes");
  g_assert_cmpint (g_variant_get_boolean (state), ==, hide);
  g_assert_cmpint (etl_timeline_view_get_hide_empty_lanes (etl_window_get_timeline (window)), ==, hide);
  wait_idle (window);
}

/* "Lanes with no event in the visible range can be hidden": the synthetic
 * schedule in Process mode (alpha.exe and delta.exe expanded into their
 * threads) zoomed to 72–99 ms, after delta.exe ended: with the toggle on,
 * exactly the lanes with no record there (counted from the records in the
 * test) are gone, delta.exe's lane and its thread's among them, the others
 * alpha, beta, gamma and Idle kept in order; zoomed out again they are
 * back; with the toggle off, always all.  The same in Provider mode, where
 * Image and Process have no record in that range; and the toggle is kept
 * in state.ini. */
static void
test_hide_empty_lanes (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) all = NULL;
  g_autoptr (GPtrArray) got = NULL;
  g_autoptr (GPtrArray) want = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autofree char *state_path = NULL;
  g_autofree gboolean *empty = NULL;
  EtlTrace *trace;
  EtlTimelineView *timeline;
  EtlZoomManager *zoom;
  EtlSummary *summary;
  EtlSynthParams params;
  GActionGroup *group;
  gint64 origin, begin, end;
  guint n_delta = 0;

  if (etl_test_skip_without_display (have_display))
    return;
  fixture->dir = g_dir_make_tmp ("etlscope-lanes-XXXXXX", &error);
  g_assert_no_error (error);
  g_ptr_array_add (paths, g_build_filename (fixture->dir, "schedule.etl", NULL));
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.schedule = TRUE;
  params.schedule_ms = 100;
  g_assert_true (etl_synth_write (&params, g_ptr_array_index (paths, 0), &error));
  g_assert_no_error (error);
  open_and_wait (fixture->window, paths);

  timeline = etl_window_get_timeline (fixture->window);
  zoom = etl_timeline_view_get_zoom_manager (timeline);
  group = gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "timeline");
  g_assert_true (g_action_group_has_action (group, "hide-empty-lanes"));
  g_assert_false (etl_timeline_view_get_hide_empty_lanes (timeline));
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("process"));
  etl_timeline_view_set_process_expanded (timeline, 1000, TRUE);
  etl_timeline_view_set_process_expanded (timeline, 4000, TRUE);
  wait_idle (fixture->window);
  summary = etl_timeline_view_get_summary (timeline);
  g_assert_cmpint (etl_summary_get_mode (summary), ==, ETL_LANE_PROCESS);
  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    n_delta += is_delta_lane (summary, lane);
  g_assert_cmpuint (n_delta, ==, 2); /* delta.exe (4000) and its thread 4004 */
  all = expected_labels (summary, NULL);

  /* The whole trace in view: every lane has events, toggle or not. */
  got = drawn_labels (timeline);
  assert_labels (got, all);
  set_hide_empty (fixture->window, TRUE);
  g_clear_pointer (&got, g_ptr_array_unref);
  got = drawn_labels (timeline);
  assert_labels (got, all);

  /* Zoomed to 72–99 ms: delta.exe's lanes go. */
  trace = etl_window_get_trace (fixture->window);
  origin = etl_trace_get_origin (trace);
  begin = origin + 72 * 10000;
  end = origin + 99 * 10000;
  etl_zoom_manager_set_visible (zoom, begin, end);
  wait_idle (fixture->window);
  empty = empty_lanes (trace, summary, begin, end);
  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    if (is_delta_lane (summary, lane))
      g_assert_true (empty[lane]);
    else if (!etl_summary_get_lane_is_thread (summary, lane) && etl_summary_get_lane_id (summary, lane) != 1234)
      g_assert_false (empty[lane]); /* Idle, alpha, beta, gamma run there */
  want = labels_except (summary, empty);
  g_assert_cmpuint (want->len, <=, all->len - 2);
  g_assert_cmpuint (want->len, >=, 5);
  g_clear_pointer (&got, g_ptr_array_unref);
  got = drawn_labels (timeline);
  assert_labels (got, want);
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, want->len);
  etl_test_maybe_screenshot (fixture->window, "ETL_LANES_SCREENSHOTS", "hide-empty-lanes", wait_idle);

  /* Toggle off: back, in the same range. */
  set_hide_empty (fixture->window, FALSE);
  g_clear_pointer (&got, g_ptr_array_unref);
  got = drawn_labels (timeline);
  assert_labels (got, all);

  /* On again, then zoomed out to the whole trace: back as well. */
  set_hide_empty (fixture->window, TRUE);
  g_clear_pointer (&got, g_ptr_array_unref);
  got = drawn_labels (timeline);
  assert_labels (got, want);
  etl_zoom_manager_set_visible (zoom, origin, origin + 100 * 10000);
  wait_idle (fixture->window);
  g_clear_pointer (&got, g_ptr_array_unref);
  got = drawn_labels (timeline);
  assert_labels (got, all);

  /* Provider mode, 72–99 ms: Image and Process have nothing there. */
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("provider"));
  wait_idle (fixture->window);
  etl_zoom_manager_set_visible (zoom, begin, end);
  wait_idle (fixture->window);
  summary = etl_timeline_view_get_summary (timeline);
  g_assert_cmpint (etl_summary_get_mode (summary), ==, ETL_LANE_PROVIDER);
  g_clear_pointer (&all, g_ptr_array_unref);
  g_clear_pointer (&want, g_ptr_array_unref);
  all = expected_labels (summary, NULL);
  g_free (empty);
  empty = empty_lanes (trace, summary, begin, end);
  want = labels_except (summary, empty);
  g_assert_cmpuint (want->len, <=, all->len - 2);
  for (guint i = 0; i < want->len; i++)
    {
      g_assert_cmpstr (g_ptr_array_index (want, i), !=, "Image");
      g_assert_cmpstr (g_ptr_array_index (want, i), !=, "Process");
    }
  g_clear_pointer (&got, g_ptr_array_unref);
  got = drawn_labels (timeline);
  assert_labels (got, want);
  set_hide_empty (fixture->window, FALSE);
  g_clear_pointer (&got, g_ptr_array_unref);
  got = drawn_labels (timeline);
  assert_labels (got, all);

  /* Kept with the other view settings. */
  set_hide_empty (fixture->window, TRUE);
  g_assert_true (etl_window_save_state (fixture->window, &error));
  g_assert_no_error (error);
  state_path = g_build_filename (g_get_user_config_dir (), "etlscope", "state.ini", NULL);
  g_assert_true (g_key_file_load_from_file (kf, state_path, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (g_key_file_get_boolean (kf, "timeline", "hide-empty-lanes", &error));
  g_assert_no_error (error);
  set_hide_empty (fixture->window, FALSE);
  g_assert_true (etl_window_save_state (fixture->window, &error));
  g_assert_true (g_key_file_load_from_file (kf, state_path, G_KEY_FILE_NONE, &error));
  g_assert_false (g_key_file_get_boolean (kf, "timeline", "hide-empty-lanes", &error));
  g_assert_no_error (error);
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = NULL;
  int status;

  /* Before GTK reads them: recent files and state.ini stay in @xdg. */
  xdg = etl_test_private_xdg ("etlscope-lanes-gui-XXXXXX");
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add ("/etl/gui/lanes/process-mode-keeps-window-size", Fixture, NULL, fixture_setup,
              test_process_mode_keeps_window_size, fixture_teardown);
  g_test_add ("/etl/gui/lanes/process-lanes-net", Fixture, NULL, fixture_setup, test_process_lanes_net,
              fixture_teardown);
  g_test_add ("/etl/gui/lanes/process-expand-threads", Fixture, NULL, fixture_setup, test_process_expand_threads,
              fixture_teardown);
  g_test_add ("/etl/gui/lanes/hide-empty-lanes", Fixture, NULL, fixture_setup, test_hide_empty_lanes,
              fixture_teardown);
  g_test_add ("/etl/gui/lanes/cpu-cswitch-segments", Fixture, NULL, fixture_setup, test_cpu_cswitch_lanes,
              fixture_teardown);
  status = g_test_run ();
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return status;
}
