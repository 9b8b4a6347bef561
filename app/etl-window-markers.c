/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Markers: named times shown on the ruler and in a list from the header
 * bar, kept per trace in g_get_user_config_dir()/etlscope/markers.ini.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-event-list.h"
#include "etl-time-ruler.h"
#include "etl-window-private.h"

/* Markers are the window's #EtlDocument's: it keeps them per trace in
 * g_get_user_config_dir()/etlscope/markers.ini (its markers file, set in
 * setup_document()) and says when they change (markers-changed, which
 * calls show_markers()). */

void
on_marker_row_activated (GtkListBox *list, GtkListBoxRow *row, EtlWindow *self)
{
  EtlTrace *trace = etl_document_get_trace (self->document);
  int i = gtk_list_box_row_get_index (row);
  gint64 filetime;

  if (i >= 0 && trace != NULL && etl_document_get_marker (self->document, (guint) i, &filetime) != NULL)
    {
      select_everywhere (self, MIN (etl_trace_lower_bound (trace, filetime), etl_trace_get_n_records (trace) - 1));
      gtk_widget_hide (GTK_WIDGET (gtk_menu_button_get_popover (self->markers_button)));
    }
}

/* Shows the markers on the ruler and in the Markers list. */
void
show_markers (EtlWindow *self)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->markers_list));
  EtlTrace *trace = etl_document_get_trace (self->document);
  guint n = etl_document_get_n_markers (self->document);
  g_autofree gint64 *times = g_new (gint64, n + 1);
  g_autofree const char **names = g_new (const char *, n + 1);

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; i < n; i++)
    {
      gint64 filetime = 0;
      const char *name = etl_document_get_marker (self->document, i, &filetime);
      g_autofree char *when = trace != NULL ? etl_time_format_span (filetime - etl_trace_get_origin (trace))
                                            : g_strdup ("");
      g_autofree char *markup = g_markup_printf_escaped ("<b>%s</b>  <span alpha=\"60%%\">%s</span>", name, when);
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_markup (GTK_LABEL (label), markup);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      g_object_set (label, "margin", 6, NULL);
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->markers_list), label);
      times[i] = filetime;
      names[i] = name;
    }
  if (n == 0)
    {
      GtkWidget *label = gtk_label_new ("No markers yet: select an event and press Ctrl+M.");

      g_object_set (label, "margin", 8, NULL);
      gtk_widget_show (label);
      gtk_container_add (GTK_CONTAINER (self->markers_list), label);
    }
  etl_time_ruler_set_markers (self->time_ruler, times, names, n);
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

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (name != NULL);
  if (etl_document_get_trace (self->document) == NULL)
    return;
  if (!etl_document_add_marker (self->document, filetime, name, &error))
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
  return etl_document_get_n_markers (self->document);
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
  return etl_document_get_marker (self->document, i, filetime);
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
  EtlTrace *trace = etl_document_get_trace (self->document);
  g_autofree char *name = NULL;
  guint64 row;
  gint64 *at;
  GtkWidget *dialog;

  if (trace == NULL)
    return;
  at = g_new (gint64, 1);
  row = selected_row (self);
  if (row != ETL_EVENT_LIST_NO_ROW && row < etl_trace_get_n_records (trace))
    *at = etl_trace_get_filetime (trace, row);
  else
    {
      gint64 b, e;

      etl_zoom_manager_get_visible (self->zoom_manager, &b, &e);
      *at = b + (e - b) / 2;
    }
  name = g_strdup_printf ("Marker %u", etl_document_get_n_markers (self->document) + 1);
  dialog = entry_dialog (self, "Add a Marker", "A name for the marker at the selected event:", name, "_Add",
                         G_CALLBACK (on_marker_response));
  g_object_set_data_full (G_OBJECT (dialog), "filetime", at, g_free);
}
