/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-trace.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

#define ETL_TYPE_WINDOW (etl_window_get_type ())

G_DECLARE_FINAL_TYPE (EtlWindow, etl_window, ETL, WINDOW, GtkApplicationWindow)

EtlWindow *etl_window_new (GtkApplication *application);
void etl_window_open_files (EtlWindow *self, GFile **files, guint n_files);
gboolean etl_window_get_loading (EtlWindow *self);
EtlTrace *etl_window_get_trace (EtlWindow *self);
EtlZoomManager *etl_window_get_zoom_manager (EtlWindow *self);
guint etl_window_get_n_lanes (EtlWindow *self);
guint etl_window_get_n_loss_files (EtlWindow *self);
gboolean etl_window_get_loss_totals (EtlWindow *self, guint file, guint64 *events_lost, guint64 *buffers_lost);
char *etl_window_dup_loss_legend (EtlWindow *self, guint file);
void etl_window_get_visible_range (EtlWindow *self, gint64 *begin, gint64 *end);
gboolean etl_window_get_info_bar_visible (EtlWindow *self);
const char *etl_window_get_info_message (EtlWindow *self);
const char *etl_window_get_status (EtlWindow *self);

G_END_DECLS
