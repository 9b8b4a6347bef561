/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-xpress: the core's [MS-XCA] plain LZ77 decoder (etl_xpress_lz77_decode).
 *
 * Hand-written streams for each corner of the format with exact expected
 * outputs; streams from a small test-only encoder (random literal/match plans
 * whose output is built alongside, so the expected bytes never come from a
 * decoder); and, when libfwnt is present, every compressed buffer of every
 * corpus file decoded by both decoders to the same bytes.
 */
#include "config.h"

#include <string.h>

#include "etl-error.h"
#include "etl-test-util.h"
#include "etl-xpress.h"
#include "xpress-test-util.h"

/* ------------------------------------------------------------------------ */
/* A test-only encoder: writes the tokens it is told to, per [MS-XCA] 2.3.   */

typedef struct
{
  gsize in_start, in_end; /* the token's bytes in the stream (flag words: their 4 bytes) */
  gsize out_before;       /* output produced before the token */
  gboolean is_match;
} Token;

typedef struct
{
  GByteArray *stream;
  GByteArray *expected; /* the output, built by plain byte copies */
  GArray *tokens;
  gsize flag_pos;
  guint32 flags;
  guint n_flags;
  gssize nibble_pos; /* the shared length byte with a free high nibble, or -1 */
} Enc;

static void
enc_flag_word (Enc *e)
{
  static const guint8 zero[4] = { 0 };
  Token t = { e->stream->len, e->stream->len + 4, e->expected->len, FALSE };

  e->flag_pos = e->stream->len;
  g_byte_array_append (e->stream, zero, 4);
  g_array_append_val (e->tokens, t);
  e->flags = 0;
  e->n_flags = 0;
}

static void
enc_init (Enc *e)
{
  e->stream = g_byte_array_new ();
  e->expected = g_byte_array_new ();
  e->tokens = g_array_new (FALSE, FALSE, sizeof (Token));
  e->nibble_pos = -1;
  enc_flag_word (e);
}

static void
enc_clear (Enc *e)
{
  g_byte_array_unref (e->stream);
  g_byte_array_unref (e->expected);
  g_array_unref (e->tokens);
}

static void
enc_store_flags (Enc *e)
{
  guint8 *p = e->stream->data + e->flag_pos;

  p[0] = (guint8) e->flags;
  p[1] = (guint8) (e->flags >> 8);
  p[2] = (guint8) (e->flags >> 16);
  p[3] = (guint8) (e->flags >> 24);
}

static void
enc_bit (Enc *e, guint bit)
{
  if (e->n_flags == 32)
    {
      enc_store_flags (e);
      enc_flag_word (e);
    }
  e->flags = (e->flags << 1) | bit;
  e->n_flags++;
}

static void
enc_put (Enc *e, const void *p, gsize n)
{
  g_byte_array_append (e->stream, p, (guint) n);
}

static void
enc_literal (Enc *e, guint8 b)
{
  Token t;

  enc_bit (e, 0);
  t = (Token){ e->stream->len, e->stream->len + 1, e->expected->len, FALSE };
  enc_put (e, &b, 1);
  g_byte_array_append (e->expected, &b, 1);
  g_array_append_val (e->tokens, t);
}

/* A match of @len bytes at distance @offset (1..8192); @force32 writes the
 * 32-bit length escape even when the 16-bit one would do (len >= 25). */
