/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-decode.c: the payload decoder over hand-made schemas and payloads:
 * every in-type and out-type rule, maps, counts and lengths from earlier
 * properties, structs, truncation, pointer sizes, the CLRStackWalk quirk,
 * volume maps; and TraceLogging through the same decoder on
 * primitive-types.etl against TraceEvent's baseline.
 */
#include "config.h"

#include <string.h>

#include "etl-decode.h"
#include "etl-names.h"
#include "etl-payload.h"
#include "etl-test-util.h"
#include "etl-trace.h"
#include "etl-tracelogging.h"

static const EtlGuid test_guid = { 0x11111111, 0x2222, 0x3333, { 4, 5, 6, 7, 8, 9, 10, 11 } };

static EtlSchema *
new_schema (void)
{
  EtlSchemaKey key;

  etl_schema_key_init_event_id (&key, &test_guid, 7, 0);
  return etl_schema_new (&key, ETL_SCHEMA_SOURCE_MANIFEST);
}

static EtlRecord
make_record (guint8 header_type, const guint8 *data, gsize len)
{
  EtlRecord r;

  memset (&r, 0, sizeof r);
  r.header_type = header_type;
  r.kind = header_type == ETL_HEADER_TYPE_EVENT_HEADER64
                   || header_type == ETL_HEADER_TYPE_EVENT_HEADER32
               ? ETL_RECORD_KIND_MANIFEST
               : ETL_RECORD_KIND_KERNEL;
  r.provider = test_guid;
  r.event_id = 7;
  r.user_data = len > 0 ? data : NULL;
  r.user_data_len = len;
  return r;
}

static EtlDecoded *
decode (EtlSchema *schema, guint8 header_type, const guint8 *data, gsize len)
{
  EtlRecord r = make_record (header_type, data, len);

  return etl_decode_with_schema (schema, NULL, &r);
}

static const char *
value_of (const EtlDecoded *d, const char *name)
{
  const EtlField *f = etl_decoded_find (d, name);

  return f != NULL ? f->value : NULL;
}

/* One scalar property of (in, out) over @data: its formatted value. */
static char *
format_one (guint16 in_type, guint16 out_type, guint8 header_type, const guint8 *data, gsize len,
            gboolean *complete)
{
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlDecoded) d = NULL;

  etl_schema_add_property (schema, "V", in_type, out_type);
  d = decode (schema, header_type, data, len);
  if (complete != NULL)
    *complete = d->complete;
  if (d->fields->len != 1)
    return NULL;
  return g_strdup (g_array_index (d->fields, EtlField, 0).value);
}

#define CHECK(in, out, bytes, expected)                                                            \
  G_STMT_START                                                                                     \
  {                                                                                                \
    static const guint8 data_[] = bytes;                                                           \
    gboolean complete_ = FALSE;                                                                    \
    g_autofree char *v_                                                                            \
        = format_one (in, out, ETL_HEADER_TYPE_EVENT_HEADER64, data_, sizeof data_, &complete_);   \
    g_assert_cmpstr (v_, ==, expected);                                                            \
    g_assert_true (complete_);                                                                     \
  }                                                                                                \
  G_STMT_END

#define B(...)                                                                                     \
  {                                                                                                \
    __VA_ARGS__                                                                                    \
  }

static void
test_integers (void)
{
  CHECK (ETL_IN_INT8, ETL_OUT_NULL, B (0xFE), "-2");
  CHECK (ETL_IN_UINT8, ETL_OUT_NULL, B (0xFE), "254");
  CHECK (ETL_IN_INT16, ETL_OUT_NULL, B (0xCD, 0xFF), "-51");
  CHECK (ETL_IN_UINT16, ETL_OUT_NULL, B (0x33, 0x00), "51");
  CHECK (ETL_IN_INT32, ETL_OUT_NULL, B (0x9A, 0xFF, 0xFF, 0xFF), "-102");
  CHECK (ETL_IN_UINT32, ETL_OUT_NULL, B (0xFF, 0xFF, 0xFF, 0xFF), "4294967295");
  CHECK (ETL_IN_INT64, ETL_OUT_NULL, B (0x34, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF), "-204");
  CHECK (ETL_IN_INT64, ETL_OUT_NULL, B (0, 0, 0, 0, 0, 0, 0, 0x80), "-9223372036854775808");
  /* UInt64 as TraceEvent shows it (a C# long) unless the out-type says unsigned. */
  CHECK (ETL_IN_UINT64, ETL_OUT_NULL, B (0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF), "-1");
  CHECK (ETL_IN_UINT64, ETL_OUT_UNSIGNEDLONG, B (0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF),
         "18446744073709551615");
  CHECK (ETL_IN_UINT64, ETL_OUT_NULL, B (0xcc, 0, 0, 0, 0, 0, 0, 0), "204");
  /* Hex in-types and out-types: 0x and at least 8 digits, as TraceEvent. */
  CHECK (ETL_IN_HEXINT32, ETL_OUT_NULL, B (0x00, 0x70, 0x18, 0x00), "0x00187000");
  CHECK (ETL_IN_HEXINT64, ETL_OUT_NULL, B (0x00, 0x92, 0x7d, 0x21, 0x00, 0xf8, 0xff, 0xff),
         "0xfffff800217d9200");
  CHECK (ETL_IN_UINT32, ETL_OUT_HEXINT32, B (0x38, 0xa1, 0x01, 0x00), "0x0001a138");
  CHECK (ETL_IN_UINT8, ETL_OUT_HEXINT8, B (0x0f), "0x0000000f");
  CHECK (ETL_IN_UINT32, ETL_OUT_HRESULT, B (0x05, 0x40, 0x00, 0x80), "0x80004005");
  CHECK (ETL_IN_UINT32, ETL_OUT_NTSTATUS, B (0x22, 0x00, 0x00, 0xc0), "0xc0000022");
  CHECK (ETL_IN_UINT32, ETL_OUT_PID, B (0x5c, 0x0e, 0x00, 0x00), "3676");
  /* Booleans. */
  CHECK (ETL_IN_BOOLEAN, ETL_OUT_NULL, B (1, 0, 0, 0), "True");
  CHECK (ETL_IN_BOOLEAN, ETL_OUT_NULL, B (0, 0, 0, 0), "False");
  CHECK (ETL_IN_UINT8, ETL_OUT_BOOLEAN, B (1), "True");
  /* Floats. */
  CHECK (ETL_IN_FLOAT, ETL_OUT_NULL, B (0x00, 0x00, 0xc0, 0x3f), "1.5");
  CHECK (ETL_IN_DOUBLE, ETL_OUT_NULL, B (0, 0, 0, 0, 0, 0, 0x04, 0xc0), "-2.5");
}

