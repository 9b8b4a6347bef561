/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* One-pixel-high strips: a lane that draws at most one look per pixel column
 * (the timeline's CPU lanes, the thread lanes) writes each column's colour
 * into a one-row image and composites it once, stretched to the lane's
 * height, instead of a cairo fill per span (~0.2 µs each, a lane of
 * one-pixel spans ~0.4 ms). */

#include <math.h>

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
 * at (@x, @ry), each pixel stretched down the rows; with @source, the strip
 * is its mask. */
static inline void
etl_column_strip_paint (cairo_t *cr, cairo_surface_t *strip, cairo_pattern_t *source, double x, double ry, double rh,
                        int w)
{
  cairo_pattern_t *pattern;
  cairo_matrix_t m;

  cairo_surface_mark_dirty (strip);
  pattern = cairo_pattern_create_for_surface (strip);
  cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
  cairo_pattern_set_extend (pattern, CAIRO_EXTEND_PAD);
  cairo_matrix_init_scale (&m, 1.0, 1.0 / rh);
  cairo_matrix_translate (&m, -x, -ry);
  cairo_pattern_set_matrix (pattern, &m);
  cairo_save (cr);
  cairo_rectangle (cr, x, ry, w, rh);
  cairo_clip (cr);
  if (source != NULL)
    {
      cairo_set_source (cr, source);
      cairo_mask (cr, pattern);
    }
  else
    {
      cairo_set_source (cr, pattern);
      cairo_paint (cr);
    }
  cairo_restore (cr);
  cairo_pattern_destroy (pattern);
}

G_END_DECLS