static void
enc_match_full (Enc *e, gsize offset, guint64 len, gboolean force32)
{
  guint64 m = len - 3;
  guint16 tuple;
  guint8 b[4];
  Token t;

  g_assert_cmpuint (offset, >=, 1);
  g_assert_cmpuint (offset, <=, 8192);
  g_assert_cmpuint (len, >=, 3);
  enc_bit (e, 1);
  t = (Token){ e->stream->len, 0, e->expected->len, TRUE };
  tuple = (guint16) (((offset - 1) << 3) | MIN (m, 7));
  b[0] = (guint8) tuple;
  b[1] = (guint8) (tuple >> 8);
  enc_put (e, b, 2);
  if (m >= 7)
    {
      guint64 rest = m - 7;
      guint8 nib = (guint8) MIN (rest, 15);

      if (force32)
        nib = 15;
      if (e->nibble_pos < 0)
        {
          e->nibble_pos = e->stream->len;
          enc_put (e, &nib, 1);
        }
      else
        {
          e->stream->data[e->nibble_pos] |= (guint8) (nib << 4);
          e->nibble_pos = -1;
        }
      if (nib == 15)
        {
          rest -= 15;
          if (rest < 255 && !force32)
            {
              b[0] = (guint8) rest;
              enc_put (e, b, 1);
            }
          else
            {
              b[0] = 255;
              enc_put (e, b, 1);
              if (m <= 0xFFFF && !force32)
                {
                  b[0] = (guint8) m;
                  b[1] = (guint8) (m >> 8);
                  enc_put (e, b, 2);
                }
              else
                {
                  b[0] = b[1] = 0;
                  enc_put (e, b, 2);
                  b[0] = (guint8) m;
                  b[1] = (guint8) (m >> 8);
                  b[2] = (guint8) (m >> 16);
                  b[3] = (guint8) (m >> 24);
                  enc_put (e, b, 4);
                }
            }
        }
    }
  t.in_end = e->stream->len;
  g_array_append_val (e->tokens, t);
  {
    gsize at = e->expected->len;

    g_byte_array_set_size (e->expected, (guint) (at + len));
    for (gsize i = 0; i < len; i++)
      e->expected->data[at + i] = e->expected->data[at + i - offset];
  }
}

static void
enc_match (Enc *e, gsize offset, guint64 len)
{
  enc_match_full (e, offset, len, FALSE);
}

/* Ends the stream as [MS-XCA]'s compressor does: unused flag bits are 1. */
static void
enc_finish (Enc *e)
{
  if (e->n_flags < 32)
    e->flags = (e->flags << (32 - e->n_flags)) | ((1u << (32 - e->n_flags)) - 1);
  enc_store_flags (e);
  e->n_flags = 32;
}

/* ------------------------------------------------------------------------ */

/* Decodes @in into exactly @cap bytes of room, guarded by canaries. */
static EtlXpressStatus
decode (const guint8 *in, gsize in_len, gsize cap, GByteArray **out, gsize *in_pos)
{
  guint8 *buf = g_malloc (cap + 32);
  gsize produced = 0, pos = 0;
  EtlXpressStatus status;

  memset (buf + cap, 0xA5, 32);
  status = etl_xpress_lz77_decode (in, in_len, buf, cap, &produced, &pos);
  for (gsize i = 0; i < 32; i++)
    g_assert_cmpuint (buf[cap + i], ==, 0xA5);
  g_assert_cmpuint (produced, <=, cap);
  *out = g_byte_array_new ();
  g_byte_array_append (*out, buf, (guint) produced);
  if (in_pos != NULL)
    *in_pos = pos;
  g_free (buf);
  return status;
}

static void
assert_decodes_to (const guint8 *in, gsize in_len, const guint8 *expected, gsize expected_len)
{
  g_autoptr (GByteArray) out = NULL;
  gsize pos;

  g_assert_cmpint (decode (in, in_len, expected_len, &out, &pos), ==, ETL_XPRESS_OK);
  g_assert_cmpmem (out->data, out->len, expected, expected_len);
  g_assert_cmpuint (pos, <=, in_len);
#if HAVE_LIBFWNT
  {
    g_autofree guint8 *fw = g_malloc (expected_len + 1);
    gsize fw_len = 0;

    g_assert_true (xpress_test_fwnt_decode (in, in_len, fw, expected_len, &fw_len));
    g_assert_cmpmem (fw, fw_len, expected, expected_len);
  }
#endif
}

