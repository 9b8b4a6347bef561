/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The File menu's actions (prefix "win"): open, open recent, the demo
 * trace, close, cancel, export, and loading event manifests (in a worker)
 * so that later opens decode with them too.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-window-private.h"
#include "etl-worker.h"

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

typedef struct
{
  EtlTrace *trace;
  char *path;
  EtlManifestInfo info;
} ManifestData;

static void
manifest_data_free (gpointer data)
{
  ManifestData *md = data;

  etl_trace_unref (md->trace);
  g_free (md->path);
  etl_manifest_info_clear (&md->info);
  g_free (md);
}

static void
manifest_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  ManifestData *md = task_data;
  GError *error = NULL;

  if (!etl_trace_load_manifest (md->trace, md->path, &md->info, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_manifest_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlWindow) self = user_data;
  ManifestData *md = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autofree char *base = g_path_get_basename (md->path);
  g_autofree char *message = NULL;
  guint64 selected;

  if (g_task_get_cancellable (G_TASK (result)) != self->manifest_cancellable)
    return;
  g_clear_object (&self->manifest_cancellable);
  update_status (self);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  if (!g_ptr_array_find_with_equal_func (self->manifests, md->path, g_str_equal, NULL))
    g_ptr_array_add (self->manifests, g_strdup (md->path));
  etl_details_add_manifest (self->details, md->path, md->info.provider_names);
  if (md->trace != self->trace)
    return;

  /* Names, processes and payloads read anew: the list's formatted rows,
   * the details, and a text filter that may match differently now. */
  etl_event_list_refresh (self->event_list);
  gtk_widget_queue_draw (GTK_WIDGET (self->timeline));
  selected = etl_event_list_get_selected_row (self->event_list);
  if (selected != ETL_EVENT_LIST_NO_ROW)
    etl_details_show_row (self->details, self->trace, selected);
  if (self->filter != NULL && self->filter->text != NULL && self->filter->text[0] != '\0')
    apply_filter (self);

  message = g_strdup_printf ("%s: %u event%s of %u provider%s described%s", base, md->info.n_events,
                             md->info.n_events == 1 ? "" : "s", md->info.n_providers,
                             md->info.n_providers == 1 ? "" : "s",
                             md->info.n_warnings > 0 ? " (with warnings)" : "");
  show_message (self, md->info.n_warnings > 0 ? GTK_MESSAGE_WARNING : GTK_MESSAGE_INFO, message);
}

/**
 * etl_window_load_manifest:
 * @self: a window
 * @path: an instrumentation manifest (.man or .xml)
 *
 * File ▸ Load Manifest…: registers the events @path describes with the
 * trace shown (etl_trace_load_manifest(), in a worker), then shows the new
 * names in the list, the details and the timeline's tooltips.  Traces
 * opened later in this window use the manifest too.  Errors go to the info
 * bar; see etl_window_get_busy().
 */
void
etl_window_load_manifest (EtlWindow *self, const char *path)
{
  g_autoptr (GTask) task = NULL;
  ManifestData *md;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (path != NULL);

  if (self->trace == NULL)
    {
      /* Nothing open: the next trace opened gets it. */
      if (!g_ptr_array_find_with_equal_func (self->manifests, path, g_str_equal, NULL))
        g_ptr_array_add (self->manifests, g_strdup (path));
      return;
    }
  if (self->manifest_cancellable != NULL)
    g_cancellable_cancel (self->manifest_cancellable);
  g_clear_object (&self->manifest_cancellable);
  self->manifest_cancellable = g_cancellable_new ();
  md = g_new0 (ManifestData, 1);
  md->trace = etl_trace_ref (self->trace);
  md->path = g_strdup (path);
  task = g_task_new (NULL, self->manifest_cancellable, on_manifest_done, g_object_ref (self));
  g_task_set_source_tag (task, etl_window_load_manifest);
  g_task_set_task_data (task, md, manifest_data_free);
  etl_worker_run (task, manifest_thread);
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
  g_autofree char *base = g_path_get_basename (etl_trace_get_file_info (self->trace, 0)->path);
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

  if (self->trace == NULL)
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
