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
 * "… N more" row.
 *
 * A choice above the table says which switch-ins count, by Switch-In Time
 * (#EtlPreciseViewRange): the whole trace, the timeline's visible range (the
 * default, as WPA's table follows the zoom; the view follows its
 * #EtlZoomManager, gathering the changes of a zoom or a scroll for
 * %ETL_PRECISE_VIEW_RANGE_DELAY_MS into one regrouping) or the range
 * selected in the timeline.
 *
 * Below the table, in a #GtkPaned, an #EtlPreciseDetails shows the selected
 * switch-in's fields and its two stacks (New Thread Stack, Ready Thread
 * Stack), or a group's sums.  A regrouping keeps the open groups open and
 * the selected switch-in selected when they are still counted.
 *
 * The thread states are built once per trace and the groups once per range,
 * both in a worker (#GTask, etl_worker_run()): requests made in one
 * main-loop turn collapse into one, a new one cancels the previous
 * grouping (but not the states' build: it is waited for, then the latest
 * request runs), and the result becomes the table's model
 * (#EtlPreciseModel, no rows copied) in one go while the previous table
 * stays shown.  A trace without CSwitch records
 * shows a message saying how to record them instead of the table.
 *
 * Wait reasons are shown by their KWAIT_REASON names
 * (etl_cswitch_wait_reason_name(), from Microsoft's CSwitch MOF class page).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-precise-view.h"

#include "etl-precise-groups.h"
#include "etl-process-table.h"
#include "etl-time-ruler.h"
#include "etl-worker.h"

#define NO_INDEX G_MAXUINT
/* A range no request has: the next one always runs. */
#define NO_RANGE G_MININT64

/* The choice's ids, in #EtlPreciseViewRange order. */
static const char *const range_ids[] = { "whole", "visible", "selected" };

static const char no_cswitch_message[]
    = "No CSwitch records: record with the kernel's CSWITCH flag (and DISPATCHER for ReadyThread)";

struct _EtlPreciseView
{
  GtkBox parent_instance;

  GtkComboBoxText *range_combo;
  GtkLabel *status;
  GtkStack *stack;
  GtkLabel *message;
  GtkPaned *paned;
  GtkTreeView *tree_view;
  GtkTreeModel *model; /* a GtkTreeModelSort over an EtlPreciseModel */
  EtlPreciseDetails *details;

  EtlTrace *trace;
  EtlStacks *stacks;
  EtlThreadStates *states;
  EtlZoomManager *zoom_manager;
  gulong zoom_handler;
  EtlPreciseViewRange mode;
  gint64 begin;           /* the selected range, 0 and 0 for none */
  gint64 end;
  gint64 asked_begin;     /* the range of the latest grouping started */
  gint64 asked_end;
  gint64 counted_begin;   /* the range the shown table counts (0, 0: all) */
  gint64 counted_end;
  guint selected_index;   /* the switch-in in the details, NO_INDEX none */
  gboolean rebuilding;    /* the model is being replaced: selection changes are not the user's */
  gboolean pending;       /* a request came while the states were being built */
  gboolean paned_by_user; /* the user took the handle: its position stays */
  int paned_height;       /* the paned's height the handle was placed for */
  guint n_groupings;
  guint64 fill_rows;      /* rows of the table the last show_result() set */
  gint64 fill_usec;       /* and its time on the main thread, µs */

  GCancellable *cancellable;
  guint idle_id;
  guint range_timeout_id;
  gint64 range_first_change; /* monotonic µs of a burst's first change */
};

G_DEFINE_FINAL_TYPE (EtlPreciseView, etl_precise_view, GTK_TYPE_BOX)

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
  EtlPreciseGroup *root;
  guint64 n_rows;
  guint n_processes;
  gint64 begin, end; /* the range counted, 0 and 0 for all */
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
  g_clear_pointer (&result->root, etl_precise_group_free);
  g_free (result);
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  GError *error = NULL;
  Result *result = g_new0 (Result, 1);

  result->states = job->states != NULL ? etl_thread_states_ref (job->states)
                                       : etl_thread_states_get_shared (job->trace, cancellable, &error);
  if (result->states == NULL)
    {
      result_free (result);
      g_task_return_error (task, error);
      return;
    }
  result->begin = job->begin;
  result->end = job->end;
  result->root = etl_precise_groups_build (job->trace, result->states, job->begin, job->end, &result->n_rows,
                               &result->n_processes, cancellable);
  if (g_task_return_error_if_cancelled (task))
    result_free (result);
  else
    g_task_return_pointer (task, result, result_free);
}

/* "1.0000 ms – 3.0000 ms" from the trace's origin. */
static char *
format_range (EtlPreciseView *self, gint64 begin, gint64 end)
{
  gint64 origin = etl_trace_get_origin (self->trace);
  g_autofree char *from = etl_time_format_span (begin - origin);
  g_autofree char *to = etl_time_format_span (end - origin);

  return g_strdup_printf ("%s – %s", from, to);
}

/* What the status line says of the range counted. */
static char *
range_text (EtlPreciseView *self, gint64 begin, gint64 end)
{
  g_autofree char *span = end > begin ? format_range (self, begin, end) : NULL;

  switch (self->mode)
    {
    case ETL_PRECISE_VIEW_RANGE_VISIBLE:
      if (span == NULL)
        return g_strdup (" · whole trace");
      if (begin <= etl_trace_get_first_filetime (self->trace) && end > etl_trace_get_last_filetime (self->trace))
        return g_strdup (" · visible range: the whole trace");
      return g_strdup_printf (" · visible range %s", span);
    case ETL_PRECISE_VIEW_RANGE_SELECTED:
      if (span == NULL)
        return g_strdup (" · no range selected: whole trace");
      return g_strdup_printf (" · selected range %s", span);
    case ETL_PRECISE_VIEW_RANGE_WHOLE:
    default:
      return g_strdup (" · whole trace");
    }
}

/* The leaf of switch-in @index under @parent (NULL: the top), depth first. */
static gboolean
find_index (GtkTreeModel *model, GtkTreeIter *parent, guint index, GtkTreeIter *found)
{
  GtkTreeIter iter;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    return FALSE;
  do
    {
      guint i;

      gtk_tree_model_get (model, &iter, ETL_PRECISE_VIEW_COLUMN_INDEX, &i, -1);
      if (i == index)
        {
          *found = iter;
          return TRUE;
        }
      if (find_index (model, &iter, index, found))
        return TRUE;
    }
  while (gtk_tree_model_iter_next (model, &iter));
  return FALSE;
}

/* @iter's labels from the top, joined by U+001F: what finds the same
 * group again after a regrouping (its path changes with the range). */
static char *
label_key (GtkTreeModel *model, GtkTreeIter *iter)
{
  GtkTreeIter cur = *iter, parent;
  GString *key = g_string_new (NULL);

  for (;;)
    {
      g_autofree char *label = NULL;

      gtk_tree_model_get (model, &cur, ETL_PRECISE_VIEW_COLUMN_LABEL, &label, -1);
      g_string_prepend (key, label != NULL ? label : "");
      if (!gtk_tree_model_iter_parent (model, &parent, &cur))
        break;
      g_string_prepend_c (key, '\x1f');
      cur = parent;
    }
  return g_string_free (key, FALSE);
}

static void
add_expanded (GtkTreeView *tree_view, GtkTreePath *path, gpointer user_data)
{
  GtkTreeModel *model = gtk_tree_view_get_model (tree_view);
  GtkTreeIter iter;

  if (gtk_tree_model_get_iter (model, &iter, path))
    g_hash_table_add (user_data, label_key (model, &iter));
}

/* Expands again, under @parent, the groups whose keys @expanded holds. */
static void
expand_again (EtlPreciseView *self, GtkTreeIter *parent, GHashTable *expanded)
{
  GtkTreeModel *model = self->model;
  GtkTreeIter iter;

  if (!gtk_tree_model_iter_children (model, &iter, parent))
    return;
  do
    {
      g_autofree char *key = NULL;
      g_autoptr (GtkTreePath) path = NULL;

      if (!gtk_tree_model_iter_has_child (model, &iter))
        continue;
      key = label_key (model, &iter);
      if (!g_hash_table_contains (expanded, key))
        continue;
      path = gtk_tree_model_get_path (model, &iter);
      gtk_tree_view_expand_row (self->tree_view, path, FALSE);
      expand_again (self, &iter, expanded);
    }
  while (gtk_tree_model_iter_next (model, &iter));
}

/* After a regrouping: the switch-in shown in the details, selected again
 * when it is still counted; else the details empty. */
static void
reselect (EtlPreciseView *self)
{
  GtkTreeModel *model = self->model;
  GtkTreeIter iter;
  g_autoptr (GtkTreePath) path = NULL;

  if (self->selected_index == NO_INDEX || !find_index (model, NULL, self->selected_index, &iter))
    {
      self->selected_index = NO_INDEX;
      etl_precise_details_clear (self->details);
      return;
    }
  path = gtk_tree_model_get_path (model, &iter);
  gtk_tree_view_expand_to_path (self->tree_view, path);
  gtk_tree_selection_select_iter (gtk_tree_view_get_selection (self->tree_view), &iter);
}

/* Shows @root's groups (NULL: none) in a new model, sorted as the table
 * was; the old model goes with the view's reference. */
static void
set_groups (EtlPreciseView *self, EtlPreciseGroup *root, EtlThreadStates *states)
{
  g_autoptr (EtlPreciseModel) groups
      = etl_precise_model_new (root, states, self->trace != NULL ? etl_trace_get_origin (self->trace) : 0);
  GtkTreeModel *sorted = gtk_tree_model_sort_new_with_model (GTK_TREE_MODEL (groups));
  int sort_column = GTK_TREE_SORTABLE_DEFAULT_SORT_COLUMN_ID;
  GtkSortType order = GTK_SORT_ASCENDING;

  if (self->model != NULL
      && gtk_tree_sortable_get_sort_column_id (GTK_TREE_SORTABLE (self->model), &sort_column, &order))
    gtk_tree_sortable_set_sort_column_id (GTK_TREE_SORTABLE (sorted), sort_column, order);
  self->fill_rows = etl_precise_model_get_n_rows (groups);
  gtk_tree_view_set_model (self->tree_view, sorted);
  g_clear_object (&self->model);
  self->model = sorted;
}

static void
show_result (EtlPreciseView *self, Result *result)
{
  g_autofree char *text = NULL;
  g_autofree char *range = NULL;
  g_autoptr (GHashTable) expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gint64 t0 = g_get_monotonic_time ();

  /* The groups open now stay open: a zoom regroups, it does not fold. */
  gtk_tree_view_map_expanded_rows (self->tree_view, add_expanded, expanded);
  self->rebuilding = TRUE;
  set_groups (self, result != NULL ? g_steal_pointer (&result->root) : NULL, result != NULL ? result->states : NULL);
  if (g_hash_table_size (expanded) > 0)
    expand_again (self, NULL, expanded);
  reselect (self);
  self->fill_usec = g_get_monotonic_time () - t0;
  self->rebuilding = FALSE;
  if (result == NULL)
    {
      gtk_label_set_text (self->status, self->trace != NULL ? "Computing…" : "");
      gtk_stack_set_visible_child_name (self->stack, "table");
      return;
    }
  self->counted_begin = result->begin;
  self->counted_end = result->end;
  if (etl_thread_states_get_counts (result->states)->cswitch == 0)
    {
      gtk_label_set_text (self->status, "");
      gtk_stack_set_visible_child_name (self->stack, "message");
      return;
    }
  gtk_stack_set_visible_child_name (self->stack, "table");
  range = range_text (self, result->begin, result->end);
  text = g_strdup_printf ("%'" G_GUINT64_FORMAT " switch-ins · %u processes%s%s", result->n_rows,
                          result->n_processes, range,
                          etl_thread_states_has_ready_thread (result->states)
                              ? ""
                              : " · no ReadyThread records: Ready and Waits from the switch-out state");
  gtk_label_set_text (self->status, text);
}

static gboolean start_compute (gpointer user_data);

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
      self->pending = FALSE;
      self->asked_begin = self->asked_end = NO_RANGE;
      gtk_label_set_text (self->status, error->message);
      return;
    }
  if (self->states == NULL)
    self->states = etl_thread_states_ref (result->states);
  show_result (self, result);
  result_free (result);
  /* A request that waited for the states: now, for the latest range. */
  if (self->pending)
    {
      self->pending = FALSE;
      if (self->idle_id == 0)
        self->idle_id = g_idle_add (start_compute, self);
    }
}