/* 40 literals: a full flag word of zeros, then one whose 8 top bits are 0. */
static void
test_literal_runs (void)
{
  guint8 stream[4 + 32 + 4 + 8];
  guint8 expected[40];

  memset (stream, 0, 4);
  for (int i = 0; i < 40; i++)
    expected[i] = (guint8) ('A' + i);
  memcpy (stream + 4, expected, 32);
  stream[36] = 0xFF; /* 0x00FFFFFF little-endian: 8 literals, then "matches" = the end */
  stream[37] = 0xFF;
  stream[38] = 0xFF;
  stream[39] = 0x00;
  memcpy (stream + 40, expected + 32, 8);
  assert_decodes_to (stream, sizeof stream, expected, 40);

  /* Literal runs split by matches at every bit position of a flag word. */
  for (guint gap = 1; gap <= 33; gap++)
    {
      Enc e;

      enc_init (&e);
      for (guint i = 0; i < 100; i++)
        {
          if (i % gap == gap - 1 && e.expected->len >= 4)
            enc_match (&e, 4, 3 + i % 5);
          else
            enc_literal (&e, (guint8) (i * 7));
        }
      enc_finish (&e);
      assert_decodes_to (e.stream->data, e.stream->len, e.expected->data, e.expected->len);
      enc_clear (&e);
    }
}

/* "abc" then a match of 10 at distance 3: the nibble escape with nibble 0. */
static void
test_nibble (void)
{
  static const guint8 stream[] = { 0xFF, 0xFF, 0xFF, 0x1F, 'a', 'b', 'c', 0x17, 0x00, 0x00 };
  static const char expected[] = "abcabcabcabca";

  assert_decodes_to (stream, sizeof stream, (const guint8 *) expected, 13);
}

/* Two escaped lengths share one byte: low nibble 2 (length 12) for the first,
 * high nibble 15 plus a byte 0 (length 25) for the second. */
static void
test_shared_nibble (void)
{
  static const guint8 stream[] = { 0xFF, 0xFF, 0xFF, 0x3F, 'a', 'b', 0x0F, 0x00, 0xF2, 0x07, 0x00, 0x00 };
  guint8 expected[2 + 12 + 25];

  memcpy (expected, "ab", 2);
  for (int i = 0; i < 12; i++)
    expected[2 + i] = (guint8) "ab"[i % 2];
  memset (expected + 14, 'b', 25);
  assert_decodes_to (stream, sizeof stream, expected, sizeof expected);

  /* A third escaped match takes a new byte again (low nibble). */
  {
    static const guint8 three[] = { 0xFF, 0xFF, 0xFF, 0x7F, 'x', 0x07, 0x00, 0x31, 0x07, 0x00, 0x07, 0x00, 0x05 };
    /* lengths: 7+3+1 = 11, 7+3+3 = 13, 7+3+5 = 15; all copies of 'x' */
    guint8 want[1 + 11 + 13 + 15];

    memset (want, 'x', sizeof want);
    assert_decodes_to (three, sizeof three, want, sizeof want);
  }
}

/* The byte escape (nibble 15 + byte), the 16-bit escape (byte 255 + u16 =
 * length − 3) and the 32-bit one (u16 0 + u32 = length − 3). */
static void
test_length_escapes (void)
{
  static const guint64 lengths[] = { 3, 9, 10, 24, 25, 26, 100, 276, 277, 278, 1000, 65538, 65539, 65540, 70000, 200000 };

  /* By hand: length 300 at distance 1 after 'z' = 'z' × 301. */
  {
    static const guint8 s16[] = { 0xFF, 0xFF, 0xFF, 0x7F, 'z', 0x07, 0x00, 0x0F, 0xFF, 0x29, 0x01 };
    guint8 want[301];

    memset (want, 'z', sizeof want);
    assert_decodes_to (s16, sizeof s16, want, sizeof want);
  }
  /* By hand: the 32-bit escape for length 70000 (0x11170 − 3 = 0x1116D). */
  {
    static const guint8 s32[] = { 0xFF, 0xFF, 0xFF, 0x7F, 'q', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x6D, 0x11, 0x01, 0x00 };
    g_autofree guint8 *want = g_malloc (70001);
    g_autoptr (GByteArray) out = NULL;

    memset (want, 'q', 70001);
    g_assert_cmpint (decode (s32, sizeof s32, 70001, &out, NULL), ==, ETL_XPRESS_OK);
    g_assert_cmpmem (out->data, out->len, want, 70001);
  }
  /* The 32-bit escape also for a length the 16-bit one could hold. */
  {
    static const guint8 s32small[] = { 0xFF, 0xFF, 0xFF, 0x7F, 'r', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x16, 0x00, 0x00, 0x00 };
    guint8 want[26];
    g_autoptr (GByteArray) out = NULL;

    /* (libfwnt 20181227 knows no 32-bit escape: it reads the u16 0 as length 3) */
    memset (want, 'r', sizeof want);
    g_assert_cmpint (decode (s32small, sizeof s32small, sizeof want, &out, NULL), ==, ETL_XPRESS_OK);
    g_assert_cmpmem (out->data, out->len, want, sizeof want);
  }

  for (gsize i = 0; i < G_N_ELEMENTS (lengths); i++)
    for (int force32 = 0; force32 <= (lengths[i] >= 25); force32++)
      {
        Enc e;
        g_autoptr (GByteArray) out = NULL;

        enc_init (&e);
        enc_literal (&e, 1);
        enc_literal (&e, 2);
        enc_literal (&e, 3);
        enc_literal (&e, 4);
        enc_literal (&e, 5);
        enc_match_full (&e, 5, lengths[i], force32);
        enc_literal (&e, 9);
        enc_match_full (&e, 3, lengths[i], force32);
        enc_finish (&e);
        g_assert_cmpint (decode (e.stream->data, e.stream->len, e.expected->len, &out, NULL), ==, ETL_XPRESS_OK);
        g_assert_cmpmem (out->data, out->len, e.expected->data, e.expected->len);
        enc_clear (&e);
      }
}

