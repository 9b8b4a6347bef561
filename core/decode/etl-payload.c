/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-payload
 * @title: Payload decoding
 * @short_description: fields of self-describing (TraceLogging) events
 *
 * A TraceLogging event carries its own schema in an EVENT_SCHEMA_TL extended
 * item (TraceLoggingProvider.h, "event metadata"): the event name, then per
 * field a name, an InType (the wire encoding), optionally an OutType (how to
 * show it) and an array count.  etl_payload_decode_tracelogging() walks that
 * schema and the user data side by side, bounds-checking every read, and
 * formats each field of a simple type: strings (UTF-16 and ANSI, counted or
 * NUL-terminated), integers, floats, booleans, GUIDs, FILETIME, SYSTEMTIME,
 * SIDs and binary blobs, and arrays of them.  Names come from
 * etl_tracelogging_field_names(), the same walk the event list uses.
 * Custom-serialised fields and arrays of structs end the walk: the fields
 * decoded so far are returned and @complete says the rest was left out.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-format-private.h"
#include "etl-names.h"
#include "etl-payload.h"
#include "etl-trace.h"

/* TraceLoggingProvider.h, _TlgIn* / _TlgOut* */
enum
{
  TLG_IN_NULL,
  TLG_IN_UNICODESTRING,
  TLG_IN_ANSISTRING,
  TLG_IN_INT8,
  TLG_IN_UINT8,
  TLG_IN_INT16,
  TLG_IN_UINT16,
  TLG_IN_INT32,
  TLG_IN_UINT32,
  TLG_IN_INT64,
  TLG_IN_UINT64,
  TLG_IN_FLOAT,
  TLG_IN_DOUBLE,
  TLG_IN_BOOL32,
  TLG_IN_BINARY,
  TLG_IN_GUID,
  TLG_IN_POINTER,
  TLG_IN_FILETIME,
  TLG_IN_SYSTEMTIME,
  TLG_IN_SID,
  TLG_IN_HEXINT32,
  TLG_IN_HEXINT64,
  TLG_IN_COUNTEDSTRING,
  TLG_IN_COUNTEDANSISTRING,
  TLG_IN_STRUCT,
  TLG_IN_COUNTEDBINARY,
};

#define TLG_OUT_STRING 2
#define TLG_OUT_BOOLEAN 3
#define TLG_OUT_HEX 4

#define TLG_IN_TYPE_MASK 0x1f
#define TLG_IN_COUNT_MASK 0x60
#define TLG_IN_CCOUNT 0x20
#define TLG_IN_VCOUNT 0x40
#define TLG_IN_CUSTOM 0x60
#define TLG_IN_CHAIN 0x80
#define TLG_OUT_CHAIN 0x80

#define MAX_ELEMENTS_SHOWN 32
#define MAX_BINARY_SHOWN 64
#define MAX_STRING_BYTES 4096

typedef struct
{
  guint8 in_type;
  guint8 out_type;
  guint16 ccount;
} FieldType;

static void
field_free (gpointer data)
{
  EtlPayloadField *f = data;

  g_free (f->name);
  g_free (f->value);
  g_free (f);
}

/* Reads the schema's field types in order; FALSE if malformed. */
static gboolean
parse_types (const guint8 *s, gsize len, GArray *types)
{
  gsize end, pos = 2;
  const guint8 *nul;

  if (len < 2)
    return FALSE;
  end = s[0] | (s[1] << 8);
  if (end < 2 || end > len)
    return FALSE;
  /* Tag bytes: bit 7 chains. */
  for (;;)
    {
      if (pos >= end)
        return FALSE;
      if ((s[pos++] & 0x80) == 0)
        break;
    }
  nul = memchr (s + pos, 0, end - pos);
  if (nul == NULL)
    return FALSE;
  pos = (gsize) (nul - s) + 1;

  while (pos < end)
    {
      FieldType t = { 0 };

      nul = memchr (s + pos, 0, end - pos);
      if (nul == NULL)
        return FALSE;
      pos = (gsize) (nul - s) + 1;
      if (pos >= end)
        return FALSE;
      t.in_type = s[pos++];
      if (t.in_type & TLG_IN_CHAIN)
        {
          if (pos >= end)
            return FALSE;
          t.out_type = s[pos++];
          if (t.out_type & TLG_OUT_CHAIN)
            for (guint i = 0;; i++)
              {
                if (pos >= end || i >= 4)
                  return FALSE;
                if ((s[pos++] & 0x80) == 0)
                  break;
              }
          t.out_type &= 0x7f;
        }
      if ((t.in_type & TLG_IN_COUNT_MASK) == TLG_IN_CCOUNT)
        {
          if (end - pos < 2)
            return FALSE;
          t.ccount = s[pos] | (s[pos + 1] << 8);
          pos += 2;
        }
      else if ((t.in_type & TLG_IN_COUNT_MASK) == TLG_IN_CUSTOM)
        {
          guint info;

          if (end - pos < 2)
            return FALSE;
          info = s[pos] | (s[pos + 1] << 8);
          pos += 2;
          if (end - pos < info)
            return FALSE;
          pos += info;
        }
      g_array_append_val (types, t);
    }
  return TRUE;
}

