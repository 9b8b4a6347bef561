/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-xpress: arbitrary bytes → etl_xpress_lz77_decode.  Input: a 32-bit
 * little-endian output size (masked to 256 KiB), then the compressed stream.
 * Both buffers are allocated to their exact size, so the sanitizers see any
 * byte touched outside them.  Checks: the output is never longer than its
 * room; less room never changes the bytes produced (they are a prefix of
 * the full-room output, and the only new error is a match past the end);
 * etl_xpress_decompress agrees with the status.
 */
#include "config.h"

#include <glib.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "etl-xpress.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

#define MAX_OUT (256 * 1024)

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  gsize cap, in_len, produced = 0, pos = 0;
  guint8 *in, *out;
  EtlXpressStatus status;
  GError *error = NULL;

  if (size < 4)
    return 0;
  cap = ((gsize) data[0] | (gsize) data[1] << 8 | (gsize) data[2] << 16 | (gsize) data[3] << 24) % (MAX_OUT + 1);
  in_len = size - 4;
  in = malloc (in_len ? in_len : 1);
  out = malloc (cap ? cap : 1);
  memcpy (in, data + 4, in_len);

  status = etl_xpress_lz77_decode (in, in_len, out, cap, &produced, &pos);
  g_assert_cmpuint (produced, <=, cap);
  if (status == ETL_XPRESS_OK)
    g_assert_cmpuint (pos, <=, in_len);
  else
    g_assert_cmpuint (pos, <, in_len);

  /* One byte less room: the same bytes up to there. */
  if (produced > 0)
    {
      guint8 *out2 = malloc (produced - 1 ? produced - 1 : 1);
      gsize produced2 = 0;
      EtlXpressStatus status2 = etl_xpress_lz77_decode (in, in_len, out2, produced - 1, &produced2, NULL);

      g_assert_cmpuint (produced2, <=, produced - 1);
      g_assert_true (status2 == ETL_XPRESS_OK || status2 == ETL_XPRESS_OVERRUN || status2 == status);
      g_assert_cmpmem (out2, produced2, out, produced2);
      free (out2);
    }

  if (etl_xpress_decompress (3, in, in_len, out, cap, &error))
    g_assert_true (status == ETL_XPRESS_OK && produced == cap);
  else
    {
      g_assert_true (status != ETL_XPRESS_OK || produced != cap);
      g_assert_nonnull (error);
      g_error_free (error);
    }

  free (in);
  free (out);
  return 0;
}
