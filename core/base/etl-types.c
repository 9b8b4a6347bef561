/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-types.c: GUIDs, header type names and EtlRecord helpers.
 */
#include "config.h"

#include "etl-types.h"

#include <stdio.h>
#include <string.h>

#include "etl-format-private.h"

/**
 * etl_record_clear:
 * @record: a record filled by etl_trace_get_record() or the cursor
 *
 * Releases what @record holds (a decompressed buffer) and zeroes it, so the
 * struct can be reused.  Safe to call on a zeroed record.
 */
void
etl_record_clear (EtlRecord *record)
{
  g_return_if_fail (record != NULL);

  g_clear_pointer (&record->hold, g_bytes_unref);
  memset (record, 0, sizeof *record);
}

/**
 * etl_record_get_pointer_size:
 * @record: a record
 *
 * The pointer size of the process that logged @record, which sizes its
 * payload's pointers and SIZE_Ts: 4 for the SYSTEM32, COMPACT32,
 * PERFINFO32, FULL_HEADER32, INSTANCE32 and EVENT_HEADER32 headers and for
 * EVENT_HEADER records flagged 32_BIT_HEADER (EVENT_HEADER.Flags), else 8.
 *
 * Returns: 4 or 8
 */
guint
etl_record_get_pointer_size (const EtlRecord *record)
{
  g_return_val_if_fail (record != NULL, 8);

  switch (record->header_type)
    {
    case ETL_HEADER_TYPE_SYSTEM32:
    case ETL_HEADER_TYPE_COMPACT32:
    case ETL_HEADER_TYPE_PERFINFO32:
    case ETL_HEADER_TYPE_FULL_HEADER32:
    case ETL_HEADER_TYPE_INSTANCE32:
    case ETL_HEADER_TYPE_EVENT_HEADER32:
      return 4;
    case ETL_HEADER_TYPE_EVENT_HEADER64:
      return (record->flags & ETL_EVENT_HEADER_FLAG_32_BIT_HEADER) ? 4 : 8;
    default:
      return 8;
    }
}

/**
 * etl_guid_read:
 * @guid: (out caller-allocates): where to store the GUID
 * @bytes: 16 bytes in the on-disk GUID layout (Data1..3 little-endian, Data4 bytes)
 *
 * Reads a GUID as Windows stores it.
 */
void
etl_guid_read (EtlGuid *guid, const guint8 *bytes)
{
  guid->data1 = etl_read_u32 (bytes);
  guid->data2 = etl_read_u16 (bytes + 4);
  guid->data3 = etl_read_u16 (bytes + 6);
  memcpy (guid->data4, bytes + 8, 8);
}

/**
 * etl_guid_to_string:
 * @guid: a GUID
 * @out: (out caller-allocates): 37 bytes for the lower-case registry form
 *   without braces, e.g. "68fdd900-4a3e-11d1-84f4-0000f80464e3"
 *
 * Formats @guid the way TraceEvent and logman print provider GUIDs.
 */
void
etl_guid_to_string (const EtlGuid *guid, char out[ETL_GUID_STRING_LEN + 1])
{
  /* By hand rather than g_snprintf(): dumps format one a record. */
  static const char hex[] = "0123456789abcdef";
  char *p = out;

  for (int shift = 28; shift >= 0; shift -= 4)
    *p++ = hex[(guid->data1 >> shift) & 15];
  *p++ = '-';
  for (int shift = 12; shift >= 0; shift -= 4)
    *p++ = hex[(guid->data2 >> shift) & 15];
  *p++ = '-';
  for (int shift = 12; shift >= 0; shift -= 4)
    *p++ = hex[(guid->data3 >> shift) & 15];
  for (guint k = 0; k < 8; k++)
    {
      if (k == 0 || k == 2)
        *p++ = '-';
      *p++ = hex[guid->data4[k] >> 4];
      *p++ = hex[guid->data4[k] & 15];
    }
  *p = '\0';
  g_assert (p == out + ETL_GUID_STRING_LEN);
}

/**
 * etl_guid_parse:
 * @str: a GUID in registry form, with or without braces, any case
 * @guid: (out caller-allocates): the parsed GUID
 *
 * Returns: %TRUE if @str is a well-formed GUID
 */