static void
test_numbers (void)
{
  g_autoptr (EtlSchema) schema = new_schema ();
  static const guint8 data[] = { 0xFE, 0x34, 0x12 };
  g_autoptr (EtlDecoded) d = NULL;
  const EtlField *f;

  etl_schema_add_property (schema, "A", ETL_IN_INT8, ETL_OUT_NULL);
  etl_schema_add_property (schema, "B", ETL_IN_UINT16, ETL_OUT_NULL);
  d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data);
  f = etl_decoded_find (d, "A");
  g_assert_true (f->has_number);
  g_assert_cmpint ((gint64)f->number, ==, -2);
  g_assert_cmpint (f->in_type, ==, ETL_IN_INT8);
  f = etl_decoded_find (d, "B");
  g_assert_cmpuint (f->number, ==, 0x1234);
  g_assert_true (d->complete);
  g_assert_cmpuint (d->n_bytes, ==, 3);
  g_assert_true (d->schema == schema);
}

static void
test_pointers (void)
{
  static const guint8 data[] = { 0x90, 0x00, 0xb1, 0xe5, 0x95, 0x7f, 0x00, 0x00 };
  gboolean complete;
  char *v;

  /* 64-bit header: 8 bytes. */
  v = format_one (ETL_IN_POINTER, ETL_OUT_NULL, ETL_HEADER_TYPE_SYSTEM64, data, 8, &complete);
  g_assert_cmpstr (v, ==, "0x7f95e5b10090");
  g_assert_true (complete);
  g_free (v);
  /* 32-bit headers: 4 bytes, the rest left over. */
  v = format_one (ETL_IN_POINTER, ETL_OUT_NULL, ETL_HEADER_TYPE_SYSTEM32, data, 8, &complete);
  g_assert_cmpstr (v, ==, "0xe5b10090");
  g_assert_false (complete);
  g_free (v);
  v = format_one (ETL_IN_POINTER, ETL_OUT_NULL, ETL_HEADER_TYPE_PERFINFO32, data, 4, &complete);
  g_assert_cmpstr (v, ==, "0xe5b10090");
  g_assert_true (complete);
  g_free (v);
  v = format_one (ETL_IN_POINTER, ETL_OUT_NULL, ETL_HEADER_TYPE_FULL_HEADER32, data, 4, &complete);
  g_assert_cmpstr (v, ==, "0xe5b10090");
  g_free (v);
  v = format_one (ETL_IN_SIZET, ETL_OUT_NULL, ETL_HEADER_TYPE_EVENT_HEADER32, data, 4, &complete);
  g_assert_cmpstr (v, ==, "3853582480");
  g_free (v);
  v = format_one (ETL_IN_SIZET, ETL_OUT_NULL, ETL_HEADER_TYPE_FULL_HEADER64, data, 8, &complete);
  g_assert_cmpstr (v, ==, "140281780437136");
  g_free (v);

  /* EVENT_HEADER64 with the 32_BIT_HEADER flag: a 32-bit process. */
  {
    g_autoptr (EtlSchema) schema = new_schema ();
    EtlRecord r = make_record (ETL_HEADER_TYPE_EVENT_HEADER64, data, 8);
    g_autoptr (EtlDecoded) d = NULL;

    etl_schema_add_property (schema, "P", ETL_IN_POINTER, ETL_OUT_NULL);
    etl_schema_add_property (schema, "Q", ETL_IN_POINTER, ETL_OUT_NULL);
    r.flags = ETL_EVENT_HEADER_FLAG_32_BIT_HEADER;
    d = etl_decode_with_schema (schema, NULL, &r);
    g_assert_cmpuint (d->fields->len, ==, 2);
    g_assert_cmpstr (value_of (d, "Q"), ==, "0x00007f95");
    g_assert_true (d->complete);
  }
}

