/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-dump.c: etl_dump_write(), what `etlscope-cli dump` prints.  Every
 * JSON line of every corpus trace parses with json-glib and says what the
 * core API says of the same record (read independently here); the output
 * is the same whatever the number of worker threads; the JSON string
 * escaping (control characters, quotes, backslashes, U+2028/2029, non-BMP
 * characters, invalid UTF-8) and the decoder's replacement of unpaired
 * UTF-16 surrogates and invalid ANSI bytes by U+FFFD, exactly; repeated
 * field names; CSV and --limit.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-decode-status.h"
#include "etl-dump-private.h"
#include "etl-dump.h"
#include "etl-record.h"
#include "etl-names.h"
#include "etl-process-table.h"
#include "etl-test-util.h"
#include "etl-trace.h"

static gboolean
append_to_string (const char *data, gsize len, gpointer user_data, GError **error)
{
  (void)error;
  g_string_append_len (user_data, data, (gssize)len);
  return TRUE;
}

static GString *
dump (EtlTrace *trace, EtlDumpFormat format, EtlDumpFlags flags, guint64 n, guint n_threads)
{
  GString *out = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  guint64 problems = 1;

  g_assert_true (etl_dump_write (trace, NULL, format, flags, n, n_threads, append_to_string, NULL, out, &problems,
                                 &error));
  g_assert_no_error (error);
  g_assert_cmpuint (problems, ==, 0);
  return out;
}

static JsonNode *
parse_line (const char *line)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  if (!json_parser_load_from_data (parser, line, -1, &error))
    g_error ("line does not parse: %s\n%s", error->message, line);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_copy (json_parser_get_root (parser));
}

/* A member that must be a string equal to @expected, or null when @expected is NULL. */
static void
assert_string_member (JsonObject *o, const char *member, const char *expected)
{
  JsonNode *node = json_object_get_member (o, member);

  g_assert_nonnull (node);
  if (expected == NULL)
    g_assert_true (JSON_NODE_HOLDS_NULL (node));
  else
    g_assert_cmpstr (json_node_get_string (node), ==, expected);
}

static void
assert_int_member (JsonObject *o, const char *member, gint64 expected)
{
  JsonNode *node = json_object_get_member (o, member);

  g_assert_nonnull (node);
  g_assert_cmpint (json_node_get_value_type (node), ==, G_TYPE_INT64);
  g_assert_cmpint (json_node_get_int (node), ==, expected);
}

/* The "fields" object against the record's decoded and derived fields: one
 * member a distinct name, in the order of first appearance, with the last
 * value given to that name. */
static void
assert_fields (JsonObject *fields, const EtlDecoded *decoded, GArray *derived)
{
  g_autoptr (GPtrArray) all = g_ptr_array_new ();
  g_autoptr (GHashTable) last = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GPtrArray) order = g_ptr_array_new ();
  g_autoptr (GList) members = json_object_get_members (fields);
  GList *l;

  for (guint f = 0; decoded != NULL && f < decoded->fields->len; f++)
    g_ptr_array_add (all, &g_array_index (decoded->fields, EtlField, f));
  for (guint f = 0; derived != NULL && f < derived->len; f++)
    if (etl_decoded_find (decoded, g_array_index (derived, EtlField, f).name) == NULL)
      g_ptr_array_add (all, &g_array_index (derived, EtlField, f));
  for (guint f = 0; f < all->len; f++)
    {
      const EtlField *field = g_ptr_array_index (all, f);

      if (!g_hash_table_contains (last, field->name))
        g_ptr_array_add (order, field->name);
      g_hash_table_insert (last, field->name, (gpointer)field);
    }
  g_assert_cmpuint (g_list_length (members), ==, order->len);
  l = members;
  for (guint f = 0; f < order->len; f++, l = l->next)
    {
      const EtlField *field = g_hash_table_lookup (last, g_ptr_array_index (order, f));

      g_assert_cmpstr (l->data, ==, field->name);
      assert_string_member (fields, field->name, field->value);
    }
}

