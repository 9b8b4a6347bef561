/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-precise-model
 * @title: EtlPreciseModel
 * @short_description: the CPU Usage (Precise) groups as a GtkTreeModel
 *
 * A read-only #GtkTreeModel over a tree of #EtlPreciseGroup (built in a
 * worker by etl_precise_groups_build()): the groups, and under each
 * innermost group its listed switch-ins and, when it has more, one "… N
 * more" row.  Nothing is copied: a regrouping makes a new model, and
 * setting it on the view costs the same for ten rows or a million.  (A
 * #GtkTreeStore copied every row's values on the main thread, about 2 µs a
 * row, and freed the previous table's there too.)  The table sorts it
 * through a #GtkTreeModelSort.
 *
 * An iter's user_data is the group; user_data2 is 0 on a group row, and
 * position + 1 on the rows under an innermost group.  The model never
 * changes, so iters persist.
 */

#include "config.h"

#include "etl-precise-model.h"

#include "etl-worker.h"

#include <string.h>

struct _EtlPreciseModel
{
  GObject parent_instance;

  EtlPreciseGroup *root; /* NULL: no rows */
  EtlThreadStates *states;
  gint64 origin;
  gint stamp;
  guint64 n_rows;
};

static void etl_precise_model_tree_model_init (GtkTreeModelIface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (EtlPreciseModel, etl_precise_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_TREE_MODEL, etl_precise_model_tree_model_init))

/* The rows under the innermost group @group: its switch-ins, and one for
 * the rest. */
static guint
n_leaf_rows (const EtlPreciseGroup *group)
{
  return group->leaves->len + (group->rest_count > 0 ? 1 : 0);
}

static gboolean
set_iter (EtlPreciseModel *self, GtkTreeIter *iter, EtlPreciseGroup *group, guint leaf)
{
  iter->stamp = self->stamp;
  iter->user_data = group;
  iter->user_data2 = GUINT_TO_POINTER (leaf);
  iter->user_data3 = NULL;
  return TRUE;
}

static gboolean
invalid (GtkTreeIter *iter)
{
  iter->stamp = 0;
  return FALSE;
}

static GtkTreeModelFlags
get_flags (GtkTreeModel *model)
{
  (void) model;
  return GTK_TREE_MODEL_ITERS_PERSIST;
}

static gint
get_n_columns (GtkTreeModel *model)
{
  (void) model;
  return ETL_PRECISE_VIEW_N_COLUMNS;
}

static GType
get_column_type (GtkTreeModel *model, gint column)
{
  static const GType types[ETL_PRECISE_VIEW_N_COLUMNS] = {
    [ETL_PRECISE_VIEW_COLUMN_LABEL] = G_TYPE_STRING,  [ETL_PRECISE_VIEW_COLUMN_COUNT] = G_TYPE_UINT64,
    [ETL_PRECISE_VIEW_COLUMN_READY] = G_TYPE_INT64,   [ETL_PRECISE_VIEW_COLUMN_WAITS] = G_TYPE_INT64,
    [ETL_PRECISE_VIEW_COLUMN_CPU_USAGE] = G_TYPE_INT64, [ETL_PRECISE_VIEW_COLUMN_SWITCH_IN] = G_TYPE_INT64,
    [ETL_PRECISE_VIEW_COLUMN_INDEX] = G_TYPE_UINT,
  };

  (void) model;
  g_return_val_if_fail (column >= 0 && column < ETL_PRECISE_VIEW_N_COLUMNS, G_TYPE_INVALID);
  return types[column];
}

static gboolean
iter_nth_child (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *parent, gint n)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (model);
  EtlPreciseGroup *group = parent != NULL ? parent->user_data : self->root;

  if (n < 0 || group == NULL || (parent != NULL && parent->user_data2 != NULL))
    return invalid (iter);
  if (group->children != NULL)
    return (guint) n < group->children->len ? set_iter (self, iter, g_ptr_array_index (group->children, n), 0)
                                            : invalid (iter);
  return (guint) n < n_leaf_rows (group) ? set_iter (self, iter, group, (guint) n + 1) : invalid (iter);
}

static gboolean
get_iter (GtkTreeModel *model, GtkTreeIter *iter, GtkTreePath *path)
{
  gint depth = 0;
  gint *indices = gtk_tree_path_get_indices_with_depth (path, &depth);
  GtkTreeIter parent;

  for (gint i = 0; i < depth; i++)
    {
      if (!iter_nth_child (model, iter, i > 0 ? &parent : NULL, indices[i]))
        return FALSE;
      parent = *iter;
    }
  return depth > 0;
}

static GtkTreePath *
get_path (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (model);
  GtkTreePath *path = gtk_tree_path_new ();
  guint leaf = GPOINTER_TO_UINT (iter->user_data2);

  g_return_val_if_fail (iter->stamp == self->stamp, path);
  if (leaf > 0)
    gtk_tree_path_prepend_index (path, (gint) leaf - 1);
  for (const EtlPreciseGroup *group = iter->user_data; group->parent != NULL; group = group->parent)
    gtk_tree_path_prepend_index (path, (gint) group->index);
  return path;
}

