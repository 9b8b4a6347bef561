/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Render the trace widgets into cairo image surfaces and check pixels. */

#include "config.h"

#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>

#include <gtk/gtk.h>

#include "etl-loss-plot.h"
#include "etl-precise-details.h"
#include "etl-summary.h"
#include "etl-test-gui-util.h"
#include "etl-test-util.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-zoom-manager.h"

#define WIDTH 1000
#define HEIGHT 400

static gboolean have_display;

static EtlTrace *
open_corpus (const char *name)
{
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;
  const char *paths[] = { NULL, NULL };
  EtlTrace *trace;

  if (!have_display)
    {
      g_test_skip ("no display (gtk_init_check failed); run under xvfb-run");
      return NULL;
    }
  path = etl_test_corpus_path (name);
  if (path == NULL)
    return NULL;
  paths[0] = path;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static guint32
pixel_at (cairo_surface_t *surface, int x, int y)
{
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (x, <, cairo_image_surface_get_width (surface));
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (y, <, cairo_image_surface_get_height (surface));
  return *(const guint32 *) (const void *) (data + (gsize) y * stride + (gsize) x * 4);
}

/* Every pixel column of every lane: non-background where the summary counted
 * events, background (the colour of the same lane in the margin before the
 * first record) where it did not. */
static void
test_timeline_pixels (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlSummary) summary = NULL;
  g_autoptr (EtlZoomManager) zoom = NULL;
  g_autofree guint32 *counts = NULL;
  cairo_surface_t *surface;
  GtkWidget *view;
  cairo_t *cr;
  gint64 t0, t1;
  int axis_w = WIDTH - ETL_LABEL_COLUMN_WIDTH, lane_h, margin_col;
  guint n_lanes;

  if (trace == NULL)
    return;

  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, NULL);
  zoom = etl_zoom_manager_new ();
  etl_zoom_manager_set_bounds (zoom, etl_trace_get_first_filetime (trace), etl_trace_get_last_filetime (trace) + 1);
  view = g_object_ref_sink (etl_timeline_view_new (zoom));
  etl_timeline_view_set_trace (ETL_TIMELINE_VIEW (view), trace, summary);
  n_lanes = etl_timeline_view_get_n_lanes (ETL_TIMELINE_VIEW (view));
  g_assert_cmpuint (n_lanes, ==, 8);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cr = cairo_create (surface);
  etl_timeline_view_render (ETL_TIMELINE_VIEW (view), cr, WIDTH, HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  etl_zoom_manager_get_visible (zoom, &t0, &t1);
  counts = g_new (guint32, (gsize) n_lanes * axis_w);
  etl_summary_query (summary, t0, t1, axis_w, counts, NULL);
  lane_h = etl_timeline_view_get_lane_height (ETL_TIMELINE_VIEW (view), HEIGHT);

  /* The 1 % margin before the first record is empty in every lane. */
  margin_col = 2;
  g_assert_cmpint (etl_zoom_manager_x_to_time (zoom, margin_col + 1, axis_w), <, etl_trace_get_first_filetime (trace));

  for (guint lane = 0; lane < n_lanes; lane++)
    {
      int y = lane * lane_h + lane_h / 2;
      guint32 background = pixel_at (surface, ETL_LABEL_COLUMN_WIDTH + margin_col, y);
      guint n_marked = 0, n_empty = 0;

      g_assert_cmpuint (counts[lane * axis_w + margin_col], ==, 0);
      for (int col = 0; col < axis_w; col++)
        {
          guint32 px = pixel_at (surface, ETL_LABEL_COLUMN_WIDTH + col, y);

          if (counts[lane * axis_w + col] > 0)
            {
              g_assert_cmphex (px, !=, background);
              n_marked++;
            }
          else
            {
              g_assert_cmphex (px, ==, background);
              n_empty++;
            }
        }
      /* Each CPU of this trace has events and empty stretches (after 10 s). */
      g_assert_cmpuint (n_marked, >, 100);
      g_assert_cmpuint (n_empty, >, 10);
    }

  cairo_surface_destroy (surface);
  g_object_unref (view);
}

/* Zoomed into a quiet stretch the lanes stay background. */
static void
test_timeline_empty_region (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("AMSITrace.etl");
  g_autoptr (EtlSummary) summary = NULL;
  g_autoptr (EtlZoomManager) zoom = NULL;
  cairo_surface_t *empty, *with_trace;
  GtkWidget *view;
  cairo_t *cr;
  gint64 first, last;

  if (trace == NULL)
    return;

  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, NULL);
  zoom = etl_zoom_manager_new ();
  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace);
  etl_zoom_manager_set_bounds (zoom, first, last + 1);
  view = g_object_ref_sink (etl_timeline_view_new (zoom));
  etl_timeline_view_set_trace (ETL_TIMELINE_VIEW (view), trace, summary);

  /* AMSITrace.etl has no record between 1 s and 20 s after its first. */
  etl_zoom_manager_set_visible (zoom, first + 10000000, first + 150000000);
  g_assert_cmpuint (etl_trace_lower_bound (trace, first + 10000000), ==,
                    etl_trace_lower_bound (trace, first + 150000000));

  with_trace = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cr = cairo_create (with_trace);
  etl_timeline_view_render (ETL_TIMELINE_VIEW (view), cr, WIDTH, HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (with_trace);

  /* The same view showing the range, with no event in it, pixel by pixel
   * in the plot area: lane shading and separators only. */
  empty = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, HEIGHT);
  cr = cairo_create (empty);
  etl_zoom_manager_set_visible (zoom, first + 20000000, first + 160000000);
  g_assert_cmpuint (etl_trace_lower_bound (trace, first + 20000000), ==,
                    etl_trace_lower_bound (trace, first + 160000000));
  etl_timeline_view_render (ETL_TIMELINE_VIEW (view), cr, WIDTH, HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (empty);

  for (int y = 0; y < HEIGHT; y += 3)
    for (int x = ETL_LABEL_COLUMN_WIDTH; x < WIDTH; x += 7)
      g_assert_cmphex (pixel_at (with_trace, x, y), ==, pixel_at (empty, x, y));

  /* Lane rows: each row is one colour across the plot area. */
  for (int y = 0; y < HEIGHT; y += 5)
    for (int x = ETL_LABEL_COLUMN_WIDTH + 1; x < WIDTH; x += 11)
      g_assert_cmphex (pixel_at (empty, x, y), ==, pixel_at (empty, ETL_LABEL_COLUMN_WIDTH, y));

  cairo_surface_destroy (with_trace);
  cairo_surface_destroy (empty);
  g_object_unref (view);
}

