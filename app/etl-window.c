/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-window
 * @title: EtlWindow
 * @short_description: the main window
 *
 * Built from the template ui/etl-window.ui.  The header bar holds Open (with
 * a Recent menu), the session panel toggle, the zoom buttons, the lane-mode
 * switch (CPU / Provider / Process) and the primary menu.  Below it, an info
 * bar shown only for problems and a progress bar with a Cancel button shown
 * while a job runs; then a #GtkStack: the start page (Open, Open a demo
 * trace, the recent traces) when no trace is shown, else the trace area: a
 * vertical #GtkPaned with, on top, the time ruler and the tracks — the
 * timeline's lanes (scrolling in their own pane), the provider legend, the
 * loss plot (one line when nothing was lost) and the CPU usage graph
 * (#EtlCpuGraph, hidden for traces without SampledProfile or CSwitch
 * records), which scroll together when short of room; below the handle, one
 * bottom panel of tabs (#EtlViewPanel, etl-window-panel.c), as Perfetto's
 * tracks above its tabs and WPA's graph above its table: Events (the filter
 * bar over the event list, the selected event's details right of it, shown
 * only while an event is selected), Summary (#EtlGroupView) and CPU Usage
 * (Precise) (#EtlPreciseView, its thread states built when a trace loads);
 * an analysis adds its tab with etl_window_add_view_tab().  Alt+1…9 show the tabs,
 * Ctrl+Shift+M gives the panel the whole trace area and back, Alt+Return
 * shows or hides the details.  The session configuration panel
 * (#EtlSessionPanel) sits in a left pane (F9).
 *
 * What the window shows belongs to its #EtlDocument (core/model): the
 * trace, its filter and row set, the selection, the markers and the jobs.
 * Loading (etl_window_open_files()) is the document's job — the trace
 * index, its per-CPU summary and its loss summary, in a worker — while the
 * progress bar follows its progress.  Cancel leaves the window as it was.
 * A file that cannot be opened is left out and reported in the info bar
 * with the reader's message (file, offset, reason); a file read only in
 * part is shown with what was read and its problems listed.
 *
 * The filter bar's filter runs in the document's worker; its #EtlRowSet
 * (#EtlDocument::rows-changed) goes to the event list and to the timeline,
 * which rebuilds its summaries from it.  Selecting an event in the list
 * selects and centres it in the timeline, and the other way round; the
 * details pane shows it.
 *
 * Navigation: Go to Time (Ctrl+G: a time since the start in any unit, or
 * a wall-clock time), the next / previous event of the same provider and
 * event (F3 / Shift+F3, searched in a worker), named markers (Ctrl+M) shown
 * on the ruler and in a list from the header bar, kept per trace in
 * g_get_user_config_dir()/etlscope/markers.ini, Zoom to Data (the range of
 * 99.9 % of the records, also the first view when a few outliers would
 * squeeze the data into a pixel); the keyboard zoom centres on the
 * selected event.  The event list's context menu filters to or excludes a
 * row's provider, process, thread or event (conditions applied in the
 * filter's worker after the filter bar's filter); a loss point clicked in
 * the loss plot selects the event at that time.  A merged set of files is
 * one entry of the Recent menu and reopens as a set.
 *
 * The window's actions (prefix "win") are grouped by menu in
 * etl-window-actions-file.c (File, Export) and etl-window-actions-view.c
 * (View); the other etl-window-*.c files hold one concept each and share
 * etl-window-private.h.  Window size and position (clamped to the monitor's
 * work area when read back), maximised state, the session pane, the bottom
 * panel's tab, height and maximised state, the details' width, the session
 * panel's closed sections and the list's hidden columns are kept in
 * g_get_user_config_dir()/etlscope/state.ini (#GKeyFile, written
 * atomically); app.quit writes it too.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-cpu-graph.h"
#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-filter.h"
#include "etl-group-view.h"
#include "etl-loss-plot.h"
#include "etl-precise-view.h"
#include "etl-session-panel.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-view-panel.h"
#include "etl-window-private.h"
#include "etl-window.h"

G_DEFINE_TYPE (EtlWindow, etl_window, GTK_TYPE_APPLICATION_WINDOW)

/* ------------------------------------------------------------------------ */
/* GObject                                                                  */
/* ------------------------------------------------------------------------ */

static void
on_session_stopped (EtlSessionPanel *panel, const char *path, EtlWindow *self)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  etl_window_open_files (self, &file, 1);
}

static void
on_info_bar_response (GtkInfoBar *info_bar, int response, EtlWindow *self)
{
  gtk_widget_hide (GTK_WIDGET (info_bar));
}

static void
etl_window_dispose (GObject *object)
{
  EtlWindow *self = ETL_WINDOW (object);

  if (!self->state_saved && self->paned != NULL)
    {
      self->state_saved = TRUE;
      etl_window_save_state (self, NULL);
    }
  /* No widget calls here: dispose runs again after the children are gone. */
  dispose_document (self);
  if (self->recent_manager != NULL)
    g_signal_handlers_disconnect_by_data (self->recent_manager, self);
  g_clear_object (&self->recent_manager);
  if (self->find_cancellable != NULL)
    g_cancellable_cancel (self->find_cancellable);
  g_clear_object (&self->find_cancellable);
  if (self->regions_cancellable != NULL)
    g_cancellable_cancel (self->regions_cancellable);
  g_clear_object (&self->regions_cancellable);
  g_clear_pointer (&self->regions_spans, etl_span_set_unref);

  G_OBJECT_CLASS (etl_window_parent_class)->dispose (object);
}

static void
etl_window_finalize (GObject *object)
{
  EtlWindow *self = ETL_WINDOW (object);

  g_clear_object (&self->zoom_manager);
  g_clear_object (&self->recent_menu);
  g_free (self->regions_error);
  g_free (self->pending_regions);

  G_OBJECT_CLASS (etl_window_parent_class)->finalize (object);
}

static void
etl_window_class_init (EtlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_window_dispose;
  object_class->finalize = etl_window_finalize;

  g_type_ensure (ETL_TYPE_TIME_RULER);
  g_type_ensure (ETL_TYPE_TIMELINE_VIEW);
  g_type_ensure (ETL_TYPE_LOSS_PLOT);
  g_type_ensure (ETL_TYPE_CPU_GRAPH);
  g_type_ensure (ETL_TYPE_FILTER_BAR);
  g_type_ensure (ETL_TYPE_EVENT_LIST);
  g_type_ensure (ETL_TYPE_DETAILS);
  g_type_ensure (ETL_TYPE_VIEW_PANEL);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/etlscope/Etlscope/ui/etl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, recent_button);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, zoom_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, lane_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, session_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, progress_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, recent_title);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, trace_paned);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, timeline_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, view_panel);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, events_paned);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, time_ruler);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, loss_plot);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, cpu_graph);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, filter_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, event_list);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, details);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_info_bar_response);
  gtk_widget_class_bind_template_callback (widget_class, on_recent_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_filter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_list_row_selected);
}

