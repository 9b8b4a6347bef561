/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-thread-lanes: a timeline frame with 50 expanded thread lanes.
 *
 *   bench-thread-lanes [--cpus N] [--schedule-ms N] [--lanes N] [--frames K] [FILE.etl]
 *
 * Opens FILE.etl, or the synthetic schedule trace that bench-thread-states
 * uses (generated once into $ETL_BENCH_DIR or the temporary folder: 8
 * processors, 470,588 1-ms slots, 16.0 M records, 5.3 M of them CSwitch),
 * builds its thread states (etl_thread_states_new()) and the whole-trace
 * CPU summary, then times frames into an offscreen 1920-pixel-wide cairo
 * image surface at four zoom levels (the whole trace, 1/16, 1/256 and
 * 1/4096 of its span about its centre).  A frame is what the window draws
 * with 50 thread lanes open: the timeline's own render
 * (etl_timeline_view_render(), its CPU lanes, 400 px) and below it
 * --lanes (default 50) thread lanes of 20 px drawn with
 * etl_thread_lanes_draw(), as the timeline draws an expanded thread.  The
 * schedule trace has six threads; the lanes cycle through them.  A lane's
 * cost is set by the columns it covers and the logarithm of its state count
 * (the drawing finds the state of each column by binary search), so six
 * threads of ~880,000 states each cost what 50 different threads of as many
 * states would.
 *
 * ETL_BENCH_LEVEL=full|1_16|1_256|1_4096 times that level only (for a
 * profiler).  Issue 20's target: a median of at most 8 ms a frame.  Prints
 * "BENCH thread_lanes_frame_<level> <median> ms" lines and a Markdown
 * table; exits 77 (skipped) without a display (gtk_init_check()).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gtk/gtk.h>

#include "bench-util.h"
#include "etl-summary.h"
#include "etl-synth.h"
#include "etl-thread-lanes.h"
#include "etl-thread-states.h"
#include "etl-timeline-view.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

#define TARGET_MS 8.0
#define WIDTH 1920
#define TIMELINE_HEIGHT 400
#define LANE_HEIGHT 20
#define LABEL_WIDTH 140 /* the lane labels' column */

static double
ms_since (gint64 t0)
{
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}

/* One frame: the timeline, then @n_lanes thread lanes below it; the
 * lanes' share of the time into @lanes_ms. */
static void
draw_frame (cairo_surface_t *surface, GtkWidget *view, EtlThreadStates *states, const guint32 *tids,
            guint n_tids, guint n_lanes, gint64 t0, gint64 t1, double *lanes_ms)
{
  gint64 l0;
  cairo_t *cr = cairo_create (surface);
  static const GdkRGBA fg = { 0.1, 0.1, 0.1, 1.0 };
  guint axis_w = WIDTH - LABEL_WIDTH;

  cairo_save (cr);
  cairo_rectangle (cr, 0, 0, WIDTH, TIMELINE_HEIGHT);
  cairo_clip (cr);
  etl_timeline_view_render (ETL_TIMELINE_VIEW (view), cr, WIDTH, TIMELINE_HEIGHT);
  cairo_restore (cr);
  l0 = g_get_monotonic_time ();
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_rectangle (cr, 0, TIMELINE_HEIGHT, WIDTH, (double) n_lanes * LANE_HEIGHT);
  cairo_fill (cr);
  for (guint l = 0; l < n_lanes; l++)
    {
      EtlThreadLaneGeometry g = { t0, t1, axis_w, LABEL_WIDTH, TIMELINE_HEIGHT + (double) l * LANE_HEIGHT,
                                  LANE_HEIGHT };
      etl_thread_lanes_draw (cr, &g, states, tids[l % n_tids], 0, axis_w, &fg, ETL_THREAD_LANES_NONE);
    }
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  *lanes_ms = ms_since (l0);
}

