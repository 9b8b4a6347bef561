/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Little-endian stores into a record being written (the writer and every
 * synthetic-trace generator build Windows' structures byte by byte). */

#include <glib.h>

static inline void
put_u16 (guint8 *p, guint16 v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
}

static inline void
put_u32 (guint8 *p, guint32 v)
{
  put_u16 (p, (guint16) v);
  put_u16 (p + 2, (guint16) (v >> 16));
}

static inline void
put_u64 (guint8 *p, guint64 v)
{
  put_u32 (p, (guint32) v);
  put_u32 (p + 4, (guint32) (v >> 32));
}

/* @s (ASCII) as NUL-terminated UTF-16LE at @p; returns the bytes written. */
static inline gsize
put_utf16 (guint8 *p, const char *s)
{
  gsize n = 0;

  for (; *s; s++, n += 2)
    put_u16 (p + n, (guint8) *s);
  put_u16 (p + n, 0);
  return n + 2;
}
