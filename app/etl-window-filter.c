/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Filter and selection: the filter bar's filter and the event list's
 * context-menu conditions run in a worker and their #EtlRowSet goes to the
 * list and the timeline; the handlers that keep the list, the timeline, the
 * loss plot, the grouped summary and the details pane in step.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-filter.h"
#include "etl-group-summary.h"
#include "etl-group-view.h"
#include "etl-loss-plot.h"
#include "etl-names.h"
#include "etl-timeline-view.h"
#include "etl-window-private.h"
#include "etl-worker.h"

/* ------------------------------------------------------------------------ */
/* Filter and selection                                                     */
/* ------------------------------------------------------------------------ */

void
condition_free (gpointer data)
{
  Condition *c = data;

  g_free (c->field);
  g_free (c->name);
  etl_group_matcher_free (c->matcher);
  g_free (c);
}

static void
show_rows (EtlWindow *self, EtlRowSet *rows)
{
  guint64 selected = etl_timeline_view_get_selected_row (self->timeline);

  g_clear_pointer (&self->rows, etl_row_set_unref);
  self->rows = etl_row_set_ref (rows);
  etl_event_list_set_rows (self->event_list, self->trace, rows);
  etl_group_view_set_rows (self->group_view, self->trace, rows);
  etl_timeline_view_set_rows (self->timeline, etl_row_set_is_all (rows) ? NULL : rows);
  etl_filter_bar_set_counts (self->filter_bar, etl_row_set_get_n (rows), etl_trace_get_n_records (self->trace));
  if (selected != ETL_TIMELINE_NO_ROW && etl_event_list_get_selected_row (self->event_list) == ETL_EVENT_LIST_NO_ROW)
    {
      guint64 pos = etl_row_set_find (rows, selected);

      if (pos < etl_row_set_get_n (rows) && etl_row_set_get (rows, pos) == selected)
        etl_event_list_select_row (self->event_list, selected);
      else
        {
          /* The filter hides the selected event: nothing stays selected. */
          self->syncing = TRUE;
          etl_timeline_view_select_row (self->timeline, ETL_TIMELINE_NO_ROW, FALSE);
          etl_details_clear (self->details);
          self->syncing = FALSE;
        }
    }
  update_status (self);
}

static gboolean
condition_matches (const Condition *c, EtlTrace *trace, guint64 row)
{
  if (c->matcher != NULL)
    return etl_group_matcher_matches (c->matcher, row);
  if (g_str_equal (c->field, "provider"))
    return etl_trace_get_provider_index (trace, row) == c->provider;
  if (g_str_equal (c->field, "process"))
    {
      guint32 pid;

      return etl_trace_get_pid (trace, row, &pid) && pid == c->value;
    }
  if (g_str_equal (c->field, "event") && etl_trace_get_provider_index (trace, row) != c->provider)
    return FALSE;
  {
    EtlRecord record;
    gboolean match = FALSE;

    if (!etl_trace_get_record (trace, row, &record, NULL))
      return FALSE;
    if (g_str_equal (c->field, "thread"))
      match = record.has_pid && record.tid == c->value;
    else
      {
        g_autofree char *name = etl_decode_dup_event_name (etl_trace_get_schema_registry (trace), &record);

        match = g_strcmp0 (name, c->name) == 0;
      }
    etl_record_clear (&record);
    return match;
  }
}

typedef struct
{
  EtlTrace *trace;
  EtlFilter *filter;
  GPtrArray *conditions;
} FilterData;

static void
filter_data_free (gpointer data)
{
  FilterData *fd = data;

  etl_trace_unref (fd->trace);
  etl_filter_free (fd->filter);
  g_ptr_array_unref (fd->conditions);
  g_free (fd);
}

/* The filter bar's filter (etl_filter_apply()), then the context menu's
 * conditions over the rows it keeps. */
