/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * EtlIntervalStats:
 * @count: instances (closed and open)
 * @n_closed: instances with a measured duration (the others are open)
 * @total: sum of the measured durations, 100-ns units
 * @mean: @total / @n_closed, 100-ns units (0 when @n_closed is 0)
 * @median: the middle duration (the mean of the two middle ones when
 *   @n_closed is even), 100-ns units
 * @p90: the 90th percentile by nearest rank (the ⌈0.9 × n⌉-th smallest
 *   duration), 100-ns units
 * @p99: the 99th percentile by nearest rank, 100-ns units
 * @max: the longest duration, 100-ns units
 * @open: instances without an end (not in the durations: theirs is unknown)
 * @unmatched_stops: ends without a beginning, counted under the same name
 *
 * Statistics of a set of intervals of one name (the Regions view's and
 * `etlscope-cli regions`'s rows).  Only measured durations enter @total,
 * @mean, @median, @p90, @p99 and @max.
 */
typedef struct
{
  guint64 count;
  guint64 n_closed;
  gint64 total;
  double mean;
  double median;
  gint64 p90;
  gint64 p99;
  gint64 max;
  guint64 open;
  guint64 unmatched_stops;
} EtlIntervalStats;

void etl_interval_stats_compute (gint64 *durations, gsize n_durations, EtlIntervalStats *stats);
gint64 etl_interval_stats_percentile (const gint64 *sorted, gsize n, guint per_mille);

G_END_DECLS
