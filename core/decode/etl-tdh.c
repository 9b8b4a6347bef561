/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-tdh
 * @title: In-trace TDH metadata
 * @short_description: KernelTraceControl MetaData records as schemas and maps
 *
 * Traces merged by PerfView or xperf carry the layouts TDH used on the
 * recording machine as KernelTraceControl MetaData events: classic
 * (FULL_HEADER32/64) records whose event class GUID is the MetaData task's,
 * bbccf6c1-6cd1-48c4-80ff-839482e37671 (KernelTraceControl's own GUID,
 * b3e675d7-2554-4f18-830b-2762732560de, is the ImageID class, whose opcode 32
 * is something else; checked on net.4.5.2.x64.etl): opcode 32, EventInfo, holds one
 * TRACE_EVENT_INFO (tdh.h) with no pointers inside; opcode 33,
 * EventMapInfo, holds the provider GUID (16 bytes) followed by one
 * EVENT_MAP_INFO whose offsets count from the end of that GUID.
 *
 * TRACE_EVENT_INFO: 0 ProviderGuid, 16 EventGuid, 32 EVENT_DESCRIPTOR (u16
 * Id, u8 Version, Channel, Level, Opcode, u16 Task, u64 Keyword), 48
 * DecodingSource, then u32 offsets of ProviderName (52), LevelName (56),
 * ChannelName (60), KeywordsName (64, a list of strings ended by an empty
 * one), TaskName (68), OpcodeName (72), EventMessage (76), ProviderMessage
 * (80), BinaryXML (84, size 88), EventName (92), EventAttributes (96); u32
 * PropertyCount (100), TopLevelPropertyCount (104), Flags (108); at 112 the
 * EVENT_PROPERTY_INFO array, 24 bytes each: u32 Flags, u32 NameOffset, u16
 * InType / StructStartIndex, u16 OutType / NumOfStructMembers, u32
 * MapNameOffset, u16 count / count property index, u16 length / length
 * property index, u32 reserved.  Strings are NUL-terminated UTF-16LE at
 * byte offsets from the blob's start; offset 0 means none.
 *
 * EVENT_MAP_INFO: u32 NameOffset, u32 Flag (MAP_FLAGS: 1 value map, 2
 * bitmap, 4 pattern map, 8/0x10/0x20 the WBEM forms), u32 EntryCount, u32
 * MapEntryValueType (0 ULONG, 1 string), then EntryCount EVENT_MAP_ENTRY
 * {u32 OutputOffset, u32 Value}.
 *
 * Blobs are hostile input: every offset and count is checked against the
 * blob; errors are %ETL_ERROR_CORRUPT naming the offset and the reason.
 *
 * The MetaData records are events of their own too: etl_tdh_decode_record()
 * shows what each one describes (provider, event id and version, task,
 * opcode, level, keyword, channel and their names, the property counts and
 * names; for a map its provider, name, kind and entries) as fields.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-decode-private.h"
#include "etl-error.h"
#include "etl-format-private.h"
#include "etl-names.h"
#include "etl-tdh.h"

/* bbccf6c1-6cd1-48c4-80ff-839482e37671: KernelTraceControl's MetaData task */
const EtlGuid etl_tdh_metadata_guid
    = { 0xbbccf6c1, 0x6cd1, 0x48c4, { 0x80, 0xff, 0x83, 0x94, 0x82, 0xe3, 0x76, 0x71 } };

#define TEI_HEADER_SIZE 112
#define EPI_SIZE 24
#define EMI_HEADER_SIZE 16
#define EME_SIZE 8

/* Caps: properties of one event, entries of one map, characters of one string. */
#define MAX_PROPERTIES 4096
#define MAX_MAP_ENTRIES 65536
#define MAX_STRING_UNITS 4096
#define MAX_KEYWORDS 64

#define EPI_FLAG_STRUCT 0x1
#define MAP_FLAG_BITMAP 0x2
#define MAP_FLAG_PATTERNMAP 0x4
#define MAP_FLAG_WBEM_BITMAP 0x10

static gboolean
fail (GError **error, const char *what, gsize offset, const char *reason)
{
  g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "%s: offset %" G_GSIZE_FORMAT ": %s", what,
               offset, reason);
  return FALSE;
}

/*
 * The UTF-16LE string at @offset of @blob, as UTF-8.  Offset 0 gives NULL
 * (no string).  FALSE when the offset lies outside the blob or the string
 * runs past its end.
 */