/* The range the table should count now: 0 and 0 for all. */
static void
wanted_range (EtlPreciseView *self, gint64 *begin, gint64 *end)
{
  *begin = *end = 0;
  switch (self->mode)
    {
    case ETL_PRECISE_VIEW_RANGE_VISIBLE:
      if (self->zoom_manager != NULL)
        etl_zoom_manager_get_visible (self->zoom_manager, begin, end);
      break;
    case ETL_PRECISE_VIEW_RANGE_SELECTED:
      *begin = self->begin;
      *end = self->end;
      break;
    case ETL_PRECISE_VIEW_RANGE_WHOLE:
    default:
      break;
    }
  if (*end <= *begin)
    *begin = *end = 0;
}

static gboolean
start_compute (gpointer user_data)
{
  EtlPreciseView *self = user_data;
  g_autoptr (GTask) task = NULL;
  Job *job;

  self->idle_id = 0;
  if (self->trace == NULL)
    {
      show_result (self, NULL);
      return G_SOURCE_REMOVE;
    }
  /* The states are being built: let them finish (they are built once per
   * trace), then group for the latest range. */
  if (self->cancellable != NULL && self->states == NULL)
    {
      self->pending = TRUE;
      return G_SOURCE_REMOVE;
    }
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->states == NULL)
    show_result (self, NULL);
  job = g_new0 (Job, 1);
  job->trace = etl_trace_ref (self->trace);
  job->states = self->states != NULL ? etl_thread_states_ref (self->states) : NULL;
  wanted_range (self, &job->begin, &job->end);
  self->asked_begin = job->begin;
  self->asked_end = job->end;
  self->n_groupings++;
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

