/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-tdh.c: TRACE_EVENT_INFO and EVENT_MAP_INFO blobs (KernelTraceControl
 * MetaData records) into schemas and maps: hand-made blobs, the real ones of
 * net.4.5.2.x64.etl decoding GC events as TraceEvent's baseline shows them,
 * and hostile blobs (every truncation, byte flips, bad offsets and counts);
 * and the MetaData records themselves as events (etl_tdh_decode_record()).
 */
#include "config.h"

#include <string.h>

#include "etl-decode.h"
#include "etl-error.h"
#include "etl-tdh.h"
#include "etl-test-trace.h"
#include "etl-trace.h"

static const EtlGuid clr_guid
    = { 0xe13c0d23, 0xccbc, 0x4e12, { 0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 } };

/* ---- building blobs --------------------------------------------------- */

static void
put_u16 (GByteArray *b, gsize at, guint16 v)
{
  b->data[at] = v & 0xFF;
  b->data[at + 1] = v >> 8;
}

static void
put_u32 (GByteArray *b, gsize at, guint32 v)
{
  for (guint i = 0; i < 4; i++)
    b->data[at + i] = (v >> (8 * i)) & 0xFF;
}

static void
put_guid (GByteArray *b, gsize at, const EtlGuid *g)
{
  put_u32 (b, at, g->data1);
  put_u16 (b, at + 4, g->data2);
  put_u16 (b, at + 6, g->data3);
  memcpy (b->data + at + 8, g->data4, 8);
}

/* Appends a UTF-16LE string (ASCII only here); returns its offset. */
static guint32
add_string (GByteArray *b, const char *s)
{
  guint32 at = b->len;

  for (const char *p = s; *p; p++)
    {
      guint8 u[2] = { (guint8)*p, 0 };
      g_byte_array_append (b, u, 2);
    }
  g_byte_array_append (b, (const guint8 *)"\0\0", 2);
  return at;
}

typedef struct
{
  const char *name;
  guint32 flags;
  guint16 in_or_start;
  guint16 out_or_members;
  const char *map;
  guint16 count;
  guint16 length;
} Prop;

/* A TRACE_EVENT_INFO: GC/Start-like, id 1 version 1, with @props. */
static GByteArray *
build_event_info (const Prop *props, guint n, guint n_top)
{
  GByteArray *b = g_byte_array_new ();
  guint32 off;

  g_byte_array_set_size (b, 112 + 24 * n);
  memset (b->data, 0, b->len);
  put_guid (b, 0, &clr_guid);
  put_u16 (b, 32, 1);   /* Id */
  b->data[34] = 1;      /* Version */
  b->data[36] = 4;      /* Level */
  b->data[37] = 1;      /* Opcode */
  put_u16 (b, 38, 1);   /* Task */
  put_u32 (b, 40, 0x1); /* Keyword (low half) */
  put_u32 (b, 100, n);
  put_u32 (b, 104, n_top);
  off = add_string (b, "Microsoft-Windows-DotNETRuntime");
  put_u32 (b, 52, off);
  off = add_string (b, "win:Informational");
  put_u32 (b, 56, off);
  off = add_string (b, "GCKeyword ");
  add_string (b, "Other");
  add_string (b, "");
  put_u32 (b, 64, off);
  off = add_string (b, "GC ");
  put_u32 (b, 68, off);
  off = add_string (b, "win:Start");
  put_u32 (b, 72, off);
  for (guint i = 0; i < n; i++)
    {
      gsize at = 112 + 24 * i;

      put_u32 (b, at, props[i].flags);
      off = add_string (b, props[i].name);
      put_u32 (b, at + 4, off);
      put_u16 (b, at + 8, props[i].in_or_start);
      put_u16 (b, at + 10, props[i].out_or_members);
      if (props[i].map != NULL)
        {
          off = add_string (b, props[i].map);
          put_u32 (b, at + 12, off);
        }
      put_u16 (b, at + 16, props[i].count);
      put_u16 (b, at + 18, props[i].length);
    }
  return b;
}

