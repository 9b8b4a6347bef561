/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-stacks-dialog
 * @title: EtlStacksDialog
 * @short_description: the top frames of the sample stacks in a time range
 *
 * A dialog over etl_stacks_summarize(): one row per module, .NET JIT method
 * or "?" with the PerfInfo SampledProfile samples that have it innermost
 * (exclusive) and anywhere in their stack (inclusive), sortable by each
 * column; a line above says how many samples the range has, how many have a
 * stack and what share of their frames resolved.  A second page draws the
 * samples' call tree as a flame graph (#EtlFlameGraph over
 * etl_stack_tree_new()).  Both are computed in a worker (#GTask); closing the
 * dialog cancels it.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-stacks-dialog.h"
#include "etl-worker.h"

#include "etl-flame-graph.h"

struct _EtlStacksDialog
{
  GtkDialog parent_instance;

  GtkListStore *store;
  GtkLabel *label;
  EtlFlameGraph *flame_graph;
  GCancellable *cancellable;
  char *summary_text;
  gboolean busy;
};

G_DEFINE_TYPE (EtlStacksDialog, etl_stacks_dialog, GTK_TYPE_DIALOG)

typedef struct
{
  EtlStacks *stacks;
  gint64 from;
  gint64 to;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_stacks_unref (job->stacks);
  g_free (job);
}

typedef struct
{
  EtlStackSummary *sum;
  EtlStackTree *tree;
} Result;

static void
result_free (gpointer data)
{
  Result *r = data;

  etl_stack_summary_free (r->sum);
  etl_stack_tree_free (r->tree);
  g_free (r);
}

static void
summarize_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  Result *r = g_new0 (Result, 1);

  r->sum = etl_stacks_summarize (job->stacks, job->from, job->to, cancellable, &error);
  if (r->sum != NULL)
    r->tree = etl_stack_tree_new (job->stacks, job->from, job->to, cancellable, &error);
  if (r->sum == NULL || r->tree == NULL)
    {
      result_free (r);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, r, result_free);
}

static void
on_summary (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self;
  Result *r = g_task_propagate_pointer (G_TASK (result), NULL);
  EtlStackSummary *sum;

  if (r == NULL) /* cancelled: the dialog is gone */
    return;
  self = ETL_STACKS_DIALOG (source);
  self->busy = FALSE;
  if (self->store == NULL) /* finished as the dialog went away */
    {
      result_free (r);
      return;
    }
  sum = r->sum;
  etl_flame_graph_set_tree (self->flame_graph, g_steal_pointer (&r->tree));
  for (guint k = 0; k < sum->rows->len; k++)
    {
      const EtlStackFrameCount *row = &g_array_index (sum->rows, EtlStackFrameCount, k);

      gtk_list_store_insert_with_values (
          self->store, NULL, -1, ETL_STACKS_DIALOG_COLUMN_FRAME, row->name, ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE,
          row->exclusive, ETL_STACKS_DIALOG_COLUMN_INCLUSIVE, row->inclusive, ETL_STACKS_DIALOG_COLUMN_PERCENT,
          sum->n_with_stack > 0 ? 100.0 * (double)row->inclusive / (double)sum->n_with_stack : 0.0, -1);
    }
  g_free (self->summary_text);
  self->summary_text = g_strdup_printf (
      "%" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " with a stack; %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
      " frames resolved (%.1f %%)",
      sum->n_samples, sum->n_with_stack, sum->n_resolved, sum->n_frames,
      sum->n_frames > 0 ? 100.0 * (double)sum->n_resolved / (double)sum->n_frames : 0.0);
  gtk_label_set_text (self->label, self->summary_text);
  result_free (r);
}

static void
percent_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
              gpointer data)
{
  double v;
  char text[32];

  gtk_tree_model_get (model, iter, ETL_STACKS_DIALOG_COLUMN_PERCENT, &v, -1);
  g_snprintf (text, sizeof text, "%.1f %%", v);
  g_object_set (cell, "text", text, NULL);
}

static void
add_column (GtkTreeView *view, const char *title, int column, gboolean numeric)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *col;

  if (numeric)
    g_object_set (cell, "xalign", 1.0, NULL);
  else /* long JIT names must not push the counts out of view */
    g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
  if (column == ETL_STACKS_DIALOG_COLUMN_PERCENT)
    {
      col = gtk_tree_view_column_new ();
      gtk_tree_view_column_set_title (col, title);
      gtk_tree_view_column_pack_start (col, cell, TRUE);
      gtk_tree_view_column_set_cell_data_func (col, cell, percent_cell, NULL, NULL);
    }
  else
    col = gtk_tree_view_column_new_with_attributes (title, cell, "text", column, NULL);
  gtk_tree_view_column_set_sort_column_id (col, column);
  gtk_tree_view_column_set_resizable (col, TRUE);
  gtk_tree_view_column_set_expand (col, !numeric);
  gtk_tree_view_append_column (view, col);
}

static void
etl_stacks_dialog_dispose (GObject *object)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (etl_stacks_dialog_parent_class)->dispose (object);
}