/* Regroups when the range to count is not the one last asked for. */
static void
schedule_if_changed (EtlPreciseView *self)
{
  gint64 begin, end;

  if (self->trace == NULL)
    return;
  wanted_range (self, &begin, &end);
  if (begin != self->asked_begin || end != self->asked_end)
    schedule (self);
}

static gboolean
on_range_timeout (gpointer user_data)
{
  EtlPreciseView *self = user_data;

  self->range_timeout_id = 0;
  schedule_if_changed (self);
  return G_SOURCE_REMOVE;
}

/* The visible range moved: regroup once it has been still for
 * ETL_PRECISE_VIEW_RANGE_DELAY_MS (each change restarts the wait), and at
 * the latest ETL_PRECISE_VIEW_RANGE_MAX_WAIT_MS after the first change of
 * a burst, so a long drag still updates; the range is read when the wait
 * ends: the latest. */
static void
on_zoom_changed (EtlPreciseView *self, EtlZoomManager *zoom_manager)
{
  gint64 now = g_get_monotonic_time ();

  if (self->mode != ETL_PRECISE_VIEW_RANGE_VISIBLE || self->trace == NULL)
    return;
  if (self->range_timeout_id == 0)
    self->range_first_change = now;
  else if (now - self->range_first_change < (gint64) ETL_PRECISE_VIEW_RANGE_MAX_WAIT_MS * 1000)
    g_clear_handle_id (&self->range_timeout_id, g_source_remove);
  else
    return; /* the burst's wait is long enough: let it end */
  self->range_timeout_id = g_timeout_add (ETL_PRECISE_VIEW_RANGE_DELAY_MS, on_range_timeout, self);
}