/* A provider GUID then an EVENT_MAP_INFO (offsets from byte 16). */
static GByteArray *
build_map_info (const char *name, guint32 flag, const guint32 *values, const char *const *names,
                guint n)
{
  GByteArray *b = g_byte_array_new ();
  g_autoptr (GByteArray) m = g_byte_array_new ();
  guint32 off;

  g_byte_array_set_size (m, 16 + 8 * n);
  memset (m->data, 0, m->len);
  off = add_string (m, name);
  put_u32 (m, 0, off);
  put_u32 (m, 4, flag);
  put_u32 (m, 8, n);
  for (guint i = 0; i < n; i++)
    {
      off = add_string (m, names[i]);
      put_u32 (m, 16 + 8 * i, off);
      put_u32 (m, 16 + 8 * i + 4, values[i]);
    }
  g_byte_array_set_size (b, 16);
  put_guid (b, 0, &clr_guid);
  g_byte_array_append (b, m->data, m->len);
  return b;
}

static const Prop gc_start_props[] = {
  { "Count", 0, ETL_IN_UINT32, ETL_OUT_NULL, NULL, 1, 4 },
  { "Depth", 0, ETL_IN_UINT32, ETL_OUT_NULL, NULL, 1, 4 },
  { "Reason", 0, ETL_IN_UINT32, ETL_OUT_NULL, "GCReasonMap", 1, 4 },
  { "Type", 0, ETL_IN_UINT32, ETL_OUT_NULL, "GCTypeMap", 1, 4 },
  { "ClrInstanceID", 0, ETL_IN_UINT16, ETL_OUT_NULL, NULL, 1, 2 },
};

/* ---- hand-made blobs -------------------------------------------------- */

static void
test_event_info (void)
{
  g_autoptr (GByteArray) b = build_event_info (gc_start_props, 5, 5);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchema) s = etl_tdh_parse_event_info (b->data, b->len, &error);
  g_autofree char *name = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (s);
  g_assert_cmpint (s->key.kind, ==, ETL_SCHEMA_KEY_EVENT_ID);
  g_assert_cmpuint (s->key.id, ==, 1);
  g_assert_cmpuint (s->key.version, ==, 1);
  g_assert_true (etl_guid_equal (&s->key.guid, &clr_guid));
  g_assert_cmpint (s->source, ==, ETL_SCHEMA_SOURCE_TDH);
  g_assert_cmpstr (s->provider_name, ==, "Microsoft-Windows-DotNETRuntime");
  g_assert_cmpstr (s->task_name, ==, "GC");
  g_assert_cmpstr (s->opcode_name, ==, "Start");
  g_assert_cmpstr (s->level_name, ==, "Informational");
  g_assert_null (s->event_name);
  g_assert_nonnull (s->keyword_names);
  g_assert_cmpstr (s->keyword_names[0], ==, "GCKeyword");
  g_assert_cmpstr (s->keyword_names[1], ==, "Other");
  g_assert_null (s->keyword_names[2]);
  g_assert_cmpuint (s->level, ==, 4);
  g_assert_cmpuint (s->opcode, ==, 1);
  g_assert_cmpuint (s->task, ==, 1);
  g_assert_cmpuint (s->n_properties, ==, 5);
  g_assert_cmpuint (s->n_top_level, ==, 5);
  g_assert_cmpstr (s->properties[2].name, ==, "Reason");
  g_assert_cmpstr (s->properties[2].map_name, ==, "GCReasonMap");
  g_assert_null (s->properties[0].map_name);
  g_assert_cmpint (s->properties[4].in_type, ==, ETL_IN_UINT16);
  name = etl_schema_dup_display_name (s);
  g_assert_cmpstr (name, ==, "GC/Start");
}

static void
test_map_info (void)
{
  static const guint32 values[] = { 0, 1, 4 };
  static const char *const names[] = { "AllocSmall ", "Induced", "AllocLarge" };
  g_autoptr (GByteArray) b = build_map_info ("GCReasonMap", 1, values, names, 3);
  g_autoptr (GByteArray) bits = build_map_info ("Flags", 2, values, names, 3);
  g_autoptr (GError) error = NULL;
  EtlGuid provider;
  g_autoptr (EtlMap) map = etl_tdh_parse_map_info (b->data, b->len, &provider, &error);
  g_autoptr (EtlMap) bitmap = NULL;
  g_autofree char *v = NULL;

  g_assert_no_error (error);
  g_assert_true (etl_guid_equal (&provider, &clr_guid));
  g_assert_cmpstr (map->name, ==, "GCReasonMap");
  g_assert_false (map->is_bitmap);
  g_assert_cmpuint (map->n_entries, ==, 3);
  g_assert_cmpstr (map->entries[0].name, ==, "AllocSmall");
  g_assert_cmpuint (map->entries[2].value, ==, 4);

  bitmap = etl_tdh_parse_map_info (bits->data, bits->len, &provider, &error);
  g_assert_no_error (error);
  g_assert_true (bitmap->is_bitmap);
  v = etl_map_format (bitmap, 0x15);
  g_assert_cmpstr (v, ==, "Induced|AllocLarge|0x10");
}

