/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-frame: the cost of one timeline frame on a 10-million-record trace.
 *
 *   bench-frame [--records N] [--cpus N] [--frames K] [--width W] [--height H]
 *
 * Generates (once; reused afterwards) a synthetic trace of N records on 8
 * processors (default 10,000,000 records, 64 KiB buffers, seed 1) with
 * etl_synth_write() in $ETL_BENCH_DIR, or in the temporary folder, opens it,
 * builds the whole-trace CPU summary, then renders the timeline
 * (etl_timeline_view_render()) into an offscreen 1920×400 cairo image
 * surface K times (default 30) at four zoom levels — the whole trace, and
 * 1/16, 1/256 and 1/4096 of its span about its centre — once the view's
 * finer summary for that range (if it asks for one) is ready, as on screen.
 *
 * Prints "BENCH timeline_frame_<level> <median> ms" lines and a Markdown
 * table; the target is a median of at most 8 ms a frame.  Needs a display
 * (run under xvfb-run); exits 77 (skipped) without one.  See
 * tests/bench/README.md.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <gtk/gtk.h>

#include "etl-summary.h"
#include "bench-util.h"
#include "etl-synth.h"
#include "etl-event-model.h"
#include "etl-timeline-view.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

#define TARGET_MS 8.0

static double
ms_since (gint64 t0)
{
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}

/* Reads every text column of @position, as a GtkTreeView row draw does. */
static void
read_row (GtkTreeModel *model, guint64 position, GtkTreeIter *iter)
{
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((gint) position, -1);

  if (!gtk_tree_model_get_iter (model, iter, path))
    g_error ("row %" G_GUINT64_FORMAT " missing", position);
  for (int c = 0; c < ETL_EVENT_MODEL_N_TEXT_COLUMNS; c++)
    {
      GValue value = G_VALUE_INIT;

      gtk_tree_model_get_value (model, iter, c, &value);
      g_value_unset (&value);
    }
}

