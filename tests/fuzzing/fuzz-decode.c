/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-decode: a schema and a payload → etl_decode_record.  Input: u8 mode,
 * u16 metadata length (LE), the metadata, then the payload.  Mode bits 0–1
 * choose the record's header (EVENT_HEADER64, EVENT_HEADER64 with
 * 32_BIT_HEADER, SYSTEM32, EVENT_HEADER32: both pointer sizes); bit 2 says
 * the metadata is TraceLogging's EVENT_SCHEMA_TL instead of a
 * TRACE_EVENT_INFO.  Every map name the schema uses gets a value map or a
 * bitmap, and a volume map is given, so every formatting path is reachable.
 * The payload also goes, whatever the metadata, through the in-place
 * readers of the built-in spans (etl-span-payloads.c: GC, DiskIo, FileIo
 * and Thread layouts at every version and both pointer sizes) and as each
 * kind of record to their pairing (etl-builtin-spans.c), mode bits 3–7
 * choosing the version.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-builtin-spans-private.h"
#include "etl-decode.h"
#include "etl-span-payloads.h"
#include "etl-tdh.h"
#include "etl-tracelogging.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* The built-in spans' readers and pairing on @payload. */
static void
fuzz_spans (const guint8 *payload, gsize len, guint mode)
{
  static const guint8 disk_ops[] = { 10, 11, 12, 13, 14, 15 };
  guint8 version = (guint8) (mode >> 3);
  guint psize = (mode & 1) ? 4 : 8;
  EtlSpansBuilder *b = etl_spans_builder_new (ETL_BUILTIN_KINDS_ALL);
  EtlSpanRecord r;
  EtlGcStart gs;
  EtlGcEnd ge;
  EtlGcSuspend su;
  EtlDiskIo d;
  EtlFileIo f;
  guint32 pid, tid;
  guint64 rec = 0;

  (void) etl_gc_start_read (payload, len, version, &gs);
  (void) etl_gc_end_read (payload, len, version, &ge);
  (void) etl_gc_suspend_read (payload, len, version, &su);
  for (guint k = 0; k < G_N_ELEMENTS (disk_ops); k++)
    (void) etl_diskio_read (payload, len, disk_ops[k], version, psize, &d);
  for (guint op = 64; op <= 77; op++)
    {
      (void) etl_fileio_read (payload, len, (guint8) op, version, psize, &f);
      g_free (f.open_path);
    }
  (void) etl_thread_ids_read (payload, len, version, &pid, &tid);

  memset (&r, 0, sizeof r);
  r.has_pid = TRUE;
  r.pid = 100;
  r.tid = 101;
  r.version = version;
  r.pointer_size = psize;
  r.payload = payload;
  r.len = len;
  r.clock_freq = 10000000;
  r.issuing_pid = 100;
  r.process_id = 100;
  r.image = "x.exe";
  for (guint round = 0; round < 2; round++)
    {
      static const guint16 clr_ids[] = { 9, 1, 1, 2, 3 };

      for (guint k = 0; k < G_N_ELEMENTS (clr_ids); k++)
        {
          r.record = rec++;
          r.filetime = (gint64) (len * 7 % 13) - (gint64) k; /* out of order too */
          r.cls = ETL_SPAN_CLASS_CLR;
          r.event_id = clr_ids[k];
          etl_spans_builder_add (b, &r);
        }
      for (guint k = 0; k < G_N_ELEMENTS (disk_ops); k++)
        {
          r.record = rec++;
          r.cls = ETL_SPAN_CLASS_DISKIO;
          r.opcode = disk_ops[k];
          etl_spans_builder_add (b, &r);
        }
      for (guint op = 64; op <= 77; op++)
        {
          r.record = rec++;
          r.cls = ETL_SPAN_CLASS_FILEIO;
          r.opcode = (guint8) op;
          etl_spans_builder_add (b, &r);
        }
      for (guint op = 1; op <= 4; op++)
        {
          r.record = rec++;
          r.cls = ETL_SPAN_CLASS_PROCESS;
          r.opcode = (guint8) op;
          etl_spans_builder_add (b, &r);
          r.cls = ETL_SPAN_CLASS_THREAD;
          etl_spans_builder_add (b, &r);
        }
    }
  {
    g_autoptr (EtlBuiltinSpans) spans = etl_spans_builder_finish (b, 1000);
    g_autoptr (GArray) stats = etl_builtin_spans_compute_stats (spans);
    guint n;
    const EtlBuiltinSpan *s = etl_builtin_spans_get (spans, &n);

    for (guint i = 0; i < n; i++)
      {
        g_assert (s[i].stop >= s[i].start);
        g_assert (s[i].parent == ETL_BUILTIN_NONE || s[i].parent < i);
      }
  }
}

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
  fuzz_spans (payload, payload_len, mode);

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
