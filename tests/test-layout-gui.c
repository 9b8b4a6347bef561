/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The main window's layout (issue 18): the ruler and lanes above one bottom
 * panel of tabs (Events, Summary), the details right of the list, a loss
 * plot that is one line when nothing was lost.  At 1366×768 with the session
 * panel open the list shows at least 12 rows and the summary's columns fit
 * its tab; the window's minimum size stays within 1024×700 with four corpus
 * files merged in Process mode and with eight files that lost events; the
 * size and position read from state.ini are clamped to the monitor's work
 * area; the panel's tab, height and maximised state come back on the next
 * run.  Run under Xvfb; skipped without a display.  XDG directories point
 * into a temporary folder, so state.ini is the test's own.  With
 * LAYOUT_DUMP=1, the minimum-size checks log every widget asking for more
 * than 300 px of width or 60 px of height (which one holds the window up). */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "etl-synth.h"
#include "etl-test-gui-util.h"
#include "etl-window.h"

static gboolean have_display;

typedef struct
{
  EtlWindow *window;
  char *dir;
} Fixture;

static void
remove_state (void)
{
  g_autofree char *path = etl_window_get_state_path ();

  g_unlink (path);
}

static void
fixture_setup (Fixture *fixture, gconstpointer data)
{
  if (!have_display)
    return;
  /* Every test starts as a first run. */
  remove_state ();
  fixture->window = etl_test_window_new (1366, 768);
}

static void
fixture_teardown (Fixture *fixture, gconstpointer data)
{
  etl_test_window_clear (&fixture->window);
  if (fixture->dir != NULL)
    {
      etl_test_rm_rf (fixture->dir);
      g_clear_pointer (&fixture->dir, g_free);
    }
}

/* Runs the main loop until the window is idle, then lets it lay out and
 * paint. */
static void
wait_idle (EtlWindow *window)
{
  etl_test_wait_for (etl_test_window_views_idle, window, "the window to be idle");
  etl_test_wait_paint (GTK_WIDGET (window));
  etl_test_wait_for (etl_test_window_views_idle, window, "the window to be idle after a paint");
}

static void
open_and_wait (EtlWindow *window, GPtrArray *paths)
{
  etl_test_window_open (window, (const char *const *) paths->pdata, paths->len);
  wait_idle (window);
  g_assert_nonnull (etl_window_get_trace (window));
}

/* Four files of the corpus, merged; %NULL (and the test skipped) when the
 * corpus is missing. */
static GPtrArray *
corpus_four (void)
{
  static const char *const names[] = { "net.4.5.2.x64.etl", "gcevents.etl", "gcrundownevents.etl", "AMSITrace.etl" };
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      char *path = etl_test_corpus_path (names[i]);

      if (path == NULL)
        return NULL;
      g_ptr_array_add (paths, path);
    }
  return g_steal_pointer (&paths);
}

/* Resizes @window so that its whole X window (header bar included) is
 * @width × @height, and lets it lay out and paint. */
static void
resize_outer (EtlWindow *window, int width, int height)
{
  GtkWindow *gtk_window = GTK_WINDOW (window);
  int w = width, h = height;

  gtk_window_move (gtk_window, 0, 0);
  for (int pass = 0; pass < 4; pass++)
    {
      GdkWindow *gdk_window;
      int dw, dh;

      gtk_window_resize (gtk_window, w, h);
      etl_test_wait_paint (GTK_WIDGET (window));
      gdk_window = gtk_widget_get_window (GTK_WIDGET (window));
      dw = gdk_window_get_width (gdk_window) - width;
      dh = gdk_window_get_height (gdk_window) - height;
      if (dw == 0 && dh == 0)
        break;
      w -= dw;
      h -= dh;
    }
  g_assert_cmpint (gdk_window_get_width (gtk_widget_get_window (GTK_WIDGET (window))), ==, width);
  g_assert_cmpint (gdk_window_get_height (gtk_widget_get_window (GTK_WIDGET (window))), ==, height);
}

/* Rows entirely on screen in the event list. */
static guint
list_rows_visible (EtlWindow *window)
{
  guint64 first = 0, last = 0;

  if (!etl_event_list_get_visible_range (etl_window_get_event_list (window), &first, &last))
    return 0;
  return (guint) (last - first + 1);
}

