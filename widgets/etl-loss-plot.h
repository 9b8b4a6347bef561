/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-summary.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

#define ETL_TYPE_LOSS_PLOT (etl_loss_plot_get_type ())

/* The most lines the legend takes, whatever the number of files. */
#define ETL_LOSS_PLOT_LEGEND_LINES 2
/* The height of the strip shown when nothing was lost, pixels. */
#define ETL_LOSS_PLOT_COMPACT_HEIGHT 22

G_DECLARE_FINAL_TYPE (EtlLossPlot, etl_loss_plot, ETL, LOSS_PLOT, GtkDrawingArea)

GtkWidget *etl_loss_plot_new (EtlZoomManager *zoom_manager);
EtlZoomManager *etl_loss_plot_get_zoom_manager (EtlLossPlot *self);
void etl_loss_plot_set_zoom_manager (EtlLossPlot *self, EtlZoomManager *zoom_manager);
void etl_loss_plot_set_trace (EtlLossPlot *self, EtlTrace *trace, EtlLossSummary *summary);
EtlLossSummary *etl_loss_plot_get_summary (EtlLossPlot *self);
guint etl_loss_plot_get_n_files (EtlLossPlot *self);
gboolean etl_loss_plot_get_compact (EtlLossPlot *self);
gboolean etl_loss_plot_get_legend_totals (EtlLossPlot *self,
                                          guint file,
                                          guint64 *events_lost,
                                          guint64 *buffers_lost);
char *etl_loss_plot_dup_legend_text (EtlLossPlot *self, guint file);
char *etl_loss_plot_dup_loss_text (EtlLossPlot *self, double x, double y, int width, int height);
void etl_loss_plot_render (EtlLossPlot *self, cairo_t *cr, int width, int height);

G_END_DECLS
