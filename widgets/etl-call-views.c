/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-call-views
 * @title: EtlCallViews
 * @short_description: PerfView's By Name, Callers/Callees and Call Tree pages over weighted samples
 *
 * The controls bar of the stack viewer (this widget: "Group by module",
 * "Fold %", the include and exclude patterns with a Clear button) and the
 * three pages it drives (etl_call_views_get_page(), for the owner's
 * notebook, in PerfView's tab order): **By Name**, **Callers/Callees** of
 * the focus function and **Call Tree**, with PerfView's and WPA's columns
 * Name, Inc, Inc %, Exc, Exc %, First, Last (ms after the trace's start).
 *
 * Every change of samples or options computes a new #EtlCallTree in a
 * worker (etl_worker_run()); a result for older settings is dropped.  When a
 * result is shown, the "changed" signal tells the owner, which takes the
 * flame graph's tree of the same grouping, folding and filters with
 * etl_call_views_take_stack_tree().  The Call Tree's rows are made as they
 * are expanded (the heaviest path is expanded at once), so that a large
 * tree costs the main loop only what is on screen.
 *
 * A right click on a row offers "Callers/Callees", "Include only stacks
 * with NAME" and "Exclude stacks with NAME" (#EtlCallTreeOptions); a double
 * click focuses the row's function and shows its Callers/Callees, as in
 * PerfView.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-call-views.h"

#include "etl-flame-graph.h"
#include "etl-worker.h"

#define HOT_PATH_DEPTH 24
#define PLACEHOLDER G_MAXUINT

struct _EtlCallViews
{
  GtkBox parent_instance;

  EtlCallSamples *samples;
  gint64 origin;
  EtlStackTreeUnit unit;
  EtlCallTree *tree;
  EtlStackTree *stack_tree; /* until the owner takes it */
  char *focus;
  GPtrArray *include; /* char *, NULL-terminated */
  GPtrArray *exclude;
  gboolean group;
  double fold;

  GCancellable *cancellable;
  guint generation;
  gboolean busy;

  GtkListStore *lists[ETL_CALL_VIEWS_N_MODELS]; /* all but the call tree */
  GtkTreeStore *call_tree;
  GtkWidget *views[ETL_CALL_VIEWS_N_MODELS];
  GtkWidget *pages[ETL_CALL_VIEWS_N_PAGES];
  GtkWidget *group_check;
  GtkWidget *fold_spin;
  GtkWidget *filter_label;
  GtkWidget *clear_button;
  GtkLabel *callers_label;
  GtkLabel *callees_label;
};

G_DEFINE_TYPE (EtlCallViews, etl_call_views, GTK_TYPE_BOX)

enum
{
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The worker ---------------------------------------------------------------- */

typedef struct
{
  EtlCallSamples *samples;
  gboolean group;
  double fold;
  char **include;
  char **exclude;
} Job;

typedef struct
{
  EtlCallTree *tree;
  EtlStackTree *stack_tree;
} Result;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_call_samples_unref (job->samples);
  g_strfreev (job->include);
  g_strfreev (job->exclude);
  g_free (job);
}

static void
result_free (gpointer data)
{
  Result *r = data;

  etl_call_tree_free (r->tree);
  etl_stack_tree_free (r->stack_tree);
  g_free (r);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  EtlCallTreeOptions options = { job->group, job->fold, (const char *const *) job->include,
                                 (const char *const *) job->exclude };
  GError *error = NULL;
  EtlCallTree *tree = etl_call_tree_new (job->samples, &options, cancellable, &error);
  Result *r;

  if (tree == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  r = g_new0 (Result, 1);
  r->tree = tree;
  r->stack_tree = etl_call_tree_to_stack_tree (tree);
  g_task_return_pointer (task, r, result_free);
}

/* Filling the models ------------------------------------------------------- */

static double
percent (EtlCallViews *self, guint64 weight)
{
  guint64 total = self->tree != NULL ? etl_call_tree_get_total (self->tree) : 0;

  return total > 0 ? 100.0 * (double) weight / (double) total : 0.0;
}

static double
ms_after_origin (EtlCallViews *self, gint64 filetime)
{
  if (filetime == G_MAXINT64 || filetime == G_MININT64)
    return 0.0;
  return (double) (filetime - self->origin) / 10000.0;
}

static void
set_list_row (EtlCallViews *self, GtkListStore *store, const EtlCallFunction *f)
{
  gtk_list_store_insert_with_values (
      store, NULL, -1, ETL_CALL_VIEWS_COLUMN_NAME, f->name, ETL_CALL_VIEWS_COLUMN_INCLUSIVE, f->inclusive,
      ETL_CALL_VIEWS_COLUMN_INCLUSIVE_PERCENT, percent (self, f->inclusive), ETL_CALL_VIEWS_COLUMN_EXCLUSIVE,
      f->exclusive, ETL_CALL_VIEWS_COLUMN_EXCLUSIVE_PERCENT, percent (self, f->exclusive), ETL_CALL_VIEWS_COLUMN_FIRST,
      ms_after_origin (self, f->first), ETL_CALL_VIEWS_COLUMN_LAST, ms_after_origin (self, f->last),
      ETL_CALL_VIEWS_COLUMN_NODE, PLACEHOLDER, -1);
}

static void
append_node (EtlCallViews *self, GtkTreeIter *parent, guint node)
{
  const EtlCallNode *nodes;
  guint n;
  GtkTreeIter iter, dummy;

  nodes = etl_call_tree_get_nodes (self->tree, &n);
  gtk_tree_store_insert_with_values (
      self->call_tree, &iter, parent, -1, ETL_CALL_VIEWS_COLUMN_NAME, nodes[node].name,
      ETL_CALL_VIEWS_COLUMN_INCLUSIVE, nodes[node].inclusive, ETL_CALL_VIEWS_COLUMN_INCLUSIVE_PERCENT,
      percent (self, nodes[node].inclusive), ETL_CALL_VIEWS_COLUMN_EXCLUSIVE, nodes[node].exclusive,
      ETL_CALL_VIEWS_COLUMN_EXCLUSIVE_PERCENT, percent (self, nodes[node].exclusive), ETL_CALL_VIEWS_COLUMN_FIRST,
      ms_after_origin (self, nodes[node].first), ETL_CALL_VIEWS_COLUMN_LAST, ms_after_origin (self, nodes[node].last),
      ETL_CALL_VIEWS_COLUMN_NODE, node, -1);
  if (nodes[node].first_child != ETL_STACK_TREE_NONE) /* filled when expanded */
    gtk_tree_store_insert_with_values (self->call_tree, &dummy, &iter, -1, ETL_CALL_VIEWS_COLUMN_NAME, "…",
                                       ETL_CALL_VIEWS_COLUMN_NODE, PLACEHOLDER, -1);
}

/* Replaces @iter's placeholder with its callees. */
static void
fill_children (EtlCallViews *self, GtkTreeIter *iter)
{
  GtkTreeModel *model = GTK_TREE_MODEL (self->call_tree);
  GtkTreeIter child;
  guint node, first;
  const EtlCallNode *nodes;
  guint n;

  if (self->tree == NULL || !gtk_tree_model_iter_children (model, &child, iter))
    return;
  gtk_tree_model_get (model, &child, ETL_CALL_VIEWS_COLUMN_NODE, &first, -1);
  if (first != PLACEHOLDER)
    return;
  gtk_tree_model_get (model, iter, ETL_CALL_VIEWS_COLUMN_NODE, &node, -1);
  gtk_tree_store_remove (self->call_tree, &child);
  nodes = etl_call_tree_get_nodes (self->tree, &n);
  for (guint c = nodes[node].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
    append_node (self, iter, c);
}

static gboolean
on_test_expand_row (GtkTreeView *view, GtkTreeIter *iter, GtkTreePath *path, gpointer user_data)
{
  fill_children (ETL_CALL_VIEWS (user_data), iter);
  return FALSE;
}

/* Expands ROOT and then the heaviest callee while it holds half its
 * caller's weight: PerfView opens the hot path the same way. */
static void
expand_hot_path (EtlCallViews *self)
{
  GtkTreeView *view = GTK_TREE_VIEW (self->views[ETL_CALL_VIEWS_MODEL_CALL_TREE]);
  GtkTreeModel *model = GTK_TREE_MODEL (self->call_tree);
  g_autoptr (GtkTreePath) path = gtk_tree_path_new_first ();
  GtkTreeIter iter, child;
  guint64 inclusive, child_inclusive;

  for (guint depth = 0; depth < HOT_PATH_DEPTH; depth++)
    {
      if (!gtk_tree_model_get_iter (model, &iter, path))
        return;
      gtk_tree_view_expand_row (view, path, FALSE);
      gtk_tree_model_get (model, &iter, ETL_CALL_VIEWS_COLUMN_INCLUSIVE, &inclusive, -1);
      if (!gtk_tree_model_iter_children (model, &child, &iter))
        return;
      gtk_tree_model_get (model, &child, ETL_CALL_VIEWS_COLUMN_INCLUSIVE, &child_inclusive, -1);
      if (child_inclusive * 2 < inclusive)
        return;
      gtk_tree_path_down (path);
    }
}

static void
fill_butterfly (EtlCallViews *self)
{
  g_autoptr (EtlCallButterfly) b = NULL;
  g_autofree char *callers = NULL, *callees = NULL;

  gtk_list_store_clear (self->lists[ETL_CALL_VIEWS_MODEL_CALLERS]);
  gtk_list_store_clear (self->lists[ETL_CALL_VIEWS_MODEL_FOCUS]);
  gtk_list_store_clear (self->lists[ETL_CALL_VIEWS_MODEL_CALLEES]);
  if (self->tree != NULL && self->focus != NULL)
    b = etl_call_tree_butterfly (self->tree, self->focus);
  if (b == NULL)
    {
      gtk_label_set_text (self->callers_label, "Callers: double-click a row of By Name or Call Tree to choose a "
                                               "function");
      gtk_label_set_text (self->callees_label, "Callees");
      return;
    }
  for (guint i = 0; i < b->callers->len; i++)
    set_list_row (self, self->lists[ETL_CALL_VIEWS_MODEL_CALLERS], &g_array_index (b->callers, EtlCallFunction, i));
  set_list_row (self, self->lists[ETL_CALL_VIEWS_MODEL_FOCUS], &b->focus);
  for (guint i = 0; i < b->callees->len; i++)
    set_list_row (self, self->lists[ETL_CALL_VIEWS_MODEL_CALLEES], &g_array_index (b->callees, EtlCallFunction, i));
  callers = g_strdup_printf ("Callers of %s (of its deepest instance in each stack)", self->focus);
  callees = g_strdup_printf ("Callees of %s", self->focus);
  gtk_label_set_text (self->callers_label, callers);
  gtk_label_set_text (self->callees_label, callees);
}

static void
fill_all (EtlCallViews *self)
{
  const EtlCallFunction *rows;
  guint n = 0;

  gtk_list_store_clear (self->lists[ETL_CALL_VIEWS_MODEL_BY_NAME]);
  gtk_tree_store_clear (self->call_tree);
  if (self->tree == NULL)
    {
      fill_butterfly (self);
      return;
    }
  rows = etl_call_tree_get_by_name (self->tree, &n);
  for (guint i = 0; i < n; i++)
    set_list_row (self, self->lists[ETL_CALL_VIEWS_MODEL_BY_NAME], &rows[i]);
  append_node (self, NULL, 0);
  expand_hot_path (self);
  if (self->focus == NULL || etl_call_tree_find_function (self->tree, self->focus) == NULL)
    {
      g_free (self->focus);
      self->focus = n > 0 ? g_strdup (rows[0].name) : NULL;
    }
  fill_butterfly (self);
}

static void
on_computed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlCallViews *self = ETL_CALL_VIEWS (source);
  g_autoptr (GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (result), &error);

  if (GPOINTER_TO_UINT (user_data) != self->generation || self->call_tree == NULL)
    {
      if (r != NULL)
        result_free (r);
      return;
    }
  self->busy = FALSE;
  if (r == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("call tree: %s", error->message);
      return;
    }
  g_clear_pointer (&self->tree, etl_call_tree_free);
  g_clear_pointer (&self->stack_tree, etl_stack_tree_free);
  self->tree = g_steal_pointer (&r->tree);
  self->stack_tree = g_steal_pointer (&r->stack_tree);
  g_free (r);
  fill_all (self);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static char **
dup_patterns (GPtrArray *patterns)
{
  return g_strdupv ((char **) patterns->pdata);
}

static void
update_filter_label (EtlCallViews *self)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i + 1 < self->include->len; i++)
    g_string_append_printf (s, "%s+%s", s->len > 0 ? "  " : "", (const char *) g_ptr_array_index (self->include, i));
  for (guint i = 0; i + 1 < self->exclude->len; i++)
    g_string_append_printf (s, "%s−%s", s->len > 0 ? "  " : "", (const char *) g_ptr_array_index (self->exclude, i));
  gtk_label_set_text (GTK_LABEL (self->filter_label), s->len > 0 ? s->str : "no include/exclude (right-click a row)");
  gtk_widget_set_tooltip_text (self->filter_label, s->len > 0 ? s->str : NULL);
  gtk_widget_set_sensitive (self->clear_button, s->len > 0);
  g_string_free (s, TRUE);
}

/* Computes the views again for the current samples and options. */
static void
recompute (EtlCallViews *self)
{
  g_autoptr (GTask) task = NULL;
  Job *job;

  update_filter_label (self);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->generation++;
  if (self->samples == NULL)
    {
      /* Nothing to show (yet): empty pages, and no flame graph either. */
      self->busy = FALSE;
      g_clear_pointer (&self->tree, etl_call_tree_free);
      g_clear_pointer (&self->stack_tree, etl_stack_tree_free);
      fill_all (self);
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
      return;
    }
  self->cancellable = g_cancellable_new ();
  job = g_new0 (Job, 1);
  job->samples = etl_call_samples_ref (self->samples);
  job->group = self->group;
  job->fold = self->fold;
  job->include = dup_patterns (self->include);
  job->exclude = dup_patterns (self->exclude);
  self->busy = TRUE;
  task = g_task_new (self, self->cancellable, on_computed, GUINT_TO_POINTER (self->generation));
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, compute_thread);
}

/* Cells -------------------------------------------------------------------- */

static void
weight_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter, gpointer data)
{
  EtlCallViews *self = g_object_get_data (G_OBJECT (column), "etl-call-views");
  guint64 v;
  guint node;
  g_autofree char *text = NULL;

  gtk_tree_model_get (model, iter, GPOINTER_TO_INT (data), &v, ETL_CALL_VIEWS_COLUMN_NODE, &node, -1);
  if (node == PLACEHOLDER && GTK_IS_TREE_STORE (model))
    text = g_strdup ("");
  else if (self->unit == ETL_STACK_TREE_UNIT_TICKS)
    text = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, v);
  else
    text = g_strdup_printf ("%" G_GUINT64_FORMAT, v);
  g_object_set (cell, "text", text, NULL);
}

