/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Issue 11 (main-loop stalls): Cancel during a load — at once, or after the
 * load worker has run a while — stops the load and leaves the window usable:
 * no trace, the start page, no error; the same file then opens; and the CPU
 * graph, whose old results are now freed in a worker, still shows the new
 * trace's usage after a reload.  Run under Xvfb; skipped without a display. */

#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <time.h>

#include "etl-application.h"
#include "etl-cpu-graph.h"
#include "etl-synth.h"
#include "etl-test-gui-util.h"
#include "etl-trace.h"
#include "etl-window.h"

#define N_RECORDS 600000

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
  char *dir;
  char *path;
} Fixture;

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;

  if (!have_display)
    return;
  fixture->dir = g_dir_make_tmp ("etlscope-stall-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->path = g_build_filename (fixture->dir, "big.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.n_records = N_RECORDS;
  params.seed = 11;
  g_assert_true (etl_synth_write (&params, fixture->path, &error));
  g_assert_no_error (error);
  fixture->window = etl_test_window_new (1200, 800);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  etl_test_window_clear (&fixture->window);
  if (fixture->path != NULL)
    g_unlink (fixture->path);
  if (fixture->dir != NULL)
    g_rmdir (fixture->dir);
  g_free (fixture->path);
  g_free (fixture->dir);
}

static gboolean
all_idle (gpointer data)
{
  EtlWindow *window = data;

  return !etl_window_get_busy (window) && !etl_cpu_graph_is_busy (etl_window_get_cpu_graph (window));
}

/* Runs the main loop until the window, its lanes and its CPU graph are idle. */
static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_drained (all_idle, window, "the window, its lanes and its CPU graph to be idle");
}

static void
open_path (EtlWindow *window, const char *path)
{
  etl_test_window_open (window, &path, 1);
  g_assert_true (etl_window_get_loading (window));
}

/* Cancelled, the window shows the start page without a trace or an error. */
static void
assert_cancelled (EtlWindow *window)
{
  g_assert_false (etl_window_get_loading (window));
  g_assert_null (etl_window_get_trace (window));
  g_assert_cmpstr (etl_window_get_page (window), ==, "start");
  g_assert_false (etl_window_get_info_bar_visible (window));
  g_assert_cmpstr (etl_window_get_status (window), ==, "No trace loaded");
}

static void
assert_loaded (EtlWindow *window)
{
  EtlTrace *trace = etl_window_get_trace (window);

  g_assert_nonnull (trace);
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, N_RECORDS + 1);
  g_assert_cmpstr (etl_window_get_page (window), ==, "trace");
}

static void
test_cancel_at_once (Fixture *fixture, gconstpointer data)
{
  guint refs;

  if (etl_test_skip_without_display (have_display))
    return;
  refs = etl_test_ref_count (fixture->window);
  open_path (fixture->window, fixture->path);
  /* the load's task holds the window */
  g_assert_cmpuint (etl_test_ref_count (fixture->window), >, refs);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "cancel", NULL);
  assert_cancelled (fixture->window);
  /* The cancelled worker stops; its result arrives and changes nothing. */
  etl_test_wait_jobs_done (fixture->window, refs, "the cancelled load's worker to stop and report");
  assert_cancelled (fixture->window);

  /* Usable: the same file opens. */
  open_path (fixture->window, fixture->path);
  wait_idle (fixture->window);
  assert_loaded (fixture->window);
}

/* Lets the load worker run while the main loop does not: until it has used
 * 20 ms of processor time (clock(): the process's, the main thread sleeping;
 * wall time on Windows) or 2 s have passed (a machine fast enough to finish
 * the load sooner).  Its result cannot reach the window meanwhile, so the
 * Cancel that follows lands during the load whatever the machine's speed;
 * how fast a Cancel takes effect is bench-gui's figure (tests/bench/). */
static void
let_worker_run (void)
{
  clock_t start = clock ();
  gint64 end = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  while ((double) (clock () - start) < 0.020 * CLOCKS_PER_SEC && g_get_monotonic_time () < end)
    g_usleep (1000);
}

/* Cancel once the worker has run a while, while a trace is shown: that
 * trace stays, the worker stops, and a later load replaces the trace. */
static void
test_cancel_later (Fixture *fixture, gconstpointer data)
{
  EtlTrace *shown;
  guint refs;

  if (etl_test_skip_without_display (have_display))
    return;
  open_path (fixture->window, fixture->path);
  wait_idle (fixture->window);
  assert_loaded (fixture->window);
  shown = etl_window_get_trace (fixture->window);
  refs = etl_test_ref_count (fixture->window);

  open_path (fixture->window, fixture->path);
  let_worker_run ();
  g_assert_true (etl_window_get_loading (fixture->window));
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "cancel", NULL);
  g_assert_false (etl_window_get_loading (fixture->window));
  g_assert_true (etl_window_get_trace (fixture->window) == shown);
  etl_test_wait_jobs_done (fixture->window, refs, "the cancelled load's worker to stop and report");
  wait_idle (fixture->window);
  g_assert_true (etl_window_get_trace (fixture->window) == shown);
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));
  g_assert_cmpstr (etl_window_get_page (fixture->window), ==, "trace");

  /* The CPU graph of the trace shown has its usage (the old one was freed
   * in a worker when the new one came). */
  g_assert_nonnull (etl_cpu_graph_get_usage (etl_window_get_cpu_graph (fixture->window)));

  open_path (fixture->window, fixture->path);
  wait_idle (fixture->window);
  assert_loaded (fixture->window);
  g_assert_true (etl_window_get_trace (fixture->window) != shown);
  g_assert_nonnull (etl_cpu_graph_get_usage (etl_window_get_cpu_graph (fixture->window)));
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = g_dir_make_tmp ("etlscope-stall-xdg-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (xdg, "config", NULL);
  g_autofree char *xdg_data = g_build_filename (xdg, "data", NULL);
  int status;

  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_DATA_HOME", xdg_data, TRUE);
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();
  g_test_add ("/etl/gui/stall/cancel-at-once", Fixture, NULL, fixture_setup, test_cancel_at_once, fixture_teardown);
  g_test_add ("/etl/gui/stall/cancel-later", Fixture, NULL, fixture_setup, test_cancel_later, fixture_teardown);
  status = g_test_run ();
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return status;
}