/* A view of net.4.5.2.x64.etl, fully zoomed out, with its CPU summary. */
typedef struct
{
  EtlTrace *trace;
  EtlZoomManager *zoom;
  GtkWidget *view;
} Timeline;

static gboolean
timeline_setup (Timeline *tl)
{
  g_autoptr (EtlSummary) summary = NULL;

  tl->trace = open_corpus ("net.4.5.2.x64.etl");
  if (tl->trace == NULL)
    return FALSE;
  summary = etl_summary_new (tl->trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, NULL);
  tl->zoom = etl_zoom_manager_new ();
  etl_zoom_manager_set_bounds (tl->zoom, etl_trace_get_first_filetime (tl->trace),
                               etl_trace_get_last_filetime (tl->trace) + 1);
  tl->view = g_object_ref_sink (etl_timeline_view_new (tl->zoom));
  etl_timeline_view_set_trace (ETL_TIMELINE_VIEW (tl->view), tl->trace, summary);
  return TRUE;
}

static void
timeline_teardown (Timeline *tl)
{
  g_clear_object (&tl->view);
  g_clear_object (&tl->zoom);
  g_clear_pointer (&tl->trace, etl_trace_unref);
}

static void
wait_idle (EtlTimelineView *view)
{
  while (etl_timeline_view_is_busy (view))
    g_main_context_iteration (NULL, TRUE);
}

