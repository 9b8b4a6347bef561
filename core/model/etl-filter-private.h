/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-filter.h"

G_BEGIN_DECLS

EtlRowSet *etl_filter_apply_with_workers (EtlTrace *trace, const EtlFilter *filter, guint n_workers,
                                          GCancellable *cancellable, GError **error);

gboolean etl_filter_contains_folded (const char *haystack, const char *needle_folded);

G_END_DECLS
