/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared by tests/test-xpress.c, tests/bench/bench-xpress.c and the XPRESS
 * fuzz targets: the compressed buffers of a corpus file, and libfwnt's
 * decoder wrapped with the padding its overruns need (HAVE_LIBFWNT is set by
 * tests/meson.build when libfwnt is found; it is a test dependency only).
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "etl-format-private.h"

#if HAVE_LIBFWNT
#include <libfwnt.h>
#endif

G_BEGIN_DECLS

/* One compressed buffer's payload: the bytes after its WMI_BUFFER_HEADER and
 * the size SavedOffset says it decompresses to. */
typedef struct
{
  const guint8 *in;
  gsize in_len;
  gsize out_len;
  guint64 file_offset;
} XpressTestBuffer;

/* Walks the buffers of a whole .etl file in memory (BufferSize after
 * BufferSize) and returns its compressed ones (pointing into @data). */
static inline GArray *
xpress_test_compressed_buffers (const guint8 *data, gsize size)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (XpressTestBuffer));
  gsize off = 0;

  while (size - off >= ETL_WMI_BUFFER_HEADER_SIZE)
    {
      const guint8 *h = data + off;
      guint32 bsize = (guint32) h[ETL_WBH_BUFFER_SIZE] | (guint32) h[ETL_WBH_BUFFER_SIZE + 1] << 8
                      | (guint32) h[ETL_WBH_BUFFER_SIZE + 2] << 16 | (guint32) h[ETL_WBH_BUFFER_SIZE + 3] << 24;
      guint32 saved = (guint32) h[ETL_WBH_SAVED_OFFSET] | (guint32) h[ETL_WBH_SAVED_OFFSET + 1] << 8
                      | (guint32) h[ETL_WBH_SAVED_OFFSET + 2] << 16 | (guint32) h[ETL_WBH_SAVED_OFFSET + 3] << 24;
      guint16 flags = (guint16) (h[ETL_WBH_BUFFER_FLAG] | h[ETL_WBH_BUFFER_FLAG + 1] << 8);

      if (bsize < ETL_WMI_BUFFER_HEADER_SIZE || bsize > size - off)
        break;
      if ((flags & ETL_BUFFER_FLAG_COMPRESSED) && saved >= ETL_WMI_BUFFER_HEADER_SIZE)
        {
          XpressTestBuffer b = { h + ETL_WMI_BUFFER_HEADER_SIZE, bsize - ETL_WMI_BUFFER_HEADER_SIZE,
                                 saved - ETL_WMI_BUFFER_HEADER_SIZE, off };

          g_array_append_val (out, b);
        }
      off += bsize;
    }
  return out;
}

#if HAVE_LIBFWNT
/* Debian's libfwnt (20181227) reads a 32-bit flag word up to 3 bytes past its
 * input and writes one byte past its output on corrupt data: both get
 * padding.  Returns TRUE when libfwnt accepts @in and produces at most
 * @out_cap bytes (*out_len of them, copied to @out). */
#define XPRESS_TEST_FWNT_PADDING 8

static inline gboolean
xpress_test_fwnt_decode (const guint8 *in, gsize in_len, guint8 *out, gsize out_cap, gsize *out_len)
{
  guint8 *padded_in = g_malloc0 (in_len + XPRESS_TEST_FWNT_PADDING);
  guint8 *padded_out = g_malloc0 (out_cap + XPRESS_TEST_FWNT_PADDING);
  libfwnt_error_t *error = NULL;
  size_t produced = out_cap;
  int ret;

  if (in_len > 0)
    memcpy (padded_in, in, in_len);
  ret = libfwnt_lzxpress_decompress (padded_in, in_len, padded_out, &produced, &error);
  if (error != NULL)
    libfwnt_error_free (&error);
  if (ret == 1 && produced <= out_cap)
    {
      memcpy (out, padded_out, produced);
      *out_len = produced;
    }
  g_free (padded_in);
  g_free (padded_out);
  return ret == 1 && produced <= out_cap;
}
#endif

G_END_DECLS
