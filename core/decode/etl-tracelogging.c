/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-tracelogging
 * @title: TraceLogging schemas
 * @short_description: a self-describing event's metadata as an #EtlSchema
 *
 * A TraceLogging event carries its layout in an EVENT_SCHEMA_TL extended
 * item (TraceLoggingProvider.h, "event metadata"): u16 size, tag bytes
 * (bit 7 chains), the NUL-terminated event name, then per field its
 * NUL-terminated name, an InType byte (bits 0–4 the type, bits 5–6 the
 * count kind: constant count followed by a u16, variable count in the
 * payload, custom with a u16 size and that many bytes; bit 7 chains an
 * OutType byte whose bit 7 chains up to four tag bytes).  A struct's InType
 * is 24 and its OutType the number of member fields that follow it.
 *
 * etl_tracelogging_schema_parse() turns that into an #EtlSchema (source
 * %ETL_SCHEMA_SOURCE_TRACELOGGING) with TDH's numbering, struct members moved
 * after the top-level fields as in TRACE_EVENT_INFO, so the one decoder in
 * etl-decode.c serves TraceLogging too.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-error.h"
#include "etl-names.h"
#include "etl-tracelogging.h"

/* TraceLoggingProvider.h, _TlgIn* */
#define TLG_IN_TYPE_MASK 0x1f
#define TLG_IN_COUNT_MASK 0x60
#define TLG_IN_CCOUNT 0x20
#define TLG_IN_VCOUNT 0x40
#define TLG_IN_CUSTOM 0x60
#define TLG_IN_CHAIN 0x80
#define TLG_OUT_CHAIN 0x80
#define TLG_IN_BINARY 14
#define TLG_IN_STRUCT 24
#define TLG_IN_COUNTEDBINARY 25

/* Fields of one event, and struct nesting, at most. */
#define MAX_TL_FIELDS 1024
#define MAX_TL_DEPTH 8

typedef struct
{
  const char *name; /* into the metadata; NUL-terminated there */
  guint8 in_type;   /* raw */
  guint8 out_type;  /* raw, chain bit cleared */
  guint16 ccount;
  guint span; /* entries this field covers, its nested members included */
} TlField;

/* _TlgOut* → TDH_OUT_TYPE. */
static guint16
map_out_type (guint out, guint base)
{
  switch (out)
    {
    case 2:
      return ETL_OUT_STRING;
    case 3:
      return ETL_OUT_BOOLEAN;
    case 4:
      switch (base)
        {
        case 3:
        case 4:
          return ETL_OUT_HEXINT8;
        case 5:
        case 6:
          return ETL_OUT_HEXINT16;
        case 9:
        case 10:
          return ETL_OUT_HEXINT64;
        case 14:
        case 25:
          return ETL_OUT_HEXBINARY;
        default:
          return ETL_OUT_HEXINT32;
        }
    case 5:
      return ETL_OUT_PID;
    case 6:
      return ETL_OUT_TID;
    case 7:
      return ETL_OUT_PORT;
    case 8:
      return ETL_OUT_IPV4;
    case 9:
      return ETL_OUT_IPV6;
    case 10:
      return ETL_OUT_SOCKETADDRESS;
    case 11:
      return ETL_OUT_XML;
    case 12:
      return ETL_OUT_JSON;
    case 13:
      return ETL_OUT_WIN32ERROR;
    case 14:
      return ETL_OUT_NTSTATUS;
    case 15:
      return ETL_OUT_HRESULT;
    case 16:
      return ETL_OUT_DATETIME;
    case 35:
      return ETL_OUT_UTF8;
    case 36:
      return ETL_OUT_PKCS7_WITH_TYPE_INFO;
    case 37:
      return ETL_OUT_CODE_POINTER;
    case 38:
      return ETL_OUT_DATETIME_UTC;
    default:
      return ETL_OUT_NULL;
    }
}

/* _TlgIn* → TDH_IN_TYPE; 0xFF for what the decoder cannot read. */
static guint16
map_in_type (guint base)
{
  if (base <= 23 && base != TLG_IN_BINARY)
    return (guint16)base; /* the same numbering, BOOL32 = BOOLEAN */
  if (base == TLG_IN_BINARY || base == TLG_IN_COUNTEDBINARY)
    return ETL_IN_COUNTEDBINARY;
  return 0xFF;
}