static cairo_surface_t *
render (GtkWidget *view, int width, int height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (surface);

  etl_timeline_view_render (ETL_TIMELINE_VIEW (view), cr, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static int
time_to_px (EtlZoomManager *zoom, gint64 t, int width)
{
  return ETL_LABEL_COLUMN_WIDTH + (int) floor (etl_zoom_manager_time_to_x (zoom, t, width - ETL_LABEL_COLUMN_WIDTH));
}

/* A row of @cpu near the middle of the trace. */
static guint64
row_of_cpu (EtlTrace *trace, guint cpu)
{
  guint64 n = etl_trace_get_n_records (trace);

  for (guint64 i = n / 2; i < n; i++)
    if (etl_trace_get_cpu (trace, i) == cpu)
      return i;
  g_assert_not_reached ();
  return 0;
}

/* The selected record: a marker in its lane at its x, nothing without it;
 * centring keeps the zoom level and puts the record in the middle. */
static void
test_timeline_selected_row (void)
{
  Timeline tl = { 0 };
  EtlTimelineView *view;
  cairo_surface_t *before, *after;
  gint64 t0, t1, t0b, t1b, t;
  guint64 row;
  guint lane;
  int x, lane_h, y;

  if (!timeline_setup (&tl))
    return;
  view = ETL_TIMELINE_VIEW (tl.view);
  g_assert_cmpuint (etl_timeline_view_get_selected_row (view), ==, G_MAXUINT64);

  /* Zoom in a little, then select and centre a record of CPU 2. */
  etl_zoom_manager_zoom_in (tl.zoom);
  etl_zoom_manager_zoom_in (tl.zoom);
  etl_zoom_manager_get_visible (tl.zoom, &t0, &t1);
  row = row_of_cpu (tl.trace, 2);
  t = etl_trace_get_filetime (tl.trace, row);
  before = render (tl.view, WIDTH, HEIGHT);
  etl_timeline_view_select_row (view, row, TRUE);
  g_assert_cmpuint (etl_timeline_view_get_selected_row (view), ==, row);
  etl_zoom_manager_get_visible (tl.zoom, &t0b, &t1b);
  g_assert_cmpint (t1b - t0b, ==, t1 - t0);
  g_assert_cmpint (t0b + (t1b - t0b) / 2, <=, t + 1);
  g_assert_cmpint (t0b + (t1b - t0b) / 2, >=, t - 1);

  g_clear_pointer (&before, cairo_surface_destroy);
  etl_timeline_view_select_row (view, G_MAXUINT64, FALSE);
  before = render (tl.view, WIDTH, HEIGHT);
  etl_timeline_view_select_row (view, row, FALSE);
  after = render (tl.view, WIDTH, HEIGHT);

  lane = etl_timeline_view_get_lane_of_row (view, row);
  g_assert_cmpuint (lane, ==, 2);
  lane_h = etl_timeline_view_get_lane_height (view, HEIGHT);
  x = time_to_px (tl.zoom, t, WIDTH);
  g_assert_cmpint (abs (x - (ETL_LABEL_COLUMN_WIDTH + (WIDTH - ETL_LABEL_COLUMN_WIDTH) / 2)), <=, 1);

  /* The marker is one solid colour down its lane, not the background. */
  y = lane * lane_h;
  g_assert_cmphex (pixel_at (after, x, y + lane_h / 2), ==, pixel_at (after, x, y + 2));
  g_assert_cmphex (pixel_at (after, x, y + lane_h - 3), ==, pixel_at (after, x, y + 2));
  g_assert_cmphex (pixel_at (after, x, y + 2), !=, pixel_at (before, x, y + 2));
  g_assert_cmphex (pixel_at (after, x - 1, y + lane_h / 2), ==, pixel_at (after, x, y + 2));
  /* Away from it the two frames are the same. */
  for (int yy = 0; yy < HEIGHT; yy += 3)
    for (int xx = ETL_LABEL_COLUMN_WIDTH; xx < WIDTH; xx += 5)
      if (abs (xx - x) > 6)
        g_assert_cmphex (pixel_at (after, xx, yy), ==, pixel_at (before, xx, yy));

  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  timeline_teardown (&tl);
}

static void
on_range_selected (EtlTimelineView *view, gint64 begin, gint64 end, gint64 *out)
{
  out[0] = begin;
  out[1] = end;
  out[2]++;
}

/* The selected range: translucent between its x bounds (below its label),
 * nothing outside; its count comes from the index; Z zooms to it. */
static void
test_timeline_range_selection (void)
{
  Timeline tl = { 0 };
  EtlTimelineView *view;
  cairo_surface_t *before, *after;
  GActionGroup *actions;
  gint64 t0, t1, a, b, got_a = 0, got_b = 0, v0, v1;
  gint64 signalled[3] = { 0, 0, 0 };
  int xa, xb, axis_w = WIDTH - ETL_LABEL_COLUMN_WIDTH;

  if (!timeline_setup (&tl))
    return;
  view = ETL_TIMELINE_VIEW (tl.view);
  g_signal_connect (view, "range-selected", G_CALLBACK (on_range_selected), signalled);
  actions = gtk_widget_get_action_group (tl.view, "timeline");
  g_assert_nonnull (actions);
  g_assert_false (g_action_group_get_action_enabled (actions, "zoom-to-selection"));
  g_assert_false (etl_timeline_view_get_selection (view, NULL, NULL));

  etl_zoom_manager_get_visible (tl.zoom, &t0, &t1);
  a = etl_zoom_manager_x_to_time (tl.zoom, axis_w * 0.3, axis_w);
  b = etl_zoom_manager_x_to_time (tl.zoom, axis_w * 0.6, axis_w);
  before = render (tl.view, WIDTH, HEIGHT);
  etl_timeline_view_set_selection (view, b, a);
  g_assert_true (etl_timeline_view_get_selection (view, &got_a, &got_b));
  g_assert_cmpint (got_a, ==, a);
  g_assert_cmpint (got_b, ==, b);
  g_assert_cmpint (signalled[2], ==, 1);
  g_assert_cmpint (signalled[0], ==, a);
  g_assert_cmpint (signalled[1], ==, b);
  g_assert_cmpuint (etl_timeline_view_get_selection_count (view), ==,
                    etl_trace_lower_bound (tl.trace, b) - etl_trace_lower_bound (tl.trace, a));
  g_assert_cmpuint (etl_timeline_view_get_selection_count (view), >, 0);
  g_assert_true (g_action_group_get_action_enabled (actions, "zoom-to-selection"));
  after = render (tl.view, WIDTH, HEIGHT);

  xa = time_to_px (tl.zoom, a, WIDTH);
  xb = time_to_px (tl.zoom, b, WIDTH);
  g_assert_cmpint (xa, <, xb);
  /* Below the label at the top. */
  for (int y = 40; y < HEIGHT; y += 3)
    for (int x = ETL_LABEL_COLUMN_WIDTH; x < WIDTH; x++)
      {
        if (x >= xa && x <= xb)
          g_assert_cmphex (pixel_at (after, x, y), !=, pixel_at (before, x, y));
        else if (x < xa - 1 || x > xb + 1)
          g_assert_cmphex (pixel_at (after, x, y), ==, pixel_at (before, x, y));
      }

  /* Zoom to the selection, by the action. */
  g_action_group_activate_action (actions, "zoom-to-selection", NULL);
  etl_zoom_manager_get_visible (tl.zoom, &v0, &v1);
  g_assert_cmpint (v0, ==, a);
  g_assert_cmpint (v1, ==, b);

  etl_timeline_view_clear_selection (view);
  g_assert_false (etl_timeline_view_get_selection (view, NULL, NULL));
  g_assert_cmpint (signalled[2], ==, 2);
  g_assert_cmpint (signalled[1], ==, 0);
  g_assert_false (g_action_group_get_action_enabled (actions, "zoom-to-selection"));

  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  timeline_teardown (&tl);
}

/* Provider lanes: the summary's lanes, one per provider plus the overflow
 * lane; set through the property and the stateful action. */
static void
test_timeline_provider_lanes (void)
{
  Timeline tl = { 0 };
  EtlTimelineView *view;
  GActionGroup *actions;
  g_autoptr (GVariant) state = NULL;
  EtlLaneMode mode = ETL_LANE_CPU;

  if (!timeline_setup (&tl))
    return;
  view = ETL_TIMELINE_VIEW (tl.view);
  actions = gtk_widget_get_action_group (tl.view, "timeline");

  etl_timeline_view_set_lane_mode (view, ETL_LANE_PROVIDER);
  state = g_action_group_get_action_state (actions, "lane-mode");
  g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "provider");
  wait_idle (view);
  g_assert_cmpint (etl_summary_get_mode (etl_timeline_view_get_summary (view)), ==, ETL_LANE_PROVIDER);
  g_assert_cmpuint (etl_timeline_view_get_n_lanes (view), ==, MIN (etl_trace_get_n_providers (tl.trace), G_MAXUINT16) + 1);
  g_assert_cmpuint (etl_timeline_view_get_n_lanes (view), ==, etl_summary_get_n_lanes (etl_timeline_view_get_summary (view)));
  g_assert_cmpuint (etl_summary_get_n_records (etl_timeline_view_get_summary (view)), ==, 179474);

  /* Two changes before the main loop runs: one build, of the last. */
  g_action_group_change_action_state (actions, "lane-mode", g_variant_new_string ("process"));
  g_object_get (view, "lane-mode", &mode, NULL);
  g_assert_cmpint (mode, ==, ETL_LANE_PROCESS);
  etl_timeline_view_set_lane_mode (view, ETL_LANE_CPU);
  wait_idle (view);
  g_assert_cmpint (etl_summary_get_mode (etl_timeline_view_get_summary (view)), ==, ETL_LANE_CPU);
  g_assert_cmpuint (etl_timeline_view_get_n_lanes (view), ==, 8);

  timeline_teardown (&tl);
}

/* A row set without CPU 1's records leaves lane 1 empty: background in
 * every column, while the other lanes keep their marks. */
static void
test_timeline_row_set (void)
{
  Timeline tl = { 0 };
  EtlTimelineView *view;
  g_autoptr (EtlRowSet) rows = NULL;
  cairo_surface_t *surface;
  guint64 n, n_kept = 0, *kept;
  int lane_h;

  if (!timeline_setup (&tl))
    return;
  view = ETL_TIMELINE_VIEW (tl.view);

  n = etl_trace_get_n_records (tl.trace);
  kept = g_new (guint64, n);
  for (guint64 i = 0; i < n; i++)
    if (etl_trace_get_cpu (tl.trace, i) != 1)
      kept[n_kept++] = i;
  rows = etl_row_set_new_take (kept, n_kept);
  etl_timeline_view_set_rows (view, rows);
  g_assert_true (etl_timeline_view_is_busy (view));
  wait_idle (view);
  g_assert_cmpuint (etl_summary_get_n_records (etl_timeline_view_get_summary (view)), ==, n_kept);
  g_assert_cmpuint (etl_summary_get_lane_total (etl_timeline_view_get_summary (view), 1), ==, 0);
  g_assert_cmpuint (n_kept, <, n);

  surface = render (tl.view, WIDTH, HEIGHT);
  lane_h = etl_timeline_view_get_lane_height (view, HEIGHT);
  for (guint lane = 0; lane < 8; lane++)
    {
      int y = lane * lane_h + lane_h / 2;
      guint32 background = pixel_at (surface, ETL_LABEL_COLUMN_WIDTH + 2, y);
      guint n_marked = 0;

      for (int x = ETL_LABEL_COLUMN_WIDTH; x < WIDTH; x++)
        if (pixel_at (surface, x, y) != background)
          n_marked++;
      if (lane == 1)
        g_assert_cmpuint (n_marked, ==, 0);
      else
        g_assert_cmpuint (n_marked, >, 100);
    }
  cairo_surface_destroy (surface);

  /* Clicks and counts follow the row set: nothing to pick in lane 1. */
  for (int x = ETL_LABEL_COLUMN_WIDTH; x < WIDTH; x += 7)
    g_assert_cmpuint (etl_timeline_view_row_at (view, x, lane_h + lane_h / 2, WIDTH, HEIGHT), ==, G_MAXUINT64);

  /* Back to every row. */
  etl_timeline_view_set_rows (view, NULL);
  wait_idle (view);
  g_assert_cmpuint (etl_summary_get_n_records (etl_timeline_view_get_summary (view)), ==, n);

  timeline_teardown (&tl);
}

static void
on_event_selected (EtlTimelineView *view, guint64 row, guint64 *out)
{
  *out = row;
}

static void
send_button (GtkWidget *widget, GdkEventType type, double x, double y, guint state)
{
  GdkEvent *event = gdk_event_new (type);

  event->button.window = g_object_ref (gtk_widget_get_window (widget));
  event->button.send_event = TRUE;
  event->button.time = GDK_CURRENT_TIME;
  event->button.x = x;
  event->button.y = y;
  event->button.button = GDK_BUTTON_PRIMARY;
  event->button.state = state;
  gdk_event_set_device (event, gdk_seat_get_pointer (gdk_display_get_default_seat (gtk_widget_get_display (widget))));
  gtk_widget_event (widget, event);
  gdk_event_free (event);
}

static void
send_motion (GtkWidget *widget, double x, double y)
{
  GdkEvent *event = gdk_event_new (GDK_MOTION_NOTIFY);

  event->motion.window = g_object_ref (gtk_widget_get_window (widget));
  event->motion.send_event = TRUE;
  event->motion.time = GDK_CURRENT_TIME;
  event->motion.x = x;
  event->motion.y = y;
  event->motion.state = GDK_BUTTON1_MASK;
  gdk_event_set_device (event, gdk_seat_get_pointer (gdk_display_get_default_seat (gtk_widget_get_display (widget))));
  gtk_widget_event (widget, event);
  gdk_event_free (event);
}

static void
send_key (GtkWidget *widget, guint keyval)
{
  GdkEvent *event = gdk_event_new (GDK_KEY_PRESS);

  event->key.window = g_object_ref (gtk_widget_get_window (widget));
  event->key.send_event = TRUE;
  event->key.time = GDK_CURRENT_TIME;
  event->key.keyval = keyval;
  gdk_event_set_device (event, gdk_seat_get_keyboard (gdk_display_get_default_seat (gtk_widget_get_display (widget))));
  gtk_widget_event (widget, event);
  gdk_event_free (event);
}

/* Clicking in a lane picks a record of that lane (its CPU is the lane's)
 * near the pointer; dragging selects a range.  Real events, delivered to the
 * view in an offscreen window. */
static void
test_timeline_click (void)
{
  Timeline tl = { 0 };
  EtlTimelineView *view;
  GtkWidget *window;
  g_autofree guint32 *counts = NULL;
  gint64 t0, t1, signalled[3] = { 0, 0, 0 };
  guint64 clicked = G_MAXUINT64;
  int width, height, axis_w, lane_h;

  if (!timeline_setup (&tl))
    return;
  view = ETL_TIMELINE_VIEW (tl.view);
  window = gtk_offscreen_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_container_add (GTK_CONTAINER (window), tl.view);
  gtk_widget_show_all (window);
  while (gtk_widget_get_allocated_width (tl.view) < WIDTH / 2)
    g_main_context_iteration (NULL, TRUE);
  width = gtk_widget_get_allocated_width (tl.view);
  height = gtk_widget_get_allocated_height (tl.view);
  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  lane_h = etl_timeline_view_get_lane_height (view, height);
  g_signal_connect (view, "event-selected", G_CALLBACK (on_event_selected), &clicked);
  g_signal_connect (view, "range-selected", G_CALLBACK (on_range_selected), signalled);

  etl_zoom_manager_get_visible (tl.zoom, &t0, &t1);
  counts = g_new (guint32, 8 * (gsize) axis_w);
  etl_summary_query (etl_timeline_view_get_summary (view), t0, t1, axis_w, counts, NULL);

  for (guint lane = 0; lane < 8; lane++)
    {
      double y = lane * lane_h + lane_h / 2.0;
      int col = axis_w / 2;
      guint64 row;

      /* A column with events of this lane near the middle. */
      while (col < axis_w && counts[lane * axis_w + col] == 0)
        col++;
      g_assert_cmpint (col, <, axis_w);

      row = etl_timeline_view_row_at (view, ETL_LABEL_COLUMN_WIDTH + col + 0.5, y, width, height);
      g_assert_cmpuint (row, !=, G_MAXUINT64);
      g_assert_cmpuint (etl_trace_get_cpu (tl.trace, row), ==, lane);

      clicked = G_MAXUINT64;
      send_button (tl.view, GDK_BUTTON_PRESS, ETL_LABEL_COLUMN_WIDTH + col + 0.5, y, 0);
      send_button (tl.view, GDK_BUTTON_RELEASE, ETL_LABEL_COLUMN_WIDTH + col + 0.5, y, GDK_BUTTON1_MASK);
      g_assert_cmpuint (clicked, ==, row);
      g_assert_cmpuint (etl_timeline_view_get_selected_row (view), ==, row);
      g_assert_cmpuint (etl_trace_get_cpu (tl.trace, clicked), ==, lane);
      /* Within ten pixels of the pointer. */
      g_assert_cmpfloat (fabs (etl_zoom_manager_time_to_x (tl.zoom, etl_trace_get_filetime (tl.trace, row), axis_w) -
                               (col + 0.5)), <=, 11.0);
    }
  g_assert_cmpint (signalled[2], ==, 0);

  /* A drag selects [press, release). */
  send_button (tl.view, GDK_BUTTON_PRESS, ETL_LABEL_COLUMN_WIDTH + 100, 20, 0);
  send_motion (tl.view, ETL_LABEL_COLUMN_WIDTH + 200, 30);
  send_motion (tl.view, ETL_LABEL_COLUMN_WIDTH + 300, 30);
  send_button (tl.view, GDK_BUTTON_RELEASE, ETL_LABEL_COLUMN_WIDTH + 300, 30, GDK_BUTTON1_MASK);
  g_assert_cmpint (signalled[2], ==, 1);
  g_assert_true (etl_timeline_view_get_selection (view, NULL, NULL));
  g_assert_cmpint (signalled[0], ==, etl_zoom_manager_x_to_time (tl.zoom, 100, axis_w));
  g_assert_cmpint (signalled[1], ==, etl_zoom_manager_x_to_time (tl.zoom, 300, axis_w));

  /* Shift+drag pans instead (by 50 px: a 50-px slice of the range), keeping
   * the selection. */
  etl_zoom_manager_zoom_in (tl.zoom);
  etl_zoom_manager_get_visible (tl.zoom, &t0, &t1);
  send_button (tl.view, GDK_BUTTON_PRESS, ETL_LABEL_COLUMN_WIDTH + 300, 20, GDK_SHIFT_MASK);
  send_motion (tl.view, ETL_LABEL_COLUMN_WIDTH + 250, 20);
  send_button (tl.view, GDK_BUTTON_RELEASE, ETL_LABEL_COLUMN_WIDTH + 250, 20, GDK_BUTTON1_MASK | GDK_SHIFT_MASK);
  g_assert_cmpint (signalled[2], ==, 1);
  g_assert_cmpint (etl_zoom_manager_get_begin (tl.zoom), ==, t0 + (gint64) (50.0 * (t1 - t0) / axis_w));
  g_assert_true (etl_timeline_view_get_selection (view, NULL, NULL));

  /* Z zooms to the selection, Escape clears it. */
  {
    gint64 a, b;

    g_assert_true (etl_timeline_view_get_selection (view, &a, &b));
    send_key (tl.view, GDK_KEY_z);
    etl_zoom_manager_get_visible (tl.zoom, &t0, &t1);
    g_assert_cmpint (t0, ==, a);
    g_assert_cmpint (t1, ==, b);
    send_key (tl.view, GDK_KEY_Escape);
    g_assert_false (etl_timeline_view_get_selection (view, NULL, NULL));
    g_assert_cmpint (signalled[2], ==, 2);
    /* + and − zoom about the centre. */
    send_key (tl.view, GDK_KEY_plus);
    g_assert_cmpint (llabs (etl_zoom_manager_get_end (tl.zoom) - etl_zoom_manager_get_begin (tl.zoom) - (b - a) / 2), <=, 1);
    send_key (tl.view, GDK_KEY_minus);
    g_assert_cmpint (llabs (etl_zoom_manager_get_end (tl.zoom) - etl_zoom_manager_get_begin (tl.zoom) - (b - a)), <=, 2);
  }

  gtk_widget_destroy (window);
  timeline_teardown (&tl);
}

/* net.4.5.2.x64.etl lost nothing: the plot is one compact strip (issue 18)
 * — the file's colour (red) in its key, no rows of flat lines — and its
 * height stays ETL_LOSS_PLOT_COMPACT_HEIGHT. */
static void
test_loss_plot_compact (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlZoomManager) zoom = NULL;
  g_autofree char *legend = NULL;
  cairo_surface_t *surface;
  GtkWidget *plot;
  cairo_t *cr;
  guint64 ev = 1, bu = 1;
  guint red = 0;
  int min_h, nat_h;

  if (trace == NULL)
    return;

  zoom = etl_zoom_manager_new ();
  etl_zoom_manager_set_bounds (zoom, etl_trace_get_first_filetime (trace), etl_trace_get_last_filetime (trace) + 1);
  plot = g_object_ref_sink (etl_loss_plot_new (zoom));
  etl_loss_plot_set_trace (ETL_LOSS_PLOT (plot), trace, NULL);

  g_assert_cmpuint (etl_loss_plot_get_n_files (ETL_LOSS_PLOT (plot)), ==, 1);
  g_assert_true (etl_loss_plot_get_legend_totals (ETL_LOSS_PLOT (plot), 0, &ev, &bu));
  g_assert_cmpuint (ev, ==, 0);
  g_assert_cmpuint (bu, ==, 0);
  legend = etl_loss_plot_dup_legend_text (ETL_LOSS_PLOT (plot), 0);
  g_assert_cmpstr (legend, ==, "EventsLost 0 · BuffersLost 0 · 0 lost");
  g_assert_true (etl_loss_plot_get_compact (ETL_LOSS_PLOT (plot)));
  gtk_widget_show (plot); /* a hidden widget asks for no room */
  gtk_widget_get_preferred_height (plot, &min_h, &nat_h);
  g_assert_cmpint (min_h, ==, ETL_LOSS_PLOT_COMPACT_HEIGHT);
  g_assert_cmpint (nat_h, ==, ETL_LOSS_PLOT_COMPACT_HEIGHT);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, ETL_LOSS_PLOT_COMPACT_HEIGHT);
  cr = cairo_create (surface);
  etl_loss_plot_render (ETL_LOSS_PLOT (plot), cr, WIDTH, ETL_LOSS_PLOT_COMPACT_HEIGHT);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* The key's red square, once, on the strip's middle line; nothing red at
   * the right end, where the flat lines of the full plot would run. */
  for (int x = ETL_LABEL_COLUMN_WIDTH; x < WIDTH; x++)
    {
      guint32 p = pixel_at (surface, x, ETL_LOSS_PLOT_COMPACT_HEIGHT / 2);

      if (((p >> 16) & 0xff) > 0x90 && ((p >> 8) & 0xff) < 0x60)
        {
          red++;
          g_assert_cmpint (x, <, WIDTH - 100);
        }
    }
  g_assert_cmpuint (red, >=, 6);
  g_assert_cmpuint (red, <=, 10);

  /* Without a trace: compact too. */
  etl_loss_plot_set_trace (ETL_LOSS_PLOT (plot), NULL, NULL);
  g_assert_true (etl_loss_plot_get_compact (ETL_LOSS_PLOT (plot)));

  cairo_surface_destroy (surface);
  g_object_unref (plot);
}

