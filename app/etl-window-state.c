/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The window's state file, g_get_user_config_dir()/etlscope/state.ini
 * (#GKeyFile, written atomically): window size, maximised state, pane
 * positions, the session panel's closed sections and the list's hidden
 * columns, read when the window is built and written when it closes.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>

#include "etl-cpu-graph.h"
#include "etl-event-list.h"
#include "etl-session-panel.h"
#include "etl-timeline-view.h"
#include "etl-window-private.h"

/* ------------------------------------------------------------------------ */
/* State file                                                               */
/* ------------------------------------------------------------------------ */

static char *
state_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "etlscope", "state.ini", NULL);
}

/* EtlTimelineProcessColorFunc: the CPU usage graph's colour of @pid. */
gboolean
process_color_cb (guint32 pid, GdkRGBA *rgba, gpointer user_data)
{
  return etl_cpu_graph_get_process_color (ETL_CPU_GRAPH (user_data), pid, rgba);
}

/* The work area of the primary monitor (or the first), where a window opens. */
static gboolean
get_workarea (GdkRectangle *area)
{
  GdkDisplay *display = gdk_display_get_default ();
  GdkMonitor *monitor = display != NULL ? gdk_display_get_primary_monitor (display) : NULL;

  if (monitor == NULL && display != NULL && gdk_display_get_n_monitors (display) > 0)
    monitor = gdk_display_get_monitor (display, 0);
  if (monitor == NULL)
    return FALSE;
  gdk_monitor_get_workarea (monitor, area);
  return area->width > 0 && area->height > 0;
}

void
load_state (EtlWindow *self)
{
  g_autofree char *path = state_path ();
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  GdkRectangle area;
  int width, height;

  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL))
    {
      /* First run: fill most of the monitor; maximised where a window
       * manager allows. */
      if (get_workarea (&area))
        {
          gtk_window_set_default_size (GTK_WINDOW (self), MAX (area.width - 24, 800), MAX (area.height - 64, 600));
          /* The CPU usage graph only where the lanes keep room (~900 px). */
          etl_cpu_graph_set_expanded (self->cpu_graph, area.height >= 900);
        }
      gtk_window_maximize (GTK_WINDOW (self));
      return;
    }

  width = g_key_file_get_integer (kf, "window", "width", NULL);
  height = g_key_file_get_integer (kf, "window", "height", NULL);
  /* A size saved on a bigger monitor (a laptop taken off its dock) would
   * put the status bar and the list's last rows off screen: fit it to this
   * monitor's work area. */
  if (get_workarea (&area))
    {
      width = MIN (width, area.width);
      height = MIN (height, area.height);
    }
  if (width >= 400 && height >= 300)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_key_file_get_boolean (kf, "window", "maximized", NULL))
    gtk_window_maximize (GTK_WINDOW (self));

#define RESTORE_PANE(key, paned)                                                                                     \
  G_STMT_START                                                                                                       \
  {                                                                                                                  \
    int pos = g_key_file_get_integer (kf, "panes", key, &error);                                                     \
    if (error == NULL && pos > 0)                                                                                    \
      gtk_paned_set_position (paned, pos);                                                                           \
    g_clear_error (&error);                                                                                          \
  }                                                                                                                  \
  G_STMT_END
  RESTORE_PANE ("session", self->paned);
  RESTORE_PANE ("trace", self->trace_paned);
  RESTORE_PANE ("list", self->list_paned);
