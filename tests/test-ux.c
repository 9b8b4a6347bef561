/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The first hour with etlscope (issue 13): window habits (recent sets,
 * unescaped names, the window title, state saved on Quit, details cleared by
 * a hiding filter) and the event list (sorting in a worker, copy, the
 * context menu's filters, go to time, next of the same event, markers kept
 * across a reopen).  Run under Xvfb; skipped without a display.  XDG
 * directories point into a temporary folder. */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-application.h"
#include "etl-filter.h"
#include "etl-session-panel.h"
#include "etl-test-gui-util.h"
#include "etl-test-util.h"
#include "etl-time-ruler.h"
#include "etl-window.h"

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
} Fixture;

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  if (have_display)
    fixture->window = etl_test_window_new (1200, 800);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  etl_test_window_clear (&fixture->window);
}

static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_drained (etl_test_window_not_busy, window, "the window to be idle");
}

static void
open_and_wait (EtlWindow *window, const char *const *paths)
{
  etl_test_window_open (window, paths, g_strv_length ((char **) paths));
  g_assert_true (etl_window_get_loading (window));
  wait_idle (window);
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
static gboolean
recent_has_my_amsi (gpointer data)
{
  GMenuModel *menu = data;

  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *l = NULL;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &l)
          && g_strcmp0 (l, "my__amsi__trace.etl") == 0)
        return TRUE;
    }
  return FALSE;
}

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

  if (etl_test_skip_without_display (have_display) || (net = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL
      || (amsi = etl_test_corpus_path ("AMSITrace.etl")) == NULL)
    return;

  /* A copy named with underscores. */
  dir = g_dir_make_tmp ("etlscope-ux-XXXXXX", NULL);
  copy = g_build_filename (dir, "my_amsi_trace.etl", NULL);
  g_assert_true (g_file_get_contents (amsi, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, length, NULL));

  open_and_wait (fixture->window, (const char *const[]) { net, copy, NULL });
  g_assert_cmpuint (etl_trace_get_n_files (etl_window_get_trace (fixture->window)), ==, 2);
  etl_test_wait_for_seconds (recent_has_items, fixture->window, 10, "the recent menu to have items");

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
  etl_test_wait_for_seconds (recent_has_my_amsi, menu, 10, "the recent menu to list my__amsi__trace.etl");
  g_unlink (copy);
  g_rmdir (dir);
}

