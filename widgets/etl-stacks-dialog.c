/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-stacks-dialog
 * @title: EtlStacksDialog
 * @short_description: the top frames and flame graph of the stacks in a time range
 *
 * A dialog over the stacks of a time range, from one of two sources chosen
 * by a linked pair of toggle buttons above the pages:
 *
 * - **CPU samples**: the PerfInfo SampledProfile stacks.  A Top Frames page
 *   over etl_stacks_summarize(): one row per module, .NET JIT method or "?"
 *   with the samples that have it innermost (exclusive) and anywhere in
 *   their stack (inclusive), sortable by each column; the line above says
 *   how many samples the range has, how many have a stack and what share of
 *   their frames resolved.  A Flame Graph page draws the samples' call tree
 *   (#EtlFlameGraph over etl_stack_tree_new()).
 * - **Thread time**: PerfView's Thread Time of the dialog's threads
 *   (etl_stacks_dialog_set_threads(); all threads by default) over the
 *   range: where they spent their time, running or not, from the CSwitch
 *   and ReadyThread records (etl_thread_time_tree_new(): `BLOCKED_TIME`,
 *   `READIED_TIME` and `CPU_TIME` pseudo-frames, the waker's frames marked
 *   `(READIED_BY)`), drawn on the Flame Graph page in milliseconds; the line
 *   above gives the total and its three parts.  The Top Frames table counts
 *   samples only and is hidden meanwhile.  Without CSwitch records the
 *   choice is insensitive, its tooltip saying how to record them.
 *
 * Everything is computed in workers (#GTask, etl_worker_run()): at once the
 * samples' summary and tree, and the trace's thread states
 * (etl_thread_states_get_shared(), which also tells whether it has CSwitch
 * records); the thread-time tree when Thread time is first chosen, again
 * when the threads change.  Closing the dialog cancels them.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-stacks-dialog.h"
#include "etl-worker.h"

#include "etl-flame-graph.h"
#include "etl-process-table.h"
#include "etl-thread-states.h"
#include "etl-thread-time.h"
#include "etl-trace.h"

#define N_SOURCES 2
#define MAX_LISTED_TIDS 6

static const char no_cswitch_tooltip[]
    = "This trace has no CSwitch records. Thread time needs the kernel flags CSWITCH and DISPATCHER "
      "(CSwitch and ReadyThread records), with a stack walk on CSwitch and ReadyThread, e.g. "
      "xperf -on PROC_THREAD+LOADER+PROFILE+CSWITCH+DISPATCHER -stackwalk Profile+CSwitch+ReadyThread";
static const char thread_time_tooltip[]
    = "Where the threads spent their time, running or not (PerfView's Thread Time): blocked time under the "
      "stack where the thread blocked and its waker's stack (READIED_BY), from the CSwitch and ReadyThread records";
static const char samples_tooltip[] = "Where the PerfInfo SampledProfile samples landed: time on the processor";

struct _EtlStacksDialog
{
  GtkDialog parent_instance;

  EtlStacks *stacks;
  gint64 from;
  gint64 to;
  char *range_text;
  GArray *tids; /* guint32: the threads of Thread time; empty for all */

  GtkListStore *store;
  GtkLabel *label;
  GtkWidget *source_button[N_SOURCES];
  GtkNotebook *notebook;
  GtkWidget *top_page;
  GtkWidget *flame_page;
  GtkStack *graphs;
  EtlFlameGraph *graph[N_SOURCES];
  GCancellable *cancellable;             /* every job; cancelled on dispose */
  GCancellable *thread_time_cancellable; /* the thread-time job; also on new threads */
  char *summary_text[N_SOURCES];

  EtlThreadStates *states; /* once the states job has finished */
  EtlStacksDialogSource source;
  guint generation; /* of the threads: a thread-time result for others is dropped */
  gboolean samples_busy;
  gboolean states_busy;
  gboolean thread_time_busy;
  gboolean thread_time_done; /* graph[THREAD_TIME] shows the current threads */
};

G_DEFINE_TYPE (EtlStacksDialog, etl_stacks_dialog, GTK_TYPE_DIALOG)

/* Jobs ------------------------------------------------------------------- */

typedef struct
{
  EtlStacks *stacks;
  EtlThreadStates *states; /* thread time: given; the states job: NULL */
  guint32 *tids;
  guint n_tids;
  gint64 from;
  gint64 to;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_stacks_unref (job->stacks);
  g_clear_pointer (&job->states, etl_thread_states_unref);
  g_free (job->tids);
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

  g_clear_pointer (&r->sum, etl_stack_summary_free);
  g_clear_pointer (&r->tree, etl_stack_tree_free);
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
states_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  EtlThreadStates *states = etl_thread_states_get_shared (etl_stacks_get_trace (job->stacks), cancellable, &error);

  if (states == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, states, (GDestroyNotify) etl_thread_states_unref);
}

static void
thread_time_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  EtlStackTree *tree = etl_thread_time_tree_new (job->states, job->stacks, job->tids, job->n_tids, job->from,
                                                 job->to, cancellable, &error);

  if (tree == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tree, (GDestroyNotify) etl_stack_tree_free);
}

/* The line above the pages for the source shown. */
static void
show_summary (EtlStacksDialog *self)
{
  const char *text = self->summary_text[self->source];

  if (text == NULL)
    text = self->source == ETL_STACKS_DIALOG_SOURCE_SAMPLES ? "Counting the samples' stacks…"
           : self->states_busy                               ? "Reading the CSwitch and ReadyThread records…"
                                                             : "Computing the thread time…";
  gtk_label_set_text (self->label, text);
}

/* A job failed: %FALSE when it was cancelled (the dialog may be gone),
 * else the error is shown and %TRUE returned. */
static gboolean
job_failed (EtlStacksDialog *self, GError *error, EtlStacksDialogSource source)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->store == NULL)
    return FALSE;
  g_free (self->summary_text[source]);
  self->summary_text[source] = g_strdup_printf ("Failed: %s", error->message);
  show_summary (self);
  return TRUE;
}

