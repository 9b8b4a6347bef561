/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A cabinet writer for the tests of app/etl-cab.c: one file in one LZX
 * folder, the LZX stream made of uncompressed blocks only (no Debian tool
 * writes LZX: gcab writes MSZIP, lcab stored data).  Used by
 * tests/test-cab.c and tests/test-symbol-server.c.
 *
 * The layouts, from Microsoft's "Microsoft Cabinet File Format" and
 * "Microsoft LZX Data Compression Format" (1997), checked against
 * libmspack 0.11's cab.h, cabd.c and lzxd.c:
 *
 * - CFHEADER (36 bytes, no reserve), one CFFOLDER (8), one CFFILE (16 +
 *   name + NUL), then the CFDATA blocks (8-byte header + data); all
 *   little-endian.  CFFOLDER.typeCompress for LZX: tcompTYPE_LZX (3) in
 *   bits 0-3, the window's log2 (15-21) in bits 8-12: 0x1503 for 2^21.
 * - CFDATA.csum: the 32-bit words of the data XORed (a tail of 1-3 bytes
 *   taken first byte highest), then the cbData/cbUncomp word XORed in the
 *   same way.  0 means "no checksum"; this writer always sets one.
 * - LZX is read as 16-bit little-endian words, each most significant bit
 *   first.  The stream starts with one bit (E8 translation; 0 here: no
 *   file size follows).  A block: 3 bits of type (3 = uncompressed), 24
 *   bits of size in output bytes, then 1-16 zero bits to the next 16-bit
 *   boundary (16 when already on one), R0, R1, R2 as 32-bit little-endian
 *   bytes (1, 1, 1: their values at the stream's start), the raw bytes,
 *   and one pad byte after an odd-sized block.
 * - The output is cut in 32 KiB frames; each CFDATA holds one frame
 *   (cbUncomp 32768, the last one less) and the input bits that make it,
 *   the bitstream realigned to 16 bits at each frame's end (always the case
 *   here: raw bytes end on a byte, and every block header is 4 bytes).  A
 *   block may run over frames.  An odd-sized block must not end on a frame
 *   boundary but the last (libmspack reads its pad byte from the next
 *   frame's data: the writer refuses that case).
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

#define CAB_TEST_HEADER_SIZE 36
#define CAB_TEST_FOLDER_SIZE 8
#define CAB_TEST_FILE_SIZE 16
#define CAB_TEST_DATA_HEADER_SIZE 8
#define CAB_TEST_LZX_FRAME 32768
#define CAB_TEST_LZX_UNCOMPRESSED 3

/* The CFDATA checksum of @len bytes, folded into @seed. */
static inline guint32
cab_test_checksum (const guint8 *p, gsize len, guint32 seed)
{
  guint32 sum = seed, tail = 0;
  gsize i = 0;

  for (; i + 4 <= len; i += 4)
    sum ^= (guint32)p[i] | (guint32)p[i + 1] << 8 | (guint32)p[i + 2] << 16 | (guint32)p[i + 3] << 24;
  for (; i < len; i++)
    tail = tail << 8 | p[i];
  return sum ^ tail;
}

/* Recomputes every CFDATA's checksum of a cabinet made by
 * cab_test_lzx_cabinet() (after a test changed its data on purpose). */
static inline void
cab_test_seal (GByteArray *cab)
{
  guint32 off = cab->data[CAB_TEST_HEADER_SIZE] | (guint32)cab->data[CAB_TEST_HEADER_SIZE + 1] << 8
                | (guint32)cab->data[CAB_TEST_HEADER_SIZE + 2] << 16 | (guint32)cab->data[CAB_TEST_HEADER_SIZE + 3] << 24;
  guint n = cab->data[CAB_TEST_HEADER_SIZE + 4] | (guint)cab->data[CAB_TEST_HEADER_SIZE + 5] << 8;

  for (guint i = 0; i < n; i++)
    {
      guint8 *h = cab->data + off;
      guint16 cb = (guint16)(h[4] | h[5] << 8);
      guint32 sum;

      g_assert_cmpuint (off + CAB_TEST_DATA_HEADER_SIZE + cb, <=, cab->len);
      sum = cab_test_checksum (h + 4, 4, cab_test_checksum (h + CAB_TEST_DATA_HEADER_SIZE, cb, 0));
      sum = GUINT32_TO_LE (sum);
      memcpy (h, &sum, 4);
      off += CAB_TEST_DATA_HEADER_SIZE + cb;
    }
}

static inline void
cab_test_put16 (GByteArray *a, guint v)
{
  guint8 b[2] = { (guint8)v, (guint8)(v >> 8) };

  g_byte_array_append (a, b, 2);
}

static inline void
cab_test_put32 (GByteArray *a, guint32 v)
{
  guint8 b[4] = { (guint8)v, (guint8)(v >> 8), (guint8)(v >> 16), (guint8)(v >> 24) };

  g_byte_array_append (a, b, 4);
}

/* LZX's bit writer: bits most significant first into 16-bit words, each
 * word stored little-endian. */
typedef struct
{
  GByteArray *out;
  guint word;
  guint n; /* bits in word */
} CabTestBits;

static inline void
cab_test_bits (CabTestBits *w, guint32 value, guint count)
{
  while (count-- > 0)
    {
      w->word = w->word << 1 | ((value >> count) & 1);
      if (++w->n == 16)
        {
          cab_test_put16 (w->out, w->word);
          w->word = 0;
          w->n = 0;
        }
    }
}

/* A cabinet holding @len bytes of @data as the file @name, in one LZX
 * folder of window 2^@window_bits (15-21) whose stream is uncompressed
 * blocks of @block_size bytes (1 to 2^24-1; the last block shorter). */
static inline GByteArray *
cab_test_lzx_cabinet (const guint8 *data, gsize len, const char *name, guint window_bits, gsize block_size)
{
  GByteArray *cab = g_byte_array_new ();
  gsize name_len = strlen (name) + 1;
  guint n_frames = (guint)((len + CAB_TEST_LZX_FRAME - 1) / CAB_TEST_LZX_FRAME);
  guint32 first_data = (guint32)(CAB_TEST_HEADER_SIZE + CAB_TEST_FOLDER_SIZE + CAB_TEST_FILE_SIZE + name_len);
  gsize pos = 0, block_left = 0, block_len = 0;
  gboolean started = FALSE;

  g_assert_cmpuint (window_bits, >=, 15);
  g_assert_cmpuint (window_bits, <=, 21);
  g_assert_cmpuint (block_size, >=, 1);
  g_assert_cmpuint (block_size, <, 1u << 24);
  g_assert_cmpuint (len, >, 0);
  g_assert_cmpuint (n_frames, <=, G_MAXUINT16);

  /* CFHEADER: signature, reserved1, cbCabinet (set below), reserved2,
   * coffFiles, reserved3, versionMinor 3, versionMajor 1, cFolders,
   * cFiles, flags, setID, iCabinet. */
  g_byte_array_append (cab, (const guint8 *)"MSCF", 4);
  cab_test_put32 (cab, 0);
  cab_test_put32 (cab, 0);
  cab_test_put32 (cab, 0);
  cab_test_put32 (cab, CAB_TEST_HEADER_SIZE + CAB_TEST_FOLDER_SIZE);
  cab_test_put32 (cab, 0);
  g_byte_array_append (cab, (const guint8[]){ 3, 1 }, 2);
  cab_test_put16 (cab, 1);
  cab_test_put16 (cab, 1);
  cab_test_put16 (cab, 0);
  cab_test_put16 (cab, 0x4554);
  cab_test_put16 (cab, 0);
  /* CFFOLDER: coffCabStart, cCFData, typeCompress. */
  cab_test_put32 (cab, first_data);
  cab_test_put16 (cab, n_frames);
  cab_test_put16 (cab, CAB_TEST_LZX_UNCOMPRESSED | window_bits << 8);
  /* CFFILE: cbFile, uoffFolderStart, iFolder, date (2024-01-01), time
   * (12:00), attribs (_A_ARCH), szName. */
  g_assert_cmpuint (len, <=, G_MAXUINT32);
  cab_test_put32 (cab, (guint32)len);
  cab_test_put32 (cab, 0);
  cab_test_put16 (cab, 0);
  cab_test_put16 (cab, (2024 - 1980) << 9 | 1 << 5 | 1);
  cab_test_put16 (cab, 12 << 11);
  cab_test_put16 (cab, 0x20);
  g_byte_array_append (cab, (const guint8 *)name, (guint)name_len);
  g_assert_cmpuint (cab->len, ==, first_data);

  for (guint f = 0; f < n_frames; f++)
    {
      gsize frame_end = MIN (pos + CAB_TEST_LZX_FRAME, len);
      gsize header_at = cab->len;
      g_autoptr (GByteArray) frame = g_byte_array_new ();

      while (pos < frame_end)
        {
          gsize n;

          if (block_left == 0)
            {
              CabTestBits w = { frame, 0, 0 };

              if (!started)
                cab_test_bits (&w, 0, 1); /* no E8 translation */
              started = TRUE;
              block_len = block_left = MIN (block_size, len - pos);
              cab_test_bits (&w, CAB_TEST_LZX_UNCOMPRESSED, 3);
              cab_test_bits (&w, (guint32)block_len, 24);
              cab_test_bits (&w, 0, w.n == 0 ? 16 : 16 - w.n);
              for (guint r = 0; r < 3; r++)
                cab_test_put32 (frame, 1); /* R0, R1, R2 */
            }
          n = MIN (block_left, frame_end - pos);
          g_byte_array_append (frame, data + pos, (guint)n);
          pos += n;
          block_left -= n;
          if (block_left == 0 && (block_len & 1) != 0)
            {
              /* libmspack takes the pad byte just before the next block
               * header, which would be the next frame's data. */
              g_assert_true (pos % CAB_TEST_LZX_FRAME != 0 || pos == len);
              g_byte_array_append (frame, (const guint8[]){ 0 }, 1);
            }
        }
      g_assert_cmpuint (frame->len, <=, G_MAXUINT16);
      /* CFDATA: csum (set by cab_test_seal()), cbData, cbUncomp, ab. */
      cab_test_put32 (cab, 0);
      cab_test_put16 (cab, frame->len);
      cab_test_put16 (cab, (guint)(frame_end - f * (gsize)CAB_TEST_LZX_FRAME));
      g_byte_array_append (cab, frame->data, frame->len);
      g_assert_cmpuint (cab->len, ==, header_at + CAB_TEST_DATA_HEADER_SIZE + frame->len);
    }
  {
    guint32 total = GUINT32_TO_LE (cab->len);

    memcpy (cab->data + 8, &total, 4);
  }
  cab_test_seal (cab);
  return cab;
}

/* The offset of the first CFDATA's data (the LZX stream's first byte). */
static inline gsize
cab_test_first_data (const GByteArray *cab)
{
  const guint8 *p = cab->data + CAB_TEST_HEADER_SIZE;

  return (p[0] | (gsize)p[1] << 8 | (gsize)p[2] << 16 | (gsize)p[3] << 24) + CAB_TEST_DATA_HEADER_SIZE;
}

G_END_DECLS
