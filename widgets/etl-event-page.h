/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-event-model.h"

G_BEGIN_DECLS

#define ETL_TYPE_EVENT_PAGE (etl_event_page_get_type ())

G_DECLARE_FINAL_TYPE (EtlEventPage, etl_event_page, ETL, EVENT_PAGE, GObject)

EtlEventPage *etl_event_page_new (void);
void etl_event_page_set_model (EtlEventPage *self, EtlEventModel *model);
EtlEventModel *etl_event_page_get_model (EtlEventPage *self);
void etl_event_page_set_window (EtlEventPage *self, guint64 offset, guint n_rows);
guint64 etl_event_page_get_offset (EtlEventPage *self);
guint etl_event_page_get_n_rows (EtlEventPage *self);
void etl_event_page_refresh (EtlEventPage *self);
guint64 etl_event_page_get_n_calls (EtlEventPage *self);

G_END_DECLS
