/* SPDX-License-Identifier: GPL-3.0-or-later */

/* What the window does with the platform's folders, paths and services, the
 * way a user meets it, asserted per platform (built everywhere; issue 19):
 *
 *  - the config, data and cache folders: on Windows GLib takes them from the
 *    known folders (FOLDERID_LocalAppData for config and data,
 *    FOLDERID_InternetCache for the cache, both under %LOCALAPPDATA%), on
 *    Linux from $XDG_*_HOME;
 *  - a trace opened by a path with a drive letter, backslashes, a space and
 *    a name outside the ANSI code page, as a command line gives it; the
 *    recent-files entry (file:///C:/… on Windows) reopens it;
 *  - markers, the window's state and the recent list written into those
 *    folders, and the user manifest folder read from there;
 *  - an image export over an existing file: replaced whole, no temporary
 *    file left;
 *  - the Open dialog (#GtkFileChooserNative: IFileDialog on Windows, a GTK
 *    dialog elsewhere) opened and cancelled;
 *  - the session panel's Start and Stop: on Windows the code path runs
 *    (StartTraceW, ControlTraceW QUERY/STOP) and the panel shows what ETW
 *    answered (Wine's StartTraceW and ControlTraceW are stubs that report
 *    success; an unelevated Windows answers access denied); elsewhere both
 *    are insensitive and say why.
 *
 * The folders are a temporary folder's ($XDG_*_HOME on every platform)
 * unless ETLSCOPE_TEST_KNOWN_FOLDERS=1: then, on Windows, the $XDG_*
 * variables are removed so that GLib uses the real known folders.
 * tests/windows/run.sh sets it: its Wine prefix is made afresh and thrown
 * away.  (On a Windows machine of one's own that would write into the
 * user's %LOCALAPPDATA%\etlscope.)  Run under Xvfb; skipped without a
 * display. */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#ifdef G_OS_WIN32
#include <windows.h>
#endif

#include "etl-manifest.h"
#include "etl-schema.h"
#include "etl-session-panel.h"
#include "etl-test-gui-util.h"
#include "etl-test-util.h"
#include "etl-window.h"

static gboolean have_display;
static gboolean known_folders; /* Windows, ETLSCOPE_TEST_KNOWN_FOLDERS=1 */

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

/* The folder %LOCALAPPDATA% names on Windows (Wine sets it too). */
static const char *
local_app_data (void)
{
  const char *dir = g_getenv ("LOCALAPPDATA");

  g_assert_nonnull (dir);
  return dir;
}

/* ------------------------------------------------------------------------ */

/* Where the state, markers, recent list, demo trace and manifests go. */
static void
test_folders (void)
{
  g_autofree char *manifests = etl_manifest_dup_user_dir ();
  g_autofree char *state = etl_window_get_state_path ();

  if (known_folders)
    {
      g_autofree char *want_state = g_build_filename (local_app_data (), "etlscope", "state.ini", NULL);
      g_autofree char *want_manifests = g_build_filename (local_app_data (), "etlscope", "manifests", NULL);

      /* e.g. C:\users\NAME\AppData\Local */
      g_assert_true (g_ascii_isalpha (local_app_data ()[0]));
      g_assert_true (g_str_has_prefix (local_app_data () + 1, ":\\"));
      g_assert_cmpstr (g_get_user_config_dir (), ==, local_app_data ());
      g_assert_cmpstr (g_get_user_data_dir (), ==, local_app_data ());
      /* FOLDERID_InternetCache: %LOCALAPPDATA%\Microsoft\Windows\INetCache
       * (Windows 8 and later, Wine), "Temporary Internet Files" before. */
      g_assert_true (g_str_has_prefix (g_get_user_cache_dir (), local_app_data ()));
      g_assert_cmpuint (strlen (g_get_user_cache_dir ()), >, strlen (local_app_data ()));
      g_assert_cmpstr (state, ==, want_state);
      g_assert_cmpstr (manifests, ==, want_manifests);
      g_test_message ("config/data %s, cache %s", g_get_user_config_dir (), g_get_user_cache_dir ());
    }
  else
    {
      g_autofree char *want_state = g_build_filename (g_getenv ("XDG_CONFIG_HOME"), "etlscope", "state.ini", NULL);
      g_autofree char *want_manifests = g_build_filename (g_getenv ("XDG_DATA_HOME"), "etlscope", "manifests",
                                                          NULL);

      /* $XDG_*_HOME wins on every platform (GLib ≥ 2.72 on Windows too). */
      g_assert_cmpstr (g_get_user_config_dir (), ==, g_getenv ("XDG_CONFIG_HOME"));
      g_assert_cmpstr (g_get_user_data_dir (), ==, g_getenv ("XDG_DATA_HOME"));
      g_assert_cmpstr (g_get_user_cache_dir (), ==, g_getenv ("XDG_CACHE_HOME"));
      g_assert_cmpstr (state, ==, want_state);
      g_assert_cmpstr (manifests, ==, want_manifests);
    }
#ifdef G_OS_WIN32
  g_assert_null (strchr (state, '/'));
  g_assert_null (strchr (manifests, '/'));
#endif
}