/* A schema registered through a MetaData record, its maps resolved. */
static void
test_register_record (void)
{
  g_autoptr (GByteArray) info = build_event_info (gc_start_props, 5, 5);
  static const guint32 values[] = { 0, 1 };
  static const char *const reason_names[] = { "AllocSmall", "Induced" };
  static const char *const type_names[] = { "NonConcurrentGC", "BackgroundGC" };
  g_autoptr (GByteArray) reasons = build_map_info ("GCReasonMap", 1, values, reason_names, 2);
  g_autoptr (GByteArray) types = build_map_info ("GCTypeMap", 1, values, type_names, 2);
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  static const guint8 payload[] = { 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlDecoded) d = NULL;
  g_autofree char *rest = NULL;
  EtlRecord r;

  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_CLASSIC;
  r.header_type = ETL_HEADER_TYPE_FULL_HEADER64;
  r.provider = etl_tdh_metadata_guid;
  r.opcode = ETL_TDH_OPCODE_EVENT_MAP_INFO;
  r.user_data = reasons->data;
  r.user_data_len = reasons->len;
  g_assert_true (etl_tdh_is_metadata_record (&r));
  g_assert_true (etl_tdh_register_record (reg, &r, &error));
  r.opcode = ETL_TDH_OPCODE_EVENT_INFO;
  r.user_data = info->data;
  r.user_data_len = info->len;
  g_assert_true (etl_tdh_register_record (reg, &r, &error));
  r.opcode = ETL_TDH_OPCODE_EVENT_MAP_INFO;
  r.user_data = types->data;
  r.user_data_len = types->len;
  g_assert_true (etl_tdh_register_record (reg, &r, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_TDH), ==, 1);

  /* A malformed one: FALSE with the file offset and the reason. */
  r.opcode = ETL_TDH_OPCODE_EVENT_INFO;
  r.user_data_len = 50;
  r.file_offset = 4096;
  g_assert_false (etl_tdh_register_record (reg, &r, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "4096"));
  g_assert_nonnull (strstr (error->message, "112-byte header"));
  g_clear_error (&error);

  /* Other records are left alone. */
  r.provider = clr_guid;
  g_assert_false (etl_tdh_is_metadata_record (&r));
  g_assert_true (etl_tdh_register_record (reg, &r, &error));

  memset (&r, 0, sizeof r);
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.header_type = ETL_HEADER_TYPE_EVENT_HEADER64;
  r.provider = clr_guid;
  r.event_id = 1;
  r.version = 1;
  r.user_data = payload;
  r.user_data_len = sizeof payload;
  d = etl_decode_record (reg, NULL, &r);
  g_assert_nonnull (d->schema);
  g_assert_true (d->complete);
  rest = etl_decoded_format_payload (d, 200);
  g_assert_cmpstr (rest, ==,
                   "Count=1 Depth=0 Reason=AllocSmall Type=NonConcurrentGC ClrInstanceID=9");
}

/* ---- hostile blobs ---------------------------------------------------- */

static void
expect_error (const GByteArray *b, const char *offset_text)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchema) s = etl_tdh_parse_event_info (b->data, b->len, &error);

  g_assert_null (s);
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, offset_text));
}