/* Every line of @path's dump against the core API's view of its record. */
static void
test_corpus_file (gconstpointer data)
{
  g_autofree char *path = etl_test_corpus_path (data);
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GString) out = NULL;
  g_autoptr (GString) serial = NULL;
  EtlProcessTable *table;
  const char *line;
  guint64 n, i = 0;

  if (path == NULL)
    return;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n = etl_trace_get_n_records (trace);
  g_assert_cmpuint (n, >, 0);
  table = etl_trace_get_process_table (trace);

  out = dump (trace, ETL_DUMP_JSONL, ETL_DUMP_FIELDS, G_MAXUINT64, 0);
  /* The same bytes whatever the number of workers (chunks written in order). */
  serial = dump (trace, ETL_DUMP_JSONL, ETL_DUMP_FIELDS, G_MAXUINT64, 1);
  g_assert_cmpuint (out->len, ==, serial->len);
  g_assert_true (memcmp (out->str, serial->str, out->len) == 0);
  if (n > 8192)
    {
      g_autoptr (GString) three = dump (trace, ETL_DUMP_JSONL, ETL_DUMP_FIELDS, G_MAXUINT64, 3);

      g_assert_cmpuint (three->len, ==, out->len);
      g_assert_true (memcmp (out->str, three->str, out->len) == 0);
    }
  g_assert_true (g_utf8_validate (out->str, (gssize)out->len, NULL));

  for (line = out->str; *line != '\0'; i++)
    {
      const char *end = strchr (line, '\n');
      g_autofree char *text = NULL;
      g_autoptr (JsonNode) node = NULL;
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) decoded = NULL;
      g_autoptr (GArray) derived = NULL;
      g_autofree char *name = NULL;
      g_autofree char *provider_name = NULL;
      char guid[ETL_GUID_STRING_LEN + 1];
      char keyword[24];
      JsonObject *o;
      EtlSchema *schema;
      guint32 pid;
      gboolean has_pid;
      const EtlProcess *process;

      g_assert_nonnull (end);
      g_assert_cmpuint (i, <, n);
      text = g_strndup (line, (gsize)(end - line));
      line = end + 1;
      /* Control characters are always escaped. */
      for (const char *p = text; *p; p++)
        g_assert_cmpint ((guchar)*p, >=, 0x20);
      node = parse_line (text);
      o = json_node_get_object (node);

      g_assert_true (etl_trace_get_record (trace, i, &r, &error));
      g_assert_no_error (error);
      decoded = etl_trace_decode_record (trace, &r);
      schema = decoded != NULL ? decoded->schema : NULL;
      derived = decoded != NULL ? etl_trace_get_derived_fields (trace, &r, decoded) : NULL;
      etl_guid_to_string (&r.provider, guid);
      name = schema != NULL ? etl_schema_dup_display_name (schema) : etl_record_dup_event_name (&r);
      provider_name = etl_record_dup_provider_name (&r);
      if (strcmp (provider_name, guid) == 0 && schema != NULL && schema->provider_name != NULL)
        {
          g_free (provider_name);
          provider_name = g_strdup (schema->provider_name);
        }

      assert_int_member (o, "index", (gint64)i);
      assert_int_member (o, "file", r.file);
      assert_int_member (o, "cpu", r.cpu);
      assert_int_member (o, "ts_raw", r.ts_raw);
      assert_int_member (o, "filetime", r.filetime);
      g_assert_cmpfloat (json_object_get_double_member (o, "rel_ms"), ==, etl_trace_filetime_to_ms (trace, r.filetime));
      assert_int_member (o, "header_type", r.header_type);
      assert_string_member (o, "kind", etl_record_kind_name (r.kind));
      if (r.has_pid)
        {
          assert_int_member (o, "pid", r.pid);
          assert_int_member (o, "tid", r.tid);
        }
      else
        {
          g_assert_true (json_object_get_null_member (o, "pid"));
          g_assert_true (json_object_get_null_member (o, "tid"));
        }
      assert_string_member (o, "provider", guid);
      assert_string_member (o, "provider_name", provider_name);
      assert_string_member (o, "name", name);
      assert_int_member (o, "event_id", r.event_id);
      assert_int_member (o, "opcode", r.opcode);
      assert_int_member (o, "version", r.version);
      assert_int_member (o, "level", r.level);
      assert_int_member (o, "task", r.task);
      g_snprintf (keyword, sizeof keyword, "0x%" G_GINT64_MODIFIER "x", r.keyword);
      assert_string_member (o, "keyword", keyword);
      assert_int_member (o, "channel", r.channel);
      assert_int_member (o, "flags", r.flags);
      assert_int_member (o, "data_len", (gint64)r.user_data_len);
      assert_int_member (o, "offset", (gint64)r.file_offset);
      has_pid = etl_process_table_resolve_record (table, &r, decoded, &pid, NULL);
      process = has_pid ? etl_process_table_lookup (table, pid, r.filetime) : NULL;
      if (has_pid)
        assert_int_member (o, "process_id", pid);
      else
        g_assert_true (json_object_get_null_member (o, "process_id"));
      assert_string_member (o, "process_name", process != NULL ? process->image_name : NULL);
      assert_string_member (o, "task_name", schema != NULL ? schema->task_name : NULL);
      assert_string_member (o, "opcode_name", schema != NULL ? schema->opcode_name : NULL);
      assert_string_member (o, "level_name", schema != NULL ? schema->level_name : NULL);
      {
        JsonArray *keywords = json_object_get_array_member (o, "keyword_names");
        guint n_keywords = schema != NULL && schema->keyword_names != NULL ? g_strv_length (schema->keyword_names) : 0;

        g_assert_cmpuint (json_array_get_length (keywords), ==, n_keywords);
        for (guint k = 0; k < n_keywords; k++)
          g_assert_cmpstr (json_array_get_string_element (keywords, k), ==, schema->keyword_names[k]);
      }
      assert_string_member (o, "decode_status", etl_decode_status_name (etl_decode_status_of (&r, decoded)));
      assert_fields (json_object_get_object_member (o, "fields"), decoded, derived);
      g_assert_false (json_object_has_member (o, "stack"));
      /* The ActivityId when not zero, the RelatedActivityId item when 16 bytes. */
      {
        const guint8 *related;
        gsize related_len;
        guint n_ids = 0;

        if (r.has_activity_id)
          {
            etl_guid_to_string (&r.activity_id, guid);
            assert_string_member (o, "activity_id", guid);
            n_ids++;
          }
        else
          g_assert_false (json_object_has_member (o, "activity_id"));
        if (etl_record_find_ext_item (&r, ETL_EXT_TYPE_RELATED_ACTIVITYID, &related, &related_len)
            && related_len == 16)
          {
            EtlGuid g;

            etl_guid_read (&g, related);
            etl_guid_to_string (&g, guid);
            assert_string_member (o, "related_activity_id", guid);
            n_ids++;
          }
        else
          g_assert_false (json_object_has_member (o, "related_activity_id"));
        g_assert_cmpuint (json_object_get_size (o), ==, 31 + n_ids);
      }
    }
  g_assert_cmpuint (i, ==, n);
}