static void
etl_window_init (EtlWindow *self)
{
  /* Grouped as in the menus: File, View, Export. */
  static const GActionEntry entries[] = {
    { "open", open_action },
    { "open-files", open_files_action, "as" },
    { "open-recent", open_recent_action, "as" },
    { "open-demo", open_demo_action },
    { "load-manifest", load_manifest_action },
    { "load-regions", load_regions_action },
    { "close-trace", close_trace_action },
    { "cancel", cancel_action },

    { "find", find_action },
    { "clear-filter", clear_filter_action },
    { "show-session", NULL, NULL, "true", show_session_change_state },
    { "show-view", show_view_action, "i" },
    { "maximize-panel", NULL, NULL, "false", maximize_panel_change_state },
    { "show-details", NULL, NULL, "true", show_details_change_state },
    { "show-menu", show_menu_action },

    { "go-to-time", go_to_time_action },
    { "find-next", find_next_action },
    { "find-previous", find_previous_action },
    { "add-marker", add_marker_action },
    { "zoom-to-data", zoom_to_data_action },
    { "stacks-summary", stacks_summary_action },

    { "export-selection", export_selection_action },
    { "export-image", export_image_action },
  };
  g_autoptr (GPropertyAction) utc = NULL;
  GActionGroup *timeline_actions;
  GtkApplication *app;

  self->handle_size = -1;
  setup_document (self);
  gtk_widget_init_template (GTK_WIDGET (self));

  /* The provider colour legend, under the timeline. */
  {
    /* The timeline sits in its own scrolled pane; the legend goes into the
     * box of tracks around that pane, right under it. */
    GtkWidget *parent = gtk_widget_get_ancestor (GTK_WIDGET (self->timeline), GTK_TYPE_BOX);

    /* One line, most frequent first; scrolls sideways when narrow. */
    self->legend_box = GTK_BOX (gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 14));
    g_object_set (self->legend_box, "margin-start", 8, "margin-end", 8, "margin-top", 2, "margin-bottom", 2, NULL);
    gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->legend_box)), "provider-legend");
    gtk_widget_show (GTK_WIDGET (self->legend_box));
    self->legend_scroller = gtk_scrolled_window_new (NULL, NULL);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->legend_scroller), GTK_POLICY_AUTOMATIC,
                                    GTK_POLICY_NEVER);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (self->legend_scroller), TRUE);
    gtk_container_add (GTK_CONTAINER (self->legend_scroller), GTK_WIDGET (self->legend_box));
    if (GTK_IS_BOX (parent))
      {
        gtk_box_pack_start (GTK_BOX (parent), self->legend_scroller, FALSE, FALSE, 0);
        gtk_box_reorder_child (GTK_BOX (parent), self->legend_scroller, 1);
      }
  }

  /* Markers: a header bar button with the list in a popover. */
  {
    GtkWidget *popover, *scroller, *box, *title;

    self->markers_button = GTK_MENU_BUTTON (gtk_menu_button_new ());
    gtk_button_set_image (GTK_BUTTON (self->markers_button),
                          gtk_image_new_from_icon_name ("user-bookmarks-symbolic", GTK_ICON_SIZE_BUTTON));
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->markers_button), "Markers (Ctrl+M adds one at the selected event)");
    popover = gtk_popover_new (GTK_WIDGET (self->markers_button));
    box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
    g_object_set (box, "margin", 8, NULL);
    title = gtk_label_new (NULL);
    gtk_label_set_markup (GTK_LABEL (title), "<b>Markers</b>");
    gtk_label_set_xalign (GTK_LABEL (title), 0);
    scroller = gtk_scrolled_window_new (NULL, NULL);
    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
    gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 360);
    gtk_widget_set_size_request (scroller, 280, -1);
    self->markers_list = GTK_LIST_BOX (gtk_list_box_new ());
    g_signal_connect_object (self->markers_list, "row-activated", G_CALLBACK (on_marker_row_activated), self, 0);
    gtk_container_add (GTK_CONTAINER (scroller), GTK_WIDGET (self->markers_list));
    gtk_container_add (GTK_CONTAINER (box), title);
    gtk_container_add (GTK_CONTAINER (box), scroller);
    gtk_widget_show_all (box);
    gtk_container_add (GTK_CONTAINER (popover), box);
    gtk_menu_button_set_popover (self->markers_button, popover);
    gtk_widget_show (GTK_WIDGET (self->markers_button));
    gtk_header_bar_pack_end (self->header_bar, GTK_WIDGET (self->markers_button));
  }

  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  utc = g_property_action_new ("utc", self->time_ruler, "utc");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (utc));

  self->session_panel = ETL_SESSION_PANEL (etl_session_panel_new ());
  gtk_widget_show_all (GTK_WIDGET (self->session_panel));
  /* The panel is one column that scrolls up and down by itself and fits a
   * pane of about 400 px. */
  gtk_box_pack_start (self->session_box, GTK_WIDGET (self->session_panel), TRUE, TRUE, 0);
  g_signal_connect_object (self->session_panel, "session-stopped", G_CALLBACK (on_session_stopped), self, 0);

  self->zoom_manager = etl_zoom_manager_new ();
  etl_time_ruler_set_zoom_manager (self->time_ruler, self->zoom_manager);
  etl_timeline_view_set_zoom_manager (self->timeline, self->zoom_manager);
  etl_loss_plot_set_zoom_manager (self->loss_plot, self->zoom_manager);
  etl_cpu_graph_set_zoom_manager (self->cpu_graph, self->zoom_manager);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "zoom", G_ACTION_GROUP (self->zoom_manager));

  /* The timeline's own actions (zoom-to-selection, lane-mode), reachable
   * from the header bar and the accelerators too. */
  timeline_actions = gtk_widget_get_action_group (GTK_WIDGET (self->timeline), "timeline");
  if (timeline_actions != NULL)
    gtk_widget_insert_action_group (GTK_WIDGET (self), "timeline", timeline_actions);
  g_signal_connect_object (self->timeline, "event-selected", G_CALLBACK (on_timeline_event_selected), self, 0);
  /* A process has the same colour in the CPU lanes as in the usage graph. */
  etl_timeline_view_set_process_color_func (self->timeline, process_color_cb,
                                            self->cpu_graph, NULL);
  g_signal_connect_object (self->cpu_graph, "series-changed", G_CALLBACK (gtk_widget_queue_draw), self->timeline,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->loss_plot, "loss-activated", G_CALLBACK (on_loss_activated), self, 0);
  g_signal_connect_object (self->event_list, "filter-request", G_CALLBACK (on_list_filter_request), self, 0);

  /* The bottom panel: Events (from the template), then Summary, then CPU
   * Usage (Precise). */
  etl_view_panel_set_page_id (self->view_panel, GTK_WIDGET (self->events_paned), "events");
  self->group_view = ETL_GROUP_VIEW (etl_group_view_new ());
  etl_window_add_view_tab (self, "summary", "Summary", GTK_WIDGET (self->group_view));
  etl_window_add_view_tab (self, "precise", "CPU Usage (Precise)", etl_precise_view_new (self->zoom_manager));
  etl_window_setup_regions (self);
  g_signal_connect_object (self->group_view, "group-activated", G_CALLBACK (on_group_activated), self, 0);
  g_signal_connect_object (self->timeline, "range-selected", G_CALLBACK (on_timeline_range_selected), self, 0);
  g_signal_connect (self->trace_paned, "size-allocate", G_CALLBACK (on_trace_paned_allocated), self);
  g_signal_connect (self->events_paned, "size-allocate", G_CALLBACK (on_events_paned_allocated), self);
  g_signal_connect_object (self->details, "notify::has-event", G_CALLBACK (on_details_has_event), self, 0);
  g_signal_connect_object (self->event_list, "show-in-timeline", G_CALLBACK (on_list_show_in_timeline), self, 0);

  self->recent_menu = g_menu_new ();
  gtk_menu_button_set_menu_model (self->recent_button, G_MENU_MODEL (self->recent_menu));
  self->recent_manager = g_object_ref (gtk_recent_manager_get_default ());
  g_signal_connect_object (self->recent_manager, "changed", G_CALLBACK (rebuild_recent), self, G_CONNECT_SWAPPED);
  rebuild_recent (self);

  gtk_drag_dest_set (GTK_WIDGET (self), GTK_DEST_DEFAULT_ALL, NULL, 0, GDK_ACTION_COPY);
  gtk_drag_dest_add_uri_targets (GTK_WIDGET (self));
  g_signal_connect (self, "drag-data-received", G_CALLBACK (on_drag_data_received), self);

  gtk_stack_set_visible_child_name (self->stack, "start");
  load_state (self);
  update_status (self);
  update_actions (self);

  app = GTK_APPLICATION (g_application_get_default ());
  if (app != NULL)
    {
      GMenu *menu = gtk_application_get_menu_by_id (app, "primary_menu");

      if (menu != NULL)
        gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
    }
}