static void
test_hostile_event_info (void)
{
  static const Prop struct_props[] = {
    { "N", 0, ETL_IN_UINT16, ETL_OUT_NULL, NULL, 1, 0 },
    { "S", ETL_PROPERTY_STRUCT, 2, 1, NULL, 1, 0 },
    { "M", 0, ETL_IN_UINT8, ETL_OUT_NULL, NULL, 1, 0 },
  };
  g_autoptr (GByteArray) good = build_event_info (gc_start_props, 5, 5);
  g_autoptr (GByteArray) b = NULL;

  /* PropertyCount huge / past the end. */
  b = build_event_info (gc_start_props, 5, 5);
  put_u32 (b, 100, 0x7fffffff);
  expect_error (b, "offset 100");
  put_u32 (b, 100, 1000);
  expect_error (b, "offset 112");
  put_u32 (b, 100, 5);
  put_u32 (b, 104, 6);
  expect_error (b, "offset 104");
  g_clear_pointer (&b, g_byte_array_unref);

  /* Name offsets outside the blob. */
  b = build_event_info (gc_start_props, 5, 5);
  put_u32 (b, 52, b->len + 10);
  expect_error (b, "offset 52");
  g_clear_pointer (&b, g_byte_array_unref);
  b = build_event_info (gc_start_props, 5, 5);
  put_u32 (b, 112 + 24 + 4, 0xfffffff0);
  expect_error (b, "offset 140");
  g_clear_pointer (&b, g_byte_array_unref);
  /* An unterminated string at the very end. */
  b = build_event_info (gc_start_props, 5, 5);
  g_byte_array_append (b, (const guint8 *)"A\0B", 3);
  put_u32 (b, 68, b->len - 3);
  expect_error (b, "offset 68");
  g_clear_pointer (&b, g_byte_array_unref);

  /* Count and length properties must be earlier ones. */
  b = build_event_info (gc_start_props, 5, 5);
  put_u32 (b, 112, ETL_PROPERTY_PARAM_COUNT);
  put_u16 (b, 112 + 16, 3);
  expect_error (b, "offset 128");
  g_clear_pointer (&b, g_byte_array_unref);
  b = build_event_info (gc_start_props, 5, 5);
  put_u32 (b, 112 + 48, ETL_PROPERTY_PARAM_LENGTH);
  put_u16 (b, 112 + 48 + 18, 2);
  expect_error (b, "offset 178");
  g_clear_pointer (&b, g_byte_array_unref);

  /* Structs: members must follow the struct and lie in the array. */
  b = build_event_info (struct_props, 3, 2);
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (EtlSchema) s = etl_tdh_parse_event_info (b->data, b->len, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (s->properties[1].struct_start, ==, 2);
  }
  put_u16 (b, 112 + 24 + 8, 1);
  expect_error (b, "offset 144");
  put_u16 (b, 112 + 24 + 8, 2);
  put_u16 (b, 112 + 24 + 10, 5);
  expect_error (b, "offset 144");
  g_clear_pointer (&b, g_byte_array_unref);

  /* Every truncation: an error or a schema, never a crash or overread. */
  for (gsize len = 0; len < good->len; len++)
    {
      g_autofree guint8 *copy = g_memdup2 (good->data, len);
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlSchema) s = etl_tdh_parse_event_info (copy, len, &error);

      g_assert_true ((s == NULL) != (error == NULL));
    }

  /* Byte flips at every offset. */
  for (gsize at = 0; at < good->len; at++)
    for (guint v = 0; v < 3; v++)
      {
        g_autofree guint8 *copy = g_memdup2 (good->data, good->len);
        g_autoptr (GError) error = NULL;
        g_autoptr (EtlSchema) s = NULL;
        static const guint8 flips[] = { 0xff, 0x80, 0x01 };

        copy[at] ^= flips[v];
        s = etl_tdh_parse_event_info (copy, good->len, &error);
        g_assert_true ((s == NULL) != (error == NULL));
      }
}

static void
test_hostile_map_info (void)
{
  static const guint32 values[] = { 0, 1 };
  static const char *const names[] = { "A", "B" };
  g_autoptr (GByteArray) good = build_map_info ("M", 1, values, names, 2);
  EtlGuid provider;

  for (gsize len = 0; len < good->len; len++)
    {
      g_autofree guint8 *copy = g_memdup2 (good->data, len);
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlMap) map = etl_tdh_parse_map_info (copy, len, &provider, &error);

      g_assert_true ((map == NULL) != (error == NULL));
    }

  {
    g_autofree guint8 *copy = g_memdup2 (good->data, good->len);
    g_autoptr (GError) error = NULL;
    g_autoptr (EtlMap) map = NULL;

    /* EntryCount past the end. */
    copy[16 + 8] = 0xff;
    copy[16 + 9] = 0xff;
    map = etl_tdh_parse_map_info (copy, good->len, &provider, &error);
    g_assert_null (map);
    g_assert_nonnull (strstr (error->message, "offset 24"));
    g_clear_error (&error);

    /* Pattern maps and string-keyed maps are refused. */
    copy[16 + 8] = 2;
    copy[16 + 9] = 0;
    copy[16 + 4] = 4;
    map = etl_tdh_parse_map_info (copy, good->len, &provider, &error);
    g_assert_null (map);
    g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
    g_clear_error (&error);
    copy[16 + 4] = 1;
    copy[16 + 12] = 1;
    map = etl_tdh_parse_map_info (copy, good->len, &provider, &error);
    g_assert_null (map);
    g_clear_error (&error);

    /* An entry name outside the blob. */
    copy[16 + 12] = 0;
    copy[16 + 16 + 3] = 0x7f;
    map = etl_tdh_parse_map_info (copy, good->len, &provider, &error);
    g_assert_null (map);
    g_assert_nonnull (strstr (error->message, "offset 32"));
  }
}

