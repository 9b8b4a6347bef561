/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-group-view
 * @title: EtlGroupView
 * @short_description: the grouped summary table (WPA's Generic Events table)
 *
 * A #GtkTreeView over a #GtkTreeStore of an #EtlGroupSummary: one level of
 * expanders per key, columns Group, Count, Share, First and Last (times since
 * the trace's origin in the event list's adaptive units), sortable by a
 * click on a header.  Above it a chooser of the grouping chain and a toggle
 * "Selected range".
 *
 * etl_group_view_show_rows() shows instead the summary of another set of
 * rows (the Regions view's "Summary of these": the records of the selected
 * instances' threads within their intervals) under a line saying what they
 * are, with a "Show all" button; that button, or new rows from the filter
 * (etl_group_view_set_rows()), bring back the filter's rows.  The range
 * toggle does not apply to such a set (its rows carry their own times).
 *
 * The summary is computed in a worker (#GTask) whenever the rows (the
 * filter's), the range or the chain change: requests made in one main-loop
 * turn are collapsed into one, a new one cancels the previous, and the result
 * replaces the store in one go.  At most #ETL_GROUP_VIEW_MAX_CHILDREN groups
 * are shown per level; the rest are one "… N more" row.
 *
 * Activating a group (double-click, Enter) emits #EtlGroupView::group-activated.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-group-view.h"
#include "etl-time-ruler.h"
#include "etl-worker.h"

struct _EtlGroupView
{
  GtkBox parent_instance;

  GtkComboBoxText *chooser;
  GtkToggleButton *range_toggle;
  GtkLabel *status;
  GtkWidget *subset_bar;
  GtkLabel *subset_label;
  GtkButton *show_all_button;
  GtkTreeView *tree_view;
  GtkTreeStore *store;

  EtlTrace *trace;
  EtlRowSet *rows;
  EtlRowSet *subset; /* etl_group_view_show_rows(): shown instead of @rows */
  char *subset_title;
  gint64 begin;
  gint64 end;
  EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
  guint n_keys;

  EtlGroupSummary *summary;
  GCancellable *cancellable;
  guint idle_id;
};

G_DEFINE_FINAL_TYPE (EtlGroupView, etl_group_view, GTK_TYPE_BOX)

enum
{
  GROUP_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const struct
{
  const char *id;
  const char *label;
} presets[] = {
  { "provider,event", "Provider ▸ Event" },
  { "process,event", "Process ▸ Event" },
  { "process,thread", "Process ▸ Thread" },
  { "process,thread,event", "Process ▸ Thread ▸ Event" },
  { "provider,process", "Provider ▸ Process" },
  { "cpu,provider", "CPU ▸ Provider" },
  { "cpu,process", "CPU ▸ Process" },
  { "event", "Event" },
  { "thread", "Thread" },
};

typedef struct
{
  EtlTrace *trace;
  EtlRowSet *rows;
  gint64 begin;
  gint64 end;
  EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
  guint n_keys;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_trace_unref (job->trace);
  if (job->rows != NULL)
    etl_row_set_unref (job->rows);
  g_free (job);
}

static void
clear_subset (EtlGroupView *self)
{
  g_clear_pointer (&self->subset, etl_row_set_unref);
  g_clear_pointer (&self->subset_title, g_free);
  if (self->subset_bar != NULL)
    {
      gtk_widget_hide (self->subset_bar);
      gtk_widget_set_sensitive (GTK_WIDGET (self->range_toggle), TRUE);
    }
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  EtlGroupSummary *summary = etl_group_summary_compute (job->trace, job->rows, job->begin, job->end, job->keys,
                                                        job->n_keys, NULL, NULL, cancellable, &error);

  if (summary == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, summary, (GDestroyNotify)etl_group_summary_unref);
}

static void
set_texts (EtlGroupView *self, GtkTreeIter *iter, const char *label, guint64 count, double share, gint64 first,
           gint64 last, const EtlGroup *group)
{
  gint64 origin = etl_trace_get_origin (self->trace);
  g_autofree char *count_text = g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
  g_autofree char *share_text = g_strdup_printf ("%.2f %%", share);
  g_autofree char *first_text = count > 0 ? etl_time_format_span (first - origin) : g_strdup ("");
  g_autofree char *last_text = count > 0 ? etl_time_format_span (last - origin) : g_strdup ("");

  gtk_tree_store_set (self->store, iter, ETL_GROUP_VIEW_COLUMN_LABEL, label, ETL_GROUP_VIEW_COLUMN_COUNT, count,
                      ETL_GROUP_VIEW_COLUMN_COUNT_TEXT, count_text, ETL_GROUP_VIEW_COLUMN_SHARE, share,
                      ETL_GROUP_VIEW_COLUMN_SHARE_TEXT, share_text, ETL_GROUP_VIEW_COLUMN_FIRST, first - origin,
                      ETL_GROUP_VIEW_COLUMN_FIRST_TEXT, first_text, ETL_GROUP_VIEW_COLUMN_LAST, last - origin,
                      ETL_GROUP_VIEW_COLUMN_LAST_TEXT, last_text, ETL_GROUP_VIEW_COLUMN_GROUP, group, -1);
}

static void
add_children (EtlGroupView *self, GtkTreeIter *parent, const EtlGroup *group)
{
  guint n;

  if (group->children == NULL)
    return;
  n = MIN (group->children->len, ETL_GROUP_VIEW_MAX_CHILDREN);
  for (guint i = 0; i < n; i++)
    {
      const EtlGroup *child = g_ptr_array_index (group->children, i);
      GtkTreeIter iter;

      gtk_tree_store_insert_with_values (self->store, &iter, parent, -1, -1);
      set_texts (self, &iter, child->label, child->count, child->share, child->first, child->last, child);
      add_children (self, &iter, child);
    }
  if (group->children->len > n)
    {
      guint64 rest = 0;
      gint64 first = G_MAXINT64, last = G_MININT64;
      GtkTreeIter iter;
      g_autofree char *label = g_strdup_printf ("… %u more", group->children->len - n);

      for (guint i = n; i < group->children->len; i++)
        {
          const EtlGroup *child = g_ptr_array_index (group->children, i);

          rest += child->count;
          first = MIN (first, child->first);
          last = MAX (last, child->last);
        }
      gtk_tree_store_insert_with_values (self->store, &iter, parent, -1, -1);
      set_texts (self, &iter, label, rest, group->count > 0 ? 100.0 * (double)rest / (double)etl_group_summary_get_total (self->summary) : 0.0,
                 first, last, NULL);
    }
}

static void
show_summary (EtlGroupView *self)
{
  g_autofree char *text = NULL;
  const EtlGroup *root;
  guint n_top;

  /* Detached while filling: one update of the view. */
  g_object_ref (self->store);
  gtk_tree_view_set_model (self->tree_view, NULL);
  gtk_tree_store_clear (self->store);
  if (self->summary != NULL && self->trace != NULL)
    add_children (self, NULL, etl_group_summary_get_root (self->summary));
  gtk_tree_view_set_model (self->tree_view, GTK_TREE_MODEL (self->store));
  g_object_unref (self->store);
  if (self->summary == NULL)
    {
      gtk_label_set_text (self->status, self->trace != NULL ? "Computing…" : "");
      return;
    }
  root = etl_group_summary_get_root (self->summary);
  n_top = root->children != NULL ? root->children->len : 0;
  text = g_strdup_printf ("%'" G_GUINT64_FORMAT " events · %u groups%s", root->count, n_top,
                          self->subset != NULL ? ""
                          : etl_group_summary_get_end (self->summary) > etl_group_summary_get_begin (self->summary)
                              ? " · selected range"
                              : "");
  gtk_label_set_text (self->status, text);
}

static void
on_computed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlGroupView) self = user_data;
  g_autoptr (GError) error = NULL;
  EtlGroupSummary *summary = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    {
      if (summary != NULL)
        etl_group_summary_unref (summary);
      return;
    }
  g_clear_object (&self->cancellable);
  if (summary == NULL)
    {
      gtk_label_set_text (self->status, error->message);
      return;
    }
  g_clear_pointer (&self->summary, etl_group_summary_unref);
  self->summary = summary;
  show_summary (self);
}

static gboolean
start_compute (gpointer user_data)
{
  EtlGroupView *self = user_data;
  g_autoptr (GTask) task = NULL;
  Job *job;

  self->idle_id = 0;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->summary, etl_group_summary_unref);
  show_summary (self);
  if (self->trace == NULL)
    return G_SOURCE_REMOVE;
  job = g_new0 (Job, 1);
  job->trace = etl_trace_ref (self->trace);
  if (self->subset != NULL)
    job->rows = etl_row_set_ref (self->subset);
  else
    job->rows = self->rows != NULL ? etl_row_set_ref (self->rows) : NULL;
  if (self->subset == NULL && gtk_toggle_button_get_active (self->range_toggle) && self->end > self->begin)
    {
      job->begin = self->begin;
      job->end = self->end;
    }
  memcpy (job->keys, self->keys, sizeof self->keys);
  job->n_keys = self->n_keys;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, on_computed, g_object_ref (self));
  g_task_set_source_tag (task, start_compute);
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, compute_thread);
  return G_SOURCE_REMOVE;
}

