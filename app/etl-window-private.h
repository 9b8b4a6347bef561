/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * What the etl-window-*.c files share: the #EtlWindow instance structure,
 * the private types more than one of them uses (#Progress, #Condition,
 * #WindowMarker) and the functions one file defines and another calls
 * (signal handlers and actions connected in etl-window.c among them).
 * Not installed; for app/ only.
 */

#include <gtk/gtk.h>

#include "etl-group-summary.h"
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
  GtkPaned *list_paned;
  EtlTimeRuler *time_ruler;
  EtlTimelineView *timeline;
  EtlLossPlot *loss_plot;
  EtlCpuGraph *cpu_graph;
  EtlFilterBar *filter_bar;
  EtlEventList *event_list;
  EtlDetails *details;
  GtkLabel *status_label;
  EtlStacks *stacks; /* the trace's stacks (load worker), or NULL */
  EtlGroupView *group_view; /* the grouped summary beside the event list */

  EtlSessionPanel *session_panel;
  EtlZoomManager *zoom_manager;
  GtkRecentManager *recent_manager;
  GMenu *recent_menu;

  EtlTrace *trace;
  EtlRowSet *rows;       /* the filter's rows; NULL = all */
  EtlFilter *filter;     /* the filter bar's last filter */
  GPtrArray *conditions; /* Condition*: the list's context menu filters */
  GArray *markers;       /* WindowMarker, by time: this trace's markers */
  GtkMenuButton *markers_button;
  GtkListBox *markers_list;
  GtkBox *legend_box;
  GtkWidget *legend_scroller;
  GCancellable *find_cancellable;

  /* Jobs: loading (or generating the demo), filtering, exporting. */
  GCancellable *load_cancellable;
  GCancellable *filter_cancellable;
  GCancellable *export_cancellable;
  GCancellable *manifest_cancellable;
  GPtrArray *manifests;  /* char*: manifest files loaded; later opens use them too */
  struct Progress *progress;
  guint progress_source;
  char *progress_label;

  gboolean syncing;
  gboolean state_saved;
  gboolean panes_restored; /* the trace and list panes came from the saved state */
};

typedef struct Progress
{
  gatomicrefcount ref_count;
  int permille; /* -1: unknown, pulse */
  const char *stage; /* atomic; static text: what the worker does after the percentages */
} Progress;

/* A filter from the event list's context menu: keep only, or leave out,
 * rows sharing a provider, process, thread or event with a chosen row. */
typedef struct
{
  char *field;     /* "provider", "process", "thread", "event" */
  gboolean exclude;
  guint provider;  /* provider index (provider, event) */
  guint32 value;   /* process or thread id */
  char *name;      /* event name; for the status line: the value's name */
  EtlGroupMatcher *matcher; /* "group": a summary group's rows */
} Condition;

typedef struct
{
  gint64 filetime;
  char *name;
} WindowMarker;

/* etl-window-progress.c: progress, info bar, status line */
void progress_set_stage (Progress *p, const char *stage);
Progress *progress_new (void);
void progress_unref (Progress *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Progress, progress_unref)
void on_progress (double fraction, gpointer user_data);
void start_progress (EtlWindow *self, const char *label, Progress *progress);
void stop_progress (EtlWindow *self);
void show_messages (EtlWindow *self, GPtrArray *messages, GtkMessageType type);
void show_message (EtlWindow *self, GtkMessageType type, const char *message);
void update_status (EtlWindow *self);

/* etl-window-state.c */
gboolean process_color_cb (guint32 pid, GdkRGBA *rgba, gpointer user_data);
void load_state (EtlWindow *self);

/* etl-window-recent.c */
void rebuild_recent (EtlWindow *self);
void add_recent (EtlWindow *self, EtlTrace *trace);
void open_uris (EtlWindow *self, const char *const *uris);
void on_recent_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self);

/* etl-window-load.c */
void cancel_jobs (EtlWindow *self);

/* etl-window-filter.c: filter and selection */
void condition_free (gpointer data);
void apply_filter (EtlWindow *self);
void on_group_activated (EtlGroupView *view, const EtlGroup *group, EtlWindow *self);
void on_summary_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, gpointer user_data);
void on_trace_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlWindow *self);
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

/* etl-window-markers.c */
void window_marker_clear (gpointer data);
void on_marker_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self);
void show_markers (EtlWindow *self);
void load_markers (EtlWindow *self);
void add_marker_action (GSimpleAction *action, GVariant *param, gpointer user_data);

/* etl-window-actions-file.c: File menu */
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