static void
double_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter, gpointer data)
{
  int col = GPOINTER_TO_INT (data);
  double v;
  guint node;
  char text[48];

  gtk_tree_model_get (model, iter, col, &v, ETL_CALL_VIEWS_COLUMN_NODE, &node, -1);
  if (node == PLACEHOLDER && GTK_IS_TREE_STORE (model))
    text[0] = '\0';
  else if (col == ETL_CALL_VIEWS_COLUMN_INCLUSIVE_PERCENT || col == ETL_CALL_VIEWS_COLUMN_EXCLUSIVE_PERCENT)
    g_snprintf (text, sizeof text, "%.1f", v);
  else
    g_snprintf (text, sizeof text, "%.3f", v);
  g_object_set (cell, "text", text, NULL);
}

static void
add_columns (EtlCallViews *self, GtkTreeView *view, gboolean sortable)
{
  static const struct
  {
    const char *title;
    const char *tooltip;
    int column;
  } columns[] = {
    { "Name", "The function (module!function), a module without symbols, or a pseudo-frame",
      ETL_CALL_VIEWS_COLUMN_NAME },
    { "Inc", "Inclusive: the weight of the samples with this frame anywhere in their stack (once a sample)",
      ETL_CALL_VIEWS_COLUMN_INCLUSIVE },
    { "Inc %", "Inclusive, % of the view's total", ETL_CALL_VIEWS_COLUMN_INCLUSIVE_PERCENT },
    { "Exc", "Exclusive: the weight of the samples that end in this frame", ETL_CALL_VIEWS_COLUMN_EXCLUSIVE },
    { "Exc %", "Exclusive, % of the view's total", ETL_CALL_VIEWS_COLUMN_EXCLUSIVE_PERCENT },
    { "First", "The first sample's time, ms after the trace's start", ETL_CALL_VIEWS_COLUMN_FIRST },
    { "Last", "The last sample's time, ms after the trace's start", ETL_CALL_VIEWS_COLUMN_LAST },
  };

  for (guint i = 0; i < G_N_ELEMENTS (columns); i++)
    {
      GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
      GtkTreeViewColumn *col = gtk_tree_view_column_new ();
      GtkWidget *header = gtk_label_new (columns[i].title);
      int c = columns[i].column;

      gtk_widget_set_tooltip_text (header, columns[i].tooltip);
      gtk_widget_show (header);
      gtk_tree_view_column_set_widget (col, header);
      gtk_tree_view_column_pack_start (col, cell, TRUE);
      g_object_set_data (G_OBJECT (col), "etl-call-views", self);
      if (c == ETL_CALL_VIEWS_COLUMN_NAME)
        {
          g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_MIDDLE, NULL);
          gtk_tree_view_column_add_attribute (col, cell, "text", c);
          gtk_tree_view_column_set_expand (col, TRUE);
          gtk_tree_view_column_set_min_width (col, 240);
        }
      else
        {
          /* Fixed widths: the Callers/Callees page's three tables line up. */
          gtk_tree_view_column_set_sizing (col, GTK_TREE_VIEW_COLUMN_FIXED);
          gtk_tree_view_column_set_fixed_width (col, c == ETL_CALL_VIEWS_COLUMN_INCLUSIVE_PERCENT
                                                             || c == ETL_CALL_VIEWS_COLUMN_EXCLUSIVE_PERCENT
                                                         ? 64
                                                         : 96);
          g_object_set (cell, "xalign", 1.0, NULL);
          gtk_tree_view_column_set_cell_data_func (col, cell,
                                                   c == ETL_CALL_VIEWS_COLUMN_INCLUSIVE
                                                           || c == ETL_CALL_VIEWS_COLUMN_EXCLUSIVE
                                                       ? weight_cell
                                                       : double_cell,
                                                   GINT_TO_POINTER (c), NULL);
        }
      gtk_tree_view_column_set_resizable (col, TRUE);
      if (sortable)
        gtk_tree_view_column_set_sort_column_id (col, c);
      gtk_tree_view_append_column (view, col);
    }
}

