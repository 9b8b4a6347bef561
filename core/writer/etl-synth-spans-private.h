/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-synth.h"
#include "etl-writer.h"

G_BEGIN_DECLS

gboolean etl_synth_spans_write (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw,
                                gint64 ticks_per_second, GError **error);

G_END_DECLS