static gboolean
fail (GError **error, gsize offset, const char *reason)
{
  g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
               "TraceLogging metadata: offset %" G_GSIZE_FORMAT ": %s", offset, reason);
  return FALSE;
}

/* Reads the metadata's fields in order. */
static gboolean
parse_fields (const guint8 *s, gsize len, const char **event_name, GArray *fields, GError **error)
{
  gsize end, pos = 2;
  const guint8 *nul;

  if (len < 2)
    return fail (error, 0, "shorter than its size field");
  end = s[0] | (s[1] << 8);
  if (end < 2 || end > len)
    return fail (error, 0, "size out of range");
  for (;;)
    {
      if (pos >= end)
        return fail (error, pos, "tags run past the end");
      if ((s[pos++] & 0x80) == 0)
        break;
    }
  nul = memchr (s + pos, 0, end - pos);
  if (nul == NULL)
    return fail (error, pos, "event name not terminated");
  *event_name = (const char *)s + pos;
  pos = (gsize)(nul - s) + 1;

  while (pos < end)
    {
      TlField f = { 0 };

      if (fields->len >= MAX_TL_FIELDS)
        return fail (error, pos, "too many fields");
      nul = memchr (s + pos, 0, end - pos);
      if (nul == NULL)
        return fail (error, pos, "field name not terminated");
      f.name = (const char *)s + pos;
      pos = (gsize)(nul - s) + 1;
      if (pos >= end)
        return fail (error, pos, "field without a type");
      f.in_type = s[pos++];
      if (f.in_type & TLG_IN_CHAIN)
        {
          if (pos >= end)
            return fail (error, pos, "out-type missing");
          f.out_type = s[pos++];
          if (f.out_type & TLG_OUT_CHAIN)
            for (guint i = 0;; i++)
              {
                if (pos >= end || i >= 4)
                  return fail (error, pos, "field tags run past the end");
                if ((s[pos++] & 0x80) == 0)
                  break;
              }
          f.out_type &= 0x7f;
        }
      if ((f.in_type & TLG_IN_COUNT_MASK) == TLG_IN_CCOUNT)
        {
          if (end - pos < 2)
            return fail (error, pos, "constant count missing");
          f.ccount = s[pos] | (s[pos + 1] << 8);
          pos += 2;
        }
      else if ((f.in_type & TLG_IN_COUNT_MASK) == TLG_IN_CUSTOM)
        {
          guint info;

          if (end - pos < 2)
            return fail (error, pos, "custom type size missing");
          info = s[pos] | (s[pos + 1] << 8);
          pos += 2;
          if (end - pos < info)
            return fail (error, pos, "custom type info runs past the end");
          pos += info;
        }
      g_array_append_val (fields, f);
    }
  return TRUE;
}

/* Sets each field's span; FALSE when a struct claims more members than follow. */
static gboolean
compute_span (TlField *f, guint n, guint i, guint depth)
{
  guint span = 1;

  if ((f[i].in_type & TLG_IN_TYPE_MASK) == TLG_IN_STRUCT)
    {
      if (depth >= MAX_TL_DEPTH)
        return FALSE;
      for (guint m = 0; m < f[i].out_type; m++)
        {
          if (i + span >= n || !compute_span (f, n, i + span, depth + 1))
            return FALSE;
          span += f[i + span].span;
        }
    }
  f[i].span = span;
  return TRUE;
}

static void
add_property (EtlSchema *schema, const TlField *f, guint flat_index, GArray *origin)
{
  guint base = f->in_type & TLG_IN_TYPE_MASK;
  guint count_kind = f->in_type & TLG_IN_COUNT_MASK;
  guint i;
  EtlProperty *p;

  i = etl_schema_add_property (schema, f->name, map_in_type (base),
                               map_out_type (f->out_type, base));
  p = &schema->properties[i];
  if (base == TLG_IN_STRUCT)
    {
      p->flags |= ETL_PROPERTY_STRUCT;
      p->in_type = 0;
      p->out_type = 0;
      p->n_struct_members = f->out_type;
    }
  else if (count_kind == TLG_IN_CUSTOM)
    p->in_type = 0xFF;
  if (count_kind == TLG_IN_CCOUNT)
    {
      p->count = f->ccount;
      p->flags |= ETL_PROPERTY_PARAM_FIXED_COUNT;
    }
  else if (count_kind == TLG_IN_VCOUNT)
    p->flags |= ETL_PROPERTY_INLINE_COUNT;
  g_array_append_val (origin, flat_index);
}

