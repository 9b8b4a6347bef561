/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Render the trace widgets into cairo image surfaces and check pixels. */

#include "config.h"

#include <gtk/gtk.h>

#include "etl-loss-plot.h"
#include "etl-summary.h"
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

  summary = etl_summary_new (trace, ETL_LANE_CPU, 0, 0, 16, NULL, NULL);
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

  summary = etl_summary_new (trace, ETL_LANE_CPU, 0, 0, 16, NULL, NULL);
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

static void
test_loss_plot_flat_line (void)
{
  g_autoptr (EtlTrace) trace = open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (EtlZoomManager) zoom = NULL;
  g_autofree char *legend = NULL;
  cairo_surface_t *surface;
  GtkWidget *plot;
  cairo_t *cr;
  guint64 ev = 1, bu = 1;
  guint32 line, above;

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

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, 100);
  cr = cairo_create (surface);
  etl_loss_plot_render (ETL_LOSS_PLOT (plot), cr, WIDTH, 100);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* The flat line at 0 runs across the plot, right of the legend. */
  line = pixel_at (surface, WIDTH - 50, 100 - 10);
  above = pixel_at (surface, WIDTH - 50, 100 - 30);
  g_assert_cmphex (line, !=, above);

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

int
main (int argc, char *argv[])
{
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/widgets/zoom-manager", test_zoom_manager);
  g_test_add_func ("/etl/widgets/time-ruler", test_time_ruler);
  g_test_add_func ("/etl/widgets/timeline/pixels", test_timeline_pixels);
  g_test_add_func ("/etl/widgets/timeline/empty-region", test_timeline_empty_region);
  g_test_add_func ("/etl/widgets/loss-plot/flat-line", test_loss_plot_flat_line);

  return g_test_run ();
}