/* A manifest dropped into the user manifest folder is read from there. */
static void
test_manifest_folder (void)
{
  g_autofree char *man = NULL;
  g_autofree char *dir = etl_manifest_dup_user_dir ();
  g_autofree char *copy = g_build_filename (dir, "ClrEtwAll.man", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  gsize length;

  if ((man = etl_test_corpus_path ("manifests/ClrEtwAll.man")) == NULL)
    return;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_get_contents (man, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, length, NULL));
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_MANIFEST), ==, 0);
  g_assert_cmpuint (etl_manifest_load_user_dir (registry, NULL, NULL), ==, 1);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (registry, ETL_SCHEMA_SOURCE_MANIFEST), >, 100);
  g_unlink (copy);
}

static gboolean
recent_has (gpointer data)
{
  const char *uri = data;
  GtkRecentManager *manager = gtk_recent_manager_get_default ();

  return gtk_recent_manager_has_item (manager, uri);
}

/* A trace opened by a drive-letter path with backslashes, a space and
 * Cyrillic letters (outside code page 1252), as a command line passes it;
 * its recent entry reopens it; its markers and the window's state are kept
 * in the config folder. */
/* Whether the recently-used.xbel file at @data holds the trace's name
 * (GtkRecentManager writes it a moment after the entry is added). */
static gboolean
xbel_has_trace (gpointer data)
{
  g_autofree char *contents = NULL;

  return g_file_get_contents (data, &contents, NULL, NULL)
         && strstr (contents, "%D1%82%D1%80%D0%B0%D1%81%D1%81%D0%B0.etl") != NULL;
}