static void
on_summary (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (source);
  g_autoptr (GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (result), &error);
  EtlStackSummary *sum;

  if (r == NULL)
    {
      if (job_failed (self, error, ETL_STACKS_DIALOG_SOURCE_SAMPLES))
        self->samples_busy = FALSE;
      return;
    }
  self->samples_busy = FALSE;
  if (self->store == NULL) /* finished as the dialog went away */
    {
      result_free (r);
      return;
    }
  sum = r->sum;
  etl_flame_graph_set_tree (self->graph[ETL_STACKS_DIALOG_SOURCE_SAMPLES], g_steal_pointer (&r->tree));
  for (guint k = 0; k < sum->rows->len; k++)
    {
      const EtlStackFrameCount *row = &g_array_index (sum->rows, EtlStackFrameCount, k);

      gtk_list_store_insert_with_values (
          self->store, NULL, -1, ETL_STACKS_DIALOG_COLUMN_FRAME, row->name, ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE,
          row->exclusive, ETL_STACKS_DIALOG_COLUMN_INCLUSIVE, row->inclusive, ETL_STACKS_DIALOG_COLUMN_PERCENT,
          sum->n_with_stack > 0 ? 100.0 * (double)row->inclusive / (double)sum->n_with_stack : 0.0, -1);
    }
  g_free (self->summary_text[ETL_STACKS_DIALOG_SOURCE_SAMPLES]);
  self->summary_text[ETL_STACKS_DIALOG_SOURCE_SAMPLES] = g_strdup_printf (
      "%" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " with a stack; %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
      " frames resolved (%.1f %%)",
      sum->n_samples, sum->n_with_stack, sum->n_resolved, sum->n_frames,
      sum->n_frames > 0 ? 100.0 * (double)sum->n_resolved / (double)sum->n_frames : 0.0);
  show_summary (self);
  result_free (r);
}