static gboolean
session_visible (EtlWindow *window)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-session");

  return g_variant_get_boolean (state);
}

/* Logs @w and its descendants that ask for much room: minimum, natural and
 * allocated sizes. */
static void
dump_tree (GtkWidget *w, int depth)
{
  int mw, nw, mh, nh;

  if (depth > 9 || !gtk_widget_get_visible (w))
    return;
  gtk_widget_get_preferred_width (w, &mw, &nw);
  gtk_widget_get_preferred_height (w, &mh, &nh);
  if (mw > 300 || mh > 60)
    g_test_message ("%*s%s min %d×%d nat %d×%d alloc %d×%d", depth * 2, "", G_OBJECT_TYPE_NAME (w), mw, mh, nw, nh,
                    gtk_widget_get_allocated_width (w), gtk_widget_get_allocated_height (w));
  if (GTK_IS_CONTAINER (w) && !GTK_IS_TREE_VIEW (w))
    {
      GList *children = gtk_container_get_children (GTK_CONTAINER (w));

      for (GList *l = children; l != NULL; l = l->next)
        dump_tree (l->data, depth + 1);
      g_list_free (children);
    }
  if (GTK_IS_WINDOW (w) && gtk_window_get_titlebar (GTK_WINDOW (w)) != NULL)
    dump_tree (gtk_window_get_titlebar (GTK_WINDOW (w)), depth + 1);
}

static void
log_min_size (EtlWindow *window, const char *what, int *min_w, int *min_h)
{
  int nat;

  if (g_getenv ("LAYOUT_DUMP") != NULL)
    dump_tree (GTK_WIDGET (window), 0);

  gtk_widget_get_preferred_width (GTK_WIDGET (window), min_w, &nat);
  gtk_widget_get_preferred_height (GTK_WIDGET (window), min_h, &nat);
  g_test_message ("%s: window minimum %d×%d", what, *min_w, *min_h);
}

/* The work area of the display's primary (or first) monitor. */
static void
get_workarea (GdkRectangle *area)
{
  GdkDisplay *display = gdk_display_get_default ();
  GdkMonitor *monitor = gdk_display_get_primary_monitor (display);

  if (monitor == NULL)
    monitor = gdk_display_get_monitor (display, 0);
  g_assert_nonnull (monitor);
  gdk_monitor_get_workarea (monitor, area);
}

/* net.4.5.2.x64.etl at 1366×768, session panel open: 12 rows or more in the
 * list, the details beside it (no height taken when nothing is selected),
 * a one-line loss strip, the summary's columns inside its tab; then more
 * rows at 1600×1000. */
