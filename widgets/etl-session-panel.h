/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-session.h"

G_BEGIN_DECLS

#define ETL_TYPE_SESSION_PANEL (etl_session_panel_get_type ())

G_DECLARE_FINAL_TYPE (EtlSessionPanel, etl_session_panel, ETL, SESSION_PANEL, GtkBox)

GtkWidget *etl_session_panel_new (void);
const EtlSession *etl_session_panel_get_session (EtlSessionPanel *self);
void etl_session_panel_set_session (EtlSessionPanel *self, const EtlSession *session);
void etl_session_panel_set_arch (EtlSessionPanel *self, EtlSessionArch arch);
EtlSessionArch etl_session_panel_get_arch (EtlSessionPanel *self);
void etl_session_panel_set_n_cpus (EtlSessionPanel *self, guint n_cpus);
GtkWidget *etl_session_panel_get_field_widget (EtlSessionPanel *self, const char *field);
GtkWidget *etl_session_panel_get_flag_button (EtlSessionPanel *self, const char *field, guint32 value);
int etl_session_panel_get_field_severity (EtlSessionPanel *self, const char *field);
GBytes *etl_session_panel_get_layout_bytes (EtlSessionPanel *self);
void etl_session_panel_highlight_field (EtlSessionPanel *self, const char *field);

char **etl_session_panel_dup_collapsed_sections (EtlSessionPanel *self);
void etl_session_panel_set_section_expanded (EtlSessionPanel *self, const char *id, gboolean expanded);
const char *etl_session_panel_get_preset (EtlSessionPanel *self);
const char *etl_session_panel_get_field_diagnostic (EtlSessionPanel *self, const char *field);

G_END_DECLS
