/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

char *etl_preferences_get_symbol_path (void);
gboolean etl_preferences_get_download_symbols (void);
gboolean etl_preferences_save_symbols (const char *symbol_path, gboolean download, GError **error);
GtkWidget *etl_preferences_dialog_new (GtkWindow *parent);

G_END_DECLS