static void
test_guid_sid_time (void)
{
  /* GUID 0ad614c4-0ef4-4225-8... from primitive-types.etl's first event. */
  CHECK (ETL_IN_GUID, ETL_OUT_NULL,
         B (0xc4, 0x14, 0xd6, 0x0a, 0xf4, 0x0e, 0x25, 0x42, 0x8a, 0xbc, 0x01, 0x02, 0x03, 0x04,
            0x05, 0x06),
         "0ad614c4-0ef4-4225-8abc-010203040506");
  /* S-1-5-21-1-2-3-1001 */
  CHECK (
      ETL_IN_SID, ETL_OUT_NULL,
      B (1, 5, 0, 0, 0, 0, 0, 5, 21, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0xe9, 0x03, 0, 0),
      "S-1-5-21-1-2-3-1001");
  /* FILETIME 2020-07-29T00:07:00Z = 132404548200000000. */
  CHECK (ETL_IN_FILETIME, ETL_OUT_NULL, B (0x00, 0x6a, 0x1b, 0x2e, 0x3c, 0x65, 0xd6, 0x01),
         "2020-07-29T00:07:00.0000000Z");
  /* A UINT64 shown as DATETIME is a FILETIME too. */
  CHECK (ETL_IN_UINT64, ETL_OUT_DATETIME, B (0x00, 0x6a, 0x1b, 0x2e, 0x3c, 0x65, 0xd6, 0x01),
         "2020-07-29T00:07:00.0000000Z");
  /* SYSTEMTIME 2021-09-09 (Thursday) 14:59:35.030 */
  CHECK (ETL_IN_SYSTEMTIME, ETL_OUT_NULL,
         B (0xe5, 0x07, 9, 0, 4, 0, 9, 0, 14, 0, 59, 0, 35, 0, 30, 0), "2021-09-09T14:59:35.030");
}

static void
test_wbemsid (void)
{
  /* TOKEN_USER (two pointers) then S-1-5-18. */
  static const guint8 sid64[] = { 0x10, 0x20, 0, 0, 0, 0, 0, 0, 0, 0,  0, 0, 0, 0,   0,
                                  0,    1,    1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0, 0x77 };
  static const guint8 sid32[]
      = { 0x10, 0x20, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 5, 18, 0, 0, 0 };
  static const guint8 null_sid[] = { 0, 0, 0, 0, 0x41, 0 };
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlDecoded) d64 = NULL, d32 = NULL, dnull = NULL;

  etl_schema_add_property (schema, "UserSID", ETL_IN_WBEMSID, ETL_OUT_NULL);
  etl_schema_add_property (schema, "Next", ETL_IN_UINT8, ETL_OUT_NULL);
  d64 = decode (schema, ETL_HEADER_TYPE_SYSTEM64, sid64, sizeof sid64);
  g_assert_cmpstr (value_of (d64, "UserSID"), ==, "S-1-5-18");
  g_assert_cmpstr (value_of (d64, "Next"), ==, "119");
  g_assert_true (d64->complete);

  d32 = decode (schema, ETL_HEADER_TYPE_SYSTEM32, sid32, sizeof sid32);
  g_assert_cmpstr (value_of (d32, "UserSID"), ==, "S-1-5-18");
  g_assert_cmpuint (d32->fields->len, ==, 1);
  g_assert_false (d32->complete);
  g_assert_cmpuint (d32->n_bytes, ==, sizeof sid32);

  /* A NULL TOKEN_USER takes 4 bytes and shows nothing. */
  dnull = decode (schema, ETL_HEADER_TYPE_SYSTEM64, null_sid, sizeof null_sid);
  g_assert_cmpstr (value_of (dnull, "UserSID"), ==, "");
  g_assert_cmpstr (value_of (dnull, "Next"), ==, "65");
}

