/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-lznt1.h: LZNT1 decompression ([MS-XCA] 2.5), for the compressed XML
 * of KernelTraceControl WinSat records.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean etl_lznt1_decompress (const guint8 *in, gsize in_len, guint8 *out, gsize out_cap,
                               gsize *out_len, GError **error);

G_END_DECLS