int
main (int argc, char **argv)
{
  double list_row_ms = 0, list_page_ms = 0;
  gint64 n_records = 10000000;
  gint n_cpus = 8, n_frames = 30, width = 1920, height = 400;
  GOptionEntry entries[] = {
    { "records", 0, 0, G_OPTION_ARG_INT64, &n_records, "Records in the synthetic trace (default 10,000,000)", "N" },
    { "cpus", 0, 0, G_OPTION_ARG_INT, &n_cpus, "Processors (default 8)", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames timed per zoom level (default 30)", "K" },
    { "width", 0, 0, G_OPTION_ARG_INT, &width, "Surface width (default 1920)", "PX" },
    { "height", 0, 0, G_OPTION_ARG_INT, &height, "Surface height (default 400)", "PX" },
    { NULL }
  };
  static const struct { const char *name; guint divisor; } levels[] = {
    { "full", 1 }, { "1_16", 16 }, { "1_256", 256 }, { "1_4096", 4096 },
  };
  double medians[G_N_ELEMENTS (levels)], maxima[G_N_ELEMENTS (levels)], waits[G_N_ELEMENTS (levels)];
  g_autoptr (GOptionContext) context = g_option_context_new ("- timeline frame benchmark on a synthetic trace");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree double *frame_ms = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlSummary) summary = NULL;
  g_autoptr (EtlZoomManager) zoom = NULL;
  const char *paths[] = { NULL, NULL };
  cairo_surface_t *surface;
  GtkWidget *view;
  double synth_ms = -1.0, open_ms, summary_ms;
  gint64 first, last, t0;
  gboolean all_met = TRUE;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-frame: %s\n", error->message);
      return 2;
    }
  n_frames = MAX (n_frames, 1);
  if (!gtk_init_check (&argc, &argv))
    {
      printf ("bench-frame: no display; run under xvfb-run (skipped)\n");
      return 77;
    }

  path = bench_synth_trace ((guint) n_cpus, (guint64) n_records, &synth_ms, &error);
  if (path == NULL)
    {
      fprintf (stderr, "bench-frame: %s\n", error->message);
      return 1;
    }

  paths[0] = path;
  t0 = g_get_monotonic_time ();
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  open_ms = ms_since (t0);
  if (trace == NULL)
    {
      fprintf (stderr, "bench-frame: %s\n", error->message);
      return 1;
    }
  t0 = g_get_monotonic_time ();
  summary = etl_summary_new (trace, NULL, ETL_LANE_CPU, 0, 0, 16, NULL, &error);
  summary_ms = ms_since (t0);
  g_assert_no_error (error);

  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace) + 1;
  zoom = etl_zoom_manager_new ();
  etl_zoom_manager_set_bounds (zoom, first, last);
  view = g_object_ref_sink (etl_timeline_view_new (zoom));
  etl_timeline_view_set_trace (ETL_TIMELINE_VIEW (view), trace, summary);

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  frame_ms = g_new (double, n_frames);

  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    {
      gint64 span = (last - first) / levels[l].divisor;
      gint64 centre = first + (last - first) / 2;
      cairo_t *cr;

      if (levels[l].divisor == 1)
        etl_zoom_manager_zoom_fit (zoom);
      else
        etl_zoom_manager_set_visible (zoom, centre - span / 2, centre - span / 2 + span);

      /* One frame tells the view its width; it may then ask for a finer
       * summary of the range, which the screen would show once ready. */
      cr = cairo_create (surface);
      etl_timeline_view_render (ETL_TIMELINE_VIEW (view), cr, width, height);
      cairo_destroy (cr);
      t0 = g_get_monotonic_time ();
      while (etl_timeline_view_is_busy (ETL_TIMELINE_VIEW (view)))
        g_main_context_iteration (NULL, TRUE);
      waits[l] = ms_since (t0);

      maxima[l] = 0;
      for (int f = 0; f < n_frames; f++)
        {
          gint64 f0 = g_get_monotonic_time ();

          cr = cairo_create (surface);
          etl_timeline_view_render (ETL_TIMELINE_VIEW (view), cr, width, height);
          cairo_destroy (cr);
          cairo_surface_flush (surface);
          frame_ms[f] = ms_since (f0);
          maxima[l] = MAX (maxima[l], frame_ms[f]);
        }
      qsort (frame_ms, n_frames, sizeof (double), bench_compare_double);
      medians[l] = n_frames % 2 ? frame_ms[n_frames / 2]
                                : (frame_ms[n_frames / 2 - 1] + frame_ms[n_frames / 2]) / 2.0;
      all_met = all_met && medians[l] <= TARGET_MS;
    }

  if (g_getenv ("ETL_BENCH_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("ETL_BENCH_PNG"));
  cairo_surface_destroy (surface);
  g_object_unref (view);

  /* The event list's model (what GtkTreeView asks for): every column of row
   * 9,999,999, then the 1,000-row page that ends there, each from a cold
   * row cache. */
  {
    g_autoptr (EtlRowSet) all = etl_row_set_new_all (etl_trace_get_n_records (trace));
    g_autoptr (EtlEventModel) model = etl_event_model_new (trace, all);
    guint64 target = MIN ((guint64) 9999999, etl_trace_get_n_records (trace) - 1);
    GtkTreeIter iter;
    guint64 page_start;
    gint64 l0;

    l0 = g_get_monotonic_time ();
    read_row (GTK_TREE_MODEL (model), target, &iter);
    list_row_ms = ms_since (l0);
    /* A fresh model: the page is the 1,000 rows ending at the target. */
    g_clear_object (&model);
    model = etl_event_model_new (trace, all);
    page_start = target >= 999 ? target - 999 : 0;
    l0 = g_get_monotonic_time ();
    for (guint64 r = page_start; r <= target; r++)
      read_row (GTK_TREE_MODEL (model), r, &iter);
    list_page_ms = ms_since (l0);
  }

  printf ("trace: %s, %" G_GUINT64_FORMAT " records, %u CPUs\n", path, etl_trace_get_n_records (trace),
          etl_trace_get_n_cpus (trace));
  if (synth_ms >= 0)
    printf ("BENCH synth_write %.1f ms\n", synth_ms);
  printf ("BENCH open %.1f ms\n", open_ms);
  printf ("BENCH summary_build %.1f ms\n", summary_ms);
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    printf ("BENCH timeline_frame_%s %.3f ms\n", levels[l].name, medians[l]);
  printf ("BENCH list_model_row_9999999 %.3f ms\n", list_row_ms);
  printf ("BENCH list_model_page_1000 %.3f ms\n", list_page_ms);

  printf ("\n| zoom | visible span | frame median (ms) | frame max (ms) | finer summary wait (ms) | target ≤ %.0f ms |\n",
          TARGET_MS);
  printf ("|---|---|---|---|---|---|\n");
  for (guint l = 0; l < G_N_ELEMENTS (levels); l++)
    printf ("| %s | %.3f ms | %.3f | %.3f | %.1f | %s |\n", levels[l].name,
            (double) ((last - first) / levels[l].divisor) / 1e4, medians[l], maxima[l], waits[l],
            medians[l] <= TARGET_MS ? "met" : "MISSED");
  printf ("\n%d frames of %d×%d per level; open %.0f ms, whole-trace summary %.0f ms.\n",
          n_frames, width, height, open_ms, summary_ms);

  printf ("\n| event-list model | ms | target ≤ 1 ms |\n|---|---|---|\n");
  printf ("| row 9,999,999, every column | %.3f | %s |\n", list_row_ms, list_row_ms <= 1.0 ? "met" : "MISSED");
  printf ("| 1,000-row page (rows 9,999,000 to 9,999,999) | %.3f | %s |\n", list_page_ms, list_page_ms <= 1.0 ? "met" : "MISSED");
  printf ("%s\n", all_met ? "All frame targets met." : "Some frame targets MISSED.");
  return 0;
}