/* Rows: focus, context menu ------------------------------------------------ */

static char *
row_name (GtkTreeView *view, GtkTreePath *path)
{
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  GtkTreeIter iter;
  char *name = NULL;
  guint node = 0;

  if (!gtk_tree_model_get_iter (model, &iter, path))
    return NULL;
  gtk_tree_model_get (model, &iter, ETL_CALL_VIEWS_COLUMN_NAME, &name, ETL_CALL_VIEWS_COLUMN_NODE, &node, -1);
  if ((node == PLACEHOLDER && GTK_IS_TREE_STORE (model)) || g_strcmp0 (name, ETL_CALL_TREE_ROOT) == 0)
    g_clear_pointer (&name, g_free);
  return name;
}

static void
show_page (EtlCallViews *self, EtlCallViewsPage page)
{
  GtkWidget *parent = gtk_widget_get_parent (self->pages[page]);

  if (GTK_IS_NOTEBOOK (parent))
    gtk_notebook_set_current_page (GTK_NOTEBOOK (parent),
                                   gtk_notebook_page_num (GTK_NOTEBOOK (parent), self->pages[page]));
}

static void
on_row_activated (GtkTreeView *view, GtkTreePath *path, GtkTreeViewColumn *column, gpointer user_data)
{
  EtlCallViews *self = ETL_CALL_VIEWS (user_data);
  g_autofree char *name = row_name (view, path);

  if (name == NULL)
    return;
  etl_call_views_set_focus (self, name);
  show_page (self, ETL_CALL_VIEWS_PAGE_CALLERS_CALLEES);
}

