/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The File menu's actions (prefix "win"): open, open recent, the demo
 * trace, close, cancel, export, and loading event manifests (the
 * document's job) so that later opens decode with them too.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-window-private.h"

/* ------------------------------------------------------------------------ */
/* Actions: File menu                                                        */
/* ------------------------------------------------------------------------ */

static GtkFileFilter *
etl_file_filter (void)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, "Event trace logs (*.etl)");
  gtk_file_filter_add_pattern (filter, "*.etl");
  gtk_file_filter_add_pattern (filter, "*.ETL");
  return filter;
}

static void
on_open_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  EtlWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      GSList *files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

      for (GSList *l = files; l != NULL; l = l->next)
        g_ptr_array_add (array, l->data);
      g_slist_free (files);
      if (array->len > 0)
        etl_window_open_files (self, (GFile **) array->pdata, array->len);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

/**
 * etl_window_show_open_dialog:
 * @self: a window
 *
 * Shows a #GtkFileChooserNative for one or more .etl files.
 */
void
etl_window_show_open_dialog (EtlWindow *self)
{
  GtkFileChooserNative *dialog;
  GtkFileFilter *all;

  g_return_if_fail (ETL_IS_WINDOW (self));

  dialog = gtk_file_chooser_native_new ("Open Trace Files", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                        "_Open", "_Cancel");
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), etl_file_filter ());
  all = gtk_file_filter_new ();
  gtk_file_filter_set_name (all, "All files");
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Manifests --------------------------------------------------------------- */

/* EtlDocument::schemas-changed: names, processes and payloads read anew
 * (the list's formatted rows, the timeline's tooltips); the details follow
 * once the pane knows which file described which provider
 * (on_manifest_done()). */
void
on_document_schemas_changed (EtlDocument *document, EtlWindow *self)
{
  etl_event_list_refresh (self->event_list);
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
}

typedef struct
{
  EtlWindow *self;
  EtlTrace *trace; /* the trace the manifest was loaded for */
  char *path;
} ManifestRequest;

static void
on_manifest_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ManifestRequest *request = user_data;
  g_autoptr (EtlWindow) self = request->self;
  g_autoptr (EtlTrace) trace = request->trace;
  g_autofree char *path = request->path;
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *message = NULL;
  g_autoptr (GError) error = NULL;
  EtlManifestInfo info = ETL_MANIFEST_INFO_INIT;
  guint64 selected;

  g_free (request);
  /* The window went away (its dispose cancelled the document's jobs). */
  if (self->document == NULL)
    return;
  update_status (self);
  if (!etl_document_load_manifest_finish (ETL_DOCUMENT (source), result, &info, &error))
    {
      /* Replaced by another manifest: that one reports. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  etl_details_add_manifest (self->details, path, info.provider_names);
  if (trace == etl_document_get_trace (self->document))
    {
      selected = etl_event_list_get_selected_row (self->event_list);
      if (selected != ETL_EVENT_LIST_NO_ROW)
        etl_details_show_row (self->details, trace, selected);
      message = g_strdup_printf ("%s: %u event%s of %u provider%s described%s", base, info.n_events,
                                 info.n_events == 1 ? "" : "s", info.n_providers, info.n_providers == 1 ? "" : "s",
                                 info.n_warnings > 0 ? " (with warnings)" : "");
      show_message (self, info.n_warnings > 0 ? GTK_MESSAGE_WARNING : GTK_MESSAGE_INFO, message);
    }
  etl_manifest_info_clear (&info);
}

/**
 * etl_window_load_manifest:
 * @self: a window
 * @path: an instrumentation manifest (.man or .xml)
 *
 * File ▸ Load Manifest…: registers the events @path describes with the
 * trace shown (etl_document_load_manifest_async(), in a worker), then shows
 * the new names in the list, the details and the timeline's tooltips.
 * Traces opened later in this window use the manifest too.  Errors go to
 * the info bar; see etl_window_get_busy().
 */
void
etl_window_load_manifest (EtlWindow *self, const char *path)
{
  EtlTrace *trace;
  ManifestRequest *request;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  trace = etl_document_get_trace (self->document);
  if (trace == NULL)
    {
      /* Nothing open: the next trace opened gets it. */
      etl_document_add_manifest (self->document, path);
      return;
    }
  request = g_new0 (ManifestRequest, 1);
  request->self = g_object_ref (self);
  request->trace = etl_trace_ref (trace);
  request->path = g_strdup (path);
  etl_document_load_manifest_async (self->document, path, on_manifest_done, request);
}

static void
on_manifest_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  EtlWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;

      if (path != NULL)
        etl_window_load_manifest (self, path);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

void
load_manifest_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;
  g_autofree char *dir = etl_manifest_dup_user_dir ();

  dialog = gtk_file_chooser_native_new ("Load Manifest", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, "_Load",
                                        "_Cancel");
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "Instrumentation manifests (*.man, *.xml)");
  gtk_file_filter_add_pattern (filter, "*.man");
  gtk_file_filter_add_pattern (filter, "*.MAN");
  gtk_file_filter_add_pattern (filter, "*.xml");
  gtk_file_filter_add_pattern (filter, "*.XML");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "All files");
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  if (dir != NULL && g_file_test (dir, G_FILE_TEST_IS_DIR))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), dir);
  g_signal_connect (dialog, "response", G_CALLBACK (on_manifest_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
open_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_show_open_dialog (ETL_WINDOW (user_data));
}

void
open_files_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_autofree const char **uris = g_variant_get_strv (param, NULL);

  open_uris (ETL_WINDOW (user_data), uris);
}

