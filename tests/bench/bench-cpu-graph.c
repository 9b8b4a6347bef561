/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-cpu-graph: the CPU usage graph's series for its visible range, as
 * its worker computes it (etl_cpu_usage_compute_range() then
 * etl_cpu_usage_dup_series() with the graph's top 8 and "Other").
 *
 *   bench-cpu-graph [--cpus N] [--schedule-ms N] [--pixels N] [FILE.etl]
 *
 * Opens FILE.etl, or generates (once; reused afterwards) the synthetic
 * schedule trace of etl_synth_write() (default 8 processors, 60,000 1-ms
 * slots) in $ETL_BENCH_DIR or the temporary folder, then times, median of
 * 5, Sampled and Precise over the whole trace and over its middle tenth (a
 * zoom), at one bucket per 3 of --pixels (default 1600 - 124 label column)
 * like the graph.  Prints "BENCH cpu_graph_<mode>_<range> <ms> ms" lines;
 * fails when the whole-trace series takes more than 1 s per million
 * records (issue 10's target is 16 M records in 1 s for the core figure;
 * this bench reports what the graph pays per zoom).  With a display (run
 * under xvfb-run) it also draws the graph (an #EtlCpuGraph fed the trace,
 * whole range in view) into a 1600×160 image surface, median of 50 frames:
 * "BENCH cpu_graph_frame_<mode> <ms> ms" (issue 10's target ≤ 8 ms).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include <gtk/gtk.h>

#include "etl-cpu-graph.h"
#include "etl-cpu-usage.h"
#include "bench-util.h"
#include "etl-synth.h"
#include "etl-trace.h"

#define RUNS 5

static double
time_series (EtlTrace *trace, EtlCpuUsageMode mode, gint64 begin, gint64 end, guint n_buckets,
             guint64 *n_records)
{
  double ms[RUNS];

  for (guint r = 0; r < RUNS; r++)
    {
      g_autoptr (GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();
      gint64 width = MAX ((end - begin + n_buckets - 1) / n_buckets, 1);
      g_autoptr (EtlCpuUsage) u = etl_cpu_usage_compute_range (trace, mode, ETL_CPU_USAGE_BY_PROCESS, begin, end,
                                                               width, NULL, NULL, NULL, &error);
      g_autoptr (EtlCpuUsageSeries) s = NULL;

      if (u == NULL)
        {
          fprintf (stderr, "%s\n", error->message);
          exit (1);
        }
      s = etl_cpu_usage_dup_series (u, 8);
      ms[r] = (double)(g_get_monotonic_time () - t0) / 1000.0;
      *n_records = etl_cpu_usage_get_n_records (u);
    }
  qsort (ms, RUNS, sizeof ms[0], bench_compare_double);
  return ms[RUNS / 2];
}

static gboolean
graph_idle (gpointer data)
{
  return !etl_cpu_graph_is_busy (data);
}

/* Median time to draw @graph's last series at 1600×160. */
static double
time_frames (EtlCpuGraph *graph)
{
  double ms[50];
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, 160);
  cairo_t *cr = cairo_create (surface);

  for (guint r = 0; r < G_N_ELEMENTS (ms); r++)
    {
      gint64 t0 = g_get_monotonic_time ();

      etl_cpu_graph_render (graph, cr, 1600, 160);
      cairo_surface_flush (surface);
      ms[r] = (double)(g_get_monotonic_time () - t0) / 1000.0;
    }
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  qsort (ms, G_N_ELEMENTS (ms), sizeof ms[0], bench_compare_double);
  return ms[G_N_ELEMENTS (ms) / 2];
}

static gboolean
bench_frames (EtlTrace *trace)
{
  g_autoptr (EtlZoomManager) zm = etl_zoom_manager_new ();
  GtkWidget *window, *graph;
  gboolean fail = FALSE;

  etl_zoom_manager_set_bounds (zm, etl_trace_get_first_filetime (trace), etl_trace_get_last_filetime (trace) + 1);
  window = gtk_offscreen_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 200);
  graph = etl_cpu_graph_new (zm);
  gtk_container_add (GTK_CONTAINER (window), graph);
  gtk_widget_show_all (window);
  etl_cpu_graph_set_trace (ETL_CPU_GRAPH (graph), trace);
  for (guint m = 0; m < 2; m++)
    {
      double ms;

      etl_cpu_graph_set_mode (ETL_CPU_GRAPH (graph), m == 0 ? ETL_CPU_USAGE_SAMPLED : ETL_CPU_USAGE_PRECISE);
      while (!graph_idle (graph))
        g_main_context_iteration (NULL, TRUE);
      if (etl_cpu_graph_get_series (ETL_CPU_GRAPH (graph)) == NULL)
        continue;
      ms = time_frames (ETL_CPU_GRAPH (graph));
      printf ("BENCH cpu_graph_frame_%s %.2f ms (%u buckets × %u bands)\n", m == 0 ? "sampled" : "precise", ms,
              etl_cpu_graph_get_series (ETL_CPU_GRAPH (graph))->n_buckets,
              etl_cpu_graph_get_series (ETL_CPU_GRAPH (graph))->n_rows);
      if (ms > 8.0)
        fail = TRUE;
    }
  gtk_widget_destroy (window);
  return !fail;
}

int
main (int argc, char *argv[])
{
  gboolean have_display = gtk_init_check (&argc, &argv);
  static int n_cpus = 8;
  static int schedule_ms = 60000;
  static int pixels = 1600 - 124;
  static const GOptionEntry entries[] = {
    { "cpus", 0, 0, G_OPTION_ARG_INT, &n_cpus, "Processors (default 8)", "N" },
    { "schedule-ms", 0, 0, G_OPTION_ARG_INT, &schedule_ms, "Schedule length in 1-ms slots (default 60,000)", "N" },
    { "pixels", 0, 0, G_OPTION_ARG_INT, &pixels, "Width of the time axis (default 1476)", "N" },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[FILE.etl] - CPU usage graph series benchmark");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autofree char *path = NULL;
  gboolean fail = FALSE;
  gint64 first, last;
  guint n_buckets;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  n_buckets = (guint)MAX (pixels / 3, 1);
  if (argc > 1)
    path = g_strdup (argv[1]);
  else
    {
      g_autofree char *dir = bench_dir ();
      g_autofree char *name = g_strdup_printf ("schedule-%dcpu-%dms.etl", n_cpus, schedule_ms);

      path = g_build_filename (dir, name, NULL);
      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
        {
          EtlSynthParams params;

          etl_synth_params_init (&params);
          params.n_cpus = (guint)n_cpus;
          params.schedule = TRUE;
          params.schedule_ms = (guint)schedule_ms;
          if (!etl_synth_write (&params, path, &error))
            {
              fprintf (stderr, "%s\n", error->message);
              return 1;
            }
        }
    }

  trace = etl_trace_open ((const char *const[]) { path, NULL }, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  printf ("%s: %" G_GUINT64_FORMAT " records, %u buckets\n", path, etl_trace_get_n_records (trace), n_buckets);
  first = etl_trace_get_first_filetime (trace);
  last = etl_trace_get_last_filetime (trace) + 1;

  for (guint m = 0; m < 2; m++)
    {
      EtlCpuUsageMode mode = m == 0 ? ETL_CPU_USAGE_SAMPLED : ETL_CPU_USAGE_PRECISE;
      const char *mode_name = m == 0 ? "sampled" : "precise";
      guint64 n_whole = 0, n_zoom = 0;
      double whole = time_series (trace, mode, first, last, n_buckets, &n_whole);
      gint64 tenth = (last - first) / 10;
      double zoom = time_series (trace, mode, first + 9 * tenth / 2, first + 11 * tenth / 2, n_buckets, &n_zoom);

      printf ("BENCH cpu_graph_%s_whole %.1f ms (%" G_GUINT64_FORMAT " records used of %" G_GUINT64_FORMAT ")\n",
              mode_name, whole, n_whole, etl_trace_get_n_records (trace));
      printf ("BENCH cpu_graph_%s_zoom10 %.1f ms (%" G_GUINT64_FORMAT " records used)\n", mode_name, zoom, n_zoom);
      if (whole > 1000.0 * MAX ((double)etl_trace_get_n_records (trace) / 1e6, 1.0))
        fail = TRUE;
    }
  if (have_display)
    {
      if (!bench_frames (trace))
        fail = TRUE;
    }
  else
    printf ("no display: frame times skipped (run under xvfb-run)\n");
  return fail ? 1 : 0;
}