/* Every character class the escaping treats apart, exactly. */
static void
test_json_string (void)
{
  static const char input[] = "a\x00\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x1b\x1f\x20\"\\/\x7f"
                              "\xe2\x80\xa8\xe2\x80\xa9"      /* U+2028, U+2029 */
                              "\xf0\x9f\x98\x80"              /* U+1F600 */
                              "\xc3\xa9"                      /* é */
                              "\xff"                          /* never valid */
                              "\xc0\xaf"                      /* overlong '/' */
                              "\xed\xa0\x80"                  /* an encoded surrogate */
                              "\xe2\x82"                      /* cut short */
                              "z";
  static const char expected[] = "\"a\\u0000\\u0001\\u0007\\b\\t\\n\\u000b\\f\\r\\u001b\\u001f \\\"\\\\/\\u007f"
                                 "\\u2028\\u2029"
                                 "\xf0\x9f\x98\x80"
                                 "\xc3\xa9"
                                 "\xef\xbf\xbd"
                                 "\xef\xbf\xbd\xef\xbf\xbd"
                                 "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                                 "\xef\xbf\xbd\xef\xbf\xbd"
                                 "z\"";
  static const char parsed[] = "a\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x1b\x1f\x20\"\\/\x7f"
                               "\xe2\x80\xa8\xe2\x80\xa9\xf0\x9f\x98\x80\xc3\xa9"
                               "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                               "\xef\xbf\xbd"
                               "z";
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (GString) object = NULL;
  g_autoptr (JsonNode) node = NULL;
  const char *value;

  etl_dump_append_json_string (out, input, sizeof input - 1);
  g_assert_cmpstr (out->str, ==, expected);
  g_assert_true (g_utf8_validate (out->str, -1, NULL));

  /* json-glib reads it back; U+0000 ends its C string, so it comes back
   * without the "a\0" prefix compared here. */
  object = g_string_new ("{\"s\":");
  g_string_append (object, out->str);
  g_string_append_c (object, '}');
  node = parse_line (object->str);
  value = json_object_get_string_member (json_node_get_object (node), "s");
  g_assert_cmpstr (value, ==, "a");
  {
    /* The rest, after the escaped NUL. */
    g_autoptr (GString) rest = g_string_new ("{\"s\":");
    g_autoptr (JsonNode) rest_node = NULL;

    etl_dump_append_json_string (rest, input + 2, sizeof input - 3);
    g_string_append_c (rest, '}');
    rest_node = parse_line (rest->str);
    g_assert_cmpstr (json_object_get_string_member (json_node_get_object (rest_node), "s"), ==, parsed + 1);
  }

  /* Long clean runs (the 8-byte scan) and a special byte at every position. */
  for (guint at = 0; at < 40; at++)
    {
      char buf[41];
      g_autoptr (GString) s = g_string_new (NULL);
      g_autofree char *want = NULL;

      memset (buf, 'x', 40);
      buf[40] = '\0';
      buf[at] = '"';
      etl_dump_append_json_string (s, buf, -1);
      buf[at] = '\0';
      want = g_strdup_printf ("\"%s\\\"%s\"", buf, buf + at + 1);
      g_assert_cmpstr (s->str, ==, want);
    }
  g_string_truncate (out, 0);
  etl_dump_append_json_string (out, "", -1);
  g_assert_cmpstr (out->str, ==, "\"\"");
}

