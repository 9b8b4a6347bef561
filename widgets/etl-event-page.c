/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-event-page
 * @title: EtlEventPage
 * @short_description: the rows of an event model that are on screen
 *
 * A flat #GtkTreeModel of a few rows: a window [offset, offset + n) over the
 * positions of an #EtlEventModel.  The event list's #GtkTreeView shows this
 * model, not the whole row set: gtk_tree_view_set_model() walks every row of
 * its model on the main thread and keeps a tree node per row, which on a
 * 16-million-row trace stalled the window for seconds and cost ~48 bytes a
 * row.  The list's own scrollbar moves the window (etl_event_page_set_window());
 * the page then tells the view which of its rows changed (row-changed for the
 * rows it keeps, row-inserted / row-deleted at the end when its length
 * changes), so the view redraws a page, never the row set.
 *
 * Values are the #EtlEventModel's (etl_event_model_get_value_at()), whose
 * cache of formatted rows is shared by every window over it.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-event-page.h"

struct _EtlEventPage
{
  GObject parent_instance;

  EtlEventModel *model;
  guint64 offset;
  guint n_rows;
  int stamp;
  guint64 n_calls;
};

static void etl_event_page_tree_model_init (GtkTreeModelIface *iface);

G_DEFINE_TYPE_WITH_CODE (EtlEventPage, etl_event_page, G_TYPE_OBJECT,
                         G_IMPLEMENT_INTERFACE (GTK_TYPE_TREE_MODEL, etl_event_page_tree_model_init))

/* GtkTreeModel ----------------------------------------------------------- */

static GtkTreeModelFlags
page_get_flags (GtkTreeModel *model)
{
  return GTK_TREE_MODEL_LIST_ONLY | GTK_TREE_MODEL_ITERS_PERSIST;
}

static int
page_get_n_columns (GtkTreeModel *model)
{
  return ETL_EVENT_MODEL_N_COLUMNS;
}

static GType
page_get_column_type (GtkTreeModel *model, int column)
{
  g_return_val_if_fail (column >= 0 && column < ETL_EVENT_MODEL_N_COLUMNS, G_TYPE_INVALID);
  return column == ETL_EVENT_MODEL_COLUMN_ROW ? G_TYPE_UINT64 : G_TYPE_STRING;
}

static gboolean
set_iter (EtlEventPage *self, GtkTreeIter *iter, int index)
{
  self->n_calls++;
  if (index < 0 || (guint) index >= self->n_rows)
    {
      iter->stamp = 0;
      return FALSE;
    }
  iter->stamp = self->stamp;
  iter->user_data = GINT_TO_POINTER (index);
  iter->user_data2 = NULL;
  iter->user_data3 = NULL;
  return TRUE;
}

static int
iter_index (EtlEventPage *self, GtkTreeIter *iter)
{
  g_assert (iter->stamp == self->stamp);
  return GPOINTER_TO_INT (iter->user_data);
}

static gboolean
page_get_iter (GtkTreeModel *model, GtkTreeIter *iter, GtkTreePath *path)
{
  int depth = 0;
  int *indices = gtk_tree_path_get_indices_with_depth (path, &depth);

  if (depth != 1)
    {
      iter->stamp = 0;
      return FALSE;
    }
  return set_iter (ETL_EVENT_PAGE (model), iter, indices[0]);
}

static GtkTreePath *
page_get_path (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventPage *self = ETL_EVENT_PAGE (model);

  g_return_val_if_fail (iter->stamp == self->stamp, NULL);
  self->n_calls++;
  return gtk_tree_path_new_from_indices (iter_index (self, iter), -1);
}

static void
page_get_value (GtkTreeModel *model, GtkTreeIter *iter, int column, GValue *value)
{
  EtlEventPage *self = ETL_EVENT_PAGE (model);

  g_return_if_fail (iter->stamp == self->stamp);
  self->n_calls++;
  etl_event_model_get_value_at (self->model, self->offset + (guint64) iter_index (self, iter), column, value);
}

static gboolean
page_iter_next (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventPage *self = ETL_EVENT_PAGE (model);

  g_return_val_if_fail (iter->stamp == self->stamp, FALSE);
  return set_iter (self, iter, iter_index (self, iter) + 1);
}

static gboolean
page_iter_previous (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventPage *self = ETL_EVENT_PAGE (model);

  g_return_val_if_fail (iter->stamp == self->stamp, FALSE);
  return set_iter (self, iter, iter_index (self, iter) - 1);
}

static gboolean
page_iter_children (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *parent)
{
  if (parent != NULL)
    {
      iter->stamp = 0;
      return FALSE;
    }
  return set_iter (ETL_EVENT_PAGE (model), iter, 0);
}

static gboolean
page_iter_has_child (GtkTreeModel *model, GtkTreeIter *iter)
{
  return FALSE;
}

static int
page_iter_n_children (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlEventPage *self = ETL_EVENT_PAGE (model);

  self->n_calls++;
  return iter == NULL ? (int) self->n_rows : 0;
}

static gboolean
page_iter_nth_child (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *parent, int n)
{
  if (parent != NULL)
    {
      iter->stamp = 0;
      return FALSE;
    }
  return set_iter (ETL_EVENT_PAGE (model), iter, n);
}

static gboolean
page_iter_parent (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *child)
{
  iter->stamp = 0;
  return FALSE;
}

static void
etl_event_page_tree_model_init (GtkTreeModelIface *iface)
{
  iface->get_flags = page_get_flags;
  iface->get_n_columns = page_get_n_columns;
  iface->get_column_type = page_get_column_type;
  iface->get_iter = page_get_iter;
  iface->get_path = page_get_path;
  iface->get_value = page_get_value;
  iface->iter_next = page_iter_next;
  iface->iter_previous = page_iter_previous;
  iface->iter_children = page_iter_children;
  iface->iter_has_child = page_iter_has_child;
  iface->iter_n_children = page_iter_n_children;
  iface->iter_nth_child = page_iter_nth_child;
  iface->iter_parent = page_iter_parent;
}