static void
schedule (EtlGroupView *self)
{
  if (self->idle_id == 0)
    self->idle_id = g_idle_add (start_compute, self);
}

/**
 * etl_group_view_set_rows:
 * @self: a view
 * @trace: (nullable): the trace; %NULL empties the view
 * @rows: (nullable): the rows the filter keeps; %NULL for all
 *
 * Recomputes the summary over @rows (in a worker, soon).
 */
void
etl_group_view_set_rows (EtlGroupView *self, EtlTrace *trace, EtlRowSet *rows)
{
  g_return_if_fail (ETL_IS_GROUP_VIEW (self));
  if (trace != NULL)
    etl_trace_ref (trace);
  if (rows != NULL)
    etl_row_set_ref (rows);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  self->trace = trace;
  self->rows = rows;
  clear_subset (self);
  schedule (self);
}

/**
 * etl_group_view_show_rows:
 * @self: a view showing a trace (etl_group_view_set_rows())
 * @rows: rows of that trace to summarise instead of the filter's (a
 *   reference is taken)
 * @title: what they are, shown above the table ("12 instances of
 *   ExecuteTask: their threads within their intervals — 3,456 records")
 *
 * Recomputes the summary over @rows (in a worker, soon), the whole of them
 * whatever the range toggle says, with @title and a "Show all" button
 * above the table.  The button (etl_group_view_show_all()) or the next
 * etl_group_view_set_rows() return to the filter's rows.
 */
