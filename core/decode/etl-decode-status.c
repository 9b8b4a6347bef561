/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-decode-status
 * @title: Decode status
 * @short_description: why a record is or is not decoded
 *
 * Every record gets one #EtlDecodeStatus from its header and what
 * etl_decode_record() made of it, so the dump, the event list and the
 * details pane say the same thing:
 *
 * - no schema, and the record is a WPP message (a MESSAGE header, type 15,
 *   or an EVENT_HEADER with the TRACE_MESSAGE flag 0x8; evntcons.h): "wpp",
 *   even without user data (the message text is in the TMF);
 * - no user data: "no-data", unless a schema expected fields ("partial");
 * - a schema was found: "decoded" when it covered all the user data (or a
 *   preview stopped at its field cap, #EtlDecoded.capped); "newer-version"
 *   when it is an earlier version's schema (etl_decode_record()'s version
 *   fallback), all its fields decoded and bytes left after them
 *   (#EtlDecoded.trailing: GC/AllocationTick v4 of gcevents.etl with the
 *   2019 CLR manifest, which knows v3); else "partial";
 * - no schema, a manifest-based, EventSource or TraceLogging event
 *   (EVENT_HEADER): "no-schema";
 * - no schema, a kernel (SYSTEM, COMPACT, PERFINFO) or classic
 *   (FULL_HEADER, INSTANCE) event, or another header: "unknown-class".
 *
 * The names are short and stable (the dump's "decode_status" member); the
 * labels are shorter still for the event list; the reason is a sentence
 * naming the provider, class or message and what would help.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-decode-status.h"
#include "etl-names.h"

/**
 * etl_decode_status_of:
 * @record: a record
 * @decoded: (nullable): what etl_decode_record() or
 *   etl_decode_record_prefix() returned for it; %NULL counts as no schema
 *
 * Classifies @record as the section overview describes.
 *
 * Returns: its status
 */
EtlDecodeStatus
etl_decode_status_of (const EtlRecord *record, const EtlDecoded *decoded)
{
  gboolean has_schema, decoded_all;

  g_return_val_if_fail (record != NULL, ETL_DECODE_STATUS_NO_DATA);

  has_schema = decoded != NULL && decoded->schema != NULL;
  decoded_all = has_schema && (decoded->complete || decoded->capped);
  if (!has_schema
      && (record->kind == ETL_RECORD_KIND_WPP || record->header_type == ETL_HEADER_TYPE_MESSAGE
          || ((record->header_type == ETL_HEADER_TYPE_EVENT_HEADER32
               || record->header_type == ETL_HEADER_TYPE_EVENT_HEADER64)
              && (record->flags & ETL_EVENT_HEADER_FLAG_TRACE_MESSAGE))))
    return ETL_DECODE_STATUS_WPP;
  if (record->user_data == NULL || record->user_data_len == 0)
    return has_schema && !decoded_all ? ETL_DECODE_STATUS_PARTIAL : ETL_DECODE_STATUS_NO_DATA;
  if (has_schema && decoded_all)
    return ETL_DECODE_STATUS_DECODED;
  if (has_schema && decoded->trailing && decoded->schema->key.kind == ETL_SCHEMA_KEY_EVENT_ID
      && decoded->schema->key.version < record->version)
    return ETL_DECODE_STATUS_NEWER_VERSION;
  if (has_schema)
    return ETL_DECODE_STATUS_PARTIAL;
  if (record->kind == ETL_RECORD_KIND_MANIFEST || record->kind == ETL_RECORD_KIND_TRACELOGGING)
    return ETL_DECODE_STATUS_NO_SCHEMA;
  return ETL_DECODE_STATUS_UNKNOWN_CLASS;
}

/**
 * etl_decode_status_name:
 * @status: a status
 *
 * Returns: (transfer none): its stable name: "decoded", "partial",
 *   "no-schema", "wpp", "unknown-class", "no-data" or "newer-version"
 */
const char *
etl_decode_status_name (EtlDecodeStatus status)
{
  static const char *const names[] = { "decoded", "partial", "no-schema", "wpp", "unknown-class", "no-data",
                                       "newer-version" };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == ETL_N_DECODE_STATUSES);
  g_return_val_if_fail (status < ETL_N_DECODE_STATUSES, "unknown");
  return names[status];
}

/**
 * etl_decode_status_label:
 * @status: a status
 *
 * A few words for the event list's Event column ("no metadata"), for the
 * statuses that mean some user data is not shown as fields.
 *
 * Returns: (transfer none) (nullable): the label, or %NULL for "decoded"
 *   and "no-data" (nothing is missing)
 */
