/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-interval-stats
 * @title: Interval statistics
 * @short_description: count, total, mean, median, p90, p99 and max of durations
 *
 * The figures WPA's Regions of Interest table and Tracy's zone statistics
 * show for one name, computed from its durations in 100-ns units.  The
 * percentiles use the nearest-rank definition (the ⌈p × n⌉-th smallest
 * value, a duration that occurred); the median of an even count is the
 * mean of the two middle values.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-interval-stats.h"

#include <string.h>

/* LSD radix sort of non-negative 64-bit values, 16 bits a pass, passes
 * over bits all zero skipped: a million durations in a few ms, where
 * qsort() takes about 80 ms. */
static void
sort_durations (gint64 *v, gsize n)
{
  g_autofree gint64 *tmp = NULL;
  g_autofree gsize *count = NULL;
  guint64 all = 0;
  gint64 *src = v, *dst;

  if (n < 2)
    return;
  for (gsize i = 0; i < n; i++)
    all |= (guint64) v[i];
  tmp = g_new (gint64, n);
  count = g_new (gsize, 65536 + 1);
  dst = tmp;
  for (guint shift = 0; shift < 64 && (all >> shift) != 0; shift += 16)
    {
      if (((all >> shift) & 0xFFFF) == 0)
        continue; /* every value has 0 there: the pass would change nothing */
      memset (count, 0, (65536 + 1) * sizeof (gsize));
      for (gsize i = 0; i < n; i++)
        count[(((guint64) src[i] >> shift) & 0xFFFF) + 1]++;
      for (guint k = 1; k <= 65536; k++)
        count[k] += count[k - 1];
      for (gsize i = 0; i < n; i++)
        dst[count[((guint64) src[i] >> shift) & 0xFFFF]++] = src[i];
      {
        gint64 *t = src;

        src = dst;
        dst = t;
      }
    }
  if (src != v)
    memcpy (v, src, n * sizeof (gint64));
}

/**
 * etl_interval_stats_percentile:
 * @sorted: (array length=n): durations in ascending order
 * @n: how many, > 0
 * @per_mille: the percentile in thousandths, 1 to 1000 (900 = p90)
 *
 * The nearest-rank percentile: the ⌈@per_mille × @n / 1000⌉-th smallest.
 *
 * Returns: that duration
 */
gint64
etl_interval_stats_percentile (const gint64 *sorted, gsize n, guint per_mille)
{
  guint64 rank;

  g_return_val_if_fail (sorted != NULL && n > 0, 0);
  per_mille = CLAMP (per_mille, 1, 1000);
  rank = ((guint64) n * per_mille + 999) / 1000; /* 1-based, ≥ 1 */
  return sorted[MIN (rank, n) - 1];
}

/**
 * etl_interval_stats_compute:
 * @durations: (array length=n_durations) (inout): the measured durations,
 *   100-ns units, ≥ 0; sorted ascending on return
 * @n_durations: how many
 * @stats: (out): filled: @count and @n_closed are @n_durations, @open and
 *   @unmatched_stops 0 (the caller adds those it knows)
 *
 * Computes the statistics of #EtlIntervalStats (see the section overview).
 * Negative durations are taken as 0.
 */
void
etl_interval_stats_compute (gint64 *durations, gsize n_durations, EtlIntervalStats *stats)
{
  g_return_if_fail (stats != NULL);
  g_return_if_fail (durations != NULL || n_durations == 0);

  memset (stats, 0, sizeof *stats);
  stats->count = stats->n_closed = n_durations;
  if (n_durations == 0)
    return;
  for (gsize i = 0; i < n_durations; i++)
    {
      if (durations[i] < 0)
        durations[i] = 0;
      stats->total += durations[i];
    }
  sort_durations (durations, n_durations);
  stats->mean = (double) stats->total / (double) n_durations;
  if (n_durations % 2 == 1)
    stats->median = (double) durations[n_durations / 2];
  else
    stats->median = ((double) durations[n_durations / 2 - 1] + (double) durations[n_durations / 2]) / 2.0;
  stats->p90 = etl_interval_stats_percentile (durations, n_durations, 900);
  stats->p99 = etl_interval_stats_percentile (durations, n_durations, 990);
  stats->max = durations[n_durations - 1];
}