static gboolean
read_string (const guint8 *blob, gsize len, guint32 offset, char **out, gsize *end_out)
{
  gsize n = 0;
  g_autofree gunichar2 *units = NULL;

  *out = NULL;
  if (offset == 0)
    return TRUE;
  if (offset >= len || (len - offset) < 2)
    return FALSE;
  while (offset + 2 * n + 1 < len && n < MAX_STRING_UNITS)
    {
      if (blob[offset + 2 * n] == 0 && blob[offset + 2 * n + 1] == 0)
        break;
      n++;
    }
  if (offset + 2 * n + 1 >= len || n >= MAX_STRING_UNITS)
    return FALSE;
  units = g_new (gunichar2, n + 1);
  for (gsize i = 0; i < n; i++)
    units[i] = etl_read_u16 (blob + offset + 2 * i);
  units[n] = 0;
  *out = g_utf16_to_utf8 (units, (glong)n, NULL, NULL, NULL);
  if (*out == NULL)
    {
      /* Unpaired surrogates: keep what converts, replace the rest. */
      GString *s = g_string_new (NULL);

      for (gsize i = 0; i < n; i++)
        g_string_append_unichar (s, (units[i] >= 0xD800 && units[i] < 0xE000) ? 0xFFFD : units[i]);
      *out = g_string_free (s, FALSE);
    }
  if (end_out != NULL)
    *end_out = offset + 2 * n + 2;
  return TRUE;
}

static char *
trimmed (char *s)
{
  if (s != NULL)
    g_strstrip (s);
  return s;
}

/**
 * etl_tdh_parse_event_info:
 * @blob: one TRACE_EVENT_INFO (the user data of a MetaData EventInfo record)
 * @blob_len: its length in bytes
 * @error: return location for an %ETL_ERROR_CORRUPT error naming the offset
 *   in @blob and the reason
 *
 * Builds a schema (source %ETL_SCHEMA_SOURCE_TDH) from a TRACE_EVENT_INFO
 * (see the section overview for the layout).  Keyed by provider, event id
 * and version (%ETL_SCHEMA_KEY_EVENT_ID) for manifest-based events
 * (DecodingSource 0, DecodingSourceXMLFile) and by event GUID, opcode and
 * version (%ETL_SCHEMA_KEY_OPCODE) for WBEM/MOF ones (DecodingSource 1).
 * Names are trimmed; the properties' map names stay to be resolved against
 * the provider's maps by the registry.  Counts, lengths and struct indexes
 * that point outside the property array are refused.
 *
 * Returns: (transfer full) (nullable): the schema, or %NULL on a malformed blob
 */