static void
test_rows (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  EtlWindow *window = fixture->window;
  GtkWidget *list, *details, *group_view, *loss;
  guint rows_768, rows_1000;
  int min_w, min_h, group_min, group_nat;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("net.4.5.2.x64.etl")) == NULL)
    return;
  g_ptr_array_add (paths, path);
  open_and_wait (window, paths);
  g_assert_true (session_visible (window));
  resize_outer (window, 1366, 768);
  wait_idle (window);
  {
    GdkRectangle area;

    get_workarea (&area);
    g_test_message ("screen work area %d×%d; CPU graph %s", area.width, area.height,
                    etl_cpu_graph_get_expanded (etl_window_get_cpu_graph (window)) ? "expanded" : "collapsed");
  }

  /* Nothing lost: the loss plot is one line. */
  loss = GTK_WIDGET (etl_window_get_loss_plot (window));
  g_assert_true (etl_loss_plot_get_compact (ETL_LOSS_PLOT (loss)));
  g_assert_cmpint (gtk_widget_get_allocated_height (loss), <=, ETL_LOSS_PLOT_COMPACT_HEIGHT);

  /* Nothing selected: no details pane. */
  list = GTK_WIDGET (etl_window_get_event_list (window));
  details = GTK_WIDGET (etl_window_get_details (window));
  g_assert_false (gtk_widget_get_mapped (details));
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "events");
  rows_768 = list_rows_visible (window);
  g_test_message ("1366×768, session panel open: %u rows in the list (%d px high)", rows_768,
                  gtk_widget_get_allocated_height (list));
  g_assert_cmpuint (rows_768, >=, 12);

  /* A selected event: its details right of the list, same height. */
  etl_event_list_select_row (ETL_EVENT_LIST (list), 5);
  g_signal_emit_by_name (list, "row-selected", (guint64) 5);
  wait_idle (window);
  g_assert_true (gtk_widget_get_mapped (details));
  {
    int lx = 0, ly = 0, dx = 0, dy = 0;

    g_assert_true (gtk_widget_translate_coordinates (list, GTK_WIDGET (window), 0, 0, &lx, &ly));
    g_assert_true (gtk_widget_translate_coordinates (details, GTK_WIDGET (window), 0, 0, &dx, &dy));
    g_assert_cmpint (dx, >=, lx + gtk_widget_get_allocated_width (list));
    g_assert_cmpint (dy, <=, ly);
  }
  g_assert_cmpuint (list_rows_visible (window), ==, rows_768);

  /* The Summary tab (Alt+2): every column inside the tab, not clipped. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-view", g_variant_new_int32 (2));
  wait_idle (window);
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "summary");
  group_view = GTK_WIDGET (etl_window_get_group_view (window));
  g_assert_true (gtk_widget_get_mapped (group_view));
  gtk_widget_get_preferred_width (group_view, &group_min, &group_nat);
  g_test_message ("summary tab %d px wide, its columns need %d (natural %d)", gtk_widget_get_allocated_width (group_view),
                  group_min, group_nat);
  g_assert_cmpint (gtk_widget_get_allocated_width (group_view), >=, group_min);
  g_assert_cmpint (gtk_widget_get_allocated_width (group_view), >=, group_nat);
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-view", g_variant_new_int32 (1));

  log_min_size (window, "net.4.5.2.x64.etl", &min_w, &min_h);
  g_assert_cmpint (min_w, <=, 1024);
  g_assert_cmpint (min_h, <=, 700);

  /* A first run on a bigger screen: more rows.  (A window that grows keeps
   * its panel's height; the lanes take the rest.) */
  gtk_widget_destroy (GTK_WIDGET (window));
  g_clear_object (&fixture->window);
  remove_state ();
  fixture->window = window = g_object_ref_sink (etl_window_new (NULL));
  gtk_window_set_default_size (GTK_WINDOW (window), 1600, 1000);
  gtk_widget_show (GTK_WIDGET (window));
  resize_outer (window, 1600, 1000);
  open_and_wait (window, paths);
  g_assert_true (session_visible (window));
  rows_1000 = list_rows_visible (window);
  g_test_message ("1600×1000, session panel open: %u rows in the list (%d px high)", rows_1000,
                  gtk_widget_get_allocated_height (GTK_WIDGET (etl_window_get_event_list (window))));
  g_assert_cmpuint (rows_1000, >=, 15);
}

/* The window's minimum size with four corpus files merged, in every lane
 * mode, stays within 1024×700 (the loss key and lanes scroll, the window does
 * not grow). */
static void
test_min_size_four_files (Fixture *fixture, gconstpointer data)
{
  static const char *const modes[] = { "cpu", "provider", "process" };
  g_autoptr (GPtrArray) paths = NULL;
  EtlWindow *window = fixture->window;
  GActionGroup *timeline;
  int min_w, min_h, w, h;

  if (etl_test_skip_without_display (have_display) || (paths = corpus_four ()) == NULL)
    return;
  open_and_wait (window, paths);
  g_assert_cmpuint (etl_window_get_n_loss_files (window), ==, 4);
  resize_outer (window, 1366, 768);
  timeline = gtk_widget_get_action_group (GTK_WIDGET (window), "timeline");
  g_assert_nonnull (timeline);
  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *what = NULL;

      g_action_group_activate_action (timeline, "lane-mode", g_variant_new_string (modes[i]));
      wait_idle (window);
      what = g_strdup_printf ("four corpus files, %s mode, %u lanes", modes[i], etl_window_get_n_lanes (window));
      log_min_size (window, what, &min_w, &min_h);
      g_assert_cmpint (min_w, <=, 1024);
      g_assert_cmpint (min_h, <=, 700);
      /* The window kept its size. */
      gtk_window_get_size (GTK_WINDOW (window), &w, &h);
      g_assert_cmpint (gdk_window_get_height (gtk_widget_get_window (GTK_WIDGET (window))), ==, 768);
      g_assert_cmpuint (list_rows_visible (window), >=, 12);
    }
}

