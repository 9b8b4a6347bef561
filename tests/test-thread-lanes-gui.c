/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Thread lanes' states in the timeline (issue 20): Process mode with the
 * processes of the synthetic waits schedule (etl-synth-waits.c; the states
 * are restated in tests/test-thread-states.c) expanded, the thread lanes
 * show Running, Ready and Waiting at the pixel columns of their times; a
 * wait's tooltip names its reason and waker; "go to the waker" selects the
 * ReadyThread record that ended the wait.  Run under Xvfb; skipped without
 * a display. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-synth.h"
#include "etl-test-gui-util.h"
#include "etl-precise-view.h"
#include "etl-thread-lanes.h"
#include "etl-view-panel.h"
#include "etl-window.h"

#define MS G_GINT64_CONSTANT (10000) /* 100-ns ticks in a millisecond */
#define S  (1 * MS)                  /* the schedule's start after the origin */
#define T(x) ((gint64) (x) * 1000)   /* 0.1 ms after S */

static gboolean have_display;

static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_timeline_idle (window);
}

/* The x of FILETIME @t in the timeline showing [@t0, @t1). */
static double
x_of (EtlTimelineView *timeline, gint64 t0, gint64 t1, gint64 t)
{
  int axis_w = gtk_widget_get_allocated_width (GTK_WIDGET (timeline)) - ETL_LABEL_COLUMN_WIDTH;

  return ETL_LABEL_COLUMN_WIDTH + (double) (t - t0) / (double) (t1 - t0) * axis_w + 0.5;
}

/* The drawn lane of thread @tid (all lanes shown). */
static guint
lane_of_thread (EtlTimelineView *timeline, guint32 tid)
{
  EtlSummary *summary = etl_timeline_view_get_summary (timeline);

  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    if (etl_summary_get_lane_is_thread (summary, lane) && etl_summary_get_lane_id (summary, lane) == tid)
      return lane;
  return G_MAXUINT;
}

