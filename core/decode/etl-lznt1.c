/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-lznt1
 * @title: LZNT1
 * @short_description: LZNT1 decompression ([MS-XCA] 2.5)
 *
 * LZNT1 is the format of RtlDecompressBuffer's COMPRESSION_FORMAT_LZNT1
 * ([MS-XCA] 2.5).  The stream is a run of chunks, each holding at most 4096
 * bytes of output.  A chunk starts with a little-endian u16 header: bits
 * 0–11 the chunk's size in bytes minus 3 (header included), bits 12–14 the
 * signature 3, bit 15 set when the chunk is compressed.  A header of 0 ends
 * the stream, as does the end of the input.  An uncompressed chunk's data is
 * copied as it is.  A compressed chunk's data is groups of one flag byte and
 * up to eight items, least significant flag bit first: a clear bit is one
 * literal byte, a set bit a u16 copy token.  The token splits into a
 * displacement (high bits) and a length (low bits) at a point that depends
 * on how much of the chunk has been written so far: 12 length bits while at
 * most 16 bytes are out, one fewer each time that count passes the next
 * power of two (4 length bits once more than 2048 bytes are out).  The copy
 * takes (length + 3) bytes from (displacement + 1) bytes back, and may
 * overlap what it writes.
 *
 * Why the project's own decoder and not libfwnt's libfwnt_lznt1_decompress():
 * core/ is C11 + GLib only and builds for Windows, where MSYS2 has no libfwnt
 * (libfwnt is only a test dependency here, as for the XPRESS decoder); the
 * decoder is short, and tests/test-winsat.c checks it against libfwnt on
 * every WinSat record of the corpus and on every cut of their data.
 *
 * Every read and write is bounds-checked; a token that reaches before the
 * chunk's start or a chunk that runs past the input is an
 * %ETL_ERROR_CORRUPT error naming the input offset.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-error.h"
#include "etl-lznt1.h"

#define CHUNK_OUT_MAX 4096

static gboolean
fail (GError **error, gsize offset, const char *reason)
{
  g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT, "LZNT1: input offset %" G_GSIZE_FORMAT ": %s", offset,
               reason);
  return FALSE;
}

/* One compressed chunk's data (@in, @n bytes at input offset @at) into
 * @out (room for @cap bytes); its output length in *@written. */
static gboolean
decode_chunk (const guint8 *in, gsize n, gsize at, guint8 *out, gsize cap, gsize *written, GError **error)
{
  gsize i = 0, o = 0;

  cap = MIN (cap, (gsize)CHUNK_OUT_MAX);
  while (i < n)
    {
      guint8 flags = in[i++];

      for (guint bit = 0; bit < 8 && i < n; bit++, flags >>= 1)
        {
          guint16 token;
          guint length_bits = 12;
          gsize length, displacement;

          if (!(flags & 1))
            {
              if (o >= cap)
                return fail (error, at + i, "output longer than its buffer");
              out[o++] = in[i++];
              continue;
            }
          if (n - i < 2)
            return fail (error, at + i, "copy token cut by the chunk's end");
          token = (guint16)(in[i] | (in[i + 1] << 8));
          for (gsize pos = o - (o > 0); pos >= 16 && length_bits > 4; pos >>= 1)
            length_bits--;
          length = (token & ((1u << length_bits) - 1)) + 3;
          displacement = (token >> length_bits) + 1;
          if (displacement > o)
            return fail (error, at + i, "copy reaches before the chunk's start");
          if (length > cap - o)
            return fail (error, at + i, "output longer than its buffer");
          for (gsize k = 0; k < length; k++, o++)
            out[o] = out[o - displacement];
          i += 2;
        }
    }
  *written = o;
  return TRUE;
}

/**
 * etl_lznt1_decompress:
 * @in: (array length=in_len): the LZNT1 stream
 * @in_len: its length in bytes
 * @out: (array length=out_cap): where to write the output
 * @out_cap: room at @out in bytes; output past it is an error
 * @out_len: (out): bytes written
 * @error: return location for an %ETL_ERROR_CORRUPT error naming the input
 *   offset and the reason
 *
 * Decompresses an LZNT1 stream ([MS-XCA] 2.5; see the section overview),
 * as RtlDecompressBuffer (COMPRESSION_FORMAT_LZNT1) does: chunk by chunk
 * until a zero header or the end of @in.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_lznt1_decompress (const guint8 *in, gsize in_len, guint8 *out, gsize out_cap, gsize *out_len,
                      GError **error)
{
  gsize i = 0, o = 0;

  g_return_val_if_fail (in != NULL || in_len == 0, FALSE);
  g_return_val_if_fail (out != NULL || out_cap == 0, FALSE);
  g_return_val_if_fail (out_len != NULL, FALSE);

  *out_len = 0;
  while (in_len - i >= 2)
    {
      guint16 header = (guint16)(in[i] | (in[i + 1] << 8));
      gsize size = (header & 0x0FFF) + 1; /* data bytes after the header */

      if (header == 0)
        break;
      if ((header & 0x7000) != 0x3000)
        return fail (error, i, "chunk header without the signature 3");
      if (in_len - i - 2 < size)
        return fail (error, i, "chunk runs past the end of the input");
      if (header & 0x8000)
        {
          gsize written = 0;

          if (!decode_chunk (in + i + 2, size, i + 2, out + o, out_cap - o, &written, error))
            return FALSE;
          o += written;
        }
      else
        {
          if (size > out_cap - o)
            return fail (error, i, "output longer than its buffer");
          memcpy (out + o, in + i + 2, size);
          o += size;
        }
      i += 2 + size;
    }
  *out_len = o;
  return TRUE;
}