/**
 * etl_precise_view_set_zoom_manager:
 * @self: a view
 * @zoom_manager: (nullable): the timeline's shared visible range, which
 *   "Visible range" counts and follows
 */
void
etl_precise_view_set_zoom_manager (EtlPreciseView *self, EtlZoomManager *zoom_manager)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self));
  if (etl_zoom_manager_follow (GTK_WIDGET (self), &self->zoom_manager, &self->zoom_handler, zoom_manager,
                               G_CALLBACK (on_zoom_changed))
      && self->mode == ETL_PRECISE_VIEW_RANGE_VISIBLE)
    schedule_if_changed (self);
}

/**
 * etl_precise_view_set_trace:
 * @self: a view
 * @trace: (nullable): the trace; %NULL empties the view
 * @stacks: (nullable): @trace's call stacks (etl_stacks_compute()), for
 *   the details' New Thread and Ready Thread stacks; %NULL when it has none
 *
 * Builds the thread states of @trace (etl_thread_states_get_shared(): one
 * build, shared with the timeline and the stacks dialog) and the groups,
 * in a worker, soon.  The selected range is forgotten.
 */
void
etl_precise_view_set_trace (EtlPreciseView *self, EtlTrace *trace, EtlStacks *stacks)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self));
  if (trace != NULL)
    etl_trace_ref (trace);
  if (stacks != NULL)
    etl_stacks_ref (stacks);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->range_timeout_id, g_source_remove);
  self->pending = FALSE;
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->states, etl_thread_states_unref);
  self->trace = trace;
  self->stacks = stacks;
  self->begin = self->end = 0;
  self->asked_begin = self->asked_end = NO_RANGE;
  self->counted_begin = self->counted_end = 0;
  self->selected_index = NO_INDEX;
  /* No row of the old trace stays: their indexes mean nothing now. */
  self->rebuilding = TRUE;
  set_groups (self, NULL, NULL);
  self->rebuilding = FALSE;
  etl_precise_details_clear (self->details);
  schedule (self);
}

