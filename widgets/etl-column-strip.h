/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* One-pixel-high strips: a lane that draws at most one look per pixel column
 * (the timeline's CPU lanes; the thread lanes use the pixel helper) writes
 * each column's colour into a one-row image and composites it once, copied
 * down to the lane's height, instead of a cairo fill per span (~0.2 µs
 * each, a lane of one-pixel spans ~0.4 ms). */

#include <math.h>
#include <string.h>

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

/* A premultiplied CAIRO_FORMAT_ARGB32 pixel of (@r, @g, @b) at @alpha. */
static inline guint32
etl_column_strip_pixel (double r, double g, double b, double alpha)
{
  guint32 a8 = (guint32) lround (alpha * 255.0);

  return a8 << 24 | (guint32) lround (r * alpha * 255.0) << 16 | (guint32) lround (g * alpha * 255.0) << 8
         | (guint32) lround (b * alpha * 255.0);
}

/* Composites @strip (one row of @w pixels) over the rectangle of @w × @rh
 * at (@x, @ry), each pixel repeated down the rows.  The rows are copied
 * into an image of the rectangle's size and composited unscaled: pixman's
 * nearest-scaled path for a pattern stretched to height cost about twice
 * as much per pixel. */
static inline void
etl_column_strip_paint (cairo_t *cr, cairo_surface_t *strip, double x, double ry, double rh, int w)
{
  int rows = (int) ceil (rh), x0 = (int) floor (x), y0 = (int) floor (ry);
  const guint8 *src;
  cairo_surface_t *image;
  guint8 *dst;
  int stride;

  if (rows <= 0 || w <= 0)
    return;
  cairo_surface_flush (strip);
  src = cairo_image_surface_get_data (strip);
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, rows);
  dst = cairo_image_surface_get_data (image);
  stride = cairo_image_surface_get_stride (image);
  if (src != NULL && dst != NULL)
    {
      for (int r = 0; r < rows; r++)
        memcpy (dst + (gsize) r * stride, src, (gsize) w * 4);
      cairo_surface_mark_dirty (image);
      cairo_save (cr);
      cairo_set_source_surface (cr, image, x0, y0);
      cairo_rectangle (cr, x0, y0, w, rows);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  cairo_surface_destroy (image);
}

G_END_DECLS
