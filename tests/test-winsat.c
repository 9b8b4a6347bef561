/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-winsat.c: LZNT1 ([MS-XCA] 2.5) on hand-made and hostile streams, and
 * the KernelTraceControl WinSat records of four real traces (FULL_HEADER32
 * and FULL_HEADER64) decoded to their XML; with libfwnt, the real streams
 * also decompress the same with its LZNT1 decoder.
 */
#include "config.h"

#include <string.h>

#include "etl-decode.h"
#include "etl-error.h"
#include "etl-lznt1.h"
#include "etl-test-trace.h"
#include "etl-trace.h"
#include "etl-winsat.h"

#if HAVE_LIBFWNT
#include <libfwnt.h>
#endif

/* ---- LZNT1 ------------------------------------------------------------- */

static void
put_header (guint8 *p, gsize data_len, gboolean compressed)
{
  guint16 h = (guint16)((data_len - 1) | 0x3000 | (compressed ? 0x8000 : 0));

  p[0] = h & 0xFF;
  p[1] = h >> 8;
}

/* 20 literals, then a copy token at position 20 (11 length bits: 5
 * displacement bits), then an overlapping copy at position 25 ("abab…"),
 * then a second, uncompressed-flag chunk. */
static void
test_lznt1_hand_made (void)
{
  guint8 in[64];
  guint8 out[64];
  gsize n = 0, out_len = 0;
  g_autoptr (GError) error = NULL;
  const char *lit = "ABCDEFGHIJKLMNOPQRST";
  gsize start;

  n = 2;
  start = n;
  /* flags 0x00: 8 literals, twice, then 4 literals + token + token */
  in[n++] = 0x00;
  memcpy (in + n, lit, 8), n += 8;
  in[n++] = 0x00;
  memcpy (in + n, lit + 8, 8), n += 8;
  in[n++] = 0x30; /* bits 4 and 5: tokens after 4 literals */
  memcpy (in + n, lit + 16, 4), n += 4;
  /* position 20: pos-1 = 19 ≥ 16 → 11 length bits; displacement 20, length 5 */
  in[n++] = ((19u << 11) | 2) & 0xFF;
  in[n++] = ((19u << 11) | 2) >> 8;
  /* position 25: displacement 2, length 6 ("DE" → "DEDEDE") */
  in[n++] = ((1u << 11) | 3) & 0xFF;
  in[n++] = ((1u << 11) | 3) >> 8;
  put_header (in, n - start, TRUE);
  /* end marker */
  in[n++] = 0;
  in[n++] = 0;

  g_assert_true (etl_lznt1_decompress (in, n, out, sizeof out, &out_len, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (out, out_len, "ABCDEFGHIJKLMNOPQRSTABCDEDEDEDE", 31);

  /* The output buffer one byte short. */
  g_assert_false (etl_lznt1_decompress (in, n, out, 30, &out_len, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_clear_error (&error);

  /* A copy reaching before the chunk: displacement 21 at position 20. */
  in[start + 1 + 8 + 1 + 8 + 1 + 4] = ((20u << 11) | 2) & 0xFF;
  in[start + 1 + 8 + 1 + 8 + 1 + 4 + 1] = ((20u << 11) | 2) >> 8;
  g_assert_false (etl_lznt1_decompress (in, n, out, sizeof out, &out_len, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_assert_nonnull (strstr (error->message, "before the chunk"));
  g_clear_error (&error);

  /* Bad signature; a chunk longer than the input. */
  in[1] &= 0x8F;
  g_assert_false (etl_lznt1_decompress (in, n, out, sizeof out, &out_len, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_clear_error (&error);
  put_header (in, 40, TRUE);
  g_assert_false (etl_lznt1_decompress (in, 30, out, sizeof out, &out_len, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_CORRUPT);
  g_clear_error (&error);

  /* An uncompressed chunk holds 4096 bytes as they are. */
  {
    g_autofree guint8 *raw = g_malloc (2 + 4096);
    g_autofree guint8 *big = g_malloc (4096);

    put_header (raw, 4096, FALSE);
    for (guint i = 0; i < 4096; i++)
      raw[2 + i] = (guint8)(i * 7);
    g_assert_true (etl_lznt1_decompress (raw, 2 + 4096, big, 4096, &out_len, &error));
    g_assert_no_error (error);
    g_assert_cmpmem (big, out_len, raw + 2, 4096);
  }

  /* Empty input, or a zero header: nothing. */
  g_assert_true (etl_lznt1_decompress (in, 0, out, sizeof out, &out_len, &error));
  g_assert_cmpuint (out_len, ==, 0);
}

/* ---- WinSat records ---------------------------------------------------- */

typedef struct
{
  const char *file;
  guint header_type;
  const char *state;
  guint32 sizes[3]; /* UncompressedSize of WinSPR, Metrics, SystemConfig */
} WinSatFile;

static const WinSatFile winsat_files[] = {
  { "SelfDescribingSingleEvent.etl", 20, "1", { 1052, 2348, 17888 } },
  { "real/sonde_test.etl", 20, "1", { 1060, 3798, 20584 } },
  { "real/msbuild_PerfViewData.etl", 10, "2", { 1052, 3786, 14216 } },
  { "real/MonoGameTerrain2D_PerfViewData.etl", 20, "1", { 1060, 3800, 24544 } },
};

static void
check_with_fwnt (const EtlRecord *r, const char *xml_utf8)
{
#if HAVE_LIBFWNT
  guint32 size = (guint32)(r->user_data[4] | (r->user_data[5] << 8) | (r->user_data[6] << 16)
                           | ((guint32)r->user_data[7] << 24));
  g_autofree guint8 *out = g_malloc0 (size + 1024);
  g_autofree guint8 *ours = g_malloc0 (size);
  size_t produced = size + 1024;
  gsize ours_len = 0;
  libfwnt_error_t *fw_error = NULL;

  g_assert_cmpint (libfwnt_lznt1_decompress (r->user_data + 8, r->user_data_len - 8, out, &produced, &fw_error), ==, 1);
  g_assert_true (etl_lznt1_decompress (r->user_data + 8, r->user_data_len - 8, ours, size, &ours_len, NULL));
  g_assert_cmpmem (ours, ours_len, out, produced);
#endif
  g_assert_nonnull (xml_utf8);
  (void)r;
}

static void
test_winsat_file (gconstpointer data)
{
  const WinSatFile *wf = data;
  static const char *const roots[] = { "<WinSPR>", "<Metrics>", "<SystemConfig>" };
  static const char *const names[] = { "WinSat/WinSPR", "WinSat/Metrics", "WinSat/SystemConfig" };
  g_autoptr (EtlTrace) trace = etl_test_open_corpus (wf->file);
  guint seen = 0;

  if (trace == NULL)
    return;
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) d = NULL;
      g_autofree char *display = NULL;
      guint k;
      const EtlField *xml, *size;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      if (!etl_winsat_is_record (&r))
        continue;
      k = r.opcode == ETL_WINSAT_OPCODE_WINSPR ? 0 : r.opcode == ETL_WINSAT_OPCODE_METRICS ? 1 : 2;
      g_assert_cmpuint (r.header_type, ==, wf->header_type);
      d = etl_decode_record (NULL, NULL, &r);
      g_assert_nonnull (d->schema);
      g_assert_cmpint (d->schema->source, ==, ETL_SCHEMA_SOURCE_BUILTIN);
      display = etl_schema_dup_display_name (d->schema);
      g_assert_cmpstr (display, ==, names[k]);
      g_assert_true (d->complete);
      g_assert_cmpuint (d->fields->len, ==, 3);
      g_assert_cmpstr (etl_decoded_find (d, "State")->value, ==, wf->state);
      size = etl_decoded_find (d, "UncompressedSize");
      g_assert_cmpuint (size->number, ==, wf->sizes[k]);
      xml = etl_decoded_find (d, "Xml");
      g_assert_nonnull (xml);
      g_assert_true (g_str_has_prefix (xml->value, roots[k]));
      {
        g_autofree char *close = g_strdup_printf ("</%s", roots[k] + 1);

        g_assert_true (g_str_has_suffix (xml->value, close));
      }
      /* UTF-16: the XML has about half as many characters as bytes. */
      g_assert_cmpuint (g_utf8_strlen (xml->value, -1), >, wf->sizes[k] / 2 - 8);
      g_assert_cmpuint (g_utf8_strlen (xml->value, -1), <=, wf->sizes[k] / 2);
      check_with_fwnt (&r, xml->value);

      /* Every cut of the compressed data: no XML, incomplete, no crash. */
      for (gsize cut = 0; cut < r.user_data_len; cut += (cut < 16 ? 1 : 37))
        {
          EtlRecord c = r;
          g_autoptr (EtlDecoded) cd = NULL;

          c.user_data_len = cut;
          cd = etl_decode_record (NULL, NULL, &c);
          g_assert_false (cd->complete);
          g_assert_null (etl_decoded_find (cd, "Xml"));
          g_assert_cmpuint (cd->fields->len, ==, cut < 8 ? 0 : 2);
        }
      seen |= 1u << k;
    }
  g_assert_cmpuint (seen, ==, 7);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/lznt1/hand-made", test_lznt1_hand_made);
  for (guint i = 0; i < G_N_ELEMENTS (winsat_files); i++)
    {
      g_autofree char *name = g_path_get_basename (winsat_files[i].file);
      g_autofree char *test_path = g_strdup_printf ("/etl/winsat/%s", name);

      g_test_add_data_func (test_path, &winsat_files[i], test_winsat_file);
    }
  return g_test_run ();
}
