/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-application
 * @title: EtlApplication
 * @short_description: the etlscope application
 *
 * A #GtkApplication with id io.github.etlscope.Etlscope that handles
 * "open": `etlscope a.etl b.etl` shows both files as one merged timeline.
 * It loads the style sheet from the GResource at startup, owns the app.open,
 * app.open-files (as: paths or URIs), app.about, app.preferences (the symbol
 * path, etl-preferences.c) and app.quit actions and the
 * one accelerator table (every window action has a shortcut; they are listed
 * in gtk/help-overlay.ui, Ctrl+?).  GTK picks up gtk/menus.ui and
 * gtk/help-overlay.ui from the resource base path by itself.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-application.h"
#include "etl-preferences.h"
#include "etl-window.h"

struct _EtlApplication
{
  GtkApplication parent_instance;

  gboolean open_demo;
  char *regions; /* --regions FILE */
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

/* app.open: the file chooser of the active window. */
static void
open_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *window = get_window (ETL_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
  etl_window_show_open_dialog (window);
}

/* app.open-files(as): paths or URIs, shown together in the active window. */
static void
open_files_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *window = get_window (ETL_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (window));
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-files", param);
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

/* app.preferences: the symbol path and the download switch
 * (etl-preferences.c). */
static void
on_preferences_response (GtkDialog *dialog, int response, gpointer user_data)
{
  /* Saved (the dialog's own handler ran first): every window's resolver
   * follows the new symbol path and download switch. */
  if (response != GTK_RESPONSE_OK)
    return;
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (user_data)); l != NULL; l = l->next)
    if (ETL_IS_WINDOW (l->data))
      etl_window_symbols_preferences_changed (l->data);
}

static void
preferences_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (user_data));
  GtkWidget *dialog = etl_preferences_dialog_new (window);

  g_signal_connect_object (dialog, "response", G_CALLBACK (on_preferences_response), user_data, 0);
  gtk_widget_show (dialog);
}

/* app.quit (Ctrl+Q): every window keeps its state as the close button
 * does; g_application_quit() alone would leave without disposing them. */
static void
quit_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_application_save_windows (ETL_APPLICATION (user_data));
  g_application_quit (G_APPLICATION (user_data));
}

