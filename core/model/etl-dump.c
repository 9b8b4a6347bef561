/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-dump
 * @title: Dump
 * @short_description: every record of a trace as JSON lines or CSV, fast
 *
 * etl_dump_write() prints a trace's records in merged order, one line each:
 * the header columns (index, file, CPU, raw and FILETIME timestamps, header
 * type, pid/tid, provider GUID and name, EVENT_DESCRIPTOR fields, payload
 * length and file offset), the schema's names (event, task, opcode, level,
 * keywords), the process the record belongs to, why the record is or is not
 * decoded ("decode_status": etl_decode_status_name(), etl-decode-status.h),
 * the EVENT_HEADER ActivityId and the RelatedActivityId extended item when
 * the record has them (JSON form only: "activity_id" when not zero,
 * "related_activity_id" when the item holds 16 bytes, as GUID strings),
 * and optionally the decoded payload fields and the record's call stack (etl-stacks.h).  This is what
 * `etlscope-cli dump` prints.
 *
 * Speed: each line is written straight into a text buffer, with no JSON tree
 * per record (json-glib's JsonBuilder/JsonGenerator cost about 25 µs a
 * record, more than decoding), which is why this file has its own JSON
 * string escaping and number formatting.  Decoding the payloads costs some
 * 0.4 µs a record, so records are read, decoded and formatted by a
 * #GThreadPool in chunks of %CHUNK_ROWS consecutive rows, each into its own
 * buffer; the calling thread hands the chunks to the writer strictly in
 * order and keeps at most two chunks a worker in flight, so memory stays
 * bounded whatever the trace's size.  etl_trace_get_record(),
 * etl_trace_decode_record(), the schema registry, the process table and
 * #EtlStacks are safe to use from several threads.  Each chunk buffer also
 * keeps a small cache of the event and provider names of the schemas it
 * met, already as JSON text, since they are the same for every record of a
 * schema.
 *
 * JSON: the output is valid UTF-8 (RFC 8259 §8.1).  Strings are escaped as
 * json-glib's generator does — `\"`, `\\`, `\b \f \n \r \t`, other control
 * characters (U+0000–U+001F and U+007F) as `\u00xx` with lower-case hex —
 * and also U+2028 and U+2029 as `\u2028` / `\u2029` (valid raw in JSON, but
 * line terminators for JavaScript).  Decoded strings are valid UTF-8
 * already (etl-decode.c turns unpaired UTF-16 surrogates and invalid ANSI
 * bytes into U+FFFD); any other invalid UTF-8 byte (a name from a damaged
 * manifest, say) is written as U+FFFD, one per byte, like
 * g_utf8_make_valid().  Characters outside the BMP are written as their
 * UTF-8 bytes.  "rel_ms" (milliseconds from the trace's origin) is the
 * exact decimal of the 100-ns FILETIME tick count: up to four decimals,
 * trailing zeros dropped, at least one ("0.0", "0.0074", "12.5"), which is
 * also the shortest form that reads back as the same double.  When several
 * fields share a name, the object holds the name once, at its first place,
 * with the last value (as JsonObject does).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-dump.h"
#include "etl-dump-private.h"

#include <string.h>

#include "etl-decode.h"
#include "etl-decode-status.h"
#include "etl-names.h"
#include "etl-process-table.h"
#include "etl-record.h"

/* Rows a worker formats at a time: big enough that handing chunks around
 * costs nothing, small enough that the chunks in flight take a few MB. */
#define CHUNK_ROWS 8192

/* More workers than this gain nothing: the calling thread writes alone. */
#define MAX_THREADS 16

static const char *const csv_columns[] = {
  "index", "file", "cpu", "ts_raw", "filetime", "rel_ms", "header_type", "kind", "pid", "tid",
  "provider", "provider_name", "name", "event_id", "opcode", "version", "level", "task",
  "keyword", "channel", "flags", "data_len", "offset", "process_id", "process_name", "task_name",
  "opcode_name", "level_name", "keyword_names", "decode_status", "fields", NULL
};

/**
 * etl_dump_csv_columns:
 *
 * The columns of etl_dump_write()'s CSV form, in order; the JSON form has
 * the same members in the same order ("fields" only with %ETL_DUMP_FIELDS,
 * then "stack" for records that have one).
 *
 * Returns: (transfer none) (array zero-terminated=1): the column names
 */
const char *const *
etl_dump_csv_columns (void)
{
  return csv_columns;
}

/* ------------------------------------------------------------------------ */
/* Text                                                                     */

/* g_string_append_len() without the call when there is room (GLib 2.76
 * inlines the same; older GLib does not, and a line is ~60 appends). */
static inline void
put (GString *s, const char *p, gsize n)
{
  if (G_LIKELY (s->len + n < s->allocated_len))
    {
      memcpy (s->str + s->len, p, n);
      s->len += n;
      s->str[s->len] = '\0';
    }
  else
    g_string_append_len (s, p, (gssize)n);
}

static inline void
put_c (GString *s, char c)
{
  if (G_LIKELY (s->len + 1 < s->allocated_len))
    {
      s->str[s->len++] = c;
      s->str[s->len] = '\0';
    }
  else
    g_string_append_c (s, c);
}

#define APPEND_LITERAL(s, lit) put ((s), (lit), sizeof (lit) - 1)

/* "0x1f": lower-case hex, as "0x%" G_GINT64_MODIFIER "x" prints it. */
static void
append_hex (GString *s, guint64 v)
{
  static const char hex[] = "0123456789abcdef";
  char buf[18];
  char *p = buf + sizeof buf;

  do
    {
      *--p = hex[v & 15];
      v >>= 4;
    }
  while (v != 0);
  *--p = 'x';
  *--p = '0';
  put (s, p, (gsize)(buf + sizeof buf - p));
}

static void
append_int (GString *s, gint64 value)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 u = value < 0 ? -(guint64)value : (guint64)value;

  do
    {
      *--p = (char)('0' + u % 10);
      u /= 10;
    }
  while (u != 0);
  if (value < 0)
    *--p = '-';
  put (s, p, (gsize)(buf + sizeof buf - p));
}