/**
 * etl_window_new:
 * @application: (nullable): the application
 *
 * Returns: (transfer none): a new window showing the start page
 */
EtlWindow *
etl_window_new (GtkApplication *application)
{
  return g_object_new (ETL_TYPE_WINDOW, "application", application, NULL);
}

/* ------------------------------------------------------------------------ */
/* Accessors (tests, application)                                           */
/* ------------------------------------------------------------------------ */

/**
 * etl_window_get_loading:
 * @self: a window
 *
 * Returns: whether files are being loaded (or the demo generated)
 */
gboolean
etl_window_get_loading (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return etl_document_get_loading (self->document);
}

/**
 * etl_window_get_busy:
 * @self: a window
 *
 * Returns: whether a job of the document (load, filter, export, manifest),
 *   a search for the next event or a sort of the list is running
 */
gboolean
etl_window_get_busy (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return etl_document_get_busy (self->document) || self->find_cancellable != NULL
         || etl_event_list_get_sorting (self->event_list);
}

/**
 * etl_window_get_trace:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the trace shown
 */
EtlTrace *
etl_window_get_trace (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return etl_document_get_trace (self->document);
}

/**
 * etl_window_get_document:
 * @self: a window
 *
 * Returns: (transfer none): what the window shows: the trace, its filter,
 *   rows, selection and markers, and the jobs that compute them
 */
