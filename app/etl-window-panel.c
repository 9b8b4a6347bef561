/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * The window's bottom panel (#EtlViewPanel): the tabs of the views (Events,
 * Summary, and those added with etl_window_add_view_tab()), its height
 * against the lanes above (the trace paned's handle), maximised (the lanes
 * hidden, Ctrl+Shift+M) or not, and the details pane right of the event
 * list in the Events tab, shown only while an event is selected (Alt+Return
 * hides it for good).  Their state is kept in state.ini's [panel] group:
 * tab, height, maximized, details-visible, details-width.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-view-panel.h"
#include "etl-window-private.h"

static gboolean
action_state_bool (EtlWindow *self, const char *name)
{
  g_autoptr (GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (self), name);

  return state != NULL && g_variant_get_boolean (state);
}

static gboolean
panel_maximized (EtlWindow *self)
{
  return !gtk_widget_get_visible (GTK_WIDGET (self->timeline_box));
}

/* The first height of the panel in a trace area @total pixels high: 400 px
 * (the list's 13 rows at 1366×768, issue 18) or 48 % where that is more
 * (15 rows at 1600×1000, the lanes, loss plot and CPU graph the rest), but
 * never more than 70 % of a small window. */
#define PANEL_MAX_SHARE 70

static int
default_panel_height (int total)
{
  return MIN (MAX (400, total * 48 / 100), total * PANEL_MAX_SHARE / 100);
}

/* Puts the trace paned's handle @height pixels above its bottom.  GtkPaned
 * keeps the top's minimum height (shrink False) whatever is asked. */
static void
apply_panel_height (EtlWindow *self, int height)
{
  int total = gtk_widget_get_allocated_height (GTK_WIDGET (self->trace_paned));

  self->panel_height = height;
  if (total > 1 && !panel_maximized (self))
    {
      gtk_paned_set_position (self->trace_paned, MAX (total - MAX (self->handle_size, 0) - height, 0));
      /* Set again once the handle's size is known. */
      self->panel_pending = self->handle_size < 0;
    }
}

void
on_trace_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlWindow *self)
{
  GtkWidget *top = GTK_WIDGET (self->timeline_box), *panel = GTK_WIDGET (self->view_panel);

  /* The handle, from the children's allocations (its CSS size). */
  if (!panel_maximized (self) && gtk_widget_get_visible (panel))
    {
      self->handle_size = MAX (allocation->height - gtk_widget_get_allocated_height (top)
                               - gtk_widget_get_allocated_height (panel), 0);
      if (self->panel_pending)
        apply_panel_height (self, self->panel_height);
    }
  /* The first allocation of a real size: the height left last time, or the
   * default; later the panel keeps its height (resize False) and the lanes
   * take what the window gains or loses. */
  if (self->panel_sized || allocation->height < 300)
    return;
  self->panel_sized = TRUE;
  if (self->panel_height <= 0)
    self->panel_height = default_panel_height (allocation->height);
  else
    /* A height kept from a taller screen (or window) leaves the lanes
     * 30 % at least; the whole area is what maximise is for. */
    self->panel_height = MIN (self->panel_height, allocation->height * PANEL_MAX_SHARE / 100);
  apply_panel_height (self, self->panel_height);
}

static void
place_details (EtlWindow *self)
{
  int width = gtk_widget_get_allocated_width (GTK_WIDGET (self->events_paned));

  if (width <= 1)
    return;
  if (self->details_width <= 0)
    self->details_width = CLAMP (width * 42 / 100, 320, 640);
  gtk_paned_set_position (self->events_paned, MAX (width - self->details_width, 0));
}

/* The Events tab laid out for the first time with the details shown: their
 * width now. */
void
on_events_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlWindow *self)
{
  gboolean position_set = FALSE;

  if (!gtk_widget_get_visible (GTK_WIDGET (self->details)))
    return;
  g_object_get (paned, "position-set", &position_set, NULL);
  if (!position_set)
    place_details (self);
}

/* The details pane right of the list: shown while an event is selected and
 * the user has not hidden it (win.show-details); otherwise it takes no room
 * at all. */
static void
update_details_visible (EtlWindow *self)
{
  GtkWidget *details = GTK_WIDGET (self->details);
  gboolean want = action_state_bool (self, "show-details") && etl_details_get_has_event (self->details);

  if (want == gtk_widget_get_visible (details))
    return;
  if (!want)
    {
      if (gtk_widget_get_mapped (details))
        self->details_width = gtk_widget_get_allocated_width (details);
      gtk_widget_hide (details);
      return;
    }
  gtk_widget_show (details);
  place_details (self);
}

void
on_details_has_event (EtlDetails *details, GParamSpec *pspec, EtlWindow *self)
{
  update_details_visible (self);
}

void
show_details_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  EtlWindow *self = user_data;

  g_simple_action_set_state (action, state);
  update_details_visible (self);
}

void
maximize_panel_change_state (GSimpleAction *action, GVariant *state, gpointer user_data)
{
  EtlWindow *self = user_data;
  GtkWidget *top = GTK_WIDGET (self->timeline_box);
  gboolean maximize = g_variant_get_boolean (state);

  g_simple_action_set_state (action, state);
  if (maximize == panel_maximized (self))
    return;
  if (maximize)
    {
      GtkWidget *focus = gtk_window_get_focus (GTK_WINDOW (self));

      /* The height to come back to. */
      if (self->panel_sized && gtk_widget_get_mapped (GTK_WIDGET (self->view_panel)))
        self->panel_height = gtk_widget_get_allocated_height (GTK_WIDGET (self->view_panel));
      gtk_widget_hide (top);
      /* The focus was in the lanes: into the panel. */
      if (focus != NULL && gtk_widget_is_ancestor (focus, top))
        gtk_widget_child_focus (GTK_WIDGET (self->view_panel), GTK_DIR_TAB_FORWARD);
      return;
    }
  gtk_widget_show (top);
  if (self->panel_sized)
    apply_panel_height (self, self->panel_height);
}