/**
 * etl_precise_view_set_range:
 * @self: a view
 * @begin: FILETIME of the selected range's start
 * @end: FILETIME of its end (exclusive); @end ≤ @begin: no range selected
 *
 * The range "Selected range" counts (by Switch-In Time); regroups when that
 * is the choice.
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
  if (self->mode == ETL_PRECISE_VIEW_RANGE_SELECTED)
    schedule_if_changed (self);
}

/**
 * etl_precise_view_set_range_mode:
 * @self: a view
 * @mode: which switch-ins count
 *
 * Sets the range choice above the table (and regroups, soon, when that
 * changes the range counted).
 */
void
etl_precise_view_set_range_mode (EtlPreciseView *self, EtlPreciseViewRange mode)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self));
  g_return_if_fail (mode <= ETL_PRECISE_VIEW_RANGE_SELECTED);
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->range_combo), range_ids[mode]);
}

/**
 * etl_precise_view_get_range_mode:
 * @self: a view
 *
 * Returns: the range choice
 */
EtlPreciseViewRange
etl_precise_view_get_range_mode (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), ETL_PRECISE_VIEW_RANGE_WHOLE);
  return self->mode;
}

/**
 * etl_precise_view_get_counted_range:
 * @self: a view
 * @begin: (out): FILETIME of the start of the range the shown table counts
 * @end: (out): FILETIME of its end (exclusive)
 *
 * Both are 0 when the table counts the whole trace.
 */
void
etl_precise_view_get_counted_range (EtlPreciseView *self, gint64 *begin, gint64 *end)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self) && begin != NULL && end != NULL);
  *begin = self->counted_begin;
  *end = self->counted_end;
}

/**
 * etl_precise_view_get_n_groupings:
 * @self: a view
 *
 * Returns: how many groupings (worker jobs) have been started since the
 *   view was made, cancelled ones included: what a burst of range changes
 *   costs
 */
guint
etl_precise_view_get_n_groupings (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), 0);
  return self->n_groupings;
}

/**
 * etl_precise_view_get_last_fill:
 * @self: a view
 * @n_rows: (out) (optional): rows the table was last filled with (groups,
 *   switch-ins and "… N more" rows, open or not), at most %G_MAXUINT
 * @usec: (out) (optional): the main thread's time for it, µs: making the
 *   model over the groups, setting it on the view, opening the groups that
 *   were open and selecting the selected switch-in again
 *
 * What the last regrouping cost the main loop (bench-precise-page reports
 * it per 1,000 rows).
 */
void
etl_precise_view_get_last_fill (EtlPreciseView *self, guint *n_rows, gint64 *usec)
{
  g_return_if_fail (ETL_IS_PRECISE_VIEW (self));
  if (n_rows != NULL)
    *n_rows = (guint) MIN (self->fill_rows, G_MAXUINT);
  if (usec != NULL)
    *usec = self->fill_usec;
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
 * Returns: %TRUE while the states or the groups are pending or being built,
 *   or a visible-range change waits to be regrouped
 */
gboolean
etl_precise_view_is_busy (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), FALSE);
  return self->idle_id != 0 || self->cancellable != NULL || self->range_timeout_id != 0 || self->pending;
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

/**
 * etl_precise_view_get_details:
 * @self: a view
 *
 * Returns: (transfer none): the details area below the table
 */
EtlPreciseDetails *
etl_precise_view_get_details (EtlPreciseView *self)
{
  g_return_val_if_fail (ETL_IS_PRECISE_VIEW (self), NULL);
  return self->details;
}

static void
on_range_changed (GtkComboBox *combo, EtlPreciseView *self)
{
  const char *id = gtk_combo_box_get_active_id (combo);

  for (guint i = 0; i < G_N_ELEMENTS (range_ids); i++)
    if (g_strcmp0 (id, range_ids[i]) == 0)
      self->mode = (EtlPreciseViewRange)i;
  schedule_if_changed (self);
}

/* The group row @iter's labels from the top, " ▸ " between them. */
static char *
group_path (GtkTreeModel *model, GtkTreeIter *iter)
{
  GPtrArray *labels = g_ptr_array_new_with_free_func (g_free);
  GtkTreeIter cur = *iter, parent;
  GString *out = g_string_new (NULL);

  for (;;)
    {
      char *label = NULL;

      gtk_tree_model_get (model, &cur, ETL_PRECISE_VIEW_COLUMN_LABEL, &label, -1);
      g_ptr_array_add (labels, label);
      if (!gtk_tree_model_iter_parent (model, &parent, &cur))
        break;
      cur = parent;
    }
  for (guint i = labels->len; i > 0; i--)
    g_string_append_printf (out, "%s%s", i < labels->len ? " ▸ " : "", (char *)g_ptr_array_index (labels, i - 1));
  g_ptr_array_unref (labels);
  return g_string_free (out, FALSE);
}

