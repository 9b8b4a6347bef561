/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-xpress.c: decompression of compressed ETL buffers.
 *
 * Compressed buffers ([MS-XCA] "plain LZ77", COMPRESSION_FORMAT_XPRESS = 3,
 * or XPRESS Huffman = 4) are decoded by Debian's libfwnt on Linux and by
 * ntdll's RtlDecompressBufferEx on Windows, behind this one function.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-xpress.h"

#include "etl-error.h"
#include "etl-format-private.h"

#include <string.h>

#define XPRESS_PADDING 8

#ifdef G_OS_WIN32
#include <windows.h>

typedef LONG (WINAPI *RtlDecompressBufferExFunc) (USHORT format, PUCHAR out, ULONG out_size,
                                                  PUCHAR in, ULONG in_size, PULONG final_size,
                                                  PVOID workspace);
typedef LONG (WINAPI *RtlGetCompressionWorkSpaceSizeFunc) (USHORT format, PULONG ws_size, PULONG frag_size);
#elif HAVE_LIBFWNT
#include <libfwnt.h>
#endif

/**
 * etl_xpress_decompress:
 * @format: compression format from the first buffer's State & 0xFFFF
 *   (3 = XPRESS, 4 = XPRESS Huffman; COMPRESSION_FORMAT_* in ntrtl.h)
 * @in: the compressed payload (the buffer's bytes after its 0x48-byte header)
 * @in_len: length of @in in bytes
 * @out: (out caller-allocates): room for the uncompressed payload
 * @out_len: the exact uncompressed size in bytes (SavedOffset − 0x48)
 * @error: return location for %ETL_ERROR_DECOMPRESS or %ETL_ERROR_UNSUPPORTED
 *
 * Decompresses one buffer payload.  The output must fill exactly @out_len
 * bytes; a payload that decodes to another size is an error, since
 * SavedOffset then does not describe the buffer.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_xpress_decompress (guint format, const guint8 *in, gsize in_len, guint8 *out, gsize out_len,
                       GError **error)
{
  if (format != ETL_COMPRESSION_FORMAT_XPRESS && format != ETL_COMPRESSION_FORMAT_XPRESS_HUFF)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED,
                   "compression format %u is not supported (3 XPRESS and 4 XPRESS Huffman are)", format);
      return FALSE;
    }

#ifdef G_OS_WIN32
  {
    static RtlDecompressBufferExFunc decompress;
    static RtlGetCompressionWorkSpaceSizeFunc ws_size_func;
    ULONG ws_size = 0, frag = 0, final_size = 0;
    g_autofree void *ws = NULL;
    LONG status;

    if (decompress == NULL)
      {
        HMODULE ntdll = GetModuleHandleW (L"ntdll.dll");

        decompress = (RtlDecompressBufferExFunc) (void *) GetProcAddress (ntdll, "RtlDecompressBufferEx");
        ws_size_func = (RtlGetCompressionWorkSpaceSizeFunc) (void *) GetProcAddress (ntdll, "RtlGetCompressionWorkSpaceSize");
      }
    if (decompress == NULL || ws_size_func == NULL || ws_size_func ((USHORT) format, &ws_size, &frag) != 0)
      {
        g_set_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED, "RtlDecompressBufferEx is not available");
        return FALSE;
      }
    ws = g_malloc (ws_size ? ws_size : 1);
    status = decompress ((USHORT) format, out, (ULONG) out_len, (PUCHAR) in, (ULONG) in_len, &final_size, ws);
    if (status != 0 || final_size != out_len)
      {
        g_set_error (error, ETL_ERROR, ETL_ERROR_DECOMPRESS,
                     "compressed payload of %" G_GSIZE_FORMAT " bytes decompressed to %lu bytes, expected %" G_GSIZE_FORMAT
                     " (status 0x%08lx)", in_len, (unsigned long) final_size, out_len, (unsigned long) status);
        return FALSE;
      }
    return TRUE;
  }
#elif HAVE_LIBFWNT
  {
    libfwnt_error_t *fwnt_error = NULL;
    size_t produced = out_len;
    g_autofree guint8 *padded_in = NULL;
    g_autofree guint8 *padded_out = NULL;
    int ret;

    /* On corrupt input, Debian's libfwnt (20181227) reads a 32-bit
     * indicator up to 3 bytes past the end of the input and can write one
     * byte past the end of the output (its bounds checks are "offset >
     * size" before a write).  Both buffers get padding, so hostile data
     * costs an error, never memory safety (found by tests/fuzzing). */
    padded_in = g_malloc0 (in_len + XPRESS_PADDING);
    memcpy (padded_in, in, in_len);
    padded_out = g_malloc (out_len + XPRESS_PADDING);

    if (format == ETL_COMPRESSION_FORMAT_XPRESS)
      ret = libfwnt_lzxpress_decompress (padded_in, in_len, padded_out, &produced, &fwnt_error);
    else
      ret = libfwnt_lzxpress_huffman_decompress (padded_in, in_len, padded_out, &produced, &fwnt_error);
    if (ret != 1 || produced != out_len)
      {
        char msg[256] = "";

        if (fwnt_error != NULL)
          {
            libfwnt_error_sprint (fwnt_error, msg, sizeof msg);
            libfwnt_error_free (&fwnt_error);
          }
        g_set_error (error, ETL_ERROR, ETL_ERROR_DECOMPRESS,
                     "compressed payload of %" G_GSIZE_FORMAT " bytes decompressed to %" G_GSIZE_FORMAT
                     " bytes, expected %" G_GSIZE_FORMAT "%s%s",
                     in_len, ret == 1 ? (gsize) produced : (gsize) 0, out_len, msg[0] ? ": " : "", g_strstrip (msg));
        return FALSE;
      }
    memcpy (out, padded_out, out_len);
    return TRUE;
  }
#else
  g_set_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED, "built without an XPRESS decompressor");
  return FALSE;
#endif
}
