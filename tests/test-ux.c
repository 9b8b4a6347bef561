/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The first hour with etlscope (issue 13): window habits (recent sets,
 * unescaped names, the window title, state saved on Quit, details cleared by
 * a hiding filter) and the event list (sorting in a worker, copy, the
 * context menu's filters, go to time, next of the same event, markers kept
 * across a reopen).  Run under Xvfb; skipped without a display.  XDG
 * directories point into a temporary folder. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-application.h"
#include "etl-filter.h"
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

static void
drain (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
wait_idle (EtlWindow *window)
{
  gboolean timed_out = FALSE;
  guint timeout = g_timeout_add_seconds (60, on_timeout, &timed_out);

  while (etl_window_get_busy (window) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (timeout);
  drain ();
}

static void
open_and_wait (EtlWindow *window, const char *const *paths)
{
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; paths[i] != NULL; i++)
    g_ptr_array_add (files, g_file_new_for_path (paths[i]));
  etl_window_open_files (window, (GFile **) files->pdata, files->len);
  g_assert_true (etl_window_get_loading (window));
  wait_idle (window);
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

/* Waits (main loop running) until @done returns TRUE, at most 10 s. */
static void
wait_for (gboolean (*done) (gpointer), gpointer data)
{
  gboolean timed_out = FALSE;
  guint timeout = g_timeout_add_seconds (10, on_timeout, &timed_out);

  while (!done (data) && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (timed_out);
  g_source_remove (timeout);
}

/* ------------------------------------------------------------------------ */
/* Window habits                                                            */
/* ------------------------------------------------------------------------ */

static gboolean
recent_has_items (gpointer data)
{
  return g_menu_model_get_n_items (etl_window_get_recent_menu (data)) > 0;
}

/* A merged set is one recent entry whose target opens the whole set; a file
 * name with underscores keeps them in the menu label. */
static void
test_recent_set (Fixture *fixture, gconstpointer data)
{
  g_autofree char *net = NULL;
  g_autofree char *amsi = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *label = NULL;
  g_autoptr (GVariant) target = NULL;
  g_autofree const char **uris = NULL;
  GMenuModel *menu;
  gsize length;

  if (skip_without_display () || (net = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL
      || (amsi = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  /* A copy named with underscores. */
  dir = g_dir_make_tmp ("etlscope-ux-XXXXXX", NULL);
  copy = g_build_filename (dir, "my_amsi_trace.etl", NULL);
  g_assert_true (g_file_get_contents (amsi, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, length, NULL));

  open_and_wait (fixture->window, (const char *const[]) { net, copy, NULL });
  g_assert_cmpuint (etl_trace_get_n_files (etl_window_get_trace (fixture->window)), ==, 2);
  wait_for (recent_has_items, fixture->window);

  menu = etl_window_get_recent_menu (fixture->window);
  g_assert_cmpint (g_menu_model_get_n_items (menu), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (menu, 0, G_MENU_ATTRIBUTE_LABEL, "s", &label));
  g_assert_cmpstr (label, ==, "net.4.5.2.x64.etl + 1 more (merged)");
  target = g_menu_model_get_item_attribute_value (menu, 0, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING_ARRAY);
  g_assert_nonnull (target);
  uris = g_variant_get_strv (target, NULL);
  g_assert_cmpuint (g_strv_length ((char **) uris), ==, 2);
  g_assert_true (g_str_has_suffix (uris[1], "my_amsi_trace.etl"));

  /* Reopening the entry opens the set. */
  etl_window_close_trace (fixture->window);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "open-recent", target);
  g_assert_true (etl_window_get_loading (fixture->window));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_trace_get_n_files (etl_window_get_trace (fixture->window)), ==, 2);

  /* One file alone: its name with underscores, doubled for the menu. */
  open_and_wait (fixture->window, (const char *const[]) { copy, NULL });
  {
    gboolean found = FALSE;
    gboolean timed_out = FALSE;
    guint timeout = g_timeout_add_seconds (10, on_timeout, &timed_out);

    while (!found && !timed_out)
      {
        for (int i = 0; i < g_menu_model_get_n_items (menu) && !found; i++)
          {
            g_autofree char *l = NULL;

            if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &l))
              found = g_strcmp0 (l, "my__amsi__trace.etl") == 0;
          }
        if (!found)
          g_main_context_iteration (NULL, TRUE);
      }
    g_assert_false (timed_out);
    g_source_remove (timeout);
  }
  g_unlink (copy);
  g_rmdir (dir);
}

/* The X window title names the trace, as the header bar does. */
static void
test_window_title (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;

  if (skip_without_display () || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "etlscope");
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "net.4.5.2.x64.etl — etlscope");
  etl_window_close_trace (fixture->window);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "etlscope");
}