#undef RESTORE_PANE
  self->panes_restored = g_key_file_has_key (kf, "panes", "trace", NULL);

  /* The CPU usage graph: as the user left it; the first time, shown only
   * on screens tall enough for it and the lanes (about 900 px). */
  {
    g_autoptr (GError) graph_error = NULL;
    gboolean expanded = g_key_file_get_boolean (kf, "cpu-graph", "expanded", &graph_error);

    if (graph_error != NULL)
      expanded = !get_workarea (&area) || area.height >= 900;
    etl_cpu_graph_set_expanded (self->cpu_graph, expanded);
  }

  /* Timeline lanes without events in view: hidden as the user left it. */
  etl_timeline_view_set_hide_empty_lanes (self->timeline,
                                          g_key_file_get_boolean (kf, "timeline", "hide-empty-lanes", NULL));

  /* Sections the user closed in the session panel. */
  {
    g_auto (GStrv) closed = g_key_file_get_string_list (kf, "session-panel", "collapsed-sections", NULL, NULL);

    for (guint i = 0; closed != NULL && closed[i] != NULL; i++)
      etl_session_panel_set_section_expanded (self->session_panel, closed[i], FALSE);
  }

  /* Columns the user hid in the event list. */
  {
    g_auto (GStrv) hidden = g_key_file_get_string_list (kf, "list", "hidden-columns", NULL, NULL);

    for (guint i = 0; hidden != NULL && hidden[i] != NULL; i++)
      etl_event_list_set_column_visible (self->event_list, hidden[i], FALSE);
  }

  /* The window is split in two by default: session panel | trace area. */
  if (g_key_file_has_key (kf, "panes", "session-visible", NULL))
    g_action_group_change_action_state (G_ACTION_GROUP (self), "show-session",
                                        g_variant_new_boolean (g_key_file_get_boolean (kf, "panes", "session-visible",
                                                                                       NULL)));
}

/**
 * etl_window_save_state:
 * @self: a window
 * @error: return location for a #GError
 *
 * Writes the window size, maximised state, pane positions, the session
 * panel's closed sections, the event list's hidden columns and whether the
 * timeline hides lanes without events in view to
 * g_get_user_config_dir()/etlscope/state.ini, atomically
 * (g_key_file_save_to_file() goes through g_file_set_contents()).
 *
 * Returns: %TRUE on success
 */
gboolean
etl_window_save_state (EtlWindow *self, GError **error)
{
  g_autofree char *path = state_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  gboolean maximized;
  int width, height;

  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);

  /* Keep keys this version does not know. */
  g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  maximized = gtk_window_is_maximized (GTK_WINDOW (self));
  gtk_window_get_size (GTK_WINDOW (self), &width, &height);
  if (!maximized)
    {
      g_key_file_set_integer (kf, "window", "width", width);
      g_key_file_set_integer (kf, "window", "height", height);
    }
  g_key_file_set_boolean (kf, "window", "maximized", maximized);
  g_key_file_set_integer (kf, "panes", "session", gtk_paned_get_position (self->paned));
  g_key_file_set_boolean (kf, "panes", "session-visible", gtk_widget_get_visible (GTK_WIDGET (self->session_box)));
  g_key_file_set_integer (kf, "panes", "trace", gtk_paned_get_position (self->trace_paned));
  g_key_file_set_integer (kf, "panes", "list", gtk_paned_get_position (self->list_paned));
  g_key_file_set_boolean (kf, "cpu-graph", "expanded", etl_cpu_graph_get_expanded (self->cpu_graph));
  g_key_file_set_boolean (kf, "timeline", "hide-empty-lanes", etl_timeline_view_get_hide_empty_lanes (self->timeline));
  {
    g_auto (GStrv) closed = etl_session_panel_dup_collapsed_sections (self->session_panel);

    g_key_file_set_string_list (kf, "session-panel", "collapsed-sections", (const char *const *) closed,
                                g_strv_length (closed));
  }
  {
    g_auto (GStrv) hidden = etl_event_list_dup_hidden_columns (self->event_list);

    g_key_file_set_string_list (kf, "list", "hidden-columns", (const char *const *) hidden, g_strv_length (hidden));
  }

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (kf, path, error);
}

/**
 * etl_window_get_state_path:
 *
 * Returns: (transfer full): where the window keeps its state
 */
char *
etl_window_get_state_path (void)
{
  return state_path ();
}
