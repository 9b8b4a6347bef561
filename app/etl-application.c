/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-application
 * @title: EtlApplication
 * @short_description: the etlscope application
 *
 * A #GtkApplication with id io.github.etlscope.Etlscope that handles
 * "open": `etlscope a.etl b.etl` shows both files as one merged timeline.
 * It loads the style sheet from the GResource at startup, owns the app.open,
 * app.about and app.quit actions and the one accelerator table.  GTK picks up
 * gtk/menus.ui from the resource base path by itself.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-application.h"
#include "etl-window.h"

struct _EtlApplication
{
  GtkApplication parent_instance;
};

G_DEFINE_TYPE (EtlApplication, etl_application, GTK_TYPE_APPLICATION)

static EtlWindow *
get_window (EtlApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (ETL_IS_WINDOW (window))
    return ETL_WINDOW (window);
  return etl_window_new (GTK_APPLICATION (self));
}

static void
on_open_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  g_autoptr (EtlWindow) window = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GSList) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GPtrArray) array = g_ptr_array_new ();

      for (GSList *l = files; l != NULL; l = l->next)
        g_ptr_array_add (array, l->data);
      if (array->len > 0)
        etl_window_open_files (window, (GFile **) array->pdata, array->len);
      g_slist_free_full (g_steal_pointer (&files), g_object_unref);
    }
  g_object_unref (dialog);
}

static void
open_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlApplication *self = user_data;
  EtlWindow *window = get_window (self);
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;

  gtk_window_present (GTK_WINDOW (window));
  dialog = gtk_file_chooser_native_new ("Open Trace Files", GTK_WINDOW (window),
                                        GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "Event trace logs (*.etl)");
  gtk_file_filter_add_pattern (filter, "*.etl");
  gtk_file_filter_add_pattern (filter, "*.ETL");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "All files");
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);

  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), g_object_ref (window));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
about_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlApplication *self = user_data;
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  gtk_show_about_dialog (window,
                         "program-name", "etlscope",
                         "version", PACKAGE_VERSION,
                         "comments", "A fast viewer for Windows event trace (.etl) files",
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "logo-icon-name", "utilities-system-monitor",
                         NULL);
}

static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
etl_application_startup (GApplication *application)
{
  static const GActionEntry entries[] = {
    { "open", open_action },
    { "about", about_action },
    { "quit", quit_action },
  };
  /* The one accelerator table (STYLE.md). */
  static const struct {
    const char *action;
    const char *accels[4];
  } accels[] = {
    { "app.open", { "<Primary>o", NULL } },
    { "app.quit", { "<Primary>q", NULL } },
    { "zoom.zoom-in", { "<Primary>plus", "<Primary>equal", "<Primary>KP_Add", NULL } },
    { "zoom.zoom-out", { "<Primary>minus", "<Primary>KP_Subtract", NULL } },
    { "zoom.zoom-fit", { "<Primary>0", "<Primary>KP_0", NULL } },
  };
  g_autoptr (GtkCssProvider) css = NULL;

  G_APPLICATION_CLASS (etl_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (application), entries, G_N_ELEMENTS (entries), application);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (application), accels[i].action, accels[i].accels);

  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/etlscope/Etlscope/style.css");
  gtk_style_context_add_provider_for_screen (gdk_screen_get_default (), GTK_STYLE_PROVIDER (css),
                                             GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static void
etl_application_activate (GApplication *application)
{
  gtk_window_present (GTK_WINDOW (get_window (ETL_APPLICATION (application))));
}

static void
etl_application_open (GApplication *application, GFile **files, int n_files, const char *hint)
{
  EtlWindow *window = get_window (ETL_APPLICATION (application));

  gtk_window_present (GTK_WINDOW (window));
  if (n_files > 0)
    etl_window_open_files (window, files, n_files);
}

static void
etl_application_class_init (EtlApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = etl_application_startup;
  app_class->activate = etl_application_activate;
  app_class->open = etl_application_open;
}

static void
etl_application_init (EtlApplication *self)
{
}

/**
 * etl_application_new:
 *
 * Returns: (transfer full): the application, id io.github.etlscope.Etlscope,
 *   handling "open"
 */
EtlApplication *
etl_application_new (void)
{
  return g_object_new (ETL_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/etlscope/Etlscope",
                       NULL);
}