static void
etl_stacks_dialog_finalize (GObject *object)
{
  g_free (ETL_STACKS_DIALOG (object)->summary_text);
  G_OBJECT_CLASS (etl_stacks_dialog_parent_class)->finalize (object);
}

static void
etl_stacks_dialog_class_init (EtlStacksDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = etl_stacks_dialog_dispose;
  G_OBJECT_CLASS (klass)->finalize = etl_stacks_dialog_finalize;
}

static void
etl_stacks_dialog_init (EtlStacksDialog *self)
{
  GtkWidget *area = gtk_dialog_get_content_area (GTK_DIALOG (self));
  GtkWidget *scroller = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *notebook, *flame_scroller;
  GtkTreeView *view;

  self->store = gtk_list_store_new (ETL_STACKS_DIALOG_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_UINT64,
                                    G_TYPE_DOUBLE);
  self->label = GTK_LABEL (gtk_label_new ("Counting the samples' stacks…"));
  gtk_label_set_xalign (self->label, 0.0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_top (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_bottom (GTK_WIDGET (self->label), 6);
  gtk_container_add (GTK_CONTAINER (area), GTK_WIDGET (self->label));

  view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  add_column (view, "Frame", ETL_STACKS_DIALOG_COLUMN_FRAME, FALSE);
  add_column (view, "Exclusive", ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE, TRUE);
  add_column (view, "Inclusive", ETL_STACKS_DIALOG_COLUMN_INCLUSIVE, TRUE);
  add_column (view, "Inclusive %", ETL_STACKS_DIALOG_COLUMN_PERCENT, TRUE);
  gtk_container_add (GTK_CONTAINER (scroller), GTK_WIDGET (view));
  gtk_widget_set_vexpand (scroller, TRUE);
  notebook = gtk_notebook_new ();
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), scroller, gtk_label_new ("Top Frames"));
  self->flame_graph = ETL_FLAME_GRAPH (etl_flame_graph_new ());
  flame_scroller = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (flame_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (flame_scroller), GTK_WIDGET (self->flame_graph));
  gtk_notebook_append_page (GTK_NOTEBOOK (notebook), flame_scroller, gtk_label_new ("Flame Graph"));
  gtk_widget_set_vexpand (notebook, TRUE);
  gtk_container_add (GTK_CONTAINER (area), notebook);
  gtk_window_set_default_size (GTK_WINDOW (self), 800, 560);
  gtk_widget_show_all (area);
}

/**
 * etl_stacks_dialog_new:
 * @parent: (nullable): the window it belongs to
 * @stacks: (transfer none): the trace's stacks
 * @from_filetime: start of the range, FILETIME
 * @to_filetime: end of the range (exclusive), FILETIME
 * @range_text: (nullable): the range as shown in the title, e.g. "1.2 s – 3.4 s"
 *
 * Creates the dialog and starts the summary in a worker.
 *
 * Returns: (transfer floating): the dialog (not shown)
 */
GtkWidget *
etl_stacks_dialog_new (GtkWindow *parent, EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                       const char *range_text)
{
  g_autofree char *title = g_strdup_printf ("Stacks of Samples%s%s", range_text != NULL ? ": " : "",
                                            range_text != NULL ? range_text : "");
  EtlStacksDialog *self = g_object_new (ETL_TYPE_STACKS_DIALOG, "title", title, "transient-for", parent,
                                        "use-header-bar", TRUE, "destroy-with-parent", TRUE, NULL);
  g_autoptr (GTask) task = NULL;
  Job *job = g_new0 (Job, 1);

  g_return_val_if_fail (stacks != NULL, NULL);
  job->stacks = etl_stacks_ref (stacks);
  job->from = from_filetime;
  job->to = to_filetime;
  self->cancellable = g_cancellable_new ();
  self->busy = TRUE;
  task = g_task_new (self, self->cancellable, on_summary, NULL);
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, summarize_thread);
  return GTK_WIDGET (self);
}

/**
 * etl_stacks_dialog_get_busy:
 * @self: a dialog
 *
 * Returns: whether the summary is still being computed
 */
gboolean
etl_stacks_dialog_get_busy (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), FALSE);
  return self->busy;
}

/**
 * etl_stacks_dialog_get_model:
 * @self: a dialog
 *
 * Returns: (transfer none): the rows (#EtlStacksDialogColumn), empty while busy
 */
GtkTreeModel *
etl_stacks_dialog_get_model (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return GTK_TREE_MODEL (self->store);
}

/**
 * etl_stacks_dialog_get_summary_text:
 * @self: a dialog
 *
 * Returns: (nullable): the line above the rows once computed, else %NULL
 */
const char *
etl_stacks_dialog_get_summary_text (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return self->summary_text;
}

/**
 * etl_stacks_dialog_get_flame_graph:
 * @self: a dialog
 *
 * Returns: (transfer none): the flame graph page's graph (no tree while busy)
 */
EtlFlameGraph *
etl_stacks_dialog_get_flame_graph (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return self->flame_graph;
}