/* "12.5": @ticks 100-ns units as milliseconds, exactly (see the section). */
static void
append_ticks_as_ms (GString *s, gint64 ticks)
{
  guint64 u = ticks < 0 ? -(guint64)ticks : (guint64)ticks;
  guint frac = (guint)(u % 10000);
  char digits[5];
  int n = 4;

  if (ticks < 0)
    put_c (s, '-');
  append_int (s, (gint64)(u / 10000));
  put_c (s, '.');
  for (int k = 3; k >= 0; k--)
    {
      digits[k] = (char)('0' + frac % 10);
      frac /= 10;
    }
  while (n > 1 && digits[n - 1] == '0')
    n--;
  put (s, digits, (gsize)n);
}

/* Bytes a JSON string cannot hold as they are, or that need a look: control
 * characters (NUL included, which ends a C string), '"', '\\', DEL and
 * every non-ASCII byte (checked as UTF-8). */
#define R16(x) x, x, x, x, x, x, x, x, x, x, x, x, x, x, x, x
static const guint8 json_special[256] = {
  R16 (1), R16 (1),
  0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, /* 0x22 '"' */
  R16 (0), R16 (0),
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, /* 0x5C '\\' */
  R16 (0),
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, /* 0x7F */
  R16 (1), R16 (1), R16 (1), R16 (1), R16 (1), R16 (1), R16 (1), R16 (1),
};
#undef R16

/* Room for @n more bytes at the end of @s: returns where to write them
 * (length and NUL already set). */
static inline char *
grow (GString *s, gsize n)
{
  gsize at = s->len;

  if (G_LIKELY (at + n < s->allocated_len))
    {
      s->len += n;
      s->str[s->len] = '\0';
    }
  else
    g_string_set_size (s, at + n);
  return s->str + at;
}

/* The first byte at or after @p that needs a look (or @end). */
static inline const guchar *
skip_plain (const guchar *p, const guchar *end)
{
  while (p + 4 <= end && !(json_special[p[0]] | json_special[p[1]] | json_special[p[2]] | json_special[p[3]]))
    p += 4;
  while (p < end && !json_special[*p])
    p++;
  return p;
}

/* "…" for the bytes from @p to @end, @p at the first one that needs a look. */
static void
escape_json_slow (GString *out, const guchar *start, const guchar *p, const guchar *end)
{
  static const char hex[] = "0123456789abcdef";

  put_c (out, '"');
  if (p > start)
    put (out, (const char *)start, (gsize)(p - start));
  while (p < end)
    {
      const guchar *run = p;
      gunichar c;

      p = skip_plain (p, end);
      if (p > run)
        put (out, (const char *)run, (gsize)(p - run));
      if (p >= end)
        break;
      if (*p < 0x80)
        {
          switch (*p)
            {
            case '"': APPEND_LITERAL (out, "\\\""); break;
            case '\\': APPEND_LITERAL (out, "\\\\"); break;
            case '\b': APPEND_LITERAL (out, "\\b"); break;
            case '\f': APPEND_LITERAL (out, "\\f"); break;
            case '\n': APPEND_LITERAL (out, "\\n"); break;
            case '\r': APPEND_LITERAL (out, "\\r"); break;
            case '\t': APPEND_LITERAL (out, "\\t"); break;
            default:
              {
                char u[6] = { '\\', 'u', '0', '0', hex[*p >> 4], hex[*p & 15] };

                put (out, u, sizeof u);
              }
              break;
            }
          p++;
          continue;
        }
      /* Non-ASCII: one whole, valid UTF-8 sequence, or U+FFFD for one byte. */
      c = g_utf8_get_char_validated ((const char *)p, end - p);
      if (c == (gunichar)-1 || c == (gunichar)-2)
        {
          APPEND_LITERAL (out, "\xEF\xBF\xBD");
          p++;
          continue;
        }
      if (c == 0x2028)
        APPEND_LITERAL (out, "\\u2028");
      else if (c == 0x2029)
        APPEND_LITERAL (out, "\\u2029");
      else
        put (out, (const char *)p, (gsize)g_utf8_skip[*p]);
      p += g_utf8_skip[*p];
    }
  put_c (out, '"');
}

