/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-record: bytes → etl_record_decode (every header type, EVENT_HEADER
 * extended data items) → TraceLogging metadata (PROV_TRAITS, EVENT_SCHEMA_TL)
 * and names.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-names.h"
#include "etl-record-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* Copy into an exactly-sized buffer so any overread is caught. */
  g_autofree guint8 *copy = g_memdup2 (data, size);
  EtlRecord r;
  const guint8 *item;
  gsize item_len;

  if (etl_record_decode (copy, size, &r, NULL))
    {
      g_assert (r.size <= size);
      g_free (etl_record_dup_provider_name (&r));
      g_free (etl_record_dup_event_name (&r));
      if (etl_record_find_ext_item (&r, ETL_EXT_TYPE_EVENT_SCHEMA_TL, &item, &item_len))
        {
          g_free (etl_tracelogging_event_name (item, item_len));
          g_strfreev (etl_tracelogging_field_names (item, item_len));
        }
      if (etl_record_find_ext_item (&r, ETL_EXT_TYPE_PROV_TRAITS, &item, &item_len))
        g_free (etl_tracelogging_provider_name (item, item_len));
    }

  /* The metadata decoders on raw bytes too. */
  g_free (etl_tracelogging_provider_name (copy, size));
  g_free (etl_tracelogging_event_name (copy, size));
  g_strfreev (etl_tracelogging_field_names (copy, size));
  return 0;
}
