/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-span-set.h"

G_BEGIN_DECLS

#define ETL_TYPE_DURATION_HISTOGRAM (etl_duration_histogram_get_type ())
G_DECLARE_FINAL_TYPE (EtlDurationHistogram, etl_duration_histogram, ETL, DURATION_HISTOGRAM, GtkDrawingArea)

GtkWidget *etl_duration_histogram_new (void);
void etl_duration_histogram_set_histogram (EtlDurationHistogram *self, const EtlSpanHistogram *histogram);
const EtlSpanHistogram *etl_duration_histogram_get_histogram (EtlDurationHistogram *self);
void etl_duration_histogram_set_selection (EtlDurationHistogram *self, int first, int last);
gboolean etl_duration_histogram_get_selection (EtlDurationHistogram *self, guint *first, guint *last);
int etl_duration_histogram_bucket_at (EtlDurationHistogram *self, double x, int width);
char *etl_duration_format (gint64 ticks);

G_END_DECLS