static char *
hex_bytes (const guint8 *p, gsize n)
{
  GString *s = g_string_new (NULL);

  for (gsize i = 0; i < n && i < MAX_BINARY_SHOWN; i++)
    g_string_append_printf (s, "%s%02x", i > 0 ? " " : "", p[i]);
  if (n > MAX_BINARY_SHOWN)
    g_string_append (s, " …");
  return g_string_free (s, FALSE);
}

static char *
utf16_to_utf8 (const guint8 *p, gsize n_units)
{
  g_autofree gunichar2 *units = g_new (gunichar2, n_units + 1);
  char *utf8;

  for (gsize i = 0; i < n_units; i++)
    units[i] = (gunichar2) (p[2 * i] | (p[2 * i + 1] << 8));
  units[n_units] = 0;
  utf8 = g_utf16_to_utf8 (units, (glong) n_units, NULL, NULL, NULL);
  if (utf8 == NULL)
    utf8 = g_strdup ("(invalid UTF-16)");
  return utf8;
}

static char *
systemtime_string (const guint8 *p)
{
  return g_strdup_printf ("%04u-%02u-%02uT%02u:%02u:%02u.%03u", etl_read_u16 (p), etl_read_u16 (p + 2),
                          etl_read_u16 (p + 6), etl_read_u16 (p + 8), etl_read_u16 (p + 10),
                          etl_read_u16 (p + 12), etl_read_u16 (p + 14));
}

