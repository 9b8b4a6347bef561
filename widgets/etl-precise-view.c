/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-precise-view
 * @title: EtlPreciseView
 * @short_description: WPA's CPU Usage (Precise) table, grouped
 *
 * The switch-ins of an #EtlThreadStates (one per CSwitch record, see
 * #EtlSwitchIn) grouped by WPA's default chain New Process ▸ New Thread ▸
 * Readying Process ▸ Wait Reason (the New Prev Wait Reason: why the thread
 * had left the processor), each group with its Count and the sums of Ready
 * (µs), Waits (µs) and CPU Usage (µs), sortable by a click on a header.
 * The innermost groups hold their switch-ins, the
 * #ETL_PRECISE_VIEW_MAX_LEAVES longest Waits first; the rest are one
 * "… N more" row.  With "Selected range" on, only the switch-ins whose
 * Switch-In Time lies in the range selected in the timeline count.
 *
 * The thread states are built once per trace and the groups once per range,
 * both in a worker (#GTask, etl_worker_run()): requests made in one
 * main-loop turn collapse into one, a new one cancels the previous, and the
 * result replaces the store in one go.  A trace without CSwitch records
 * shows a message saying how to record them instead of the table.
 *
 * Wait reasons are shown by their KWAIT_REASON names
 * (etl_cswitch_wait_reason_name(), from Microsoft's CSwitch MOF class page).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-precise-view.h"

#include "etl-cswitch.h"
#include "etl-process-table.h"
#include "etl-time-ruler.h"
#include "etl-worker.h"

#define N_LEVELS 4

static const char no_cswitch_message[]
    = "No CSwitch records: record with the kernel's CSWITCH flag (and DISPATCHER for ReadyThread)";

struct _EtlPreciseView
{
  GtkBox parent_instance;

  GtkToggleButton *range_toggle;
  GtkLabel *status;
  GtkStack *stack;
  GtkLabel *message;
  GtkTreeView *tree_view;
  GtkTreeStore *store;

  EtlTrace *trace;
  EtlThreadStates *states;
  gint64 begin;
  gint64 end;

  GCancellable *cancellable;
  guint idle_id;
};

G_DEFINE_FINAL_TYPE (EtlPreciseView, etl_precise_view, GTK_TYPE_BOX)

/* A group of the chain; the innermost ones keep their longest-waiting
 * switch-ins (indices into the states' rows). */
typedef struct
{
  char *label;
  guint64 count;
  gint64 ready;
  gint64 waits;
  gint64 cpu_usage;
  GPtrArray *children; /* of Node, NULL on the innermost level */
  GArray *leaves;      /* of guint, innermost level only */
  guint64 rest_count;
  gint64 rest_ready, rest_waits, rest_cpu_usage;
} Node;

static void
node_free (gpointer data)
{
  Node *node = data;

  g_free (node->label);
  g_clear_pointer (&node->children, g_ptr_array_unref);
  g_clear_pointer (&node->leaves, g_array_unref);
  g_free (node);
}

static Node *
node_new (char *label, gboolean innermost)
{
  Node *node = g_new0 (Node, 1);

  node->label = label;
  if (innermost)
    node->leaves = g_array_new (FALSE, FALSE, sizeof (guint));
  else
    node->children = g_ptr_array_new_with_free_func (node_free);
  return node;
}

typedef struct
{
  EtlTrace *trace;
  EtlThreadStates *states; /* NULL: build them */
  gint64 begin;
  gint64 end;
} Job;

typedef struct
{
  EtlThreadStates *states;
  Node *root;
  guint64 n_rows;
  guint n_processes;
} Result;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_trace_unref (job->trace);
  g_clear_pointer (&job->states, etl_thread_states_unref);
  g_free (job);
}

static void
result_free (gpointer data)
{
  Result *result = data;

  g_clear_pointer (&result->states, etl_thread_states_unref);
  g_clear_pointer (&result->root, node_free);
  g_free (result);
}

/* The key of @row at @level of the chain; "unknown" ids sort last. */
static gint64
level_key (const EtlSwitchIn *row, guint level)
{
  switch (level)
    {
    case 0:
      return row->new_pid;
    case 1:
      return row->new_tid;
    case 2:
      return row->readying_pid;
    default:
      return row->new_prev_wait_reason < 0 ? G_MAXINT64 : row->new_prev_wait_reason;
    }
}

/* The chain's order, then the longest Waits first, then by time. */
static gint
compare_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlSwitchIn *rows = user_data;
  const EtlSwitchIn *x = &rows[*(const guint *)a], *y = &rows[*(const guint *)b];

  for (guint level = 0; level < N_LEVELS; level++)
    {
      gint64 kx = level_key (x, level), ky = level_key (y, level);

      if (kx != ky)
        return kx < ky ? -1 : 1;
    }
  if (x->waits != y->waits)
    return x->waits > y->waits ? -1 : 1;
  return (x->switch_in > y->switch_in) - (x->switch_in < y->switch_in);
}

