/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-cpu-usage.h"

G_BEGIN_DECLS

EtlCpuUsage *etl_cpu_usage_compute_with_workers (EtlTrace *trace, EtlCpuUsageMode mode,
                                                 EtlCpuUsageGrouping grouping, gint64 begin, gint64 end,
                                                 gint64 bucket_width, guint n_workers,
                                                 EtlProgressFunc progress, gpointer progress_data,
                                                 GCancellable *cancellable, GError **error);

G_END_DECLS