/* A 16- or 32-bit length below 22 is an error ([MS-XCA] 2.4.4). */
static void
test_bad_length (void)
{
  static const guint8 s16[] = { 0xFF, 0xFF, 0xFF, 0x7F, 'z', 0x07, 0x00, 0x0F, 0xFF, 0x15, 0x00 };
  static const guint8 s32[] = { 0xFF, 0xFF, 0xFF, 0x7F, 'z', 0x07, 0x00, 0x0F, 0xFF, 0x00, 0x00, 0x15, 0x00, 0x00, 0x00 };
  static const guint8 s16ok[] = { 0xFF, 0xFF, 0xFF, 0x7F, 'z', 0x07, 0x00, 0x0F, 0xFF, 0x16, 0x00 };
  g_autoptr (GByteArray) out = NULL;
  g_autoptr (GByteArray) out2 = NULL;
  g_autoptr (GByteArray) out3 = NULL;
  gsize pos;

  g_assert_cmpint (decode (s16, sizeof s16, 100, &out, &pos), ==, ETL_XPRESS_BAD_LENGTH);
  g_assert_cmpuint (pos, ==, 5);
  g_assert_cmpuint (out->len, ==, 1);
  g_assert_cmpint (decode (s32, sizeof s32, 100, &out2, &pos), ==, ETL_XPRESS_BAD_LENGTH);
  g_assert_cmpuint (pos, ==, 5);
  g_assert_cmpint (decode (s16ok, sizeof s16ok, 26, &out3, &pos), ==, ETL_XPRESS_OK);
  g_assert_cmpuint (out3->len, ==, 26);
}

/* Overlapping matches: distance 1 (a run), 2, 3, 7 and 8 at many lengths. */
static void
test_overlap (void)
{
  static const gsize offsets[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17 };

  /* By hand: "ab" + a match of 9 at distance 2 + 'c' + a match of 5 at distance 1. */
  {
    static const guint8 s[] = { 0xFF, 0xFF, 0xFF, 0x2F, 'a', 'b', 0x0E, 0x00, 'c', 0x02, 0x00 };
    static const char want[] = "abababababa" "c" "ccccc";

    assert_decodes_to (s, sizeof s, (const guint8 *) want, strlen (want));
  }
  for (gsize i = 0; i < G_N_ELEMENTS (offsets); i++)
    for (guint64 len = 3; len < 80; len++)
      {
        Enc e;

        enc_init (&e);
        for (gsize k = 0; k < offsets[i]; k++)
          enc_literal (&e, (guint8) (k * 37 + 1));
        enc_match (&e, offsets[i], len);
        enc_literal (&e, 0xEE);
        enc_match (&e, offsets[i], len);
        enc_finish (&e);
        assert_decodes_to (e.stream->data, e.stream->len, e.expected->data, e.expected->len);
        enc_clear (&e);
      }
}