const char *
etl_decode_status_label (EtlDecodeStatus status)
{
  switch (status)
    {
    case ETL_DECODE_STATUS_PARTIAL:
      return "partly decoded";
    case ETL_DECODE_STATUS_NO_SCHEMA:
      return "no metadata";
    case ETL_DECODE_STATUS_WPP:
      return "WPP, needs TMF";
    case ETL_DECODE_STATUS_UNKNOWN_CLASS:
      return "no layout";
    case ETL_DECODE_STATUS_NEWER_VERSION:
      return "newer version";
    case ETL_DECODE_STATUS_DECODED:
    case ETL_DECODE_STATUS_NO_DATA:
    case ETL_N_DECODE_STATUSES:
    default:
      return NULL;
    }
}

/**
 * etl_decode_status_dup_reason:
 * @status: @record's status (etl_decode_status_of())
 * @record: the record
 * @decoded: (nullable): its fields
 *
 * One sentence saying why @record is or is not decoded and what would help,
 * e.g. "Microsoft-Windows-PowerShell: no metadata in the trace — load its
 * manifest (File ▸ Load Manifest…)", "WPP software trace: message GUID …,
 * message 12 — needs the provider's TMF/PDB", "No layout for class … (Name),
 * version 2, opcode 36".
 *
 * Returns: (transfer full): the sentence
 */
char *
etl_decode_status_dup_reason (EtlDecodeStatus status, const EtlRecord *record, const EtlDecoded *decoded)
{
  g_autofree char *provider = NULL;
  char guid[ETL_GUID_STRING_LEN + 1];
  gsize len;

  g_return_val_if_fail (record != NULL, NULL);

  len = record->user_data != NULL ? record->user_data_len : 0;
  etl_guid_to_string (&record->provider, guid);
  provider = etl_record_dup_provider_name (record);
  if (decoded != NULL && decoded->schema != NULL && decoded->schema->provider_name != NULL
      && g_strcmp0 (provider, guid) == 0)
    {
      g_free (provider);
      provider = g_strdup (decoded->schema->provider_name);
    }

  switch (status)
    {
    case ETL_DECODE_STATUS_DECODED:
      return g_strdup_printf ("Decoded: the %s schema covers all %" G_GSIZE_FORMAT " bytes of user data.",
                              decoded != NULL && decoded->schema != NULL
                                  ? etl_schema_source_name (decoded->schema->source)
                                  : "event's",
                              len);
    case ETL_DECODE_STATUS_PARTIAL:
      return g_strdup_printf ("Partly decoded: the %s schema covers %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                              " bytes — the payload does not match it (a newer event version, or damaged data); "
                              "the rest is in the hex dump.",
                              decoded != NULL && decoded->schema != NULL
                                  ? etl_schema_source_name (decoded->schema->source)
                                  : "event's",
                              decoded != NULL ? decoded->n_bytes : 0, len);
    case ETL_DECODE_STATUS_NO_SCHEMA:
      if (record->kind == ETL_RECORD_KIND_TRACELOGGING)
        return g_strdup_printf ("%s: TraceLogging event whose metadata could not be read — its %" G_GSIZE_FORMAT
                                " bytes are in the hex dump.",
                                provider, len);
      return g_strdup_printf ("%s: no metadata in the trace — load its manifest (File ▸ Load Manifest…).",
                              provider);
    case ETL_DECODE_STATUS_WPP:
      return g_strdup_printf ("WPP software trace: message GUID %s, message %u — needs the provider's TMF/PDB.",
                              guid, record->event_id);
    case ETL_DECODE_STATUS_UNKNOWN_CLASS:
      if (record->kind == ETL_RECORD_KIND_KERNEL || record->kind == ETL_RECORD_KIND_PERFINFO)
        return g_strdup_printf ("No layout for kernel class %s (%s), version %u, opcode %u (HookId 0x%04x): "
                                "etlscope has no MOF table for it; its %" G_GSIZE_FORMAT " bytes are in the hex dump.",
                                guid, provider, record->version, record->opcode, record->hook_id, len);
      if (g_strcmp0 (provider, guid) != 0)
        return g_strdup_printf ("No layout for class %s (%s), version %u, opcode %u: etlscope has no MOF table "
                                "for it; its %" G_GSIZE_FORMAT " bytes are in the hex dump.",
                                guid, provider, record->version, record->opcode, len);
      return g_strdup_printf ("No layout for class %s, version %u, opcode %u: etlscope has no MOF table for it; "
                              "its %" G_GSIZE_FORMAT " bytes are in the hex dump.",
                              guid, record->version, record->opcode, len);
    case ETL_DECODE_STATUS_NO_DATA:
      return g_strdup ("No user data: the event is its header alone, nothing to decode.");
    case ETL_DECODE_STATUS_NEWER_VERSION:
      return g_strdup_printf ("%s: version %u of this event is newer than any source knows — decoded with the "
                              "%s schema of version %u, whose fields cover %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                              " bytes; the rest is in the hex dump (a newer manifest would name it).",
                              provider, record->version, etl_schema_source_name (decoded->schema->source),
                              decoded->schema->key.version, decoded->n_bytes, len);
    case ETL_N_DECODE_STATUSES:
    default:
      return g_strdup ("Unknown status.");
    }
}
