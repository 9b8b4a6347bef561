/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-manifest: bytes → etl_manifest_load_data (GMarkup parse, templates,
 * structs, count/length references, maps, string tables) → the schemas'
 * display names; the same bytes as one EventSource manifest chunk (the
 * first 8 bytes as its envelope, and behind a valid envelope) through the
 * collector.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-manifest.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static void
feed_chunk (EtlEventSourceCollector *c, const guint8 *bytes, gsize len)
{
  EtlRecord r;
  GError *error = NULL;

  memset (&r, 0, sizeof r);
  r.header_type = ETL_HEADER_TYPE_EVENT_HEADER64;
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.has_pid = 1;
  r.pid = 42;
  r.event_id = ETL_EVENTSOURCE_MANIFEST_EVENT_ID;
  r.opcode = ETL_EVENTSOURCE_MANIFEST_OPCODE;
  r.user_data = len > 0 ? bytes : NULL;
  r.user_data_len = len;
  if (!etl_eventsource_collector_add (c, &r, &error))
    g_clear_error (&error);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  /* Copy into an exactly-sized buffer so any overread is caught. */
  g_autofree guint8 *copy = g_memdup2 (data, size);
  g_autoptr (EtlSchemaRegistry) registry = etl_schema_registry_new ();
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  GError *error = NULL;

  if (etl_manifest_load_data (registry, (const char *) copy, (gssize) size, ETL_SCHEMA_SOURCE_MANIFEST, 0, 0,
                              "fuzz.man", &info, &error))
    g_assert (info.warnings->len <= ETL_MANIFEST_MAX_WARNINGS);
  else
    g_assert (error != NULL && error->message != NULL);
  g_clear_error (&error);
  etl_manifest_info_clear (&info);

  {
    g_autoptr (EtlEventSourceCollector) c = etl_eventsource_collector_new (registry);
    g_autofree guint8 *chunk = g_malloc (size + 8);
    static const guint8 envelope[8] = { 1, 1, 0, 0x5B, 1, 0, 0, 0 };

    feed_chunk (c, copy, size);
    memcpy (chunk, envelope, 8);
    if (size > 0) /* g_memdup2 () of nothing is NULL */
      memcpy (chunk + 8, copy, size);
    feed_chunk (c, chunk, size + 8);
    etl_eventsource_collector_finish (c, NULL);
  }
  return 0;
}
