/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-event-model.h"
#include "etl-event-page.h"
#include "etl-row-set.h"
#include "etl-trace.h"

G_BEGIN_DECLS

#define ETL_EVENT_LIST_NO_ROW G_MAXUINT64

#define ETL_TYPE_EVENT_LIST (etl_event_list_get_type ())

G_DECLARE_FINAL_TYPE (EtlEventList, etl_event_list, ETL, EVENT_LIST, GtkBox)

GtkWidget *etl_event_list_new (void);
void etl_event_list_set_rows (EtlEventList *self, EtlTrace *trace, EtlRowSet *rows);
void etl_event_list_refresh (EtlEventList *self);
EtlEventModel *etl_event_list_get_model (EtlEventList *self);
GtkTreeView *etl_event_list_get_tree_view (EtlEventList *self);
guint64 etl_event_list_get_n_rows (EtlEventList *self);
void etl_event_list_select_row (EtlEventList *self, guint64 row);
guint64 etl_event_list_get_selected_row (EtlEventList *self);
GArray *etl_event_list_get_selected_rows (EtlEventList *self);
guint64 etl_event_list_get_n_selected (EtlEventList *self);
guint64 etl_event_list_get_cursor (EtlEventList *self);
gboolean etl_event_list_get_visible_range (EtlEventList *self, guint64 *first, guint64 *last);
EtlEventPage *etl_event_list_get_page (EtlEventList *self);
GtkAdjustment *etl_event_list_get_vadjustment (EtlEventList *self);

void etl_event_list_sort (EtlEventList *self, int column, gboolean descending);
gboolean etl_event_list_get_sorting (EtlEventList *self);
int etl_event_list_get_sort_column (EtlEventList *self, gboolean *descending);

guint etl_event_list_get_n_columns (EtlEventList *self);
const char *etl_event_list_get_column_id (EtlEventList *self, guint column);
char **etl_event_list_dup_hidden_columns (EtlEventList *self);
void etl_event_list_set_column_visible (EtlEventList *self, const char *id, gboolean visible);

char *etl_event_list_dup_selection_text (EtlEventList *self);
void etl_event_list_copy (EtlEventList *self);
void etl_event_list_popup_menu (EtlEventList *self, guint64 row, const GdkEvent *event);
GtkWidget *etl_event_list_get_popup (EtlEventList *self);

G_END_DECLS
