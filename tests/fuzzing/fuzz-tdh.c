/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-tdh: bytes → etl_tdh_parse_event_info (TRACE_EVENT_INFO) and
 * etl_tdh_parse_map_info (provider GUID + EVENT_MAP_INFO) → a registry
 * (maps resolved into schemas) → names and map formatting.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-tdh.h"

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
  return 0;
}