static void
test_network (void)
{
  CHECK (ETL_IN_UINT32, ETL_OUT_IPV4, B (192, 168, 1, 20), "192.168.1.20");
  /* Ports are in network byte order. */
  CHECK (ETL_IN_UINT16, ETL_OUT_PORT, B (0x01, 0xbb), "443");
  CHECK (ETL_IN_BINARY, ETL_OUT_IPV6,
         B (0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), "2001:db8::1");
  /* SOCKADDR_IN: family 2, port, address. */
  CHECK (ETL_IN_BINARY, ETL_OUT_SOCKETADDRESS,
         B (2, 0, 0x00, 0x50, 10, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0), "10.0.0.1:80");
  /* SOCKADDR_IN6: family 23, port, flow info, address, scope. */
  CHECK (
      ETL_IN_BINARY, ETL_OUT_SOCKETADDRESS,
      B (23, 0, 0x1f, 0x90, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
      "[::1]:8080");
}

static void
test_strings (void)
{
  /* UTF-16, NUL-terminated. */
  CHECK (ETL_IN_UNICODESTRING, ETL_OUT_NULL, B ('M', 0, 'e', 0, 0xe9, 0, 0, 0), "Meé");
  /* A surrogate pair and an unpaired surrogate. */
  CHECK (ETL_IN_UNICODESTRING, ETL_OUT_NULL, B (0x3d, 0xd8, 0x00, 0xde, 0x00, 0xd8, 'x', 0, 0, 0),
         "😀\xef\xbf\xbdx");
  /* ANSI with an invalid sequence made valid. */
  CHECK (ETL_IN_ANSISTRING, ETL_OUT_NULL, B ('a', 0xff, 'b', 0),
         "a\xef\xbf\xbd"
         "b");
  CHECK (ETL_IN_ANSISTRING, ETL_OUT_NULL, B ('c', 'm', 'd', 0), "cmd");
  /* Counted strings: u16 byte count first (reversed: big-endian). */
  CHECK (ETL_IN_COUNTEDSTRING, ETL_OUT_NULL, B (4, 0, 'o', 0, 'k', 0), "ok");
  CHECK (ETL_IN_REVERSEDCOUNTEDSTRING, ETL_OUT_NULL, B (0, 4, 'o', 0, 'k', 0), "ok");
  CHECK (ETL_IN_COUNTEDANSISTRING, ETL_OUT_NULL, B (2, 0, 'o', 'k'), "ok");
  CHECK (ETL_IN_UNICODECHAR, ETL_OUT_NULL, B ('Z', 0), "Z");
  CHECK (ETL_IN_ANSICHAR, ETL_OUT_NULL, B ('Z'), "Z");
  /* Binary as hex; HEXDUMP has a u32 length first. */
  CHECK (ETL_IN_BINARY, ETL_OUT_NULL, B (0xde, 0xad, 0xbe, 0xef), "0xdeadbeef");
  CHECK (ETL_IN_HEXDUMP, ETL_OUT_NULL, B (2, 0, 0, 0, 0xab, 0xcd), "0xabcd");

  /* An unterminated string at the end of the data takes the rest. */
  {
    static const guint8 data[] = { 'a', 0, 'b', 0 };
    gboolean complete;
    g_autofree char *v = format_one (ETL_IN_UNICODESTRING, ETL_OUT_NULL,
                                     ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data, &complete);

    g_assert_cmpstr (v, ==, "ab");
    g_assert_true (complete);
  }

  /* Fixed lengths count characters; the string may end early. */
  {
    static const guint8 data[] = { 'a', 0, 0, 0, 'z', 0, 'q', 0, 7 };
    g_autoptr (EtlSchema) schema = new_schema ();
    g_autoptr (EtlDecoded) d = NULL;
    guint i = etl_schema_add_property (schema, "S", ETL_IN_UNICODESTRING, ETL_OUT_NULL);

    schema->properties[i].length = 4;
    etl_schema_add_property (schema, "N", ETL_IN_UINT8, ETL_OUT_NULL);
    d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data);
    g_assert_cmpstr (value_of (d, "S"), ==, "a");
    g_assert_cmpstr (value_of (d, "N"), ==, "7");
    g_assert_true (d->complete);
  }
}

static void
test_maps (void)
{
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlMap) reasons = etl_map_new ("GCReason", FALSE);
  g_autoptr (EtlMap) flags = etl_map_new ("Flags", TRUE);
  static const guint8 data[] = { 0, 0, 0, 0, 0x05, 0x10, 0, 0, 9, 0, 0, 0 };
  EtlRecord r = make_record (ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data);
  g_autoptr (EtlDecoded) d = NULL;
  guint i;

  etl_map_add (reasons, 0, "AllocSmall");
  etl_map_add (flags, 0x1, "Jitted");
  etl_map_add (flags, 0x4, "Generic");
  i = etl_schema_add_property (schema, "Reason", ETL_IN_UINT32, ETL_OUT_NULL);
  schema->properties[i].map_name = g_strdup ("GCReason");
  i = etl_schema_add_property (schema, "MethodFlags", ETL_IN_UINT32, ETL_OUT_NULL);
  schema->properties[i].map_name = g_strdup ("Flags");
  i = etl_schema_add_property (schema, "Unknown", ETL_IN_UINT32, ETL_OUT_NULL);
  schema->properties[i].map_name = g_strdup ("GCReason");

  /* Maps registered after the schema are resolved too. */
  etl_schema_registry_add (reg, schema);
  etl_schema_registry_add_map (reg, &test_guid, reasons);
  etl_schema_registry_add_map (reg, &test_guid, flags);

  d = etl_decode_record (reg, NULL, &r);
  g_assert_true (d->schema == schema);
  g_assert_cmpstr (value_of (d, "Reason"), ==, "AllocSmall");
  /* Names ascending by value, unknown bits as hex. */
  g_assert_cmpstr (value_of (d, "MethodFlags"), ==, "Jitted|Generic|0x1000");
  /* A value the map lacks: the number. */
  g_assert_cmpstr (value_of (d, "Unknown"), ==, "9");
  g_assert_cmpuint (etl_decoded_find (d, "MethodFlags")->number, ==, 0x1005);
}

