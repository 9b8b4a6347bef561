/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-winsat
 * @title: WinSat records
 * @short_description: KernelTraceControl WinSat records' XML as a field
 *
 * When xperf or PerfView merge a trace, KernelTraceControl adds the
 * machine's WinSAT assessment as classic (FULL_HEADER32/64) records of the
 * WinSat class, ed54dff8-c409-4cf6-bf83-05e1e61a09c4: opcode 33 WinSPR (the
 * scores), 35 Metrics and 37 SystemConfig.  Their layout has no public
 * documentation; TraceEvent's WinSatXmlTraceData reads it, and the records
 * of SelfDescribingSingleEvent.etl, real/sonde_test.etl,
 * real/msbuild_PerfViewData.etl and real/MonoGameTerrain2D_PerfViewData.etl
 * show the same: u32 State (1, or 2 in msbuild's), u32 UncompressedSize (bytes
 * of the XML), then the XML compressed with LZNT1 (etl-lznt1.c) to the end
 * of the record.  The XML is UTF-16LE, NUL-terminated, rooted at an element
 * named after the opcode (&lt;WinSPR&gt;, &lt;Metrics&gt;,
 * &lt;SystemConfig&gt;).  As TraceEvent does, an UncompressedSize of 64 KiB
 * or more is not decompressed.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-decode-private.h"
#include "etl-format-private.h"
#include "etl-lznt1.h"
#include "etl-winsat.h"

/* ed54dff8-c409-4cf6-bf83-05e1e61a09c4: KernelTraceControl's WinSat task */
const EtlGuid etl_winsat_guid
    = { 0xed54dff8, 0xc409, 0x4cf6, { 0xbf, 0x83, 0x05, 0xe1, 0xe6, 0x1a, 0x09, 0xc4 } };

#define WINSAT_HEADER_SIZE 8
#define MAX_UNCOMPRESSED 0x10000

static const struct
{
  guint8 opcode;
  const char *name;
} opcodes[] = {
  { ETL_WINSAT_OPCODE_WINSPR, "WinSPR" },
  { ETL_WINSAT_OPCODE_METRICS, "Metrics" },
  { ETL_WINSAT_OPCODE_SYSTEM_CONFIG, "SystemConfig" },
};

/**
 * etl_winsat_is_record:
 * @record: a record
 *
 * Returns: %TRUE when @record is a classic record of the WinSat class with
 *   opcode 33, 35 or 37
 */
gboolean
etl_winsat_is_record (const EtlRecord *record)
{
  g_return_val_if_fail (record != NULL, FALSE);

  if (record->kind != ETL_RECORD_KIND_CLASSIC || !etl_guid_equal (&record->provider, &etl_winsat_guid))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (opcodes); i++)
    if (opcodes[i].opcode == record->opcode)
      return TRUE;
  return FALSE;
}

/* The built-in schema naming the records of opcode @k ("WinSat/WinSPR"). */
static EtlSchema *
record_schema (guint k)
{
  static EtlSchema *schemas[G_N_ELEMENTS (opcodes)];

  if (g_once_init_enter (&schemas[k]))
    {
      EtlSchemaKey key;
      EtlSchema *schema;

      etl_schema_key_init_opcode (&key, &etl_winsat_guid, opcodes[k].opcode, 0);
      schema = etl_schema_new (&key, ETL_SCHEMA_SOURCE_BUILTIN);
      schema->provider_name = g_strdup ("KernelTraceControl");
      schema->task_name = g_strdup ("WinSat");
      schema->opcode_name = g_strdup (opcodes[k].name);
      schema->opcode = opcodes[k].opcode;
      g_once_init_leave (&schemas[k], schema);
    }
  return schemas[k];
}

static void
add_u32 (EtlDecoded *d, const char *name, guint32 value)
{
  char buf[16];

  g_snprintf (buf, sizeof buf, "%u", value);
  etl_decoded_add_field (d, name, buf, ETL_IN_UINT32, ETL_OUT_NULL, TRUE, value);
}

/* @n bytes of UTF-16LE up to the first NUL, as UTF-8 (unpaired surrogates
 * as U+FFFD). */
static char *
utf16_to_utf8 (const guint8 *p, gsize n)
{
  GString *s = g_string_sized_new (n / 2 + 1);

  for (gsize i = 0; i + 1 < n; i += 2)
    {
      gunichar c = etl_read_u16 (p + i);

      if (c == 0)
        break;
      if (c >= 0xD800 && c < 0xDC00 && i + 3 < n)
        {
          gunichar lo = etl_read_u16 (p + i + 2);

          if (lo >= 0xDC00 && lo < 0xE000)
            {
              c = 0x10000 + ((c - 0xD800) << 10) + (lo - 0xDC00);
              i += 2;
            }
        }
      if (c >= 0xD800 && c < 0xE000)
        c = 0xFFFD;
      g_string_append_unichar (s, c);
    }
  return g_string_free (s, FALSE);
}

/**
 * etl_winsat_decode_record:
 * @record: a record
 *
 * Shows a WinSat record (see the section overview) as three fields: State,
 * UncompressedSize and Xml (the decompressed XML as UTF-8, surrounding
 * white space trimmed).  When the header is short, the size is 64 KiB or
 * more, or the LZNT1 data is damaged or decompresses to another size, the
 * Xml field is left out and #EtlDecoded.complete is %FALSE.
 * #EtlDecoded.schema is a built-in schema (%ETL_SCHEMA_SOURCE_BUILTIN)
 * named "WinSat/WinSPR", "WinSat/Metrics" or "WinSat/SystemConfig".
 *
 * Returns: (transfer full) (nullable): the fields, or %NULL when @record is
 *   not a WinSat record (etl_winsat_is_record())
 */
EtlDecoded *
etl_winsat_decode_record (const EtlRecord *record)
{
  EtlDecoded *d;
  const guint8 *data = record != NULL ? record->user_data : NULL;
  gsize len = data != NULL ? record->user_data_len : 0;
  guint32 size;
  g_autofree guint8 *xml = NULL;
  g_autofree char *text = NULL;
  gsize xml_len = 0;
  guint k = 0;

  g_return_val_if_fail (record != NULL, NULL);

  if (!etl_winsat_is_record (record))
    return NULL;
  while (opcodes[k].opcode != record->opcode)
    k++;
  d = etl_decoded_begin (record_schema (k));
  if (len < WINSAT_HEADER_SIZE)
    {
      etl_decoded_end (d, FALSE, 0);
      return d;
    }
  add_u32 (d, "State", etl_read_u32 (data));
  size = etl_read_u32 (data + 4);
  add_u32 (d, "UncompressedSize", size);
  if (size >= MAX_UNCOMPRESSED)
    {
      etl_decoded_end (d, FALSE, WINSAT_HEADER_SIZE);
      return d;
    }
  xml = g_malloc (MAX (size, 1u));
  if (!etl_lznt1_decompress (data + WINSAT_HEADER_SIZE, len - WINSAT_HEADER_SIZE, xml, size, &xml_len, NULL)
      || xml_len != size)
    {
      etl_decoded_end (d, FALSE, WINSAT_HEADER_SIZE);
      return d;
    }
  text = utf16_to_utf8 (xml, xml_len);
  etl_decoded_add_field (d, "Xml", g_strstrip (text), ETL_IN_UNICODESTRING, ETL_OUT_XML, FALSE, 0);
  etl_decoded_end (d, TRUE, len);
  return d;
}
