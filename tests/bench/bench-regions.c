/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-regions: the Regions view's statistics and histogram, and a frame
 * of the timeline's Regions area.
 *
 *   bench-regions [--spans N] [--frames K]
 *
 * Builds an #EtlSpanSet in memory (no trace: what is timed is the view's
 * work, not the pairing, which bench-activities times) of --spans (default
 * 1,000,000) spans in 10 lanes, as groups of four (a span, two children,
 * a grandchild) on 8 threads a lane, of 20 names, durations spread evenly
 * in log scale from 1 µs to 100 ms, then times:
 *
 * - stats: etl_span_set_compute_stats() of every span (the names table),
 *   then, for the commonest name, its durations, etl_span_histogram_compute()
 *   (64 buckets) and the selection of the instances in the top 16 buckets:
 *   the Regions view's worker for a name (issue 21: ≤ 100 ms for 1 M);
 * - stats-one-name: the same with every span of one name (one sort of 1 M);
 * - frame: the Regions area (#EtlRegionLanes, laid out once) drawn into a
 *   1920-pixel-wide image at four zoom levels (the whole span, 1/16, 1/256
 *   and 1/4096 about the centre), K frames each (issue 21: ≤ 8 ms);
 * - frame_pan: a 1/256 view moved by a hundredth of its width a frame, the
 *   move (the lanes' heights for the new range) and the frame timed
 *   together, as a drag in the timeline costs;
 * - heights: the same moves without drawing, 1,000 of them: what the
 *   lanes' heights for a new visible range cost (per move).
 * The frames need a display (exits 77 without one).
 *
 * Prints "BENCH regions_<what> <median> ms" lines and a Markdown table.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gtk/gtk.h>

#include "bench-util.h"
#include "etl-region-lanes.h"
#include "etl-span-set.h"
#include "etl-zoom-manager.h"

#define STATS_TARGET_MS 100.0
#define FRAME_TARGET_MS 8.0
#define WIDTH 1920
#define N_LANES 10
#define N_NAMES 20

/* This thread's CPU time, ms (the wall time where there is no such clock:
 * Windows), so that figures taken while other jobs run stay meaningful. */
static double
cpu_ms (void)
{
#if !defined(G_OS_WIN32) && defined(CLOCK_THREAD_CPUTIME_ID)
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec * 1000.0 + (double) ts.tv_nsec / 1e6;
#else
  return (double) g_get_monotonic_time () / 1000.0;
#endif
}

static double
median (double *v, guint n)
{
  qsort (v, n, sizeof (double), bench_compare_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static EtlSpanSet *
make_spans (guint n_spans, gboolean one_name)
{
  EtlSpanSet *set = etl_span_set_new ();
  GRand *rand = g_rand_new_with_seed (21);
  guint32 names[N_NAMES], lanes[N_LANES];

  for (guint k = 0; k < N_NAMES; k++)
    {
      char buf[32];

      g_snprintf (buf, sizeof buf, "Activity%u", k);
      names[k] = etl_span_set_intern (set, buf);
    }
  for (guint k = 0; k < N_LANES; k++)
    {
      char buf[32];

      g_snprintf (buf, sizeof buf, "Provider-%u", k);
      lanes[k] = etl_span_set_intern (set, buf);
    }
  for (guint lane = 0; lane < N_LANES; lane++)
    {
      gint64 t = 0;

      for (guint i = 0; i < n_spans / N_LANES; i += 4)
        {
          /* 1 µs … 100 ms, even in log scale. */
          gint64 d = (gint64) exp (g_rand_double_range (rand, log (40.0), log (1e6)));
          guint32 tid = lane * 8 + (guint32) g_rand_int_range (rand, 0, 8);
          EtlSpan top = { t, t + d, ETL_SPAN_NO_RECORD, 100 + lane, tid, ETL_SPAN_NONE, 0, 0, 0, lanes[lane], 0, 0 };
          EtlSpan c;
          guint32 p, c1;

          top.name = top.label = names[one_name ? 0 : (guint) g_rand_int_range (rand, 0, N_NAMES)];
          p = etl_span_set_add (set, &top);
          c = top;
          c.parent = p;
          c.depth = 1;
          c.start = t + d / 10;
          c.stop = t + d * 4 / 10;
          c.name = c.label = names[one_name ? 0 : (guint) g_rand_int_range (rand, 0, N_NAMES)];
          c1 = etl_span_set_add (set, &c);
          c.start = t + d / 2;
          c.stop = t + d * 9 / 10;
          c.name = c.label = names[one_name ? 0 : (guint) g_rand_int_range (rand, 0, N_NAMES)];
          etl_span_set_add (set, &c);
          c.parent = c1;
          c.depth = 2;
          c.start = t + d / 5;
          c.stop = t + d * 3 / 10;
          c.name = c.label = names[one_name ? 0 : (guint) g_rand_int_range (rand, 0, N_NAMES)];
          etl_span_set_add (set, &c);
          t += d + d / 4 + 10;
        }
    }
  g_rand_free (rand);
  return set;
}

/* The view's work for the names table and one name's histogram and tail
 * selection; returns ms. */
static double
time_stats (EtlSpanSet *set, guint *n_rows, guint *n_selected, double *cpu)
{
  gint64 t0 = g_get_monotonic_time ();
  double c0 = cpu_ms ();
  g_autoptr (GArray) rows = etl_span_set_compute_stats (set, 0, 0);
  guint best = 0, n = 0;
  const EtlSpan *s = etl_span_set_get (set, &n);
  g_autoptr (GArray) of_name = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr (GArray) selected = g_array_new (FALSE, FALSE, sizeof (guint32));
  EtlSpanHistogram h;
  const EtlSpanNameStats *row;

  for (guint r = 1; r < rows->len; r++)
    if (g_array_index (rows, EtlSpanNameStats, r).stats.count > g_array_index (rows, EtlSpanNameStats, best).stats.count)
      best = r;
  row = &g_array_index (rows, EtlSpanNameStats, best);
  for (guint i = 0; i < n; i++)
    if (s[i].name == row->name && s[i].lane == row->lane)
      {
        gint64 d = s[i].stop - s[i].start;

        g_array_append_val (of_name, i);
        g_array_append_val (durations, d);
      }
  etl_span_histogram_compute (&h, (const gint64 *) (gpointer) durations->data, durations->len, 64);
  for (guint i = 0; i < of_name->len; i++)
    {
      guint32 k = g_array_index (of_name, guint32, i);

      if (etl_span_histogram_bucket_of (&h, s[k].stop - s[k].start) >= 48)
        g_array_append_val (selected, k);
    }
  *n_rows = rows->len;
  *n_selected = selected->len;
  *cpu = cpu_ms () - c0;
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}

int
main (int argc, char **argv)
{
  int n_spans = 1000000, n_frames = 20;
  GOptionEntry entries[] = {
    { "spans", 0, 0, G_OPTION_ARG_INT, &n_spans, "Spans (default 1,000,000)", "N" },
    { "frames", 0, 0, G_OPTION_ARG_INT, &n_frames, "Frames per zoom level (default 20)", "K" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("- Regions view and area benchmark");
  g_autoptr (GError) error = NULL;
  gboolean ok = TRUE;
  static const char *const level_names[] = { "full", "1_16", "1_256", "1_4096", "pan" };
  static const double level_div[] = { 1, 16, 256, 4096, 256 };

  g_option_context_add_main_entries (ctx, entries, NULL);
  if (!g_option_context_parse (ctx, &argc, &argv, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 2;
    }
  n_spans = MAX (n_spans, 4 * N_LANES);

  printf ("| what | median ms | target |\n|---|---|---|\n");
  for (int one = 0; one <= 1; one++)
    {
      g_autoptr (EtlSpanSet) set = make_spans ((guint) n_spans, one);
      double t[5], c[5];
      guint n_rows = 0, n_sel = 0, n = 0;

      etl_span_set_get (set, &n);
      for (guint r = 0; r < G_N_ELEMENTS (t); r++)
        t[r] = time_stats (set, &n_rows, &n_sel, &c[r]);
      {
        double m = median (t, G_N_ELEMENTS (t)), mc = median (c, G_N_ELEMENTS (c));

        printf ("BENCH regions_stats%s %.1f ms (CPU %.1f ms; %u spans, %u names, %u in the tail)\n",
                one ? "_one_name" : "", m, mc, n, n_rows, n_sel);
        printf ("| stats and histogram, %u spans%s | %.1f | ≤ %.0f |\n", n, one ? ", one name" : "", m,
                STATS_TARGET_MS);
        ok = ok && m <= STATS_TARGET_MS;
      }
    }

  if (!gtk_init_check (&argc, &argv))
    {
      printf ("no display: the frame benchmark is skipped\n");
      return ok ? 77 : 1;
    }
  {
    g_autoptr (EtlSpanSet) set = make_spans ((guint) n_spans, FALSE);
    g_autoptr (EtlZoomManager) zoom = etl_zoom_manager_new ();
    GtkWidget *window = gtk_offscreen_window_new ();
    EtlRegionLanes *lanes = ETL_REGION_LANES (etl_region_lanes_new ());
    const EtlSpan *s;
    guint n = 0;
    gint64 lo = G_MAXINT64, hi = 0;
    int height;
    gint64 t0;

    gtk_container_add (GTK_CONTAINER (window), GTK_WIDGET (lanes));
    s = etl_span_set_get (set, &n);
    for (guint i = 0; i < n; i++)
      {
        lo = MIN (lo, s[i].start);
        hi = MAX (hi, s[i].stop);
      }
    etl_zoom_manager_set_bounds (zoom, lo, hi + 1);
    etl_region_lanes_set_zoom_manager (lanes, zoom);
    t0 = g_get_monotonic_time ();
    etl_region_lanes_set_spans_sync (lanes, set);
    printf ("layout of %u spans: %.1f ms (in the worker)\n", n, (double) (g_get_monotonic_time () - t0) / 1000.0);
    gtk_widget_get_size_request (GTK_WIDGET (lanes), NULL, &height);
    gtk_widget_show_all (window);
    gtk_widget_set_size_request (window, WIDTH, height);
    while (gtk_events_pending ())
      gtk_main_iteration ();
    for (guint level = 0; level < G_N_ELEMENTS (level_div); level++)
      {
        cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, height);
        g_autofree double *t = g_new (double, n_frames);
        g_autofree double *c = g_new (double, n_frames);
        gint64 span = (gint64) ((double) (hi + 1 - lo) / level_div[level]);
        gint64 mid = lo + (hi + 1 - lo) / 2;
        double m;
        gboolean pan = g_str_equal (level_names[level], "pan");

        etl_zoom_manager_set_visible (zoom, mid - span / 2, mid - span / 2 + span);
        for (int f = 0; f < n_frames; f++)
          {
            cairo_t *cr = cairo_create (surface);
            gint64 f0 = g_get_monotonic_time ();
            double c0 = cpu_ms ();

            if (pan)
              {
                gint64 at = mid - span / 2 + (gint64) f * (span / 100);

                etl_zoom_manager_set_visible (zoom, at, at + span);
              }
            etl_region_lanes_render (lanes, cr, WIDTH, height);
            cairo_destroy (cr);
            cairo_surface_flush (surface);
            t[f] = (double) (g_get_monotonic_time () - f0) / 1000.0;
            c[f] = cpu_ms () - c0;
          }
        m = median (t, (guint) n_frames);
        printf ("BENCH regions_frame_%s %.2f ms (CPU %.2f ms; %d lanes, %d px high, %u bars)\n", level_names[level], m,
                median (c, (guint) n_frames), N_LANES, height, etl_region_lanes_get_n_drawn (lanes));
        printf ("| frame, %d region lanes, 1920 px, %s | %.2f | ≤ %.0f |\n", N_LANES, level_names[level], m,
                FRAME_TARGET_MS);
        ok = ok && m <= FRAME_TARGET_MS;
        if (g_getenv ("ETL_BENCH_PNG") != NULL && level == 1)
          cairo_surface_write_to_png (surface, g_getenv ("ETL_BENCH_PNG"));
        cairo_surface_destroy (surface);
      }
    /* The lanes' heights for a new visible range alone (what a move costs
     * besides the frame): 1,000 moves of a 1/256 view. */
    {
      gint64 span = (hi + 1 - lo) / 256, f0 = g_get_monotonic_time ();
      double c0 = cpu_ms ();

      for (int k = 0; k < 1000; k++)
        etl_zoom_manager_set_visible (zoom, lo + (gint64) k * (span / 100), lo + (gint64) k * (span / 100) + span);
      printf ("BENCH regions_heights %.2f us a move (CPU %.2f us; %u lanes collapsed at the end)\n",
              (double) (g_get_monotonic_time () - f0) / 1000.0, (cpu_ms () - c0), etl_region_lanes_get_n_collapsed (lanes));
    }
    gtk_widget_destroy (window);
  }
  return ok ? 0 : 1;
}
