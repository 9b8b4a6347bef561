/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-row-set.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlLaneMode:
 * @ETL_LANE_CPU: one lane per processor index
 * @ETL_LANE_PROVIDER: one lane per provider (etl_trace_get_provider_index())
 * @ETL_LANE_PROCESS: one lane per process id; records without one share a lane
 *
 * How an #EtlSummary splits the records into lanes.
 */
typedef enum
{
  ETL_LANE_CPU,
  ETL_LANE_PROVIDER,
  ETL_LANE_PROCESS,
} EtlLaneMode;

/**
 * ETL_SUMMARY_NO_PROVIDER:
 *
 * The dominant provider of an empty bin.
 */
#define ETL_SUMMARY_NO_PROVIDER G_MAXUINT16

/**
 * ETL_SUMMARY_NO_PID:
 *
 * The lane id of the lane that holds records without a process id.
 */
#define ETL_SUMMARY_NO_PID G_MAXUINT32

typedef struct _EtlSummary EtlSummary;
typedef struct _EtlLossSummary EtlLossSummary;

#define ETL_TYPE_LANE_MODE (etl_lane_mode_get_type ())

GType etl_lane_mode_get_type (void);

EtlSummary *etl_summary_new (EtlTrace *trace,
                             EtlRowSet *rows,
                             EtlLaneMode mode,
                             gint64 begin,
                             gint64 end,
                             guint bins_log2,
                             GCancellable *cancellable,
                             GError **error);
EtlSummary *etl_summary_new_expanded (EtlTrace *trace,
                                      EtlRowSet *rows,
                                      EtlLaneMode mode,
                                      const guint32 *expanded,
                                      guint n_expanded,
                                      gint64 begin,
                                      gint64 end,
                                      guint bins_log2,
                                      GCancellable *cancellable,
                                      GError **error);
void etl_summary_new_async (EtlTrace *trace,
                            EtlRowSet *rows,
                            EtlLaneMode mode,
                            gint64 begin,
                            gint64 end,
                            guint bins_log2,
                            GCancellable *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer user_data);
void etl_summary_new_expanded_async (EtlTrace *trace,
                                     EtlRowSet *rows,
                                     EtlLaneMode mode,
                                     const guint32 *expanded,
                                     guint n_expanded,
                                     gint64 begin,
                                     gint64 end,
                                     guint bins_log2,
                                     GCancellable *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer user_data);
EtlSummary *etl_summary_new_finish (GAsyncResult *result,
                                    GError **error);
EtlSummary *etl_summary_ref (EtlSummary *summary);
void etl_summary_unref (EtlSummary *summary);

EtlLaneMode etl_summary_get_mode (EtlSummary *summary);
guint etl_summary_get_n_lanes (EtlSummary *summary);
guint etl_summary_get_lane_id (EtlSummary *summary, guint lane);
const char *etl_summary_get_lane_label (EtlSummary *summary, guint lane);
guint etl_summary_get_lane_of_row (EtlSummary *summary, EtlTrace *trace, guint64 row);
gboolean etl_summary_get_lane_is_thread (EtlSummary *summary, guint lane);
gboolean etl_summary_get_lane_lifetime (EtlSummary *summary, guint lane, gint64 *start, gint64 *end);
gint64 etl_summary_get_begin (EtlSummary *summary);
gint64 etl_summary_get_end (EtlSummary *summary);
gint64 etl_summary_get_bin_width (EtlSummary *summary);
guint etl_summary_get_n_bins (EtlSummary *summary);
guint etl_summary_get_n_levels (EtlSummary *summary);
gint64 etl_summary_get_bin_start (EtlSummary *summary, guint bin);
guint64 etl_summary_get_n_records (EtlSummary *summary);
guint64 etl_summary_get_lane_total (EtlSummary *summary, guint lane);
guint etl_summary_choose_level (EtlSummary *summary, gint64 t0, gint64 t1, guint n_columns);
guint etl_summary_query (EtlSummary *summary,
                         gint64 t0,
                         gint64 t1,
                         guint n_columns,
                         guint32 *counts,
                         guint16 *dominant);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSummary, etl_summary_unref)

EtlLossSummary *etl_loss_summary_new (EtlTrace *trace, guint bins_log2);
EtlLossSummary *etl_loss_summary_ref (EtlLossSummary *summary);
void etl_loss_summary_unref (EtlLossSummary *summary);

guint etl_loss_summary_get_n_files (EtlLossSummary *summary);
gint64 etl_loss_summary_get_begin (EtlLossSummary *summary);
gint64 etl_loss_summary_get_end (EtlLossSummary *summary);
guint etl_loss_summary_get_n_bins (EtlLossSummary *summary);
void etl_loss_summary_get_header_totals (EtlLossSummary *summary,
                                         guint file,
                                         guint64 *events_lost,
                                         guint64 *buffers_lost);
void etl_loss_summary_get_series_totals (EtlLossSummary *summary,
                                         guint file,
                                         guint64 *events_lost,
                                         guint64 *buffers_lost);
guint64 etl_loss_summary_get_max (EtlLossSummary *summary);
void etl_loss_summary_query (EtlLossSummary *summary,
                             guint file,
                             gint64 t0,
                             gint64 t1,
                             guint n_columns,
                             guint64 *events_cumulative,
                             guint64 *buffers_cumulative);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlLossSummary, etl_loss_summary_unref)

G_END_DECLS
