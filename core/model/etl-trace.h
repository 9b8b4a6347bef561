/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace.h: an opened trace, as the views use it: the reader's records
 * (etl-trace-reader.h), their decoding (etl-trace-decode.h) and the process
 * table, opened together by etl_trace_open_full().
 */
#pragma once

#include <gio/gio.h>

#include "etl-decode.h"
#include "etl-error.h"
#include "etl-manifest.h"
#include "etl-process-table.h"
#include "etl-schema.h"
#include "etl-trace-decode.h"
#include "etl-trace-reader.h"
#include "etl-types.h"

G_BEGIN_DECLS

EtlTrace *etl_trace_open (const char *const *paths,
                          EtlProgressFunc progress,
                          gpointer progress_data,
                          GCancellable *cancellable,
                          GError **error);
EtlTrace *etl_trace_open_full (const char *const *paths,
                               const char *const *manifests,
                               EtlProgressFunc progress,
                               gpointer progress_data,
                               GCancellable *cancellable,
                               GError **error);

EtlProcessTable *etl_trace_get_process_table (EtlTrace *trace);
const EtlProcess *etl_trace_get_record_process (EtlTrace *trace, const EtlRecord *record,
                                                const EtlDecoded *decoded);

G_END_DECLS