static void
test_time_ruler (void)
{
  g_autoptr (EtlZoomManager) zoom = NULL;
  g_autofree char *rel = NULL;
  g_autofree char *wall = NULL;
  cairo_surface_t *surface;
  GtkWidget *ruler;
  cairo_t *cr;
  /* 2020-07-29T00:07:00Z as FILETIME */
  const gint64 t = G_GINT64_CONSTANT (132404548200000000);

  if (!have_display)
    {
      g_test_skip ("no display (gtk_init_check failed); run under xvfb-run");
      return;
    }

  g_assert_cmpint (etl_time_nice_step (1), ==, 1);
  g_assert_cmpint (etl_time_nice_step (3), ==, 5);
  g_assert_cmpint (etl_time_nice_step (11), ==, 20);
  g_assert_cmpint (etl_time_nice_step (600), ==, 1000);
  rel = etl_time_format_relative (15000000, 5000000);
  g_assert_cmpstr (rel, ==, "1.5 s");
  g_clear_pointer (&rel, g_free);
  rel = etl_time_format_relative (1200000, 100000);
  g_assert_cmpstr (rel, ==, "120 ms");
  wall = etl_time_format_wall_clock (t + 1250000, 10000, TRUE, FALSE);
  g_assert_cmpstr (wall, ==, "00:07:00.125");
  g_clear_pointer (&wall, g_free);
  wall = etl_time_format_wall_clock (t, 10000000, TRUE, TRUE);
  g_assert_cmpstr (wall, ==, "2020-07-29 00:07:00");

  zoom = etl_zoom_manager_new ();
  etl_zoom_manager_set_bounds (zoom, t, t + 100000000);
  ruler = g_object_ref_sink (etl_time_ruler_new (zoom));
  etl_time_ruler_set_origin (ETL_TIME_RULER (ruler), t);
  etl_time_ruler_set_utc (ETL_TIME_RULER (ruler), TRUE);
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, 44);
  cr = cairo_create (surface);
  etl_time_ruler_render (ETL_TIME_RULER (ruler), cr, WIDTH, 44);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  g_object_unref (ruler);
}

