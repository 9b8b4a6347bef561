/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-xpress.c: decompression of compressed ETL buffers.
 *
 * Buffers with WMI_BUFFER_HEADER flag COMPRESSED (xperf, WPR, PerfView's
 * merges) hold a stream in [MS-XCA] "plain LZ77" (COMPRESSION_FORMAT_XPRESS
 * = 3, the format of every compressed file seen so far; the file's first
 * buffer names it in State & 0xFFFF).  The project decodes it itself rather
 * than calling a library, for three reasons:
 *  - portability: MSYS2 packages no libfwnt, and Wine's ntdll has no
 *    RtlDecompressBufferEx, so the Windows build could not be tested on
 *    compressed files; one decoder behaves the same on every platform;
 *  - safety: Debian's libfwnt (20181227) reads past its input and writes a
 *    byte past its output on corrupt data (found by tests/fuzzing), which
 *    forced padded copies of both buffers;
 *  - speed: libfwnt copies byte by byte with a bounds test per byte; this
 *    decoder copies literal runs and non-overlapping matches in 8- and
 *    32-byte blocks under one bounds check per run (tests/bench/bench-xpress).
 * libfwnt remains a test dependency: tests/test-xpress.c and
 * tests/fuzzing/fuzz-xpress-diff.c require both decoders to agree.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-xpress.h"

#include "etl-error.h"
#include "etl-format-private.h"

#include <string.h>

static inline guint32
le32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static inline guint32
le16 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8;
}

#define FLAGS_TOP (G_GUINT64_CONSTANT (1) << 63)
#define FLAGS_EMPTY FLAGS_TOP

/* Number of leading zero bits of a non-zero 64-bit word. */
static inline guint
clz64 (guint64 v)
{
#if defined(__GNUC__) || defined(__clang__)
  return (guint) __builtin_clzll (v);
#else
  guint n = 0;

  while (!(v & FLAGS_TOP))
    {
      v <<= 1;
      n++;
    }
  return n;
#endif
}

/**
 * etl_xpress_lz77_decode:
 * @in: (array length=in_len): the compressed stream
 * @in_len: length of @in in bytes
 * @out: (out caller-allocates) (array length=out_cap): where the output goes
 * @out_cap: size of @out in bytes; decoding stops when it is full
 * @out_len: (out): bytes of output produced (on error: produced before the bad token)
 * @in_pos: (out) (optional): on success the input bytes consumed; on error
 *   the offset in @in of the token that failed
 *
 * Decodes an [MS-XCA] 2.4 "plain LZ77" stream: 32-bit little-endian flag
 * words read from the most significant bit, 0 = a literal byte, 1 = a match
 * tuple (offset−1 in bits 3..15, length−3 in bits 0..2, 7 escaping to a
 * nibble shared by two matches, 15 in the nibble escaping to a byte, 255 in
 * the byte escaping to a 16-bit and 0 there to a 32-bit length).
 *
 * The stream ends when the output is full or the input is exhausted at a
 * token boundary (including fewer than 4 bytes left for a flag word), as
 * libfwnt and ntdll end it.  Every read and write is bounds-checked; no
 * byte outside @in and @out is touched, and bytes of @out after *@out_len may
 * have been overwritten.  Each step consumes input, so the loop ends.
 *
 * Returns: %ETL_XPRESS_OK, or why the stream is corrupt
 */
