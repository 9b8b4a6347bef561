/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The View menu's actions (find, clear the filter, the session panel, the
 * primary menu), the actions' enabled states, and files dropped on the
 * window.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-filter-bar.h"
#include "etl-window-private.h"

/* ------------------------------------------------------------------------ */
/* Actions: View menu                                                        */
/* ------------------------------------------------------------------------ */

void
find_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  etl_filter_bar_focus (ETL_WINDOW (user_data)->filter_bar);
}

void
clear_filter_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);

  if (etl_document_get_n_conditions (self->document) > 0)
    {
      etl_document_clear_conditions (self->document);
      update_status (self);
    }
  etl_filter_bar_set_filter (self->filter_bar, NULL);
}

void
show_session_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  EtlWindow *self = user_data;

  gtk_widget_set_visible (GTK_WIDGET (self->session_box), g_variant_get_boolean (state));
  g_simple_action_set_state (action, state);
}

void
show_menu_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = user_data;

  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->menu_button),
                                !gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->menu_button)));
}

void
update_actions (EtlWindow *self)
{
  static const char *const need_trace[] = { "close-trace", "export-selection", "export-image", "find",
                                            "clear-filter", "go-to-time", "find-next", "find-previous",
                                            "add-marker", "zoom-to-data", "load-manifest",
                                            "stacks-summary" };
  gboolean busy = (etl_document_get_jobs (self->document) & (ETL_DOCUMENT_JOB_OPEN | ETL_DOCUMENT_JOB_EXPORT)) != 0;
  gboolean open = etl_document_get_trace (self->document) != NULL;

  for (guint i = 0; i < G_N_ELEMENTS (need_trace); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), need_trace[i]);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), open);
    }
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (self), "cancel")), busy);
  /* Zoom and lanes mean nothing on the start page. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->zoom_box), open);
  gtk_widget_set_sensitive (GTK_WIDGET (self->lane_box), open);
}

/* ------------------------------------------------------------------------ */
/* Drag and drop                                                            */
/* ------------------------------------------------------------------------ */

void
on_drag_data_received (GtkWidget *widget, GdkDragContext *context, int x, int y, GtkSelectionData *data,
                       guint info, guint time, EtlWindow *self)
{
  g_auto (GStrv) uris = gtk_selection_data_get_uris (data);

  if (uris != NULL && uris[0] != NULL)
    {
      open_uris (self, (const char *const *) uris);
      gtk_drag_finish (context, TRUE, FALSE, time);
    }
  else
    gtk_drag_finish (context, FALSE, FALSE, time);
}