gboolean
etl_guid_parse (const char *str, EtlGuid *guid)
{
  char hex[33];
  guint n = 0;
  gsize len;
  static const guint dash_at[] = { 8, 13, 18, 23 };

  g_return_val_if_fail (str != NULL, FALSE);
  g_return_val_if_fail (guid != NULL, FALSE);

  len = strlen (str);
  if (len == ETL_GUID_STRING_LEN + 2 && str[0] == '{' && str[len - 1] == '}')
    {
      str++;
      len -= 2;
    }
  if (len != ETL_GUID_STRING_LEN)
    return FALSE;

  for (guint i = 0; i < len; i++)
    {
      gboolean dash = FALSE;

      for (guint d = 0; d < G_N_ELEMENTS (dash_at); d++)
        dash |= (i == dash_at[d]);
      if (dash)
        {
          if (str[i] != '-')
            return FALSE;
          continue;
        }
      if (!g_ascii_isxdigit (str[i]))
        return FALSE;
      hex[n++] = str[i];
    }
  hex[n] = '\0';

  {
    guint8 b[16];

    for (guint i = 0; i < 16; i++)
      b[i] = (guint8) ((g_ascii_xdigit_value (hex[2 * i]) << 4) | g_ascii_xdigit_value (hex[2 * i + 1]));
    guid->data1 = ((guint32) b[0] << 24) | ((guint32) b[1] << 16) | ((guint32) b[2] << 8) | b[3];
    guid->data2 = (guint16) ((b[4] << 8) | b[5]);
    guid->data3 = (guint16) ((b[6] << 8) | b[7]);
    memcpy (guid->data4, b + 8, 8);
  }
  return TRUE;
}

/**
 * etl_guid_equal:
 * @a: a GUID
 * @b: another GUID
 *
 * Returns: %TRUE when @a and @b are the same GUID
 */
gboolean
etl_guid_equal (const EtlGuid *a, const EtlGuid *b)
{
  return a->data1 == b->data1 && a->data2 == b->data2 && a->data3 == b->data3
         && memcmp (a->data4, b->data4, 8) == 0;
}

/**
 * etl_guid_is_zero:
 * @guid: a GUID
 *
 * Returns: %TRUE for the all-zero GUID (GUID_NULL)
 */
gboolean
etl_guid_is_zero (const EtlGuid *guid)
{
  static const EtlGuid zero;

  return etl_guid_equal (guid, &zero);
}

/**
 * etl_guid_hash:
 * @guid: (type EtlGuid): a GUID
 *
 * A #GHashFunc for #EtlGuid keys.
 *
 * Returns: the hash
 */
guint
etl_guid_hash (gconstpointer guid)
{
  const EtlGuid *g = guid;
  guint h = g->data1 ^ ((guint) g->data2 << 16) ^ g->data3;

  for (guint i = 0; i < 8; i++)
    h = h * 31 + g->data4[i];
  return h;
}

/**
 * etl_guid_equal_func:
 * @a: (type EtlGuid): a GUID
 * @b: (type EtlGuid): another GUID
 *
 * A #GEqualFunc for #EtlGuid keys.
 *
 * Returns: %TRUE when equal
 */
gboolean
etl_guid_equal_func (gconstpointer a, gconstpointer b)
{
  return etl_guid_equal (a, b);
}

/**
 * etl_header_type_name:
 * @header_type: a trace header type (byte 2 of the marker)
 *
 * Names from TRACE_HEADER_TYPE_* in ntwmi.h.
 *
 * Returns: (transfer none): "SYSTEM64", "EVENT_HEADER32", … or "UNKNOWN"
 */
const char *
etl_header_type_name (guint header_type)
{
  switch (header_type)
    {
    case ETL_HEADER_TYPE_SYSTEM32: return "SYSTEM32";
    case ETL_HEADER_TYPE_SYSTEM64: return "SYSTEM64";
    case ETL_HEADER_TYPE_COMPACT32: return "COMPACT32";
    case ETL_HEADER_TYPE_COMPACT64: return "COMPACT64";
    case ETL_HEADER_TYPE_FULL_HEADER32: return "FULL_HEADER32";
    case ETL_HEADER_TYPE_INSTANCE32: return "INSTANCE32";
    case ETL_HEADER_TYPE_TIMED: return "TIMED";
    case ETL_HEADER_TYPE_ERROR: return "ERROR";
    case ETL_HEADER_TYPE_WNODE_HEADER: return "WNODE_HEADER";
    case ETL_HEADER_TYPE_MESSAGE: return "MESSAGE";
    case ETL_HEADER_TYPE_PERFINFO32: return "PERFINFO32";
    case ETL_HEADER_TYPE_PERFINFO64: return "PERFINFO64";
    case ETL_HEADER_TYPE_EVENT_HEADER32: return "EVENT_HEADER32";
    case ETL_HEADER_TYPE_EVENT_HEADER64: return "EVENT_HEADER64";
    case ETL_HEADER_TYPE_FULL_HEADER64: return "FULL_HEADER64";
    case ETL_HEADER_TYPE_INSTANCE64: return "INSTANCE64";
    default: return "UNKNOWN";
    }
}

/**
 * etl_record_kind_name:
 * @kind: an #EtlRecordKind
 *
 * Returns: (transfer none): "kernel", "perfinfo", "classic", "manifest",
 *   "tracelogging", "wpp" or "other"
 */
const char *
etl_record_kind_name (EtlRecordKind kind)
{
  static const char *const names[ETL_N_RECORD_KINDS] = {
    "kernel", "perfinfo", "classic", "manifest", "tracelogging", "wpp", "other",
  };

  return (guint) kind < ETL_N_RECORD_KINDS ? names[kind] : "other";
}