static void
on_menu_focus (GtkMenuItem *item, gpointer user_data)
{
  EtlCallViews *self = ETL_CALL_VIEWS (user_data);

  etl_call_views_set_focus (self, g_object_get_data (G_OBJECT (item), "etl-name"));
  show_page (self, ETL_CALL_VIEWS_PAGE_CALLERS_CALLEES);
}

static void
on_menu_include (GtkMenuItem *item, gpointer user_data)
{
  etl_call_views_add_include (ETL_CALL_VIEWS (user_data), g_object_get_data (G_OBJECT (item), "etl-name"));
}

static void
on_menu_exclude (GtkMenuItem *item, gpointer user_data)
{
  etl_call_views_add_exclude (ETL_CALL_VIEWS (user_data), g_object_get_data (G_OBJECT (item), "etl-name"));
}

static void
menu_item (EtlCallViews *self, GtkWidget *menu, const char *label, const char *name, GCallback callback)
{
  GtkWidget *item = gtk_menu_item_new_with_label (label);

  g_object_set_data_full (G_OBJECT (item), "etl-name", g_strdup (name), g_free);
  g_signal_connect (item, "activate", callback, self);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
}

static gboolean
on_button_press (GtkWidget *widget, GdkEventButton *event, gpointer user_data)
{
  EtlCallViews *self = ETL_CALL_VIEWS (user_data);
  GtkTreeView *view = GTK_TREE_VIEW (widget);
  g_autoptr (GtkTreePath) path = NULL;
  g_autofree char *name = NULL, *focus = NULL, *include = NULL, *exclude = NULL;
  GtkWidget *menu;

  if (!gdk_event_triggers_context_menu ((GdkEvent *) event)
      || !gtk_tree_view_get_path_at_pos (view, (int) event->x, (int) event->y, &path, NULL, NULL, NULL))
    return FALSE;
  name = row_name (view, path);
  if (name == NULL)
    return FALSE;
  gtk_tree_selection_select_path (gtk_tree_view_get_selection (view), path);
  focus = g_strdup_printf ("Callers/Callees of %s", name);
  include = g_strdup_printf ("Include only stacks with %s", name);
  exclude = g_strdup_printf ("Exclude stacks with %s", name);
  menu = gtk_menu_new ();
  menu_item (self, menu, focus, name, G_CALLBACK (on_menu_focus));
  menu_item (self, menu, include, name, G_CALLBACK (on_menu_include));
  menu_item (self, menu, exclude, name, G_CALLBACK (on_menu_exclude));
  gtk_widget_show_all (menu);
  g_signal_connect (menu, "deactivate", G_CALLBACK (gtk_widget_destroy), NULL);
  gtk_menu_popup_at_pointer (GTK_MENU (menu), (GdkEvent *) event);
  return TRUE;
}

