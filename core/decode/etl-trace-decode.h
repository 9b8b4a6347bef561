/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-decode.h"
#include "etl-manifest.h"
#include "etl-mof-derived.h"
#include "etl-schema.h"
#include "etl-trace-reader.h"
#include "etl-types.h"

G_BEGIN_DECLS

gboolean etl_trace_decode_hook_init (EtlTraceHook *hook, const char *const *manifests, GError **error);

EtlSchemaRegistry *etl_trace_get_schema_registry (EtlTrace *trace);
const EtlVolumeMap *etl_trace_get_volume_map (EtlTrace *trace);
gboolean etl_trace_load_manifest (EtlTrace *trace, const char *path, EtlManifestInfo *info, GError **error);
EtlDecoded *etl_trace_decode_record (EtlTrace *trace, const EtlRecord *record);
EtlDecoded *etl_trace_decode_record_prefix (EtlTrace *trace, const EtlRecord *record, guint max_fields);
GArray *etl_trace_get_derived_fields (EtlTrace *trace, const EtlRecord *record, const EtlDecoded *decoded);
const char *etl_trace_lookup_file_name (EtlTrace *trace, guint64 file_key);

G_END_DECLS