static void
test_zoom_manager (void)
{
  g_autoptr (EtlZoomManager) zoom = etl_zoom_manager_new ();
  gint64 b, e, b2, e2;

  etl_zoom_manager_set_bounds (zoom, 1000000, 2000000);
  etl_zoom_manager_get_visible (zoom, &b, &e);
  g_assert_cmpint (b, <=, 1000000);
  g_assert_cmpint (e, >=, 2000000);
  g_assert_false (etl_zoom_manager_get_can_zoom_out (zoom));
  g_assert_true (etl_zoom_manager_get_can_zoom_in (zoom));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (zoom), "zoom-out"));

  g_action_group_activate_action (G_ACTION_GROUP (zoom), "zoom-in", NULL);
  etl_zoom_manager_get_visible (zoom, &b2, &e2);
  g_assert_cmpint (e2 - b2, ==, (e - b) / 2);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (zoom), "zoom-out"));

  /* Panning stops at the bounds' margin. */
  etl_zoom_manager_pan (zoom, -10000000);
  etl_zoom_manager_get_visible (zoom, &b2, &e2);
  g_assert_cmpint (b2, ==, b);

  /* Zooming around a point keeps it where it was. */
  etl_zoom_manager_zoom_around (zoom, b2 + (e2 - b2) / 4, 0.5);
  etl_zoom_manager_get_visible (zoom, &b, &e);
  g_assert_cmpint (b, ==, b2 + (e2 - b2) / 8);

  /* Down to the minimum span, then no further. */
  for (int i = 0; i < 40; i++)
    etl_zoom_manager_zoom_in (zoom);
  etl_zoom_manager_get_visible (zoom, &b, &e);
  g_assert_cmpint (e - b, ==, etl_zoom_manager_get_min_span (zoom));
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (zoom), "zoom-in"));

  g_action_group_activate_action (G_ACTION_GROUP (zoom), "zoom-fit", NULL);
  etl_zoom_manager_get_visible (zoom, &b2, &e2);
  g_assert_cmpint (b2, <=, 1000000);
  g_assert_cmpint (e2, >=, 2000000);
}