/* ---- net.4.5.2.x64.etl ------------------------------------------------ */

typedef struct
{
  EtlTrace *trace;
  EtlSchemaRegistry *registry;
  guint n_event_info;
  guint n_map_info;
} Corpus;

static gboolean
corpus_open (Corpus *c)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (GError) error = NULL;

  memset (c, 0, sizeof *c);
  if (path == NULL)
    return FALSE;
  c->trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  c->registry = etl_schema_registry_new ();
  for (guint64 i = 0; i < etl_trace_get_n_records (c->trace); i++)
    {
      EtlRecord r;

      g_assert_true (etl_trace_get_record (c->trace, i, &r, NULL));
      if (etl_tdh_is_metadata_record (&r))
        {
          if (r.opcode == ETL_TDH_OPCODE_EVENT_INFO)
            c->n_event_info++;
          else
            c->n_map_info++;
          g_assert_true (etl_tdh_register_record (c->registry, &r, &error));
          g_assert_no_error (error);
        }
      etl_record_clear (&r);
    }
  return TRUE;
}

static void
corpus_close (Corpus *c)
{
  g_clear_pointer (&c->registry, etl_schema_registry_unref);
  g_clear_pointer (&c->trace, etl_trace_unref);
}

/* Field value from a baseline line's "Name=value; " list. */
static char *
baseline_value (const char *line, const char *name)
{
  g_autofree char *needle = g_strdup_printf ("; %s=", name);
  const char *p = strstr (line, needle), *end;

  if (p == NULL)
    return NULL;
  p += strlen (needle);
  end = strchr (p, ';');
  return g_strndup (p, end != NULL ? (gsize)(end - p) : strlen (p));
}

static void
test_corpus_counts (void)
{
  Corpus c;

  if (!corpus_open (&c))
    return;
  g_test_message ("EventInfo records %u, EventMapInfo records %u, TDH schemas %u", c.n_event_info,
                  c.n_map_info,
                  etl_schema_registry_get_n_schemas (c.registry, ETL_SCHEMA_SOURCE_TDH));
  g_assert_cmpuint (c.n_event_info, ==, 61);
  g_assert_cmpuint (c.n_map_info, ==, 24);
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (c.registry, ETL_SCHEMA_SOURCE_TDH), ==, 61);
  corpus_close (&c);
}

/* GC/Start and GC/AllocationTick of net.4.5.2.x64.etl as TraceEvent shows
 * them: the first five of each (the baseline lists at most five). */