static void
etl_application_startup (GApplication *application)
{
  static const GActionEntry entries[] = {
    { "open", open_action },
    { "open-files", open_files_action, "as" },
    { "about", about_action },
    { "preferences", preferences_action },
    { "quit", quit_action },
  };
  /* The one accelerator table (STYLE.md). */
  static const struct {
    const char *action;
    const char *accels[4];
  } accels[] = {
    { "win.open", { "<Primary>o", NULL } },
    { "win.open-demo", { "<Primary><Shift>d", NULL } },
    { "win.close-trace", { "<Primary>w", NULL } },
    { "win.cancel", { "Escape", NULL } },
    { "app.quit", { "<Primary>q", NULL } },
    { "app.preferences", { "<Primary>comma", NULL } },
    { "win.export-selection", { "<Primary>e", NULL } },
    { "win.export-image", { "<Primary><Shift>e", NULL } },
    { "zoom.zoom-in", { "<Primary>plus", "<Primary>equal", "<Primary>KP_Add", NULL } },
    { "zoom.zoom-out", { "<Primary>minus", "<Primary>KP_Subtract", NULL } },
    { "zoom.zoom-fit", { "<Primary>0", "<Primary>KP_0", NULL } },
    { "timeline.zoom-to-selection", { "<Primary>period", NULL } },
    { "timeline.lane-mode::cpu", { "<Primary>1", NULL } },
    { "timeline.lane-mode::provider", { "<Primary>2", NULL } },
    { "timeline.lane-mode::process", { "<Primary>3", NULL } },
    { "win.utc", { "<Primary>u", NULL } },
    { "win.find", { "<Primary>f", NULL } },
    { "win.clear-filter", { "<Primary><Shift>f", NULL } },
    { "win.show-session", { "F9", NULL } },
    { "win.show-menu", { "F10", NULL } },
    { "list.copy", { "<Primary>c", NULL } },
    { "win.go-to-time", { "<Primary>g", NULL } },
    { "win.find-next", { "F3", NULL } },
    { "win.find-previous", { "<Shift>F3", NULL } },
    { "win.add-marker", { "<Primary>m", NULL } },
    { "win.zoom-to-data", { "<Primary>9", NULL } },
    /* The bottom panel: its tabs by position (Ctrl+1…3 are the lanes),
     * maximised, the details beside the list. */
    { "win.show-view(1)", { "<Alt>1", NULL } },
    { "win.show-view(2)", { "<Alt>2", NULL } },
    { "win.show-view(3)", { "<Alt>3", NULL } },
    { "win.show-view(4)", { "<Alt>4", NULL } },
    { "win.show-view(5)", { "<Alt>5", NULL } },
    { "win.show-view(6)", { "<Alt>6", NULL } },
    { "win.show-view(7)", { "<Alt>7", NULL } },
    { "win.show-view(8)", { "<Alt>8", NULL } },
    { "win.show-view(9)", { "<Alt>9", NULL } },
    { "win.maximize-panel", { "<Primary><Shift>m", NULL } },
    { "win.show-details", { "<Alt>Return", NULL } },
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
  EtlApplication *self = ETL_APPLICATION (application);
  EtlWindow *window = get_window (self);

  gtk_window_present (GTK_WINDOW (window));
  /* etlscope --demo: the synthetic demo trace instead of the start page. */
  if (self->open_demo)
    {
      self->open_demo = FALSE;
      g_action_group_activate_action (G_ACTION_GROUP (window), "open-demo", NULL);
    }
}

static int
etl_application_handle_local_options (GApplication *application, GVariantDict *options)
{
  EtlApplication *self = ETL_APPLICATION (application);
  g_autofree char *regions = NULL;

  self->open_demo = g_variant_dict_contains (options, "demo");
  if (g_variant_dict_lookup (options, "regions", "^ay", &regions))
    {
      g_free (self->regions);
      self->regions = g_canonicalize_filename (regions, NULL);
    }
  return -1;
}

static void
etl_application_open (GApplication *application, GFile **files, int n_files, const char *hint)
{
  EtlWindow *window = get_window (ETL_APPLICATION (application));

  gtk_window_present (GTK_WINDOW (window));
  if (ETL_APPLICATION (application)->regions != NULL)
    {
      g_autofree char *regions = g_steal_pointer (&ETL_APPLICATION (application)->regions);

      etl_window_set_pending_regions (window, regions);
    }
  if (n_files > 0)
    etl_window_open_files (window, files, n_files);
}

static void
etl_application_finalize (GObject *object)
{
  g_free (ETL_APPLICATION (object)->regions);
  G_OBJECT_CLASS (etl_application_parent_class)->finalize (object);
}

static void
etl_application_class_init (EtlApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = etl_application_finalize;

  app_class->startup = etl_application_startup;
  app_class->activate = etl_application_activate;
  app_class->handle_local_options = etl_application_handle_local_options;
  app_class->open = etl_application_open;
}

static void
etl_application_init (EtlApplication *self)
{
  g_application_add_main_option (G_APPLICATION (self), "demo", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE,
                                 "Open a synthetic demo trace (generated once into the cache folder)", NULL);
  g_application_add_main_option (G_APPLICATION (self), "regions", 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_FILENAME,
                                 "Load a Regions of Interest file (WPA's XML) with the trace", "FILE");
}

/**
 * etl_application_save_windows:
 * @self: the application
 *
 * Writes the state of every #EtlWindow (etl_window_save_state()), as
 * app.quit does before it quits.
 */
void
etl_application_save_windows (EtlApplication *self)
{
  g_return_if_fail (ETL_IS_APPLICATION (self));

  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    if (ETL_IS_WINDOW (l->data))
      etl_window_save_state (ETL_WINDOW (l->data), NULL);
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