/**
 * etl_precise_model_get_row:
 * @self: a model
 * @iter: (not nullable): a row of it
 * @row: (out caller-allocates): its values; @row->label is NULL on a
 *   switch-in or "… N more" row, whose label get_value() makes
 *
 * Reads a row's numbers without #GValue copies, for the cells that
 * format them as they are drawn.
 *
 * Returns: whether @iter is a row of @self
 */
gboolean
etl_precise_model_get_row (EtlPreciseModel *self, GtkTreeIter *iter, EtlPreciseRow *row)
{
  const EtlPreciseGroup *group;
  guint leaf;

  g_return_val_if_fail (ETL_IS_PRECISE_MODEL (self), FALSE);
  g_return_val_if_fail (iter != NULL && iter->stamp == self->stamp, FALSE);
  group = iter->user_data;
  leaf = GPOINTER_TO_UINT (iter->user_data2);
  *row = (EtlPreciseRow){ group->label, group->count, group->ready, group->waits, group->cpu_usage, -1, G_MAXUINT };
  if (leaf > 0 && leaf - 1 < group->leaves->len)
    {
      guint n = 0;
      const EtlSwitchIn *rows = etl_thread_states_get_switch_ins (self->states, &n);
      guint index = g_array_index (group->leaves, guint, leaf - 1);
      const EtlSwitchIn *in;

      g_return_val_if_fail (index < n, FALSE);
      in = &rows[index];
      *row = (EtlPreciseRow){ NULL, 1, in->ready, in->waits, in->cpu_usage, in->switch_in - self->origin, index };
    }
  else if (leaf > 0)
    *row = (EtlPreciseRow){ NULL,         group->rest_count, group->rest_ready, group->rest_waits, group->rest_cpu_usage,
                            -1,           G_MAXUINT };
  return TRUE;
}

/* Writes @value's digits before @end; returns where they start. */
static char *
put_uint (char *end, guint32 value)
{
  do
    {
      *--end = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value > 0);
  return end;
}

/* "CPU n · Readying Thread Id n", or "CPU n" when no ReadyThread readied
 * it; built by hand, as every row drawn asks for it (printf would be a
 * third of a row's formatting). */
static char *
leaf_label (const EtlSwitchIn *in)
{
  static const char readying[] = " · Readying Thread Id ";
  char cpu[16], tid[16];
  char *c = put_uint (cpu + sizeof cpu, in->cpu);
  char *t = put_uint (tid + sizeof tid, in->readying_tid);
  gsize nc = (gsize) (cpu + sizeof cpu - c), nt = (gsize) (tid + sizeof tid - t);
  gboolean readied = in->readying_tid != ETL_THREAD_STATES_NO_ID;
  char *label = g_malloc (4 + nc + (readied ? sizeof readying - 1 + nt : 0) + 1);
  char *p = label;

  memcpy (p, "CPU ", 4);
  p += 4;
  memcpy (p, c, nc);
  p += nc;
  if (readied)
    {
      memcpy (p, readying, sizeof readying - 1);
      p += sizeof readying - 1;
      memcpy (p, t, nt);
      p += nt;
    }
  *p = '\0';
  return label;
}

static void
get_value (GtkTreeModel *model, GtkTreeIter *iter, gint column, GValue *value)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (model);
  EtlPreciseRow row;

  g_value_init (value, get_column_type (model, column));
  if (!etl_precise_model_get_row (self, iter, &row))
    return;
  switch (column)
    {
    case ETL_PRECISE_VIEW_COLUMN_LABEL:
      if (row.label != NULL)
        g_value_set_string (value, row.label);
      else if (row.index != G_MAXUINT)
        {
          guint n = 0;
          const EtlSwitchIn *in = &etl_thread_states_get_switch_ins (self->states, &n)[row.index];

          g_value_take_string (value, leaf_label (in));
        }
      else
        g_value_take_string (value, g_strdup_printf ("… %'" G_GUINT64_FORMAT " more (the %u longest Waits are shown)",
                                                     row.count, ETL_PRECISE_VIEW_MAX_LEAVES));
      break;
    case ETL_PRECISE_VIEW_COLUMN_COUNT:
      g_value_set_uint64 (value, row.count);
      break;
    case ETL_PRECISE_VIEW_COLUMN_READY:
      g_value_set_int64 (value, row.ready);
      break;
    case ETL_PRECISE_VIEW_COLUMN_WAITS:
      g_value_set_int64 (value, row.waits);
      break;
    case ETL_PRECISE_VIEW_COLUMN_CPU_USAGE:
      g_value_set_int64 (value, row.cpu_usage);
      break;
    case ETL_PRECISE_VIEW_COLUMN_SWITCH_IN:
      g_value_set_int64 (value, row.switch_in);
      break;
    case ETL_PRECISE_VIEW_COLUMN_INDEX:
    default:
      g_value_set_uint (value, row.index);
      break;
    }
}

