/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * What the etl-window-*.c files share: the #EtlWindow instance structure,
 * and the functions one file defines and another calls
 * (signal handlers and actions connected in etl-window.c among them).
 * Not installed; for app/ only.
 */

#include <gtk/gtk.h>

#include "etl-document.h"
#include "etl-group-summary.h"
#include "etl-region-lanes.h"
#include "etl-span-set.h"
#include "etl-stacks.h"
#include "etl-time-ruler.h"
#include "etl-window.h"

G_BEGIN_DECLS

struct _EtlWindow
{
  GtkApplicationWindow parent_instance;

  /* Template children */
  GtkHeaderBar *header_bar;
  GtkMenuButton *menu_button;
  GtkMenuButton *recent_button;
  GtkBox *zoom_box;
  GtkBox *lane_box;
  GtkPaned *paned;
  GtkBox *session_box;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkBox *progress_box;
  GtkProgressBar *progress_bar;
  GtkStack *stack;
  GtkListBox *recent_list;
  GtkLabel *recent_title;
  GtkPaned *trace_paned;
  GtkBox *timeline_box;       /* the trace paned's top: ruler, lanes, plots */
  EtlViewPanel *view_panel;   /* its bottom: the tabs */
  GtkPaned *events_paned;     /* the Events tab: list | details */
  EtlTimeRuler *time_ruler;
  EtlTimelineView *timeline;
  EtlLossPlot *loss_plot;
  EtlCpuGraph *cpu_graph;
  EtlFilterBar *filter_bar;
  EtlEventList *event_list;
  EtlDetails *details;
  GtkLabel *status_label;
  EtlGroupView *group_view; /* the grouped summary, the Summary tab */

  EtlSessionPanel *session_panel;
  EtlZoomManager *zoom_manager;
  GtkRecentManager *recent_manager;
  GMenu *recent_menu;

  /* What is shown: the trace, its filter and rows, markers, and the jobs
   * (open, filter, export, manifest) with their progress. */
  EtlDocument *document;
  GtkMenuButton *markers_button;
  GtkListBox *markers_list;
  GtkBox *legend_box;
  GtkWidget *legend_scroller;
  GCancellable *find_cancellable;
  guint pulse_source; /* pulses the progress bar while the document's progress is unknown */

  gboolean syncing;
  gboolean state_saved;
  int panel_height;        /* the bottom panel's height, pixels; 0 = not set yet */
  int details_width;       /* the details pane's width, pixels; 0 = not set yet */
  int handle_size;         /* the trace paned's handle, pixels; -1 until measured */
  gboolean panel_sized;    /* the panel got its first height */
  gboolean panel_pending;  /* its height was set before the handle was measured */

  /* etl-window-regions.c: the Regions area and the loaded Regions file */
  EtlRegionLanes *region_lanes;
  EtlSpanSet *regions_spans;      /* the loaded file's instances, or NULL */
  char *regions_error;            /* why the last file did not load */
  char *pending_regions;          /* --regions FILE, loaded with the next trace */
  GCancellable *regions_cancellable;
};

/* etl-window-progress.c: progress, info bar, status line */
void on_document_progress (EtlDocument *document, GParamSpec *pspec, EtlWindow *self);
void stop_pulse (EtlWindow *self);
void show_messages (EtlWindow *self, GPtrArray *messages, GtkMessageType type);
void show_message (EtlWindow *self, GtkMessageType type, const char *message);
void update_status (EtlWindow *self);

/* etl-window-state.c */
gboolean process_color_cb (guint32 pid, GdkRGBA *rgba, gpointer user_data);
void load_state (EtlWindow *self);

/* etl-window-panel.c: the bottom panel (tabs, height, maximised) and the
 * details beside the list */