/* The X window title names the trace, as the header bar does. */
static void
test_window_title (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
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

  if (etl_test_skip_without_display (have_display))
    return;
  app = etl_application_new ();
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  window = etl_window_new (GTK_APPLICATION (app));
  gtk_window_resize (GTK_WINDOW (window), 1111, 777);
  gtk_widget_show (GTK_WIDGET (window));
  etl_test_drain ();
  g_unlink (path);

  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_true (g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  g_assert_true (g_key_file_has_key (kf, "window", "maximized", NULL));
  g_assert_true (g_key_file_has_key (kf, "panel", "tab", NULL));
  gtk_widget_destroy (GTK_WIDGET (window));
}

/* A size saved on a bigger monitor is fitted to this one's work area, so
 * the status bar stays on screen. */
static void
test_state_fits_monitor (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = etl_window_get_state_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  GdkRectangle area;
  EtlWindow *window;
  int width = 0, height = 0;

  if (etl_test_skip_without_display (have_display))
    return;
  gdk_monitor_get_workarea (gdk_display_get_monitor (gdk_display_get_default (), 0), &area);
  g_assert_cmpint (area.width, <, 5000);
  g_assert_cmpint (area.height, <, 4000);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (path, "[window]\nwidth=5000\nheight=4000\nmaximized=false\n", -1, &error));
  g_assert_no_error (error);
  window = etl_window_new (NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  /* The header bar and the frame are outside the default size: the whole
   * window fits (issue 18; test-layout-gui checks the window shown). */
  g_assert_cmpint (width, <=, area.width - 10);
  g_assert_cmpint (width, >=, area.width - 20);
  g_assert_cmpint (height, <=, area.height - 10 - 40);
  g_assert_cmpint (height, >=, area.height - 100);
  gtk_widget_destroy (GTK_WIDGET (window));

  /* A size that fits is kept as saved. */
  g_assert_true (g_file_set_contents (path, "[window]\nwidth=900\nheight=700\nmaximized=false\n", -1, &error));
  window = etl_window_new (NULL);
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 700);
  gtk_widget_destroy (GTK_WIDGET (window));
  g_unlink (path);
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

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
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


/* ------------------------------------------------------------------------ */
/* Event list                                                               */
/* ------------------------------------------------------------------------ */

static gboolean
list_sorted (gpointer data)
{
  return !etl_event_list_get_sorting (data);
}

/* Clicking the CPU header sorts by CPU in a worker; equal CPUs keep time
 * order; clicking again reverses; the Event column sorts by name. */
static void
test_sort (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  EtlEventList *list;
  EtlEventModel *model;
  EtlTrace *trace;
  GtkTreeViewColumn *cpu_column;
  gboolean descending = TRUE;
  guint64 n;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  trace = etl_window_get_trace (fixture->window);
  list = etl_window_get_event_list (fixture->window);
  n = etl_event_list_get_n_rows (list);

  cpu_column = gtk_tree_view_get_column (etl_event_list_get_tree_view (list), 1);
  g_assert_cmpstr (gtk_tree_view_column_get_title (cpu_column), ==, "CPU");
  gtk_tree_view_column_clicked (cpu_column);
  g_assert_true (etl_event_list_get_sorting (list));
  g_assert_true (etl_window_get_busy (fixture->window));
  etl_test_wait_for_seconds (list_sorted, list, 10, "list sorted");
  g_assert_cmpint (etl_event_list_get_sort_column (list, &descending), ==, 1);
  g_assert_false (descending);
  g_assert_true (gtk_tree_view_column_get_sort_indicator (cpu_column));

  model = etl_event_list_get_model (list);
  g_assert_true (etl_event_model_get_sorted (model));
  g_assert_cmpuint (etl_event_model_get_n_rows (model), ==, n);
  for (guint64 i = 1; i < n; i++)
    {
      guint64 a = etl_event_model_get_row (model, i - 1), b = etl_event_model_get_row (model, i);
      guint ca = etl_trace_get_cpu (trace, a), cb = etl_trace_get_cpu (trace, b);

      g_assert_cmpuint (ca, <=, cb);
      if (ca == cb)
        g_assert_cmpuint (a, <, b);
    }
  g_assert_cmpuint (etl_trace_get_cpu (trace, etl_event_model_get_row (model, 0)), <,
                    etl_trace_get_cpu (trace, etl_event_model_get_row (model, n - 1)));

  /* Again: descending, equal CPUs still in time order. */
  gtk_tree_view_column_clicked (cpu_column);
  etl_test_wait_for_seconds (list_sorted, list, 10, "list sorted");
  g_assert_cmpint (etl_event_list_get_sort_column (list, &descending), ==, 1);
  g_assert_true (descending);
  model = etl_event_list_get_model (list);
  for (guint64 i = 1; i < n; i++)
    {
      guint64 a = etl_event_model_get_row (model, i - 1), b = etl_event_model_get_row (model, i);
      guint ca = etl_trace_get_cpu (trace, a), cb = etl_trace_get_cpu (trace, b);

      g_assert_cmpuint (ca, >=, cb);
      if (ca == cb)
        g_assert_cmpuint (a, <, b);
    }

  /* A selected row stays selected across a sort. */
  etl_event_list_select_row (list, 5000);
  etl_event_list_sort (list, 5, FALSE);
  etl_test_wait_for_seconds (list_sorted, list, 10, "list sorted");
  g_assert_cmpuint (etl_event_list_get_selected_row (list), ==, 5000);
  model = etl_event_list_get_model (list);
  {
    GtkTreeIter iter;
    g_autofree char *prev = NULL;

    for (int i = 0; i < 3000; i++)
      {
        g_autofree char *name = NULL;

        g_assert_true (gtk_tree_model_iter_nth_child (GTK_TREE_MODEL (model), &iter, NULL, i * (int) (n / 3000)));
        gtk_tree_model_get (GTK_TREE_MODEL (model), &iter, ETL_EVENT_MODEL_COLUMN_NAME, &name, -1);
        if (prev != NULL)
          g_assert_cmpint (g_utf8_collate (prev, name), <=, 0);
        g_free (prev);
        prev = g_steal_pointer (&name);
      }
  }

  /* Time ascending is the merged order again. */
  etl_event_list_sort (list, 0, FALSE);
  etl_test_wait_for_seconds (list_sorted, list, 10, "list sorted");
  g_assert_false (etl_event_model_get_sorted (etl_event_list_get_model (list)));
}

static gboolean
clipboard_has_text (gpointer data)
{
  return gtk_clipboard_wait_is_text_available (data);
}

/* Whether the list's page reaches row 12. */
static gboolean
list_shows_row_12 (gpointer data)
{
  guint64 first = 0, last = 0;

  return etl_event_list_get_visible_range (data, &first, &last) && last >= 12;
}

/* Ctrl+C copies the selected rows (multi-select) with a header line, over
 * the visible columns; hidden columns are remembered in the state file. */
static void
test_copy_and_columns (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autofree char *state = etl_window_get_state_path ();
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) header = NULL;
  g_auto (GStrv) hidden = NULL;
  g_autoptr (GArray) selected = NULL;
  GtkTreeSelection *selection;
  GtkClipboard *clipboard;
  EtlEventList *list;
  GtkTreePath *from, *to;
  guint64 first = 0, last = 0;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  list = etl_window_get_event_list (fixture->window);
  selection = gtk_tree_view_get_selection (etl_event_list_get_tree_view (list));
  g_assert_cmpint (gtk_tree_selection_get_mode (selection), ==, GTK_SELECTION_MULTIPLE);

  /* Rows 10 to 12, as GTK's own selection calls make it on the rows
   * shown (the tree view shows the page from the list's top row). */
  etl_event_list_select_row (list, 10);
  etl_test_wait_for_seconds (list_shows_row_12, list, 10, "list shows row 12"); /* the page grows with the list's allocation */
  g_assert_true (etl_event_list_get_visible_range (list, &first, &last));
  g_assert_cmpuint (last, >=, 12);
  from = gtk_tree_path_new_from_indices ((int) (10 - first), -1);
  to = gtk_tree_path_new_from_indices ((int) (12 - first), -1);
  gtk_tree_selection_select_range (selection, from, to);
  gtk_tree_path_free (from);
  gtk_tree_path_free (to);
  selected = etl_event_list_get_selected_rows (list);
  g_assert_cmpuint (selected->len, ==, 3);
  g_assert_cmpuint (g_array_index (selected, guint64, 0), ==, 10);

  etl_event_list_set_column_visible (list, "size", FALSE);
  clipboard = gtk_widget_get_clipboard (GTK_WIDGET (list), GDK_SELECTION_CLIPBOARD);
  gtk_clipboard_clear (clipboard);
  /* The accelerator's action, as Ctrl+C in the list runs it. */
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (list), "list"), "copy", NULL);
  etl_test_wait_for_seconds (clipboard_has_text, clipboard, 10, "clipboard has text");
  text = gtk_clipboard_wait_for_text (clipboard);
  g_assert_nonnull (text);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5); /* header, 3 rows, "" */
  g_assert_cmpstr (lines[0], ==, "Time\tCPU\tPID\tTID\tProvider\tEvent\tProcess\tId / Opcode\tLevel\tPayload");
  header = g_strsplit (lines[1], "\t", -1);
  g_assert_cmpuint (g_strv_length (header), ==, 10);
  g_assert_cmpstr (lines[4], ==, "");

  /* Remembered: a new window hides Size too. */
  g_assert_true (etl_window_save_state (fixture->window, NULL));
  gtk_widget_destroy (GTK_WIDGET (fixture->window));
  g_clear_object (&fixture->window);
  fixture->window = g_object_ref_sink (etl_window_new (NULL));
  hidden = etl_event_list_dup_hidden_columns (etl_window_get_event_list (fixture->window));
  g_assert_cmpuint (g_strv_length (hidden), ==, 1);
  g_assert_cmpstr (hidden[0], ==, "size");
  etl_event_list_set_column_visible (etl_window_get_event_list (fixture->window), "size", TRUE);
  g_assert_true (etl_window_save_state (fixture->window, NULL));
}