static void
test_param_count_length (void)
{
  /* Count, u16 array[Count], Len, binary[Len], trailing byte. */
  static const guint8 data[] = { 3, 0, 0, 0, 10, 0, 20, 0, 30, 0, 2, 0xaa, 0xbb, 0x42 };
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlDecoded) d = NULL;
  guint count, arr, len, bin;

  count = etl_schema_add_property (schema, "Count", ETL_IN_UINT32, ETL_OUT_NULL);
  arr = etl_schema_add_property (schema, "Values", ETL_IN_UINT16, ETL_OUT_NULL);
  schema->properties[arr].flags = ETL_PROPERTY_PARAM_COUNT;
  schema->properties[arr].count = count;
  len = etl_schema_add_property (schema, "Len", ETL_IN_UINT8, ETL_OUT_NULL);
  bin = etl_schema_add_property (schema, "Blob", ETL_IN_BINARY, ETL_OUT_NULL);
  schema->properties[bin].flags = ETL_PROPERTY_PARAM_LENGTH;
  schema->properties[bin].length = len;
  etl_schema_add_property (schema, "Tail", ETL_IN_UINT8, ETL_OUT_NULL);

  d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data);
  g_assert_cmpuint (d->fields->len, ==, 7);
  g_assert_cmpstr (value_of (d, "Values[0]"), ==, "10");
  g_assert_cmpstr (value_of (d, "Values[2]"), ==, "30");
  g_assert_null (value_of (d, "Values[3]"));
  g_assert_cmpstr (value_of (d, "Blob"), ==, "0xaabb");
  g_assert_cmpstr (value_of (d, "Tail"), ==, "66");
  g_assert_true (d->complete);

  /* A fixed-count array of one is still an array. */
  {
    g_autoptr (EtlSchema) s2 = new_schema ();
    g_autoptr (EtlDecoded) d2 = NULL;
    guint i = etl_schema_add_property (s2, "One", ETL_IN_UINT8, ETL_OUT_NULL);

    s2->properties[i].flags = ETL_PROPERTY_PARAM_FIXED_COUNT;
    d2 = decode (s2, ETL_HEADER_TYPE_EVENT_HEADER64, data, 1);
    g_assert_cmpstr (value_of (d2, "One[0]"), ==, "3");
  }

  /* A count that names a later (not yet decoded) property stops decoding. */
  {
    g_autoptr (EtlSchema) s3 = new_schema ();
    g_autoptr (EtlDecoded) d3 = NULL;
    guint a;

    etl_schema_add_property (s3, "First", ETL_IN_UINT8, ETL_OUT_NULL);
    a = etl_schema_add_property (s3, "Arr", ETL_IN_UINT8, ETL_OUT_NULL);
    s3->properties[a].flags = ETL_PROPERTY_PARAM_COUNT;
    s3->properties[a].count = 2;
    etl_schema_add_property (s3, "Later", ETL_IN_UINT8, ETL_OUT_NULL);
    d3 = decode (s3, ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data);
    g_assert_cmpuint (d3->fields->len, ==, 1);
    g_assert_false (d3->complete);
    g_assert_cmpuint (d3->n_bytes, ==, 1);
  }

  /* A hostile count (more than 4096 elements) stops decoding. */
  {
    static const guint8 big[] = { 0xff, 0xff, 0, 0, 1, 2, 3 };
    g_autoptr (EtlDecoded) d4 = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, big, sizeof big);

    g_assert_cmpuint (d4->fields->len, ==, 1);
    g_assert_false (d4->complete);
  }
}

static void
test_structs (void)
{
  /* N, Ranges[N] of {Start pointer, Length u32}, Tail u8; 32-bit pointers. */
  static const guint8 data[] = { 2, 0, 0x10, 0, 0, 0, 5, 0, 0, 0, 0x20, 0, 0, 0, 6, 0, 0, 0, 9 };
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlDecoded) d = NULL;
  guint n, s, start;

  n = etl_schema_add_property (schema, "N", ETL_IN_UINT16, ETL_OUT_NULL);
  s = etl_schema_add_property (schema, "Ranges", ETL_IN_NULL, ETL_OUT_NULL);
  etl_schema_add_property (schema, "Tail", ETL_IN_UINT8, ETL_OUT_NULL);
  start = etl_schema_add_property (schema, "Start", ETL_IN_POINTER, ETL_OUT_NULL);
  etl_schema_add_property (schema, "Length", ETL_IN_UINT32, ETL_OUT_NULL);
  /* Members follow the top level: say where the top level ends. */
  schema->n_top_level = 3;
  schema->properties[s].flags = ETL_PROPERTY_STRUCT | ETL_PROPERTY_PARAM_COUNT;
  schema->properties[s].count = n;
  schema->properties[s].struct_start = start;
  schema->properties[s].n_struct_members = 2;

  d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER32, data, sizeof data);
  g_assert_cmpuint (d->fields->len, ==, 6);
  g_assert_cmpstr (value_of (d, "Ranges[0].Start"), ==, "0x00000010");
  g_assert_cmpstr (value_of (d, "Ranges[1].Length"), ==, "6");
  g_assert_cmpstr (value_of (d, "Tail"), ==, "9");
  g_assert_true (d->complete);

  /* A single struct: "Struct.Member". */
  schema->properties[s].flags = ETL_PROPERTY_STRUCT;
  schema->properties[s].count = 1;
  g_clear_pointer (&d, etl_decoded_free);
  d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER32, data, 11);
  g_assert_cmpstr (value_of (d, "Ranges.Start"), ==, "0x00000010");
  g_assert_cmpstr (value_of (d, "Ranges.Length"), ==, "5");
  g_assert_true (d->complete);

  /* A struct whose members point back at itself is refused, not followed. */
  schema->properties[s].struct_start = 0;
  g_clear_pointer (&d, etl_decoded_free);
  d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER32, data, sizeof data);
  g_assert_cmpuint (d->fields->len, ==, 1);
  g_assert_false (d->complete);
}

