/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The main window through its open path: loading off the main thread, lanes,
 * the loss legend, zoom actions and the info bar. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-test-util.h"
#include "etl-window.h"

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
} Fixture;

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  if (!have_display)
    return;
  fixture->window = g_object_ref_sink (etl_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1200, 800);
  gtk_widget_show (GTK_WIDGET (fixture->window));
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  if (fixture->window != NULL)
    {
      gtk_widget_destroy (GTK_WIDGET (fixture->window));
      g_clear_object (&fixture->window);
    }
}

static gboolean
on_timeout (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Opens @paths and iterates the main loop until the window has loaded. */
static void
open_and_wait (EtlWindow *window, const char *const *paths)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean timed_out = FALSE;
  guint timeout;

  for (guint i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));
  etl_window_open_files (window, (GFile **) files->pdata, files->len);
  g_assert_true (etl_window_get_loading (window));

  timeout = g_timeout_add_seconds (60, on_timeout, &timed_out);
  while (etl_window_get_loading (window) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (timeout);

  /* Let the widgets draw once. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static gboolean
skip_without_display (void)
{
  if (!have_display)
    {
      g_test_skip ("no display (gtk_init_check failed); run under xvfb-run");
      return TRUE;
    }
  return FALSE;
}

static void
test_open_net (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *legend = NULL;
  guint64 ev = 1, bu = 1;
  gint64 b, e, b2, e2;
  GActionGroup *zoom;

  if (skip_without_display () || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { path, NULL });

  g_assert_nonnull (etl_window_get_trace (fixture->window));
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "8 CPUs"));
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "net.4.5.2.x64.etl"));

  g_assert_cmpuint (etl_window_get_n_loss_files (fixture->window), ==, 1);
  g_assert_true (etl_window_get_loss_totals (fixture->window, 0, &ev, &bu));
  g_assert_cmpuint (ev, ==, 0);
  g_assert_cmpuint (bu, ==, 0);
  legend = etl_window_dup_loss_legend (fixture->window, 0);
  g_assert_nonnull (strstr (legend, "EventsLost 0 · BuffersLost 0"));
  g_assert_nonnull (strstr (legend, "0 lost"));

  /* zoom.zoom-in halves the visible range; zoom-fit restores it. */
  zoom = gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "zoom");
  g_assert_nonnull (zoom);
  g_assert_false (g_action_group_get_action_enabled (zoom, "zoom-out"));
  etl_window_get_visible_range (fixture->window, &b, &e);
  g_action_group_activate_action (zoom, "zoom-in", NULL);
  etl_window_get_visible_range (fixture->window, &b2, &e2);
  g_assert_cmpint (e2 - b2, ==, (e - b) / 2);
  g_assert_cmpint (b2, ==, b + (e - b) / 4);
  g_assert_true (g_action_group_get_action_enabled (zoom, "zoom-out"));
  g_action_group_activate_action (zoom, "zoom-fit", NULL);
  etl_window_get_visible_range (fixture->window, &b2, &e2);
  g_assert_cmpint (b2, ==, b);
  g_assert_cmpint (e2, ==, e);
}

static void
test_open_amsi (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *legend = NULL;
  guint64 ev = 0, bu = 1;

  if (skip_without_display () || (path = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { path, NULL });

  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);
  g_assert_true (etl_window_get_loss_totals (fixture->window, 0, &ev, &bu));
  g_assert_cmpuint (ev, ==, 3);
  g_assert_cmpuint (bu, ==, 0);
  legend = etl_window_dup_loss_legend (fixture->window, 0);
  g_assert_nonnull (strstr (legend, "EventsLost 3 · BuffersLost 0"));
}

/* Two files, one merged timeline, one legend row per file. */
static void
test_open_merged (Fixture *fixture, gconstpointer data)
{
  g_autofree char *net = NULL;
  g_autofree char *amsi = NULL;
  guint64 ev = 0, bu = 1;

  if (skip_without_display () ||
      (net = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL ||
      (amsi = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { net, amsi, NULL });

  g_assert_cmpuint (etl_trace_get_n_files (etl_window_get_trace (fixture->window)), ==, 2);
  g_assert_cmpuint (etl_trace_get_n_records (etl_window_get_trace (fixture->window)), ==, 179474 + 21);
  g_assert_cmpuint (etl_window_get_n_loss_files (fixture->window), ==, 2);
  g_assert_true (etl_window_get_loss_totals (fixture->window, 1, &ev, &bu));
  g_assert_cmpuint (ev, ==, 3);
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "net.4.5.2.x64.etl, AMSITrace.etl"));
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));
}

/* A missing file and a garbage file show the info bar with the reader's
 * message and keep the trace that was shown. */
static void
test_open_bad (Fixture *fixture, gconstpointer data)
{
  g_autofree char *amsi = NULL;
  g_autofree char *garbage = NULL;
  g_autofree char *missing = NULL;
  g_autoptr (GError) error = NULL;
  guint8 junk[8192];
  int fd;

  if (skip_without_display () || (amsi = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  open_and_wait (fixture->window, (const char *const[]) { amsi, NULL });
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));

  fd = g_file_open_tmp ("etlscope-garbage-XXXXXX.etl", &garbage, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < sizeof junk; i++)
    junk[i] = (guint8) g_test_rand_int_range (0, 256);
  g_assert_true (g_file_set_contents (garbage, (const char *) junk, sizeof junk, &error));
  g_assert_no_error (error);
  g_close (fd, NULL);

  /* Garbage alone: nothing loads, the AMSI trace stays. */
  open_and_wait (fixture->window, (const char *const[]) { garbage, NULL });
  g_assert_true (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), garbage));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), "offset"));
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "AMSITrace.etl"));
  g_assert_cmpuint (etl_window_get_n_lanes (fixture->window), ==, 8);

  /* A missing file next to a good one: the good one loads. */
  missing = g_build_filename (g_get_tmp_dir (), "etlscope-does-not-exist.etl", NULL);
  open_and_wait (fixture->window, (const char *const[]) { missing, amsi, NULL });
  g_assert_true (etl_window_get_info_bar_visible (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_info_message (fixture->window), missing));
  g_assert_cmpuint (etl_trace_get_n_files (etl_window_get_trace (fixture->window)), ==, 1);
  g_assert_cmpuint (etl_window_get_n_loss_files (fixture->window), ==, 1);

  /* A good file again hides the info bar. */
  open_and_wait (fixture->window, (const char *const[]) { amsi, NULL });
  g_assert_false (etl_window_get_info_bar_visible (fixture->window));

  g_unlink (garbage);
}

int
main (int argc, char *argv[])
{
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/etl/gui/open/net", Fixture, NULL, fixture_setup, test_open_net, fixture_teardown);
  g_test_add ("/etl/gui/open/amsi", Fixture, NULL, fixture_setup, test_open_amsi, fixture_teardown);
  g_test_add ("/etl/gui/open/merged", Fixture, NULL, fixture_setup, test_open_merged, fixture_teardown);
  g_test_add ("/etl/gui/open/bad", Fixture, NULL, fixture_setup, test_open_bad, fixture_teardown);

  return g_test_run ();
}
