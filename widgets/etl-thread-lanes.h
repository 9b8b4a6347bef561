/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-thread-states.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * ETL_THREAD_LANES_NONE:
 *
 * "No state" as an index into a thread's states (G_MAXUINT).
 */
#define ETL_THREAD_LANES_NONE G_MAXUINT

/**
 * EtlThreadLaneGeometry:
 * @t0: FILETIME at the axis's left edge
 * @t1: FILETIME at its right edge (> @t0)
 * @axis_w: the axis's width, pixel columns
 * @x: where column 0 is drawn, pixels from the surface's left
 * @y: the lane's top, pixels
 * @h: the lane's height, pixels
 *
 * Where a thread lane is drawn and which time range it shows.
 */
typedef struct
{
  gint64 t0;
  gint64 t1;
  guint axis_w;
  double x;
  double y;
  double h;
} EtlThreadLaneGeometry;

void etl_thread_lanes_draw (cairo_t *cr, const EtlThreadLaneGeometry *geometry, EtlThreadStates *all, guint32 tid,
                            guint c0, guint c1, const GdkRGBA *fg, guint selected);
guint etl_thread_lanes_state_at (const EtlThreadState *states, guint n_states, gint64 t);
guint etl_thread_lanes_waker_of (const EtlThreadState *states, guint n_states, guint index);
char *etl_thread_lanes_dup_wait_text (EtlTrace *trace, const EtlThreadState *state);

G_END_DECLS