static char *
process_label (EtlProcessTable *table, guint32 pid, guint32 tid, gint64 filetime)
{
  if (pid == ETL_THREAD_STATES_NO_ID)
    return g_strdup ("Unknown");
  if (pid == 0)
    return g_strdup (tid == 0 ? "Idle (0)" : "System (0)");
  return etl_process_format_name (table != NULL ? etl_process_table_lookup (table, pid, filetime) : NULL, pid);
}

static char *
level_label (EtlProcessTable *table, const EtlSwitchIn *row, guint level)
{
  switch (level)
    {
    case 0:
      return process_label (table, row->new_pid, row->new_tid, row->switch_in);
    case 1:
      return g_strdup_printf ("Thread %u", row->new_tid);
    case 2:
      if (row->readying_tid == ETL_THREAD_STATES_NO_ID)
        return g_strdup ("Not readied");
      if (row->readying_tid == 0)
        /* The ReadyThread's header thread 0: a DPC or the idle thread. */
        return g_strdup ("DPC / Idle (0)");
      return process_label (table, row->readying_pid, row->readying_tid, row->ready_time);
    default:
      if (row->new_prev_wait_reason < 0)
        return g_strdup ("Wait Reason unknown");
      if (etl_cswitch_wait_reason_name (row->new_prev_wait_reason) != NULL)
        return g_strdup (etl_cswitch_wait_reason_name (row->new_prev_wait_reason));
      return g_strdup_printf ("Wait Reason %d", row->new_prev_wait_reason);
    }
}

static void
add_to (Node *node, const EtlSwitchIn *row)
{
  node->count++;
  node->ready += row->ready;
  node->waits += row->waits;
  node->cpu_usage += row->cpu_usage;
}

