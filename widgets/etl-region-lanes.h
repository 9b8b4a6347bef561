/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-row-set.h"
#include "etl-span-set.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

/**
 * EtlRegionLanesMode:
 * @ETL_REGION_LANES_BY_SOURCE: one lane per #EtlSpan @lane: the provider
 *   of an activity, the Regions of Interest file of a region
 * @ETL_REGION_LANES_BY_PROCESS: one lane per process
 * @ETL_REGION_LANES_BY_THREAD: one lane per thread
 *
 * How the Regions area splits the spans into lanes.
 */
typedef enum
{
  ETL_REGION_LANES_BY_SOURCE,
  ETL_REGION_LANES_BY_PROCESS,
  ETL_REGION_LANES_BY_THREAD,
} EtlRegionLanesMode;

/* Pixels of one row of spans; rows per lane at most (deeper spans share
 * the last row). */
#define ETL_REGION_LANES_ROW_HEIGHT 16
#define ETL_REGION_LANES_MAX_ROWS   12
/* Spans at least this wide (pixels) carry their name. */
#define ETL_REGION_LANES_LABEL_MIN  36
/* Pixels of a lane with no span in the visible range: its name, small. */
#define ETL_REGION_LANES_COLLAPSED_HEIGHT 12
/* Pixels between lanes. */
#define ETL_REGION_LANES_GAP 3
/* The highest the area grows in its scroller (etl_region_lanes_new_scrolled()),
 * pixels: fourteen rows; more lanes scroll there. */
#define ETL_REGION_LANES_MAX_AREA_HEIGHT 224
/* Milliseconds the visible range must stay still before lanes shrink. */
#define ETL_REGION_LANES_SHRINK_DELAY 300

#define ETL_TYPE_REGION_LANES (etl_region_lanes_get_type ())
G_DECLARE_FINAL_TYPE (EtlRegionLanes, etl_region_lanes, ETL, REGION_LANES, GtkDrawingArea)

GtkWidget *etl_region_lanes_new (void);
GtkWidget *etl_region_lanes_new_scrolled (EtlRegionLanes *self);
void etl_region_lanes_set_zoom_manager (EtlRegionLanes *self, EtlZoomManager *zoom_manager);
void etl_region_lanes_set_trace (EtlRegionLanes *self, EtlTrace *trace);
void etl_region_lanes_set_extra (EtlRegionLanes *self, EtlSpanSet *extra);
void etl_region_lanes_set_rows (EtlRegionLanes *self, EtlRowSet *rows);
void etl_region_lanes_set_mode (EtlRegionLanes *self, EtlRegionLanesMode mode);
void etl_region_lanes_set_range (EtlRegionLanes *self, gint64 begin, gint64 end);
void etl_region_lanes_set_spans_sync (EtlRegionLanes *self, EtlSpanSet *spans);
gboolean etl_region_lanes_is_busy (EtlRegionLanes *self);
guint etl_region_lanes_get_n_lanes (EtlRegionLanes *self);
const char *etl_region_lanes_get_lane_label (EtlRegionLanes *self, guint lane);
gboolean etl_region_lanes_get_lane_extent (EtlRegionLanes *self, guint lane, int *y, int *height);
guint etl_region_lanes_get_n_collapsed (EtlRegionLanes *self);
guint etl_region_lanes_get_n_drawn (EtlRegionLanes *self);
guint32 etl_region_lanes_span_at (EtlRegionLanes *self, double x, double y);
void etl_region_lanes_span_rect (EtlRegionLanes *self, guint32 span, GdkRectangle *rect);
void etl_region_lanes_select_span (EtlRegionLanes *self, guint32 span);
guint32 etl_region_lanes_get_selected_span (EtlRegionLanes *self);
EtlSpanSet *etl_region_lanes_get_spans (EtlRegionLanes *self);
char *etl_region_lanes_dup_tooltip (EtlRegionLanes *self, guint32 span);
void etl_region_lanes_render (EtlRegionLanes *self, cairo_t *cr, int width, int height);

G_END_DECLS