EtlXpressStatus
etl_xpress_lz77_decode (const guint8 *in, gsize in_len, guint8 *out, gsize out_cap, gsize *out_len,
                        gsize *in_pos)
{
  const guint8 *ip = in;
  const guint8 *const iend = in + in_len;
  guint8 *op = out;
  guint8 *const oend = out + out_cap;
  const guint8 *nibble = NULL; /* the half-used shared length byte, if any */
  const guint8 *token = in;
  EtlXpressStatus status = ETL_XPRESS_OK;

  /* The flag word sits in the top half of a 64-bit one with a 1 just below
   * its 32 bits: leading zeros then never count past the word, and the word
   * is used up when that 1 alone is left at the top. */
  guint64 flags = FLAGS_EMPTY;

  for (;;)
    {
      guint64 len;
      gsize offset, n, room;
      const guint8 *src;
      guint32 tuple;

      if (flags == FLAGS_EMPTY)
        {
          if (iend - ip < 4 || op == oend)
            goto done; /* the end of the stream, or the output is full */
          flags = (guint64) le32 (ip) << 32 | 0x80000000u;
          ip += 4;
        }

      if (G_LIKELY (!(flags & FLAGS_TOP)))
        {
          /* A run of literals: as many as the flag word's leading zeros. */
          guint lits = clz64 (flags);

          if (G_LIKELY (iend - ip >= 32 && oend - op >= 32))
            memcpy (op, ip, 32); /* one fixed-size copy; the extra bytes are rewritten later */
          else
            {
              n = MIN ((gsize) lits, MIN ((gsize) (iend - ip), (gsize) (oend - op)));
              memcpy (op, ip, n);
              if (n < lits)
                {
                  /* Input exhausted (the end of the stream) or output full. */
                  ip += n;
                  op += n;
                  goto done;
                }
            }
          ip += lits;
          op += lits;
          flags <<= lits;
          /* A 1 follows a run of zeros: a match, or the used-up word's end. */
          if (flags == FLAGS_EMPTY)
            continue;
        }

      flags <<= 1;
      token = ip;
      if (G_UNLIKELY (iend - ip < 2 || op == oend))
        {
          /* A match flag with no input left, or a full output: the end of
           * the stream; one byte left: a cut tuple. */
          if (ip != iend && op != oend)
            status = ETL_XPRESS_TRUNCATED;
          goto done;
        }
      tuple = le16 (ip);
      ip += 2;
      offset = (gsize) (tuple >> 3) + 1;
      len = tuple & 7;
      if (len == 7)
        {
          if (nibble == NULL)
            {
              if (ip == iend)
                {
                  status = ETL_XPRESS_TRUNCATED;
                  goto done;
                }
              nibble = ip++;
              len = *nibble & 15;
            }
          else
            {
              len = *nibble >> 4;
              nibble = NULL;
            }
          if (len == 15)
            {
              if (ip == iend)
                {
                  status = ETL_XPRESS_TRUNCATED;
                  goto done;
                }
              len = *ip++;
              if (len == 255)
                {
                  if (iend - ip < 2)
                    {
                      status = ETL_XPRESS_TRUNCATED;
                      goto done;
                    }
                  len = le16 (ip);
                  ip += 2;
                  if (len == 0)
                    {
                      if (iend - ip < 4)
                        {
                          status = ETL_XPRESS_TRUNCATED;
                          goto done;
                        }
                      len = le32 (ip);
                      ip += 4;
                    }
                  if (len < 15 + 7)
                    {
                      status = ETL_XPRESS_BAD_LENGTH;
                      goto done;
                    }
                  len -= 15 + 7;
                }
              len += 15;
            }
          len += 7;
        }
      len += 3;

      if (offset > (gsize) (op - out))
        {
          status = ETL_XPRESS_BAD_OFFSET;
          goto done;
        }
      room = (gsize) (oend - op);
      if (len > room)
        {
          status = ETL_XPRESS_OVERRUN;
          goto done;
        }
      n = (gsize) len;
      src = op - offset;

      if (G_LIKELY (offset >= 16 && room - n >= 16))
        {
          /* The common case: 16-byte blocks that never overlap, up to 15
           * bytes past the match, inside the output and rewritten later. */
          guint8 *end = op + n;

          do
            {
              memcpy (op, src, 16);
              op += 16;
              src += 16;
            }
          while (op < end);
          op = end;
          continue;
        }
      if (offset == 1)
        {
          memset (op, op[-1], n);
          op += n;
          continue;
        }
      if (offset < 8)
        {
          /* Overlapping: the output repeats with period offset, so any
           * multiple of it that is >= 8 is as good a distance, and from
           * there on 8-byte blocks never read what they write. */
          gsize dist = offset, head;

          while (dist < 8)
            dist += offset;
          head = MIN (n, dist);
          for (gsize i = 0; i < head; i++)
            op[i] = src[i];
          op += head;
          n -= head;
          room -= head;
          if (n == 0)
            continue; /* (then op − dist may lie before the output) */
          src = op - dist;
        }
      if (room - n >= 16)
        {
          /* Blocks of 16 (two of 8: the second may read what the
           * first wrote when the distance is below 16), up to 15 bytes
           * past the match, inside the output and rewritten later. */
          guint8 *end = op + n;

          if (op - src >= 16)
            do
              {
                memcpy (op, src, 16);
                op += 16;
                src += 16;
              }
            while (op < end);
          else
            do
              {
                memcpy (op, src, 8);
                memcpy (op + 8, src + 8, 8);
                op += 16;
                src += 16;
              }
            while (op < end);
          op = end;
        }
      else
        {
          for (gsize i = 0; i < n; i++)
            op[i] = src[i];
          op += n;
        }
    }

done:
  *out_len = (gsize) (op - out);
  if (in_pos != NULL)
    *in_pos = (gsize) ((status == ETL_XPRESS_OK ? ip : token) - in);
  return status;
}