static guint64
count_pid (EtlTrace *trace, guint32 wanted)
{
  guint64 n = 0;

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      guint32 pid;

      if (etl_trace_get_pid (trace, i, &pid) && pid == wanted)
        n++;
    }
  return n;
}

/* The context menu filters to / excludes a row's process, provider and
 * event; Clear Filter brings every row back. */
static void
test_context_filter (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  GActionGroup *actions;
  EtlEventList *list;
  EtlTrace *trace;
  guint64 row = G_MAXUINT64, n, expected;
  guint32 pid = 0;
  guint provider;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  trace = etl_window_get_trace (fixture->window);
  list = etl_window_get_event_list (fixture->window);
  n = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n; i++)
    if (etl_trace_get_pid (trace, i, &pid) && pid == 3988)
      {
        row = i;
        break;
      }
  g_assert_cmpuint (row, !=, G_MAXUINT64);
  expected = count_pid (trace, 3988);

  etl_event_list_select_row (list, row);
  actions = gtk_widget_get_action_group (GTK_WIDGET (list), "list");
  g_assert_nonnull (actions);
  g_assert_nonnull (etl_event_list_get_popup (list));

  g_action_group_activate_action (actions, "filter-to", g_variant_new_string ("process"));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (list), ==, expected);
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "only process 3988"));

  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "clear-filter", NULL);
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (list), ==, n);

  etl_event_list_select_row (list, row);
  g_action_group_activate_action (actions, "exclude", g_variant_new_string ("process"));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (list), ==, n - expected);

  /* Excluding a provider too leaves out its rows as well. */
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "clear-filter", NULL);
  wait_idle (fixture->window);
  provider = etl_trace_get_provider_index (trace, row);
  expected = 0;
  for (guint64 i = 0; i < n; i++)
    if (etl_trace_get_provider_index (trace, i) == provider)
      expected++;
  etl_event_list_select_row (list, row);
  g_action_group_activate_action (actions, "filter-to", g_variant_new_string ("provider"));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (list), ==, expected);
  for (guint64 i = 0; i < etl_event_list_get_n_rows (list); i += 97)
    g_assert_cmpuint (etl_trace_get_provider_index (trace, etl_event_model_get_row (etl_event_list_get_model (list), i)),
                      ==, provider);

  /* And to the event: fewer rows, all of that event's name. */
  etl_event_list_select_row (list, row);
  g_action_group_activate_action (actions, "filter-to", g_variant_new_string ("event"));
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_n_rows (list), >, 0);
  g_assert_cmpuint (etl_event_list_get_n_rows (list), <=, expected);
}