/* Decodes one element of a simple type at *pos; NULL when it does not fit. */
static char *
decode_scalar (const FieldType *t, const guint8 *d, gsize *pos, gsize end, guint pointer_size)
{
  gsize avail = end - *pos;
  const guint8 *p = d + *pos;
  guint base = t->in_type & TLG_IN_TYPE_MASK;
  gsize need = 0;
  char *value = NULL;

#define NEED(n)                                                                                                      \
  G_STMT_START                                                                                                       \
  {                                                                                                                  \
    need = (n);                                                                                                      \
    if (avail < need)                                                                                                \
      return NULL;                                                                                                   \
  }                                                                                                                  \
  G_STMT_END

  switch (base)
    {
    case TLG_IN_NULL:
      return g_strdup ("");
    case TLG_IN_UNICODESTRING:
      {
        gsize units = 0;

        while (2 * units + 1 < avail && 2 * units < MAX_STRING_BYTES && (p[2 * units] | p[2 * units + 1]) != 0)
          units++;
        if (2 * units + 1 >= avail)
          return NULL;
        value = utf16_to_utf8 (p, units);
        need = 2 * units + 2;
      }
      break;
    case TLG_IN_ANSISTRING:
      {
        const guint8 *nul = memchr (p, 0, MIN (avail, (gsize) MAX_STRING_BYTES));

        if (nul == NULL)
          return NULL;
        value = g_utf8_make_valid ((const char *) p, nul - p);
        need = (gsize) (nul - p) + 1;
      }
      break;
    case TLG_IN_INT8:
      NEED (1);
      value = g_strdup_printf ("%d", (gint8) p[0]);
      break;
    case TLG_IN_UINT8:
      NEED (1);
      if (t->out_type == TLG_OUT_BOOLEAN)
        value = g_strdup (p[0] ? "true" : "false");
      else if (t->out_type == TLG_OUT_STRING && p[0] >= 0x20 && p[0] < 0x7f)
        value = g_strdup_printf ("'%c' (%u)", p[0], p[0]);
      else if (t->out_type == TLG_OUT_HEX)
        value = g_strdup_printf ("0x%02x", p[0]);
      else
        value = g_strdup_printf ("%u", p[0]);
      break;
    case TLG_IN_INT16:
      NEED (2);
      value = g_strdup_printf ("%d", (gint16) etl_read_u16 (p));
      break;
    case TLG_IN_UINT16:
      NEED (2);
      if (t->out_type == TLG_OUT_HEX)
        value = g_strdup_printf ("0x%04x", etl_read_u16 (p));
      else
        value = g_strdup_printf ("%u", etl_read_u16 (p));
      break;
    case TLG_IN_INT32:
      NEED (4);
      if (t->out_type == TLG_OUT_BOOLEAN)
        value = g_strdup (etl_read_u32 (p) ? "true" : "false");
      else
        value = g_strdup_printf ("%d", (gint32) etl_read_u32 (p));
      break;
    case TLG_IN_UINT32:
      NEED (4);
      if (t->out_type == TLG_OUT_HEX)
        value = g_strdup_printf ("0x%08x", etl_read_u32 (p));
      else
        value = g_strdup_printf ("%u", etl_read_u32 (p));
      break;
    case TLG_IN_HEXINT32:
      NEED (4);
      value = g_strdup_printf ("0x%08x", etl_read_u32 (p));
      break;
    case TLG_IN_INT64:
      NEED (8);
      value = g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) etl_read_u64 (p));
      break;
    case TLG_IN_UINT64:
      NEED (8);
      if (t->out_type == TLG_OUT_HEX)
        value = g_strdup_printf ("0x%016" G_GINT64_MODIFIER "x", etl_read_u64 (p));
      else
        value = g_strdup_printf ("%" G_GUINT64_FORMAT, etl_read_u64 (p));
      break;
    case TLG_IN_HEXINT64:
      NEED (8);
      value = g_strdup_printf ("0x%016" G_GINT64_MODIFIER "x", etl_read_u64 (p));
      break;
    case TLG_IN_POINTER:
      NEED (pointer_size);
      value = pointer_size == 8 ? g_strdup_printf ("0x%016" G_GINT64_MODIFIER "x", etl_read_u64 (p))
                                : g_strdup_printf ("0x%08x", etl_read_u32 (p));
      break;
    case TLG_IN_FLOAT:
      {
        guint32 bits;
        float f;

        NEED (4);
        bits = etl_read_u32 (p);
        memcpy (&f, &bits, sizeof f);
        value = g_strdup_printf ("%g", (double) f);
      }
      break;
    case TLG_IN_DOUBLE:
      {
        guint64 bits;
        double v;

        NEED (8);
        bits = etl_read_u64 (p);
        memcpy (&v, &bits, sizeof v);
        value = g_strdup_printf ("%.17g", v);
      }
      break;
    case TLG_IN_BOOL32:
      NEED (4);
      value = g_strdup (etl_read_u32 (p) ? "true" : "false");
      break;
    case TLG_IN_GUID:
      {
        EtlGuid guid;
        char buf[ETL_GUID_STRING_LEN + 1];

        NEED (16);
        etl_guid_read (&guid, p);
        etl_guid_to_string (&guid, buf);
        value = g_strdup (buf);
      }
      break;
    case TLG_IN_FILETIME:
      NEED (8);
      value = etl_filetime_to_iso8601 ((gint64) etl_read_u64 (p));
      break;
    case TLG_IN_SYSTEMTIME:
      NEED (16);
      value = systemtime_string (p);
      break;
    case TLG_IN_SID:
      {
        GString *s;
        guint n_sub;
        guint64 authority = 0;

        NEED (8);
        n_sub = p[1];
        NEED (8 + 4 * (gsize) n_sub);
        for (guint i = 0; i < 6; i++)
          authority = (authority << 8) | p[2 + i];
        s = g_string_new (NULL);
        g_string_append_printf (s, "S-%u-%" G_GUINT64_FORMAT, p[0], authority);
        for (guint i = 0; i < n_sub; i++)
          g_string_append_printf (s, "-%u", etl_read_u32 (p + 8 + 4 * i));
        value = g_string_free (s, FALSE);
      }
      break;
    case TLG_IN_BINARY:
    case TLG_IN_COUNTEDBINARY:
      {
        guint n;

        NEED (2);
        n = etl_read_u16 (p);
        NEED (2 + (gsize) n);
        value = hex_bytes (p + 2, n);
      }
      break;
    case TLG_IN_COUNTEDSTRING:
      {
        guint n;

        NEED (2);
        n = etl_read_u16 (p);
        NEED (2 + (gsize) (n & ~1u));
        value = utf16_to_utf8 (p + 2, n / 2);
        need = 2 + (gsize) n;
        if (need > avail)
          need = avail;
      }
      break;
    case TLG_IN_COUNTEDANSISTRING:
      {
        guint n;

        NEED (2);
        n = etl_read_u16 (p);
        NEED (2 + (gsize) n);
        value = g_utf8_make_valid ((const char *) p + 2, n);
      }
      break;
    default:
      return NULL;
    }