/* "TID 1004 of alpha.exe (1000)", "TIDs 1004, 3004" or "all threads (4 with
 * time in the range)". */
static char *
describe_threads (EtlStacksDialog *self, EtlStackTree *tree)
{
  EtlTrace *trace = etl_stacks_get_trace (self->stacks);
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  gint64 at = MAX (self->from, etl_trace_get_first_filetime (trace));
  GString *s;

  if (self->tids->len == 0)
    {
      const EtlStackTreeNode *nodes;
      guint n, n_threads = 0;

      nodes = etl_stack_tree_get_nodes (tree, &n);
      for (guint k = 0; k < n; k++)
        n_threads += nodes[k].depth == 2;
      return g_strdup_printf ("all threads (%u with time in the range)", n_threads);
    }
  if (self->tids->len == 1)
    {
      guint32 tid = g_array_index (self->tids, guint32, 0);
      const EtlThread *th = etl_process_table_lookup_thread (table, tid, at);
      const EtlProcess *process;
      g_autofree char *name = NULL;

      if (th == NULL)
        return g_strdup_printf ("TID %u", tid);
      process = th->process != NULL ? th->process : etl_process_table_lookup (table, th->pid, at);
      name = etl_process_format_name (process, th->pid);
      return g_strdup_printf ("TID %u of %s", tid, name);
    }
  s = g_string_new ("TIDs ");
  for (guint i = 0; i < self->tids->len && i < MAX_LISTED_TIDS; i++)
    g_string_append_printf (s, "%s%u", i > 0 ? ", " : "", g_array_index (self->tids, guint32, i));
  if (self->tids->len > MAX_LISTED_TIDS)
    g_string_append_printf (s, " and %u more", self->tids->len - MAX_LISTED_TIDS);
  return g_string_free (s, FALSE);
}

static char *
thread_time_text (EtlStacksDialog *self, EtlStackTree *tree)
{
  static const char *const leaves[] = { ETL_THREAD_TIME_BLOCKED, ETL_THREAD_TIME_READIED, ETL_THREAD_TIME_CPU };
  g_autofree char *who = describe_threads (self, tree);
  g_autofree char *total = NULL;
  const EtlStackTreeNode *nodes;
  GString *s;
  guint n;

  nodes = etl_stack_tree_get_nodes (tree, &n);
  if (nodes[0].total == 0)
    return g_strdup_printf ("Thread time of %s: none in this range (no CSwitch or ReadyThread record covers it)",
                            who);
  total = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, nodes[0].total);
  s = g_string_new (NULL);
  g_string_append_printf (s, "Thread time of %s: %s, of it", who, total);
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      g_autofree char *part = etl_flame_graph_format_weight (ETL_STACK_TREE_UNIT_TICKS, etl_thread_time_tree_sum (tree, leaves[i]));

      g_string_append_printf (s, "%s %s %s", i > 0 ? "," : "", leaves[i], part);
    }
  g_string_append (s, ".");
  if (!etl_thread_states_has_ready_thread (self->states))
    g_string_append (s, " No ReadyThread records (DISPATCHER flag): ready time counts as BLOCKED_TIME, no waker.");
  if (etl_stack_tree_get_max_depth (tree) <= 3) /* process, thread, pseudo-frame */
    g_string_append (s, " No CSwitch stacks: record a stack walk on CSwitch and ReadyThread.");
  g_string_append (s, " Top Frames counts CPU samples only.");
  return g_string_free (s, FALSE);
}