/* The RGB of the pixel at (@x, @y) of the timeline rendered whole. */
static void
pixel_at (EtlTimelineView *timeline, double x, double y, guint *r, guint *g, guint *b)
{
  int width = gtk_widget_get_allocated_width (GTK_WIDGET (timeline));
  int height = gtk_widget_get_allocated_height (GTK_WIDGET (timeline));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (surface);
  const guint8 *data;
  guint32 px;

  cairo_set_source_rgb (cr, 1, 1, 1); /* the window's background */
  cairo_paint (cr);
  etl_timeline_view_render (timeline, cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  px = *(const guint32 *) (data + (gsize) y * cairo_image_surface_get_stride (surface) + (gsize) x * 4);
  *r = (px >> 16) & 0xff;
  *g = (px >> 8) & 0xff;
  *b = px & 0xff;
  cairo_surface_destroy (surface);
}

typedef struct
{
  guint32 tid;
  gint64 mid; /* 0.1 ms after S, inside the state */
  EtlThreadStateKind kind;
} Want;

static void
test_thread_lanes (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *tip = NULL;
  g_autofree char *tip_run = NULL;
  EtlWindow *window;
  EtlTimelineView *timeline;
  EtlPreciseView *precise;
  EtlZoomManager *zoom;
  EtlTrace *trace;
  EtlSynthParams params;
  EtlRecord rec = { 0 };
  const EtlThreadState *st;
  GActionGroup *group;
  gint64 origin, t0, t1;
  guint64 row;
  int lane_h, height;
  guint lane_1004, lane_3004;
  /* Middles of states of test-thread-states.c's table. */
  static const Want want[] = {
    { 1004, 5, ETL_THREAD_STATE_RUNNING },  { 1004, 25, ETL_THREAD_STATE_WAITING },
    { 1004, 46, ETL_THREAD_STATE_RUNNING }, { 1004, 56, ETL_THREAD_STATE_WAITING },
    { 2004, 15, ETL_THREAD_STATE_WAITING }, { 2004, 26, ETL_THREAD_STATE_READY },
    { 2004, 31, ETL_THREAD_STATE_RUNNING }, { 2004, 55, ETL_THREAD_STATE_READY },
    { 3004, 8, ETL_THREAD_STATE_RUNNING },  { 3004, 21, ETL_THREAD_STATE_WAITING },
    { 3004, 33, ETL_THREAD_STATE_READY },   { 3004, 46, ETL_THREAD_STATE_READY },
    { 1008, 12, ETL_THREAD_STATE_RUNNING }, { 1008, 17, ETL_THREAD_STATE_WAITING },
  };

  if (etl_test_skip_without_display (have_display))
    return;
  dir = g_dir_make_tmp ("etlscope-thread-lanes-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "waits.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.waits = TRUE;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);

  window = etl_test_window_new (1200, 800);
  etl_test_window_open (window, (const char *const[]) { path }, 1);
  wait_idle (window);

  timeline = etl_window_get_timeline (window);
  trace = etl_window_get_trace (window);
  g_assert_nonnull (trace);
  g_assert_null (etl_timeline_view_get_thread_states (timeline)); /* CPU mode: not built */
  group = gtk_widget_get_action_group (GTK_WIDGET (window), "timeline");
  g_action_group_activate_action (group, "lane-mode", g_variant_new_string ("process"));
  etl_timeline_view_set_process_expanded (timeline, 1000, TRUE);
  etl_timeline_view_set_process_expanded (timeline, 2000, TRUE);
  etl_timeline_view_set_process_expanded (timeline, 3000, TRUE);
  wait_idle (window);
  g_assert_nonnull (etl_timeline_view_get_thread_states (timeline));
  /* One build, shared: the CPU Usage (Precise) table has the same states
   * (etl_thread_states_get_shared()). */
  precise = ETL_PRECISE_VIEW (etl_view_panel_get_view_widget (etl_window_get_view_panel (window), "precise"));
  while (etl_precise_view_is_busy (precise))
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (etl_precise_view_get_states (precise) == etl_timeline_view_get_thread_states (timeline));

  origin = etl_trace_get_origin (trace);
  zoom = etl_timeline_view_get_zoom_manager (timeline);
  t0 = origin + S - T (2);
  t1 = origin + S + T (62);
  etl_zoom_manager_set_visible (zoom, t0, t1);
  wait_idle (window);
  etl_zoom_manager_get_visible (zoom, &t0, &t1);

  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      st = etl_timeline_view_thread_state_at (timeline, want[i].tid,
                                              x_of (timeline, t0, t1, origin + S + T (want[i].mid)));
      g_assert_nonnull (st);
      g_assert_cmpstr (etl_thread_state_kind_name (st->kind), ==, etl_thread_state_kind_name (want[i].kind));
      g_assert_cmpint (st->start, <=, origin + S + T (want[i].mid));
      g_assert_cmpint (st->end, >, origin + S + T (want[i].mid));
    }
  /* Before the schedule and in the label column: nothing. */
  g_assert_null (etl_timeline_view_thread_state_at (timeline, 1004, x_of (timeline, t0, t1, origin + S - T (1))));
  g_assert_null (etl_timeline_view_thread_state_at (timeline, 1004, 10));

  /* The tooltip over 1004's wait (1.0–4.0 ms, reason 37, readied by 3004
   * of process 3000); over its run, none of that. */
  lane_1004 = lane_of_thread (timeline, 1004);
  lane_3004 = lane_of_thread (timeline, 3004);
  g_assert_cmpuint (lane_1004, !=, G_MAXUINT);
  g_assert_cmpuint (lane_3004, !=, G_MAXUINT);
  height = gtk_widget_get_allocated_height (GTK_WIDGET (timeline));
  lane_h = etl_timeline_view_get_lane_height (timeline, height);
  tip = etl_timeline_view_dup_tooltip_at (timeline, x_of (timeline, t0, t1, origin + S + T (25)),
                                          lane_1004 * lane_h + lane_h / 2.0,
                                          gtk_widget_get_allocated_width (GTK_WIDGET (timeline)), height);
  g_assert_nonnull (tip);
  g_assert_nonnull (strstr (tip, "Waiting"));
  g_assert_nonnull (strstr (tip, "3.0"));  /* 3.0 ms */
  g_assert_nonnull (strstr (tip, "37"));
  g_assert_nonnull (strstr (tip, "TID 3004"));
  g_assert_nonnull (strstr (tip, "3000"));
  /* Drawn: 1004's run on CPU 0 at 0.5 ms in CPU 0's colour (blue,
   * #3465a4), its wait at 2.5 ms grey (pale), as is 2004's Ready hatch
   * at 2.65 ms (2004's lane is further down). */
  {
    guint r, g, b;
    double mid_1004 = lane_1004 * lane_h + lane_h / 2.0;

    pixel_at (timeline, x_of (timeline, t0, t1, origin + S + T (5)), mid_1004, &r, &g, &b);
    g_assert_cmpuint (b, >, r + 60);
    pixel_at (timeline, x_of (timeline, t0, t1, origin + S + T (25)), mid_1004, &r, &g, &b);
    g_test_message ("wait pixel %u %u %u", r, g, b);
    g_assert_cmpuint (MAX (r, b) - MIN (r, b), <, 16);
    /* Darker than the lane and its lifetime shading (233): 200-ish on
     * Linux, 227 with the Windows build's theme under Wine. */
    g_assert_cmpuint (r, <, 231);
    g_assert_cmpuint (r, >, 150); /* paler than a run */
    pixel_at (timeline, x_of (timeline, t0, t1, origin + S + T (46)), mid_1004, &r, &g, &b);
    g_assert_cmpuint (r, >, b + 60); /* CPU 1: orange, #f57900 */
  }
  tip_run = etl_timeline_view_dup_tooltip_at (timeline, x_of (timeline, t0, t1, origin + S + T (5)),
                                              lane_1004 * lane_h + lane_h / 2.0,
                                              gtk_widget_get_allocated_width (GTK_WIDGET (timeline)), height);
  g_assert_true (tip_run == NULL || strstr (tip_run, "Waiting") == NULL);

  /* Go to the waker: nothing selected, nothing to go to; 1004's wait
   * (state 1): the ReadyThread at 4.0 ms, logged by thread 3004. */
  g_assert_false (g_action_group_get_action_enabled (group, "go-to-waker"));
  g_assert_cmpuint (etl_timeline_view_go_to_waker (timeline), ==, ETL_TIMELINE_NO_ROW);
  etl_timeline_view_select_thread_state (timeline, 1004, 1);
  g_assert_true (g_action_group_get_action_enabled (group, "go-to-waker"));
  etl_test_maybe_screenshot (window, "ETL_THREAD_LANES_SCREENSHOTS", "thread-states", wait_idle);
  row = etl_timeline_view_go_to_waker (timeline);
  g_assert_cmpuint (row, !=, ETL_TIMELINE_NO_ROW);
  g_assert_cmpuint (etl_timeline_view_get_selected_row (timeline), ==, row);
  g_assert_cmpint (etl_trace_get_filetime (trace, row), ==, origin + S + T (40));
  g_assert_true (etl_trace_get_record (trace, row, &rec, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (rec.opcode, ==, 50); /* ReadyThread */
  g_assert_cmpuint (rec.tid, ==, 3004);
  etl_record_clear (&rec);

  /* A wait readied by a DPC (1008's, 1.5–2.0 ms): no waker thread to go to
   * but the ReadyThread record; a wait never readied: nothing. */
  etl_timeline_view_select_thread_state (timeline, 1008, 1);
  row = etl_timeline_view_go_to_waker (timeline);
  g_assert_cmpuint (row, !=, ETL_TIMELINE_NO_ROW);
  g_assert_cmpint (etl_trace_get_filetime (trace, row), ==, origin + S + T (20));
  etl_timeline_view_select_thread_state (timeline, 1004, 4);
  g_assert_false (g_action_group_get_action_enabled (group, "go-to-waker"));
  g_assert_cmpuint (etl_timeline_view_go_to_waker (timeline), ==, ETL_TIMELINE_NO_ROW);

  etl_test_window_clear (&window);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_autofree char *xdg = NULL;
  int status;

  /* Before GTK reads them: recent files and state.ini stay in @xdg. */
  xdg = etl_test_private_xdg ("etlscope-thread-lanes-gui-XXXXXX");
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();
  g_test_add_func ("/etl/gui/thread-lanes/states-and-waker", test_thread_lanes);
  status = g_test_run ();
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return status;
}