static void
filter_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  FilterData *fd = task_data;
  GError *error = NULL;
  g_autoptr (EtlRowSet) rows = NULL;
  g_autoptr (GArray) kept = NULL;
  guint64 n;

  if (etl_filter_is_empty (fd->filter))
    rows = etl_row_set_new_all (etl_trace_get_n_records (fd->trace));
  else if ((rows = etl_filter_apply (fd->trace, fd->filter, cancellable, &error)) == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (fd->conditions->len == 0)
    {
      g_task_return_pointer (task, g_steal_pointer (&rows), (GDestroyNotify) etl_row_set_unref);
      return;
    }
  n = etl_row_set_get_n (rows);
  kept = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint64 i = 0; i < n; i++)
    {
      guint64 row = etl_row_set_get (rows, i);
      gboolean keep = TRUE;

      if ((i & 0xFFFF) == 0 && g_task_return_error_if_cancelled (task))
        return;
      for (guint c = 0; c < fd->conditions->len && keep; c++)
        {
          const Condition *cond = g_ptr_array_index (fd->conditions, c);

          keep = condition_matches (cond, fd->trace, row) != cond->exclude;
        }
      if (keep)
        g_array_append_val (kept, row);
    }
  n = kept->len;
  g_task_return_pointer (task, etl_row_set_new_take ((guint64 *) g_array_free (g_steal_pointer (&kept), FALSE), n),
                         (GDestroyNotify) etl_row_set_unref);
}

static void
on_filter_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlRowSet) rows = g_task_propagate_pointer (G_TASK (result), &error);

  if (rows == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  if (g_task_get_cancellable (G_TASK (result)) != self->filter_cancellable || self->trace == NULL)
    return;
  g_clear_object (&self->filter_cancellable);
  etl_filter_bar_set_busy (self->filter_bar, FALSE);
  show_rows (self, rows);
}

void
apply_filter (EtlWindow *self)
{
  g_autoptr (GTask) task = NULL;
  FilterData *fd;

  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  etl_filter_bar_set_busy (self->filter_bar, FALSE);
  if (self->trace == NULL)
    return;

  if (etl_filter_is_empty (self->filter) && self->conditions->len == 0)
    {
      g_autoptr (EtlRowSet) all = etl_row_set_new_all (etl_trace_get_n_records (self->trace));

      if (self->rows != NULL && !etl_row_set_is_all (self->rows))
        show_rows (self, all);
      return;
    }

  self->filter_cancellable = g_cancellable_new ();
  etl_filter_bar_set_busy (self->filter_bar, TRUE);
  fd = g_new0 (FilterData, 1);
  fd->trace = etl_trace_ref (self->trace);
  fd->filter = self->filter != NULL ? etl_filter_copy (self->filter) : etl_filter_new ();
  fd->conditions = g_ptr_array_ref (self->conditions);
  task = g_task_new (NULL, self->filter_cancellable, on_filter_done, g_object_ref (self));
  g_task_set_source_tag (task, apply_filter);
  g_task_set_task_data (task, fd, filter_data_free);
  etl_worker_run (task, filter_thread);
}

/**
 * etl_window_filter_by_row:
 * @self: a window
 * @field: "provider", "process", "thread" or "event"
 * @exclude: %TRUE to leave out the rows sharing @row's value, %FALSE to keep
 *   only them
 * @row: a row of the trace
 *
 * What the event list's context menu does: adds a condition on @row's
 * provider (by provider index), process id, thread id or event (provider
 * and event name) to the filter and applies it in a worker.  Clear Filter
 * removes the conditions.  A row without a process or thread adds nothing.
 */
