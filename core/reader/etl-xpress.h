/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean etl_xpress_decompress (guint format,
                                const guint8 *in, gsize in_len,
                                guint8 *out, gsize out_len,
                                GError **error);

G_END_DECLS