/* Eight synthetic files that lost buffers: the full loss plot, its legend
 * in columns; the minimum size stays within 1024×700. */
static void
test_min_size_losses (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GError) error = NULL;
  EtlWindow *window = fixture->window;
  GtkWidget *loss;
  int min_w, min_h, loss_min, loss_nat;

  if (etl_test_skip_without_display (have_display))
    return;
  fixture->dir = g_dir_make_tmp ("etlscope-layout-XXXXXX", &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 8; i++)
    {
      EtlSynthParams params;
      char *path = g_strdup_printf ("%s/part%u.etl", fixture->dir, i);

      etl_synth_params_init (&params);
      params.n_cpus = 4;
      params.n_records = 5000;
      params.loss_rate = 0.05;
      params.seed = 3 + i * 5;
      g_assert_true (etl_synth_write (&params, path, &error));
      g_assert_no_error (error);
      g_ptr_array_add (paths, path);
    }
  open_and_wait (window, paths);
  resize_outer (window, 1366, 768);
  loss = GTK_WIDGET (etl_window_get_loss_plot (window));
  g_assert_false (etl_loss_plot_get_compact (ETL_LOSS_PLOT (loss)));
  g_assert_cmpuint (etl_window_get_n_loss_files (window), ==, 8);
  gtk_widget_get_preferred_height (loss, &loss_min, &loss_nat);
  g_test_message ("loss plot of 8 files: %d px (the legend in %d lines)", loss_nat, ETL_LOSS_PLOT_LEGEND_LINES);
  /* As high as with two files. */
  g_assert_cmpint (loss_nat, <=, 4 + (ETL_LOSS_PLOT_LEGEND_LINES + 1) * 18 + 2 + 2 * 28 + 4);
  g_action_group_activate_action (gtk_widget_get_action_group (GTK_WIDGET (window), "timeline"), "lane-mode",
                                  g_variant_new_string ("process"));
  wait_idle (window);
  log_min_size (window, "eight files with losses, process lanes", &min_w, &min_h);
  g_assert_cmpint (min_w, <=, 1024);
  g_assert_cmpint (min_h, <=, 700);
  g_assert_cmpuint (list_rows_visible (window), >=, 12);
}

/* A new window reading the state.ini @kf: it opens inside the work area,
 * header bar and frame included. */
static void
check_opens_inside (Fixture *fixture, GKeyFile *kf, const char *what)
{
  g_autofree char *path = etl_window_get_state_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  GdkRectangle area;
  GdkWindow *gdk_window;
  EtlWindow *window;
  int x, y, w, h;

  if (fixture->window != NULL)
    {
      gtk_widget_destroy (GTK_WIDGET (fixture->window));
      g_clear_object (&fixture->window);
    }
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_key_file_save_to_file (kf, path, &error));
  g_assert_no_error (error);

  get_workarea (&area);
  fixture->window = window = g_object_ref_sink (etl_window_new (NULL));
  gtk_widget_show (GTK_WIDGET (window));
  etl_test_wait_paint (GTK_WIDGET (window));
  gdk_window = gtk_widget_get_window (GTK_WIDGET (window));
  gdk_window_get_root_origin (gdk_window, &x, &y);
  w = gdk_window_get_width (gdk_window);
  h = gdk_window_get_height (gdk_window);
  g_test_message ("%s: work area %d×%d%+d%+d, window %d×%d%+d%+d", what, area.width, area.height, area.x, area.y, w,
                  h, x, y);
  /* Without a compositing manager GTK draws a 5 px resize border around
   * the window, outside its visible edge: that may lie off the area. */
  g_assert_cmpint (x + 5, >=, area.x);
  g_assert_cmpint (y + 5, >=, area.y);
  g_assert_cmpint (x + w - 5, <=, area.x + area.width);
  g_assert_cmpint (y + h - 5, <=, area.y + area.height);
}