EtlSchema *
etl_tdh_parse_event_info (const guint8 *blob, gsize blob_len, GError **error)
{
  const char *what = "TRACE_EVENT_INFO";
  g_autoptr (EtlSchema) schema = NULL;
  EtlGuid provider, event_guid;
  EtlSchemaKey key;
  guint32 decoding_source, n_props, n_top;
  const guint8 *ed;

  g_return_val_if_fail (blob != NULL || blob_len == 0, NULL);

  if (blob_len < TEI_HEADER_SIZE)
    {
      fail (error, what, 0, "shorter than the 112-byte header");
      return NULL;
    }
  etl_guid_read (&provider, blob);
  etl_guid_read (&event_guid, blob + 16);
  ed = blob + 32;
  decoding_source = etl_read_u32 (blob + 48);
  n_props = etl_read_u32 (blob + 100);
  n_top = etl_read_u32 (blob + 104);
  if (n_props > MAX_PROPERTIES)
    {
      fail (error, what, 100, "PropertyCount too large");
      return NULL;
    }
  if (n_top > n_props)
    {
      fail (error, what, 104, "TopLevelPropertyCount above PropertyCount");
      return NULL;
    }
  if ((blob_len - TEI_HEADER_SIZE) / EPI_SIZE < n_props)
    {
      fail (error, what, TEI_HEADER_SIZE, "EVENT_PROPERTY_INFO array runs past the end");
      return NULL;
    }

  if (decoding_source == 1 && !etl_guid_is_zero (&event_guid))
    etl_schema_key_init_opcode (&key, &event_guid, ed[5], ed[2]);
  else
    etl_schema_key_init_event_id (&key, &provider, etl_read_u16 (ed), ed[2]);
  schema = etl_schema_new (&key, ETL_SCHEMA_SOURCE_TDH);
  schema->level = ed[4];
  schema->opcode = ed[5];
  schema->task = etl_read_u16 (ed + 6);
  schema->keyword = etl_read_u64 (ed + 8);

  {
    static const struct
    {
      guint offset;
      gsize member;
    } names[] = {
      { 52, G_STRUCT_OFFSET (EtlSchema, provider_name) },
      { 56, G_STRUCT_OFFSET (EtlSchema, level_name) },
      { 68, G_STRUCT_OFFSET (EtlSchema, task_name) },
      { 72, G_STRUCT_OFFSET (EtlSchema, opcode_name) },
      { 92, G_STRUCT_OFFSET (EtlSchema, event_name) },
    };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        guint32 off = etl_read_u32 (blob + names[i].offset);
        char **slot = G_STRUCT_MEMBER_P (schema, names[i].member);

        if (!read_string (blob, blob_len, off, slot, NULL))
          {
            fail (error, what, names[i].offset, "name offset outside the blob");
            return NULL;
          }
        trimmed (*slot);
        /* Standard levels and opcodes are spelled "win:Start": show "Start". */
        if (*slot != NULL && g_str_has_prefix (*slot, "win:"))
          memmove (*slot, *slot + 4, strlen (*slot + 4) + 1);
        if (*slot != NULL && (*slot)[0] == '\0')
          g_clear_pointer (slot, g_free);
      }
  }

  /* KeywordsName: strings one after another, ended by an empty one. */
  {
    guint32 off = etl_read_u32 (blob + 64);
    g_autoptr (GPtrArray) words = g_ptr_array_new_with_free_func (g_free);

    while (off != 0 && words->len < MAX_KEYWORDS)
      {
        char *word;
        gsize end;

        if (!read_string (blob, blob_len, off, &word, &end))
          {
            fail (error, what, 64, "keyword name outside the blob");
            return NULL;
          }
        if (word == NULL || word[0] == '\0')
          {
            g_free (word);
            break;
          }
        g_ptr_array_add (words, trimmed (word));
        off = end <= G_MAXUINT32 ? (guint32)end : 0;
      }
    if (words->len > 0)
      {
        g_ptr_array_add (words, NULL);
        schema->keyword_names = (char **)g_ptr_array_free (g_steal_pointer (&words), FALSE);
      }
  }

  schema->properties = g_new0 (EtlProperty, MAX (n_props, 1u));
  for (guint32 i = 0; i < n_props; i++)
    {
      const guint8 *e = blob + TEI_HEADER_SIZE + (gsize)i * EPI_SIZE;
      gsize at = TEI_HEADER_SIZE + (gsize)i * EPI_SIZE;
      EtlProperty *p = &schema->properties[i];
      guint32 flags = etl_read_u32 (e);
      guint32 name_off = etl_read_u32 (e + 4);

      schema->n_properties = i + 1;
      p->flags = (guint16)(flags & 0x3F);
      if (!read_string (blob, blob_len, name_off, &p->name, NULL))
        {
          fail (error, what, at + 4, "property name outside the blob");
          return NULL;
        }
      if (p->name == NULL)
        p->name = g_strdup_printf ("Property%u", i);
      if (flags & EPI_FLAG_STRUCT)
        {
          p->struct_start = etl_read_u16 (e + 8);
          p->n_struct_members = etl_read_u16 (e + 10);
          if ((guint32)p->struct_start + p->n_struct_members > n_props || p->struct_start <= i)
            {
              fail (error, what, at + 8, "struct members outside the property array");
              return NULL;
            }
        }
      else
        {
          guint32 map_off = etl_read_u32 (e + 12);

          p->in_type = etl_read_u16 (e + 8);
          p->out_type = etl_read_u16 (e + 10);
          if (!read_string (blob, blob_len, map_off, &p->map_name, NULL))
            {
              fail (error, what, at + 12, "map name outside the blob");
              return NULL;
            }
          if (p->map_name != NULL && p->map_name[0] == '\0')
            g_clear_pointer (&p->map_name, g_free);
        }
      p->count = etl_read_u16 (e + 16);
      p->length = etl_read_u16 (e + 18);
      if (!(p->flags & ETL_PROPERTY_PARAM_COUNT) && p->count == 0)
        p->count = 1;
      if ((p->flags & ETL_PROPERTY_PARAM_COUNT) && p->count >= i)
        {
          fail (error, what, at + 16, "count property is not an earlier property");
          return NULL;
        }
      if ((p->flags & ETL_PROPERTY_PARAM_LENGTH) && p->length >= i)
        {
          fail (error, what, at + 18, "length property is not an earlier property");
          return NULL;
        }
    }
  schema->n_top_level = n_top;
  return g_steal_pointer (&schema);
}