static GtkWidget *
new_view (EtlCallViews *self, EtlCallViewsModel which, GtkTreeModel *model, gboolean sortable)
{
  GtkWidget *view = gtk_tree_view_new_with_model (model);

  add_columns (self, GTK_TREE_VIEW (view), sortable);
  g_signal_connect (view, "row-activated", G_CALLBACK (on_row_activated), self);
  g_signal_connect (view, "button-press-event", G_CALLBACK (on_button_press), self);
  self->views[which] = view;
  return view;
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *s = gtk_scrolled_window_new (NULL, NULL);

  gtk_container_add (GTK_CONTAINER (s), child);
  gtk_widget_set_vexpand (s, TRUE);
  return s;
}

static GtkWidget *
heading (GtkLabel **label)
{
  GtkWidget *l = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (l), 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (l), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_margin_start (l, 6);
  gtk_widget_set_margin_top (l, 4);
  gtk_widget_set_margin_bottom (l, 2);
  *label = GTK_LABEL (l);
  return l;
}

/* Controls ------------------------------------------------------------------- */

static void
on_group_toggled (GtkToggleButton *button, gpointer user_data)
{
  etl_call_views_set_group_by_module (ETL_CALL_VIEWS (user_data), gtk_toggle_button_get_active (button));
}

static void
on_fold_changed (GtkSpinButton *spin, gpointer user_data)
{
  etl_call_views_set_fold_percent (ETL_CALL_VIEWS (user_data), gtk_spin_button_get_value (spin));
}

