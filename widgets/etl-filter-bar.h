/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-filter.h"

G_BEGIN_DECLS

#define ETL_TYPE_FILTER_BAR (etl_filter_bar_get_type ())

G_DECLARE_FINAL_TYPE (EtlFilterBar, etl_filter_bar, ETL, FILTER_BAR, GtkBox)

GtkWidget *etl_filter_bar_new (void);
EtlFilter *etl_filter_bar_get_filter (EtlFilterBar *self);
void etl_filter_bar_set_filter (EtlFilterBar *self, const EtlFilter *filter);
void etl_filter_bar_set_counts (EtlFilterBar *self, guint64 n_shown, guint64 n_total);
void etl_filter_bar_set_busy (EtlFilterBar *self, gboolean busy);
const char *etl_filter_bar_get_count_text (EtlFilterBar *self);
guint etl_filter_bar_get_debounce_ms (EtlFilterBar *self);
void etl_filter_bar_set_debounce_ms (EtlFilterBar *self, guint ms);
void etl_filter_bar_focus (EtlFilterBar *self);

G_END_DECLS