static void
test_corpus_gc_events (void)
{
  static const char *const gc_start_fields[]
      = { "Count", "Reason", "Depth", "Type", "ClrInstanceID" };
  static const char *const tick_fields[]
      = { "AllocationKind", "ClrInstanceID", "TypeName", "HeapIndex" };
  g_autofree char *baseline_path = etl_test_corpus_path ("net.4.5.2.x64.baseline.txt");
  g_autofree char *text = NULL;
  g_auto (GStrv) lines = NULL;
  GPtrArray *expected[2];
  guint seen[2] = { 0, 0 };
  Corpus c;

  if (baseline_path == NULL || !corpus_open (&c))
    return;
  g_assert_true (g_file_get_contents (baseline_path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  expected[0] = g_ptr_array_new ();
  expected[1] = g_ptr_array_new ();
  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strstr (lines[i], "Microsoft-Windows-DotNETRuntime/GC/Start ") != NULL)
        g_ptr_array_add (expected[0], lines[i]);
      else if (strstr (lines[i], "Microsoft-Windows-DotNETRuntime/GC/AllocationTick ") != NULL)
        g_ptr_array_add (expected[1], lines[i]);
    }
  g_assert_cmpuint (expected[0]->len, ==, 5);
  g_assert_cmpuint (expected[1]->len, ==, 5);

  for (guint64 i = 0; i < etl_trace_get_n_records (c.trace) && (seen[0] < 5 || seen[1] < 5); i++)
    {
      EtlRecord r;
      guint which;
      g_autoptr (EtlDecoded) d = NULL;
      const char *line;
      g_autofree char *datalen = NULL;
      g_autofree char *want_len = NULL;

      g_assert_true (etl_trace_get_record (c.trace, i, &r, NULL));
      if (r.kind != ETL_RECORD_KIND_MANIFEST || !etl_guid_equal (&r.provider, &clr_guid)
          || (r.event_id != 1 && r.event_id != 10))
        {
          etl_record_clear (&r);
          continue;
        }
      which = r.event_id == 1 ? 0 : 1;
      if (seen[which] >= 5)
        {
          etl_record_clear (&r);
          continue;
        }
      line = g_ptr_array_index (expected[which], seen[which]);
      seen[which]++;
      d = etl_decode_record (c.registry, NULL, &r);
      g_assert_nonnull (d->schema);
      g_assert_cmpint (d->schema->source, ==, ETL_SCHEMA_SOURCE_TDH);
      g_assert_cmpstr (d->schema->provider_name, ==, "Microsoft-Windows-DotNETRuntime");
      g_assert_true (d->complete);
      want_len = g_strdup_printf ("DataLen=%" G_GSIZE_FORMAT ";", r.user_data_len);
      g_assert_nonnull (strstr (line, want_len));
      if (which == 0)
        {
          g_autofree char *name = etl_decode_dup_event_name (c.registry, &r);

          g_assert_cmpstr (name, ==, "GarbageCollection/Start");
          for (guint k = 0; k < G_N_ELEMENTS (gc_start_fields); k++)
            {
              g_autofree char *want = baseline_value (line, gc_start_fields[k]);
              const EtlField *f = etl_decoded_find (d, gc_start_fields[k]);

              g_assert_nonnull (f);
              g_assert_cmpstr (f->value, ==, want);
            }
        }
      else
        for (guint k = 0; k < G_N_ELEMENTS (tick_fields); k++)
          {
            g_autofree char *want = baseline_value (line, tick_fields[k]);
            const EtlField *f = etl_decoded_find (d, tick_fields[k]);

            g_assert_nonnull (f);
            /* The baseline cuts long values to 20 characters and "...". */
            if (g_str_has_suffix (want, "..."))
              {
                g_autofree char *prefix = g_strndup (want, strlen (want) - 3);

                g_assert_true (g_str_has_prefix (f->value, prefix));
              }
            else
              g_assert_cmpstr (f->value, ==, want);
          }
      etl_record_clear (&r);
    }
  g_assert_cmpuint (seen[0], ==, 5);
  g_assert_cmpuint (seen[1], ==, 5);
  g_ptr_array_unref (expected[0]);
  g_ptr_array_unref (expected[1]);
  corpus_close (&c);
}

/* Every record the TDH schemas describe decodes completely, and the
 * CLRStackWalk quirk holds for all of them (8 bytes + FrameCount pointers). */
static void
test_corpus_decode_all (void)
{
  guint64 n_described = 0, n_complete = 0, n_stack = 0;
  Corpus c;

  if (!corpus_open (&c))
    return;
  for (guint64 i = 0; i < etl_trace_get_n_records (c.trace); i++)
    {
      EtlRecord r;
      g_autoptr (EtlDecoded) d = NULL;

      g_assert_true (etl_trace_get_record (c.trace, i, &r, NULL));
      d = etl_decode_record (c.registry, NULL, &r);
      if (d->schema != NULL && d->schema->source == ETL_SCHEMA_SOURCE_TDH)
        {
          n_described++;
          if (d->complete)
            n_complete++;
          if (g_strcmp0 (d->schema->opcode_name, "CLRStackWalk") == 0)
            {
              const EtlField *fc = etl_decoded_find (d, "FrameCount");
              guint ptr = (r.flags & ETL_EVENT_HEADER_FLAG_32_BIT_HEADER)
                                  || r.header_type == ETL_HEADER_TYPE_EVENT_HEADER32
                              ? 4
                              : 8;

              g_assert_nonnull (fc);
              g_assert_cmpuint (r.user_data_len, ==, 8 + fc->number * ptr);
              n_stack++;
            }
        }
      etl_record_clear (&r);
    }
  g_test_message ("TDH-described records %" G_GUINT64_FORMAT ", complete %" G_GUINT64_FORMAT
                  ", CLRStackWalk %" G_GUINT64_FORMAT,
                  n_described, n_complete, n_stack);
  g_assert_cmpuint (n_described, >, 60000);
  g_assert_cmpuint (n_stack, >, 10000);
  /* All but a handful decode to the last byte. */
  g_assert_cmpuint (n_complete, >=, n_described - 10);
  corpus_close (&c);
}