static void
test_truncated (void)
{
  static const guint8 data[] = { 1, 0, 0, 0, 2, 0, 0, 0, 'a', 0 };
  g_autoptr (EtlSchema) schema = new_schema ();

  etl_schema_add_property (schema, "A", ETL_IN_UINT32, ETL_OUT_NULL);
  etl_schema_add_property (schema, "B", ETL_IN_UINT32, ETL_OUT_NULL);
  etl_schema_add_property (schema, "C", ETL_IN_GUID, ETL_OUT_NULL);

  /* Every shorter payload: the fields that fit, never more. */
  for (gsize len = 0; len <= sizeof data; len++)
    {
      g_autofree guint8 *copy = g_memdup2 (data, len);
      g_autoptr (EtlDecoded) d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, copy, len);

      g_assert_cmpuint (d->fields->len, ==, len / 4 > 2 ? 2 : len / 4);
      g_assert_false (d->complete);
      g_assert_cmpuint (d->n_bytes, ==, 4 * d->fields->len);
    }
}

static void
test_clr_stack_walk (void)
{
  /* ClrInstanceID u16, Reserved1 u8, Reserved2 u8, FrameCount u32, then
   * Stack declared as 2 pointers but FrameCount of them. */
  static const guint8 data64[] = { 9, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
                                   2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0 };
  static const guint8 data32[] = { 9, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0 };
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlDecoded) d64 = NULL, d32 = NULL;
  guint stack;

  etl_schema_add_property (schema, "ClrInstanceID", ETL_IN_UINT16, ETL_OUT_NULL);
  etl_schema_add_property (schema, "Reserved1", ETL_IN_UINT8, ETL_OUT_NULL);
  etl_schema_add_property (schema, "Reserved2", ETL_IN_UINT8, ETL_OUT_NULL);
  etl_schema_add_property (schema, "FrameCount", ETL_IN_UINT32, ETL_OUT_NULL);
  stack = etl_schema_add_property (schema, "Stack", ETL_IN_POINTER, ETL_OUT_NULL);
  schema->properties[stack].count = 2;

  d64 = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, data64, sizeof data64);
  g_assert_cmpstr (value_of (d64, "Stack[2]"), ==, "0x00000003");
  g_assert_true (d64->complete);
  g_assert_cmpuint (d64->n_bytes, ==, 8 + 3 * 8);

  d32 = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER32, data32, sizeof data32);
  g_assert_cmpstr (value_of (d32, "Stack[2]"), ==, "0x00000003");
  g_assert_true (d32->complete);
  g_assert_cmpuint (d32->n_bytes, ==, 8 + 3 * 4);
}

static void
test_volume_map (void)
{
  EtlVolumeMap *map = etl_volume_map_new ();
  static const guint8 path[]
      = { '\\', 0, 'D', 0, 'e',  0, 'v', 0, 'i', 0, 'c', 0, 'e', 0, '\\', 0, 'H', 0,
          'V',  0, '2', 0, '\\', 0, 'x', 0, '.', 0, 'd', 0, 'l', 0, 'l',  0, 0,   0 };
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlDecoded) d = NULL, raw = NULL;
  EtlRecord r = make_record (ETL_HEADER_TYPE_SYSTEM64, path, sizeof path);
  char *s;

  etl_volume_map_add (map, "\\Device\\HV2\\", "C:\\");
  etl_volume_map_add (map, "\\Device\\HV22\\", "E:\\");
  etl_volume_map_add (map, "\\SystemRoot\\", "C:\\Windows\\");
  etl_volume_map_add (map, "\\??\\", "");

  s = etl_volume_map_to_dos (map, "\\Device\\HV2\\Windows\\x.dll");
  g_assert_cmpstr (s, ==, "C:\\Windows\\x.dll");
  g_free (s);
  s = etl_volume_map_to_dos (map, "\\device\\hv22\\a");
  g_assert_cmpstr (s, ==, "E:\\a");
  g_free (s);
  s = etl_volume_map_to_dos (map, "\\SystemRoot\\system32\\ntdll.dll");
  g_assert_cmpstr (s, ==, "C:\\Windows\\system32\\ntdll.dll");
  g_free (s);
  s = etl_volume_map_to_dos (map, "\\??\\C:\\x");
  g_assert_cmpstr (s, ==, "C:\\x");
  g_free (s);
  /* The prefix must end at a separator. */
  g_assert_null (etl_volume_map_to_dos (map, "\\Device\\HV23\\a"));
  g_assert_null (etl_volume_map_to_dos (map, "\\\\DfsClient\\;Z:0000\\x"));
  /* The UNC root is known without the trace's help. */
  s = etl_volume_map_to_dos (map, "\\Device\\Mup\\DfsClient\\;Z:0000\\x");
  g_assert_cmpstr (s, ==, "\\\\DfsClient\\;Z:0000\\x");
  g_free (s);

  etl_schema_add_property (schema, "FileName", ETL_IN_UNICODESTRING, ETL_OUT_NT_PATH);
  d = etl_decode_with_schema (schema, map, &r);
  g_assert_cmpstr (value_of (d, "FileName"), ==, "C:\\x.dll");
  raw = etl_decode_with_schema (schema, NULL, &r);
  g_assert_cmpstr (value_of (raw, "FileName"), ==, "\\Device\\HV2\\x.dll");
  /* Any string starting with a mapped NT prefix (TDH's Kernel-File names
   * are plain strings). */
  schema->properties[0].out_type = ETL_OUT_STRING;
  g_clear_pointer (&d, etl_decoded_free);
  d = etl_decode_with_schema (schema, map, &r);
  g_assert_cmpstr (value_of (d, "FileName"), ==, "C:\\x.dll");
  etl_volume_map_free (map);
}

