/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-row-set
 * @title: EtlRowSet
 * @short_description: the rows of the merged sequence a view shows
 *
 * An immutable, ref-counted, ascending set of positions in an #EtlTrace's
 * merged sequence: every row (no storage at all), or the rows a filter kept
 * (8 bytes each).  The event list, the timeline summaries and exports all
 * read the same set, so a filter applies to all of them at once.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-row-set.h"

struct _EtlRowSet
{
  gatomicrefcount ref_count;
  guint64 n_rows;
  guint64 *rows;  /* NULL: all rows 0 .. n_rows − 1 */
};

/**
 * etl_row_set_new_all:
 * @n_rows: records in the trace
 *
 * Returns: (transfer full): the set of every row, without storage
 */
EtlRowSet *
etl_row_set_new_all (guint64 n_rows)
{
  EtlRowSet *set = g_new0 (EtlRowSet, 1);

  g_atomic_ref_count_init (&set->ref_count);
  set->n_rows = n_rows;
  return set;
}

/**
 * etl_row_set_new_take:
 * @rows: (transfer full) (array length=n_rows) (nullable): ascending row
 *   positions, freed with g_free()
 * @n_rows: length of @rows
 *
 * Returns: (transfer full): the set of @rows
 */
EtlRowSet *
etl_row_set_new_take (guint64 *rows, guint64 n_rows)
{
  EtlRowSet *set = g_new0 (EtlRowSet, 1);

  g_return_val_if_fail (rows != NULL || n_rows == 0, NULL);
  g_atomic_ref_count_init (&set->ref_count);
  set->n_rows = n_rows;
  set->rows = rows != NULL ? rows : g_new (guint64, 1);
  return set;
}

/**
 * etl_row_set_ref:
 * @set: a row set
 *
 * Returns: (transfer full): @set
 */
EtlRowSet *
etl_row_set_ref (EtlRowSet *set)
{
  g_return_val_if_fail (set != NULL, NULL);
  g_atomic_ref_count_inc (&set->ref_count);
  return set;
}

/**
 * etl_row_set_unref:
 * @set: (transfer full): a row set
 */
void
etl_row_set_unref (EtlRowSet *set)
{
  g_return_if_fail (set != NULL);
  if (!g_atomic_ref_count_dec (&set->ref_count))
    return;
  g_free (set->rows);
  g_free (set);
}

/**
 * etl_row_set_is_all:
 * @set: a row set
 *
 * Returns: %TRUE when @set is every row (no filter)
 */
gboolean
etl_row_set_is_all (const EtlRowSet *set)
{
  return set->rows == NULL;
}

/**
 * etl_row_set_get_n:
 * @set: a row set
 *
 * Returns: rows in @set
 */
guint64
etl_row_set_get_n (const EtlRowSet *set)
{
  return set->n_rows;
}

/**
 * etl_row_set_get:
 * @set: a row set
 * @position: 0 .. etl_row_set_get_n() − 1
 *
 * Returns: the row (position in the trace's merged sequence) at @position
 */
guint64
etl_row_set_get (const EtlRowSet *set, guint64 position)
{
  g_return_val_if_fail (position < set->n_rows, 0);
  return set->rows != NULL ? set->rows[position] : position;
}

/**
 * etl_row_set_find:
 * @set: a row set
 * @row: a position in the trace's merged sequence
 *
 * Binary search.
 *
 * Returns: the position in @set of the first row ≥ @row
 *   (etl_row_set_get_n() when none)
 */
guint64
etl_row_set_find (const EtlRowSet *set, guint64 row)
{
  guint64 lo = 0, hi = set->n_rows;

  if (set->rows == NULL)
    return MIN (row, set->n_rows);
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (set->rows[mid] < row)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