static void
on_thread_time (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (source);
  g_autoptr (GError) error = NULL;
  EtlStackTree *tree = g_task_propagate_pointer (G_TASK (result), &error);

  if (tree == NULL)
    {
      if (GPOINTER_TO_UINT (user_data) == self->generation
          && job_failed (self, error, ETL_STACKS_DIALOG_SOURCE_THREAD_TIME))
        self->thread_time_busy = FALSE;
      return;
    }
  if (self->store == NULL || GPOINTER_TO_UINT (user_data) != self->generation)
    {
      etl_stack_tree_free (tree); /* the dialog is gone, or the threads changed */
      return;
    }
  self->thread_time_busy = FALSE;
  self->thread_time_done = TRUE;
  g_free (self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME]);
  self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME] = thread_time_text (self, tree);
  etl_flame_graph_set_tree (self->graph[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], tree);
  show_summary (self);
}

static void
start_thread_time (EtlStacksDialog *self)
{
  g_autoptr (GTask) task = NULL;
  Job *job;

  if (self->states == NULL || self->thread_time_busy || self->thread_time_done)
    return;
  job = g_new0 (Job, 1);
  job->stacks = etl_stacks_ref (self->stacks);
  job->states = etl_thread_states_ref (self->states);
  job->tids = g_memdup2 (self->tids->data, self->tids->len * sizeof (guint32));
  job->n_tids = self->tids->len;
  job->from = self->from;
  job->to = self->to;
  self->thread_time_busy = TRUE;
  g_clear_object (&self->thread_time_cancellable);
  self->thread_time_cancellable = g_cancellable_new ();
  task = g_task_new (self, self->thread_time_cancellable, on_thread_time, GUINT_TO_POINTER (self->generation));
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, thread_time_thread);
}

static void
on_states (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (source);
  g_autoptr (GError) error = NULL;
  EtlThreadStates *states = g_task_propagate_pointer (G_TASK (result), &error);
  GtkWidget *button = self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME];
  gboolean has_cswitch;

  if (states == NULL)
    {
      if (job_failed (self, error, ETL_STACKS_DIALOG_SOURCE_THREAD_TIME))
        {
          self->states_busy = FALSE;
          gtk_widget_set_tooltip_text (button, self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME]);
        }
      return;
    }
  if (self->store == NULL)
    {
      etl_thread_states_unref (states);
      return;
    }
  self->states_busy = FALSE;
  self->states = states;
  has_cswitch = etl_thread_states_get_counts (states)->cswitch > 0;
  gtk_widget_set_sensitive (button, has_cswitch);
  gtk_widget_set_tooltip_text (button, has_cswitch ? thread_time_tooltip : no_cswitch_tooltip);
  if (self->source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
    start_thread_time (self);
  show_summary (self);
}

/* The pages --------------------------------------------------------------- */

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
update_title (EtlStacksDialog *self)
{
  g_autofree char *title
      = g_strdup_printf ("%s%s%s", self->source == ETL_STACKS_DIALOG_SOURCE_SAMPLES ? "Stacks of Samples" : "Thread Time",
                         self->range_text != NULL ? ": " : "", self->range_text != NULL ? self->range_text : "");

  gtk_window_set_title (GTK_WINDOW (self), title);
}

/* Shows the pages of the source whose button is active. */
static void
on_source_toggled (GtkToggleButton *button, gpointer user_data)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (user_data);
  EtlStacksDialogSource source;

  if (!gtk_toggle_button_get_active (button))
    return; /* the other button's "toggled" follows */
  source = GTK_WIDGET (button) == self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME]
               ? ETL_STACKS_DIALOG_SOURCE_THREAD_TIME
               : ETL_STACKS_DIALOG_SOURCE_SAMPLES;
  self->source = source;
  gtk_stack_set_visible_child (self->graphs, GTK_WIDGET (self->graph[source]));
  /* Top Frames counts samples: hidden (its tab too) for thread time. */
  gtk_widget_set_visible (self->top_page, source == ETL_STACKS_DIALOG_SOURCE_SAMPLES);
  if (source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
    {
      gtk_notebook_set_current_page (self->notebook, gtk_notebook_page_num (self->notebook, self->flame_page));
      start_thread_time (self);
    }
  update_title (self);
  show_summary (self);
}