static void
on_clear (GtkButton *button, gpointer user_data)
{
  etl_call_views_clear_filters (ETL_CALL_VIEWS (user_data));
}

static void
etl_call_views_dispose (GObject *object)
{
  EtlCallViews *self = ETL_CALL_VIEWS (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  for (guint i = 0; i < ETL_CALL_VIEWS_N_PAGES; i++)
    g_clear_object (&self->pages[i]);
  for (guint i = 0; i < ETL_CALL_VIEWS_N_MODELS; i++)
    g_clear_object (&self->lists[i]);
  g_clear_object (&self->call_tree);
  g_clear_pointer (&self->samples, etl_call_samples_unref);
  g_clear_pointer (&self->tree, etl_call_tree_free);
  g_clear_pointer (&self->stack_tree, etl_stack_tree_free);
  G_OBJECT_CLASS (etl_call_views_parent_class)->dispose (object);
}

static void
etl_call_views_finalize (GObject *object)
{
  EtlCallViews *self = ETL_CALL_VIEWS (object);

  g_free (self->focus);
  g_ptr_array_unref (self->include);
  g_ptr_array_unref (self->exclude);
  G_OBJECT_CLASS (etl_call_views_parent_class)->finalize (object);
}

static void
etl_call_views_class_init (EtlCallViewsClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = etl_call_views_dispose;
  G_OBJECT_CLASS (klass)->finalize = etl_call_views_finalize;

  /**
   * EtlCallViews::changed:
   *
   * New views are shown (new samples or options); the flame graph's tree
   * of the same stacks is ready for etl_call_views_take_stack_tree().
   */
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
}

static GtkListStore *
new_list (void)
{
  return gtk_list_store_new (ETL_CALL_VIEWS_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_DOUBLE, G_TYPE_UINT64,
                             G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_UINT);
}

static void
etl_call_views_init (EtlCallViews *self)
{
  GtkWidget *fold_label = gtk_label_new ("Fold %");
  GtkWidget *box, *focus_view;

  self->include = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->include, NULL);
  self->exclude = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (self->exclude, NULL);
  for (guint i = 0; i < ETL_CALL_VIEWS_N_MODELS; i++)
    if (i != ETL_CALL_VIEWS_MODEL_CALL_TREE)
      self->lists[i] = new_list ();
  self->call_tree = gtk_tree_store_new (ETL_CALL_VIEWS_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_DOUBLE,
                                        G_TYPE_UINT64, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_UINT);

  /* The controls bar. */
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_HORIZONTAL);
  gtk_box_set_spacing (GTK_BOX (self), 8);
  self->group_check = gtk_check_button_new_with_label ("Group by module");
  gtk_widget_set_tooltip_text (self->group_check, "Every frame of a module as one node, module!* (PerfView's "
                                                  "module grouping)");
  g_signal_connect (self->group_check, "toggled", G_CALLBACK (on_group_toggled), self);
  self->fold_spin = gtk_spin_button_new_with_range (0.0, 100.0, 0.5);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (self->fold_spin), 1);
  gtk_widget_set_tooltip_text (self->fold_spin, "Fold away every function whose inclusive weight (By Name) is "
                                                "below this % of the total: its time goes to its caller");
  g_signal_connect (self->fold_spin, "value-changed", G_CALLBACK (on_fold_changed), self);
  self->filter_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->filter_label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (self->filter_label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->filter_label), 0.0);
  self->clear_button = gtk_button_new_with_label ("Clear include/exclude");
  g_signal_connect (self->clear_button, "clicked", G_CALLBACK (on_clear), self);
  gtk_container_add (GTK_CONTAINER (self), self->group_check);
  gtk_container_add (GTK_CONTAINER (self), fold_label);
  gtk_container_add (GTK_CONTAINER (self), self->fold_spin);
  gtk_container_add (GTK_CONTAINER (self), self->filter_label);
  gtk_container_add (GTK_CONTAINER (self), self->clear_button);
  gtk_widget_set_margin_start (GTK_WIDGET (self), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self), 6);
  update_filter_label (self);

  /* By Name. */
  self->pages[ETL_CALL_VIEWS_PAGE_BY_NAME] = g_object_ref_sink (scrolled (
      new_view (self, ETL_CALL_VIEWS_MODEL_BY_NAME, GTK_TREE_MODEL (self->lists[ETL_CALL_VIEWS_MODEL_BY_NAME]), TRUE)));

  /* Callers/Callees: callers above the focus, callees below (PerfView's
   * Caller-Callee grid). */
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_container_add (GTK_CONTAINER (box), heading (&self->callers_label));
  gtk_container_add (GTK_CONTAINER (box),
                     scrolled (new_view (self, ETL_CALL_VIEWS_MODEL_CALLERS,
                                         GTK_TREE_MODEL (self->lists[ETL_CALL_VIEWS_MODEL_CALLERS]), TRUE)));
  focus_view = new_view (self, ETL_CALL_VIEWS_MODEL_FOCUS, GTK_TREE_MODEL (self->lists[ETL_CALL_VIEWS_MODEL_FOCUS]),
                         FALSE);
  gtk_widget_set_margin_top (focus_view, 4);
  gtk_container_add (GTK_CONTAINER (box), focus_view);
  gtk_container_add (GTK_CONTAINER (box), heading (&self->callees_label));
  gtk_container_add (GTK_CONTAINER (box),
                     scrolled (new_view (self, ETL_CALL_VIEWS_MODEL_CALLEES,
                                         GTK_TREE_MODEL (self->lists[ETL_CALL_VIEWS_MODEL_CALLEES]), TRUE)));
  self->pages[ETL_CALL_VIEWS_PAGE_CALLERS_CALLEES] = g_object_ref_sink (box);

  /* Call Tree. */
  new_view (self, ETL_CALL_VIEWS_MODEL_CALL_TREE, GTK_TREE_MODEL (self->call_tree), FALSE);
  g_signal_connect (self->views[ETL_CALL_VIEWS_MODEL_CALL_TREE], "test-expand-row", G_CALLBACK (on_test_expand_row),
                    self);
  self->pages[ETL_CALL_VIEWS_PAGE_CALL_TREE] = g_object_ref_sink (scrolled (self->views[ETL_CALL_VIEWS_MODEL_CALL_TREE]));
  fill_butterfly (self);
  for (guint i = 0; i < ETL_CALL_VIEWS_N_PAGES; i++)
    gtk_widget_show_all (self->pages[i]);
}