static void
test_format_payload (void)
{
  static const guint8 data[] = { 1, 0, 0, 0, 0, 0, 0, 0 };
  g_autoptr (EtlSchema) schema = new_schema ();
  g_autoptr (EtlMap) map = etl_map_new ("Reason", FALSE);
  g_autoptr (EtlDecoded) d = NULL;
  char *s;
  guint i;

  etl_map_add (map, 0, "AllocSmall");
  etl_schema_add_property (schema, "Count", ETL_IN_UINT32, ETL_OUT_NULL);
  i = etl_schema_add_property (schema, "Reason", ETL_IN_UINT32, ETL_OUT_NULL);
  schema->properties[i].map = etl_map_ref (map);
  d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data);

  s = etl_decoded_format_payload (d, 0);
  g_assert_cmpstr (s, ==, "Count=1 Reason=AllocSmall");
  g_free (s);
  s = etl_decoded_format_payload (d, 200);
  g_assert_cmpstr (s, ==, "Count=1 Reason=AllocSmall");
  g_free (s);
  s = etl_decoded_format_payload (d, 10);
  g_assert_cmpstr (s, ==, "Count=1 R…");
  g_assert_cmpint (g_utf8_strlen (s, -1), ==, 10);
  g_free (s);
}

static void
test_no_schema (void)
{
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  g_autoptr (EtlSchema) schema = new_schema ();
  static const guint8 data[] = { 1 };
  EtlRecord r = make_record (ETL_HEADER_TYPE_EVENT_HEADER64, data, 1);
  g_autoptr (EtlDecoded) d = etl_decode_record (reg, NULL, &r);
  g_autofree char *fallback = NULL, *named = NULL;

  g_assert_null (d->schema);
  g_assert_cmpuint (d->fields->len, ==, 0);
  g_assert_false (d->complete);

  /* Event names: the registry's schema, else the record's own name. */
  fallback = etl_decode_dup_event_name (reg, &r);
  g_assert_cmpstr (fallback, ==, "Event(7)");
  schema->task_name = g_strdup ("GC");
  schema->opcode_name = g_strdup ("win:Start");
  schema->opcode = 1;
  etl_schema_registry_add (reg, schema);
  named = etl_decode_dup_event_name (reg, &r);
  g_assert_cmpstr (named, ==, "GC/Start");
}

/* TraceLogging through the shared decoder: primitive-types.etl's five events
 * against TraceEvent's baseline (values as TraceEvent prints them, except
 * dates, which are ISO 8601 here). */
static void
test_tracelogging_corpus (void)
{
  static const char *const expected[5][9] = {
    { "Mercury", "False", "77", "-51", "-102", "51", "102", "-204", "204" },
    { "Venus", "True", "86", "-95", "-190", "95", "190", "-380", "380" },
    { "Earth", "False", "69", "-65", "-130", "65", "130", "-260", "260" },
    { "Mars", "False", "77", "-29", "-58", "29", "58", "-116", "116" },
    { "Jupiter", "True", "74", "-69", "-138", "69", "138", "-276", "276" },
  };
  static const char *const names[9]
      = { "string_type", "boolean_type", "char_type",  "int16_type", "int32_type",
          "uint16_type", "uint32_type",  "int64_type", "uint64_type" };
  static const char *const guid_prefix[5]
      = { "0ad614c4-0ef4-4225-8", "e04ff801-9ea3-494f-a", "c7a6c80e-f2a6-4220-a",
          "0a922cee-67c1-4108-b", "bb11b97b-1110-4eb6-b" };
  g_autofree char *path = etl_test_corpus_path ("primitive-types.etl");
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchemaRegistry) reg = etl_schema_registry_new ();
  guint n = 0;

  if (path == NULL)
    return;
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord r;
      g_autoptr (EtlDecoded) d = NULL;
      g_autoptr (GPtrArray) pairs = NULL;
      gboolean complete = FALSE;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (r.kind != ETL_RECORD_KIND_TRACELOGGING)
        {
          etl_record_clear (&r);
          continue;
        }
      g_assert_cmpuint (n, <, 5);
      d = etl_decode_record (reg, NULL, &r);
      g_assert_nonnull (d->schema);
      g_assert_cmpint (d->schema->source, ==, ETL_SCHEMA_SOURCE_TRACELOGGING);
      g_assert_cmpstr (d->schema->event_name, ==, "PrimitiveTypesTest");
      g_assert_cmpstr (d->schema->provider_name, ==, "solar_system");
      g_assert_true (d->complete);
      g_assert_cmpuint (d->n_bytes, ==, r.user_data_len);
      g_assert_cmpuint (d->fields->len, ==, 12);
      for (guint k = 0; k < 9; k++)
        g_assert_cmpstr (value_of (d, names[k]), ==, expected[n][k]);
      g_assert_true (g_str_has_prefix (value_of (d, "guid_type"), guid_prefix[n]));
      g_assert_true (g_str_has_prefix (value_of (d, "file_time_type"), "2021-09-09T"));
      g_assert_true (g_str_has_prefix (value_of (d, "system_time_type"), "2021-09-09T"));

      /* The (name, value) wrapper gives the same. */
      pairs = etl_payload_decode_tracelogging (&r, &complete);
      g_assert_true (complete);
      g_assert_cmpuint (pairs->len, ==, d->fields->len);
      for (guint k = 0; k < pairs->len; k++)
        {
          EtlPayloadField *f = g_ptr_array_index (pairs, k);

          g_assert_cmpstr (f->name, ==, g_array_index (d->fields, EtlField, k).name);
          g_assert_cmpstr (f->value, ==, g_array_index (d->fields, EtlField, k).value);
        }
      n++;
      etl_record_clear (&r);
    }
  g_assert_cmpuint (n, ==, 5);
  /* One schema for the one distinct metadata blob. */
  g_assert_cmpuint (etl_schema_registry_get_n_schemas (reg, ETL_SCHEMA_SOURCE_TRACELOGGING), ==, 1);
}

