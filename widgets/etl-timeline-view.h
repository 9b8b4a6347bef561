/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-cpu-segments.h"
#include "etl-row-set.h"
#include "etl-summary.h"
#include "etl-thread-states.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

/**
 * ETL_TIMELINE_NO_ROW:
 *
 * The row of "nothing selected" (G_MAXUINT64).
 */
#define ETL_TIMELINE_NO_ROW G_MAXUINT64

/**
 * EtlTimelineProcessColorFunc:
 * @pid: a process id
 * @rgba: (out caller-allocates): its colour
 * @user_data: the closure given to etl_timeline_view_set_process_color_func()
 *
 * Returns: %TRUE when @rgba was set
 */
typedef gboolean (*EtlTimelineProcessColorFunc) (guint32 pid, GdkRGBA *rgba, gpointer user_data);

#define ETL_TYPE_TIMELINE_VIEW (etl_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (EtlTimelineView, etl_timeline_view, ETL, TIMELINE_VIEW, GtkDrawingArea)

GtkWidget *etl_timeline_view_new (EtlZoomManager *zoom_manager);
EtlZoomManager *etl_timeline_view_get_zoom_manager (EtlTimelineView *self);
void etl_timeline_view_set_zoom_manager (EtlTimelineView *self, EtlZoomManager *zoom_manager);
void etl_timeline_view_set_trace (EtlTimelineView *self, EtlTrace *trace, EtlSummary *summary);
EtlTrace *etl_timeline_view_get_trace (EtlTimelineView *self);
EtlSummary *etl_timeline_view_get_summary (EtlTimelineView *self);
void etl_timeline_view_set_rows (EtlTimelineView *self, EtlRowSet *rows);
EtlRowSet *etl_timeline_view_get_rows (EtlTimelineView *self);
EtlLaneMode etl_timeline_view_get_lane_mode (EtlTimelineView *self);
void etl_timeline_view_set_lane_mode (EtlTimelineView *self, EtlLaneMode mode);
gboolean etl_timeline_view_is_busy (EtlTimelineView *self);
gboolean etl_timeline_view_get_process_expanded (EtlTimelineView *self, guint32 pid);
void etl_timeline_view_set_process_expanded (EtlTimelineView *self, guint32 pid, gboolean expanded);
guint etl_timeline_view_get_n_lanes (EtlTimelineView *self);
const char *etl_timeline_view_get_lane_label (EtlTimelineView *self, guint lane);
void etl_timeline_view_set_process_color_func (EtlTimelineView *self, EtlTimelineProcessColorFunc func,
                                               gpointer user_data, GDestroyNotify destroy);
gboolean etl_timeline_view_get_hide_empty_lanes (EtlTimelineView *self);
void etl_timeline_view_set_hide_empty_lanes (EtlTimelineView *self, gboolean hide);
int etl_timeline_view_get_lane_height (EtlTimelineView *self, int height);
guint etl_timeline_view_get_lane_of_row (EtlTimelineView *self, guint64 row);

guint64 etl_timeline_view_get_selected_row (EtlTimelineView *self);
void etl_timeline_view_select_row (EtlTimelineView *self, guint64 row, gboolean center);
guint64 etl_timeline_view_row_at (EtlTimelineView *self, double x, double y, int width, int height);
gboolean etl_timeline_view_get_selection (EtlTimelineView *self, gint64 *begin, gint64 *end);
void etl_timeline_view_set_selection (EtlTimelineView *self, gint64 begin, gint64 end);
void etl_timeline_view_clear_selection (EtlTimelineView *self);
guint64 etl_timeline_view_get_selection_count (EtlTimelineView *self);
void etl_timeline_view_zoom_to_selection (EtlTimelineView *self);

const EtlCpuSegment *etl_timeline_view_segment_at (EtlTimelineView *self, double x, double y, int width, int height);
char *etl_timeline_view_dup_segment_text_at (EtlTimelineView *self, double x, double y, int width, int height);
void etl_timeline_view_set_thread_states (EtlTimelineView *self, EtlThreadStates *states);
EtlThreadStates *etl_timeline_view_get_thread_states (EtlTimelineView *self);
const EtlThreadState *etl_timeline_view_thread_state_at (EtlTimelineView *self, guint32 tid, double x);
void etl_timeline_view_select_thread_state (EtlTimelineView *self, guint32 tid, guint index);
guint64 etl_timeline_view_go_to_waker (EtlTimelineView *self);
void etl_timeline_view_render (EtlTimelineView *self, cairo_t *cr, int width, int height);
char *etl_timeline_view_dup_tooltip_at (EtlTimelineView *self, double x, double y, int width, int height);
void etl_timeline_view_get_provider_color (guint provider_index, GdkRGBA *rgba);

G_END_DECLS
