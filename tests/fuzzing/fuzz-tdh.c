/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-tdh: bytes → etl_tdh_parse_event_info (TRACE_EVENT_INFO) and
 * etl_tdh_parse_map_info (provider GUID + EVENT_MAP_INFO) → a registry
 * (maps resolved into schemas) → names and map formatting; and the same
 * bytes as the user data of MetaData EventInfo / EventMapInfo records and
 * WinSat records (LZNT1) decoded as events.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-tdh.h"
#include "etl-winsat.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* Copy into an exactly-sized buffer so any overread is caught. */
  g_autofree guint8 *copy = g_memdup2 (data, size);
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  g_autoptr (EtlSchema) schema = NULL;
  g_autoptr (EtlMap) map = NULL;
  EtlGuid provider;

  schema = etl_tdh_parse_event_info (copy, size, NULL);
  map = etl_tdh_parse_map_info (copy, size, &provider, NULL);
  if (schema != NULL)
    {
      g_assert (schema->n_top_level <= schema->n_properties);
      g_free (etl_schema_dup_display_name (schema));
      etl_schema_registry_add (reg, schema);
    }
  if (map != NULL)
    {
      static const guint64 probes[] = { 0, 1, 2, 3, 0xFF, 0xFFFFFFFF, G_MAXUINT64 };

      for (guint i = 0; i < G_N_ELEMENTS (probes); i++)
        g_free (etl_map_format (map, probes[i]));
      etl_schema_registry_add_map (reg, &provider, map);
      if (schema != NULL)
        etl_schema_registry_add_map (reg, &schema->key.guid, map);
    }

  /* The bytes as MetaData (opcodes 32, 33) and WinSat (33, 35, 37) records. */
  {
    static const guint8 opcodes[] = { ETL_TDH_OPCODE_EVENT_INFO, ETL_TDH_OPCODE_EVENT_MAP_INFO,
                                      ETL_WINSAT_OPCODE_WINSPR, ETL_WINSAT_OPCODE_METRICS,
                                      ETL_WINSAT_OPCODE_SYSTEM_CONFIG };
    EtlRecord r = { 0 };

    r.kind = ETL_RECORD_KIND_CLASSIC;
    r.header_type = ETL_HEADER_TYPE_FULL_HEADER64;
    r.user_data = size > 0 ? copy : NULL;
    r.user_data_len = size;
    for (guint i = 0; i < G_N_ELEMENTS (opcodes); i++)
      {
        EtlDecoded *d;

        r.opcode = opcodes[i];
        r.provider = i < 2 ? etl_tdh_metadata_guid : etl_winsat_guid;
        d = i < 2 ? etl_tdh_decode_record (&r) : etl_winsat_decode_record (&r);
        g_assert (d != NULL);
        g_assert (d->n_bytes <= size);
        for (guint f = 0; f < d->fields->len; f++)
          g_assert (g_utf8_validate (g_array_index (d->fields, EtlField, f).value, -1, NULL));
        etl_decoded_free (d);
      }
  }
  return 0;
}