static void
etl_stacks_dialog_dispose (GObject *object)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->thread_time_cancellable != NULL)
    g_cancellable_cancel (self->thread_time_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->thread_time_cancellable);
  g_clear_object (&self->store);
  g_clear_pointer (&self->states, etl_thread_states_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  G_OBJECT_CLASS (etl_stacks_dialog_parent_class)->dispose (object);
}

static void
etl_stacks_dialog_finalize (GObject *object)
{
  EtlStacksDialog *self = ETL_STACKS_DIALOG (object);

  for (guint i = 0; i < N_SOURCES; i++)
    g_free (self->summary_text[i]);
  g_free (self->range_text);
  g_array_unref (self->tids);
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
  static const char *const source_names[N_SOURCES] = { "CPU samples", "Thread time" };
  GtkWidget *area = gtk_dialog_get_content_area (GTK_DIALOG (self));
  GtkWidget *scroller = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *switcher = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *flame_scroller;
  GtkTreeView *view;

  self->tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->store = gtk_list_store_new (ETL_STACKS_DIALOG_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_UINT64,
                                    G_TYPE_DOUBLE);

  /* The source: a linked pair of toggles, as a GtkStackSwitcher looks. */
  gtk_style_context_add_class (gtk_widget_get_style_context (switcher), GTK_STYLE_CLASS_LINKED);
  gtk_widget_set_halign (switcher, GTK_ALIGN_START);
  gtk_widget_set_margin_start (switcher, 6);
  gtk_widget_set_margin_top (switcher, 6);
  for (guint i = 0; i < N_SOURCES; i++)
    {
      self->source_button[i] = i == 0 ? gtk_radio_button_new_with_label (NULL, source_names[i])
                                      : gtk_radio_button_new_with_label_from_widget (
                                            GTK_RADIO_BUTTON (self->source_button[0]), source_names[i]);
      gtk_toggle_button_set_mode (GTK_TOGGLE_BUTTON (self->source_button[i]), FALSE);
      gtk_container_add (GTK_CONTAINER (switcher), self->source_button[i]);
      g_signal_connect (self->source_button[i], "toggled", G_CALLBACK (on_source_toggled), self);
    }
  gtk_widget_set_tooltip_text (self->source_button[ETL_STACKS_DIALOG_SOURCE_SAMPLES], samples_tooltip);
  /* Until the states job has told whether the trace has CSwitch records. */
  gtk_widget_set_sensitive (self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], FALSE);
  gtk_widget_set_tooltip_text (self->source_button[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME],
                               "Reading the CSwitch and ReadyThread records…");
  gtk_container_add (GTK_CONTAINER (area), switcher);

  self->label = GTK_LABEL (gtk_label_new ("Counting the samples' stacks…"));
  gtk_label_set_xalign (self->label, 0.0);
  gtk_label_set_line_wrap (self->label, TRUE);
  gtk_label_set_selectable (self->label, TRUE);
  gtk_widget_set_can_focus (GTK_WIDGET (self->label), FALSE);
  gtk_widget_set_margin_start (GTK_WIDGET (self->label), 6);
  gtk_widget_set_margin_end (GTK_WIDGET (self->label), 6);
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
  self->top_page = scroller;
  self->notebook = GTK_NOTEBOOK (gtk_notebook_new ());
  gtk_notebook_append_page (self->notebook, scroller, gtk_label_new ("Top Frames"));

  /* One graph per source, so that switching back keeps each tree. */
  self->graphs = GTK_STACK (gtk_stack_new ());
  for (guint i = 0; i < N_SOURCES; i++)
    {
      self->graph[i] = ETL_FLAME_GRAPH (etl_flame_graph_new ());
      gtk_stack_add_named (self->graphs, GTK_WIDGET (self->graph[i]), i == 0 ? "samples" : "thread-time");
    }
  gtk_stack_set_vhomogeneous (self->graphs, FALSE);
  flame_scroller = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (flame_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (flame_scroller), GTK_WIDGET (self->graphs));
  self->flame_page = flame_scroller;
  gtk_notebook_append_page (self->notebook, flame_scroller, gtk_label_new ("Flame Graph"));
  gtk_widget_set_vexpand (GTK_WIDGET (self->notebook), TRUE);
  gtk_container_add (GTK_CONTAINER (area), GTK_WIDGET (self->notebook));
  gtk_window_set_default_size (GTK_WINDOW (self), 800, 560);
  gtk_widget_show_all (area);
}