static const char *
field (const EtlDecoded *d, const char *name)
{
  const EtlField *f = etl_decoded_find (d, name);

  return f != NULL ? f->value : NULL;
}

/* The MetaData records of net.4.5.2.x64.etl as events (etl_tdh_decode_record()
 * through etl_decode_record(), no registry needed): every one complete, in
 * FULL_HEADER32 and FULL_HEADER64 records alike; GC/Start v1 (a 64-bit
 * record), GCAllocationTick v3 and GCAllocationKindMap (32-bit records) and
 * GCTypeMap (64-bit) field by field.  A blob cut short keeps its header
 * fields, incomplete. */
static void
test_corpus_records_as_events (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  guint n[2][2] = { { 0 } }; /* [EventInfo, EventMapInfo][FULL_HEADER32, FULL_HEADER64] */
  guint checked = 0;

  if (trace == NULL)
    return;
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) d = NULL;
      gboolean is_64;
      const char *name;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (!etl_tdh_is_metadata_record (&r))
        continue;
      is_64 = r.header_type == 20;
      g_assert_true (is_64 || r.header_type == 10);
      n[r.opcode == ETL_TDH_OPCODE_EVENT_INFO ? 0 : 1][is_64]++;
      d = etl_decode_record (NULL, NULL, &r);
      g_assert_nonnull (d->schema);
      g_assert_cmpint (d->schema->source, ==, ETL_SCHEMA_SOURCE_BUILTIN);
      g_assert_true (d->complete);
      g_assert_cmpuint (d->n_bytes, ==, r.user_data_len);
      g_assert_cmpstr (field (d, "ProviderGuid"), !=, NULL);
      {
        g_autofree char *display = etl_schema_dup_display_name (d->schema);

        g_assert_cmpstr (display, ==, r.opcode == ETL_TDH_OPCODE_EVENT_INFO ? "MetaData/EventInfo"
                                                                             : "MetaData/EventMapInfo");
      }
      name = field (d, r.opcode == ETL_TDH_OPCODE_EVENT_INFO ? "EventName" : "MapName");
      g_assert_nonnull (name);
      if (is_64 && g_strcmp0 (name, "GarbageCollection/Start") == 0 && g_strcmp0 (field (d, "Version"), "1") == 0)
        {
          g_assert_cmpstr (field (d, "ProviderName"), ==, "Microsoft-Windows-DotNETRuntime");
          g_assert_cmpstr (field (d, "ProviderGuid"), ==, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
          g_assert_cmpstr (field (d, "EventId"), ==, "1");
          g_assert_cmpstr (field (d, "Task"), ==, "1");
          g_assert_cmpstr (field (d, "TaskName"), ==, "GarbageCollection");
          g_assert_cmpstr (field (d, "Opcode"), ==, "1");
          g_assert_cmpstr (field (d, "OpcodeName"), ==, "Start");
          g_assert_cmpstr (field (d, "Level"), ==, "4");
          g_assert_cmpstr (field (d, "LevelName"), ==, "Informational");
          g_assert_cmpstr (field (d, "Keyword"), ==, "0x00000001");
          g_assert_cmpstr (field (d, "KeywordNames"), ==, "GCKeyword");
          g_assert_cmpstr (field (d, "PropertyCount"), ==, "5");
          g_assert_cmpstr (field (d, "TopLevelPropertyCount"), ==, "5");
          g_assert_cmpstr (field (d, "Properties"), ==, "Count, Depth, Reason, Type, ClrInstanceID");
          g_assert_cmpstr (field (d, "DecodingSource"), ==, "DecodingSourceXMLFile");
          g_assert_cmpstr (field (d, "EventGuid"), ==, "044973cd-251f-4dff-a3e9-9d6307286b05");
          checked |= 1;

          /* Cut short: the property array runs past the end; the header stays. */
          {
            EtlRecord cut = r;
            g_autoptr (EtlDecoded) c = NULL;

            cut.user_data_len = 120;
            c = etl_decode_record (NULL, NULL, &cut);
            g_assert_false (c->complete);
            g_assert_cmpuint (c->n_bytes, ==, 112);
            g_assert_cmpstr (field (c, "EventId"), ==, "1");
            g_assert_cmpstr (field (c, "PropertyCount"), ==, "5");
            g_assert_null (field (c, "ProviderName"));
            cut.user_data_len = 100;
            g_clear_pointer (&c, etl_decoded_free);
            c = etl_decode_record (NULL, NULL, &cut);
            g_assert_false (c->complete);
            g_assert_cmpuint (c->fields->len, ==, 0);
          }
        }
      if (!is_64 && g_strcmp0 (name, "GarbageCollection/GCAllocationTick") == 0)
        {
          g_assert_cmpstr (field (d, "Version"), ==, "3");
          g_assert_cmpstr (field (d, "EventId"), ==, "10");
          g_assert_cmpstr (field (d, "Opcode"), ==, "11");
          g_assert_cmpstr (field (d, "OpcodeName"), ==, "GCAllocationTick");
          g_assert_cmpstr (field (d, "Level"), ==, "5");
          g_assert_cmpstr (field (d, "PropertyCount"), ==, "8");
          g_assert_cmpstr (field (d, "Properties"), ==,
                           "AllocationAmount, AllocationKind, ClrInstanceID, AllocationAmount64, TypeID, TypeName, "
                           "HeapIndex, Address");
          checked |= 2;
        }
      if (!is_64 && g_strcmp0 (name, "GCAllocationKindMap") == 0)
        {
          g_assert_cmpstr (field (d, "ProviderName"), ==, "Microsoft-Windows-DotNETRuntime");
          g_assert_cmpstr (field (d, "ProviderGuid"), ==, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");
          g_assert_cmpstr (field (d, "Flag"), ==, "ValueMap");
          g_assert_cmpstr (field (d, "EntryCount"), ==, "2");
          g_assert_cmpstr (field (d, "ValueType"), ==, "ULONG");
          g_assert_cmpstr (field (d, "Entries"), ==, "0=Small, 1=Large");
          checked |= 4;
        }
      if (is_64 && g_strcmp0 (name, "MethodFlagsMap") == 0)
        {
          g_assert_cmpstr (field (d, "Flag"), ==, "Bitmap");
          g_assert_cmpstr (field (d, "EntryCount"), ==, "4");
          g_assert_cmpstr (field (d, "Entries"), ==, "0x1=Dynamic, 0x2=Generic, 0x4=HasSharedGenericCode, 0x8=Jitted");
          checked |= 8;
        }
    }
  g_test_message ("EventInfo %u + %u, EventMapInfo %u + %u (FULL_HEADER32 + FULL_HEADER64)", n[0][0], n[0][1],
                  n[1][0], n[1][1]);
  g_assert_cmpuint (n[0][0], ==, 17);
  g_assert_cmpuint (n[0][1], ==, 44);
  g_assert_cmpuint (n[1][0], ==, 10);
  g_assert_cmpuint (n[1][1], ==, 14);
  g_assert_cmpuint (checked, ==, 15);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/tdh/event-info", test_event_info);
  g_test_add_func ("/etl/tdh/map-info", test_map_info);
  g_test_add_func ("/etl/tdh/register-record", test_register_record);
  g_test_add_func ("/etl/tdh/hostile-event-info", test_hostile_event_info);
  g_test_add_func ("/etl/tdh/hostile-map-info", test_hostile_map_info);
  g_test_add_func ("/etl/tdh/corpus-counts", test_corpus_counts);
  g_test_add_func ("/etl/tdh/corpus-gc-events", test_corpus_gc_events);
  g_test_add_func ("/etl/tdh/corpus-decode-all", test_corpus_decode_all);
  g_test_add_func ("/etl/tdh/corpus-records-as-events", test_corpus_records_as_events);

  return g_test_run ();
}