/* printf's formatting of a span, as etl_time_format_span() once made it:
 * the independent reference for the integer-only version. */
static char *
span_by_printf (gint64 ticks)
{
  const char *sign = ticks < 0 ? "−" : "";
  guint64 t = ticks < 0 ? (guint64) (-(ticks + 1)) + 1 : (guint64) ticks;
  guint64 tps = 10000000;

  if (t < 10000)
    return g_strdup_printf ("%s%.1f µs", sign, t / 10.0);
  if (t < tps)
    return g_strdup_printf ("%s%.4f ms", sign, t / 1e4);
  if (t < 60 * tps)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%07" G_GUINT64_FORMAT " s", sign, t / tps % 60, t % tps);
  if (t < 3600 * tps)
    return g_strdup_printf ("%s%" G_GUINT64_FORMAT " min %02" G_GUINT64_FORMAT ".%07" G_GUINT64_FORMAT " s", sign,
                            t / (60 * tps) % 60, t / tps % 60, t % tps);
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT " h %02" G_GUINT64_FORMAT " min %02" G_GUINT64_FORMAT
                          ".%07" G_GUINT64_FORMAT " s",
                          sign, t / (3600 * tps), t / (60 * tps) % 60, t / tps % 60, t % tps);
}

/* etl_time_format_span_into() writes what printf wrote, for every unit's
 * edges and 200,000 random spans up to 30 hours, both signs. */