/**
 * etl_stacks_dialog_new:
 * @parent: (nullable): the window it belongs to
 * @stacks: (transfer none): the trace's stacks (its trace,
 *   etl_stacks_get_trace(), gives the CSwitch and ReadyThread records)
 * @from_filetime: start of the range, FILETIME
 * @to_filetime: end of the range (exclusive), FILETIME
 * @range_text: (nullable): the range as shown in the title, e.g. "1.2 s – 3.4 s"
 *
 * Creates the dialog, showing CPU samples of every thread, and starts the
 * samples' summary and the trace's thread states in workers.
 *
 * Returns: (transfer floating): the dialog (not shown)
 */
GtkWidget *
etl_stacks_dialog_new (GtkWindow *parent, EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                       const char *range_text)
{
  EtlStacksDialog *self;
  g_autoptr (GTask) task = NULL;
  g_autoptr (GTask) states_task = NULL;
  Job *job, *states_job;

  g_return_val_if_fail (stacks != NULL, NULL);
  self = g_object_new (ETL_TYPE_STACKS_DIALOG, "transient-for", parent, "use-header-bar", TRUE,
                       "destroy-with-parent", TRUE, NULL);
  self->stacks = etl_stacks_ref (stacks);
  self->from = from_filetime;
  self->to = to_filetime;
  self->range_text = g_strdup (range_text);
  update_title (self);
  if (parent != NULL) /* most of the window: a flame graph needs the width */
    gtk_window_set_default_size (GTK_WINDOW (self),
                                 MAX (800, gtk_widget_get_allocated_width (GTK_WIDGET (parent)) * 17 / 20),
                                 MAX (560, gtk_widget_get_allocated_height (GTK_WIDGET (parent)) * 17 / 20));
  self->cancellable = g_cancellable_new ();

  job = g_new0 (Job, 1);
  job->stacks = etl_stacks_ref (stacks);
  job->from = from_filetime;
  job->to = to_filetime;
  self->samples_busy = TRUE;
  task = g_task_new (self, self->cancellable, on_summary, NULL);
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, summarize_thread);

  states_job = g_new0 (Job, 1);
  states_job->stacks = etl_stacks_ref (stacks);
  self->states_busy = TRUE;
  states_task = g_task_new (self, self->cancellable, on_states, NULL);
  g_task_set_task_data (states_task, states_job, job_free);
  etl_worker_run (states_task, states_thread);
  return GTK_WIDGET (self);
}

/**
 * etl_stacks_dialog_set_threads:
 * @self: a dialog
 * @tids: (array length=n_tids) (nullable): thread ids, each once
 * @n_tids: the number of @tids; 0 for every thread
 *
 * Sets the threads whose thread time the Thread time source shows (the CPU
 * samples stay those of every thread); a thread-time tree already computed
 * or under way for other threads is dropped, and computed again when Thread
 * time is shown.
 */
