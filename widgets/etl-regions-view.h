/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-duration-histogram.h"
#include "etl-flame-graph.h"
#include "etl-span-set.h"
#include "etl-stacks.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlRegionsViewNameColumn:
 * @ETL_REGIONS_VIEW_NAME_COLUMN_NAME: the name (string)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_COUNT: Count (guint64)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_TOTAL: Total, 100-ns ticks (gint64)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_MEAN: Mean, 100-ns ticks (double)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_MEDIAN: Median, 100-ns ticks (double)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_P90: P90, 100-ns ticks (gint64)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_P99: P99, 100-ns ticks (gint64)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_MAX: Max, 100-ns ticks (gint64)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_OPEN: instances without an end (guint64)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_ID: the name's string index in the span
 *   set (guint)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE: the lane of its spans: the provider,
 *   or "Regions: FILE" (string)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE_ID: its string index (guint)
 * @ETL_REGIONS_VIEW_NAME_COLUMN_UNMATCHED: its Stops without a Start
 *   (guint64; `etlscope-cli regions`' unmatched_stops); a row of a name
 *   that has only those has Count 0
 * @ETL_REGIONS_VIEW_NAME_N_COLUMNS: the number of columns
 *
 * The columns of the names table's #GtkListStore (durations are shown in
 * ms by cell functions).
 */
typedef enum
{
  ETL_REGIONS_VIEW_NAME_COLUMN_NAME,
  ETL_REGIONS_VIEW_NAME_COLUMN_COUNT,
  ETL_REGIONS_VIEW_NAME_COLUMN_TOTAL,
  ETL_REGIONS_VIEW_NAME_COLUMN_MEAN,
  ETL_REGIONS_VIEW_NAME_COLUMN_MEDIAN,
  ETL_REGIONS_VIEW_NAME_COLUMN_P90,
  ETL_REGIONS_VIEW_NAME_COLUMN_P99,
  ETL_REGIONS_VIEW_NAME_COLUMN_MAX,
  ETL_REGIONS_VIEW_NAME_COLUMN_OPEN,
  ETL_REGIONS_VIEW_NAME_COLUMN_ID,
  ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE,
  ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE_ID,
  ETL_REGIONS_VIEW_NAME_COLUMN_UNMATCHED,
  ETL_REGIONS_VIEW_NAME_N_COLUMNS,
} EtlRegionsViewNameColumn;

/**
 * EtlRegionsViewInstanceColumn:
 * @ETL_REGIONS_VIEW_INSTANCE_COLUMN_START: Start, 100-ns ticks since the
 *   trace's origin (gint64)
 * @ETL_REGIONS_VIEW_INSTANCE_COLUMN_DURATION: Duration, 100-ns ticks;
 *   -1 when open (gint64)
 * @ETL_REGIONS_VIEW_INSTANCE_COLUMN_PROCESS: "name (pid)" (string)
 * @ETL_REGIONS_VIEW_INSTANCE_COLUMN_THREAD: ThreadId (guint)
 * @ETL_REGIONS_VIEW_INSTANCE_COLUMN_FIELDS: the Start's fields (string)
 * @ETL_REGIONS_VIEW_INSTANCE_COLUMN_SPAN: the span's index in the set (guint)
 * @ETL_REGIONS_VIEW_INSTANCE_COLUMN_LABEL: the instance's own name (a
 *   region instance's Naming; an activity's name) (string)
 * @ETL_REGIONS_VIEW_INSTANCE_N_COLUMNS: the number of columns
 *
 * The columns of the instances table's #GtkListStore.
 */
typedef enum
{
  ETL_REGIONS_VIEW_INSTANCE_COLUMN_START,
  ETL_REGIONS_VIEW_INSTANCE_COLUMN_DURATION,
  ETL_REGIONS_VIEW_INSTANCE_COLUMN_PROCESS,
  ETL_REGIONS_VIEW_INSTANCE_COLUMN_THREAD,
  ETL_REGIONS_VIEW_INSTANCE_COLUMN_FIELDS,
  ETL_REGIONS_VIEW_INSTANCE_COLUMN_SPAN,
  ETL_REGIONS_VIEW_INSTANCE_COLUMN_LABEL,
  ETL_REGIONS_VIEW_INSTANCE_N_COLUMNS,
} EtlRegionsViewInstanceColumn;

/**
 * ETL_REGIONS_VIEW_MAX_ROWS:
 *
 * Instance rows shown at most: the longest first (the table says how many
 * more there are; the histogram, the flame graph and
 * etl_regions_view_get_selected() count them all).
 */
#define ETL_REGIONS_VIEW_MAX_ROWS 20000

/**
 * ETL_REGIONS_VIEW_BUCKETS:
 *
 * Buckets of the duration histogram.
 */
#define ETL_REGIONS_VIEW_BUCKETS 64

#define ETL_TYPE_REGIONS_VIEW (etl_regions_view_get_type ())
G_DECLARE_FINAL_TYPE (EtlRegionsView, etl_regions_view, ETL, REGIONS_VIEW, GtkBox)

GtkWidget *etl_regions_view_new (void);
void etl_regions_view_set_trace (EtlRegionsView *self, EtlTrace *trace, EtlStacks *stacks);
void etl_regions_view_set_extra (EtlRegionsView *self, EtlSpanSet *extra);
void etl_regions_view_set_range (EtlRegionsView *self, gint64 begin, gint64 end);
EtlSpanSet *etl_regions_view_get_spans (EtlRegionsView *self);
gboolean etl_regions_view_select_name (EtlRegionsView *self, const char *name, const char *source);
const guint32 *etl_regions_view_get_selected (EtlRegionsView *self, guint *n_spans);
gboolean etl_regions_view_is_busy (EtlRegionsView *self);
gint64 etl_regions_view_get_longest_step (EtlRegionsView *self);
const char *etl_regions_view_get_message (EtlRegionsView *self);
GtkTreeView *etl_regions_view_get_names_view (EtlRegionsView *self);
GtkTreeView *etl_regions_view_get_instances_view (EtlRegionsView *self);
EtlDurationHistogram *etl_regions_view_get_histogram (EtlRegionsView *self);
EtlFlameGraph *etl_regions_view_get_flame_graph (EtlRegionsView *self);
GtkButton *etl_regions_view_get_summary_button (EtlRegionsView *self);

G_END_DECLS
