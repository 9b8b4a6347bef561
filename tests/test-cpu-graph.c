/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The CPU usage graph under the timeline (issue 10), in the window:
 * - net.4.5.2.x64.etl (79,528 PerfInfo SampledProfile records): after load
 *   the graph is Sampled, its first band is Test.x64.exe (3676) (5,129
 *   samples) and its share equals the core's etl_cpu_usage_compute_range()
 *   over the same range; a trace without samples or CSwitch records hides it;
 * - a synthetic schedule trace (etl_synth_write(), 4 processors, 100 ms; the
 *   numbers are those of tests/test-cpu-usage.c): in Precise mode over the
 *   whole schedule, gamma.exe (3000) 88 ms = 22 %, alpha 84 ms, beta 64 ms,
 *   delta 18 ms, and every bucket of the series equals the core's;
 * - the hover text at a known x names the bucket's time and each band's %;
 * - a zoom recomputes the series for the new visible range.
 * Run under Xvfb; skipped without a display. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-cpu-graph.h"
#include "etl-cpu-usage.h"
#include "etl-synth.h"
#include "etl-test-gui-util.h"
#include "etl-window.h"
#include "etl-zoom-manager.h"

#define MS G_GINT64_CONSTANT (10000)

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
} Fixture;

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  if (have_display)
    fixture->window = etl_test_window_new (1400, 900);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  etl_test_window_clear (&fixture->window);
}

static gboolean
all_idle (gpointer data)
{
  EtlWindow *window = data;

  return !etl_window_get_busy (window) && !etl_cpu_graph_is_busy (etl_window_get_cpu_graph (window));
}

static void
open_and_wait (EtlWindow *window, const char *path)
{
  etl_test_window_open (window, &path, 1);
  etl_test_wait_drained (all_idle, window, "the window and its CPU graph to be idle");
}

/* Lets the graph see a zoom change (a layout and a paint) and recompute. */
static void
settle (EtlWindow *window)
{
  etl_test_wait_drained (all_idle, window, "the window and its CPU graph to be idle");
  etl_test_wait_paint (GTK_WIDGET (window));
  etl_test_wait_drained (all_idle, window, "the window and its CPU graph to be idle");
}

