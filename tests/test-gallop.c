/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl_gallop_ending_after() (core/base/etl-gallop.h) against a linear scan,
 * on records with their end time at an offset, from every start index.
 */
#include "config.h"

#include <glib.h>

#include "etl-gallop.h"

typedef struct
{
  gint64 start;
  gint64 end;
  guint32 payload;
} Rec;

static gsize
scan (const Rec *r, gsize n, gsize from, gint64 t)
{
  for (gsize i = from; i < n; i++)
    if (r[i].end > t)
      return i;
  return n;
}

static void
test_against_scan (void)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20);
  gsize n = 3000;
  g_autofree Rec *r = g_new0 (Rec, n);
  gint64 t = 0;
  guint checked = 0;

  /* Ascending ends with runs of equal ones. */
  for (gsize i = 0; i < n; i++)
    {
      t += g_rand_int_range (rand, 0, 3) == 0 ? 0 : g_rand_int_range (rand, 1, 50);
      r[i].end = t;
    }
  for (gsize from = 0; from <= n; from += 7)
    for (gint64 q = -5; q <= t + 5; q += g_rand_int_range (rand, 1, 400))
      {
        g_assert_cmpuint (etl_gallop_ending_after (r, n, sizeof (Rec), G_STRUCT_OFFSET (Rec, end), from, q), ==,
                          scan (r, n, from, q));
        checked++;
      }
  g_assert_cmpuint (checked, >, 10000);
  /* Edges: empty, from = n, every end ≤ t, the first end > t. */
  g_assert_cmpuint (etl_gallop_ending_after (r, 0, sizeof (Rec), G_STRUCT_OFFSET (Rec, end), 0, 0), ==, 0);
  g_assert_cmpuint (etl_gallop_ending_after (r, n, sizeof (Rec), G_STRUCT_OFFSET (Rec, end), n, 0), ==, n);
  g_assert_cmpuint (etl_gallop_ending_after (r, n, sizeof (Rec), G_STRUCT_OFFSET (Rec, end), 0, t), ==, n);
  g_assert_cmpuint (etl_gallop_ending_after (r, n, sizeof (Rec), G_STRUCT_OFFSET (Rec, end), 0, r[0].end - 1), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/gallop/against-scan", test_against_scan);
  return g_test_run ();
}