void
open_recent_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  g_autofree const char **uris = g_variant_get_strv (param, NULL);

  open_uris (ETL_WINDOW (user_data), uris);
}

void
open_demo_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_open_demo (ETL_WINDOW (user_data));
}

void
close_trace_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_close_trace (ETL_WINDOW (user_data));
}

void
cancel_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_window_cancel (ETL_WINDOW (user_data));
}

static char *
suggested_name (EtlWindow *self, const char *suffix)
{
  g_autofree char *base = g_path_get_basename (etl_trace_get_file_info (etl_document_get_trace (self->document), 0)->path);
  char *dot = strrchr (base, '.');

  if (dot != NULL)
    *dot = '\0';
  return g_strconcat (base, suffix, NULL);
}

typedef void (*SaveFunc) (EtlWindow *self, const char *path);

typedef struct
{
  EtlWindow *self;
  SaveFunc save;
} SaveRequest;

static void
on_save_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  SaveRequest *request = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = g_file_get_path (file);

      if (path != NULL)
        request->save (request->self, path);
    }
  g_object_unref (dialog);
  g_object_unref (request->self);
  g_free (request);
}

/* A save dialog named after the trace ("net-selection.etl"); @save gets the
 * chosen path.  @filters: name and pattern pairs, NULL-terminated. */
static void
ask_save_path (EtlWindow *self, const char *title, const char *suffix, const char *const *filters, SaveFunc save)
{
  GtkFileChooserNative *dialog;
  g_autofree char *name = NULL;
  SaveRequest *request;

  if (etl_document_get_trace (self->document) == NULL)
    return;
  dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE, "_Export", "_Cancel");
  gtk_file_chooser_set_do_overwrite_confirmation (GTK_FILE_CHOOSER (dialog), TRUE);
  for (guint i = 0; filters[i] != NULL && filters[i + 1] != NULL; i += 2)
    {
      GtkFileFilter *filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, filters[i]);
      gtk_file_filter_add_pattern (filter, filters[i + 1]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
    }
  name = suggested_name (self, suffix);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  request = g_new0 (SaveRequest, 1);
  request->self = g_object_ref (self);
  request->save = save;
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), request);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

void
export_selection_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  static const char *const filters[] = { "Event trace logs (*.etl)", "*.etl", NULL };

  ask_save_path (ETL_WINDOW (user_data), "Export Selection as .etl", "-selection.etl", filters,
                 etl_window_export_selection);
}

static void
save_image (EtlWindow *self, const char *path)
{
  g_autoptr (GError) error = NULL;

  if (!etl_window_export_image (self, path, &error))
    show_message (self, GTK_MESSAGE_ERROR, error->message);
}

void
export_image_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  static const char *const filters[] = {
    "PNG image (*.png)", "*.png",
    "SVG drawing (*.svg)", "*.svg",
    "PDF document (*.pdf)", "*.pdf",
    NULL
  };

  ask_save_path (ETL_WINDOW (user_data), "Export Timeline Image", "-timeline.png", filters, save_image);
}