static const EtlGuid test_guid = { 0x11111111, 0x2222, 0x3333, { 4, 5, 6, 7, 8, 9, 10, 11 } };

/* Hand-made UTF-16 and ANSI payloads through the decoder and the "fields"
 * object: unpaired surrogates and invalid ANSI bytes are U+FFFD (decoder),
 * control characters escaped, a repeated name once with its last value. */
static void
test_decoded_strings (void)
{
  static const guint8 payload[] = {
    /* W1: "q\"\\" U+0001 U+001F U+007F U+2028 U+1F600 (pair) lone-high 'x' lone-low U+0000 */
    'q', 0, '"', 0, '\\', 0, 0x01, 0, 0x1f, 0, 0x7f, 0, 0x28, 0x20, 0x3d, 0xd8, 0x00, 0xde, 0x00, 0xd8, 'x', 0,
    0x00, 0xdc, 0, 0,
    /* A1: 'a' 0xff 'b' 0xc3 (cut) '\t' 0xe9 NUL */
    'a', 0xff, 'b', 0xc3, '\t', 0xe9, 0,
    /* Dup: 1, then 2 */
    1, 2,
  };
  EtlSchemaKey key;
  g_autoptr (EtlSchema) schema = NULL;
  g_autoptr (EtlDecoded) d = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GList) members = NULL;
  JsonObject *o;
  EtlRecord r;

  etl_schema_key_init_event_id (&key, &test_guid, 7, 0);
  schema = etl_schema_new (&key, ETL_SCHEMA_SOURCE_MANIFEST);
  etl_schema_add_property (schema, "W1", ETL_IN_UNICODESTRING, ETL_OUT_NULL);
  etl_schema_add_property (schema, "A1", ETL_IN_ANSISTRING, ETL_OUT_NULL);
  etl_schema_add_property (schema, "Dup", ETL_IN_UINT8, ETL_OUT_NULL);
  etl_schema_add_property (schema, "Dup", ETL_IN_UINT8, ETL_OUT_NULL);
  memset (&r, 0, sizeof r);
  r.header_type = ETL_HEADER_TYPE_EVENT_HEADER64;
  r.kind = ETL_RECORD_KIND_MANIFEST;
  r.provider = test_guid;
  r.event_id = 7;
  r.user_data = payload;
  r.user_data_len = sizeof payload;
  d = etl_decode_with_schema (schema, NULL, &r);
  g_assert_true (d->complete);
  g_assert_cmpuint (d->fields->len, ==, 4);

  etl_dump_append_json_fields (out, d, NULL);
  g_assert_cmpstr (out->str, ==,
                   "{\"W1\":\"q\\\"\\\\\\u0001\\u001f\\u007f\\u2028\xf0\x9f\x98\x80\xef\xbf\xbdx\xef\xbf\xbd\","
                   "\"A1\":\"a\xef\xbf\xbd"
                   "b\xef\xbf\xbd\\t\xef\xbf\xbd\","
                   "\"Dup\":\"2\"}");
  node = parse_line (out->str);
  o = json_node_get_object (node);
  g_assert_cmpstr (json_object_get_string_member (o, "W1"), ==,
                   "q\"\\\x01\x1f\x7f\xe2\x80\xa8\xf0\x9f\x98\x80\xef\xbf\xbdx\xef\xbf\xbd");
  g_assert_cmpstr (json_object_get_string_member (o, "A1"), ==, "a\xef\xbf\xbd"
                                                                  "b\xef\xbf\xbd\t\xef\xbf\xbd");
  g_assert_cmpstr (json_object_get_string_member (o, "Dup"), ==, "2");
  members = json_object_get_members (o);
  g_assert_cmpuint (g_list_length (members), ==, 3);
}