/* Groups the switch-ins timed in [@begin, @end) (all when @end ≤ @begin). */
static Node *
build_groups (EtlTrace *trace, EtlThreadStates *states, gint64 begin, gint64 end, guint64 *n_rows,
              guint *n_processes, GCancellable *cancellable)
{
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  guint n = 0;
  const EtlSwitchIn *rows = etl_thread_states_get_switch_ins (states, &n);
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  Node *root = node_new (NULL, FALSE), *cur[N_LEVELS] = { NULL };

  for (guint i = 0; i < n; i++)
    if (end <= begin || (rows[i].switch_in >= begin && rows[i].switch_in < end))
      g_array_append_val (order, i);
  if (g_cancellable_is_cancelled (cancellable))
    return root;
  g_qsort_with_data (order->data, (gint)order->len, sizeof (guint), compare_rows, (gpointer)rows);
  for (guint k = 0; k < order->len; k++)
    {
      guint i = g_array_index (order, guint, k);
      const EtlSwitchIn *row = &rows[i];
      const EtlSwitchIn *prev = k > 0 ? &rows[g_array_index (order, guint, k - 1)] : NULL;
      Node *parent = root;
      gboolean fresh = prev == NULL;

      if ((k & 0xffff) == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      add_to (root, row);
      for (guint level = 0; level < N_LEVELS; level++)
        {
          fresh = fresh || level_key (row, level) != level_key (prev, level);
          if (fresh)
            {
              cur[level] = node_new (level_label (table, row, level), level == N_LEVELS - 1);
              g_ptr_array_add (parent->children, cur[level]);
            }
          add_to (cur[level], row);
          parent = cur[level];
        }
      if (parent->leaves->len < ETL_PRECISE_VIEW_MAX_LEAVES)
        g_array_append_val (parent->leaves, i);
      else
        {
          parent->rest_count++;
          parent->rest_ready += row->ready;
          parent->rest_waits += row->waits;
          parent->rest_cpu_usage += row->cpu_usage;
        }
    }
  *n_rows = order->len;
  *n_processes = root->children->len;
  return root;
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  Result *result = g_new0 (Result, 1);

  result->states = job->states != NULL ? etl_thread_states_ref (job->states)
                                       : etl_thread_states_new (job->trace, cancellable, &error);
  if (result->states == NULL)
    {
      result_free (result);
      g_task_return_error (task, error);
      return;
    }
  result->root = build_groups (job->trace, result->states, job->begin, job->end, &result->n_rows,
                               &result->n_processes, cancellable);
  if (g_task_return_error_if_cancelled (task))
    result_free (result);
  else
    g_task_return_pointer (task, result, result_free);
}

/* Ticks (100 ns) as µs with one decimal and thousands separators. */
static char *
format_us (gint64 ticks)
{
  return g_strdup_printf ("%'" G_GINT64_FORMAT ".%d", ticks / 10, (int)(ABS (ticks) % 10));
}

static void
set_row (EtlPreciseView *self, GtkTreeIter *iter, const char *label, guint64 count, gint64 ready, gint64 waits,
         gint64 cpu_usage, gint64 switch_in)
{
  g_autofree char *count_text = g_strdup_printf ("%'" G_GUINT64_FORMAT, count);
  g_autofree char *ready_text = format_us (ready);
  g_autofree char *waits_text = format_us (waits);
  g_autofree char *usage_text = format_us (cpu_usage);
  g_autofree char *time_text = switch_in >= 0 ? etl_time_format_span (switch_in) : g_strdup ("");

  gtk_tree_store_set (self->store, iter, ETL_PRECISE_VIEW_COLUMN_LABEL, label, ETL_PRECISE_VIEW_COLUMN_COUNT, count,
                      ETL_PRECISE_VIEW_COLUMN_COUNT_TEXT, count_text, ETL_PRECISE_VIEW_COLUMN_READY, ready,
                      ETL_PRECISE_VIEW_COLUMN_READY_TEXT, ready_text, ETL_PRECISE_VIEW_COLUMN_WAITS, waits,
                      ETL_PRECISE_VIEW_COLUMN_WAITS_TEXT, waits_text, ETL_PRECISE_VIEW_COLUMN_CPU_USAGE, cpu_usage,
                      ETL_PRECISE_VIEW_COLUMN_CPU_USAGE_TEXT, usage_text, ETL_PRECISE_VIEW_COLUMN_SWITCH_IN,
                      switch_in, ETL_PRECISE_VIEW_COLUMN_SWITCH_IN_TEXT, time_text, -1);
}

static void
add_node (EtlPreciseView *self, GtkTreeIter *parent, const Node *node)
{
  GtkTreeIter iter;

  gtk_tree_store_insert_with_values (self->store, &iter, parent, -1, -1);
  set_row (self, &iter, node->label, node->count, node->ready, node->waits, node->cpu_usage, -1);
  if (node->children != NULL)
    {
      for (guint i = 0; i < node->children->len; i++)
        add_node (self, &iter, g_ptr_array_index (node->children, i));
      return;
    }
  {
    guint n;
    const EtlSwitchIn *rows = etl_thread_states_get_switch_ins (self->states, &n);
    gint64 origin = etl_trace_get_origin (self->trace);

    for (guint i = 0; i < node->leaves->len; i++)
      {
        const EtlSwitchIn *row = &rows[g_array_index (node->leaves, guint, i)];
        GtkTreeIter leaf;
        g_autofree char *label = NULL;

        if (row->readying_tid == ETL_THREAD_STATES_NO_ID)
          label = g_strdup_printf ("CPU %u", row->cpu);
        else
          label = g_strdup_printf ("CPU %u · Readying Thread Id %u", row->cpu, row->readying_tid);
        gtk_tree_store_insert_with_values (self->store, &leaf, &iter, -1, -1);
        set_row (self, &leaf, label, 1, row->ready, row->waits, row->cpu_usage, row->switch_in - origin);
      }
    if (node->rest_count > 0)
      {
        GtkTreeIter leaf;
        g_autofree char *label = g_strdup_printf ("… %'" G_GUINT64_FORMAT " more (the %u longest Waits are shown)",
                                                  node->rest_count, ETL_PRECISE_VIEW_MAX_LEAVES);

        gtk_tree_store_insert_with_values (self->store, &leaf, &iter, -1, -1);
        set_row (self, &leaf, label, node->rest_count, node->rest_ready, node->rest_waits, node->rest_cpu_usage,
                 -1);
      }
  }
}

static void
show_result (EtlPreciseView *self, const Result *result)
{
  g_autofree char *text = NULL;

  g_object_ref (self->store);
  gtk_tree_view_set_model (self->tree_view, NULL);
  gtk_tree_store_clear (self->store);
  if (result != NULL)
    for (guint i = 0; i < result->root->children->len; i++)
      add_node (self, NULL, g_ptr_array_index (result->root->children, i));
  gtk_tree_view_set_model (self->tree_view, GTK_TREE_MODEL (self->store));
  g_object_unref (self->store);
  if (result == NULL)
    {
      gtk_label_set_text (self->status, self->trace != NULL ? "Computing…" : "");
      gtk_stack_set_visible_child_name (self->stack, "table");
      return;
    }
  if (etl_thread_states_get_counts (result->states)->cswitch == 0)
    {
      gtk_label_set_text (self->status, "");
      gtk_stack_set_visible_child_name (self->stack, "message");
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "table");
  text = g_strdup_printf ("%'" G_GUINT64_FORMAT " switch-ins · %u processes%s%s", result->n_rows,
                          result->n_processes,
                          etl_thread_states_has_ready_thread (result->states)
                              ? ""
                              : " · no ReadyThread records: Ready and Waits from the switch-out state",
                          gtk_toggle_button_get_active (self->range_toggle) && self->end > self->begin
                              ? " · selected range"
                              : "");
  gtk_label_set_text (self->status, text);
}

static void
on_computed (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr (EtlPreciseView) self = user_data;
  g_autoptr (GError) error = NULL;
  Result *result = g_task_propagate_pointer (G_TASK (res), &error);

  if (g_task_get_cancellable (G_TASK (res)) != self->cancellable)
    {
      if (result != NULL)
        result_free (result);
      return;
    }
  g_clear_object (&self->cancellable);
  if (result == NULL)
    {
      gtk_label_set_text (self->status, error->message);
      return;
    }
  if (self->states == NULL)
    self->states = etl_thread_states_ref (result->states);
  show_result (self, result);
  result_free (result);
}

static gboolean
start_compute (gpointer user_data)
{
  EtlPreciseView *self = user_data;
  g_autoptr (GTask) task = NULL;
  Job *job;

  self->idle_id = 0;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  show_result (self, NULL);
  if (self->trace == NULL)
    return G_SOURCE_REMOVE;
  job = g_new0 (Job, 1);
  job->trace = etl_trace_ref (self->trace);
  job->states = self->states != NULL ? etl_thread_states_ref (self->states) : NULL;
  if (gtk_toggle_button_get_active (self->range_toggle) && self->end > self->begin)
    {
      job->begin = self->begin;
      job->end = self->end;
    }
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, on_computed, g_object_ref (self));
  g_task_set_source_tag (task, start_compute);
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, compute_thread);
  return G_SOURCE_REMOVE;
}

