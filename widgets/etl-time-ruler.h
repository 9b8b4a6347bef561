/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-zoom-manager.h"

G_BEGIN_DECLS

#define ETL_TYPE_TIME_RULER (etl_time_ruler_get_type ())

G_DECLARE_FINAL_TYPE (EtlTimeRuler, etl_time_ruler, ETL, TIME_RULER, GtkDrawingArea)

GtkWidget *etl_time_ruler_new (EtlZoomManager *zoom_manager);
EtlZoomManager *etl_time_ruler_get_zoom_manager (EtlTimeRuler *self);
void etl_time_ruler_set_zoom_manager (EtlTimeRuler *self, EtlZoomManager *zoom_manager);
gint64 etl_time_ruler_get_origin (EtlTimeRuler *self);
void etl_time_ruler_set_origin (EtlTimeRuler *self, gint64 origin);
gboolean etl_time_ruler_get_utc (EtlTimeRuler *self);
void etl_time_ruler_set_utc (EtlTimeRuler *self, gboolean utc);
void etl_time_ruler_set_markers (EtlTimeRuler *self, const gint64 *filetimes, const char *const *names,
                                 guint n_markers);
guint etl_time_ruler_get_n_markers (EtlTimeRuler *self);
void etl_time_ruler_render (EtlTimeRuler *self, cairo_t *cr, int width, int height);

char *etl_time_format_relative (gint64 ticks, gint64 step);
/**
 * ETL_TIME_FORMAT_SIZE:
 *
 * The room etl_time_format_span_into() needs, with its NUL.
 */
#define ETL_TIME_FORMAT_SIZE 64

char *etl_time_format_span (gint64 ticks);
char *etl_time_format_span_into (char *buf, gsize size, gint64 ticks);
char *etl_time_format_wall_clock (gint64 filetime, gint64 step, gboolean utc, gboolean with_date);
gint64 etl_time_nice_step (gint64 min_ticks);

G_END_DECLS