void
etl_group_view_show_rows (EtlGroupView *self, EtlRowSet *rows, const char *title)
{
  g_return_if_fail (ETL_IS_GROUP_VIEW (self));
  g_return_if_fail (rows != NULL && title != NULL);
  etl_row_set_ref (rows);
  g_clear_pointer (&self->subset, etl_row_set_unref);
  self->subset = rows;
  g_free (self->subset_title);
  self->subset_title = g_strdup (title);
  gtk_label_set_text (self->subset_label, title);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->subset_label), title);
  gtk_widget_show (self->subset_bar);
  gtk_widget_set_sensitive (GTK_WIDGET (self->range_toggle), FALSE);
  schedule (self);
}

/**
 * etl_group_view_show_all:
 * @self: a view
 *
 * Returns to the summary of the filter's rows after
 * etl_group_view_show_rows() (what its "Show all" button does); nothing
 * when those are shown already.
 */
void
etl_group_view_show_all (EtlGroupView *self)
{
  g_return_if_fail (ETL_IS_GROUP_VIEW (self));
  if (self->subset == NULL)
    return;
  clear_subset (self);
  schedule (self);
}

/**
 * etl_group_view_get_title:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the title of the rows
 *   etl_group_view_show_rows() shows, %NULL while the filter's are shown
 */
