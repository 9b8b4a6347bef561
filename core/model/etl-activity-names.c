/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-activity-names.c: what a Start or Stop event is called, for the
 * activities of etl-activities.c: the task name and the Start's first
 * payload field when it is a string, as PerfView's StartStop view names
 * activities (see etl-activities.c's section overview).
 *
 * Decoding a Start's payload to learn its first field costs about 0.35 µs;
 * the 2 M Starts of a large trace would spend most of the pairing's time on
 * it.  So each reader thread keeps a small cache of the schemas it met
 * (direct-mapped, by the key the decoder finds a schema by: provider, event
 * id, version, process and file for manifest and EventSource events, the
 * EVENT_SCHEMA_TL metadata bytes for TraceLogging ones), with each schema's
 * task name worked out once.  When the first property is a plain
 * UNICODESTRING or ANSISTRING (no length, count or map, not a struct), the
 * string is read from the payload here, by the decoder's rules (UTF-16 with
 * unpaired surrogates as U+FFFD; ANSI bytes made valid UTF-8; both end at
 * their NUL or the payload's end, whichever comes first); a UTF-16 string
 * that starts with '\' goes to the decoder, which maps NT paths to drive
 * letters.  Everything else goes through etl_trace_decode_record_prefix().
 * Every read stays within the payload.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-activity-names-private.h"

#include <string.h>

#include "etl-record.h"

#define CACHE_SLOTS   256 /* a power of two */
#define MAX_META      512 /* TraceLogging metadata longer than this is not cached */
#define OPCODE_START  1

typedef struct
{
  gboolean used;
  guint8 kind;
  guint8 version;
  guint16 event_id;
  guint32 pid;
  guint file;
  EtlGuid provider;
  guint16 meta_len;
  guint8 meta[MAX_META];
  EtlSchema *schema;              /* (owned) */
  char task_name[2][ETL_ACTIVITY_TASK_NAME_MAX]; /* for a Start, for a Stop */
  guint8 fast;                    /* 0: decode; else the first property's ETL_IN_ type */
} Entry;

struct _EtlActivityNames
{
  EtlTrace *trace; /* borrowed */
  Entry *slots;    /* CACHE_SLOTS */
  guint64 hits, misses;
};

EtlActivityNames *
etl_activity_names_new (EtlTrace *trace)
{
  EtlActivityNames *n = g_new0 (EtlActivityNames, 1);

  n->trace = trace;
  n->slots = g_new0 (Entry, CACHE_SLOTS);
  return n;
}

void
etl_activity_names_free (EtlActivityNames *names)
{
  if (names == NULL)
    return;
  for (guint k = 0; k < CACHE_SLOTS; k++)
    g_clear_pointer (&names->slots[k].schema, etl_schema_unref);
  g_free (names->slots);
  g_free (names);
}

/* Copies at most @size − 1 bytes of UTF-8 @src (@n bytes), cut at a character's start. */
static void
copy_utf8_len (char *dst, gsize size, const char *src, gsize n)
{
  if (n >= size)
    {
      n = size - 1;
      while (n > 0 && ((guchar) src[n] & 0xC0) == 0x80)
        n--;
    }
  if (n > 0)
    memcpy (dst, src, n);
  dst[n] = '\0';
}

static void
copy_utf8 (char *dst, gsize size, const char *src)
{
  copy_utf8_len (dst, size, src, src != NULL ? strlen (src) : 0);
}

/* The task name of @schema for @opcode: the schema's task name, else its
 * event name without a trailing "Start" / "Stop"; "" when neither. */
static void
schema_task_name (const EtlSchema *schema, guint8 opcode, char out[ETL_ACTIVITY_TASK_NAME_MAX])
{
  out[0] = '\0';
  if (schema == NULL)
    return;
  if (schema->task_name != NULL && schema->task_name[0] != '\0')
    copy_utf8 (out, ETL_ACTIVITY_TASK_NAME_MAX, schema->task_name);
  else if (schema->event_name != NULL && schema->event_name[0] != '\0')
    {
      const char *suffix = opcode == OPCODE_START ? "Start" : "Stop";
      gsize n = strlen (schema->event_name), k = strlen (suffix);

      if (n > k && strcmp (schema->event_name + n - k, suffix) == 0)
        n -= k;
      copy_utf8_len (out, ETL_ACTIVITY_TASK_NAME_MAX, schema->event_name, n);
    }
}

static gboolean
is_string_type (guint in_type)
{
  switch (in_type)
    {
    case ETL_IN_UNICODESTRING:
    case ETL_IN_ANSISTRING:
    case ETL_IN_COUNTEDSTRING:
    case ETL_IN_COUNTEDANSISTRING:
    case ETL_IN_REVERSEDCOUNTEDSTRING:
    case ETL_IN_REVERSEDCOUNTEDANSISTRING:
    case ETL_IN_NONNULLTERMINATEDSTRING:
    case ETL_IN_NONNULLTERMINATEDANSISTRING:
      return TRUE;
    default:
      return FALSE;
    }
}

/* The first property's type when it can be read here, else 0. */
static guint8
fast_type (const EtlSchema *schema)
{
  const EtlProperty *p;

  if (schema == NULL || schema->n_top_level == 0)
    return 0;
  p = &schema->properties[0];
  if ((p->in_type != ETL_IN_UNICODESTRING && p->in_type != ETL_IN_ANSISTRING) || p->flags != 0 || p->count > 1
      || p->length != 0 || p->map_name != NULL || p->map != NULL)
    return 0;
  return (guint8) p->in_type;
}

static guint64
fnv1a (guint64 h, const guint8 *p, gsize n)
{
  for (gsize i = 0; i < n; i++)
    h = (h ^ p[i]) * G_GUINT64_CONSTANT (0x100000001B3);
  return h;
}

/* The cache slot of @r's key; @meta / @meta_len its TraceLogging metadata. */
static Entry *
find_slot (EtlActivityNames *names, const EtlRecord *r, const guint8 *meta, gsize meta_len, gboolean *hit)
{
  guint64 h = G_GUINT64_CONSTANT (0xCBF29CE484222325);
  Entry *e;

  h = fnv1a (h, (const guint8 *) &r->provider, sizeof r->provider);
  if (meta != NULL)
    h = fnv1a (h, meta, meta_len);
  else
    {
      guint8 k[12];

      memcpy (k, &r->event_id, 2);
      k[2] = r->version;
      k[3] = r->kind;
      memcpy (k + 4, &r->pid, 4);
      memcpy (k + 8, &r->file, 4);
      h = fnv1a (h, k, sizeof k);
    }
  e = &names->slots[(h ^ (h >> 29)) & (CACHE_SLOTS - 1)];
  *hit = e->used && e->kind == r->kind && etl_guid_equal (&e->provider, &r->provider)
         && (meta != NULL ? e->meta_len == meta_len && memcmp (e->meta, meta, meta_len) == 0
                          : e->meta_len == 0 && e->event_id == r->event_id && e->version == r->version
                                && e->pid == r->pid && e->file == r->file);
  return e;
}

/* A plain UTF-16 string at the payload's start, by append_utf16()'s rules
 * (etl-decode.c), into @out (cut at @size − 1 bytes); FALSE to leave it to
 * the decoder (an NT path). */
static gboolean
read_utf16 (const guint8 *p, gsize avail, char *out, gsize size)
{
  gsize len = 0;

  if (avail >= 2 && p[0] == '\\' && p[1] == 0)
    return FALSE;
  for (gsize i = 0; 2 * i + 1 < avail; i++)
    {
      gunichar c = (gunichar) p[2 * i] | (gunichar) p[2 * i + 1] << 8;
      char buf[6];
      gint n;

      if (c == 0)
        break;
      if (c >= 0xD800 && c < 0xDC00 && 2 * (i + 1) + 1 < avail)
        {
          gunichar lo = (gunichar) p[2 * i + 2] | (gunichar) p[2 * i + 3] << 8;

          if (lo >= 0xDC00 && lo < 0xE000)
            {
              c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
              i++;
            }
          else
            c = 0xFFFD;
        }
      else if (c >= 0xD800 && c < 0xE000)
        c = 0xFFFD;
      n = g_unichar_to_utf8 (c, buf);
      if (len + (gsize) n > size - 1)
        break;
      memcpy (out + len, buf, (gsize) n);
      len += (gsize) n;
    }
  out[len] = '\0';
  return TRUE;
}

/* A plain ANSI string at the payload's start, made valid UTF-8 (append_ansi()). */
static void
read_ansi (const guint8 *p, gsize avail, char *out, gsize size)
{
  const guint8 *nul = memchr (p, 0, avail);
  gsize n = nul != NULL ? (gsize) (nul - p) : avail;
  const char *end;

  /* Only the bytes that can show matter: 4 per character kept at most. */
  n = MIN (n, 4 * size);
  if (g_utf8_validate ((const char *) p, (gssize) n, &end) && end == (const char *) p + n)
    copy_utf8_len (out, size, (const char *) p, n);
  else
    {
      g_autofree char *valid = g_utf8_make_valid ((const char *) p, (gssize) n);

      copy_utf8 (out, size, valid);
    }
}

/*
 * etl_activity_names_read: (private, etl-activity-names-private.h)
 * @names: a reader's cache
 * @r: a Start or Stop record of the cache's trace
 * @task_name: (out): the task name, "" when the trace has no schema for it
 * @first_string: (out) (nullable): for a Start, its first payload field when
 *   a string, else ""
 *
 * Names @r (see the file's comment).
 */
void
etl_activity_names_read (EtlActivityNames *names, const EtlRecord *r, char task_name[ETL_ACTIVITY_TASK_NAME_MAX],
                         char first_string[ETL_ACTIVITY_FIRST_STRING_MAX])
{
  const guint8 *meta = NULL;
  gsize meta_len = 0;
  gboolean hit;
  guint which = r->opcode == OPCODE_START ? 0 : 1;
  Entry *e;

  task_name[0] = '\0';
  if (first_string != NULL)
    first_string[0] = '\0';
  if (etl_trace_get_schema_registry (names->trace) == NULL)
    return;
  if (r->kind == ETL_RECORD_KIND_TRACELOGGING
      && (!etl_record_find_ext_item (r, ETL_EXT_TYPE_EVENT_SCHEMA_TL, &meta, &meta_len) || meta_len > MAX_META))
    meta = NULL, meta_len = 0;
  e = find_slot (names, r, meta, meta_len, &hit);
  if (r->kind == ETL_RECORD_KIND_TRACELOGGING && meta == NULL)
    hit = FALSE; /* no cacheable metadata: decode every time */
  if (hit)
    names->hits++;
  else
    {
      g_autoptr (EtlDecoded) decoded = etl_trace_decode_record_prefix (names->trace, r, 1);

      names->misses++;
      if (decoded == NULL)
        return;
      schema_task_name (decoded->schema, r->opcode, task_name);
      if (first_string != NULL && decoded->schema != NULL && decoded->fields != NULL && decoded->fields->len > 0)
        {
          const EtlField *f = &g_array_index (decoded->fields, EtlField, 0);

          if (is_string_type (f->in_type) && f->value != NULL)
            copy_utf8 (first_string, ETL_ACTIVITY_FIRST_STRING_MAX, f->value);
        }
      if (decoded->schema == NULL || (r->kind == ETL_RECORD_KIND_TRACELOGGING && meta == NULL))
        return;
      /* Remember the schema for the next record of that key. */
      g_clear_pointer (&e->schema, etl_schema_unref);
      e->used = TRUE;
      e->kind = r->kind;
      e->provider = r->provider;
      e->event_id = r->event_id;
      e->version = r->version;
      e->pid = r->pid;
      e->file = r->file;
      e->meta_len = (guint16) meta_len;
      if (meta_len > 0)
        memcpy (e->meta, meta, meta_len);
      e->schema = etl_schema_ref (decoded->schema);
      schema_task_name (e->schema, OPCODE_START, e->task_name[0]);
      schema_task_name (e->schema, OPCODE_START + 1, e->task_name[1]);
      e->fast = fast_type (e->schema);
      return;
    }

  memcpy (task_name, e->task_name[which], ETL_ACTIVITY_TASK_NAME_MAX);
  if (first_string == NULL || r->opcode != OPCODE_START)
    return;
  if (e->fast == ETL_IN_ANSISTRING && r->user_data != NULL)
    read_ansi (r->user_data, r->user_data_len, first_string, ETL_ACTIVITY_FIRST_STRING_MAX);
  else if (e->fast == ETL_IN_UNICODESTRING && r->user_data != NULL
           && read_utf16 (r->user_data, r->user_data_len, first_string, ETL_ACTIVITY_FIRST_STRING_MAX))
    ;
  else if (e->fast != 0 && r->user_data == NULL)
    ; /* an empty payload: an empty string */
  else
    {
      g_autoptr (EtlDecoded) decoded = etl_trace_decode_record_prefix (names->trace, r, 1);

      if (decoded != NULL && decoded->schema != NULL && decoded->fields != NULL && decoded->fields->len > 0)
        {
          const EtlField *f = &g_array_index (decoded->fields, EtlField, 0);

          if (is_string_type (f->in_type) && f->value != NULL)
            copy_utf8 (first_string, ETL_ACTIVITY_FIRST_STRING_MAX, f->value);
        }
    }
}

/*
 * etl_activity_names_get_hits: (private)
 *
 * Returns: records named from the cache; @misses: those decoded for it
 */
guint64
etl_activity_names_get_hits (EtlActivityNames *names, guint64 *misses)
{
  if (misses != NULL)
    *misses = names->misses;
  return names->hits;
}