/* More fields than the quadratic de-duplication handles: the hash path. */
static void
test_many_fields (void)
{
  g_autoptr (GArray) fields = g_array_new (FALSE, TRUE, sizeof (EtlField));
  g_autoptr (GPtrArray) strings = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) out = g_string_new (NULL);
  g_autoptr (JsonNode) node = NULL;
  g_autoptr (GList) members = NULL;
  EtlDecoded d = { NULL, fields, TRUE, 0 };
  JsonObject *o;

  for (guint k = 0; k < 200; k++)
    {
      EtlField f = { 0 };

      f.name = g_strdup_printf ("F%u", k % 150);
      f.value = g_strdup_printf ("%u", k);
      g_ptr_array_add (strings, f.name);
      g_ptr_array_add (strings, f.value);
      g_array_append_val (fields, f);
    }
  etl_dump_append_json_fields (out, &d, NULL);
  node = parse_line (out->str);
  o = json_node_get_object (node);
  members = json_object_get_members (o);
  g_assert_cmpuint (g_list_length (members), ==, 150);
  g_assert_cmpstr (members->data, ==, "F0");
  g_assert_cmpstr (g_list_nth_data (members, 149), ==, "F149");
  g_assert_cmpstr (json_object_get_string_member (o, "F0"), ==, "150");
  g_assert_cmpstr (json_object_get_string_member (o, "F49"), ==, "199");
  g_assert_cmpstr (json_object_get_string_member (o, "F50"), ==, "50");
  g_assert_true (g_str_has_prefix (out->str, "{\"F0\":\"150\",\"F1\":\"151\","));
}

