/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-call-samples.h"
#include "etl-stack-tree.h"
#include "etl-stacks.h"
#include "etl-thread-states.h"

G_BEGIN_DECLS

/* The pseudo-frames of a thread-time tree (PerfView's names). */
#define ETL_THREAD_TIME_BLOCKED "BLOCKED_TIME"
#define ETL_THREAD_TIME_READIED "READIED_TIME"
#define ETL_THREAD_TIME_CPU     "CPU_TIME"
#define ETL_THREAD_TIME_READIED_BY_SUFFIX " (READIED_BY)"

EtlStackTree *etl_thread_time_tree_new (EtlThreadStates *states, EtlStacks *stacks, const guint32 *tids,
                                        guint n_tids, gint64 from_filetime, gint64 to_filetime,
                                        GCancellable *cancellable, GError **error);
EtlCallSamples *etl_thread_time_samples_new (EtlThreadStates *states, EtlStacks *stacks, const guint32 *tids,
                                             guint n_tids, gint64 from_filetime, gint64 to_filetime,
                                             GCancellable *cancellable, GError **error);
guint64 etl_thread_time_tree_sum (EtlStackTree *tree, const char *pseudo_frame);

G_END_DECLS
