/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-synth.h"
#include "etl-writer.h"

G_BEGIN_DECLS

/* The provider of the activities traces (a made-up GUID). */
#define ETL_SYNTH_ACTIVITIES_PROVIDER "6c0f5e2a-7d41-4b8e-9a3c-1f2e3d4c5b6a"

gboolean etl_synth_activities_write (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw,
                                     gint64 ticks_per_second, GError **error);

G_END_DECLS