const char *
etl_group_view_get_title (EtlGroupView *self)
{
  g_return_val_if_fail (ETL_IS_GROUP_VIEW (self), NULL);
  return self->subset != NULL ? self->subset_title : NULL;
}

/**
 * etl_group_view_get_show_all_button:
 * @self: a view
 *
 * Returns: (transfer none): the "Show all" button (visible with the rows
 *   of etl_group_view_show_rows())
 */
GtkButton *
etl_group_view_get_show_all_button (EtlGroupView *self)
{
  g_return_val_if_fail (ETL_IS_GROUP_VIEW (self), NULL);
  return self->show_all_button;
}

/**
 * etl_group_view_set_range:
 * @self: a view
 * @begin: FILETIME of the selected range's start
 * @end: FILETIME of its end (exclusive); @end ≤ @begin: no range selected
 *
 * The range "Selected range" counts; recomputes when that is on.
 */
void
etl_group_view_set_range (EtlGroupView *self, gint64 begin, gint64 end)
{
  g_return_if_fail (ETL_IS_GROUP_VIEW (self));
  if (end <= begin)
    begin = end = 0;
  if (begin == self->begin && end == self->end)
    return;
  self->begin = begin;
  self->end = end;
  if (gtk_toggle_button_get_active (self->range_toggle))
    schedule (self);
}

/**
 * etl_group_view_set_use_range:
 * @self: a view
 * @use_range: %TRUE to count only the selected range
 *
 * Sets the "Selected range" toggle.
 */
void
etl_group_view_set_use_range (EtlGroupView *self, gboolean use_range)
{
  g_return_if_fail (ETL_IS_GROUP_VIEW (self));
  gtk_toggle_button_set_active (self->range_toggle, use_range);
}

/**
 * etl_group_view_set_keys:
 * @self: a view
 * @chain: comma-separated keys, e.g. "process,thread"
 *   (etl_group_key_parse_chain())
 *
 * Sets the grouping chain (and the chooser, when @chain is a preset).
 *
 * Returns: %FALSE when @chain is not a valid chain (nothing changes)
 */
gboolean
etl_group_view_set_keys (EtlGroupView *self, const char *chain)
{
  EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
  guint n_keys = 0;

  g_return_val_if_fail (ETL_IS_GROUP_VIEW (self), FALSE);
  if (!etl_group_key_parse_chain (chain, keys, &n_keys, NULL))
    return FALSE;
  memcpy (self->keys, keys, sizeof keys);
  self->n_keys = n_keys;
  g_signal_handlers_block_matched (self->chooser, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->chooser), chain);
  g_signal_handlers_unblock_matched (self->chooser, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  schedule (self);
  return TRUE;
}

/**
 * etl_group_view_get_summary:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the summary shown, %NULL while one
 *   is being computed
 */
EtlGroupSummary *
etl_group_view_get_summary (EtlGroupView *self)
{
  g_return_val_if_fail (ETL_IS_GROUP_VIEW (self), NULL);
  return self->summary;
}

/**
 * etl_group_view_is_busy:
 * @self: a view
 *
 * Returns: %TRUE while a summary is pending or being computed
 */
gboolean
etl_group_view_is_busy (EtlGroupView *self)
{
  g_return_val_if_fail (ETL_IS_GROUP_VIEW (self), FALSE);
  return self->idle_id != 0 || self->cancellable != NULL;
}

/**
 * etl_group_view_get_tree_view:
 * @self: a view
 *
 * Returns: (transfer none): the tree view (its model is a #GtkTreeStore with
 *   the #EtlGroupViewColumn columns)
 */
GtkTreeView *
etl_group_view_get_tree_view (EtlGroupView *self)
{
  g_return_val_if_fail (ETL_IS_GROUP_VIEW (self), NULL);
  return self->tree_view;
}

static void
on_show_all_clicked (GtkButton *button, EtlGroupView *self)
{
  (void) button;
  etl_group_view_show_all (self);
}

static void
on_chooser_changed (GtkComboBox *combo, EtlGroupView *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);

  if (id != NULL)
    etl_group_view_set_keys (self, id);
}