/* API ------------------------------------------------------------------------ */

/**
 * etl_call_views_new:
 *
 * Returns: (transfer floating): the controls bar, its pages
 *   (etl_call_views_get_page()) empty until etl_call_views_set_samples()
 */
GtkWidget *
etl_call_views_new (void)
{
  return g_object_new (ETL_TYPE_CALL_VIEWS, NULL);
}

/**
 * etl_call_views_get_page:
 * @self: the views
 * @page: which
 *
 * Returns: (transfer none): the page, for the owner to add to its notebook
 */
GtkWidget *
etl_call_views_get_page (EtlCallViews *self, EtlCallViewsPage page)
{
  g_return_val_if_fail (ETL_IS_CALL_VIEWS (self) && page < ETL_CALL_VIEWS_N_PAGES, NULL);
  return self->pages[page];
}

/**
 * etl_call_views_set_samples:
 * @self: the views
 * @samples: (nullable) (transfer none): the samples (a reference is kept;
 *   they must not change any more), %NULL to empty the views
 * @origin_filetime: the FILETIME First and Last count from (the trace's
 *   first record)
 *
 * Shows @samples with the current options (computed in a worker).
 */
void
etl_call_views_set_samples (EtlCallViews *self, EtlCallSamples *samples, gint64 origin_filetime)
{
  g_return_if_fail (ETL_IS_CALL_VIEWS (self));

  if (samples != NULL)
    etl_call_samples_ref (samples);
  g_clear_pointer (&self->samples, etl_call_samples_unref);
  self->samples = samples;
  self->origin = origin_filetime;
  if (samples != NULL)
    self->unit = etl_call_samples_get_unit (samples);
  recompute (self);
}

/**
 * etl_call_views_set_group_by_module:
 * @self: the views
 * @group: %EtlCallTreeOptions.group_by_module
 */
void
etl_call_views_set_group_by_module (EtlCallViews *self, gboolean group)
{
  g_return_if_fail (ETL_IS_CALL_VIEWS (self));
  group = !!group;
  if (group == self->group)
    return;
  self->group = group;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->group_check), group);
  recompute (self);
}

/**
 * etl_call_views_set_fold_percent:
 * @self: the views
 * @percent: %EtlCallTreeOptions.fold_percent, 0 to 100
 */
void
etl_call_views_set_fold_percent (EtlCallViews *self, double percent)
{
  g_return_if_fail (ETL_IS_CALL_VIEWS (self));
  percent = CLAMP (percent, 0.0, 100.0);
  if (percent == self->fold)
    return;
  self->fold = percent;
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (self->fold_spin), percent);
  recompute (self);
}