int
main (int argc, char **argv)
{
  static int n_cpus = 8, schedule_ms = 470588, n_lanes = 50, n_frames = 30;
  static const GOptionEntry entries[] = {
    { "cpus", 0, 0, G_OPTION_ARG_INT, &n_cpus, "Processors (default 8)", "N" },
    { "schedule-ms", 0, 0, G_OPTION_ARG_INT, &schedule_ms, "Schedule length in 1-ms slots (default 470,588)", "N" },
    { "lanes", 0, 0, G_OPTION_ARG_INT, &n_lanes, "Thread lanes (default 50)", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames timed per zoom level (default 30)", "K" },
    { NULL }
  };
  static const struct { const char *name; guint divisor; } levels[] = {
    { "full", 1 }, { "1_16", 16 }, { "1_256", 256 }, { "1_4096", 4096 },
  };
  double medians[G_N_ELEMENTS (levels)], maxima[G_N_ELEMENTS (levels)], lanes_medians[G_N_ELEMENTS (levels)];
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - frames with thread lanes");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree double *frame_ms = NULL;
  g_autofree double *lane_ms = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlSummary) summary = NULL;
  g_autoptr (EtlThreadStates) states = NULL;
  g_autoptr (EtlZoomManager) zoom = NULL;
  g_autofree guint32 *tids = NULL;
  const guint32 *all_tids;
  guint n_all = 0, n_tids = 0;
  gsize n_states = 0;
  cairo_surface_t *surface;
  GtkWidget *view;
  gint64 first, last, t0;
  double states_ms;
  gboolean all_met = TRUE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-thread-lanes: %s\n", error->message);
      return 2;
    }
  n_frames = MAX (n_frames, 1);
  n_lanes = CLAMP (n_lanes, 1, 1000);
  if (!gtk_init_check (&argc, &argv))
    {
      printf ("bench-thread-lanes: no display; run under xvfb-run (skipped)\n");
      return 77;
    }
  path = argc > 1 ? g_strdup (argv[1]) : bench_schedule_trace ((guint) n_cpus, (guint) schedule_ms, &error);
  if (path == NULL || (trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error)) == NULL)
    {
      fprintf (stderr, "bench-thread-lanes: %s\n", error->message);
      return 1;
    }
  t0 = g_get_monotonic_time ();
  states = etl_thread_states_new (trace, NULL, &error);
  states_ms = ms_since (t0);
  if (states == NULL)
    {
      fprintf (stderr, "bench-thread-lanes: %s\n", error->message);
      return 1;
    }
  /* The threads that have states (the idle thread 0 has none). */
  all_tids = etl_thread_states_get_threads (states, &n_all);
  tids = g_new (guint32, MAX (n_all, 1));
  for (guint i = 0; i < n_all; i++)
    {
      guint n = 0;

      etl_thread_states_get (states, all_tids[i], &n);
      if (n > 0 && all_tids[i] != 0)
        {
          tids[n_tids++] = all_tids[i];
          n_states += n;
        }
    }
  if (n_tids == 0)
    {
      fprintf (stderr, "bench-thread-lanes: %s has no thread with CSwitch states\n", path);
      return 1;
    }
  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, &error);
  g_assert_no_error (error);

  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace) + 1;
  zoom = etl_zoom_manager_new ();
  etl_zoom_manager_set_bounds (zoom, first, last);
  view = g_object_ref_sink (etl_timeline_view_new (zoom));
  etl_timeline_view_set_trace (ETL_TIMELINE_VIEW (view), trace, summary);
  etl_timeline_view_set_thread_states (ETL_TIMELINE_VIEW (view), states);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, WIDTH, TIMELINE_HEIGHT + n_lanes * LANE_HEIGHT);
  frame_ms = g_new (double, n_frames);
  lane_ms = g_new (double, n_frames);
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      gint64 span = (last - first) / levels[l].divisor;
      gint64 centre = first + (last - first) / 2;
      gint64 v0 = levels[l].divisor == 1 ? first : centre - span / 2;
      gint64 v1 = levels[l].divisor == 1 ? last : v0 + span;

      if (g_getenv ("ETL_BENCH_LEVEL") != NULL && strcmp (g_getenv ("ETL_BENCH_LEVEL"), levels[l].name) != 0)
        {
          medians[l] = maxima[l] = lanes_medians[l] = 0;
          continue;
        }
      if (levels[l].divisor == 1)
        etl_zoom_manager_zoom_fit (zoom);
      else
        etl_zoom_manager_set_visible (zoom, v0, v1);
      /* The first frame tells the view its width; the finer summary it may
       * ask for is waited for, as the screen would show it once ready. */
      draw_frame (surface, view, states, tids, n_tids, (guint) n_lanes, v0, v1, &lane_ms[0]);
      while (etl_timeline_view_is_busy (ETL_TIMELINE_VIEW (view)))
        g_main_context_iteration (NULL, TRUE);
      maxima[l] = 0;
      for (int f = 0; f < n_frames; f++)
        {
          gint64 f0 = g_get_monotonic_time ();

          draw_frame (surface, view, states, tids, n_tids, (guint) n_lanes, v0, v1, &lane_ms[f]);
          frame_ms[f] = ms_since (f0);
          maxima[l] = MAX (maxima[l], frame_ms[f]);
        }
      qsort (frame_ms, n_frames, sizeof (double), bench_compare_double);
      qsort (lane_ms, n_frames, sizeof (double), bench_compare_double);
      medians[l] = frame_ms[n_frames / 2];
      lanes_medians[l] = lane_ms[n_frames / 2];
      all_met = all_met && medians[l] <= TARGET_MS;
    }
  if (g_getenv ("ETL_BENCH_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("ETL_BENCH_PNG"));
  cairo_surface_destroy (surface);
  g_object_unref (view);

  printf ("trace: %s, %" G_GUINT64_FORMAT " records, %u CPUs; thread states built in %.0f ms: %u threads, %"
          G_GSIZE_FORMAT " states\n", path, etl_trace_get_n_records (trace), etl_trace_get_n_cpus (trace), states_ms,
          n_tids, n_states);
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    printf ("BENCH thread_lanes_frame_%s %.3f ms\nBENCH thread_lanes_only_%s %.3f ms\n", levels[l].name, medians[l],
            levels[l].name, lanes_medians[l]);
  printf ("\n| zoom | visible span | frame median (ms) | of it the %d lanes (ms) | frame max (ms) | target ≤ %.0f ms |\n"
          "|---|---|---|---|---|---|\n", n_lanes, TARGET_MS);
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    printf ("| %s | %.3f ms | %.3f | %.3f | %.3f | %s |\n", levels[l].name,
            (double) ((last - first) / levels[l].divisor) / 1e4, medians[l], lanes_medians[l], maxima[l],
            medians[l] <= TARGET_MS ? "met" : "MISSED");
  printf ("\n%d frames of %d×%d (timeline %d px + %d thread lanes of %d px) per level.\n", n_frames, WIDTH,
          TIMELINE_HEIGHT + n_lanes * LANE_HEIGHT, TIMELINE_HEIGHT, n_lanes, LANE_HEIGHT);
  printf ("%s\n", all_met ? "All frame targets met." : "Some frame targets MISSED.");
  return 0;
}