static void
test_path_recent_markers_state (Fixture *fixture, gconstpointer data)
{
  g_autofree char *net = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *uri = NULL;
  g_autofree char *back = NULL;
  g_autofree char *markers = g_build_filename (g_get_user_config_dir (), "etlscope", "markers.ini", NULL);
  g_autofree char *xbel = g_build_filename (g_get_user_data_dir (), "recently-used.xbel", NULL);
  g_autofree char *state = etl_window_get_state_path ();
  g_autoptr (GFile) file = NULL;
  gint64 t, at = 0;
  gsize length;

  if (etl_test_skip_without_display (have_display) || (net = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  dir = g_dir_make_tmp ("etlscope-windows-XXXXXX", NULL);
  g_assert_nonnull (dir);
  /* The data folder, as a user's profile has it (GtkRecentManager does not
   * make it). */
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_data_dir (), 0700), ==, 0);
  path = g_build_filename (dir, "net trace трасса.etl", NULL);
  g_assert_true (g_file_get_contents (net, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, length, NULL));
  g_clear_pointer (&contents, g_free);
#ifdef G_OS_WIN32
  /* C:\users\NAME\AppData\Local\Temp\etlscope-windows-XXXXXX\net trace трасса.etl */
  g_assert_true (g_ascii_isalpha (path[0]));
  g_assert_true (g_str_has_prefix (path + 1, ":\\"));
  g_assert_null (strchr (path, '/'));
#endif
  g_test_message ("opening %s", path);

  file = g_file_new_for_commandline_arg (path);
  etl_window_open_files (fixture->window, &file, 1);
  g_assert_true (etl_window_get_loading (fixture->window));
  etl_test_wait_drained (etl_test_window_not_busy, fixture->window, "the window to be idle");
  g_assert_nonnull (etl_window_get_trace (fixture->window));
  g_assert_nonnull (strstr (etl_window_get_status (fixture->window), "net trace трасса.etl"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (fixture->window)), ==, "net trace трасса.etl — etlscope");

  /* The recent entry: a file URI (file:///C:/… on Windows) that maps back
   * to the same path, kept in the data folder's recently-used.xbel. */
  uri = g_filename_to_uri (path, NULL, NULL);
  g_assert_nonnull (uri);
#ifdef G_OS_WIN32
  g_assert_true (g_str_has_prefix (uri, "file:///"));
  g_assert_true (g_ascii_isalpha (uri[8]));
  g_assert_cmpint (uri[9], ==, ':');
  g_assert_cmpint (uri[10], ==, '/');
#endif
  back = g_filename_from_uri (uri, NULL, NULL);
  g_assert_cmpstr (back, ==, path);
  etl_test_wait_for_seconds (recent_has, uri, 10, "the trace in the recent list");
  etl_test_drain ();
  etl_test_wait_for_seconds (xbel_has_trace, xbel, 10, "the trace in recently-used.xbel");
  etl_test_drain ();
  g_assert_true (xbel_has_trace (xbel));

  /* A marker, kept in the config folder, back after a reopen from the
   * recent entry. */
  t = etl_trace_get_filetime (etl_window_get_trace (fixture->window), 1000);
  etl_window_add_marker (fixture->window, t, "here");
  g_assert_true (g_file_test (markers, G_FILE_TEST_IS_REGULAR));
  etl_window_close_trace (fixture->window);
  g_assert_cmpuint (etl_window_get_n_markers (fixture->window), ==, 0);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->window), "open-recent",
                                  g_variant_new_strv ((const char *const[]) { uri }, 1));
  g_assert_true (etl_window_get_loading (fixture->window));
  etl_test_wait_drained (etl_test_window_not_busy, fixture->window, "the window to be idle");
  g_assert_nonnull (etl_window_get_trace (fixture->window));
  g_assert_cmpuint (etl_window_get_n_markers (fixture->window), ==, 1);
  g_assert_cmpstr (etl_window_get_marker (fixture->window, 0, &at), ==, "here");
  g_assert_cmpint (at, ==, t);

  /* Closing the window writes state.ini into the config folder. */
  g_unlink (state);
  gtk_widget_destroy (GTK_WIDGET (fixture->window));
  g_clear_object (&fixture->window);
  g_assert_true (g_file_test (state, G_FILE_TEST_IS_REGULAR));

  g_unlink (path);
  g_rmdir (dir);
}

/* An image export over an existing file in a folder named outside the ANSI
 * code page: replaced whole, nothing else left in the folder. */