/* TraceLogging metadata with a struct, a constant-count and a variable-count
 * array, built by hand. */
static void
test_tracelogging_struct (void)
{
  static const guint8 meta[] = {
    0,   0,             /* size, patched below */
    0,                  /* tags */
    'E', 0,             /* event name */
    'A', 0, 0x04,       /* A: UINT8 */
    'S', 0, 0x98, 2,    /* S: struct of 2 (STRUCT | chain, out = 2) */
    'x', 0, 0x06,       /* S.x: UINT16 */
    'y', 0, 0x24, 2, 0, /* S.y: UINT8[2] (constant count) */
    'V', 0, 0x44,       /* V: UINT8[] (variable count) */
    'B', 0, 0x0e,       /* B: binary (u16 length first) */
  };
  static const guint8 data[] = { 7, 0x34, 0x12, 1, 2, 3, 0, 9, 8, 7, 2, 0, 0xca, 0xfe };
  g_autofree guint8 *copy = g_memdup2 (meta, sizeof meta);
  EtlSchemaKey key;
  g_autoptr (EtlSchema) schema = NULL;
  g_autoptr (EtlDecoded) d = NULL;
  g_autoptr (GError) error = NULL;

  copy[0] = sizeof meta;
  etl_schema_key_init_event_id (&key, &test_guid, 0, 0);
  schema = etl_tracelogging_schema_parse (copy, sizeof meta, &key, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (schema->n_top_level, ==, 4);
  g_assert_cmpuint (schema->n_properties, ==, 6);
  g_assert_cmpuint (schema->properties[1].struct_start, ==, 4);
  d = decode (schema, ETL_HEADER_TYPE_EVENT_HEADER64, data, sizeof data);
  g_assert_cmpstr (value_of (d, "A"), ==, "7");
  g_assert_cmpstr (value_of (d, "S.x"), ==, "4660");
  g_assert_cmpstr (value_of (d, "S.y[1]"), ==, "2");
  g_assert_cmpstr (value_of (d, "V[2]"), ==, "7");
  g_assert_null (value_of (d, "V[3]"));
  g_assert_cmpstr (value_of (d, "B"), ==, "0xcafe");
  g_assert_true (d->complete);

  /* Malformed: a struct claiming more members than follow. */
  copy[11] = 9;
  g_clear_pointer (&schema, etl_schema_unref);
  schema = etl_tracelogging_schema_parse (copy, sizeof meta, &key, &error);
  g_assert_null (schema);
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/decode/integers", test_integers);
  g_test_add_func ("/etl/decode/numbers", test_numbers);
  g_test_add_func ("/etl/decode/pointers", test_pointers);
  g_test_add_func ("/etl/decode/guid-sid-time", test_guid_sid_time);
  g_test_add_func ("/etl/decode/wbemsid", test_wbemsid);
  g_test_add_func ("/etl/decode/network", test_network);
  g_test_add_func ("/etl/decode/strings", test_strings);
  g_test_add_func ("/etl/decode/maps", test_maps);
  g_test_add_func ("/etl/decode/param-count-length", test_param_count_length);
  g_test_add_func ("/etl/decode/structs", test_structs);
  g_test_add_func ("/etl/decode/truncated", test_truncated);
  g_test_add_func ("/etl/decode/clr-stack-walk", test_clr_stack_walk);
  g_test_add_func ("/etl/decode/volume-map", test_volume_map);
  g_test_add_func ("/etl/decode/format-payload", test_format_payload);
  g_test_add_func ("/etl/decode/no-schema", test_no_schema);
  g_test_add_func ("/etl/decode/tracelogging-corpus", test_tracelogging_corpus);
  g_test_add_func ("/etl/decode/tracelogging-struct", test_tracelogging_struct);

  return g_test_run ();
}