/* CSV: the header, one line a record (quoted values may hold newlines), --limit, --no-fields. */
static void
test_csv_and_limit (void)
{
  g_autofree char *path = etl_test_corpus_path ("gcevents.etl");
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (GString) csv = NULL;
  g_autoptr (GString) limited = NULL;
  g_autoptr (GString) bare = NULL;
  g_autofree char *header = NULL;
  g_autoptr (GString) one = g_string_new (NULL);
  g_auto (GStrv) lines = NULL;

  if (path == NULL)
    return;
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  csv = dump (trace, ETL_DUMP_CSV, ETL_DUMP_FIELDS, G_MAXUINT64, 0);
  header = g_strjoinv (",", (char **)etl_dump_csv_columns ());
  g_assert_true (g_str_has_prefix (csv->str, header));
  g_assert_nonnull (strstr (header, ",keyword_names,decode_status,fields"));
  g_assert_cmpint (csv->str[strlen (header)], ==, '\n');
  g_assert_true (etl_dump_append_record (one, trace, NULL, ETL_DUMP_CSV, ETL_DUMP_FIELDS, 0, &error));
  g_assert_no_error (error);
  g_assert_true (strncmp (csv->str + strlen (header) + 1, one->str, one->len) == 0);
  g_assert_true (g_str_has_prefix (one->str, "0,0,"));
  g_assert_nonnull (strstr (one->str, ",,decoded,")); /* no keyword names, then decode_status */

  limited = dump (trace, ETL_DUMP_JSONL, ETL_DUMP_FIELDS, 5, 0);
  lines = g_strsplit (limited->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 6);
  g_assert_cmpstr (lines[5], ==, "");

  bare = dump (trace, ETL_DUMP_JSONL, ETL_DUMP_NONE, 1, 0);
  g_assert_null (strstr (bare->str, "\"fields\""));
  g_assert_true (g_str_has_suffix (bare->str, "\"keyword_names\":[],\"decode_status\":\"decoded\"}\n"));
  g_assert_true (g_str_has_prefix (bare->str, "{\"index\":0,\"file\":0,\"cpu\":"));
  g_assert_nonnull (strstr (bare->str, ",\"rel_ms\":0.0,"));
}

/* No corpus: one test that says so (a skip, or in CI a failure). */
static void
test_corpus_absent (void)
{
  etl_test_corpus_missing (etl_test_corpus_dir ());
}

int
main (int argc, char **argv)
{
  g_autoptr (GPtrArray) names = etl_test_corpus_list ();

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/dump/json-string", test_json_string);
  g_test_add_func ("/etl/dump/decoded-strings", test_decoded_strings);
  g_test_add_func ("/etl/dump/many-fields", test_many_fields);
  g_test_add_func ("/etl/dump/csv-and-limit", test_csv_and_limit);
  /* One test a corpus trace (ETL_CORPUS_DIR/ *.etl and real/ *.etl). */
  for (guint k = 0; k < names->len; k++)
    {
      g_autofree char *test = g_strdup_printf ("/etl/dump/corpus/%s", (const char *)g_ptr_array_index (names, k));

      g_test_add_data_func (test, g_ptr_array_index (names, k), test_corpus_file);
    }
  if (names->len == 0)
    g_test_add_func ("/etl/dump/corpus", test_corpus_absent);
  return g_test_run ();
}