/* A match ending at the last byte of the output, with and without room after. */
static void
test_exact_end (void)
{
  for (guint64 len = 3; len < 64; len++)
    for (gsize offset = 1; offset <= 12; offset++)
      {
        Enc e;
        g_autoptr (GByteArray) out = NULL;
        g_autoptr (GByteArray) out_short = NULL;
        gsize pos;

        enc_init (&e);
        for (gsize k = 0; k < 12; k++)
          enc_literal (&e, (guint8) (k + 0x40));
        enc_match (&e, offset, len);
        enc_finish (&e);
        /* Output room exactly the stream's size: the copy's tail path. */
        g_assert_cmpint (decode (e.stream->data, e.stream->len, e.expected->len, &out, &pos), ==, ETL_XPRESS_OK);
        g_assert_cmpmem (out->data, out->len, e.expected->data, e.expected->len);
        /* One byte less: the match runs past the end. */
        g_assert_cmpint (decode (e.stream->data, e.stream->len, e.expected->len - 1, &out_short, &pos), ==,
                         ETL_XPRESS_OVERRUN);
        g_assert_cmpuint (out_short->len, ==, 12);
        g_assert_cmpuint (pos, ==, 4 + 12);
        enc_clear (&e);
      }
}

/* Every prefix of a stream: the decoder stops at the last whole token, or
 * reports the match token the input ends inside. */
static void
test_truncated (void)
{
  Enc e;

  enc_init (&e);
  for (guint i = 0; i < 40; i++)
    enc_literal (&e, (guint8) i);
  enc_match (&e, 1, 5);
  enc_match (&e, 40, 12);
  enc_match (&e, 3, 300);
  enc_literal (&e, 0x77);
  enc_match (&e, 7, 30);
  enc_match (&e, 100, 70000);
  enc_match_full (&e, 2, 26, TRUE);
  for (guint i = 0; i < 30; i++)
    enc_literal (&e, (guint8) (i * 3));
  enc_match (&e, 8192, 4);
  enc_finish (&e);

  for (gsize k = 0; k <= e.stream->len; k++)
    {
      g_autoptr (GByteArray) out = NULL;
      gsize pos, want_out = e.expected->len;
      EtlXpressStatus want = ETL_XPRESS_OK, got;
      gsize want_pos = 0;

      for (guint t = 0; t < e.tokens->len; t++)
        {
          const Token *tk = &g_array_index (e.tokens, Token, t);

          if (tk->in_end > k)
            {
              want_out = tk->out_before;
              if (tk->is_match && k > tk->in_start)
                {
                  want = ETL_XPRESS_TRUNCATED;
                  want_pos = tk->in_start;
                }
              break;
            }
        }
      got = decode (e.stream->data, k, e.expected->len, &out, &pos);
      g_assert_cmpint (got, ==, want);
      g_assert_cmpuint (out->len, ==, want_out);
      g_assert_cmpmem (out->data, out->len, e.expected->data, want_out);
      if (want != ETL_XPRESS_OK)
        g_assert_cmpuint (pos, ==, want_pos);
    }
  enc_clear (&e);
}

/* A match reaching before the first output byte. */
static void
test_bad_offset (void)
{
  /* "ab", then distance 3: one byte too far; then distance 2 is fine. */
  static const guint8 far[] = { 0xFF, 0xFF, 0xFF, 0x3F, 'a', 'b', 0x10, 0x00 };
  static const guint8 near[] = { 0xFF, 0xFF, 0xFF, 0x3F, 'a', 'b', 0x08, 0x00 };
  /* A match first of all (distance 1, nothing before). */
  static const guint8 first[] = { 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00 };
  g_autoptr (GByteArray) out = NULL;
  g_autoptr (GByteArray) out2 = NULL;
  gsize pos;

  g_assert_cmpint (decode (far, sizeof far, 64, &out, &pos), ==, ETL_XPRESS_BAD_OFFSET);
  g_assert_cmpuint (pos, ==, 6);
  g_assert_cmpmem (out->data, out->len, "ab", 2);
  assert_decodes_to (near, sizeof near, (const guint8 *) "ababa", 5);
  g_assert_cmpint (decode (first, sizeof first, 64, &out2, &pos), ==, ETL_XPRESS_BAD_OFFSET);
  g_assert_cmpuint (pos, ==, 4);
  g_assert_cmpuint (out2->len, ==, 0);
}