void
etl_window_filter_by_row (EtlWindow *self, const char *field, gboolean exclude, guint64 row)
{
  g_autoptr (GError) error = NULL;
  EtlRecord record;
  Condition *c;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (field != NULL);
  if (self->trace == NULL || row >= etl_trace_get_n_records (self->trace))
    return;
  if (!etl_trace_get_record (self->trace, row, &record, &error))
    {
      show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  c = g_new0 (Condition, 1);
  c->field = g_strdup (field);
  c->exclude = exclude;
  c->provider = etl_trace_get_provider_index (self->trace, row);
  if (g_str_equal (field, "provider"))
    c->name = etl_record_dup_provider_name (&record);
  else if (g_str_equal (field, "process") && record.has_pid)
    {
      c->value = record.pid;
      c->name = g_strdup_printf ("%u", record.pid);
    }
  else if (g_str_equal (field, "thread") && record.has_pid)
    {
      c->value = record.tid;
      c->name = g_strdup_printf ("%u", record.tid);
    }
  else if (g_str_equal (field, "event"))
    c->name = etl_decode_dup_event_name (etl_trace_get_schema_registry (self->trace), &record);
  etl_record_clear (&record);
  if (c->name == NULL)
    {
      condition_free (c);
      return;
    }
  g_ptr_array_add (self->conditions, c);
  apply_filter (self);
  update_status (self);
}

/* A group of the summary activated: keep only its rows (the same rules
 * as the summary's, etl_group_matcher_matches()). */
void
on_group_activated (EtlGroupView *view, const EtlGroup *group, EtlWindow *self)
{
  Condition *c;

  if (self->trace == NULL || group == NULL || group->parent == NULL)
    return;
  c = g_new0 (Condition, 1);
  c->field = g_strdup ("group");
  c->matcher = etl_group_matcher_new (self->trace, group);
  c->name = g_strdup (etl_group_matcher_get_description (c->matcher));
  g_ptr_array_add (self->conditions, c);
  apply_filter (self);
  update_status (self);
}

/* The summary's first width: a third of the list area, 300–600 px; it may
 * shrink below its own minimum width (clipped) so the window always fits
 * the screen, at 1366 px with the session panel open too. */
void
on_summary_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, gpointer user_data)
{
  int width = CLAMP (allocation->width * 33 / 100, 300, 600);

  if (allocation->width < 600)
    return;
  gtk_paned_set_position (GTK_PANED (paned), allocation->width - width);
  g_signal_handlers_disconnect_by_func (paned, on_summary_paned_allocated, user_data);
}

/* First run: the timeline area (lanes, loss plot, CPU graph) gets 55 % of
 * the trace area's height and the list 72 % of the rest's, so the lanes are
 * not squeezed to their minimum and the details pane does not take the list's
 * room.  Later runs restore what the user left. */
void
on_trace_paned_allocated (GtkWidget *paned, GdkRectangle *allocation, EtlWindow *self)
{
  if (allocation->height < 300)
    return;
  g_signal_handlers_disconnect_by_func (paned, on_trace_paned_allocated, self);
  if (self->panes_restored)
    return;
  gtk_paned_set_position (GTK_PANED (paned), allocation->height * 55 / 100);
  gtk_paned_set_position (self->list_paned, (allocation->height * 45 / 100) * 72 / 100);
}

void
on_timeline_range_selected (EtlTimelineView *timeline, gint64 begin, gint64 end, EtlWindow *self)
{
  etl_group_view_set_range (self->group_view, begin, end);
}

void
on_list_filter_request (EtlEventList *list, const char *field, gboolean exclude, guint64 row, EtlWindow *self)
{
  etl_window_filter_by_row (self, field, exclude, row);
}

/* A loss point clicked: the event at that time, centred in the timeline. */
void
on_loss_activated (EtlLossPlot *plot, gint64 filetime, EtlWindow *self)
{
  if (self->trace == NULL || etl_trace_get_n_records (self->trace) == 0)
    return;
  select_everywhere (self, MIN (etl_trace_lower_bound (self->trace, filetime), etl_trace_get_n_records (self->trace) - 1));
}

void
on_list_show_in_timeline (EtlEventList *list, guint64 row, EtlWindow *self)
{
  self->syncing = TRUE;
  etl_timeline_view_select_row (self->timeline, row, TRUE);
  self->syncing = FALSE;
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

void
on_filter_changed (EtlFilterBar *bar, EtlFilter *filter, EtlWindow *self)
{
  etl_filter_free (self->filter);
  self->filter = etl_filter_copy (filter);
  apply_filter (self);
}

void
on_list_row_selected (EtlEventList *list, guint64 row, EtlWindow *self)
{
  if (self->syncing || self->trace == NULL)
    return;
  self->syncing = TRUE;
  etl_timeline_view_select_row (self->timeline, row, TRUE);
  etl_details_show_row (self->details, self->trace, row);
  etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (self->trace, row));
  self->syncing = FALSE;
}

void
on_timeline_event_selected (EtlTimelineView *view, guint64 row, EtlWindow *self)
{
  if (self->syncing || self->trace == NULL)
    return;
  self->syncing = TRUE;
  if (row == ETL_TIMELINE_NO_ROW)
    {
      etl_details_clear (self->details);
      etl_zoom_manager_set_focus (self->zoom_manager, G_MININT64);
    }
  else
    {
      etl_event_list_select_row (self->event_list, row);
      etl_details_show_row (self->details, self->trace, row);
      etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (self->trace, row));
    }
  self->syncing = FALSE;
}