static void
test_time_format_span_into (void)
{
  static const gint64 edges[] = { 0,          1,          9,          10,          9999,        10000,
                                  10001,      12345,      99999,      9999999,     10000000,    599999999,
                                  600000000,  600000001,  35999999999, 36000000000, G_MAXINT64, G_MININT64 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261126);
  char buf[ETL_TIME_FORMAT_SIZE];

  for (guint i = 0; i < G_N_ELEMENTS (edges) * 2 + 200000; i++)
    {
      gint64 t = i < G_N_ELEMENTS (edges) ? edges[i]
                 : i < 2 * G_N_ELEMENTS (edges)
                     /* The negative edges (G_MININT64 has no positive twin: itself) */
                     ? (edges[i - G_N_ELEMENTS (edges)] == G_MININT64 ? G_MININT64 : -edges[i - G_N_ELEMENTS (edges)])
                     : (gint64) (g_rand_double (rand) * 1.08e12) * (g_rand_boolean (rand) ? 1 : -1);
      g_autofree char *want = NULL;
      g_autofree char *got = NULL;

      want = span_by_printf (t);
      got = etl_time_format_span (t);
      g_assert_cmpstr (etl_time_format_span_into (buf, sizeof buf, t), ==, want);
      g_assert_cmpstr (got, ==, want);
    }
  g_assert_cmpstr (etl_time_format_span_into (buf, sizeof buf, 12345), ==, "1.2345 ms");
  g_assert_cmpstr (etl_time_format_span_into (buf, sizeof buf, -352), ==, "−35.2 µs");
  g_assert_cmpstr (etl_time_format_span_into (buf, sizeof buf, 2452500000), ==, "4 min 05.2500000 s");
}