/* Output room: decoding stops when the output is full at a token boundary;
 * a match crossing the end is an error; no room at all gives no output. */
static void
test_output_limit (void)
{
  static const guint8 lits[] = { 0x00, 0x00, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o' };
  g_autoptr (GError) error = NULL;
  guint8 buf[16];

  for (gsize cap = 0; cap <= 5; cap++)
    {
      g_autoptr (GByteArray) out = NULL;

      g_assert_cmpint (decode (lits, sizeof lits, cap, &out, NULL), ==, ETL_XPRESS_OK);
      g_assert_cmpmem (out->data, out->len, "hello", cap);
    }
  {
    g_autoptr (GByteArray) out = NULL;

    g_assert_cmpint (decode (lits, sizeof lits, 9, &out, NULL), ==, ETL_XPRESS_OK);
    g_assert_cmpmem (out->data, out->len, "hello", 5);
  }
  /* Empty input, inputs shorter than a flag word. */
  for (gsize n = 0; n < 4; n++)
    {
      g_autoptr (GByteArray) out = NULL;

      g_assert_cmpint (decode (lits, n, 8, &out, NULL), ==, ETL_XPRESS_OK);
      g_assert_cmpuint (out->len, ==, 0);
    }

  /* etl_xpress_decompress wants the exact size and names the reason. */
  g_assert_true (etl_xpress_decompress (3, lits, sizeof lits, buf, 5, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (buf, 5, "hello", 5);
  g_assert_false (etl_xpress_decompress (3, lits, sizeof lits, buf, 6, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_DECOMPRESS);
  g_assert_nonnull (strstr (error->message, "decompressed to 5 bytes, expected 6"));
  g_clear_error (&error);
  {
    static const guint8 far[] = { 0xFF, 0xFF, 0xFF, 0x3F, 'a', 'b', 0x10, 0x00 };

    g_assert_false (etl_xpress_decompress (3, far, sizeof far, buf, 5, &error));
    g_assert_error (error, ETL_ERROR, ETL_ERROR_DECOMPRESS);
    g_assert_nonnull (strstr (error->message, "at its byte 6"));
    g_assert_nonnull (strstr (error->message, "before the start of the output"));
    g_clear_error (&error);
  }
  g_assert_false (etl_xpress_decompress (4, lits, sizeof lits, buf, 5, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  g_assert_false (etl_xpress_decompress (2, lits, sizeof lits, buf, 5, &error));
  g_assert_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED);
}

/* Random plans through the test encoder: literals, matches at any distance
 * up to 8192 and lengths drawn to hit every escape. */
static void
test_random_streams (void)
{
  GRand *rand = g_rand_new_with_seed (20261122);

  for (guint round = 0; round < 300; round++)
    {
      Enc e;
      guint n_tokens = g_rand_int_range (rand, 1, 3000);
      gboolean fwnt_ok = TRUE;

      enc_init (&e);
      for (guint t = 0; t < n_tokens; t++)
        {
          guint kind = (guint) g_rand_int_range (rand, 0, 10);

          if (e.expected->len == 0 || kind < 4)
            enc_literal (&e, (guint8) g_rand_int_range (rand, 0, round % 3 ? 256 : 4));
          else
            {
              gsize max_off = MIN (e.expected->len, 8192);
              gsize offset = kind < 7 ? (gsize) g_rand_int_range (rand, 1, (gint32) MIN (max_off, 16) + 1)
                                      : (gsize) g_rand_int_range (rand, 1, (gint32) max_off + 1);
              guint64 len;

              switch (g_rand_int_range (rand, 0, 6))
                {
                case 0: len = (guint64) g_rand_int_range (rand, 3, 10); break;
                case 1: len = (guint64) g_rand_int_range (rand, 10, 25); break;
                case 2: len = (guint64) g_rand_int_range (rand, 25, 280); break;
                case 3: len = (guint64) g_rand_int_range (rand, 280, 2000); break;
                case 4: len = (guint64) g_rand_int_range (rand, 3, 64); break;
                default: len = (guint64) g_rand_int_range (rand, 2000, 40000); break;
                }
              if (len > 32771)
                fwnt_ok = FALSE; /* libfwnt rejects longer matches */
              enc_match (&e, offset, len);
            }
        }
      enc_finish (&e);
      {
        g_autoptr (GByteArray) out = NULL;

        g_assert_cmpint (decode (e.stream->data, e.stream->len, e.expected->len, &out, NULL), ==, ETL_XPRESS_OK);
        g_assert_cmpmem (out->data, out->len, e.expected->data, e.expected->len);
      }
#if HAVE_LIBFWNT
      if (fwnt_ok)
        {
          g_autofree guint8 *fw = g_malloc (e.expected->len + 1);
          gsize fw_len = 0;

          g_assert_true (xpress_test_fwnt_decode (e.stream->data, e.stream->len, fw, e.expected->len, &fw_len));
          g_assert_cmpmem (fw, fw_len, e.expected->data, e.expected->len);
        }
#else
      (void) fwnt_ok;
#endif
      enc_clear (&e);
    }
  g_rand_free (rand);
}

/* Every compressed buffer of every corpus file (top level and real/): both decoders, same bytes;
 * without libfwnt, at least the exact SavedOffset size. */
static void
test_corpus (void)
{
  g_autoptr (GPtrArray) names = etl_test_corpus_list ();
  guint n_buffers = 0, n_files = 0, n_net = 0;

  if (names->len == 0)
    {
      etl_test_corpus_missing (etl_test_corpus_dir ());
      return;
    }
  for (guint k = 0; k < names->len; k++)
    {
      const char *name = g_ptr_array_index (names, k);
      g_autofree char *path = g_build_filename (etl_test_corpus_dir (), name, NULL);
      g_autofree char *contents = NULL;
      g_autoptr (GArray) buffers = NULL;
      gsize size;

      g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
      buffers = xpress_test_compressed_buffers ((const guint8 *) contents, size);
      n_files += buffers->len > 0;
      if (strcmp (name, "net.4.5.2.x64.etl") == 0)
        n_net = buffers->len;
      for (guint i = 0; i < buffers->len; i++)
        {
          const XpressTestBuffer *b = &g_array_index (buffers, XpressTestBuffer, i);
          g_autoptr (GByteArray) out = NULL;

          g_assert_cmpint (decode (b->in, b->in_len, b->out_len, &out, NULL), ==, ETL_XPRESS_OK);
          g_assert_cmpuint (out->len, ==, b->out_len);
#if HAVE_LIBFWNT
          {
            g_autofree guint8 *fw = g_malloc (b->out_len + 1);
            gsize fw_len = 0;

            g_assert_true (xpress_test_fwnt_decode (b->in, b->in_len, fw, b->out_len, &fw_len));
            g_assert_cmpmem (fw, fw_len, out->data, out->len);
          }
#endif
          n_buffers++;
        }
    }
  g_test_message ("%u compressed buffers in %u corpus files", n_buffers, n_files);
  /* net.4.5.2.x64.etl has 359 compressed buffers (after its uncompressed
   * header buffer), SelfDescribingSingleEvent.etl 2. */
  {
    g_autofree char *net = etl_test_corpus_path ("net.4.5.2.x64.etl");

    if (net != NULL)
      g_assert_cmpuint (n_net, ==, 359);
  }
#if !HAVE_LIBFWNT
  g_test_message ("libfwnt not found at build time: decoded without the comparison");
#endif
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/xpress/literal-runs", test_literal_runs);
  g_test_add_func ("/etl/xpress/nibble", test_nibble);
  g_test_add_func ("/etl/xpress/shared-nibble", test_shared_nibble);
  g_test_add_func ("/etl/xpress/length-escapes", test_length_escapes);
  g_test_add_func ("/etl/xpress/bad-length", test_bad_length);
  g_test_add_func ("/etl/xpress/overlap", test_overlap);
  g_test_add_func ("/etl/xpress/exact-end", test_exact_end);
  g_test_add_func ("/etl/xpress/truncated", test_truncated);
  g_test_add_func ("/etl/xpress/bad-offset", test_bad_offset);
  g_test_add_func ("/etl/xpress/output-limit", test_output_limit);
  g_test_add_func ("/etl/xpress/random-streams", test_random_streams);
  g_test_add_func ("/etl/xpress/corpus", test_corpus);
  return g_test_run ();
}
