/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-group-summary.h"

G_BEGIN_DECLS

EtlGroupSummary *etl_group_summary_compute_with_workers (EtlTrace *trace, EtlRowSet *rows, gint64 begin,
                                                         gint64 end, const EtlGroupKey *keys, guint n_keys,
                                                         guint n_workers, EtlProgressFunc progress,
                                                         gpointer progress_data, GCancellable *cancellable,
                                                         GError **error);

G_END_DECLS