/* The table's number formatting: grouping by the LC_NUMERIC rules (sizes
 * from the right, the last repeating, CHAR_MAX ending), checked by hand for
 * three groupings, and against printf's ' flag in the locales this machine
 * has (with grouping when one such is installed). */
static void
test_format_grouped (void)
{
  static const char indian[] = { 3, 2, 0 };
  static const char once[] = { 3, CHAR_MAX, 0 };
  static const gint64 ticks[] = { 0, 5, -5, 9, 10, -25, 9999, 10000, 12345678, -987654321, G_MAXINT64, G_MININT64 + 1 };
  char buf[ETL_PRECISE_FORMAT_SIZE];
  const char *const locales[] = { "C", "C.UTF-8", "en_US.UTF-8", "de_DE.UTF-8", "en_IN.UTF-8" };
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));

  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 1234567, -1, FALSE, ",", "\3"), ==, "1,234,567");
  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 123, -1, FALSE, ",", "\3"), ==, "123");
  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 0, 0, FALSE, ",", "\3"), ==, "0.0");
  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 1234567, 4, TRUE, ".", "\3"), ==,
                   "-1.234.567.4");
  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 123456789, -1, FALSE, ",", indian), ==,
                   "12,34,56,789");
  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 123456789, -1, FALSE, ",", once), ==,
                   "123456,789");
  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 1234567, -1, FALSE, "", "\3"), ==, "1234567");
  g_assert_cmpstr (etl_precise_format_grouped_into (buf, sizeof buf, 1234567, -1, FALSE, "\xe2\x80\xaf", "\3"), ==,
                   "1\xe2\x80\xaf" "234\xe2\x80\xaf" "567");
  /* The most room: 20 digits and 19 separators of 8 bytes. */
  etl_precise_format_grouped_into (buf, sizeof buf, G_MAXUINT64, 9, TRUE, "abcdefgh", "\1");
  g_assert_cmpuint (strlen (buf), ==, 1 + 20 + 19 * 8 + 2);
  g_assert_true (g_str_has_prefix (buf, "-1abcdefgh8abcdefgh4"));
  g_assert_true (g_str_has_suffix (buf, "1abcdefgh5.9"));

  for (guint l = 0; l < G_N_ELEMENTS (locales); l++)
    {
      if (setlocale (LC_NUMERIC, locales[l]) == NULL)
        {
          g_test_message ("locale %s is not installed: not compared with printf", locales[l]);
          continue;
        }
      for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
        {
          gint64 t = ticks[i];
          g_autofree char *want = g_strdup_printf ("%s%'" G_GINT64_FORMAT ".%d", t < 0 && t > -10 ? "-" : "", t / 10,
                                                   (int) (ABS (t) % 10));
          g_autofree char *count = g_strdup_printf ("%'" G_GUINT64_FORMAT, (guint64) ABS (t));

          g_assert_cmpstr (etl_precise_format_us_into (buf, sizeof buf, t), ==, want);
          g_assert_cmpstr (etl_precise_format_count_into (buf, sizeof buf, (guint64) ABS (t)), ==, count);
        }
    }
  setlocale (LC_NUMERIC, saved);
}

int
main (int argc, char *argv[])
{
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add_func ("/etl/widgets/zoom-manager", test_zoom_manager);
  g_test_add_func ("/etl/widgets/precise/format-grouped", test_format_grouped);
  g_test_add_func ("/etl/widgets/time-format-span-into", test_time_format_span_into);
  g_test_add_func ("/etl/widgets/time-ruler", test_time_ruler);
  g_test_add_func ("/etl/widgets/timeline/pixels", test_timeline_pixels);
  g_test_add_func ("/etl/widgets/timeline/empty-region", test_timeline_empty_region);
  g_test_add_func ("/etl/widgets/timeline/selected-row", test_timeline_selected_row);
  g_test_add_func ("/etl/widgets/timeline/range-selection", test_timeline_range_selection);
  g_test_add_func ("/etl/widgets/timeline/provider-lanes", test_timeline_provider_lanes);
  g_test_add_func ("/etl/widgets/timeline/row-set", test_timeline_row_set);
  g_test_add_func ("/etl/widgets/timeline/click", test_timeline_click);
  g_test_add_func ("/etl/widgets/loss-plot/compact", test_loss_plot_compact);

  return g_test_run ();
}