#undef NEED

  *pos += need;
  return value;
}

/**
 * etl_payload_decode_tracelogging:
 * @record: a TraceLogging record (one with an EVENT_SCHEMA_TL extended item)
 * @complete: (out) (optional): set to %TRUE when every field was decoded and
 *   the user data was used up exactly
 *
 * Decodes the fields of a self-describing event from its schema and user
 * data.  The walk stops at the first field it cannot decode (a custom type,
 * an array of structs, data shorter than the schema says).  Arrays show
 * their first 32 elements, binary values their first 64 bytes, strings are
 * read up to 4 KiB.
 *
 * Returns: (transfer full) (nullable) (element-type EtlPayloadField): the
 *   fields decoded, possibly none, or %NULL when @record has no schema or
 *   it is malformed
 */
GPtrArray *
etl_payload_decode_tracelogging (const EtlRecord *record, gboolean *complete)
{
  const guint8 *schema;
  gsize schema_len;
  g_auto (GStrv) names = NULL;
  g_autoptr (GArray) types = NULL;
  GPtrArray *fields;
  gsize pos = 0, end;
  guint pointer_size;
  gboolean ok = TRUE;

  g_return_val_if_fail (record != NULL, NULL);
  if (complete)
    *complete = FALSE;

  if (!etl_record_find_ext_item (record, ETL_EXT_TYPE_EVENT_SCHEMA_TL, &schema, &schema_len))
    return NULL;
  names = etl_tracelogging_field_names (schema, schema_len);
  types = g_array_new (FALSE, FALSE, sizeof (FieldType));
  if (names == NULL || !parse_types (schema, schema_len, types) || g_strv_length (names) != types->len)
    return NULL;

  pointer_size = (record->flags & ETL_EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4 : 8;
  end = record->user_data != NULL ? record->user_data_len : 0;
  fields = g_ptr_array_new_with_free_func (field_free);

  for (guint i = 0; i < types->len && ok; i++)
    {
      const FieldType *t = &g_array_index (types, FieldType, i);
      guint count_kind = t->in_type & TLG_IN_COUNT_MASK;
      guint base = t->in_type & TLG_IN_TYPE_MASK;
      EtlPayloadField *f;
      char *value = NULL;

      if (base == TLG_IN_STRUCT)
        {
          if (count_kind != 0)
            {
              ok = FALSE;
              break;
            }
          /* Its members follow, flat. */
          value = g_strdup_printf ("(struct of %u fields)", t->out_type);
        }
      else if (count_kind == TLG_IN_CUSTOM)
        ok = FALSE;
      else if (count_kind == 0)
        {
          value = decode_scalar (t, record->user_data, &pos, end, pointer_size);
          ok = value != NULL;
        }
      else
        {
          guint n;
          GString *s = g_string_new ("[");

          if (count_kind == TLG_IN_CCOUNT)
            n = t->ccount;
          else if (end - pos >= 2)
            {
              n = etl_read_u16 (record->user_data + pos);
              pos += 2;
            }
          else
            n = 0, ok = FALSE;
          for (guint k = 0; k < n && ok; k++)
            {
              g_autofree char *element = decode_scalar (t, record->user_data, &pos, end, pointer_size);

              if (element == NULL)
                ok = FALSE;
              else if (k < MAX_ELEMENTS_SHOWN)
                g_string_append_printf (s, "%s%s", k > 0 ? ", " : "", element);
              else if (k == MAX_ELEMENTS_SHOWN)
                g_string_append (s, ", …");
            }
          g_string_append (s, "]");
          if (ok)
            value = g_string_free (s, FALSE);
          else
            g_string_free (s, TRUE);
        }

      if (value == NULL)
        break;
      f = g_new0 (EtlPayloadField, 1);
      f->name = g_strdup (names[i]);
      f->value = value;
      g_ptr_array_add (fields, f);
    }

  if (complete)
    *complete = ok && pos == end;
  return fields;
}