/**
 * etl_tdh_parse_map_info:
 * @blob: the provider GUID (16 bytes) followed by one EVENT_MAP_INFO (the
 *   user data of a MetaData EventMapInfo record)
 * @blob_len: its length in bytes
 * @provider: (out caller-allocates): the provider GUID
 * @error: return location for an %ETL_ERROR_CORRUPT error naming the offset
 *   in @blob and the reason
 *
 * Builds a value map or bitmap from an EVENT_MAP_INFO whose offsets count
 * from byte 16 of @blob.  Names are trimmed.  Pattern maps and maps keyed by
 * strings (MapEntryValueType 1) have no integer values: they are refused.
 *
 * Returns: (transfer full) (nullable): the map, or %NULL on a malformed blob
 */
EtlMap *
etl_tdh_parse_map_info (const guint8 *blob, gsize blob_len, EtlGuid *provider, GError **error)
{
  const char *what = "EVENT_MAP_INFO";
  const guint8 *m;
  gsize len;
  guint32 flag, n, value_type;
  g_autofree char *name = NULL;
  g_autoptr (EtlMap) map = NULL;

  g_return_val_if_fail (provider != NULL, NULL);
  g_return_val_if_fail (blob != NULL || blob_len == 0, NULL);

  if (blob_len < 16 + EMI_HEADER_SIZE)
    {
      fail (error, what, 0, "shorter than a GUID and the 16-byte header");
      return NULL;
    }
  etl_guid_read (provider, blob);
  m = blob + 16;
  len = blob_len - 16;
  flag = etl_read_u32 (m + 4);
  n = etl_read_u32 (m + 8);
  value_type = etl_read_u32 (m + 12);
  if (!read_string (m, len, etl_read_u32 (m), &name, NULL) || name == NULL)
    {
      fail (error, what, 16, "map name outside the blob");
      return NULL;
    }
  if (flag & MAP_FLAG_PATTERNMAP)
    {
      fail (error, what, 20, "pattern maps are not supported");
      return NULL;
    }
  if (value_type != 0)
    {
      fail (error, what, 28, "string-keyed maps are not supported");
      return NULL;
    }
  if (n > MAX_MAP_ENTRIES || (len - EMI_HEADER_SIZE) / EME_SIZE < n)
    {
      fail (error, what, 24, "EntryCount runs past the end");
      return NULL;
    }
  map = etl_map_new (g_strstrip (name), (flag & (MAP_FLAG_BITMAP | MAP_FLAG_WBEM_BITMAP)) != 0);
  for (guint32 i = 0; i < n; i++)
    {
      const guint8 *e = m + EMI_HEADER_SIZE + (gsize)i * EME_SIZE;
      g_autofree char *text = NULL;

      if (!read_string (m, len, etl_read_u32 (e), &text, NULL))
        {
          fail (error, what, 16 + EMI_HEADER_SIZE + (gsize)i * EME_SIZE,
                "entry name outside the blob");
          return NULL;
        }
      if (text != NULL)
        etl_map_add (map, etl_read_u32 (e + 4), text);
    }
  return g_steal_pointer (&map);
}

/**
 * etl_tdh_is_metadata_record:
 * @record: a record
 *
 * Returns: %TRUE when @record is a KernelTraceControl MetaData EventInfo or
 *   EventMapInfo record
 */
gboolean
etl_tdh_is_metadata_record (const EtlRecord *record)
{
  g_return_val_if_fail (record != NULL, FALSE);

  return (record->opcode == ETL_TDH_OPCODE_EVENT_INFO
          || record->opcode == ETL_TDH_OPCODE_EVENT_MAP_INFO)
         && record->kind != ETL_RECORD_KIND_KERNEL && record->kind != ETL_RECORD_KIND_PERFINFO
         && etl_guid_equal (&record->provider, &etl_tdh_metadata_guid);
}