/* ------------------------------------------------------------------------ */
/* Navigation                                                               */
/* ------------------------------------------------------------------------ */

/* Go to time: ms since the start, other units, a wall-clock time, and
 * text that is neither. */
static void
test_go_to_time (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *wall = NULL;
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;
  EtlEventList *list;
  gint64 origin, t;
  guint64 row;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  trace = etl_window_get_trace (fixture->window);
  list = etl_window_get_event_list (fixture->window);
  origin = etl_trace_get_origin (trace);

  g_assert_true (etl_window_go_to_time (fixture->window, "1500", &error));
  g_assert_no_error (error);
  row = etl_event_list_get_selected_row (list);
  g_assert_cmpuint (row, ==, etl_trace_lower_bound (trace, origin + 1500 * 10000));
  g_assert_cmpint (etl_trace_get_filetime (trace, row), >=, origin + 1500 * 10000);
  g_assert_cmpint (etl_trace_get_filetime (trace, row - 1), <, origin + 1500 * 10000);
  g_assert_cmpuint (etl_timeline_view_get_selected_row (etl_window_get_timeline (fixture->window)), ==, row);

  g_assert_true (etl_window_go_to_time (fixture->window, " 2.5 s ", &error));
  g_assert_cmpuint (etl_event_list_get_selected_row (list), ==, etl_trace_lower_bound (trace, origin + 25000000));

  /* Wall clock: the time of a row, as the ruler shows it (local). */
  t = etl_trace_get_filetime (trace, 100000);
  wall = etl_time_format_wall_clock (t, 1, FALSE, TRUE);
  g_assert_true (etl_window_go_to_time (fixture->window, wall, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (etl_event_list_get_selected_row (list), ==, etl_trace_lower_bound (trace, t));
  g_assert_true (etl_window_go_to_time (fixture->window, wall + 11, &error)); /* "HH:MM:SS.fffffff" */
  g_assert_no_error (error);
  g_assert_cmpuint (etl_event_list_get_selected_row (list), ==, etl_trace_lower_bound (trace, t));

  g_assert_false (etl_window_go_to_time (fixture->window, "soon", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_false (etl_window_go_to_time (fixture->window, "25:99", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* F3 / Shift+F3: the next and previous event of the same provider and
 * event. */
static void
test_find_same (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  EtlTrace *trace;
  EtlEventList *list;
  EtlRecord ref, rec;
  guint64 start = 50000, expected = G_MAXUINT64, found;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  trace = etl_window_get_trace (fixture->window);
  list = etl_window_get_event_list (fixture->window);

  g_assert_true (etl_trace_get_record (trace, start, &ref, NULL));
  for (guint64 i = start + 1; i < etl_trace_get_n_records (trace) && expected == G_MAXUINT64; i++)
    {
      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      if (etl_trace_get_provider_index (trace, i) == etl_trace_get_provider_index (trace, start)
          && rec.kind == ref.kind && rec.hook_id == ref.hook_id && rec.event_id == ref.event_id
          && rec.opcode == ref.opcode)
        expected = i;
      etl_record_clear (&rec);
    }
  etl_record_clear (&ref);
  g_assert_cmpuint (expected, !=, G_MAXUINT64);

  etl_event_list_select_row (list, start);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "find-next", NULL);
  g_assert_true (etl_window_get_busy (fixture->window));
  wait_idle (fixture->window);
  found = etl_event_list_get_selected_row (list);
  g_assert_cmpuint (found, ==, expected);
  {
    g_autofree char *text = etl_details_dup_text (etl_window_get_details (fixture->window));

    g_assert_nonnull (strstr (text, "of 179474"));
  }

  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "find-previous", NULL);
  wait_idle (fixture->window);
  g_assert_cmpuint (etl_event_list_get_selected_row (list), ==, start);
}

/* Ctrl+M's markers show on the ruler and come back when the trace is
 * opened again; they are kept in the user's config folder only. */
static void
test_markers (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *markers = g_build_filename (g_get_user_config_dir (), "etlscope", "markers.ini", NULL);
  g_autofree char *dir = NULL;
  EtlTrace *trace;
  gint64 t, at = 0;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  trace = etl_window_get_trace (fixture->window);
  g_assert_cmpuint (etl_window_get_n_markers (fixture->window), ==, 0);

  t = etl_trace_get_filetime (trace, 90000);
  etl_window_add_marker (fixture->window, t, "GC starts");
  etl_window_add_marker (fixture->window, etl_trace_get_filetime (trace, 10), "early");
  g_assert_cmpuint (etl_window_get_n_markers (fixture->window), ==, 2);
  g_assert_cmpstr (etl_window_get_marker (fixture->window, 0, NULL), ==, "early");
  g_assert_true (g_file_test (markers, G_FILE_TEST_IS_REGULAR));

  etl_window_close_trace (fixture->window);
  g_assert_cmpuint (etl_window_get_n_markers (fixture->window), ==, 0);
  gtk_widget_destroy (GTK_WIDGET (fixture->window));
  g_clear_object (&fixture->window);
  fixture_setup (fixture, NULL);

  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  g_assert_cmpuint (etl_window_get_n_markers (fixture->window), ==, 2);
  g_assert_cmpstr (etl_window_get_marker (fixture->window, 1, &at), ==, "GC starts");
  g_assert_cmpint (at, ==, t);

  /* Nothing written beside the trace. */
  dir = g_path_get_dirname (path);
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (d)) != NULL)
      g_assert_null (strstr (name, "markers"));
  }
}

/* Keyboard zoom centres on the selected event; Zoom to Data fits 99.9 %
 * of the records. */
static void
test_zoom (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  GActionGroup *zoom;
  EtlTrace *trace;
  gint64 b, e, t, lo, hi;
  guint64 n, inside = 0;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  open_and_wait (fixture->window, (const char *const[]) { path, NULL });
  trace = etl_window_get_trace (fixture->window);
  zoom = gtk_widget_get_action_group (GTK_WIDGET (fixture->window), "zoom");

  /* An event mid-trace, so the zoomed range is not clamped at an end. */
  {
    gint64 mid = etl_trace_get_filetime (trace, etl_trace_get_n_records (trace) / 2);
    g_autofree char *ms = g_strdup_printf ("%.4f", (mid - etl_trace_get_origin (trace)) / 1e4);

    g_assert_true (etl_window_go_to_time (fixture->window, ms, NULL));
  }
  t = etl_trace_get_filetime (trace, etl_event_list_get_selected_row (etl_window_get_event_list (fixture->window)));
  g_action_group_activate_action (zoom, "zoom-in", NULL);
  g_action_group_activate_action (zoom, "zoom-in", NULL);
  etl_window_get_visible_range (fixture->window, &b, &e);
  g_assert_cmpint (llabs (b + (e - b) / 2 - t), <=, 1);

  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "zoom-to-data", NULL);
  etl_window_get_visible_range (fixture->window, &b, &e);
  g_assert_true (etl_window_get_data_range (fixture->window, &lo, &hi));
  g_assert_cmpint (b, <=, lo);
  g_assert_cmpint (e, >=, hi);
  n = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n; i++)
    {
      gint64 ft = etl_trace_get_filetime (trace, i);

      inside += ft >= lo && ft < hi;
    }
  g_assert_cmpfloat ((double) inside / n, >=, 0.999);
  g_assert_cmpfloat ((double) inside / n, <, 1.0);
}

