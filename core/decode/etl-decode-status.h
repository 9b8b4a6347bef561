/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-decode-status.h: why a record is or is not decoded, in one word and
 * in a sentence that says what would help.
 */
#pragma once

#include <glib.h>

#include "etl-decode.h"
#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlDecodeStatus:
 * @ETL_DECODE_STATUS_DECODED: a schema decoded all the user data
 *   ("decoded")
 * @ETL_DECODE_STATUS_PARTIAL: a schema was found, but decoding stopped
 *   early or left bytes over, or it expected fields and there is no user
 *   data ("partial")
 * @ETL_DECODE_STATUS_NO_SCHEMA: a manifest, EventSource or TraceLogging
 *   event with no metadata in the trace and no manifest loaded
 *   ("no-schema")
 * @ETL_DECODE_STATUS_WPP: a WPP software trace message, whose format lives
 *   in the provider's TMF/PDB ("wpp")
 * @ETL_DECODE_STATUS_UNKNOWN_CLASS: a kernel or classic (MOF) event whose
 *   class, version and opcode have no known layout ("unknown-class")
 * @ETL_DECODE_STATUS_NO_DATA: no user data, and nothing expected of it
 *   ("no-data")
 * @ETL_DECODE_STATUS_NEWER_VERSION: decoded with the schema of an earlier
 *   version of the event, every field of it, and the record carries more
 *   bytes that no source describes: a newer version than any source knows
 *   ("newer-version")
 *
 * One status a record (etl_decode_status_of()).
 */
typedef enum
{
  ETL_DECODE_STATUS_DECODED,
  ETL_DECODE_STATUS_PARTIAL,
  ETL_DECODE_STATUS_NO_SCHEMA,
  ETL_DECODE_STATUS_WPP,
  ETL_DECODE_STATUS_UNKNOWN_CLASS,
  ETL_DECODE_STATUS_NO_DATA,
  ETL_DECODE_STATUS_NEWER_VERSION,
  ETL_N_DECODE_STATUSES
} EtlDecodeStatus;

EtlDecodeStatus etl_decode_status_of (const EtlRecord *record, const EtlDecoded *decoded);
const char *etl_decode_status_name (EtlDecodeStatus status);
const char *etl_decode_status_label (EtlDecodeStatus status);
char *etl_decode_status_dup_reason (EtlDecodeStatus status, const EtlRecord *record,
                                    const EtlDecoded *decoded);

G_END_DECLS
