/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-xpress-diff: the core's XPRESS decoder against libfwnt.  Input as
 * fuzz-xpress's: a 32-bit little-endian output size (masked to 256 KiB),
 * then the stream.  When libfwnt accepts the stream (valid input) and stays
 * within the room, the core's decoder must accept it too and produce the
 * same bytes.  libfwnt's buffers are padded as its overruns need
 * (tests/xpress-test-util.h).
 *
 * Two known differences are left out, both in the 16-bit length escape
 * (byte 255 after nibble 15): [MS-XCA] 2.4.4 reads a 16-bit value of 0 as
 * "a 32-bit length follows" and calls one below 22 an error, while libfwnt
 * 20181227 takes any value as the length − 3; and libfwnt keeps the length
 * in 16 bits, so values from 65533 up wrap round to a match of 0..2 bytes
 * (the spec's 65536..65538).  spec_differs() finds streams that use such an
 * escape before libfwnt stops; from there the two decoders read different
 * streams, so they are not compared.
 *
 * Without libfwnt (HAVE_LIBFWNT 0) the target only runs the core's decoder.
 */
#include "config.h"

#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etl-xpress.h"
#include "xpress-test-util.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define MAX_OUT (256 * 1024)

#if HAVE_LIBFWNT
/* Walks the tokens as libfwnt does, up to @cap output bytes or the end of
 * the input, and says whether a 16-bit length escape below 22 occurs. */
static gboolean
spec_differs (const guint8 *in, gsize in_len, gsize cap)
{
  gsize ip = 0, op = 0, nibble = 0;

  while (ip < in_len && op < cap)
    {
      guint32 flags;

      if (in_len - ip < 4)
        return FALSE;
      flags = (guint32) in[ip] | (guint32) in[ip + 1] << 8 | (guint32) in[ip + 2] << 16 | (guint32) in[ip + 3] << 24;
      ip += 4;
      for (guint32 bit = 0x80000000u; bit != 0; bit >>= 1)
        {
          gsize len;
          guint tuple;

          if (op >= cap || ip >= in_len)
            return FALSE;
          if (!(flags & bit))
            {
              ip++;
              op++;
              continue;
            }
          if (in_len - ip < 2)
            return FALSE;
          tuple = (guint) in[ip] | (guint) in[ip + 1] << 8;
          ip += 2;
          len = tuple & 7;
          if (len == 7)
            {
              if (nibble == 0)
                {
                  if (ip >= in_len)
                    return FALSE;
                  len += in[ip] & 15;
                  nibble = ip++;
                }
              else
                {
                  len += in[nibble] >> 4;
                  nibble = 0;
                }
            }
          if (len == 7 + 15)
            {
              if (ip >= in_len)
                return FALSE;
              len += in[ip++];
            }
          if (len == 7 + 15 + 255)
            {
              if (in_len - ip < 2)
                return FALSE;
              len = (gsize) in[ip] | (gsize) in[ip + 1] << 8;
              ip += 2;
              if (len < 22 || len >= 65533)
                return TRUE;
            }
          op += len + 3;
        }
    }
  return FALSE;
}
#endif

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  gsize cap, in_len, produced = 0;
  guint8 *in, *out;
  EtlXpressStatus status;

  if (size < 4)
    return 0;
  cap = ((gsize) data[0] | (gsize) data[1] << 8 | (gsize) data[2] << 16 | (gsize) data[3] << 24) % (MAX_OUT + 1);
  in_len = size - 4;
  in = malloc (in_len ? in_len : 1);
  out = malloc (cap ? cap : 1);
  memcpy (in, data + 4, in_len);
  status = etl_xpress_lz77_decode (in, in_len, out, cap, &produced, NULL);
  g_assert_cmpuint (produced, <=, cap);

#if HAVE_LIBFWNT
  {
    guint8 *fw = malloc (cap ? cap : 1);
    gsize fw_len = 0;

    if (xpress_test_fwnt_decode (in, in_len, fw, cap, &fw_len))
      {
        if (!spec_differs (in, in_len, cap))
          {
            g_assert_cmpint (status, ==, ETL_XPRESS_OK);
            g_assert_cmpmem (out, produced, fw, fw_len);
          }
      }
    free (fw);
  }
#else
  (void) status;
#endif
  free (in);
  free (out);
  return 0;
}
