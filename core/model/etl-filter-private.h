/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-filter.h"

G_BEGIN_DECLS

EtlRowSet *etl_filter_apply_with_workers (EtlTrace *trace, const EtlFilter *filter, guint n_workers,
                                          GCancellable *cancellable, GError **error);

G_END_DECLS