static gboolean
iter_next (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (model);
  EtlPreciseGroup *group = iter->user_data;
  guint leaf = GPOINTER_TO_UINT (iter->user_data2);

  if (leaf > 0)
    return leaf < n_leaf_rows (group) ? set_iter (self, iter, group, leaf + 1) : invalid (iter);
  if (group->parent == NULL || group->index + 1 >= group->parent->children->len)
    return invalid (iter);
  return set_iter (self, iter, g_ptr_array_index (group->parent->children, group->index + 1), 0);
}

static gboolean
iter_previous (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (model);
  EtlPreciseGroup *group = iter->user_data;
  guint leaf = GPOINTER_TO_UINT (iter->user_data2);

  if (leaf > 0)
    return leaf > 1 ? set_iter (self, iter, group, leaf - 1) : invalid (iter);
  if (group->parent == NULL || group->index == 0)
    return invalid (iter);
  return set_iter (self, iter, g_ptr_array_index (group->parent->children, group->index - 1), 0);
}

static gboolean
iter_children (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *parent)
{
  return iter_nth_child (model, iter, parent, 0);
}

static gint
iter_n_children (GtkTreeModel *model, GtkTreeIter *iter)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (model);
  const EtlPreciseGroup *group = iter != NULL ? iter->user_data : self->root;

  if (group == NULL || (iter != NULL && iter->user_data2 != NULL))
    return 0;
  return (gint) (group->children != NULL ? group->children->len : n_leaf_rows (group));
}

static gboolean
iter_has_child (GtkTreeModel *model, GtkTreeIter *iter)
{
  return iter_n_children (model, iter) > 0;
}

static gboolean
iter_parent (GtkTreeModel *model, GtkTreeIter *iter, GtkTreeIter *child)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (model);
  EtlPreciseGroup *group = child->user_data;

  if (child->user_data2 != NULL)
    return set_iter (self, iter, group, 0);
  if (group->parent == NULL || group->parent == self->root)
    return invalid (iter);
  return set_iter (self, iter, group->parent, 0);
}

static void
etl_precise_model_tree_model_init (GtkTreeModelIface *iface)
{
  iface->get_flags = get_flags;
  iface->get_n_columns = get_n_columns;
  iface->get_column_type = get_column_type;
  iface->get_iter = get_iter;
  iface->get_path = get_path;
  iface->get_value = get_value;
  iface->iter_next = iter_next;
  iface->iter_previous = iter_previous;
  iface->iter_children = iter_children;
  iface->iter_has_child = iter_has_child;
  iface->iter_n_children = iter_n_children;
  iface->iter_nth_child = iter_nth_child;
  iface->iter_parent = iter_parent;
}

static void
etl_precise_model_finalize (GObject *object)
{
  EtlPreciseModel *self = ETL_PRECISE_MODEL (object);

  /* A big table's groups are freed beside the main loop. */
  if (self->root != NULL)
    etl_worker_free (self->root, (GDestroyNotify) etl_precise_group_free);
  g_clear_pointer (&self->states, etl_thread_states_unref);
  G_OBJECT_CLASS (etl_precise_model_parent_class)->finalize (object);
}

static void
etl_precise_model_class_init (EtlPreciseModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = etl_precise_model_finalize;
}

static void
etl_precise_model_init (EtlPreciseModel *self)
{
  self->stamp = (gint) g_random_int_range (1, G_MAXINT32);
}

static guint64
count_rows (const EtlPreciseGroup *group)
{
  guint64 n = 1;

  if (group->children == NULL)
    return n + n_leaf_rows (group);
  for (guint i = 0; i < group->children->len; i++)
    n += count_rows (g_ptr_array_index (group->children, i));
  return n;
}

/**
 * etl_precise_model_new:
 * @root: (transfer full) (nullable): the groups (etl_precise_groups_build());
 *   NULL for an empty table
 * @states: (nullable): the thread states the leaves index (needed when
 *   @root has any)
 * @origin: FILETIME the Switch-In Time column counts from
 *
 * Makes the table's model over @root, which it owns from now on and frees
 * in a worker (etl_worker_free()) when it goes.
 *
 * Returns: (transfer full): the model
 */
EtlPreciseModel *
etl_precise_model_new (EtlPreciseGroup *root, EtlThreadStates *states, gint64 origin)
{
  EtlPreciseModel *self = g_object_new (ETL_TYPE_PRECISE_MODEL, NULL);

  g_return_val_if_fail (root == NULL || states != NULL, self);
  self->root = root;
  self->states = states != NULL ? etl_thread_states_ref (states) : NULL;
  self->origin = origin;
  if (root != NULL)
    for (guint i = 0; i < root->children->len; i++)
      self->n_rows += count_rows (g_ptr_array_index (root->children, i));
  return self;
}

/**
 * etl_precise_model_get_n_rows:
 * @self: a model
 *
 * Returns: its rows, at every level, open or not
 */
guint64
etl_precise_model_get_n_rows (EtlPreciseModel *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_MODEL (self), 0);
  return self->n_rows;
}