/**
 * etl_tdh_register_record:
 * @registry: the registry to fill
 * @record: a record
 * @error: return location for an %ETL_ERROR_CORRUPT error naming the file
 *   offset of the record's user data plus the offset in the blob
 *
 * When @record is a MetaData EventInfo record, registers its schema; an
 * EventMapInfo record, its map (for the provider the record names).  Other
 * records are left alone.  Call it for every record of every file opened
 * together: a file of a multi-file session may carry no metadata of its own.
 *
 * Returns: %FALSE only when @record is a metadata record whose blob is
 *   malformed (@error set); %TRUE otherwise
 */
gboolean
etl_tdh_register_record (EtlSchemaRegistry *registry, const EtlRecord *record, GError **error)
{
  g_autoptr (GError) local = NULL;
  gsize len;

  g_return_val_if_fail (registry != NULL && record != NULL, FALSE);

  if (!etl_tdh_is_metadata_record (record))
    return TRUE;
  len = record->user_data != NULL ? record->user_data_len : 0;
  if (record->opcode == ETL_TDH_OPCODE_EVENT_INFO)
    {
      g_autoptr (EtlSchema) schema = etl_tdh_parse_event_info (record->user_data, len, &local);

      if (schema != NULL)
        {
          etl_schema_registry_add (registry, schema);
          return TRUE;
        }
    }
  else
    {
      EtlGuid provider;
      g_autoptr (EtlMap) map = etl_tdh_parse_map_info (record->user_data, len, &provider, &local);

      if (map != NULL)
        {
          etl_schema_registry_add_map (registry, &provider, map);
          return TRUE;
        }
    }
  g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
               "MetaData record at file offset %" G_GUINT64_FORMAT ": %s", record->file_offset,
               local->message);
  return FALSE;
}

/* ---- The MetaData records as events ------------------------------------ */

/* Entries of a map shown in its record's Entries field, at most. */
#define MAX_ENTRIES_SHOWN 256

/* The schemas that name the two records ("MetaData/EventInfo"): built-in,
 * keyed by the MetaData class, the opcode and version 0; never registered. */
static EtlSchema *
record_schema (guint8 opcode)
{
  static EtlSchema *schemas[2];
  guint k = opcode == ETL_TDH_OPCODE_EVENT_INFO ? 0 : 1;

  if (g_once_init_enter (&schemas[k]))
    {
      EtlSchemaKey key;
      EtlSchema *schema;

      etl_schema_key_init_opcode (&key, &etl_tdh_metadata_guid, opcode, 0);
      schema = etl_schema_new (&key, ETL_SCHEMA_SOURCE_BUILTIN);
      schema->provider_name = g_strdup ("KernelTraceControl");
      schema->task_name = g_strdup ("MetaData");
      schema->opcode_name = g_strdup (k == 0 ? "EventInfo" : "EventMapInfo");
      schema->opcode = opcode;
      g_once_init_leave (&schemas[k], schema);
    }
  return schemas[k];
}

static void
add_text (EtlDecoded *d, const char *name, const char *value)
{
  if (value != NULL)
    etl_decoded_add_field (d, name, value, ETL_IN_UNICODESTRING, ETL_OUT_STRING, FALSE, 0);
}

static void
add_uint (EtlDecoded *d, const char *name, guint64 value, guint16 in_type)
{
  char buf[24];

  g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, value);
  etl_decoded_add_field (d, name, buf, in_type, ETL_OUT_NULL, TRUE, value);
}

static void
add_guid (EtlDecoded *d, const char *name, const guint8 *p)
{
  EtlGuid guid;
  char buf[ETL_GUID_STRING_LEN + 1];

  etl_guid_read (&guid, p);
  etl_guid_to_string (&guid, buf);
  etl_decoded_add_field (d, name, buf, ETL_IN_GUID, ETL_OUT_NULL, FALSE, 0);
}

static const char *
decoding_source_name (guint32 source)
{
  /* DECODING_SOURCE (tdh.h) */
  static const char *const names[] = { "DecodingSourceXMLFile", "DecodingSourceWbem", "DecodingSourceWPP",
                                        "DecodingSourceTlg" };

  return source < G_N_ELEMENTS (names) ? names[source] : NULL;
}

