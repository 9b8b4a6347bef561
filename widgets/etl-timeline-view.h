/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-summary.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

#define ETL_TYPE_TIMELINE_VIEW (etl_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (EtlTimelineView, etl_timeline_view, ETL, TIMELINE_VIEW, GtkDrawingArea)

GtkWidget *etl_timeline_view_new (EtlZoomManager *zoom_manager);
EtlZoomManager *etl_timeline_view_get_zoom_manager (EtlTimelineView *self);
void etl_timeline_view_set_zoom_manager (EtlTimelineView *self, EtlZoomManager *zoom_manager);
void etl_timeline_view_set_trace (EtlTimelineView *self, EtlTrace *trace, EtlSummary *summary);
EtlTrace *etl_timeline_view_get_trace (EtlTimelineView *self);
EtlSummary *etl_timeline_view_get_summary (EtlTimelineView *self);
guint etl_timeline_view_get_n_lanes (EtlTimelineView *self);
int etl_timeline_view_get_lane_height (EtlTimelineView *self, int height);
void etl_timeline_view_render (EtlTimelineView *self, cairo_t *cr, int width, int height);
char *etl_timeline_view_dup_tooltip_at (EtlTimelineView *self, double x, double y, int width, int height);
void etl_timeline_view_get_provider_color (guint provider_index, GdkRGBA *rgba);

G_END_DECLS
