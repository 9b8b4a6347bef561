/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-tdh.h: in-trace TDH metadata (KernelTraceControl MetaData records:
 * TRACE_EVENT_INFO and EVENT_MAP_INFO) as schemas and maps.
 */
#pragma once

#include <glib.h>

#include "etl-decode.h"
#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

/* KernelTraceControl's MetaData event class (bbccf6c1-6cd1-48c4-80ff-839482e37671) and its opcodes.
 */
#define ETL_TDH_OPCODE_EVENT_INFO 32
#define ETL_TDH_OPCODE_EVENT_MAP_INFO 33

extern const EtlGuid etl_tdh_metadata_guid;

EtlSchema *etl_tdh_parse_event_info (const guint8 *blob, gsize blob_len, GError **error);
EtlMap *etl_tdh_parse_map_info (const guint8 *blob, gsize blob_len, EtlGuid *provider,
                                GError **error);
gboolean etl_tdh_is_metadata_record (const EtlRecord *record);
EtlDecoded *etl_tdh_decode_record (const EtlRecord *record);
gboolean etl_tdh_register_record (EtlSchemaRegistry *registry, const EtlRecord *record,
                                  GError **error);

G_END_DECLS
