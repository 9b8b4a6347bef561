/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-cpu-usage.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

#define ETL_TYPE_CPU_GRAPH (etl_cpu_graph_get_type ())

G_DECLARE_FINAL_TYPE (EtlCpuGraph, etl_cpu_graph, ETL, CPU_GRAPH, GtkBox)

/**
 * ETL_CPU_GRAPH_TOP_N:
 *
 * How many processes get a band of their own; the rest are "Other".
 */
#define ETL_CPU_GRAPH_TOP_N 8

GtkWidget *etl_cpu_graph_new (EtlZoomManager *zoom_manager);
void etl_cpu_graph_set_zoom_manager (EtlCpuGraph *self, EtlZoomManager *zoom_manager);
void etl_cpu_graph_set_trace (EtlCpuGraph *self, EtlTrace *trace);
gboolean etl_cpu_graph_is_busy (EtlCpuGraph *self);
gboolean etl_cpu_graph_has_mode (EtlCpuGraph *self, EtlCpuUsageMode mode);
EtlCpuUsageMode etl_cpu_graph_get_mode (EtlCpuGraph *self);
void etl_cpu_graph_set_mode (EtlCpuGraph *self, EtlCpuUsageMode mode);
EtlCpuUsage *etl_cpu_graph_get_usage (EtlCpuGraph *self);
const EtlCpuUsageSeries *etl_cpu_graph_get_series (EtlCpuGraph *self);
GtkWidget *etl_cpu_graph_get_area (EtlCpuGraph *self);
void etl_cpu_graph_set_expanded (EtlCpuGraph *self, gboolean expanded);
gboolean etl_cpu_graph_get_expanded (EtlCpuGraph *self);
gboolean etl_cpu_graph_get_process_color (EtlCpuGraph *self, guint32 pid, GdkRGBA *rgba);
char *etl_cpu_graph_dup_hover_text (EtlCpuGraph *self, double x, int width);
void etl_cpu_graph_render (EtlCpuGraph *self, cairo_t *cr, int width, int height);

G_END_DECLS