/* Plain text (the usual case) in one copy. */
static inline void
quote_plain (GString *out, const guchar *start, gsize n)
{
  char *d = grow (out, n + 2);

  d[0] = '"';
  memcpy (d + 1, start, n);
  d[n + 1] = '"';
}

static void
escape_json (GString *out, const guchar *start, const guchar *end)
{
  const guchar *p = skip_plain (start, end);

  if (p == end)
    quote_plain (out, start, (gsize)(end - start));
  else
    escape_json_slow (out, start, p, end);
}

/* A NUL-terminated string: no strlen() unless it needs escaping. */
static void
escape_json_cstr (GString *out, const char *str)
{
  const guchar *start = (const guchar *)str;
  const guchar *p = start;

  /* && stops at the first special byte, so nothing past the NUL is read. */
  while (!json_special[p[0]] && !json_special[p[1]] && !json_special[p[2]] && !json_special[p[3]])
    p += 4;
  while (!json_special[*p])
    p++;
  if (*p == '\0')
    quote_plain (out, start, (gsize)(p - start));
  else
    escape_json_slow (out, start, p, p + strlen ((const char *)p));
}

/**
 * etl_dump_append_json_string:
 * @out: where to append
 * @str: UTF-8 text (invalid bytes allowed)
 * @len: length of @str in bytes, or -1 when NUL-terminated
 *
 * Appends @str as a JSON string, quotes included: escaped as the section
 * describes (RFC 8259 §7), invalid UTF-8 bytes written as U+FFFD each, so
 * the result is always valid UTF-8 JSON.
 */
void
etl_dump_append_json_string (GString *out, const char *str, gssize len)
{
  g_return_if_fail (out != NULL);
  g_return_if_fail (str != NULL || len == 0);

  if (str == NULL)
    str = "";
  if (len < 0)
    escape_json_cstr (out, str);
  else
    escape_json (out, (const guchar *)str, (const guchar *)str + len);
}

static void
append_json_member (GString *s, const char *name)
{
  escape_json_cstr (s, name);
  put_c (s, ':');
}

static void
append_json_string_or_null (GString *s, const char *value)
{
  if (value != NULL)
    escape_json_cstr (s, value);
  else
    APPEND_LITERAL (s, "null");
}

/* ,"name":"value" or ,"name":null */
#define MEMBER_STRING(s, lit, value) \
  do { APPEND_LITERAL ((s), ",\"" lit "\":"); append_json_string_or_null ((s), (value)); } while (0)
#define MEMBER_INT(s, lit, value) \
  do { APPEND_LITERAL ((s), ",\"" lit "\":"); append_int ((s), (gint64)(value)); } while (0)

static void
csv_field (GString *line, const char *value, gboolean first)
{
  if (!first)
    g_string_append_c (line, ',');
  if (value == NULL)
    return;
  if (strpbrk (value, ",\"\r\n") != NULL)
    {
      g_string_append_c (line, '"');
      for (const char *p = value; *p; p++)
        {
          if (*p == '"')
            g_string_append_c (line, '"');
          g_string_append_c (line, *p);
        }
      g_string_append_c (line, '"');
    }
  else
    g_string_append (line, value);
}

static void
csv_int (GString *line, gint64 value)
{
  put_c (line, ',');
  append_int (line, value);
}

/* ------------------------------------------------------------------------ */
/* One record                                                               */

/* What a record means: its schema's names, its fields and its process. */
typedef struct
{
  EtlDecoded *decoded;
  GArray *derived; /* EtlField: what TraceEvent computes for kernel events, or NULL */
  const char *name;
  const char *provider_name;
  char *own_name;
  char *own_provider_name;
  const struct _NameEntry *entry; /* the cached names, or NULL */
  const EtlProcess *process;
  guint32 process_id;
  gboolean has_process_id;
  EtlDecodeStatus status;
} Meaning;

/* The event and provider names of the last records of a schema: they
 * depend only on the schema, the provider GUID, the header kind and the
 * HookId when the record has no extended items (etl_schema_dup_display_name(),
 * etl_record_dup_provider_name()), and making them costs two allocations
 * and a printf a record. */
typedef struct _NameEntry
{
  EtlSchema *schema; /* a reference */
  EtlGuid provider;
  guint16 hook_id;
  guint8 kind;
  char *name;
  char *provider_name;
  GString *json_names;  /* ,"provider":…,"provider_name":…,"name":… */
  GString *json_schema; /* ,"task_name":…,"opcode_name":…,"level_name":…,"keyword_names":[…] */
} NameEntry;

#define NAME_CACHE_SIZE 256

static void
name_cache_free (NameEntry *cache)
{
  for (guint k = 0; cache != NULL && k < NAME_CACHE_SIZE; k++)
    {
      g_clear_pointer (&cache[k].schema, etl_schema_unref);
      g_free (cache[k].name);
      g_free (cache[k].provider_name);
      if (cache[k].json_names != NULL)
        g_string_free (cache[k].json_names, TRUE);
      if (cache[k].json_schema != NULL)
        g_string_free (cache[k].json_schema, TRUE);
    }
  g_free (cache);
}

