/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The Preferences dialog (app.preferences, in the app menu) and the
 * settings it keeps: the symbol path, in `_NT_SYMBOL_PATH` syntax
 * (etl-symbol-path.h; empty: the environment variable `_NT_SYMBOL_PATH`),
 * and whether symbols may be downloaded from the servers the path names
 * (off by default: opening a trace must not reach the network unasked).
 * They live in the window's state file (etl-window-state.c,
 * g_get_user_config_dir()/etlscope/state.ini, #GKeyFile written
 * atomically), group [symbols], keys `path` and `download`.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-preferences.h"

#include <errno.h>

#include "etl-symbol-path.h"
#include "etl-window.h"

#define GROUP "symbols"

static GKeyFile *
load (void)
{
  g_autofree char *path = etl_window_get_state_path ();
  GKeyFile *kf = g_key_file_new ();

  g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  return kf;
}

/**
 * etl_preferences_get_symbol_path:
 *
 * Returns: (transfer full): the symbol path of the Preferences, else
 *   `_NT_SYMBOL_PATH`, else ""
 */
char *
etl_preferences_get_symbol_path (void)
{
  g_autoptr (GKeyFile) kf = load ();
  g_autofree char *path = g_key_file_get_string (kf, GROUP, "path", NULL);
  const char *env = g_getenv ("_NT_SYMBOL_PATH");

  if (path != NULL && path[0] != '\0')
    return g_steal_pointer (&path);
  return g_strdup (env != NULL ? env : "");
}

/**
 * etl_preferences_get_download_symbols:
 *
 * Returns: whether symbol servers may be asked (default %FALSE)
 */
gboolean
etl_preferences_get_download_symbols (void)
{
  g_autoptr (GKeyFile) kf = load ();

  return g_key_file_get_boolean (kf, GROUP, "download", NULL);
}

/**
 * etl_preferences_save_symbols:
 * @symbol_path: the path to keep ("" to follow `_NT_SYMBOL_PATH`)
 * @download: whether symbol servers may be asked
 * @error: return location for an I/O error
 *
 * Writes the two settings into the state file, keeping its other keys.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_preferences_save_symbols (const char *symbol_path, gboolean download, GError **error)
{
  g_autofree char *path = etl_window_get_state_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GKeyFile) kf = load ();

  g_return_val_if_fail (symbol_path != NULL, FALSE);
  g_key_file_set_string (kf, GROUP, "path", symbol_path);
  g_key_file_set_boolean (kf, GROUP, "download", download);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (kf, path, error);
}

typedef struct
{
  GtkEntry *entry;
  GtkSwitch *download;
  GtkLabel *status;
} Dialog;

static void
on_entry_changed (GtkEditable *editable, gpointer user_data)
{
  Dialog *d = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSymbolPath) parsed = NULL;
  const char *text = gtk_entry_get_text (d->entry);

  if (text[0] == '\0')
    {
      const char *env = g_getenv ("_NT_SYMBOL_PATH");
      g_autofree char *msg = g_strdup_printf ("Empty: _NT_SYMBOL_PATH is used (%s)", env != NULL ? env : "not set");

      gtk_label_set_text (d->status, msg);
      return;
    }
  parsed = etl_symbol_path_parse (text, &error);
  gtk_label_set_text (d->status, parsed != NULL ? "" : error->message);
}

static void
on_response (GtkDialog *dialog, int response, gpointer user_data)
{
  Dialog *d = user_data;

  if (response == GTK_RESPONSE_OK)
    {
      g_autoptr (GError) error = NULL;

      if (!etl_preferences_save_symbols (gtk_entry_get_text (d->entry), gtk_switch_get_active (d->download), &error))
        {
          gtk_label_set_text (d->status, error->message);
          return;
        }
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

/**
 * etl_preferences_dialog_new:
 * @parent: (nullable): the window it belongs to
 *
 * The Preferences dialog: the symbol path (its syntax checked as it is
 * typed) and the download switch, saved on OK.  Traces opened or stacks
 * dialogs shown afterwards use them.
 *
 * Returns: (transfer floating): the dialog, not shown
 */
GtkWidget *
etl_preferences_dialog_new (GtkWindow *parent)
{
  GtkWidget *dialog = gtk_dialog_new_with_buttons ("Preferences", parent,
                                                   GTK_DIALOG_DESTROY_WITH_PARENT | GTK_DIALOG_USE_HEADER_BAR,
                                                   "_Cancel", GTK_RESPONSE_CANCEL, "_Save", GTK_RESPONSE_OK, NULL);
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *label = gtk_label_new ("Symbol path");
  GtkWidget *download_label = gtk_label_new ("Download symbols from servers");
  GtkWidget *hint = gtk_label_new ("_NT_SYMBOL_PATH syntax: folders, cache*DIR, srv*DIR*URL, separated by ;");
  g_autoptr (GKeyFile) kf = load ();
  g_autofree char *path = g_key_file_get_string (kf, GROUP, "path", NULL);
  Dialog *d = g_new0 (Dialog, 1);

  d->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_text (d->entry, path != NULL ? path : "");
  gtk_entry_set_placeholder_text (d->entry, "srv*C:\\symbols*https://msdl.microsoft.com/download/symbols");
  gtk_widget_set_hexpand (GTK_WIDGET (d->entry), TRUE);
  gtk_entry_set_width_chars (d->entry, 60);
  d->download = GTK_SWITCH (gtk_switch_new ());
  gtk_switch_set_active (d->download, etl_preferences_get_download_symbols ());
  gtk_widget_set_halign (GTK_WIDGET (d->download), GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (GTK_WIDGET (d->download), "Off: only the folders and caches of the path are read; "
                                                         "a trace never makes etlscope reach the network");
  d->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (d->status, 0.0);
  gtk_label_set_xalign (GTK_LABEL (hint), 0.0);
  gtk_label_set_xalign (GTK_LABEL (label), 1.0);
  gtk_label_set_xalign (GTK_LABEL (download_label), 1.0);
  gtk_style_context_add_class (gtk_widget_get_style_context (hint), GTK_STYLE_CLASS_DIM_LABEL);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  g_object_set (grid, "margin", 18, NULL);
  gtk_grid_attach (GTK_GRID (grid), label, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->entry), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), hint, 1, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->status), 1, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), download_label, 0, 3, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (d->download), 1, 3, 1, 1);
  gtk_container_add (GTK_CONTAINER (gtk_dialog_get_content_area (GTK_DIALOG (dialog))), grid);
  g_signal_connect (d->entry, "changed", G_CALLBACK (on_entry_changed), d);
  g_signal_connect_data (dialog, "response", G_CALLBACK (on_response), d, (GClosureNotify) (void (*) (void)) g_free,
                         0);
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), GTK_RESPONSE_OK);
  on_entry_changed (GTK_EDITABLE (d->entry), d);
  gtk_widget_show_all (grid);
  return dialog;
}