static void
test_export_atomic (Fixture *fixture, gconstpointer data)
{
  g_autofree char *net = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *image = NULL;
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;
  gsize length = 0;

  if (etl_test_skip_without_display (have_display) || (net = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  file = g_file_new_for_path (net);
  etl_window_open_files (fixture->window, &file, 1);
  etl_test_wait_drained (etl_test_window_not_busy, fixture->window, "the window to be idle");

  tmp = g_dir_make_tmp ("etlscope-windows-XXXXXX", NULL);
  dir = g_build_filename (tmp, "экспорт", NULL);
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  image = g_build_filename (dir, "timeline.png", NULL);
  g_assert_true (g_file_set_contents (image, "old", 3, NULL));
  g_assert_true (etl_window_export_image (fixture->window, image, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (image, &contents, &length, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 1000);
  g_assert_cmpmem (contents, 4, "\x89PNG", 4);
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;
    guint n = 0;

    while ((name = g_dir_read_name (d)) != NULL)
      {
        g_assert_cmpstr (name, ==, "timeline.png");
        n++;
      }
    g_assert_cmpuint (n, ==, 1);
  }
  g_unlink (image);
  g_rmdir (dir);
  g_rmdir (tmp);
}

/* ------------------------------------------------------------------------ */
/* The Open dialog                                                          */

#ifdef G_OS_WIN32
static gboolean
dialog_shown (gpointer data)
{
  HWND *hwnd = data;

  /* IFileDialog's window: dialog class #32770, titled as GTK asked, once
   * shown (it is made hidden first). */
  *hwnd = FindWindowW (L"#32770", L"Open Trace Files");
  return *hwnd != NULL && IsWindowVisible (*hwnd);
}

static gboolean
dialog_gone (gpointer data)
{
  return FindWindowW (L"#32770", L"Open Trace Files") == NULL;
}
#else
static gboolean
dialog_shown (gpointer data)
{
  GtkWidget **dialog = data;
  g_autoptr (GList) toplevels = gtk_window_list_toplevels ();

  *dialog = NULL;
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (GTK_IS_FILE_CHOOSER_DIALOG (l->data) && gtk_widget_get_visible (l->data)
        && g_strcmp0 (gtk_window_get_title (l->data), "Open Trace Files") == 0)
      *dialog = l->data;
  return *dialog != NULL;
}
#endif

static gboolean
refs_back (gpointer data)
{
  gpointer *args = data;

  return etl_test_ref_count (args[0]) == GPOINTER_TO_UINT (args[1]);
}

/* File ▸ Open shows the platform's dialog; Cancel (as the user presses it)
 * closes it, its response handler runs (it holds a reference on the window
 * until then) and nothing is opened. */
static void
test_open_dialog_cancel (Fixture *fixture, gconstpointer data)
{
  guint refs;
  gpointer args[2];

  if (etl_test_skip_without_display (have_display))
    return;
  refs = etl_test_ref_count (fixture->window);
  etl_window_show_open_dialog (fixture->window);
  /* The response handler's reference, and on Windows GTK's own on the
   * dialog's parent while IFileDialog runs in its thread. */
  g_assert_cmpuint (etl_test_ref_count (fixture->window), >, refs);
#ifdef G_OS_WIN32
  {
    HWND hwnd = NULL;

    etl_test_wait_for_seconds (dialog_shown, &hwnd, 30, "the dialog to show");
    etl_test_drain ();
    g_assert_true (IsWindowVisible (hwnd));
    g_assert_true (PostMessageW (hwnd, WM_COMMAND, IDCANCEL, 0));
    etl_test_wait_for_seconds (dialog_gone, NULL, 30, "the dialog to close");
    etl_test_drain ();
  }
#else
  {
    GtkWidget *dialog = NULL;

    etl_test_wait_for_seconds (dialog_shown, &dialog, 30, "the dialog to show");
    etl_test_drain ();
    gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  }
#endif
  args[0] = fixture->window;
  args[1] = GUINT_TO_POINTER (refs);
  etl_test_wait_for_seconds (refs_back, args, 30, "the open job to end");
  etl_test_drain ();
  g_assert_false (etl_window_get_loading (fixture->window));
  g_assert_null (etl_window_get_trace (fixture->window));
}

/* ------------------------------------------------------------------------ */
/* The session panel's Start and Stop                                       */

typedef struct
{
  GtkWidget *start;
  GtkWidget *stop;
  GPtrArray *labels;
} PanelParts;

static void
find_parts (GtkWidget *widget, gpointer data)
{
  PanelParts *parts = data;

  if (GTK_IS_BUTTON (widget))
    {
      const char *label = gtk_button_get_label (GTK_BUTTON (widget));

      if (g_strcmp0 (label, "_Start") == 0)
        parts->start = widget;
      else if (g_strcmp0 (label, "S_top") == 0)
        parts->stop = widget;
    }
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (parts->labels, widget);
  if (GTK_IS_CONTAINER (widget))
    gtk_container_forall (GTK_CONTAINER (widget), find_parts, data);
}

/* A label of the panel whose text starts with @prefix, else NULL. */
static const char *
label_starting (PanelParts *parts, const char *prefix)
{
  for (guint i = 0; i < parts->labels->len; i++)
    {
      const char *text = gtk_label_get_text (parts->labels->pdata[i]);

      if (g_str_has_prefix (text, prefix))
        return text;
    }
  return NULL;
}

static void
on_session_stopped (EtlSessionPanel *panel, const char *path, gpointer data)
{
  char **stopped = data;

  g_free (*stopped);
  *stopped = g_strdup (path);
}

static void
test_session_start_stop (void)
{
  GtkWidget *window;
  GtkWidget *panel;
  PanelParts parts = { NULL, NULL, g_ptr_array_new () };
  g_autofree char *stopped = NULL;
  g_autoptr (EtlSession) session = etl_session_new_preset ("kernel-basics", NULL);
  g_autofree char *log_file = NULL;

  if (etl_test_skip_without_display (have_display))
    return;
  window = gtk_offscreen_window_new ();
  panel = etl_session_panel_new ();
  gtk_container_add (GTK_CONTAINER (window), panel);
  gtk_widget_show_all (window);
  log_file = g_build_filename (g_get_tmp_dir (), "etlscope-session-test.etl", NULL);
  etl_session_set_log_file_name (session, log_file);
  etl_session_panel_set_session (ETL_SESSION_PANEL (panel), session);
  g_signal_connect (panel, "session-stopped", G_CALLBACK (on_session_stopped), &stopped);
  find_parts (panel, &parts);
  g_assert_nonnull (parts.start);
  g_assert_nonnull (parts.stop);
  g_assert_false (gtk_widget_is_sensitive (parts.stop));

#ifdef G_OS_WIN32
  {
    const char *after_start;

    g_assert_true (etl_session_control_supported ());
    g_assert_true (gtk_widget_is_sensitive (parts.start));
    gtk_button_clicked (GTK_BUTTON (parts.start));
    /* What StartTraceW answered: success (Wine's stub, or an administrator
     * on Windows), or its error in words (access denied without rights). */
    after_start = label_starting (&parts, "Session running.");
    if (after_start == NULL)
      after_start = label_starting (&parts, "StartTraceW");
    g_assert_nonnull (after_start);
    g_test_message ("Start: %s", after_start);
    if (g_str_has_prefix (after_start, "Session running."))
      {
        const char *after_stop;

        g_assert_false (gtk_widget_is_sensitive (parts.start));
        g_assert_true (gtk_widget_is_sensitive (parts.stop));
        gtk_button_clicked (GTK_BUTTON (parts.stop));
        g_assert_true (gtk_widget_is_sensitive (parts.start));
        g_assert_false (gtk_widget_is_sensitive (parts.stop));
        /* ControlTraceW STOP: the session's counters and its log file (the
         * name asked for when ETW returns none), or its error in words. */
        after_stop = label_starting (&parts, "Session stopped.");
        if (after_stop != NULL)
          {
            g_assert_nonnull (stopped);
            g_assert_true (g_str_has_suffix (stopped, "etlscope-session-test.etl"));
          }
        else
          {
            after_stop = label_starting (&parts, "ControlTraceW");
            g_assert_nonnull (after_stop);
            g_assert_null (stopped);
          }
        g_test_message ("Stop: %s", after_stop);
      }
  }
#else
  g_assert_false (etl_session_control_supported ());
  g_assert_false (gtk_widget_is_sensitive (parts.start));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (parts.start), "needs Windows"));
  g_assert_null (label_starting (&parts, "Session running."));
  g_assert_null (stopped);
#endif
  g_ptr_array_unref (parts.labels);
  gtk_widget_destroy (window);
}

int
main (int argc, char *argv[])
{
  g_autofree char *xdg = NULL;
  int status;

#ifdef G_OS_WIN32
  known_folders = g_strcmp0 (g_getenv ("ETLSCOPE_TEST_KNOWN_FOLDERS"), "1") == 0;
#endif
  /* Before GTK reads them. */
  if (known_folders)
    {
      g_unsetenv ("XDG_CONFIG_HOME");
      g_unsetenv ("XDG_DATA_HOME");
      g_unsetenv ("XDG_CACHE_HOME");
    }
  else
    xdg = etl_test_private_xdg ("etlscope-windows-gui-XXXXXX");
  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add_func ("/etl/windows/folders", test_folders);
  g_test_add_func ("/etl/windows/manifest-folder", test_manifest_folder);
  g_test_add ("/etl/windows/path-recent-markers-state", Fixture, NULL, fixture_setup,
              test_path_recent_markers_state, fixture_teardown);
  g_test_add ("/etl/windows/export-atomic", Fixture, NULL, fixture_setup, test_export_atomic, fixture_teardown);
  g_test_add ("/etl/windows/open-dialog-cancel", Fixture, NULL, fixture_setup, test_open_dialog_cancel,
              fixture_teardown);
  g_test_add_func ("/etl/windows/session-start-stop", test_session_start_stop);

  status = g_test_run ();
  if (xdg != NULL)
    etl_test_rm_rf (xdg);
  return status;
}