static void append_json_names (GString *s, const char *guid, const char *provider_name, const char *name);
static void append_json_schema_names (GString *s, const EtlSchema *schema);

static char *
dup_provider_name (const EtlRecord *r, EtlSchema *schema, const char *guid)
{
  char *name = etl_record_dup_provider_name (r);

  /* A provider only its metadata names (the table knows it by GUID). */
  if (strcmp (name, guid) == 0 && schema != NULL && schema->provider_name != NULL)
    {
      g_free (name);
      name = g_strdup (schema->provider_name);
    }
  return name;
}

static void
meaning_init (Meaning *m, EtlTrace *trace, const EtlRecord *r, const char *guid, gboolean with_derived,
              NameEntry *cache)
{
  EtlSchema *schema;
  EtlProcessTable *table = etl_trace_get_process_table (trace);

  m->decoded = etl_trace_decode_record (trace, r);
  m->status = etl_decode_status_of (r, m->decoded);
  m->derived = with_derived && m->decoded != NULL ? etl_trace_get_derived_fields (trace, r, m->decoded) : NULL;
  schema = m->decoded != NULL ? m->decoded->schema : NULL;
  m->has_process_id = etl_process_table_resolve_record (table, r, m->decoded, &m->process_id, NULL);
  m->process = m->has_process_id ? etl_process_table_lookup (table, m->process_id, r->filetime) : NULL;
  if (schema != NULL && r->ext == NULL && cache != NULL)
    {
      guint h = (GPOINTER_TO_UINT (schema) >> 4) ^ r->provider.data1 ^ ((guint)r->hook_id << 3) ^ r->kind;
      NameEntry *e = &cache[(h ^ (h >> 8)) % NAME_CACHE_SIZE];

      if (e->schema != schema || e->hook_id != r->hook_id || e->kind != r->kind
          || !etl_guid_equal (&e->provider, &r->provider))
        {
          g_clear_pointer (&e->schema, etl_schema_unref);
          g_free (e->name);
          g_free (e->provider_name);
          e->schema = etl_schema_ref (schema);
          e->provider = r->provider;
          e->hook_id = r->hook_id;
          e->kind = r->kind;
          e->name = etl_schema_dup_display_name (schema);
          e->provider_name = dup_provider_name (r, schema, guid);
          if (e->json_names == NULL)
            {
              e->json_names = g_string_new (NULL);
              e->json_schema = g_string_new (NULL);
            }
          g_string_truncate (e->json_names, 0);
          g_string_truncate (e->json_schema, 0);
          append_json_names (e->json_names, guid, e->provider_name, e->name);
          append_json_schema_names (e->json_schema, schema);
        }
      m->name = e->name;
      m->provider_name = e->provider_name;
      m->entry = e;
      return;
    }
  m->name = m->own_name = schema != NULL ? etl_schema_dup_display_name (schema) : etl_record_dup_event_name (r);
  m->provider_name = m->own_provider_name = dup_provider_name (r, schema, guid);
}

static void
meaning_clear (Meaning *m)
{
  g_clear_pointer (&m->decoded, etl_decoded_free);
  g_clear_pointer (&m->derived, g_array_unref);
  g_clear_pointer (&m->own_name, g_free);
  g_clear_pointer (&m->own_provider_name, g_free);
}

/* One field to write, with its name's hash to find repeated names fast. */
typedef struct
{
  const EtlField *field;
  guint hash;
  guint last; /* index of the last field with this name */
} Slot;

/* Fields past this many are de-duplicated through a hash table. */
#define SMALL_FIELDS 64

/* The first two bytes of a name: enough to tell most names apart before strcmp(). */
static inline guint
name_hash (const char *name)
{
  return name[0] == '\0' ? 0 : (guint)(guchar)name[0] | ((guint)(guchar)name[1] << 8);
}

/* Whether one of the first @n slots is called @name. */
static gboolean
slots_have (const Slot *v, guint n, const char *name, guint hash)
{
  for (guint k = 0; k < n; k++)
    if (v[k].hash == hash && strcmp (v[k].field->name, name) == 0)
      return TRUE;
  return FALSE;
}

/* "fields":{...}: the payload, then what TraceEvent derives unless the
 * payload has it; a repeated name once, at its first place, with its last
 * value (what JsonObject makes of it). */