void on_trace_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlWindow *self);
void on_events_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlWindow *self);
void on_details_has_event (EtlDetails *details, GParamSpec *pspec, EtlWindow *self);
void show_details_change_state (GSimpleAction *action, GVariant *state, gpointer user_data);
void maximize_panel_change_state (GSimpleAction *action, GVariant *state, gpointer user_data);
void show_view_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void load_panel_state (EtlWindow *self, GKeyFile *kf);
void save_panel_state (EtlWindow *self, GKeyFile *kf);

/* etl-window-recent.c */
void rebuild_recent (EtlWindow *self);
void add_recent (EtlWindow *self, EtlTrace *trace);
void open_uris (EtlWindow *self, const char *const *uris);
void on_recent_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self);

/* etl-window-load.c */
void setup_document (EtlWindow *self);
void dispose_document (EtlWindow *self);

/* etl-window-filter.c: filter and selection */
void on_document_rows_changed (EtlDocument *document, EtlWindow *self);
void on_document_filtering (EtlDocument *document, GParamSpec *pspec, EtlWindow *self);
void on_filter_job_finished (EtlDocument *document, const char *job, const GError *error, EtlWindow *self);
void on_group_activated (EtlGroupView *view, const EtlGroup *group, EtlWindow *self);
void on_timeline_range_selected (EtlTimelineView *timeline, gint64 begin, gint64 end, EtlWindow *self);
void on_list_filter_request (EtlEventList *list, const char *field, gboolean exclude, guint64 row, EtlWindow *self);
void on_loss_activated (EtlLossPlot *plot, gint64 filetime, EtlWindow *self);
void on_list_show_in_timeline (EtlEventList *list, guint64 row, EtlWindow *self);
void on_filter_changed (EtlFilterBar *bar, EtlFilter *filter, EtlWindow *self);
void on_list_row_selected (EtlEventList *list, guint64 row, EtlWindow *self);
void on_timeline_event_selected (EtlTimelineView *view, guint64 row, EtlWindow *self);

/* etl-window-navigate.c */
void select_everywhere (EtlWindow *self, guint64 row);
guint64 selected_row (EtlWindow *self);
GtkWidget *entry_dialog (EtlWindow *self, const char *title, const char *label, const char *text, const char *accept,
                         GCallback response);
void go_to_time_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void find_next_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void find_previous_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void stacks_summary_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void zoom_to_data_action (GSimpleAction *action, GVariant *param, gpointer user_data);

/* etl-window-symbols.c */
EtlSymbolResolver *etl_window_symbols_update (EtlWindow *self, EtlStacks *stacks, const char *text,
                                              gboolean download);

/* etl-window-markers.c */
void on_marker_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self);
void show_markers (EtlWindow *self);
void add_marker_action (GSimpleAction *action, GVariant *param, gpointer user_data);

/* etl-window-regions.c */
void etl_window_setup_regions (EtlWindow *self);
void etl_window_regions_trace_changed (EtlWindow *self);
void etl_window_regions_range_changed (EtlWindow *self, gint64 begin, gint64 end);
void etl_window_regions_rows_changed (EtlWindow *self);
void load_regions_action (GSimpleAction *action, GVariant *param, gpointer user_data);

/* etl-window-actions-file.c: File menu */
void on_document_schemas_changed (EtlDocument *document, EtlWindow *self);
void load_manifest_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void open_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void open_files_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void open_recent_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void open_demo_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void close_trace_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void cancel_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void export_selection_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void export_image_action (GSimpleAction *action, GVariant *param, gpointer user_data);

/* etl-window-actions-view.c: View menu, drag and drop */
void find_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void clear_filter_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void show_session_change_state (GSimpleAction *action, GVariant *state, gpointer user_data);
void show_menu_action (GSimpleAction *action, GVariant *param, gpointer user_data);
void update_actions (EtlWindow *self);
void on_drag_data_received (GtkWidget *widget, GdkDragContext *context, int x, int y, GtkSelectionData *data,
                            guint info, guint time, EtlWindow *self);

G_END_DECLS