static void
on_range_toggled (GtkToggleButton *button, EtlGroupView *self)
{
  if (self->end > self->begin)
    schedule (self);
}

static void
on_row_activated (GtkTreeView *view, GtkTreePath *path, GtkTreeViewColumn *column, EtlGroupView *self)
{
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  GtkTreeIter iter;
  const EtlGroup *group = NULL;

  if (self->summary == NULL || !gtk_tree_model_get_iter (model, &iter, path))
    return;
  gtk_tree_model_get (model, &iter, ETL_GROUP_VIEW_COLUMN_GROUP, &group, -1);
  if (group != NULL)
    g_signal_emit (self, signals[GROUP_ACTIVATED], 0, group);
}

/* The Group column's ellipsis: provider names differ at their end
 * ("Microsoft-Windows-DotNETRuntime" / "…Rundown"), so provider rows keep
 * both ends; the other labels (events "Task/Opcode (provider)", processes
 * "name (PID)") keep their start. */
static void
label_cell_data (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
                 gpointer user_data)
{
  EtlGroupView *self = user_data;
  int depth = gtk_tree_store_iter_depth (GTK_TREE_STORE (model), iter);
  gboolean provider = depth >= 0 && (guint) depth < self->n_keys && self->keys[depth] == ETL_GROUP_BY_PROVIDER;

  g_object_set (cell, "ellipsize", provider ? PANGO_ELLIPSIZE_MIDDLE : PANGO_ELLIPSIZE_END, NULL);
}

static void
add_column (EtlGroupView *self, const char *title, int text_column, int sort_column, gboolean numeric)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column = gtk_tree_view_column_new_with_attributes (title, cell, "text", text_column, NULL);

  if (numeric)
    {
      g_object_set (cell, "xalign", 1.0, NULL);
      gtk_tree_view_column_set_alignment (column, 1.0);
    }
  else
    {
      g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
      gtk_tree_view_column_set_cell_data_func (column, cell, label_cell_data, self, NULL);
      gtk_tree_view_column_set_expand (column, TRUE);
      gtk_tree_view_column_set_min_width (column, 150);
    }
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_column_set_sort_column_id (column, sort_column);
  gtk_tree_view_append_column (self->tree_view, column);
}

static void
etl_group_view_dispose (GObject *object)
{
  EtlGroupView *self = ETL_GROUP_VIEW (object);

  if (self->idle_id != 0)
    g_source_remove (self->idle_id);
  self->idle_id = 0;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->summary, etl_group_summary_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_clear_pointer (&self->subset, etl_row_set_unref);
  g_clear_pointer (&self->subset_title, g_free);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (etl_group_view_parent_class)->dispose (object);
}

static void
etl_group_view_class_init (EtlGroupViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_group_view_dispose;

  /**
   * EtlGroupView::group-activated:
   * @self: the view
   * @group: (type gpointer): the activated #EtlGroup, valid during the
   *   emission (it belongs to the view's summary)
   *
   * A group was double-clicked or activated with Enter.
   */
  signals[GROUP_ACTIVATED] = g_signal_new ("group-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                           NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etlgroupview");
}