static void
append_json_fields (GString *s, const EtlDecoded *decoded, const GArray *derived, GArray *slots)
{
  gboolean first = TRUE;
  guint n_fields, n_payload, n = 0;
  Slot *v;

  n_fields = (decoded != NULL && decoded->fields != NULL ? decoded->fields->len : 0)
             + (decoded != NULL && derived != NULL ? derived->len : 0);
  g_array_set_size (slots, n_fields);
  v = (Slot *)(void *)slots->data;
  for (guint f = 0; decoded != NULL && decoded->fields != NULL && f < decoded->fields->len; f++)
    {
      const EtlField *field = &g_array_index (decoded->fields, EtlField, f);

      if (field->name != NULL)
        {
          v[n].field = field;
          v[n].hash = name_hash (field->name);
          v[n].last = n;
          n++;
        }
    }
  n_payload = n;
  for (guint f = 0; decoded != NULL && derived != NULL && f < derived->len; f++)
    {
      const EtlField *field = &g_array_index (derived, EtlField, f);
      guint hash;

      /* etl_decoded_find (decoded, field->name) == NULL, faster. */
      if (field->name == NULL)
        continue;
      hash = name_hash (field->name);
      if (!slots_have (v, n_payload, field->name, hash))
        {
          v[n].field = field;
          v[n].hash = hash;
          v[n].last = n;
          n++;
        }
    }
  g_array_set_size (slots, n);

  /* last: the last slot of each name at the first slot of it, G_MAXUINT at the others. */
  if (slots->len > SMALL_FIELDS)
    {
      g_autoptr (GHashTable) firsts = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint f = 0; f < slots->len; f++)
        {
          gpointer at;

          if (g_hash_table_lookup_extended (firsts, v[f].field->name, NULL, &at))
            {
              v[GPOINTER_TO_UINT (at)].last = f;
              v[f].last = G_MAXUINT;
            }
          else
            g_hash_table_insert (firsts, (gpointer)v[f].field->name, GUINT_TO_POINTER (f));
        }
    }
  else
    for (guint f = 1; f < slots->len; f++)
      for (guint g = 0; g < f; g++)
        if (v[g].last != G_MAXUINT && v[g].hash == v[f].hash && strcmp (v[g].field->name, v[f].field->name) == 0)
          {
            v[g].last = f;
            v[f].last = G_MAXUINT;
            break;
          }

  put_c (s, '{');
  for (guint f = 0; f < slots->len; f++)
    {
      if (v[f].last == G_MAXUINT)
        continue;
      if (!first)
        put_c (s, ',');
      first = FALSE;
      append_json_member (s, v[f].field->name);
      append_json_string_or_null (s, v[v[f].last].field->value);
    }
  put_c (s, '}');
}

/* ,"provider":…,"provider_name":…,"name":… */
static void
append_json_names (GString *s, const char *guid, const char *provider_name, const char *name)
{
  MEMBER_STRING (s, "provider", guid);
  MEMBER_STRING (s, "provider_name", provider_name);
  MEMBER_STRING (s, "name", name);
}

/* ,"task_name":…,"opcode_name":…,"level_name":…,"keyword_names":[…] */
static void
append_json_schema_names (GString *s, const EtlSchema *schema)
{
  MEMBER_STRING (s, "task_name", schema != NULL ? schema->task_name : NULL);
  MEMBER_STRING (s, "opcode_name", schema != NULL ? schema->opcode_name : NULL);
  MEMBER_STRING (s, "level_name", schema != NULL ? schema->level_name : NULL);
  APPEND_LITERAL (s, ",\"keyword_names\":[");
  for (guint k = 0; schema != NULL && schema->keyword_names != NULL && schema->keyword_names[k] != NULL; k++)
    {
      if (k > 0)
        put_c (s, ',');
      escape_json_cstr (s, schema->keyword_names[k]);
    }
  put_c (s, ']');
}

/* ,"activity_id":…,"related_activity_id":… when the record has them: a
 * non-zero EVENT_HEADER.ActivityId, an EVENT_HEADER_EXT_TYPE_RELATEDACTIVITYID
 * item of 16 bytes (a GUID, evntcons.h); nothing otherwise. */
static void
append_json_activity_ids (GString *s, const EtlRecord *r)
{
  char guid[ETL_GUID_STRING_LEN + 1];
  const guint8 *data;
  gsize len;

  if (r->has_activity_id && !etl_guid_is_zero (&r->activity_id))
    {
      etl_guid_to_string (&r->activity_id, guid);
      MEMBER_STRING (s, "activity_id", guid);
    }
  if (r->ext != NULL && etl_record_find_ext_item (r, ETL_EXT_TYPE_RELATED_ACTIVITYID, &data, &len) && len == 16)
    {
      EtlGuid related;

      etl_guid_read (&related, data);
      etl_guid_to_string (&related, guid);
      MEMBER_STRING (s, "related_activity_id", guid);
    }
}

