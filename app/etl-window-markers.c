/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Markers: named times shown on the ruler and in a list from the header
 * bar, kept per trace in g_get_user_config_dir()/etlscope/markers.ini.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>

#include "etl-event-list.h"
#include "etl-time-ruler.h"
#include "etl-window-private.h"

/* Markers ------------------------------------------------------------------ */

/* Markers are kept per trace in g_get_user_config_dir()/etlscope/markers.ini
 * (#GKeyFile, written atomically), never beside or inside the trace: one
 * group per trace, named by the SHA-256 of its files' paths and sizes, with
 * the paths for a reader, and two lists: FILETIMEs and names. */

void
window_marker_clear (gpointer data)
{
  g_free (((WindowMarker *) data)->name);
}

static char *
markers_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "etlscope", "markers.ini", NULL);
}

/* The group naming @trace: its files and their sizes. */
static char *
markers_group (EtlTrace *trace)
{
  g_autoptr (GString) key = g_string_new (NULL);

  for (guint f = 0; f < etl_trace_get_n_files (trace); f++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, f);

      g_string_append_printf (key, "%s\n%" G_GUINT64_FORMAT "\n", info->path, info->file_size);
    }
  return g_compute_checksum_for_string (G_CHECKSUM_SHA256, key->str, -1);
}

static gint
compare_markers (gconstpointer a, gconstpointer b)
{
  gint64 ta = ((const WindowMarker *) a)->filetime, tb = ((const WindowMarker *) b)->filetime;

  return ta < tb ? -1 : ta > tb;
}

void
on_marker_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self)
{
  int i = gtk_list_box_row_get_index (row);

  if (i >= 0 && (guint) i < self->markers->len && self->trace != NULL)
    {
      const WindowMarker *m = &g_array_index (self->markers, WindowMarker, i);

      select_everywhere (self, MIN (etl_trace_lower_bound (self->trace, m->filetime),
                                    etl_trace_get_n_records (self->trace) - 1));
      gtk_widget_hide (GTK_WIDGET (gtk_menu_button_get_popover (self->markers_button)));
    }
}

/* Shows the markers on the ruler and in the Markers list. */
void
show_markers (EtlWindow *self)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->markers_list));
  g_autofree gint64 *times = g_new (gint64, self->markers->len + 1);
  g_autofree const char **names = g_new (const char *, self->markers->len + 1);

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; i < self->markers->len; i++)
    {
      const WindowMarker *m = &g_array_index (self->markers, WindowMarker, i);
      g_autofree char *when = self->trace != NULL ? etl_time_format_span (m->filetime - etl_trace_get_origin (self->trace))
                                                  : g_strdup ("");
      g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>  <span alpha=\"60%%\">%s</span>", m->name, when);
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      g_object_set (label, "margin", 6, NULL);
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->markers_list), label);
      times[i] = m->filetime;
      names[i] = m->name;
    }
  if (self->markers->len == 0)
    {
      GtkWidget *label = gtk_label_new ("No markers yet: select an event and press Ctrl+M.");

      g_object_set (label, "margin", 8, NULL);
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->markers_list), label);
    }
  etl_time_ruler_set_markers (self->time_ruler, times, names, self->markers->len);
}

void
load_markers (EtlWindow *self)
{
  g_autofree char *path = markers_path ();
  g_autofree char *group = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_auto (GStrv) times = NULL;
  g_auto (GStrv) names = NULL;
  gsize n_times = 0, n_names = 0;

  g_array_set_size (self->markers, 0);
  if (self->trace != NULL && g_key_file_load_from_file (kf, path, G_KEY_FILE_NONE, NULL))
    {
      group = markers_group (self->trace);
      times = g_key_file_get_string_list (kf, group, "filetimes", &n_times, NULL);
      names = g_key_file_get_string_list (kf, group, "names", &n_names, NULL);
      for (gsize i = 0; i < MIN (n_times, n_names) && i < 10000; i++)
        {
          WindowMarker m = { g_ascii_strtoll (times[i], NULL, 10), g_strdup (names[i]) };

          g_array_append_val (self->markers, m);
        }
      g_array_sort (self->markers, compare_markers);
    }
  show_markers (self);
}