/* Alt+1…9: the Nth tab, and the focus into it (the list for Events). */
void
show_view_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = user_data;
  GtkWidget *page;

  if (!etl_view_panel_show_nth (self->view_panel, (guint) MAX (g_variant_get_int32 (param), 0)))
    return;
  page = etl_view_panel_get_view_widget (self->view_panel, etl_view_panel_get_view (self->view_panel));
  if (page == GTK_WIDGET (self->events_paned))
    page = GTK_WIDGET (self->event_list);
  if (page != NULL && gtk_widget_get_mapped (page))
    gtk_widget_child_focus (page, GTK_DIR_TAB_FORWARD);
}

void
load_panel_state (EtlWindow *self, GKeyFile *kf)
{
  g_autofree char *tab = g_key_file_get_string (kf, "panel", "tab", NULL);
  int height = g_key_file_get_integer (kf, "panel", "height", NULL);
  int details_width = g_key_file_get_integer (kf, "panel", "details-width", NULL);

  if (tab != NULL)
    etl_view_panel_show_view (self->view_panel, tab);
  if (height > 0)
    self->panel_height = height;
  if (details_width > 0)
    self->details_width = details_width;
  if (g_key_file_has_key (kf, "panel", "details-visible", NULL))
    g_action_group_change_action_state (
        G_ACTION_GROUP (self), "show-details",
        g_variant_new_boolean (g_key_file_get_boolean (kf, "panel", "details-visible", NULL)));
  if (g_key_file_get_boolean (kf, "panel", "maximized", NULL))
    g_action_group_change_action_state (G_ACTION_GROUP (self), "maximize-panel", g_variant_new_boolean (TRUE));
}

void
save_panel_state (EtlWindow *self, GKeyFile *kf)
{
  const char *tab = etl_view_panel_get_view (self->view_panel);
  int height = etl_window_get_panel_height (self);
  int details_width = gtk_widget_get_mapped (GTK_WIDGET (self->details))
                          ? gtk_widget_get_allocated_width (GTK_WIDGET (self->details))
                          : self->details_width;

  if (tab != NULL)
    g_key_file_set_string (kf, "panel", "tab", tab);
  if (height > 0)
    g_key_file_set_integer (kf, "panel", "height", height);
  g_key_file_set_boolean (kf, "panel", "maximized", panel_maximized (self));
  g_key_file_set_boolean (kf, "panel", "details-visible", action_state_bool (self, "show-details"));
  if (details_width > 0)
    g_key_file_set_integer (kf, "panel", "details-width", details_width);
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */
/* ------------------------------------------------------------------------ */

/**
 * etl_window_add_view_tab:
 * @self: a window
 * @id: the view's id, kept in state.ini as the tab last shown (e.g.
 *   "cpu-precise"); unique among the tabs
 * @title: the tab's text (e.g. "CPU Usage (Precise)")
 * @widget: (transfer floating): the view
 *
 * Adds a view to the bottom panel as its last tab: Alt+N shows the Nth tab.
 * The window's own tabs are "events" (Alt+1), "summary" (Alt+2), "precise"
 * (Alt+3, CPU Usage (Precise)) and "regions" (Alt+4, Regions).
 */
void
etl_window_add_view_tab (EtlWindow *self, const char *id, const char *title, GtkWidget *widget)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  etl_view_panel_add_view (self->view_panel, id, title, widget);
}

/**
 * etl_window_show_view_tab:
 * @self: a window
 * @id: a view's id ("events", "summary", …)
 *
 * Returns: %FALSE when the panel has no such tab (nothing changes)
 */
gboolean
etl_window_show_view_tab (EtlWindow *self, const char *id)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return etl_view_panel_show_view (self->view_panel, id);
}

/**
 * etl_window_get_view_tab:
 * @self: a window
 *
 * Returns: (nullable): the id of the tab shown in the bottom panel
 */
const char *
etl_window_get_view_tab (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return etl_view_panel_get_view (self->view_panel);
}

/**
 * etl_window_get_view_panel:
 * @self: a window
 *
 * Returns: (transfer none): the bottom panel of tabs
 */
EtlViewPanel *
etl_window_get_view_panel (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->view_panel;
}

/**
 * etl_window_get_panel_height:
 * @self: a window
 *
 * Returns: the bottom panel's height in pixels, as laid out; while it is
 *   maximised or before it is shown, the height it returns to (0 when not
 *   known yet)
 */
int
etl_window_get_panel_height (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);

  if (self->panel_sized && !panel_maximized (self) && gtk_widget_get_mapped (GTK_WIDGET (self->view_panel)))
    return gtk_widget_get_allocated_height (GTK_WIDGET (self->view_panel));
  return self->panel_height;
}

/**
 * etl_window_set_panel_height:
 * @self: a window
 * @height: pixels
 *
 * Moves the handle between the lanes and the bottom panel so the panel is
 * @height pixels high (the lanes keep their minimum), as a drag would.
 */
void
etl_window_set_panel_height (EtlWindow *self, int height)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (height > 0);
  apply_panel_height (self, height);
}
