/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * EtlRangeFunc:
 * @worker: the worker's number, 0 … n_workers − 1; worker 0 runs in the
 *   calling thread
 * @first: first item of the worker's range
 * @last: one past its last item
 * @user_data: closure
 *
 * The work of one worker over one contiguous range.
 */
typedef void (*EtlRangeFunc) (guint worker, guint64 first, guint64 last, gpointer user_data);

guint etl_parallel_n_workers (guint64 n_items, guint64 min_items_per_worker);
void etl_parallel_ranges (guint n_workers, guint64 first, guint64 last, EtlRangeFunc func,
                          gpointer user_data);

G_END_DECLS