/* The fields of an EventInfo record (one TRACE_EVENT_INFO). */
static void
decode_event_info (EtlDecoded *d, const guint8 *blob, gsize len)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSchema) schema = NULL;
  g_autofree char *channel_name = NULL;
  g_autofree char *display = NULL;
  guint32 source;

  if (len < TEI_HEADER_SIZE)
    {
      etl_decoded_end (d, FALSE, 0);
      return;
    }
  schema = etl_tdh_parse_event_info (blob, len, &error);
  if (schema != NULL)
    {
      display = etl_schema_dup_display_name (schema);
      add_text (d, "ProviderName", schema->provider_name);
      add_text (d, "EventName", display);
    }
  add_uint (d, "EventId", etl_read_u16 (blob + 32), ETL_IN_UINT16);
  add_uint (d, "Version", blob[34], ETL_IN_UINT8);
  add_uint (d, "Task", etl_read_u16 (blob + 38), ETL_IN_UINT16);
  if (schema != NULL)
    add_text (d, "TaskName", schema->task_name);
  add_uint (d, "Opcode", blob[37], ETL_IN_UINT8);
  if (schema != NULL)
    add_text (d, "OpcodeName", schema->opcode_name);
  add_uint (d, "Level", blob[36], ETL_IN_UINT8);
  if (schema != NULL)
    add_text (d, "LevelName", schema->level_name);
  {
    char buf[24];
    guint64 keyword = etl_read_u64 (blob + 40);

    g_snprintf (buf, sizeof buf, "0x%08" G_GINT64_MODIFIER "x", keyword);
    etl_decoded_add_field (d, "Keyword", buf, ETL_IN_UINT64, ETL_OUT_HEXINT64, TRUE, keyword);
  }
  if (schema != NULL && schema->keyword_names != NULL)
    {
      g_autofree char *words = g_strjoinv ("|", schema->keyword_names);

      add_text (d, "KeywordNames", words);
    }
  add_uint (d, "Channel", blob[35], ETL_IN_UINT8);
  if (schema != NULL && read_string (blob, len, etl_read_u32 (blob + 60), &channel_name, NULL)
      && channel_name != NULL && trimmed (channel_name)[0] != '\0')
    add_text (d, "ChannelName", channel_name);
  add_uint (d, "PropertyCount", etl_read_u32 (blob + 100), ETL_IN_UINT32);
  add_uint (d, "TopLevelPropertyCount", etl_read_u32 (blob + 104), ETL_IN_UINT32);
  if (schema != NULL && schema->n_top_level > 0)
    {
      GString *names = g_string_new (NULL);

      for (guint i = 0; i < schema->n_top_level; i++)
        {
          if (i > 0)
            g_string_append (names, ", ");
          g_string_append (names, schema->properties[i].name);
        }
      add_text (d, "Properties", names->str);
      g_string_free (names, TRUE);
    }
  source = etl_read_u32 (blob + 48);
  if (decoding_source_name (source) != NULL)
    etl_decoded_add_field (d, "DecodingSource", decoding_source_name (source), ETL_IN_UINT32, ETL_OUT_NULL, TRUE,
                           source);
  else
    add_uint (d, "DecodingSource", source, ETL_IN_UINT32);
  add_guid (d, "ProviderGuid", blob);
  add_guid (d, "EventGuid", blob + 16);
  /* A blob the parser refuses keeps its header fields; the rest is not decoded. */
  etl_decoded_end (d, schema != NULL, schema != NULL ? len : TEI_HEADER_SIZE);
}

static const char *
map_flag_name (guint32 flag)
{
  /* MAP_FLAGS (tdh.h) */
  switch (flag)
    {
    case 0x1: return "ValueMap";
    case 0x2: return "Bitmap";
    case 0x4: return "PatternMap";
    case 0x8: return "WbemValueMap";
    case 0x10: return "WbemBitmap";
    case 0x20: return "WbemFlag";
    default: return NULL;
    }
}