EtlDocument *
etl_window_get_document (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->document;
}

/**
 * etl_window_get_rows:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the rows the filter keeps (every
 *   row before a filter ran); %NULL when no trace is shown
 */
EtlRowSet *
etl_window_get_rows (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return etl_document_get_row_set (self->document);
}

/**
 * etl_window_get_zoom_manager:
 * @self: a window
 *
 * Returns: (transfer none): the visible range shared by the trace area
 */
EtlZoomManager *
etl_window_get_zoom_manager (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->zoom_manager;
}

/**
 * etl_window_get_timeline:
 * @self: a window
 *
 * Returns: (transfer none): the timeline
 */
EtlTimelineView *
etl_window_get_timeline (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->timeline;
}

/**
 * etl_window_get_event_list:
 * @self: a window
 *
 * Returns: (transfer none): the event list
 */
EtlEventList *
etl_window_get_event_list (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->event_list;
}

/**
 * etl_window_get_group_view:
 * @self: a window
 *
 * Returns: (transfer none): the grouped summary (the Summary tab)
 */
EtlGroupView *
etl_window_get_group_view (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->group_view;
}

/**
 * etl_window_get_filter_bar:
 * @self: a window
 *
 * Returns: (transfer none): the filter bar
 */
EtlFilterBar *
etl_window_get_filter_bar (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->filter_bar;
}

