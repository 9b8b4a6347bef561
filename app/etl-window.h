/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-details.h"
#include "etl-document.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-cpu-graph.h"
#include "etl-group-view.h"
#include "etl-loss-plot.h"
#include "etl-region-lanes.h"
#include "etl-regions-view.h"
#include "etl-session-panel.h"
#include "etl-symbol-resolver.h"
#include "etl-timeline-view.h"
#include "etl-trace.h"
#include "etl-view-panel.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

#define ETL_TYPE_WINDOW (etl_window_get_type ())

G_DECLARE_FINAL_TYPE (EtlWindow, etl_window, ETL, WINDOW, GtkApplicationWindow)

EtlWindow *etl_window_new (GtkApplication *application);

/* File */
void etl_window_open_files (EtlWindow *self, GFile **files, guint n_files);
void etl_window_show_open_dialog (EtlWindow *self);
void etl_window_open_demo (EtlWindow *self);
void etl_window_cancel (EtlWindow *self);
void etl_window_close_trace (EtlWindow *self);
void etl_window_load_manifest (EtlWindow *self, const char *path);
void etl_window_load_regions (EtlWindow *self, const char *path);
void etl_window_set_pending_regions (EtlWindow *self, const char *path);
gboolean etl_window_get_regions_busy (EtlWindow *self);
const char *etl_window_get_regions_error (EtlWindow *self);
EtlRegionsView *etl_window_get_regions_view (EtlWindow *self);
EtlRegionLanes *etl_window_get_region_lanes (EtlWindow *self);

/* Filter */
void etl_window_filter_by_row (EtlWindow *self, const char *field, gboolean exclude, guint64 row);

/* Navigation */
gboolean etl_window_go_to_time (EtlWindow *self, const char *text, GError **error);
void etl_window_find_same_event (EtlWindow *self, gboolean forward);
gboolean etl_window_get_data_range (EtlWindow *self, gint64 *begin, gint64 *end);
void etl_window_zoom_to_data (EtlWindow *self);
GtkWidget *etl_window_show_stacks (EtlWindow *self);
void etl_window_add_marker (EtlWindow *self, gint64 filetime, const char *name);
guint etl_window_get_n_markers (EtlWindow *self);
const char *etl_window_get_marker (EtlWindow *self, guint i, gint64 *filetime);

/* Export */
void etl_window_get_export_range (EtlWindow *self, gint64 *begin, gint64 *end);
void etl_window_export_selection (EtlWindow *self, const char *path);
gboolean etl_window_export_image (EtlWindow *self, const char *path, GError **error);

/* Bottom panel */
void etl_window_add_view_tab (EtlWindow *self, const char *id, const char *title, GtkWidget *widget);
gboolean etl_window_show_view_tab (EtlWindow *self, const char *id);
const char *etl_window_get_view_tab (EtlWindow *self);
EtlViewPanel *etl_window_get_view_panel (EtlWindow *self);
int etl_window_get_panel_height (EtlWindow *self);
void etl_window_set_panel_height (EtlWindow *self, int height);

/* State */
gboolean etl_window_save_state (EtlWindow *self, GError **error);
char *etl_window_get_state_path (void);

/* Accessors */
gboolean etl_window_get_loading (EtlWindow *self);
gboolean etl_window_get_busy (EtlWindow *self);
EtlTrace *etl_window_get_trace (EtlWindow *self);
EtlSymbolResolver *etl_window_get_symbol_resolver (EtlWindow *self);
gboolean etl_window_get_symbols_busy (EtlWindow *self);
void etl_window_symbols_preferences_changed (EtlWindow *self);
EtlDocument *etl_window_get_document (EtlWindow *self);
EtlRowSet *etl_window_get_rows (EtlWindow *self);
EtlZoomManager *etl_window_get_zoom_manager (EtlWindow *self);
EtlTimelineView *etl_window_get_timeline (EtlWindow *self);
EtlEventList *etl_window_get_event_list (EtlWindow *self);
EtlGroupView *etl_window_get_group_view (EtlWindow *self);
EtlFilterBar *etl_window_get_filter_bar (EtlWindow *self);
EtlDetails *etl_window_get_details (EtlWindow *self);
EtlLossPlot *etl_window_get_loss_plot (EtlWindow *self);
EtlCpuGraph *etl_window_get_cpu_graph (EtlWindow *self);
EtlSessionPanel *etl_window_get_session_panel (EtlWindow *self);
const char *etl_window_get_page (EtlWindow *self);
guint etl_window_get_n_lanes (EtlWindow *self);
guint etl_window_get_n_loss_files (EtlWindow *self);
gboolean etl_window_get_loss_totals (EtlWindow *self, guint file, guint64 *events_lost, guint64 *buffers_lost);
char *etl_window_dup_loss_legend (EtlWindow *self, guint file);
void etl_window_get_visible_range (EtlWindow *self, gint64 *begin, gint64 *end);
gboolean etl_window_get_info_bar_visible (EtlWindow *self);
const char *etl_window_get_info_message (EtlWindow *self);
const char *etl_window_get_status (EtlWindow *self);
GMenuModel *etl_window_get_recent_menu (EtlWindow *self);

G_END_DECLS