/* The window opens inside the screen's work area: with a state.ini from a
 * bigger monitor (3000×2000 at +2500+1500), and with one written while it
 * was maximised (no size saved: the template's 1400×900 would be wider than
 * a 1366×768 screen). */
static void
test_workarea (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GKeyFile) big = g_key_file_new ();
  g_autoptr (GKeyFile) maximized = g_key_file_new ();

  if (etl_test_skip_without_display (have_display))
    return;
  g_key_file_set_integer (big, "window", "width", 3000);
  g_key_file_set_integer (big, "window", "height", 2000);
  g_key_file_set_integer (big, "window", "x", 2500);
  g_key_file_set_integer (big, "window", "y", 1500);
  g_key_file_set_boolean (big, "window", "maximized", FALSE);
  check_opens_inside (fixture, big, "3000×2000 saved");

  g_key_file_set_boolean (maximized, "window", "maximized", TRUE);
  check_opens_inside (fixture, maximized, "maximised, no size saved");
}

/* The bottom panel's tab, height and maximised state, and the details'
 * toggle, are written to state.ini and come back in a new window. */
static void
test_panel_state (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = NULL;
  g_autofree char *state_path = etl_window_get_state_path ();
  g_autoptr (GPtrArray) paths = g_ptr_array_new ();
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) state = NULL;
  EtlWindow *window = fixture->window;
  GtkWidget *lanes;
  int height;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("gcevents.etl")) == NULL)
    return;
  g_ptr_array_add (paths, path);
  open_and_wait (window, paths);
  resize_outer (window, 1366, 768);
  height = etl_window_get_panel_height (window);
  g_assert_cmpint (height, >, 200);
  etl_window_set_panel_height (window, height - 60);
  wait_idle (window);
  g_assert_cmpint (etl_window_get_panel_height (window), ==, height - 60);

  /* Maximised: the lanes are gone, the panel has the trace area. */
  lanes = GTK_WIDGET (etl_window_get_timeline (window));
  g_assert_true (gtk_widget_get_mapped (lanes));
  g_action_group_activate_action (G_ACTION_GROUP (window), "maximize-panel", NULL);
  wait_idle (window);
  g_assert_false (gtk_widget_get_mapped (lanes));
  g_assert_cmpint (gtk_widget_get_allocated_height (GTK_WIDGET (etl_window_get_view_panel (window))), >, height);
  /* The height it comes back to. */
  g_assert_cmpint (etl_window_get_panel_height (window), ==, height - 60);
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-view", g_variant_new_int32 (2));
  g_action_group_change_action_state (G_ACTION_GROUP (window), "show-details", g_variant_new_boolean (FALSE));
  wait_idle (window);

  gtk_widget_destroy (GTK_WIDGET (window));
  g_clear_object (&fixture->window);
  g_assert_true (g_key_file_load_from_file (kf, state_path, G_KEY_FILE_NONE, &error));
  g_assert_no_error (error);
  {
    g_autofree char *tab = g_key_file_get_string (kf, "panel", "tab", NULL);

    g_assert_cmpstr (tab, ==, "summary");
  }
  g_assert_true (g_key_file_get_boolean (kf, "panel", "maximized", NULL));
  g_assert_cmpint (g_key_file_get_integer (kf, "panel", "height", NULL), ==, height - 60);
  g_assert_false (g_key_file_get_boolean (kf, "panel", "details-visible", NULL));

  /* A new window: the same panel. */
  fixture->window = window = g_object_ref_sink (etl_window_new (NULL));
  gtk_widget_show (GTK_WIDGET (window));
  open_and_wait (window, paths);
  resize_outer (window, 1366, 768);
  wait_idle (window);
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "summary");
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "maximize-panel");
  g_assert_true (g_variant_get_boolean (state));
  g_clear_pointer (&state, g_variant_unref);
  state = g_action_group_get_action_state (G_ACTION_GROUP (window), "show-details");
  g_assert_false (g_variant_get_boolean (state));
  g_assert_false (gtk_widget_get_mapped (GTK_WIDGET (etl_window_get_timeline (window))));
  /* Back from maximised: the height left before. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "maximize-panel", NULL);
  wait_idle (window);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (etl_window_get_timeline (window))));
  g_assert_cmpint (etl_window_get_panel_height (window), ==, height - 60);
}

/* A panel height saved on a taller screen (900 px of a 1000 px one) and
 * restored at 1366×768: the panel takes at most 70 % of the trace area, so
 * the lanes keep the rest and stay in view. */
