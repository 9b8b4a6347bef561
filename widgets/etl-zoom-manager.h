/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/**
 * ETL_LABEL_COLUMN_WIDTH:
 *
 * Width in pixels of the label column at the left of every widget that
 * shares the time axis, so their time axes line up.
 */
#define ETL_LABEL_COLUMN_WIDTH 124

#define ETL_TYPE_ZOOM_MANAGER (etl_zoom_manager_get_type ())

G_DECLARE_FINAL_TYPE (EtlZoomManager, etl_zoom_manager, ETL, ZOOM_MANAGER, GObject)

EtlZoomManager *etl_zoom_manager_new (void);
void etl_zoom_manager_set_bounds (EtlZoomManager *self, gint64 begin, gint64 end);
void etl_zoom_manager_get_bounds (EtlZoomManager *self, gint64 *begin, gint64 *end);
void etl_zoom_manager_set_visible (EtlZoomManager *self, gint64 begin, gint64 end);
void etl_zoom_manager_get_visible (EtlZoomManager *self, gint64 *begin, gint64 *end);
gint64 etl_zoom_manager_get_begin (EtlZoomManager *self);
gint64 etl_zoom_manager_get_end (EtlZoomManager *self);
gint64 etl_zoom_manager_get_min_span (EtlZoomManager *self);
void etl_zoom_manager_set_min_span (EtlZoomManager *self, gint64 min_span);
gboolean etl_zoom_manager_get_can_zoom_in (EtlZoomManager *self);
gboolean etl_zoom_manager_get_can_zoom_out (EtlZoomManager *self);
void etl_zoom_manager_zoom_in (EtlZoomManager *self);
void etl_zoom_manager_zoom_out (EtlZoomManager *self);
void etl_zoom_manager_zoom_fit (EtlZoomManager *self);
void etl_zoom_manager_set_focus (EtlZoomManager *self, gint64 filetime);
void etl_zoom_manager_zoom_around (EtlZoomManager *self, gint64 center, double factor);
void etl_zoom_manager_pan (EtlZoomManager *self, gint64 delta);
gboolean etl_zoom_manager_follow (GtkWidget *widget, EtlZoomManager **slot, gulong *handler,
                                  EtlZoomManager *zoom_manager, GCallback on_changed);
double etl_zoom_manager_time_to_x (EtlZoomManager *self, gint64 filetime, int width);
gint64 etl_zoom_manager_x_to_time (EtlZoomManager *self, double x, int width);

G_END_DECLS
