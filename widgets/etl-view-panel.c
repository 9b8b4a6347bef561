/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-view-panel
 * @title: EtlViewPanel
 * @short_description: the bottom panel of the trace area, one tab per view
 *
 * A #GtkNotebook of the views of a trace — Events (the filter bar, the event
 * list and the details beside it), Summary, and the analyses that come with
 * their own tab — under the time ruler and the lanes, as Perfetto keeps its
 * tracks above a panel of tabs and WPA its graph above its table.  Each page
 * has an id ("events", "summary", …) under which it is added, found, shown
 * and remembered (#EtlViewPanel:view, the window's state.ini); adding a view
 * is one call, etl_view_panel_add_view().  The tabs are in the order added;
 * the window's Alt+1…9 show them by position (etl_view_panel_show_nth()),
 * and Ctrl+Page Up / Page Down step through them as in any notebook.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-view-panel.h"

#define PAGE_ID_KEY "etl-view-panel-id"

struct _EtlViewPanel
{
  GtkNotebook parent_instance;
};

G_DEFINE_FINAL_TYPE (EtlViewPanel, etl_view_panel, GTK_TYPE_NOTEBOOK)

enum
{
  PROP_0,
  PROP_VIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
page_id (GtkWidget *page)
{
  return page != NULL ? g_object_get_data (G_OBJECT (page), PAGE_ID_KEY) : NULL;
}

static void
etl_view_panel_switch_page (GtkNotebook *notebook, GtkWidget *page, guint page_num)
{
  GTK_NOTEBOOK_CLASS (etl_view_panel_parent_class)->switch_page (notebook, page, page_num);
  g_object_notify_by_pspec (G_OBJECT (notebook), properties[PROP_VIEW]);
}

static void
etl_view_panel_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlViewPanel *self = ETL_VIEW_PANEL (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      g_value_set_string (value, etl_view_panel_get_view (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_view_panel_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  EtlViewPanel *self = ETL_VIEW_PANEL (object);

  switch (prop_id)
    {
    case PROP_VIEW:
      etl_view_panel_show_view (self, g_value_get_string (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_view_panel_class_init (EtlViewPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkNotebookClass *notebook_class = GTK_NOTEBOOK_CLASS (klass);

  object_class->get_property = etl_view_panel_get_property;
  object_class->set_property = etl_view_panel_set_property;
  notebook_class->switch_page = etl_view_panel_switch_page;

  /**
   * EtlViewPanel:view:
   *
   * The id of the view shown ("events", "summary", …), %NULL when the panel
   * is empty.  Setting an id no page has changes nothing.
   */
  properties[PROP_VIEW] = g_param_spec_string ("view", "View", "The id of the view shown", NULL,
                                               G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
etl_view_panel_init (EtlViewPanel *self)
{
  gtk_notebook_set_show_border (GTK_NOTEBOOK (self), FALSE);
  gtk_notebook_set_scrollable (GTK_NOTEBOOK (self), TRUE);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self)), "view-panel");
}

/**
 * etl_view_panel_new:
 *
 * Returns: (transfer floating): a new panel without views
 */
GtkWidget *
etl_view_panel_new (void)
{
  return g_object_new (ETL_TYPE_VIEW_PANEL, NULL);
}

/**
 * etl_view_panel_set_page_id:
 * @self: a panel
 * @page: one of its pages (one built from a template, say)
 * @id: the page's view id, unique in the panel
 *
 * Names a page added without etl_view_panel_add_view().
 */
void
etl_view_panel_set_page_id (EtlViewPanel *self, GtkWidget *page, const char *id)
{
  g_return_if_fail (ETL_IS_VIEW_PANEL (self));
  g_return_if_fail (GTK_IS_WIDGET (page));
  g_return_if_fail (gtk_notebook_page_num (GTK_NOTEBOOK (self), page) >= 0);
  g_return_if_fail (id != NULL);

  g_object_set_data_full (G_OBJECT (page), PAGE_ID_KEY, g_strdup (id), g_free);
}

/**
 * etl_view_panel_add_view:
 * @self: a panel
 * @id: the view's id (kept in state.ini, e.g. "summary"), unique in the panel
 * @title: the tab's text, e.g. "Summary"
 * @widget: (transfer floating): the page; shown
 *
 * Adds a view as the last tab.
 *
 * Returns: the page's position (0 = first tab), or -1 when @id is taken
 */
int
etl_view_panel_add_view (EtlViewPanel *self, const char *id, const char *title, GtkWidget *widget)
{
  GtkWidget *label;
  int n;

  g_return_val_if_fail (ETL_IS_VIEW_PANEL (self), -1);
  g_return_val_if_fail (id != NULL && title != NULL, -1);
  g_return_val_if_fail (GTK_IS_WIDGET (widget), -1);

  if (etl_view_panel_get_view_widget (self, id) != NULL)
    {
      g_critical ("etl_view_panel_add_view: a view \"%s\" is there already", id);
      g_object_ref_sink (widget);
      g_object_unref (widget);
      return -1;
    }
  label = gtk_label_new (title);
  gtk_widget_show (widget);
  n = gtk_notebook_append_page (GTK_NOTEBOOK (self), widget, label);
  g_object_set_data_full (G_OBJECT (widget), PAGE_ID_KEY, g_strdup (id), g_free);
  return n;
}

/**
 * etl_view_panel_get_view_widget:
 * @self: a panel
 * @id: a view id
 *
 * Returns: (transfer none) (nullable): the page of view @id
 */
GtkWidget *
etl_view_panel_get_view_widget (EtlViewPanel *self, const char *id)
{
  int n;

  g_return_val_if_fail (ETL_IS_VIEW_PANEL (self), NULL);

  n = gtk_notebook_get_n_pages (GTK_NOTEBOOK (self));
  for (int i = 0; id != NULL && i < n; i++)
    {
      GtkWidget *page = gtk_notebook_get_nth_page (GTK_NOTEBOOK (self), i);

      if (g_strcmp0 (page_id (page), id) == 0)
        return page;
    }
  return NULL;
}

/**
 * etl_view_panel_show_view:
 * @self: a panel
 * @id: a view id
 *
 * Shows view @id's tab.
 *
 * Returns: %FALSE when no page has that id (nothing changes)
 */
gboolean
etl_view_panel_show_view (EtlViewPanel *self, const char *id)
{
  GtkWidget *page;

  g_return_val_if_fail (ETL_IS_VIEW_PANEL (self), FALSE);

  page = etl_view_panel_get_view_widget (self, id);
  if (page == NULL)
    return FALSE;
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self), gtk_notebook_page_num (GTK_NOTEBOOK (self), page));
  return TRUE;
}

/**
 * etl_view_panel_show_nth:
 * @self: a panel
 * @n: a tab's position, 1 = the first (as Alt+1)
 *
 * Returns: %FALSE when there is no such tab (nothing changes)
 */
gboolean
etl_view_panel_show_nth (EtlViewPanel *self, guint n)
{
  g_return_val_if_fail (ETL_IS_VIEW_PANEL (self), FALSE);

  if (n == 0 || n > (guint) gtk_notebook_get_n_pages (GTK_NOTEBOOK (self)))
    return FALSE;
  gtk_notebook_set_current_page (GTK_NOTEBOOK (self), (int) n - 1);
  return TRUE;
}

/**
 * etl_view_panel_get_view:
 * @self: a panel
 *
 * Returns: (nullable): the id of the view shown
 */
const char *
etl_view_panel_get_view (EtlViewPanel *self)
{
  GtkNotebook *notebook;

  g_return_val_if_fail (ETL_IS_VIEW_PANEL (self), NULL);

  notebook = GTK_NOTEBOOK (self);
  return page_id (gtk_notebook_get_nth_page (notebook, gtk_notebook_get_current_page (notebook)));
}

/**
 * etl_view_panel_get_n_views:
 * @self: a panel
 *
 * Returns: the number of tabs
 */
guint
etl_view_panel_get_n_views (EtlViewPanel *self)
{
  g_return_val_if_fail (ETL_IS_VIEW_PANEL (self), 0);
  return (guint) gtk_notebook_get_n_pages (GTK_NOTEBOOK (self));
}
