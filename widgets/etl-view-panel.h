/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ETL_TYPE_VIEW_PANEL (etl_view_panel_get_type ())

G_DECLARE_FINAL_TYPE (EtlViewPanel, etl_view_panel, ETL, VIEW_PANEL, GtkNotebook)

GtkWidget *etl_view_panel_new (void);
int etl_view_panel_add_view (EtlViewPanel *self, const char *id, const char *title, GtkWidget *widget);
void etl_view_panel_set_page_id (EtlViewPanel *self, GtkWidget *page, const char *id);
GtkWidget *etl_view_panel_get_view_widget (EtlViewPanel *self, const char *id);
gboolean etl_view_panel_show_view (EtlViewPanel *self, const char *id);
gboolean etl_view_panel_show_nth (EtlViewPanel *self, guint n);
const char *etl_view_panel_get_view (EtlViewPanel *self);
guint etl_view_panel_get_n_views (EtlViewPanel *self);

G_END_DECLS