static void
schedule (EtlPreciseView *self)
{
  if (self->idle_id == 0)
    self->idle_id = g_idle_add (start_compute, self);
}

/**
 * etl_precise_view_set_trace:
 * @self: a view
 * @trace: (nullable): the trace; %NULL empties the view
 *
 * Builds the thread states of @trace (etl_thread_states_new()) and the
 * groups, in a worker, soon.  The selected range is forgotten.
 */
void
etl_precise_view_set_trace (EtlPreciseView *self, EtlTrace *trace)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self));
  if (trace != NULL)
    etl_trace_ref (trace);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->states, etl_thread_states_unref);
  self->trace = trace;
  self->begin = self->end = 0;
  schedule (self);
}

/**
 * etl_precise_view_set_range:
 * @self: a view
 * @begin: FILETIME of the selected range's start
 * @end: FILETIME of its end (exclusive); @end ≤ @begin: no range selected
 *
 * The range "Selected range" counts (by Switch-In Time); regroups when that
 * is on.
 */
void
etl_precise_view_set_range (EtlPreciseView *self, gint64 begin, gint64 end)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self));
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
 * etl_precise_view_set_use_range:
 * @self: a view
 * @use_range: %TRUE to count only the switch-ins in the selected range
 *
 * Sets the "Selected range" toggle.
 */
void
etl_precise_view_set_use_range (EtlPreciseView *self, gboolean use_range)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self));
  gtk_toggle_button_set_active (self->range_toggle, use_range);
}

/**
 * etl_precise_view_get_states:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the thread states of the trace,
 *   %NULL until they are built
 */
EtlThreadStates *
etl_precise_view_get_states (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), NULL);
  return self->states;
}

/**
 * etl_precise_view_get_message:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the message shown instead of the
 *   table (the trace has no CSwitch record), %NULL while the table shows
 */
const char *
etl_precise_view_get_message (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), NULL);
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "message") != 0)
    return NULL;
  return gtk_label_get_text (self->message);
}

/**
 * etl_precise_view_is_busy:
 * @self: a view
 *
 * Returns: %TRUE while the states or the groups are pending or being built
 */
gboolean
etl_precise_view_is_busy (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), FALSE);
  return self->idle_id != 0 || self->cancellable != NULL;
}

/**
 * etl_precise_view_get_tree_view:
 * @self: a view
 *
 * Returns: (transfer none): the tree view (its model is a #GtkTreeStore with
 *   the #EtlPreciseViewColumn columns)
 */