/**
 * etl_window_get_details:
 * @self: a window
 *
 * Returns: (transfer none): the details pane
 */
EtlDetails *
etl_window_get_details (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->details;
}

/**
 * etl_window_get_page:
 * @self: a window
 *
 * Returns: (transfer none): "start" or "trace", the page shown
 */
const char *
etl_window_get_page (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

/**
 * etl_window_get_n_lanes:
 * @self: a window
 *
 * Returns: lanes in the timeline
 */
guint
etl_window_get_n_lanes (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return etl_timeline_view_get_n_lanes (self->timeline);
}

/**
 * etl_window_get_n_loss_files:
 * @self: a window
 *
 * Returns: files in the loss plot's legend
 */
guint
etl_window_get_n_loss_files (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return etl_loss_plot_get_n_files (self->loss_plot);
}

/**
 * etl_window_get_loss_totals:
 * @self: a window
 * @file: file index
 * @events_lost: (out) (optional): EventsLost shown in the legend
 * @buffers_lost: (out) (optional): BuffersLost shown in the legend
 *
 * Returns: %FALSE when the legend has no such file
 */
gboolean
etl_window_get_loss_totals (EtlWindow *self, guint file, guint64 *events_lost, guint64 *buffers_lost)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return etl_loss_plot_get_legend_totals (self->loss_plot, file, events_lost, buffers_lost);
}

/**
 * etl_window_dup_loss_legend:
 * @self: a window
 * @file: file index
 *
 * Returns: (transfer full) (nullable): the loss plot's legend text for @file
 */
char *
etl_window_dup_loss_legend (EtlWindow *self, guint file)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return etl_loss_plot_dup_legend_text (self->loss_plot, file);
}

/**
 * etl_window_get_session_panel:
 * @self: a window
 *
 * Returns: (transfer none): the session configuration panel
 */
EtlSessionPanel *
etl_window_get_session_panel (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->session_panel;
}

/**
 * etl_window_get_cpu_graph:
 * @self: a window
 *
 * Returns: (transfer none): the CPU usage graph under the loss plot
 */
EtlCpuGraph *
etl_window_get_cpu_graph (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->cpu_graph;
}

/**
 * etl_window_get_loss_plot:
 * @self: a window
 *
 * Returns: (transfer none): the loss plot
 */
EtlLossPlot *
etl_window_get_loss_plot (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->loss_plot;
}

/**
 * etl_window_get_visible_range:
 * @self: a window
 * @begin: (out) (optional): start of the visible range, FILETIME
 * @end: (out) (optional): end of the visible range, FILETIME
 */
void
etl_window_get_visible_range (EtlWindow *self, gint64 *begin, gint64 *end)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  etl_zoom_manager_get_visible (self->zoom_manager, begin, end);
}

/**
 * etl_window_get_info_bar_visible:
 * @self: a window
 *
 * Returns: whether the info bar shows problems
 */
gboolean
etl_window_get_info_bar_visible (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->info_bar));
}

/**
 * etl_window_get_info_message:
 * @self: a window
 *
 * Returns: (transfer none): the info bar's text
 */
const char *
etl_window_get_info_message (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->info_label);
}

/**
 * etl_window_get_recent_menu:
 * @self: a window
 *
 * Returns: (transfer none): the Recent menu: each item's target is the
 *   array of URIs it opens (one file, or a merged set)
 */
GMenuModel *
etl_window_get_recent_menu (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return G_MENU_MODEL (self->recent_menu);
}

/**
 * etl_window_get_status:
 * @self: a window
 *
 * Returns: (transfer none): the status line's text
 */
const char *
etl_window_get_status (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->status_label);
}
