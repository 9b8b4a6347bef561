/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * EtlXpressStatus:
 * @ETL_XPRESS_OK: the stream decoded; `*out_len` bytes were written
 * @ETL_XPRESS_TRUNCATED: the input ends inside a match token (its 2-byte
 *   tuple, the shared length nibble byte, or a 1-, 2- or 4-byte length escape)
 * @ETL_XPRESS_BAD_LENGTH: a 16-bit or 32-bit match length escape holds a value
 *   below 22, which [MS-XCA] 2.4.4 declares an error
 * @ETL_XPRESS_BAD_OFFSET: a match refers to bytes before the start of the output
 * @ETL_XPRESS_OVERRUN: a match runs past the end of the output buffer
 *
 * Outcome of etl_xpress_lz77_decode().
 */
typedef enum
{
  ETL_XPRESS_OK,
  ETL_XPRESS_TRUNCATED,
  ETL_XPRESS_BAD_LENGTH,
  ETL_XPRESS_BAD_OFFSET,
  ETL_XPRESS_OVERRUN,
} EtlXpressStatus;

EtlXpressStatus etl_xpress_lz77_decode (const guint8 *in, gsize in_len,
                                        guint8 *out, gsize out_cap,
                                        gsize *out_len, gsize *in_pos);

const char *etl_xpress_status_to_string (EtlXpressStatus status);

gboolean etl_xpress_decompress (guint format,
                                const guint8 *in, gsize in_len,
                                guint8 *out, gsize out_len,
                                GError **error);

G_END_DECLS