static void
append_jsonl (GString *s, EtlTrace *trace, EtlStacks *stacks, EtlDumpFlags flags, guint64 index,
              const EtlRecord *r, const char *guid, const Meaning *m, GArray *scratch)
{
  EtlSchema *schema = m->decoded != NULL ? m->decoded->schema : NULL;

  APPEND_LITERAL (s, "{\"index\":");
  append_int (s, (gint64)index);
  MEMBER_INT (s, "file", r->file);
  MEMBER_INT (s, "cpu", r->cpu);
  MEMBER_INT (s, "ts_raw", r->ts_raw);
  MEMBER_INT (s, "filetime", r->filetime);
  APPEND_LITERAL (s, ",\"rel_ms\":");
  append_ticks_as_ms (s, r->filetime - etl_trace_get_origin (trace));
  MEMBER_INT (s, "header_type", r->header_type);
  MEMBER_STRING (s, "kind", etl_record_kind_name (r->kind));
  if (r->has_pid)
    {
      MEMBER_INT (s, "pid", r->pid);
      MEMBER_INT (s, "tid", r->tid);
    }
  else
    APPEND_LITERAL (s, ",\"pid\":null,\"tid\":null");
  if (m->entry != NULL)
    put (s, m->entry->json_names->str, m->entry->json_names->len);
  else
    append_json_names (s, guid, m->provider_name, m->name);
  MEMBER_INT (s, "event_id", r->event_id);
  MEMBER_INT (s, "opcode", r->opcode);
  MEMBER_INT (s, "version", r->version);
  MEMBER_INT (s, "level", r->level);
  MEMBER_INT (s, "task", r->task);
  APPEND_LITERAL (s, ",\"keyword\":\"");
  append_hex (s, r->keyword);
  put_c (s, '"');
  MEMBER_INT (s, "channel", r->channel);
  MEMBER_INT (s, "flags", r->flags);
  append_json_activity_ids (s, r);
  MEMBER_INT (s, "data_len", r->user_data_len);
  MEMBER_INT (s, "offset", r->file_offset);
  if (m->has_process_id)
    MEMBER_INT (s, "process_id", m->process_id);
  else
    APPEND_LITERAL (s, ",\"process_id\":null");
  MEMBER_STRING (s, "process_name", m->process != NULL ? m->process->image_name : NULL);
  if (m->entry != NULL)
    put (s, m->entry->json_schema->str, m->entry->json_schema->len);
  else
    append_json_schema_names (s, schema);
  APPEND_LITERAL (s, ",\"decode_status\":\"");
  {
    const char *status = etl_decode_status_name (m->status);

    put (s, status, strlen (status));
  }
  put_c (s, '"');
  if (flags & ETL_DUMP_FIELDS)
    {
      APPEND_LITERAL (s, ",\"fields\":");
      append_json_fields (s, m->decoded, m->derived, scratch);
    }
  if (stacks != NULL)
    {
      g_auto (GStrv) frames = etl_stacks_dup_symbolized (stacks, index);

      if (frames != NULL)
        {
          APPEND_LITERAL (s, ",\"stack\":[");
          for (guint k = 0; frames[k] != NULL; k++)
            {
              if (k > 0)
                put_c (s, ',');
              escape_json_cstr (s, frames[k]);
            }
          put_c (s, ']');
        }
    }
  APPEND_LITERAL (s, "}\n");
}

static void
append_csv (GString *s, EtlTrace *trace, EtlDumpFlags flags, guint64 index, const EtlRecord *r, const char *guid,
            const Meaning *m)
{
  EtlSchema *schema = m->decoded != NULL ? m->decoded->schema : NULL;
  g_autofree char *keywords = NULL;
  g_autofree char *payload = NULL;
  char num[G_ASCII_DTOSTR_BUF_SIZE];

  append_int (s, (gint64)index);
  csv_int (s, r->file);
  csv_int (s, r->cpu);
  csv_int (s, r->ts_raw);
  csv_int (s, r->filetime);
  g_ascii_formatd (num, sizeof num, "%.4f", etl_trace_filetime_to_ms (trace, r->filetime));
  csv_field (s, num, FALSE);
  csv_int (s, r->header_type);
  csv_field (s, etl_record_kind_name (r->kind), FALSE);
  if (r->has_pid)
    {
      csv_int (s, r->pid);
      csv_int (s, r->tid);
    }
  else
    APPEND_LITERAL (s, ",,");
  csv_field (s, guid, FALSE);
  csv_field (s, m->provider_name, FALSE);
  csv_field (s, m->name, FALSE);
  csv_int (s, r->event_id);
  csv_int (s, r->opcode);
  csv_int (s, r->version);
  csv_int (s, r->level);
  csv_int (s, r->task);
  g_snprintf (num, sizeof num, "0x%" G_GINT64_MODIFIER "x", r->keyword);
  csv_field (s, num, FALSE);
  csv_int (s, r->channel);
  csv_int (s, r->flags);
  csv_int (s, (gint64)r->user_data_len);
  csv_int (s, (gint64)r->file_offset);
  if (m->has_process_id)
    csv_int (s, m->process_id);
  else
    put_c (s, ',');
  csv_field (s, m->process != NULL ? m->process->image_name : NULL, FALSE);
  csv_field (s, schema != NULL ? schema->task_name : NULL, FALSE);
  csv_field (s, schema != NULL ? schema->opcode_name : NULL, FALSE);
  csv_field (s, schema != NULL ? schema->level_name : NULL, FALSE);
  if (schema != NULL && schema->keyword_names != NULL)
    keywords = g_strjoinv ("|", schema->keyword_names);
  csv_field (s, keywords, FALSE);
  csv_field (s, etl_decode_status_name (m->status), FALSE);
  if ((flags & ETL_DUMP_FIELDS) && m->decoded != NULL)
    payload = etl_decoded_format_payload (m->decoded, G_MAXSIZE);
  csv_field (s, payload, FALSE);
  g_string_append_c (s, '\n');
}