static void
on_selection_changed (GtkTreeSelection *selection, EtlPreciseView *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  guint index, n = 0;
  const EtlSwitchIn *rows;
  guint64 count;
  gint64 ready, waits, cpu_usage;
  g_autofree char *path = NULL;

  if (self->rebuilding)
    return;
  if (!gtk_tree_selection_get_selected (selection, &model, &iter) || self->states == NULL)
    {
      self->selected_index = NO_INDEX;
      etl_precise_details_clear (self->details);
      return;
    }
  rows = etl_thread_states_get_switch_ins (self->states, &n);
  gtk_tree_model_get (model, &iter, ETL_PRECISE_VIEW_COLUMN_INDEX, &index, ETL_PRECISE_VIEW_COLUMN_COUNT, &count,
                      ETL_PRECISE_VIEW_COLUMN_READY, &ready, ETL_PRECISE_VIEW_COLUMN_WAITS, &waits,
                      ETL_PRECISE_VIEW_COLUMN_CPU_USAGE, &cpu_usage, -1);
  if (index < n)
    {
      self->selected_index = index;
      etl_precise_details_show_row (self->details, self->trace, self->stacks, &rows[index]);
      return;
    }
  self->selected_index = NO_INDEX;
  path = group_path (model, &iter);
  etl_precise_details_show_group (self->details, path, count, ready, waits, cpu_usage);
}

/* Until the user moves the handle, the details get the height of a
 * switch-in's fields, at most 55 % of the pane, whatever its height. */
static void
on_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlPreciseView *self)
{
  int wanted;

  if (self->paned_by_user || allocation->height < 100 || allocation->height == self->paned_height)
    return;
  self->paned_height = allocation->height;
  wanted = MIN (etl_precise_details_get_wanted_height (self->details), allocation->height * 55 / 100);
  gtk_paned_set_position (self->paned, allocation->height - wanted);
}

/* A press on the handle: the user places it from now on. */
static gboolean
on_paned_pressed (GtkWidget *paned, GdkEventButton *event, EtlPreciseView *self)
{
  if (event->window == gtk_paned_get_handle_window (GTK_PANED (paned)))
    self->paned_by_user = TRUE;
  return GDK_EVENT_PROPAGATE;
}

/* The text of numeric @column at @iter, in @buf (no allocation but for a
 * Switch-In Time). */
static const char *
format_cell_into (GtkTreeModel *model, GtkTreeIter *iter, EtlPreciseViewColumn column,
                  char buf[ETL_PRECISE_FORMAT_SIZE])
{
  EtlPreciseRow row;
  GtkTreeIter child;
  gint64 ticks;

  /* The table's own model: its numbers straight from the groups. */
  if (GTK_IS_TREE_MODEL_SORT (model)
      && ETL_IS_PRECISE_MODEL (gtk_tree_model_sort_get_model (GTK_TREE_MODEL_SORT (model))))
    {
      gtk_tree_model_sort_convert_iter_to_child_iter (GTK_TREE_MODEL_SORT (model), &child, iter);
      if (!etl_precise_model_get_row (ETL_PRECISE_MODEL (gtk_tree_model_sort_get_model (GTK_TREE_MODEL_SORT (model))),
                                      &child, &row))
        return "";
    }
  else
    gtk_tree_model_get (model, iter, ETL_PRECISE_VIEW_COLUMN_COUNT, &row.count, ETL_PRECISE_VIEW_COLUMN_READY,
                        &row.ready, ETL_PRECISE_VIEW_COLUMN_WAITS, &row.waits, ETL_PRECISE_VIEW_COLUMN_CPU_USAGE,
                        &row.cpu_usage, ETL_PRECISE_VIEW_COLUMN_SWITCH_IN, &row.switch_in, -1);
  switch (column)
    {
    case ETL_PRECISE_VIEW_COLUMN_COUNT:
      return etl_precise_format_count_into (buf, ETL_PRECISE_FORMAT_SIZE, row.count);
    case ETL_PRECISE_VIEW_COLUMN_SWITCH_IN:
      {
        g_autofree char *text = NULL;

        if (row.switch_in < 0)
          return "";
        text = etl_time_format_span (row.switch_in);
        g_strlcpy (buf, text, ETL_PRECISE_FORMAT_SIZE);
        return buf;
      }
    case ETL_PRECISE_VIEW_COLUMN_READY:
      ticks = row.ready;
      break;
    case ETL_PRECISE_VIEW_COLUMN_WAITS:
      ticks = row.waits;
      break;
    case ETL_PRECISE_VIEW_COLUMN_CPU_USAGE:
    default:
      ticks = row.cpu_usage;
      break;
    }
  return etl_precise_format_us_into (buf, ETL_PRECISE_FORMAT_SIZE, ticks);
}