/* app.quit (Ctrl+Q) writes state.ini before it quits. */
static void
test_quit_saves_state (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = etl_window_get_state_path ();
  g_autoptr (EtlApplication) app = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  EtlWindow *window;

  if (skip_without_display ())
    return;
  app = etl_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  window = etl_window_new (GTK_APPLICATION (app));
  gtk_window_resize (GTK_WINDOW (window), 1111, 777);
  gtk_widget_show (GTK_WIDGET (window));
  drain ();
  g_unlink (path);

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (g_key_file_has_key (kf, "window", "maximized", NULL));
  g_assert_true (g_key_file_has_key (kf, "panes", "list", NULL));
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* A filter that hides the selected event clears the details pane. */
static void
test_details_cleared (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr (EtlFilter) filter = etl_filter_new ();
  EtlEventList *list;
  EtlTrace *trace;
  guint64 row = G_MAXUINT64;
  guint32 pid = 0;

  if (skip_without_display () || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  trace = etl_window_get_trace (fixture->window);
  list = etl_window_get_event_list (fixture->window);

  /* A row with a process id; the filter keeps another process. */
  for (guint64 i = 1000; i < etl_trace_get_n_records (trace); i++)
    if (etl_trace_get_pid (trace, i, &pid) && pid == 3988)
      {
        row = i;
        break;
      }
  g_assert_cmpuint (row, !=, G_MAXUINT64);
  etl_event_list_select_row (list, row);
  g_signal_emit_by_name (list, "row-selected", row);
  text = etl_details_dup_text (etl_window_get_details (fixture->window));
  g_assert_cmpstr (text, !=, "No event selected");
  g_clear_pointer (&text, g_free);

  filter->has_pid = TRUE;
  filter->pid = 4;
  etl_filter_bar_set_filter (etl_window_get_filter_bar (fixture->window), filter);
  wait_idle (fixture->window);
  text = etl_details_dup_text (etl_window_get_details (fixture->window));
  g_assert_cmpstr (text, ==, "No event selected");
  g_assert_cmpuint (etl_timeline_view_get_selected_row (etl_window_get_timeline (fixture->window)), ==,
                    ETL_TIMELINE_NO_ROW);
}

static void
rm_rf (const char *path)
{
  GDir *dir = g_dir_open (path, 0, NULL);

  if (dir != NULL)
    {
      const char *name;

      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          rm_rf (child);
        }
      g_dir_close (dir);
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = g_dir_make_tmp ("etlscope-ux-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (xdg, "config", NULL);
  g_autofree char *data = g_build_filename (xdg, "data", NULL);
  g_autofree char *cache = g_build_filename (xdg, "cache", NULL);
  int status;

  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/etl/gui/ux/recent-set", Fixture, NULL, fixture_setup, test_recent_set, fixture_teardown);
  g_test_add ("/etl/gui/ux/window-title", Fixture, NULL, fixture_setup, test_window_title, fixture_teardown);
  g_test_add ("/etl/gui/ux/quit-saves-state", Fixture, NULL, fixture_setup, test_quit_saves_state,
              fixture_teardown);
  g_test_add ("/etl/gui/ux/details-cleared", Fixture, NULL, fixture_setup, test_details_cleared, fixture_teardown);

  status = g_test_run ();
  if (xdg != NULL)
    rm_rf (xdg);
  return status;
}