static gboolean
append_record (GString *out, EtlTrace *trace, EtlStacks *stacks, EtlDumpFormat format, EtlDumpFlags flags,
               guint64 index, GArray *scratch, NameEntry *cache, GError **error)
{
  g_auto (EtlRecord) r = { 0 };
  Meaning m = { 0 };
  char guid[ETL_GUID_STRING_LEN + 1];

  if (!etl_trace_get_record (trace, index, &r, error))
    return FALSE;
  etl_guid_to_string (&r.provider, guid);
  meaning_init (&m, trace, &r, guid, format == ETL_DUMP_JSONL && (flags & ETL_DUMP_FIELDS), cache);
  if (format == ETL_DUMP_JSONL)
    append_jsonl (out, trace, stacks, flags, index, &r, guid, &m, scratch);
  else
    append_csv (out, trace, flags, index, &r, guid, &m);
  meaning_clear (&m);
  return TRUE;
}

/**
 * etl_dump_append_record:
 * @out: where to append the line
 * @trace: an open trace
 * @stacks: (nullable): @trace's stacks, to add each record's "stack" (JSON
 *   form only)
 * @format: JSON lines or CSV
 * @flags: what to include
 * @index: the record, below etl_trace_get_n_records()
 * @error: return location for etl_trace_get_record()'s
 *   %ETL_ERROR_DECOMPRESS or %ETL_ERROR_CORRUPT
 *
 * Appends record @index as one line of @format, newline included (see the
 * section for the members and their form).  Thread-safe.
 *
 * Returns: %FALSE when the record could not be read (@out unchanged)
 */
gboolean
etl_dump_append_record (GString *out, EtlTrace *trace, EtlStacks *stacks, EtlDumpFormat format,
                        EtlDumpFlags flags, guint64 index, GError **error)
{
  g_autoptr (GArray) scratch = g_array_new (FALSE, FALSE, sizeof (Slot));

  g_return_val_if_fail (out != NULL && trace != NULL, FALSE);
  g_return_val_if_fail (index < etl_trace_get_n_records (trace), FALSE);
  return append_record (out, trace, stacks, format, flags, index, scratch, NULL, error);
}

/*
 * etl_dump_append_json_fields: (private, etl-dump-private.h)
 * @out: where to append
 * @decoded: (nullable): a record's fields
 * @derived: (nullable) (element-type EtlField): its derived fields
 *
 * Appends the JSON object a dump line holds as "fields" (the tests check
 * it on hand-made payloads).
 */
void
etl_dump_append_json_fields (GString *out, const EtlDecoded *decoded, const GArray *derived)
{
  g_autoptr (GArray) slots = g_array_new (FALSE, FALSE, sizeof (Slot));

  append_json_fields (out, decoded, derived, slots);
}

/* ------------------------------------------------------------------------ */
/* The whole trace, in parallel                                             */

typedef struct
{
  guint64 index;
  GError *error;
} Problem;

typedef struct
{
  guint64 first;
  guint64 n;
  GString *text;
  GArray *problems; /* Problem */
  GArray *scratch;   /* Slot */
  NameEntry *names;  /* NAME_CACHE_SIZE entries */
  gboolean done;
} Chunk;

typedef struct
{
  EtlTrace *trace;
  EtlStacks *stacks;
  EtlDumpFormat format;
  EtlDumpFlags flags;
  GMutex lock;
  GCond cond;
} Job;

static void
clear_problem (gpointer p)
{
  g_clear_error (&((Problem *)p)->error);
}

static void
format_chunk (Chunk *c, Job *job)
{
  for (guint64 i = c->first; i < c->first + c->n; i++)
    {
      Problem p = { i, NULL };

      if (!append_record (c->text, job->trace, job->stacks, job->format, job->flags, i, c->scratch, c->names, &p.error))
        g_array_append_val (c->problems, p);
    }
}

static void
worker (gpointer data, gpointer user_data)
{
  Chunk *c = data;
  Job *job = user_data;

  format_chunk (c, job);
  g_mutex_lock (&job->lock);
  c->done = TRUE;
  g_cond_broadcast (&job->cond);
  g_mutex_unlock (&job->lock);
}

/* Hands a finished chunk to the caller's functions; FALSE when writing failed. */
static gboolean
emit_chunk (Chunk *c, EtlDumpWriteFunc write, EtlDumpProblemFunc problem, gpointer user_data,
            guint64 *n_problems, GError **error)
{
  for (guint p = 0; p < c->problems->len; p++)
    {
      const Problem *pr = &g_array_index (c->problems, Problem, p);

      (*n_problems)++;
      if (problem != NULL)
        problem (pr->index, pr->error, user_data);
    }
  return c->text->len == 0 || write (c->text->str, c->text->len, user_data, error);
}