GtkTreeView *
etl_precise_view_get_tree_view (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), NULL);
  return self->tree_view;
}

static void
on_range_toggled (GtkToggleButton *button, EtlPreciseView *self)
{
  if (self->end > self->begin)
    schedule (self);
}

static void
add_column (EtlPreciseView *self, const char *title, int text_column, int sort_column, gboolean numeric)
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
      gtk_tree_view_column_set_expand (column, TRUE);
      gtk_tree_view_column_set_min_width (column, 220);
    }
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_column_set_sort_column_id (column, sort_column);
  gtk_tree_view_append_column (self->tree_view, column);
}

static void
etl_precise_view_dispose (GObject *object)
{
  EtlPreciseView *self = ETL_PRECISE_VIEW (object);

  if (self->idle_id != 0)
    g_source_remove (self->idle_id);
  self->idle_id = 0;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->states, etl_thread_states_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_object (&self->store);
  G_OBJECT_CLASS (etl_precise_view_parent_class)->dispose (object);
}

static void
etl_precise_view_class_init (EtlPreciseViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_precise_view_dispose;
  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etlpreciseview");
}

static void
etl_precise_view_init (EtlPreciseView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *scrolled = gtk_scrolled_window_new (NULL, NULL);

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  g_object_set (bar, "margin-start", 6, "margin-end", 6, "margin-top", 4, "margin-bottom", 4, NULL);
  self->range_toggle = GTK_TOGGLE_BUTTON (gtk_check_button_new_with_label ("Selected range"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_toggle),
                               "Count only the switch-ins in the time range selected in the timeline "
                               "(else the whole trace)");
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (self->status, 0.0);
  gtk_label_set_width_chars (self->status, 4);
  g_object_set (self->status, "margin-start", 6, NULL);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->status)), "dim-label");
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->range_toggle), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->status), TRUE, TRUE, 0);

  self->store = gtk_tree_store_new (ETL_PRECISE_VIEW_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_STRING,
                                    G_TYPE_INT64, G_TYPE_STRING, G_TYPE_INT64, G_TYPE_STRING, G_TYPE_INT64,
                                    G_TYPE_STRING, G_TYPE_INT64, G_TYPE_STRING);
  self->tree_view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->store)));
  gtk_tree_view_set_enable_search (self->tree_view, TRUE);
  gtk_tree_view_set_search_column (self->tree_view, ETL_PRECISE_VIEW_COLUMN_LABEL);
  add_column (self, "New Process ▸ New Thread ▸ Readying Process ▸ Wait Reason", ETL_PRECISE_VIEW_COLUMN_LABEL,
              ETL_PRECISE_VIEW_COLUMN_LABEL, FALSE);
  add_column (self, "Count", ETL_PRECISE_VIEW_COLUMN_COUNT_TEXT, ETL_PRECISE_VIEW_COLUMN_COUNT, TRUE);
  add_column (self, "Ready (µs)", ETL_PRECISE_VIEW_COLUMN_READY_TEXT, ETL_PRECISE_VIEW_COLUMN_READY, TRUE);
  add_column (self, "Waits (µs)", ETL_PRECISE_VIEW_COLUMN_WAITS_TEXT, ETL_PRECISE_VIEW_COLUMN_WAITS, TRUE);
  add_column (self, "CPU Usage (µs)", ETL_PRECISE_VIEW_COLUMN_CPU_USAGE_TEXT, ETL_PRECISE_VIEW_COLUMN_CPU_USAGE,
              TRUE);
  add_column (self, "Switch-In Time", ETL_PRECISE_VIEW_COLUMN_SWITCH_IN_TEXT, ETL_PRECISE_VIEW_COLUMN_SWITCH_IN,
              TRUE);
  gtk_tree_view_set_tooltip_column (self->tree_view, ETL_PRECISE_VIEW_COLUMN_LABEL);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->tree_view));

  self->message = GTK_LABEL (gtk_label_new (no_cswitch_message));
  gtk_label_set_line_wrap (self->message, TRUE);
  gtk_label_set_justify (self->message, GTK_JUSTIFY_CENTER);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->message)), "dim-label");
  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->stack, scrolled, "table");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->message), "message");
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->stack), TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->stack, "table");
  g_signal_connect (self->range_toggle, "toggled", G_CALLBACK (on_range_toggled), self);
}

/**
 * etl_precise_view_new:
 *
 * Returns: (transfer floating): a new, empty view
 */
GtkWidget *
etl_precise_view_new (void)
{
  return g_object_new (ETL_TYPE_PRECISE_VIEW, NULL);
}