/**
 * etl_precise_view_dup_cell_text:
 * @model: the view's model (etl_precise_view_get_tree_view()'s)
 * @iter: a row of it
 * @column: one of the numeric columns: %ETL_PRECISE_VIEW_COLUMN_COUNT (with
 *   the locale's thousands separators), %ETL_PRECISE_VIEW_COLUMN_READY,
 *   %ETL_PRECISE_VIEW_COLUMN_WAITS, %ETL_PRECISE_VIEW_COLUMN_CPU_USAGE (µs
 *   with one decimal, etl_precise_format_us()) or
 *   %ETL_PRECISE_VIEW_COLUMN_SWITCH_IN (etl_time_format_span(), "" on
 *   groups)
 *
 * What the table shows in @column of @iter: the model holds numbers, and
 * the cells format only the rows drawn.
 *
 * Returns: (transfer full): the text
 */
char *
etl_precise_view_dup_cell_text (GtkTreeModel *model, GtkTreeIter *iter, EtlPreciseViewColumn column)
{
  char buf[ETL_PRECISE_FORMAT_SIZE];

  g_return_val_if_fail (GTK_IS_TREE_MODEL (model), NULL);
  g_return_val_if_fail (iter != NULL, NULL);
  g_return_val_if_fail (column > ETL_PRECISE_VIEW_COLUMN_LABEL && column < ETL_PRECISE_VIEW_COLUMN_INDEX, NULL);
  return g_strdup (format_cell_into (model, iter, column, buf));
}

static void
format_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter,
             gpointer data)
{
  char buf[ETL_PRECISE_FORMAT_SIZE];

  (void) column;
  g_object_set (cell, "text", format_cell_into (model, iter, GPOINTER_TO_INT (data), buf), NULL);
}

/* A column showing @model_column: the label as it is, numbers formatted
 * when drawn (format_cell()). */
static void
add_column (EtlPreciseView *self, const char *title, int model_column, gboolean numeric)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column = gtk_tree_view_column_new ();

  gtk_tree_view_column_set_title (column, title);
  gtk_tree_view_column_pack_start (column, cell, TRUE);
  if (numeric)
    {
      g_object_set (cell, "xalign", 1.0, NULL);
      gtk_tree_view_column_set_alignment (column, 1.0);
      gtk_tree_view_column_set_cell_data_func (column, cell, format_cell, GINT_TO_POINTER (model_column), NULL);
    }
  else
    {
      gtk_tree_view_column_add_attribute (column, cell, "text", model_column);
      g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
      gtk_tree_view_column_set_expand (column, TRUE);
      gtk_tree_view_column_set_min_width (column, 220);
    }
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_column_set_sort_column_id (column, model_column);
  gtk_tree_view_append_column (self->tree_view, column);
}