void
etl_stacks_dialog_set_threads (EtlStacksDialog *self, const guint32 *tids, guint n_tids)
{
  g_return_if_fail (ETL_IS_STACKS_DIALOG (self));
  g_return_if_fail (tids != NULL || n_tids == 0);

  if (n_tids == self->tids->len && (n_tids == 0 || memcmp (tids, self->tids->data, n_tids * sizeof *tids) == 0))
    return;
  g_array_set_size (self->tids, 0);
  g_array_append_vals (self->tids, tids, n_tids);
  self->generation++;
  if (self->thread_time_cancellable != NULL)
    g_cancellable_cancel (self->thread_time_cancellable);
  self->thread_time_busy = FALSE;
  self->thread_time_done = FALSE;
  g_clear_pointer (&self->summary_text[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], g_free);
  etl_flame_graph_set_tree (self->graph[ETL_STACKS_DIALOG_SOURCE_THREAD_TIME], NULL);
  if (self->source == ETL_STACKS_DIALOG_SOURCE_THREAD_TIME)
    {
      start_thread_time (self);
      show_summary (self);
    }
}

/**
 * etl_stacks_dialog_get_threads:
 * @self: a dialog
 * @n_tids: (out): the number of thread ids; 0 for every thread
 *
 * Returns: (array length=n_tids) (transfer none) (nullable): the threads of
 *   Thread time (etl_stacks_dialog_set_threads())
 */
const guint32 *
etl_stacks_dialog_get_threads (EtlStacksDialog *self, guint *n_tids)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  g_return_val_if_fail (n_tids != NULL, NULL);
  *n_tids = self->tids->len;
  return self->tids->len > 0 ? (const guint32 *) self->tids->data : NULL;
}

/**
 * etl_stacks_dialog_set_source:
 * @self: a dialog
 * @source: what to show
 *
 * Chooses the source as a click on its button does, and only when the
 * button is sensitive: Thread time is not while the thread states are
 * being read, nor in a trace without CSwitch records.
 */
void
etl_stacks_dialog_set_source (EtlStacksDialog *self, EtlStacksDialogSource source)
{
  g_return_if_fail (ETL_IS_STACKS_DIALOG (self));
  g_return_if_fail (source < N_SOURCES);

  if (gtk_widget_is_sensitive (self->source_button[source]))
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->source_button[source]), TRUE);
}

/**
 * etl_stacks_dialog_get_source:
 * @self: a dialog
 *
 * Returns: what the dialog shows
 */
EtlStacksDialogSource
etl_stacks_dialog_get_source (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), ETL_STACKS_DIALOG_SOURCE_SAMPLES);
  return self->source;
}

/**
 * etl_stacks_dialog_get_source_button:
 * @self: a dialog
 * @source: a source
 *
 * Returns: (transfer none): the toggle button that chooses @source (its
 *   sensitivity and tooltip say whether the trace allows it)
 */
GtkWidget *
etl_stacks_dialog_get_source_button (EtlStacksDialog *self, EtlStacksDialogSource source)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  g_return_val_if_fail (source < N_SOURCES, NULL);
  return self->source_button[source];
}

/**
 * etl_stacks_dialog_get_busy:
 * @self: a dialog
 *
 * Returns: whether a worker is still computing: the samples' summary, the
 *   thread states, or a thread-time tree
 */
gboolean
etl_stacks_dialog_get_busy (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), FALSE);
  return self->samples_busy || self->states_busy || self->thread_time_busy;
}

/**
 * etl_stacks_dialog_get_model:
 * @self: a dialog
 *
 * Returns: (transfer none): the Top Frames rows of the CPU samples
 *   (#EtlStacksDialogColumn), empty while busy
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
 * Returns: (nullable): the line above the pages for the source shown once
 *   computed, else %NULL
 */
const char *
etl_stacks_dialog_get_summary_text (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return self->summary_text[self->source];
}

/**
 * etl_stacks_dialog_get_flame_graph:
 * @self: a dialog
 *
 * Returns: (transfer none): the flame graph of the source shown (no tree
 *   while busy)
 */
EtlFlameGraph *
etl_stacks_dialog_get_flame_graph (EtlStacksDialog *self)
{
  g_return_val_if_fail (ETL_IS_STACKS_DIALOG (self), NULL);
  return self->graph[self->source];
}