static void
etl_group_view_init (EtlGroupView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  g_object_set (bar, "margin-start", 6, "margin-end", 6, "margin-top", 4, "margin-bottom", 4, NULL);

  self->chooser = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    gtk_combo_box_text_append (self->chooser, presets[i].id, presets[i].label);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->chooser), "Group the events by");
  self->range_toggle = GTK_TOGGLE_BUTTON (gtk_check_button_new_with_label ("Selected range"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_toggle),
                               "Count only the time range selected in the timeline (else the whole trace)");
  self->status = GTK_LABEL (gtk_label_new (NULL));
    gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->status)), "dim-label");
  /* Narrow enough not to widen the window: the chooser and the status
   * ellipsize.  One row for the three: the view is a tab of the window's
   * bottom panel, as wide as the trace area. */
  {
    GList *cells = gtk_cell_layout_get_cells (GTK_CELL_LAYOUT (self->chooser));

    for (GList *l = cells; l != NULL; l = l->next)
      g_object_set (l->data, "ellipsize", PANGO_ELLIPSIZE_END, "width-chars", 8, NULL);
    g_list_free (cells);
  }
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->chooser), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->range_toggle), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->status), TRUE, TRUE, 0);
  gtk_label_set_xalign (self->status, 0.0);
  gtk_label_set_width_chars (self->status, 4);
  g_object_set (self->status, "margin-start", 6, NULL);

  self->store = gtk_tree_store_new (ETL_GROUP_VIEW_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_STRING,
                                    G_TYPE_DOUBLE, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_INT64,
                                    G_TYPE_STRING, G_TYPE_POINTER);
  self->tree_view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_tree_view_set_enable_search (self->tree_view, TRUE);
  gtk_tree_view_set_search_column (self->tree_view, ETL_GROUP_VIEW_COLUMN_LABEL);
  add_column (self, "Group", ETL_GROUP_VIEW_COLUMN_LABEL, ETL_GROUP_VIEW_COLUMN_LABEL, FALSE);
  add_column (self, "Count", ETL_GROUP_VIEW_COLUMN_COUNT_TEXT, ETL_GROUP_VIEW_COLUMN_COUNT, TRUE);
  add_column (self, "Share", ETL_GROUP_VIEW_COLUMN_SHARE_TEXT, ETL_GROUP_VIEW_COLUMN_SHARE, TRUE);
  add_column (self, "First", ETL_GROUP_VIEW_COLUMN_FIRST_TEXT, ETL_GROUP_VIEW_COLUMN_FIRST, TRUE);
  add_column (self, "Last", ETL_GROUP_VIEW_COLUMN_LAST_TEXT, ETL_GROUP_VIEW_COLUMN_LAST, TRUE);
  gtk_tree_view_set_tooltip_column (self->tree_view, ETL_GROUP_VIEW_COLUMN_LABEL);
  g_signal_connect (self->tree_view, "row-activated", G_CALLBACK (on_row_activated), self);

  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->tree_view));
  gtk_widget_set_vexpand (scrolled, TRUE);
  /* What etl_group_view_show_rows() shows, and the way back. */
  self->subset_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_object_set (self->subset_bar, "margin-start", 6, "margin-end", 6, "margin-bottom", 4, NULL);
  self->subset_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->subset_label, 0.0);
  gtk_label_set_ellipsize (self->subset_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (self->subset_label, 4);
  {
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
    gtk_label_set_attributes (self->subset_label, attrs);
    pango_attr_list_unref (attrs);
  }
  self->show_all_button = GTK_BUTTON (gtk_button_new_with_label ("Show all"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->show_all_button), "Back to the summary of the filter's events");
  g_signal_connect (self->show_all_button, "clicked", G_CALLBACK (on_show_all_clicked), self);
  gtk_box_pack_start (GTK_BOX (self->subset_bar), GTK_WIDGET (self->subset_label), TRUE, TRUE, 0);
  gtk_box_pack_end (GTK_BOX (self->subset_bar), GTK_WIDGET (self->show_all_button), FALSE, FALSE, 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->subset_bar), "subset");

  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), self->subset_bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), scrolled, TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_widget_set_no_show_all (self->subset_bar, TRUE);
  gtk_widget_hide (self->subset_bar);

  self->keys[0] = ETL_GROUP_BY_PROVIDER;
  self->keys[1] = ETL_GROUP_BY_EVENT;
  self->n_keys = 2;
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->chooser), "provider,event");
  g_signal_connect (self->chooser, "changed", G_CALLBACK (on_chooser_changed), self);
  g_signal_connect (self->range_toggle, "toggled", G_CALLBACK (on_range_toggled), self);
}

/**
 * etl_group_view_new:
 *
 * Returns: (transfer floating): a new, empty view grouping by provider, then event
 */
GtkWidget *
etl_group_view_new (void)
{
  return g_object_new (ETL_TYPE_GROUP_VIEW, NULL);
}
