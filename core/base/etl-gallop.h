/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/**
 * etl_gallop_ending_after:
 * @base: (array): @n records of @size bytes, each with a #gint64 end time
 *   at @end_offset, in ascending end order
 * @n: their number
 * @size: a record's size, bytes
 * @end_offset: where in a record its end time lies, bytes
 * @from: the index to search from (≤ @n)
 * @t: a time, the records' unit
 *
 * The first record at or after @from whose end is after @t: a gallop
 * forward from @from (strides of 1, 2, 4 …), then a bisection of the last
 * stride.  A drawing that walks pixel columns left to right asks for the
 * next column's record just ahead of the last one: the probes stay close
 * to @from, where a bisection of the whole array would miss the cache on
 * each step (the thread states and CPU segments of a large trace are tens
 * of MB).  O(log distance).
 *
 * Returns: the index, @n when no record at or after @from ends after @t
 */
static inline gsize
etl_gallop_ending_after (const void *base, gsize n, gsize size, gsize end_offset, gsize from, gint64 t)
{
  const guint8 *p = base;
  gsize lo = from, hi, step = 1;
  gint64 end;

#define ETL_GALLOP_END(i) (memcpy (&end, p + (i) * size + end_offset, sizeof end), end)
  if (lo >= n || ETL_GALLOP_END (lo) > t)
    return lo;
  /* end(lo) ≤ t: find hi with end(hi) > t, or n. */
  for (;;)
    {
      hi = n - lo > step ? lo + step : n;
      if (hi == n || ETL_GALLOP_END (hi) > t)
        break;
      lo = hi;
      step *= 2;
    }
  lo++;
  while (lo < hi)
    {
      gsize m = lo + (hi - lo) / 2;

      if (ETL_GALLOP_END (m) <= t)
        lo = m + 1;
      else
        hi = m;
    }
#undef ETL_GALLOP_END
  return lo;
}

G_END_DECLS