static void
etl_precise_view_dispose (GObject *object)
{
  EtlPreciseView *self = ETL_PRECISE_VIEW (object);

  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_handle_id (&self->range_timeout_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->zoom_manager != NULL)
    g_clear_signal_handler (&self->zoom_handler, self->zoom_manager);
  g_clear_object (&self->zoom_manager);
  g_clear_pointer (&self->states, etl_thread_states_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_object (&self->model);
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
  GtkWidget *details_scrolled = gtk_scrolled_window_new (NULL, NULL);
  GtkWidget *counts = gtk_label_new ("Count:");

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->mode = ETL_PRECISE_VIEW_RANGE_VISIBLE;
  self->selected_index = NO_INDEX;
  self->asked_begin = self->asked_end = NO_RANGE;
  g_object_set (bar, "margin-start", 6, "margin-end", 6, "margin-top", 4, "margin-bottom", 4, NULL);
  self->range_combo = GTK_COMBO_BOX_TEXT (gtk_combo_box_text_new ());
  gtk_combo_box_text_append (self->range_combo, range_ids[ETL_PRECISE_VIEW_RANGE_WHOLE], "Whole trace");
  gtk_combo_box_text_append (self->range_combo, range_ids[ETL_PRECISE_VIEW_RANGE_VISIBLE], "Visible range");
  gtk_combo_box_text_append (self->range_combo, range_ids[ETL_PRECISE_VIEW_RANGE_SELECTED], "Selected range");
  gtk_combo_box_set_active_id (GTK_COMBO_BOX (self->range_combo), range_ids[self->mode]);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->range_combo),
                               "Which switch-ins count, by Switch-In Time: the whole trace, the range the timeline "
                               "shows (followed as it zooms and scrolls), or the range selected in it");
  gtk_style_context_add_class (gtk_widget_get_style_context (counts), "dim-label");
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_label_set_xalign (self->status, 0.0);
  gtk_label_set_width_chars (self->status, 4);
  g_object_set (self->status, "margin-start", 6, NULL);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->status)), "dim-label");
  gtk_box_pack_start (GTK_BOX (bar), counts, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->range_combo), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->status), TRUE, TRUE, 0);

  self->tree_view = GTK_TREE_VIEW (gtk_tree_view_new ());
  set_groups (self, NULL, NULL);
  gtk_tree_view_set_enable_search (self->tree_view, TRUE);
  gtk_tree_view_set_search_column (self->tree_view, ETL_PRECISE_VIEW_COLUMN_LABEL);
  add_column (self, "New Process ▸ New Thread ▸ Readying Process ▸ Wait Reason", ETL_PRECISE_VIEW_COLUMN_LABEL,
              FALSE);
  add_column (self, "Count", ETL_PRECISE_VIEW_COLUMN_COUNT, TRUE);
  add_column (self, "Ready (µs)", ETL_PRECISE_VIEW_COLUMN_READY, TRUE);
  add_column (self, "Waits (µs)", ETL_PRECISE_VIEW_COLUMN_WAITS, TRUE);
  add_column (self, "CPU Usage (µs)", ETL_PRECISE_VIEW_COLUMN_CPU_USAGE, TRUE);
  add_column (self, "Switch-In Time", ETL_PRECISE_VIEW_COLUMN_SWITCH_IN, TRUE);
  gtk_tree_view_set_tooltip_column (self->tree_view, ETL_PRECISE_VIEW_COLUMN_LABEL);
  gtk_container_add (GTK_CONTAINER (scrolled), GTK_WIDGET (self->tree_view));

  /* The details below the table, in a pane of their own: the table keeps
   * the space a resize adds, the details their height. */
  self->details = ETL_PRECISE_DETAILS (etl_precise_details_new ());
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (details_scrolled), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);
  gtk_container_add (GTK_CONTAINER (details_scrolled), GTK_WIDGET (self->details));
  gtk_widget_set_size_request (details_scrolled, -1, 120);
  self->paned = GTK_PANED (gtk_paned_new (GTK_ORIENTATION_VERTICAL));
  gtk_paned_set_wide_handle (self->paned, TRUE);
  gtk_paned_pack1 (self->paned, scrolled, TRUE, FALSE);
  gtk_paned_pack2 (self->paned, details_scrolled, FALSE, FALSE);

  self->message = GTK_LABEL (gtk_label_new (no_cswitch_message));
  gtk_label_set_line_wrap (self->message, TRUE);
  gtk_label_set_justify (self->message, GTK_JUSTIFY_CENTER);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->message)), "dim-label");
  self->stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->paned), "table");
  gtk_stack_add_named (self->stack, GTK_WIDGET (self->message), "message");
  gtk_widget_set_vexpand (GTK_WIDGET (self->stack), TRUE);
  gtk_box_pack_start (GTK_BOX (self), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->stack), TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
  gtk_stack_set_visible_child_name (self->stack, "table");
  g_signal_connect (self->range_combo, "changed", G_CALLBACK (on_range_changed), self);
  g_signal_connect (self->paned, "size-allocate", G_CALLBACK (on_paned_allocated), self);
  g_signal_connect (self->paned, "button-press-event", G_CALLBACK (on_paned_pressed), self);
  g_signal_connect (gtk_tree_view_get_selection (self->tree_view), "changed", G_CALLBACK (on_selection_changed),
                    self);
}

/**
 * etl_precise_view_new:
 * @zoom_manager: (nullable): the timeline's visible range ("Visible
 *   range" counts it; etl_precise_view_set_zoom_manager())
 *
 * Returns: (transfer floating): a new, empty view; "Visible range" chosen
 */
GtkWidget *
etl_precise_view_new (EtlZoomManager *zoom_manager)
{
  GtkWidget *view = g_object_new (ETL_TYPE_PRECISE_VIEW, NULL);

  etl_precise_view_set_zoom_manager (ETL_PRECISE_VIEW (view), zoom_manager);
  return view;
}