/**
 * etl_xpress_status_to_string:
 * @status: an #EtlXpressStatus
 *
 * Returns: (transfer none): a short English reason for @status
 */
const char *
etl_xpress_status_to_string (EtlXpressStatus status)
{
  switch (status)
    {
    case ETL_XPRESS_OK:
      return "no error";
    case ETL_XPRESS_TRUNCATED:
      return "the input ends inside a match";
    case ETL_XPRESS_BAD_LENGTH:
      return "a 16- or 32-bit match length below 22";
    case ETL_XPRESS_BAD_OFFSET:
      return "a match reaches before the start of the output";
    case ETL_XPRESS_OVERRUN:
      return "a match runs past the end of the output";
    default:
      return "unknown status";
    }
}

/**
 * etl_xpress_decompress:
 * @format: compression format from the first buffer's State & 0xFFFF
 *   (3 = XPRESS; COMPRESSION_FORMAT_* in ntrtl.h)
 * @in: the compressed payload (the buffer's bytes after its 0x48-byte header)
 * @in_len: length of @in in bytes
 * @out: (out caller-allocates): room for the uncompressed payload
 * @out_len: the exact uncompressed size in bytes (SavedOffset − 0x48)
 * @error: return location for %ETL_ERROR_DECOMPRESS or %ETL_ERROR_UNSUPPORTED
 *
 * Decompresses one buffer payload with etl_xpress_lz77_decode().  The output
 * must fill exactly @out_len bytes; a payload that decodes to another size
 * is an error, since SavedOffset then does not describe the buffer.  The
 * message names the reason and the offset within @in; the caller adds the
 * file and the buffer's offset.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_xpress_decompress (guint format, const guint8 *in, gsize in_len, guint8 *out, gsize out_len,
                       GError **error)
{
  EtlXpressStatus status;
  gsize produced = 0, pos = 0;

  if (format == ETL_COMPRESSION_FORMAT_XPRESS_HUFF)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED,
                   "compression format 4 (XPRESS Huffman) is not supported; only 3 (XPRESS) is");
      return FALSE;
    }
  if (format != ETL_COMPRESSION_FORMAT_XPRESS)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED,
                   "compression format %u is not supported (3 XPRESS is)", format);
      return FALSE;
    }

  status = etl_xpress_lz77_decode (in, in_len, out, out_len, &produced, &pos);
  if (status != ETL_XPRESS_OK)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_DECOMPRESS,
                   "XPRESS stream of %" G_GSIZE_FORMAT " bytes (%" G_GSIZE_FORMAT " expected out) is corrupt"
                   " at its byte %" G_GSIZE_FORMAT ", output byte %" G_GSIZE_FORMAT ": %s",
                   in_len, out_len, pos, produced, etl_xpress_status_to_string (status));
      return FALSE;
    }
  if (produced != out_len)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_DECOMPRESS,
                   "compressed payload of %" G_GSIZE_FORMAT " bytes decompressed to %" G_GSIZE_FORMAT
                   " bytes, expected %" G_GSIZE_FORMAT,
                   in_len, produced, out_len);
      return FALSE;
    }
  return TRUE;
}