static void
test_panel_height_smaller_screen (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  char *path;
  EtlWindow *window;
  int panel, timeline;

  if (etl_test_skip_without_display (have_display) || (path = etl_test_corpus_path ("gcevents.etl")) == NULL)
    return;
  g_ptr_array_add (paths, path);
  /* The window restored at 1366×768 on whatever screen Xvfb has. */
  g_key_file_set_integer (kf, "window", "width", 1366);
  g_key_file_set_integer (kf, "window", "height", 768);
  g_key_file_set_boolean (kf, "window", "maximized", FALSE);
  g_key_file_set_integer (kf, "panel", "height", 900);
  g_key_file_set_string (kf, "panel", "tab", "events");
  check_opens_inside (fixture, kf, "panel height 900 saved");
  window = fixture->window;
  open_and_wait (window, paths);
  resize_outer (window, 1366, 768);
  wait_idle (window);
  panel = gtk_widget_get_allocated_height (GTK_WIDGET (etl_window_get_view_panel (window)));
  timeline = gtk_widget_get_allocated_height (GTK_WIDGET (etl_window_get_timeline (window)));
  g_test_message ("panel %d px, lanes %d px, window 768 px", panel, timeline);
  /* The trace area is less than the window's 768 px. */
  g_assert_cmpint (panel, <=, 768 * 70 / 100);
  g_assert_cmpint (panel, >=, 300);
  g_assert_cmpint (panel, ==, etl_window_get_panel_height (window));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (etl_window_get_timeline (window))));
}

/* A tab added with etl_window_add_view_tab() is the next Alt+N. */
static void
test_add_tab (Fixture *fixture, gconstpointer data)
{
  EtlWindow *window = fixture->window;
  GtkWidget *label;

  if (etl_test_skip_without_display (have_display))
    return;
  label = gtk_label_new ("a view");
  etl_window_add_view_tab (window, "test-view", "Test View", label);
  /* Alt+3 is CPU Usage (Precise), the window's third tab. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-view", g_variant_new_int32 (3));
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "precise");
  /* Alt+4 is Regions, the window's fourth. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-view", g_variant_new_int32 (4));
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "regions");
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-view", g_variant_new_int32 (5));
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "test-view");
  g_assert_true (etl_window_show_view_tab (window, "events"));
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "events");
  g_assert_false (etl_window_show_view_tab (window, "no-such-view"));
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "events");
  /* Past the last tab: nothing changes. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "show-view", g_variant_new_int32 (9));
  g_assert_cmpstr (etl_window_get_view_tab (window), ==, "events");
}

int
main (int argc, char *argv[])
{
  /* Before GTK reads them. */
  g_autofree char *xdg = etl_test_private_xdg ("etlscope-layout-gui-XXXXXX");

  have_display = gtk_init_check (&argc, &argv);
  g_test_init (&argc, &argv, NULL);
  etl_test_gui_init_log ();

  g_test_add ("/etl/gui/layout/rows", Fixture, NULL, fixture_setup, test_rows, fixture_teardown);
  g_test_add ("/etl/gui/layout/min-size/four-files", Fixture, NULL, fixture_setup, test_min_size_four_files,
              fixture_teardown);
  g_test_add ("/etl/gui/layout/min-size/losses", Fixture, NULL, fixture_setup, test_min_size_losses,
              fixture_teardown);
  g_test_add ("/etl/gui/layout/workarea", Fixture, NULL, fixture_setup, test_workarea, fixture_teardown);
  g_test_add ("/etl/gui/layout/panel-state", Fixture, NULL, fixture_setup, test_panel_state, fixture_teardown);
  g_test_add ("/etl/gui/layout/panel-height-smaller-screen", Fixture, NULL, fixture_setup,
              test_panel_height_smaller_screen, fixture_teardown);
  g_test_add ("/etl/gui/layout/add-tab", Fixture, NULL, fixture_setup, test_add_tab, fixture_teardown);
  return g_test_run ();
}