/**
 * etl_tracelogging_schema_parse:
 * @metadata: an EVENT_SCHEMA_TL extended item's data
 * @metadata_len: its length in bytes
 * @key: the key to give the schema (provider, event id, version)
 * @error: return location for an %ETL_ERROR_CORRUPT error naming the
 *   offset in @metadata and the reason
 *
 * Builds the schema of a TraceLogging event from its metadata (see the
 * section overview).  Fields of custom types become properties the decoder
 * stops at.
 *
 * Returns: (transfer full) (nullable): the schema (source
 *   %ETL_SCHEMA_SOURCE_TRACELOGGING, event name set), or %NULL on malformed
 *   metadata
 */
EtlSchema *
etl_tracelogging_schema_parse (const guint8 *metadata, gsize metadata_len, const EtlSchemaKey *key,
                               GError **error)
{
  g_autoptr (GArray) fields = g_array_new (FALSE, FALSE, sizeof (TlField));
  g_autoptr (GArray) origin = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (EtlSchema) schema = NULL;
  const char *event_name = NULL;
  TlField *f;
  guint n, i, top;

  g_return_val_if_fail (metadata != NULL || metadata_len == 0, NULL);
  g_return_val_if_fail (key != NULL, NULL);

  if (!parse_fields (metadata, metadata_len, &event_name, fields, error))
    return NULL;
  f = (TlField *)fields->data;
  n = fields->len;

  schema = etl_schema_new (key, ETL_SCHEMA_SOURCE_TRACELOGGING);
  schema->event_name = g_utf8_make_valid (event_name, -1);

  /* Top-level fields first … */
  for (i = 0; i < n; i += f[i].span)
    {
      if (!compute_span (f, n, i, 0))
        {
          fail (error, 0, "struct with more members than fields follow, or nested too deep");
          return NULL;
        }
      add_property (schema, &f[i], i, origin);
    }
  top = schema->n_properties;

  /* … then each struct's members, in one block per struct (TRACE_EVENT_INFO). */
  for (guint p = 0; p < schema->n_properties; p++)
    {
      guint flat, j;

      if (!(schema->properties[p].flags & ETL_PROPERTY_STRUCT))
        continue;
      flat = g_array_index (origin, guint, p);
      schema->properties[p].struct_start = (guint16)schema->n_properties;
      j = flat + 1;
      for (guint m = 0; m < f[flat].out_type; m++)
        {
          add_property (schema, &f[j], j, origin);
          j += f[j].span;
        }
    }
  /* etl_schema_add_property() counted the members as top-level too. */
  schema->n_top_level = top;
  return g_steal_pointer (&schema);
}

/**
 * etl_tracelogging_schema_new:
 * @record: a TraceLogging record (with an EVENT_SCHEMA_TL extended item)
 * @error: return location for an %ETL_ERROR_CORRUPT error
 *
 * etl_tracelogging_schema_parse() on @record's metadata, keyed by its
 * provider, event id and version, with the provider name from its
 * PROV_TRAITS item when it has one.
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL when @record has
 *   no metadata or it is malformed
 */
EtlSchema *
etl_tracelogging_schema_new (const EtlRecord *record, GError **error)
{
  const guint8 *meta, *traits;
  gsize meta_len, traits_len;
  EtlSchemaKey key;
  EtlSchema *schema;

  g_return_val_if_fail (record != NULL, NULL);

  if (!etl_record_find_ext_item (record, ETL_EXT_TYPE_EVENT_SCHEMA_TL, &meta, &meta_len))
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "record at offset %" G_GUINT64_FORMAT ": no TraceLogging metadata",
                   record->file_offset);
      return NULL;
    }
  etl_schema_key_init_event_id (&key, &record->provider, record->event_id, record->version);
  schema = etl_tracelogging_schema_parse (meta, meta_len, &key, error);
  if (schema == NULL)
    return NULL;
  schema->level = record->level;
  schema->opcode = record->opcode;
  schema->keyword = record->keyword;
  schema->task = record->task;
  if (etl_record_find_ext_item (record, ETL_EXT_TYPE_PROV_TRAITS, &traits, &traits_len))
    schema->provider_name = etl_tracelogging_provider_name (traits, traits_len);
  return schema;
}
