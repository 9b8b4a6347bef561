/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define ETL_TYPE_APPLICATION (etl_application_get_type ())

G_DECLARE_FINAL_TYPE (EtlApplication, etl_application, ETL, APPLICATION, GtkApplication)

EtlApplication *etl_application_new (void);
void etl_application_save_windows (EtlApplication *self);

G_END_DECLS