/**
 * etl_dump_write:
 * @trace: an open trace
 * @stacks: (nullable): @trace's stacks (etl_stacks_compute()), to add each
 *   record's "stack" (JSON form only)
 * @format: JSON lines or CSV (with its header line first)
 * @flags: what each line holds
 * @n_records: print the first this many records (G_MAXUINT64: all)
 * @n_threads: worker threads formatting in parallel; 0 for one a processor
 *   (at most 16), 1 to do everything in the calling thread
 * @write: (scope call): receives the text, in order, from the calling thread
 * @problem: (scope call) (nullable): told of each record that could not be
 *   read (it is left out), in order, from the calling thread
 * @user_data: closure for @write and @problem
 * @n_problems: (out) (optional): records left out
 * @error: return location for @write's error
 *
 * Prints @trace's records in merged order, one line each, as the section
 * describes.  Records are read and formatted by @n_threads workers, a chunk
 * of consecutive rows each, with at most two chunks a worker in flight.
 *
 * Returns: %FALSE when @write failed (then @error is set)
 */
gboolean
etl_dump_write (EtlTrace *trace, EtlStacks *stacks, EtlDumpFormat format, EtlDumpFlags flags, guint64 n_records,
                guint n_threads, EtlDumpWriteFunc write, EtlDumpProblemFunc problem, gpointer user_data,
                guint64 *n_problems, GError **error)
{
  Job job = { 0 };
  g_autoptr (GString) header = g_string_new (NULL);
  guint64 n = MIN (n_records, etl_trace_get_n_records (trace));
  guint64 n_chunks = (n + CHUNK_ROWS - 1) / CHUNK_ROWS;
  guint64 next_push = 0, next_write = 0, problems = 0;
  guint n_slots;
  Chunk *slots;
  GThreadPool *pool = NULL;
  gboolean ok = TRUE;

  g_return_val_if_fail (trace != NULL && write != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  job.trace = trace;
  job.stacks = stacks;
  job.format = format;
  job.flags = flags;
  if (n_problems != NULL)
    *n_problems = 0;
  if (format == ETL_DUMP_CSV)
    {
      for (guint c = 0; csv_columns[c] != NULL; c++)
        csv_field (header, csv_columns[c], c == 0);
      g_string_append_c (header, '\n');
      if (!write (header->str, header->len, user_data, error))
        return FALSE;
    }
  if (n == 0)
    return TRUE;

  if (n_threads == 0)
    n_threads = MIN ((guint)g_get_num_processors (), MAX_THREADS);
  n_threads = CLAMP (n_threads, 1, MAX_THREADS);
  if (n_chunks < 2)
    n_threads = 1;
  /* Build the process table (and the trace's other lazy tables) once, here. */
  (void)etl_trace_get_process_table (trace);

  n_slots = n_threads == 1 ? 1 : 2 * n_threads;
  slots = g_new0 (Chunk, n_slots);
  for (guint k = 0; k < n_slots; k++)
    {
      slots[k].text = g_string_sized_new (1024 * 1024);
      slots[k].problems = g_array_new (FALSE, FALSE, sizeof (Problem));
      g_array_set_clear_func (slots[k].problems, clear_problem);
      slots[k].scratch = g_array_new (FALSE, FALSE, sizeof (Slot));
      slots[k].names = g_new0 (NameEntry, NAME_CACHE_SIZE);
    }
  g_mutex_init (&job.lock);
  g_cond_init (&job.cond);
  if (n_threads > 1)
    pool = g_thread_pool_new (worker, &job, (gint)n_threads, FALSE, NULL);

  while (ok && next_write < n_chunks)
    {
      Chunk *c;

      while (next_push < n_chunks && next_push - next_write < n_slots)
        {
          c = &slots[next_push % n_slots];
          c->first = next_push * CHUNK_ROWS;
          c->n = MIN ((guint64)CHUNK_ROWS, n - c->first);
          g_string_truncate (c->text, 0);
          g_array_set_size (c->problems, 0);
          c->done = FALSE;
          if (pool != NULL)
            g_thread_pool_push (pool, c, NULL);
          else
            {
              format_chunk (c, &job);
              c->done = TRUE;
            }
          next_push++;
        }
      c = &slots[next_write % n_slots];
      g_mutex_lock (&job.lock);
      while (!c->done)
        g_cond_wait (&job.cond, &job.lock);
      g_mutex_unlock (&job.lock);
      ok = emit_chunk (c, write, problem, user_data, &problems, error);
      next_write++;
    }

  /* On a write error: drop the chunks not started, wait for the others. */
  if (pool != NULL)
    g_thread_pool_free (pool, TRUE, TRUE);
  g_mutex_clear (&job.lock);
  g_cond_clear (&job.cond);
  for (guint k = 0; k < n_slots; k++)
    {
      g_string_free (slots[k].text, TRUE);
      g_array_unref (slots[k].problems);
      g_array_unref (slots[k].scratch);
      name_cache_free (slots[k].names);
    }
  g_free (slots);
  if (n_problems != NULL)
    *n_problems = problems;
  return ok;
}