static gboolean
save_markers (EtlWindow *self, GError **error)
{
  g_autofree char *path = markers_path ();
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *group = NULL;
  g_autoptr (GKeyFile) kf = g_key_file_new ();
  g_autoptr (GPtrArray) times = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GString) files = g_string_new (NULL);

  if (self->trace == NULL)
    return TRUE;
  g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_COMMENTS, NULL);
  group = markers_group (self->trace);
  g_key_file_remove_group (kf, group, NULL);
  if (self->markers->len > 0)
    {
      for (guint i = 0; i < self->markers->len; i++)
        {
          const WindowMarker *m = &g_array_index (self->markers, WindowMarker, i);

          g_ptr_array_add (times, g_strdup_printf ("%" G_GINT64_FORMAT, m->filetime));
          g_ptr_array_add (names, m->name);
        }
      for (guint f = 0; f < etl_trace_get_n_files (self->trace); f++)
        g_string_append_printf (files, "%s%s", f > 0 ? " | " : "", etl_trace_get_file_info (self->trace, f)->path);
      g_key_file_set_string (kf, group, "files", files->str);
      g_key_file_set_string_list (kf, group, "filetimes", (const char *const *) times->pdata, times->len);
      g_key_file_set_string_list (kf, group, "names", (const char *const *) names->pdata, names->len);
    }
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return FALSE;
    }
  return g_key_file_save_to_file (kf, path, error);
}

/**
 * etl_window_add_marker:
 * @self: a window
 * @filetime: where, FILETIME
 * @name: the marker's name
 *
 * Adds a named marker, shows it on the ruler and in the Markers list, and
 * keeps it for this trace (g_get_user_config_dir()/etlscope/markers.ini).
 */
void
etl_window_add_marker (EtlWindow *self, gint64 filetime, const char *name)
{
  g_autoptr (GError) error = NULL;
  WindowMarker m;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (name != NULL);
  if (self->trace == NULL)
    return;
  m.filetime = filetime;
  m.name = g_strdup (name);
  g_array_append_val (self->markers, m);
  g_array_sort (self->markers, compare_markers);
  show_markers (self);
  if (!save_markers (self, &error))
    show_message (self, GTK_MESSAGE_WARNING, error->message);
}

/**
 * etl_window_get_n_markers:
 * @self: a window
 *
 * Returns: markers of the trace shown
 */
guint
etl_window_get_n_markers (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return self->markers->len;
}

/**
 * etl_window_get_marker:
 * @self: a window
 * @i: a marker, in time order
 * @filetime: (out) (optional): where it is
 *
 * Returns: (transfer none) (nullable): its name
 */
const char *
etl_window_get_marker (EtlWindow *self, guint i, gint64 *filetime)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  if (i >= self->markers->len)
    return NULL;
  if (filetime != NULL)
    *filetime = g_array_index (self->markers, WindowMarker, i).filetime;
  return g_array_index (self->markers, WindowMarker, i).name;
}

static void
on_marker_response (GtkDialog *dialog, int response, EtlWindow *self)
{
  if (response == GTK_RESPONSE_OK)
    {
      GtkEntry *entry = g_object_get_data (G_OBJECT (dialog), "entry");
      gint64 *at = g_object_get_data (G_OBJECT (dialog), "filetime");
      const char *name = gtk_entry_get_text (entry);

      etl_window_add_marker (self, *at, name[0] != '\0' ? name : "Marker");
    }
  gtk_widget_destroy (GTK_WIDGET (dialog));
}

void
add_marker_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);
  g_autofree char *name = NULL;
  guint64 row;
  gint64 *at;
  GtkWidget *dialog;

  if (self->trace == NULL)
    return;
  at = g_new (gint64, 1);
  row = selected_row (self);
  if (row != ETL_EVENT_LIST_NO_ROW && row < etl_trace_get_n_records (self->trace))
    *at = etl_trace_get_filetime (self->trace, row);
  else
    {
      gint64 b, e;

      etl_zoom_manager_get_visible (self->zoom_manager, &b, &e);
      *at = b + (e - b) / 2;
    }
  name = g_strdup_printf ("Marker %u", self->markers->len + 1);
  dialog = entry_dialog (self, "Add a Marker", "A name for the marker at the selected event:", name, "_Add",
                         G_CALLBACK (on_marker_response));
  g_object_set_data_full (G_OBJECT (dialog), "filetime", at, g_free);
}