/* Times in the unit that suits them. */
static void
test_time_format (void)
{
  static const struct
  {
    gint64 ticks;
    const char *text;
  } cases[] = {
    { 0, "0.0 µs" },
    { 352, "35.2 µs" },
    { 1205000, "120.5000 ms" },
    { 123456780, "12.3456780 s" },
    { 2452500000, "4 min 05.2500000 s" },
    { G_GINT64_CONSTANT (295196680115), "8 h 11 min 59.6680115 s" },
    { -20000, "−2.0000 ms" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = etl_time_format_span (cases[i].ticks);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* ------------------------------------------------------------------------ */
/* Loss plot                                                                */
/* ------------------------------------------------------------------------ */

static gboolean
plot_is_allocated (gpointer data)
{
  return gtk_widget_get_allocated_height (GTK_WIDGET (data)) >= 4 + 2 * 18 + 2 + 2 * 28 + 4;
}

/* On the demo trace (buffers lost): hovering a loss point names its time,
 * kind and count; clicking it moves the timeline there; the legend's
 * tooltip explains the counters. */
static gboolean
demo_loaded (gpointer window)
{
  return !etl_window_get_busy (window) && etl_window_get_trace (window) != NULL;
}

static void
test_loss_plot (Fixture *fixture, gconstpointer data)
{
  EtlLossPlot *plot;
  EtlTrace *trace;
  const EtlLoss *losses;
  guint n_losses = 0;
  int width, height;
  gint64 b, e;
  double x = -1, y = -1;
  const EtlLoss *target = NULL;

  if (etl_test_skip_without_display (have_display))
    return;
  etl_window_open_demo (fixture->window);
  etl_test_wait_for_seconds (demo_loaded, fixture->window, 120, "the demo trace");
  etl_test_drain ();

  trace = etl_window_get_trace (fixture->window);
  plot = etl_window_get_loss_plot (fixture->window);
  losses = etl_trace_get_losses (trace, &n_losses);
  g_assert_cmpuint (n_losses, >, 0);
  /* The plot is shown once the trace has losses; it gets its size at the
   * next frame, which a non-blocking drain may not reach. */
  etl_test_wait_for_seconds (plot_is_allocated, plot, 10, "plot is allocated");
  width = gtk_widget_get_allocated_width (GTK_WIDGET (plot));
  height = gtk_widget_get_allocated_height (GTK_WIDGET (plot));
  /* Legend and key one line each, two rows of 28 px (issue 18). */
  g_assert_cmpint (height, >=, 4 + 2 * 18 + 2 + 2 * 28 + 4);

  /* The first buffer-row loss, where the plot draws it. */
  etl_window_get_visible_range (fixture->window, &b, &e);
  for (guint i = 0; i < n_losses && target == NULL; i++)
    if (losses[i].kind != ETL_LOSS_EVENTS_LOST_BUFFER && losses[i].kind != ETL_LOSS_RT_LOST_EVENT
        && losses[i].filetime >= b && losses[i].filetime < e)
      target = &losses[i];
  g_assert_nonnull (target);
  x = etl_zoom_manager_time_to_x (etl_window_get_zoom_manager (fixture->window), target->filetime,
                                  width - ETL_LABEL_COLUMN_WIDTH)
      + ETL_LABEL_COLUMN_WIDTH;
  y = height - 10; /* the buffers row, at the bottom */
  {
    g_autofree char *text = etl_loss_plot_dup_loss_text (plot, x, y, width, height);
    g_autofree char *when = etl_time_format_span (target->filetime - etl_trace_get_origin (trace));

    g_assert_nonnull (text);
    g_assert_nonnull (strstr (text, when));
    g_assert_true (strstr (text, "BUFFER_LOST") != NULL || strstr (text, "sequence gap") != NULL
                   || strstr (text, "RTLost") != NULL);
    g_assert_nonnull (strstr (text, "×"));
  }
  /* Far from any point: nothing. */
  {
    g_autofree char *none = etl_loss_plot_dup_loss_text (plot, 5, y, width, height);

    g_assert_null (none);
  }

  /* A click goes there: the event at that time is selected and centred. */
  g_signal_emit_by_name (plot, "loss-activated", target->filetime);
  {
    guint64 row = etl_event_list_get_selected_row (etl_window_get_event_list (fixture->window));

    g_assert_cmpuint (row, ==, etl_trace_lower_bound (trace, target->filetime));
    etl_window_get_visible_range (fixture->window, &b, &e);
    g_assert_cmpint (b, <=, etl_trace_get_filetime (trace, row));
    g_assert_cmpint (e, >=, etl_trace_get_filetime (trace, row));
  }
}

/* ------------------------------------------------------------------------ */
/* Session panel                                                            */
/* ------------------------------------------------------------------------ */

/* The panel fits a pane of 440 px: its natural width, at most; diagnostics
 * show under their field; a loaded session that is no preset shows
 * "Custom"; closed sections are remembered by the window. */
static void
test_session_panel (Fixture *fixture, gconstpointer data)
{
  GtkWidget *panel, *window;
  g_autoptr (EtlSession) session = NULL;
  g_auto (GStrv) collapsed = NULL;
  g_autofree char *state = etl_window_get_state_path ();
  int min_w = 0, nat_w = 0;
  const char *under;

  if (etl_test_skip_without_display (have_display))
    return;
  panel = etl_session_panel_new ();
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_container_add (GTK_CONTAINER (window), panel);
  gtk_widget_show_all (window);
  etl_test_drain ();
  gtk_widget_get_preferred_width (panel, &min_w, &nat_w);
  g_test_message ("session panel width: minimum %d, natural %d", min_w, nat_w);
  g_assert_cmpint (nat_w, <=, 440);
  g_assert_cmpint (min_w, <=, 440);
  g_assert_cmpstr (etl_session_panel_get_preset (ETL_SESSION_PANEL (panel)), ==, "low-overhead-file");

  /* A diagnostic under its field: MaximumFileSize with circular mode and no
   * size is an error (the test-session-gui case). */
  gtk_toggle_button_set_active (
      GTK_TOGGLE_BUTTON (etl_session_panel_get_flag_button (ETL_SESSION_PANEL (panel), "LogFileMode",
                                                            ETL_EVENT_TRACE_FILE_MODE_CIRCULAR)),
      TRUE);
  under = etl_session_panel_get_field_diagnostic (ETL_SESSION_PANEL (panel), "MaximumFileSize");
  g_assert_nonnull (under);
  g_assert_true (g_str_has_prefix (under, "✖ "));
  g_assert_cmpstr (etl_session_panel_get_preset (ETL_SESSION_PANEL (panel)), ==, "custom");
  gtk_widget_get_preferred_width (panel, &min_w, &nat_w);
  g_assert_cmpint (nat_w, <=, 440);

  /* A session like one loaded from a file: a preset, or "Custom". */
  session = etl_session_new_preset ("low-overhead-file", NULL);
  etl_session_panel_set_session (ETL_SESSION_PANEL (panel), session);
  g_assert_cmpstr (etl_session_panel_get_preset (ETL_SESSION_PANEL (panel)), ==, "low-overhead-file");
  g_assert_null (etl_session_panel_get_field_diagnostic (ETL_SESSION_PANEL (panel), "MaximumFileSize"));
  session->buffer_size = 128;
  etl_session_panel_set_session (ETL_SESSION_PANEL (panel), session);
  g_assert_cmpstr (etl_session_panel_get_preset (ETL_SESSION_PANEL (panel)), ==, "custom");
  gtk_widget_destroy (window);

  /* Sections closed in one window are closed in the next. */
  etl_session_panel_set_section_expanded (etl_window_get_session_panel (fixture->window), "bytes", FALSE);
  g_assert_true (etl_window_save_state (fixture->window, NULL));
  gtk_widget_destroy (GTK_WIDGET (fixture->window));
  g_clear_object (&fixture->window);
  fixture_setup (fixture, NULL);
  collapsed = etl_session_panel_dup_collapsed_sections (etl_window_get_session_panel (fixture->window));
  g_assert_cmpuint (g_strv_length (collapsed), ==, 1);
  g_assert_cmpstr (collapsed[0], ==, "bytes");
  etl_session_panel_set_section_expanded (etl_window_get_session_panel (fixture->window), "bytes", TRUE);
  g_assert_true (etl_window_save_state (fixture->window, NULL));
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = NULL;
  int status;

  /* Before GTK reads them. */
  xdg = etl_test_private_xdg ("etlscope-ux-XXXXXX");
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add ("/etl/gui/ux/recent-set", Fixture, NULL, fixture_setup, test_recent_set, fixture_teardown);
  g_test_add ("/etl/gui/ux/window-title", Fixture, NULL, fixture_setup, test_window_title, fixture_teardown);
  g_test_add ("/etl/gui/ux/quit-saves-state", Fixture, NULL, fixture_setup, test_quit_saves_state,
              fixture_teardown);
  g_test_add ("/etl/gui/ux/state-fits-monitor", Fixture, NULL, NULL, test_state_fits_monitor, fixture_teardown);
  g_test_add ("/etl/gui/ux/details-cleared", Fixture, NULL, fixture_setup, test_details_cleared, fixture_teardown);

  g_test_add ("/etl/gui/ux/list/sort", Fixture, NULL, fixture_setup, test_sort, fixture_teardown);
  g_test_add ("/etl/gui/ux/list/copy-columns", Fixture, NULL, fixture_setup, test_copy_and_columns,
              fixture_teardown);
  g_test_add ("/etl/gui/ux/list/context-filter", Fixture, NULL, fixture_setup, test_context_filter,
              fixture_teardown);

  g_test_add ("/etl/gui/ux/go-to-time", Fixture, NULL, fixture_setup, test_go_to_time, fixture_teardown);
  g_test_add ("/etl/gui/ux/find-same", Fixture, NULL, fixture_setup, test_find_same, fixture_teardown);
  g_test_add ("/etl/gui/ux/markers", Fixture, NULL, fixture_setup, test_markers, fixture_teardown);
  g_test_add ("/etl/gui/ux/zoom", Fixture, NULL, fixture_setup, test_zoom, fixture_teardown);
  g_test_add_func ("/etl/gui/ux/time-format", test_time_format);
  g_test_add ("/etl/gui/ux/session-panel", Fixture, NULL, fixture_setup, test_session_panel, fixture_teardown);
  g_test_add ("/etl/gui/ux/loss-plot", Fixture, NULL, fixture_setup, test_loss_plot, fixture_teardown);

  status = g_test_run ();
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return status;
}
