/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "etl-row-set.h"

static void
test_all (void)
{
  g_autoptr (EtlRowSet) set = etl_row_set_new_all (10);

  g_assert_true (etl_row_set_is_all (set));
  g_assert_cmpuint (etl_row_set_get_n (set), ==, 10);
  g_assert_cmpuint (etl_row_set_get (set, 7), ==, 7);
  g_assert_cmpuint (etl_row_set_find (set, 4), ==, 4);
  g_assert_cmpuint (etl_row_set_find (set, 99), ==, 10);
}

static void
test_filtered (void)
{
  guint64 *rows = g_new (guint64, 4);
  g_autoptr (EtlRowSet) set = NULL;

  rows[0] = 2;
  rows[1] = 5;
  rows[2] = 6;
  rows[3] = 40;
  set = etl_row_set_new_take (rows, 4);
  g_assert_false (etl_row_set_is_all (set));
  g_assert_cmpuint (etl_row_set_get_n (set), ==, 4);
  g_assert_cmpuint (etl_row_set_get (set, 3), ==, 40);
  g_assert_cmpuint (etl_row_set_find (set, 0), ==, 0);
  g_assert_cmpuint (etl_row_set_find (set, 5), ==, 1);
  g_assert_cmpuint (etl_row_set_find (set, 7), ==, 3);
  g_assert_cmpuint (etl_row_set_find (set, 41), ==, 4);
}

static void
test_empty (void)
{
  g_autoptr (EtlRowSet) set = etl_row_set_new_take (NULL, 0);

  g_assert_cmpuint (etl_row_set_get_n (set), ==, 0);
  g_assert_cmpuint (etl_row_set_find (set, 3), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/row-set/all", test_all);
  g_test_add_func ("/etl/row-set/filtered", test_filtered);
  g_test_add_func ("/etl/row-set/empty", test_empty);
  return g_test_run ();
}