/* GObject ---------------------------------------------------------------- */

static void
etl_event_page_finalize (GObject *object)
{
  EtlEventPage *self = ETL_EVENT_PAGE (object);

  g_clear_object (&self->model);
  G_OBJECT_CLASS (etl_event_page_parent_class)->finalize (object);
}

static void
etl_event_page_class_init (EtlEventPageClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = etl_event_page_finalize;
}

static void
etl_event_page_init (EtlEventPage *self)
{
  do
    self->stamp = g_random_int ();
  while (self->stamp == 0);
}

/* Makes the page show @n_rows rows from @offset (both already clamped),
 * telling the views: the first rows changed (@changed), the length grew or
 * shrank at the end. */
static void
update (EtlEventPage *self, guint64 offset, guint n_rows, gboolean changed)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self);
  guint old = self->n_rows;
  GtkTreeIter iter;

  self->offset = offset;
  if (changed)
    for (guint i = 0; i < MIN (old, n_rows); i++)
      {
        g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) i, -1);

        set_iter (self, &iter, (int) i);
        gtk_tree_model_row_changed (model, path, &iter);
      }
  /* Shrinking: rows leave from the end, the last first. */
  while (self->n_rows > n_rows)
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) self->n_rows - 1, -1);

      self->n_rows--;
      gtk_tree_model_row_deleted (model, path);
    }
  while (self->n_rows < n_rows)
    {
      g_autoptr (GtkTreePath) path = gtk_tree_path_new_from_indices ((int) self->n_rows, -1);

      self->n_rows++;
      set_iter (self, &iter, (int) self->n_rows - 1);
      gtk_tree_model_row_inserted (model, path, &iter);
    }
}

/* The window (@offset, @n_rows) clamped to the model's rows. */
static void
clamp_window (EtlEventPage *self, guint64 *offset, guint *n_rows)
{
  guint64 n = self->model != NULL ? etl_event_model_get_n_rows (self->model) : 0;

  *offset = MIN (*offset, n);
  *n_rows = (guint) MIN ((guint64) *n_rows, n - *offset);
}

/**
 * etl_event_page_new:
 *
 * Returns: (transfer full): an empty page (no model, no rows)
 */
EtlEventPage *
etl_event_page_new (void)
{
  return g_object_new (ETL_TYPE_EVENT_PAGE, NULL);
}

/**
 * etl_event_page_set_model:
 * @self: a page
 * @model: (nullable): the rows to show a window of
 *
 * Shows the same window (offset and length, clamped to @model's rows) of
 * @model.  Costs the rows of the page, whatever the size of @model.
 */
void
etl_event_page_set_model (EtlEventPage *self, EtlEventModel *model)
{
  guint64 offset;
  guint n_rows;

  g_return_if_fail (ETL_IS_EVENT_PAGE (self));
  g_return_if_fail (model == NULL || ETL_IS_EVENT_MODEL (model));

  g_set_object (&self->model, model);
  offset = self->offset;
  n_rows = self->n_rows;
  clamp_window (self, &offset, &n_rows);
  update (self, offset, n_rows, TRUE);
}

/**
 * etl_event_page_get_model:
 * @self: a page
 *
 * Returns: (transfer none) (nullable): the model the page is a window of
 */
EtlEventModel *
etl_event_page_get_model (EtlEventPage *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_PAGE (self), NULL);
  return self->model;
}

/**
 * etl_event_page_set_window:
 * @self: a page
 * @offset: the model position of the page's first row
 * @n_rows: rows in the page (fewer near the end of the model)
 *
 * Moves or resizes the window.  Views get row-changed for the rows kept when
 * @offset moved, and row-inserted / row-deleted at the end when the length
 * changed.
 */
void
etl_event_page_set_window (EtlEventPage *self, guint64 offset, guint n_rows)
{
  g_return_if_fail (ETL_IS_EVENT_PAGE (self));

  clamp_window (self, &offset, &n_rows);
  if (offset == self->offset && n_rows == self->n_rows)
    return;
  update (self, offset, n_rows, offset != self->offset);
}

/**
 * etl_event_page_refresh:
 * @self: a page
 *
 * Tells the views that every row of the page changed (the model's order or
 * its formatting changed).
 */
void
etl_event_page_refresh (EtlEventPage *self)
{
  guint64 offset;
  guint n_rows;

  g_return_if_fail (ETL_IS_EVENT_PAGE (self));
  offset = self->offset;
  n_rows = self->n_rows;
  clamp_window (self, &offset, &n_rows);
  update (self, offset, n_rows, TRUE);
}

/**
 * etl_event_page_get_offset:
 * @self: a page
 *
 * Returns: the model position of the page's first row
 */
guint64
etl_event_page_get_offset (EtlEventPage *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_PAGE (self), 0);
  return self->offset;
}

/**
 * etl_event_page_get_n_rows:
 * @self: a page
 *
 * Returns: rows in the page
 */
guint
etl_event_page_get_n_rows (EtlEventPage *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_PAGE (self), 0);
  return self->n_rows;
}

/**
 * etl_event_page_get_n_calls:
 * @self: a page
 *
 * Returns: #GtkTreeModel calls answered so far (iterators made, values
 *   read), for tests: showing a row set costs calls per row on screen, not
 *   per row of the set
 */
guint64
etl_event_page_get_n_calls (EtlEventPage *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_PAGE (self), 0);
  return self->n_calls;
}
