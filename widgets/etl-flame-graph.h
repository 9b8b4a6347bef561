/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-stack-tree.h"

G_BEGIN_DECLS

#define ETL_TYPE_FLAME_GRAPH (etl_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (EtlFlameGraph, etl_flame_graph, ETL, FLAME_GRAPH, GtkDrawingArea)

GtkWidget *etl_flame_graph_new (void);
void etl_flame_graph_set_tree (EtlFlameGraph *self, EtlStackTree *tree);
EtlStackTree *etl_flame_graph_get_tree (EtlFlameGraph *self);
char *etl_flame_graph_format_weight (EtlStackTreeUnit unit, guint64 weight);
int etl_flame_graph_get_row_height (EtlFlameGraph *self);
guint etl_flame_graph_node_at (EtlFlameGraph *self, double x, double y, int width, int height);
void etl_flame_graph_render (EtlFlameGraph *self, cairo_t *cr, int width, int height);

G_END_DECLS
