/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-decode: a schema and a payload → etl_decode_record.  Input: u8 mode,
 * u16 metadata length (LE), the metadata, then the payload.  Mode bits 0–1
 * choose the record's header (EVENT_HEADER64, EVENT_HEADER64 with
 * 32_BIT_HEADER, SYSTEM32, EVENT_HEADER32: both pointer sizes); bit 2 says
 * the metadata is TraceLogging's EVENT_SCHEMA_TL instead of a
 * TRACE_EVENT_INFO.  Every map name the schema uses gets a value map or a
 * bitmap, and a volume map is given, so every formatting path is reachable.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-tdh.h"
#include "etl-tracelogging.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static const guint8 header_types[4] = {
  ETL_HEADER_TYPE_EVENT_HEADER64,
  ETL_HEADER_TYPE_EVENT_HEADER64,
  ETL_HEADER_TYPE_SYSTEM32,
  ETL_HEADER_TYPE_EVENT_HEADER32,
};

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autoptr (EtlSchemaRegistry) reg = NULL;
  g_autoptr (EtlSchema) schema = NULL;
  g_autoptr (EtlDecoded) decoded = NULL;
  g_autofree guint8 *meta = NULL;
  g_autofree guint8 *payload = NULL;
  EtlVolumeMap *volumes;
  EtlRecord r;
  guint mode;
  gsize meta_len, payload_len;

  if (size < 3)
    return 0;
  mode = data[0];
  meta_len = data[1] | (data[2] << 8);
  if (meta_len > size - 3)
    return 0;
  /* Exactly-sized copies so any overread is caught. */
  meta = g_memdup2 (data + 3, meta_len);
  payload_len = size - 3 - meta_len;
  payload = g_memdup2 (data + 3 + meta_len, payload_len);

  if (mode & 4)
    {
      EtlSchemaKey key;
      static const EtlGuid guid = { 1, 2, 3, { 4, 5, 6, 7, 8, 9, 10, 11 } };

      etl_schema_key_init_event_id (&key, &guid, 0, 0);
      schema = etl_tracelogging_schema_parse (meta, meta_len, &key, NULL);
    }
  else
    schema = etl_tdh_parse_event_info (meta, meta_len, NULL);
  if (schema == NULL)
    return 0;

  reg = etl_schema_registry_new ();
  etl_schema_registry_add (reg, schema);
  for (guint i = 0; i < schema->n_properties; i++)
    if (schema->properties[i].map_name != NULL)
      {
        g_autoptr (EtlMap) map = etl_map_new (schema->properties[i].map_name, i % 2);

        etl_map_add (map, 0, "Zero");
        etl_map_add (map, 1, "One");
        etl_map_add (map, 4, "Four");
        etl_schema_registry_add_map (reg, &schema->key.guid, map);
      }

  memset (&r, 0, sizeof r);
  r.header_type = header_types[mode & 3];
  r.kind = r.header_type == ETL_HEADER_TYPE_SYSTEM32 ? ETL_RECORD_KIND_KERNEL
                                                     : ETL_RECORD_KIND_MANIFEST;
  if ((mode & 3) == 1)
    r.flags = ETL_EVENT_HEADER_FLAG_32_BIT_HEADER;
  r.provider = schema->key.guid;
  r.event_id = schema->key.id;
  r.version = schema->key.version;
  r.user_data = payload_len > 0 ? payload : NULL;
  r.user_data_len = payload_len;

  volumes = etl_volume_map_new ();
  etl_volume_map_add (volumes, "\\Device\\HarddiskVolume2\\", "C:\\");
  etl_volume_map_add (volumes, "\\??\\", "");

  decoded = etl_decode_with_schema (schema, volumes, &r);
  g_assert (decoded->n_bytes <= payload_len);
  g_free (etl_decoded_format_payload (decoded, 200));
  g_free (etl_decode_dup_event_name (reg, &r));
  if (r.kind == ETL_RECORD_KIND_MANIFEST && schema->key.kind == ETL_SCHEMA_KEY_EVENT_ID)
    {
      g_autoptr (EtlDecoded) again = etl_decode_record (reg, volumes, &r);

      g_assert (again->fields->len == decoded->fields->len);
    }
  etl_volume_map_free (volumes);
  return 0;
}