static void
add_pattern (EtlCallViews *self, GPtrArray *patterns, const char *pattern)
{
  for (guint i = 0; i + 1 < patterns->len; i++)
    if (g_strcmp0 (g_ptr_array_index (patterns, i), pattern) == 0)
      return;
  g_ptr_array_insert (patterns, (gint) patterns->len - 1, g_strdup (pattern));
  recompute (self);
}

/**
 * etl_call_views_add_include:
 * @self: the views
 * @pattern: a frame name or glob (%EtlCallTreeOptions.include)
 *
 * Keeps only the stacks with a frame matching @pattern or one of the
 * patterns included before.
 */
void
etl_call_views_add_include (EtlCallViews *self, const char *pattern)
{
  g_return_if_fail (ETL_IS_CALL_VIEWS (self) && pattern != NULL);
  add_pattern (self, self->include, pattern);
}

/**
 * etl_call_views_add_exclude:
 * @self: the views
 * @pattern: a frame name or glob (%EtlCallTreeOptions.exclude)
 *
 * Drops the stacks with a frame matching @pattern.
 */
void
etl_call_views_add_exclude (EtlCallViews *self, const char *pattern)
{
  g_return_if_fail (ETL_IS_CALL_VIEWS (self) && pattern != NULL);
  add_pattern (self, self->exclude, pattern);
}

/**
 * etl_call_views_clear_filters:
 * @self: the views
 *
 * Forgets every include and exclude pattern.
 */
void
etl_call_views_clear_filters (EtlCallViews *self)
{
  g_return_if_fail (ETL_IS_CALL_VIEWS (self));
  if (self->include->len == 1 && self->exclude->len == 1)
    return;
  g_ptr_array_set_size (self->include, 0);
  g_ptr_array_add (self->include, NULL);
  g_ptr_array_set_size (self->exclude, 0);
  g_ptr_array_add (self->exclude, NULL);
  recompute (self);
}

/**
 * etl_call_views_set_focus:
 * @self: the views
 * @name: a frame name of the views
 *
 * Shows the Callers/Callees of @name (computed at once: one pass over the
 * distinct stacks).
 */
void
etl_call_views_set_focus (EtlCallViews *self, const char *name)
{
  g_return_if_fail (ETL_IS_CALL_VIEWS (self) && name != NULL);
  g_free (self->focus);
  self->focus = g_strdup (name);
  fill_butterfly (self);
}

/**
 * etl_call_views_get_focus:
 * @self: the views
 *
 * Returns: (nullable): the function of the Callers/Callees page
 */
const char *
etl_call_views_get_focus (EtlCallViews *self)
{
  g_return_val_if_fail (ETL_IS_CALL_VIEWS (self), NULL);
  return self->focus;
}

/**
 * etl_call_views_get_busy:
 * @self: the views
 *
 * Returns: whether a worker is computing views not shown yet
 */
gboolean
etl_call_views_get_busy (EtlCallViews *self)
{
  g_return_val_if_fail (ETL_IS_CALL_VIEWS (self), FALSE);
  return self->busy;
}

/**
 * etl_call_views_get_tree:
 * @self: the views
 *
 * Returns: (transfer none) (nullable): the call tree shown
 */
EtlCallTree *
etl_call_views_get_tree (EtlCallViews *self)
{
  g_return_val_if_fail (ETL_IS_CALL_VIEWS (self), NULL);
  return self->tree;
}

/**
 * etl_call_views_take_stack_tree:
 * @self: the views
 *
 * Returns: (transfer full) (nullable): the flame graph's tree of the views
 *   shown (grouped, folded and filtered alike), once per "changed"
 */
EtlStackTree *
etl_call_views_take_stack_tree (EtlCallViews *self)
{
  g_return_val_if_fail (ETL_IS_CALL_VIEWS (self), NULL);
  return g_steal_pointer (&self->stack_tree);
}

/**
 * etl_call_views_get_model:
 * @self: the views
 * @model: which
 *
 * Returns: (transfer none): the model (#EtlCallViewsColumn)
 */
GtkTreeModel *
etl_call_views_get_model (EtlCallViews *self, EtlCallViewsModel model)
{
  g_return_val_if_fail (ETL_IS_CALL_VIEWS (self) && model < ETL_CALL_VIEWS_N_MODELS, NULL);
  if (model == ETL_CALL_VIEWS_MODEL_CALL_TREE)
    return GTK_TREE_MODEL (self->call_tree);
  return GTK_TREE_MODEL (self->lists[model]);
}

/**
 * etl_call_views_get_tree_view:
 * @self: the views
 * @model: which
 *
 * Returns: (transfer none): the #GtkTreeView that shows @model
 */
GtkWidget *
etl_call_views_get_tree_view (EtlCallViews *self, EtlCallViewsModel model)
{
  g_return_val_if_fail (ETL_IS_CALL_VIEWS (self) && model < ETL_CALL_VIEWS_N_MODELS, NULL);
  return self->views[model];
}