/* The core's usage for the graph's range and bucket width. */
static EtlCpuUsage *
core_usage_like (EtlWindow *window, EtlCpuUsage *shown)
{
  g_autoptr (GError) error = NULL;
  EtlCpuUsage *u = etl_cpu_usage_compute_range (
      etl_window_get_trace (window), etl_cpu_usage_get_mode (shown), ETL_CPU_USAGE_BY_PROCESS,
      etl_cpu_usage_get_start (shown), etl_cpu_usage_get_end (shown), etl_cpu_usage_get_bucket_width (shown),
      NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (u);
  return u;
}

/* The graph's series equals the core's, band by band, bucket by bucket. */
static void
assert_series_equal (const EtlCpuUsageSeries *got, const EtlCpuUsageSeries *want)
{
  g_assert_cmpuint (got->n_rows, ==, want->n_rows);
  g_assert_cmpuint (got->n_buckets, ==, want->n_buckets);
  for (guint r = 0; r < want->n_rows; r++)
    {
      g_assert_cmpstr (got->names[r], ==, want->names[r]);
      for (guint k = 0; k < want->n_buckets; k++)
        g_assert_cmpfloat (got->percent[(gsize)r * got->n_buckets + k], ==,
                           want->percent[(gsize)r * want->n_buckets + k]);
    }
}

static void
test_net_sampled (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  EtlCpuGraph *graph;
  EtlCpuUsage *shown;
  const EtlCpuUsageSeries *s;
  g_autoptr (EtlCpuUsage) core = NULL;
  g_autoptr (EtlCpuUsage) whole = NULL;
  g_autoptr (EtlCpuUsageSeries) want = NULL;
  g_autoptr (GError) error = NULL;
  const EtlCpuUsageEntry *e;
  guint n;

  if (etl_test_skip_without_display (have_display) || path == NULL)
    return;
  open_and_wait (fixture->window, path);
  graph = etl_window_get_cpu_graph (fixture->window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (graph)));
  g_assert_true (etl_cpu_graph_has_mode (graph, ETL_CPU_USAGE_SAMPLED));
  g_assert_cmpint (etl_cpu_graph_get_mode (graph), ==, ETL_CPU_USAGE_SAMPLED);
  shown = etl_cpu_graph_get_usage (graph);
  s = etl_cpu_graph_get_series (graph);
  g_assert_nonnull (shown);
  g_assert_nonnull (s);

  /* The whole trace is in view after load: all 79,528 samples. */
  g_assert_cmpuint (etl_cpu_usage_get_n_records (shown), ==, 79528);
  g_assert_cmpuint (s->n_rows, ==, ETL_CPU_GRAPH_TOP_N + 1);
  g_assert_cmpstr (s->names[0], ==, "Test.x64.exe (3676)");
  g_assert_cmpuint (s->entries[0]->samples, ==, 5129);
  g_assert_cmpstr (s->names[s->n_rows - 1], ==, "Other");
  g_assert_null (s->entries[s->n_rows - 1]);
  /* Roughly one bucket per PX_PER_BUCKET (3) pixels of the time axis. */
  g_assert_cmpuint (s->n_buckets, >=, 100);

  /* Its share equals the core's over the same range, and the series too. */
  core = core_usage_like (fixture->window, shown);
  e = etl_cpu_usage_get_entries (core, &n);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpstr (e[0].name, ==, "Test.x64.exe (3676)");
  g_assert_cmpfloat (s->entries[0]->percent, ==, e[0].percent);
  want = etl_cpu_usage_dup_series (core, ETL_CPU_GRAPH_TOP_N);
  assert_series_equal (s, want);
  /* And the samples equal the whole trace's figure (the CLI's). */
  whole = etl_cpu_usage_compute (etl_window_get_trace (fixture->window), ETL_CPU_USAGE_SAMPLED,
                                 ETL_CPU_USAGE_BY_PROCESS, 0, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  e = etl_cpu_usage_get_entries (whole, &n);
  g_assert_cmpstr (e[0].name, ==, "Test.x64.exe (3676)");
  g_assert_cmpuint (e[0].samples, ==, 5129);
}

typedef struct
{
  char *dir;
  char *path;
} Tmp;

static void
write_trace (Tmp *tmp)
{
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;

  tmp->dir = g_dir_make_tmp ("etlscope-cpugraph-XXXXXX", &error);
  g_assert_no_error (error);
  tmp->path = g_build_filename (tmp->dir, "trace.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.schedule = TRUE;
  params.schedule_ms = 100;
  g_assert_true (etl_synth_write (&params, tmp->path, &error));
  g_assert_no_error (error);
}

static void
tmp_clear (Tmp *t)
{
  g_unlink (t->path);
  g_rmdir (t->dir);
  g_free (t->path);
  g_free (t->dir);
}

static void
test_schedule_precise (Fixture *fixture, gconstpointer data)
{
  Tmp tmp = { 0 };
  EtlCpuGraph *graph;
  EtlZoomManager *zm;
  EtlCpuUsage *shown;
  const EtlCpuUsageSeries *s;
  g_autoptr (EtlCpuUsage) core = NULL;
  g_autoptr (EtlCpuUsageSeries) want = NULL;
  g_autoptr (EtlCpuUsage) whole = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start, end;

  if (etl_test_skip_without_display (have_display))
    return;
  write_trace (&tmp);
  open_and_wait (fixture->window, tmp.path);
  graph = etl_window_get_cpu_graph (fixture->window);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (graph)));
  g_assert_true (etl_cpu_graph_has_mode (graph, ETL_CPU_USAGE_SAMPLED));
  g_assert_true (etl_cpu_graph_has_mode (graph, ETL_CPU_USAGE_PRECISE));
  /* Sampled first (the trace has samples), its buckets at least 4 sampling
   * intervals (1 ms) wide though the axis would allow narrower ones. */
  g_assert_cmpint (etl_cpu_graph_get_mode (graph), ==, ETL_CPU_USAGE_SAMPLED);
  g_assert_cmpint (etl_cpu_usage_get_bucket_width (etl_cpu_graph_get_usage (graph)), ==, 4 * MS);
  g_assert_cmpuint (etl_cpu_usage_get_n_records (etl_cpu_graph_get_usage (graph)), ==, 400);

  /* The whole 100 ms schedule in view. */
  whole = etl_cpu_usage_compute (etl_window_get_trace (fixture->window), ETL_CPU_USAGE_PRECISE,
                                 ETL_CPU_USAGE_BY_PROCESS, 10 * MS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  start = etl_cpu_usage_get_start (whole);
  end = etl_cpu_usage_get_end (whole);
  g_assert_cmpint (end - start, ==, 100 * MS);
  zm = etl_window_get_zoom_manager (fixture->window);
  etl_zoom_manager_set_bounds (zm, start, end);
  etl_zoom_manager_set_visible (zm, start, end);
  etl_cpu_graph_set_mode (graph, ETL_CPU_USAGE_PRECISE);
  settle (fixture->window);
  g_assert_cmpint (etl_cpu_graph_get_mode (graph), ==, ETL_CPU_USAGE_PRECISE);
  shown = etl_cpu_graph_get_usage (graph);
  s = etl_cpu_graph_get_series (graph);
  g_assert_nonnull (s);
  g_assert_cmpint (etl_cpu_usage_get_mode (shown), ==, ETL_CPU_USAGE_PRECISE);
  g_assert_cmpint (etl_cpu_usage_get_start (shown), ==, start);
  g_assert_cmpint (etl_cpu_usage_get_end (shown), ==, end);

  /* The hand-computed totals of tests/test-cpu-usage.c. */
  g_assert_cmpuint (s->n_rows, ==, 4);
  g_assert_cmpstr (s->names[0], ==, "gamma.exe (3000)");
  g_assert_cmpint (s->entries[0]->cpu_time, ==, 88 * MS);
  g_assert_cmpfloat_with_epsilon (s->entries[0]->percent, 22.0, 1e-9);
  g_assert_cmpint (s->entries[1]->pid, ==, 1000);
  g_assert_cmpint (s->entries[1]->cpu_time, ==, 84 * MS);
  g_assert_cmpint (s->entries[2]->pid, ==, 2000);
  g_assert_cmpint (s->entries[2]->cpu_time, ==, 64 * MS);
  g_assert_cmpint (s->entries[3]->pid, ==, 4000);
  g_assert_cmpint (s->entries[3]->cpu_time, ==, 18 * MS);

  /* Every bucket equals the core's at the graph's bucket width. */
  core = core_usage_like (fixture->window, shown);
  want = etl_cpu_usage_dup_series (core, ETL_CPU_GRAPH_TOP_N);
  assert_series_equal (s, want);
  tmp_clear (&tmp);
}

/* The hover text at a known x (the middle of the axis): the bucket's start
 * and end, and each band's percentage in that bucket as the series (equal
 * to the core's, see above) holds it, and their total. */
static void
test_hover (Fixture *fixture, gconstpointer data)
{
  Tmp tmp = { 0 };
  EtlCpuGraph *graph;
  EtlZoomManager *zm;
  EtlCpuUsage *shown;
  const EtlCpuUsageSeries *s;
  g_autofree char *text = NULL;
  g_autofree char *want_line = NULL;
  g_autofree char *want_time = NULL;
  GtkWidget *area;
  gint64 start, bw, t, origin;
  int width, axis_w;
  guint k;
  double x;

  if (etl_test_skip_without_display (have_display))
    return;
  write_trace (&tmp);
  open_and_wait (fixture->window, tmp.path);
  graph = etl_window_get_cpu_graph (fixture->window);
  etl_cpu_graph_set_mode (graph, ETL_CPU_USAGE_PRECISE);
  settle (fixture->window);
  shown = etl_cpu_graph_get_usage (graph);
  s = etl_cpu_graph_get_series (graph);
  area = etl_cpu_graph_get_area (graph);
  width = gtk_widget_get_allocated_width (area);
  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  g_assert_cmpint (axis_w, >, 100);
  zm = etl_window_get_zoom_manager (fixture->window);

  /* The middle of the time axis: about 50 ms into the schedule. */
  x = ETL_LABEL_COLUMN_WIDTH + axis_w / 2.0;
  t = etl_zoom_manager_x_to_time (zm, x - ETL_LABEL_COLUMN_WIDTH, axis_w);
  start = etl_cpu_usage_get_start (shown);
  bw = etl_cpu_usage_get_bucket_width (shown);
  k = (guint)((t - start) / bw);
  origin = etl_trace_get_origin (etl_window_get_trace (fixture->window));
  text = etl_cpu_graph_dup_hover_text (graph, x, width);
  g_assert_nonnull (text);
  want_time = g_strdup_printf ("%.*f – %.*f s", bw >= 10000 ? 3 : 6, (start + (gint64)k * bw - origin) / 1e7,
                               bw >= 10000 ? 3 : 6, (start + (gint64)(k + 1) * bw - origin) / 1e7);
  g_assert_true (g_str_has_prefix (text, want_time));
  for (guint r = 0; r < s->n_rows; r++)
    if (s->percent[(gsize)r * s->n_buckets + k] > 0)
      {
        g_free (want_line);
        want_line = g_strdup_printf ("\n%s: %.1f %%", s->names[r], s->percent[(gsize)r * s->n_buckets + k]);
        g_assert_nonnull (strstr (text, want_line));
      }
  g_test_message ("hover: %s", text);
  {
    double total = 0;
    g_autofree char *want_total = NULL;

    for (guint r = 0; r < s->n_rows; r++)
      total += s->percent[(gsize)r * s->n_buckets + k];
    want_total = g_strdup_printf ("\nTotal: %.1f %% of 4 CPUs", total);
    g_assert_true (g_str_has_suffix (text, want_total));
    /* 50 ms into the schedule alpha, beta and gamma run (delta only in
     * its own 1 ms slots): something runs, never more than all CPUs. */
    g_assert_cmpfloat (total, >, 0.0);
    g_assert_cmpfloat (total, <=, 100.0 + 1e-9);
  }
  g_assert_nonnull (strstr (text, "alpha.exe (1000): "));
  /* Over the label column: no bucket. */
  g_assert_null (etl_cpu_graph_dup_hover_text (graph, 10, width));
  tmp_clear (&tmp);
}

/* A zoom recomputes the series for the new visible range. */
static void
test_follows_zoom (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  EtlCpuGraph *graph;
  EtlZoomManager *zm;
  EtlCpuUsage *shown;
  gint64 t0, t1, w0;
  g_autoptr (EtlCpuUsage) core = NULL;
  g_autoptr (EtlCpuUsageSeries) want = NULL;

  if (etl_test_skip_without_display (have_display) || path == NULL)
    return;
  open_and_wait (fixture->window, path);
  graph = etl_window_get_cpu_graph (fixture->window);
  w0 = etl_cpu_usage_get_bucket_width (etl_cpu_graph_get_usage (graph));
  zm = etl_window_get_zoom_manager (fixture->window);
  etl_zoom_manager_get_visible (zm, &t0, &t1);
  etl_zoom_manager_set_visible (zm, t0 + (t1 - t0) / 4, t0 + (t1 - t0) / 2);
  /* Repeated requests collapse into one computation. */
  etl_zoom_manager_pan (zm, 1);
  etl_zoom_manager_pan (zm, -1);
  settle (fixture->window);
  etl_zoom_manager_get_visible (zm, &t0, &t1);
  shown = etl_cpu_graph_get_usage (graph);
  g_assert_cmpint (etl_cpu_usage_get_start (shown), ==, t0);
  g_assert_cmpint (etl_cpu_usage_get_end (shown), ==, t1);
  /* A quarter of the span: buckets about four times narrower. */
  g_assert_cmpint (etl_cpu_usage_get_bucket_width (shown), <, w0 / 3);
  g_assert_cmpuint (etl_cpu_usage_get_n_records (shown), <, 79528);
  core = core_usage_like (fixture->window, shown);
  want = etl_cpu_usage_dup_series (core, ETL_CPU_GRAPH_TOP_N);
  assert_series_equal (etl_cpu_graph_get_series (graph), want);
}

/* A trace with neither SampledProfile nor CSwitch records (AMSITrace.etl:
 * user-mode providers only) hides the graph. */
static void
test_hidden (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path ("AMSITrace.etl");
  EtlCpuGraph *graph;

  if (etl_test_skip_without_display (have_display) || path == NULL)
    return;
  open_and_wait (fixture->window, path);
  graph = etl_window_get_cpu_graph (fixture->window);
  g_assert_false (etl_cpu_graph_has_mode (graph, ETL_CPU_USAGE_SAMPLED));
  g_assert_false (etl_cpu_graph_has_mode (graph, ETL_CPU_USAGE_PRECISE));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (graph)));
  g_assert_null (etl_cpu_graph_get_series (graph));
}

int
main (int argc, char *argv[])
{
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add ("/etl/gui/cpu-graph/net-sampled", Fixture, NULL, fixture_setup, test_net_sampled, fixture_teardown);
  g_test_add ("/etl/gui/cpu-graph/schedule-precise", Fixture, NULL, fixture_setup, test_schedule_precise,
              fixture_teardown);
  g_test_add ("/etl/gui/cpu-graph/hover", Fixture, NULL, fixture_setup, test_hover, fixture_teardown);
  g_test_add ("/etl/gui/cpu-graph/follows-zoom", Fixture, NULL, fixture_setup, test_follows_zoom,
              fixture_teardown);
  g_test_add ("/etl/gui/cpu-graph/hidden", Fixture, NULL, fixture_setup, test_hidden, fixture_teardown);

  return g_test_run ();
}