/* The fields of an EventMapInfo record (provider GUID + EVENT_MAP_INFO). */
static void
decode_map_info (EtlDecoded *d, const guint8 *blob, gsize len)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlMap) map = NULL;
  g_autofree char *name = NULL;
  const guint8 *m = blob + 16;
  EtlGuid provider;
  const char *provider_name;
  guint32 flag, value_type;

  if (len < 16 + EMI_HEADER_SIZE)
    {
      etl_decoded_end (d, FALSE, 0);
      return;
    }
  map = etl_tdh_parse_map_info (blob, len, &provider, &error);
  provider_name = etl_names_provider (&provider);
  add_text (d, "ProviderName", provider_name);
  if (read_string (m, len - 16, etl_read_u32 (m), &name, NULL) && name != NULL)
    add_text (d, "MapName", trimmed (name));
  flag = etl_read_u32 (m + 4);
  if (map_flag_name (flag) != NULL)
    etl_decoded_add_field (d, "Flag", map_flag_name (flag), ETL_IN_UINT32, ETL_OUT_NULL, TRUE, flag);
  else
    add_uint (d, "Flag", flag, ETL_IN_UINT32);
  add_uint (d, "EntryCount", etl_read_u32 (m + 8), ETL_IN_UINT32);
  value_type = etl_read_u32 (m + 12);
  /* MAP_VALUETYPE (tdh.h) */
  if (value_type <= 1)
    etl_decoded_add_field (d, "ValueType", value_type == 0 ? "ULONG" : "String", ETL_IN_UINT32, ETL_OUT_NULL, TRUE,
                           value_type);
  else
    add_uint (d, "ValueType", value_type, ETL_IN_UINT32);
  if (map != NULL && map->n_entries > 0)
    {
      GString *entries = g_string_new (NULL);

      for (guint i = 0; i < map->n_entries && i < MAX_ENTRIES_SHOWN; i++)
        {
          if (i > 0)
            g_string_append (entries, ", ");
          if (map->is_bitmap)
            g_string_append_printf (entries, "0x%" G_GINT64_MODIFIER "x=%s", map->entries[i].value,
                                    map->entries[i].name);
          else
            g_string_append_printf (entries, "%" G_GUINT64_FORMAT "=%s", map->entries[i].value, map->entries[i].name);
        }
      if (map->n_entries > MAX_ENTRIES_SHOWN)
        g_string_append_printf (entries, ", … (%u more)", map->n_entries - MAX_ENTRIES_SHOWN);
      add_text (d, "Entries", entries->str);
      g_string_free (entries, TRUE);
    }
  add_guid (d, "ProviderGuid", blob);
  etl_decoded_end (d, map != NULL, map != NULL ? len : 16 + EMI_HEADER_SIZE);
}

/**
 * etl_tdh_decode_record:
 * @record: a record
 *
 * Shows a KernelTraceControl MetaData record as fields, as an event of its
 * own.  EventInfo: ProviderName, EventName (the name etlscope gives the
 * events it describes), EventId, Version, Task, TaskName, Opcode,
 * OpcodeName, Level, LevelName, Keyword, KeywordNames, Channel,
 * ChannelName, PropertyCount, TopLevelPropertyCount, Properties (the
 * top-level property names), DecodingSource, ProviderGuid and EventGuid
 * (names only when the blob has them).  EventMapInfo: ProviderName (when
 * etlscope knows the GUID), MapName, Flag (ValueMap, Bitmap, …),
 * EntryCount, ValueType, Entries ("value=name, …", at most 256) and
 * ProviderGuid.  No pointer-sized fields: FULL_HEADER32 and FULL_HEADER64
 * records read alike.  A blob etl_tdh_parse_event_info() or
 * etl_tdh_parse_map_info() refuses keeps the fields of its fixed header,
 * and #EtlDecoded.complete is %FALSE.  #EtlDecoded.schema is a built-in
 * schema (%ETL_SCHEMA_SOURCE_BUILTIN) named "MetaData/EventInfo" or
 * "MetaData/EventMapInfo".
 *
 * Returns: (transfer full) (nullable): the fields, or %NULL when @record is
 *   not a MetaData record (etl_tdh_is_metadata_record())
 */
EtlDecoded *
etl_tdh_decode_record (const EtlRecord *record)
{
  EtlDecoded *d;
  const guint8 *blob;
  gsize len;

  g_return_val_if_fail (record != NULL, NULL);

  if (!etl_tdh_is_metadata_record (record))
    return NULL;
  blob = record->user_data != NULL ? record->user_data : (const guint8 *)"";
  len = record->user_data != NULL ? record->user_data_len : 0;
  d = etl_decoded_begin (record_schema (record->opcode));
  if (record->opcode == ETL_TDH_OPCODE_EVENT_INFO)
    decode_event_info (d, blob, len);
  else
    decode_map_info (d, blob, len);
  return d;
}
