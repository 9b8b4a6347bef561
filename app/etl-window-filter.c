/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Filter and selection: the filter bar's filter and the event list's
 * context-menu conditions go to the window's #EtlDocument, which runs them
 * in a worker; its #EtlRowSet (#EtlDocument::rows-changed) goes to the list,
 * the summary and the timeline.  The handlers that keep the list, the
 * timeline, the loss plot, the grouped summary and the details pane in
 * step, and tell the document what is selected.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-group-view.h"
#include "etl-loss-plot.h"
#include "etl-precise-view.h"
#include "etl-view-panel.h"
#include "etl-timeline-view.h"
#include "etl-window-private.h"

/* ------------------------------------------------------------------------ */
/* Filter and selection                                                     */
/* ------------------------------------------------------------------------ */

/* EtlDocument::rows-changed: the filter's rows go to the list, the
 * summary and the timeline; a selected event they hide is unselected. */
void
on_document_rows_changed (EtlDocument *document, EtlWindow *self)
{
  EtlTrace *trace = etl_document_get_trace (document);
  EtlRowSet *rows = etl_document_get_row_set (document);
  guint64 selected = etl_timeline_view_get_selected_row (self->timeline);

  etl_event_list_set_rows (self->event_list, trace, rows);
  etl_group_view_set_rows (self->group_view, trace, rows);
  etl_timeline_view_set_rows (self->timeline, etl_row_set_is_all (rows) ? NULL : rows);
  etl_window_regions_rows_changed (self);
  etl_filter_bar_set_counts (self->filter_bar, etl_row_set_get_n (rows), etl_trace_get_n_records (trace));
  if (selected != ETL_TIMELINE_NO_ROW && etl_event_list_get_selected_row (self->event_list) == ETL_EVENT_LIST_NO_ROW)
    {
      if (etl_document_is_shown (document, selected))
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

/* notify::filtering: the filter bar shows that the filter runs. */
void
on_document_filtering (EtlDocument *document, GParamSpec *pspec, EtlWindow *self)
{
  etl_filter_bar_set_busy (self->filter_bar, etl_document_get_filtering (document));
}

/* EtlDocument::job-finished::filter: a filter that failed says why. */
void
on_filter_job_finished (EtlDocument *document, const char *job, const GError *error, EtlWindow *self)
{
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_message (self, GTK_MESSAGE_ERROR, error->message);
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

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (field != NULL);
  if (!etl_document_add_condition (self->document, field, exclude, row, &error))
    {
      /* A row beyond the trace, or without a process or thread, adds
       * nothing; a record that cannot be read says why. */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT)
          && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
        show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  update_status (self);
}

/* A group of the summary activated: keep only its rows (the same rules
 * as the summary's, etl_group_matcher_matches()). */
void
on_group_activated (EtlGroupView *view, const EtlGroup *group, EtlWindow *self)
{
  if (group != NULL && etl_document_add_group_condition (self->document, group))
    {
      update_status (self);
      /* The group's rows: in the Events tab. */
      etl_view_panel_show_view (self->view_panel, "events");
    }
}

void
on_timeline_range_selected (EtlTimelineView *timeline, gint64 begin, gint64 end, EtlWindow *self)
{
  etl_document_set_range (self->document, begin, end);
  etl_group_view_set_range (self->group_view, begin, end);
  etl_precise_view_set_range (ETL_PRECISE_VIEW (etl_view_panel_get_view_widget (self->view_panel, "precise")),
                              begin, end);
  etl_window_regions_range_changed (self, begin, end);
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
  EtlTrace *trace = etl_document_get_trace (self->document);

  if (trace == NULL || etl_trace_get_n_records (trace) == 0)
    return;
  select_everywhere (self, MIN (etl_trace_lower_bound (trace, filetime), etl_trace_get_n_records (trace) - 1));
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
  etl_document_set_filter (self->document, filter);
}

void
on_list_row_selected (EtlEventList *list, guint64 row, EtlWindow *self)
{
  EtlTrace *trace = etl_document_get_trace (self->document);

  if (self->syncing || trace == NULL)
    return;
  self->syncing = TRUE;
  etl_document_set_selected_record (self->document, row == ETL_EVENT_LIST_NO_ROW ? -1 : (gint64) row);
  etl_timeline_view_select_row (self->timeline, row, TRUE);
  etl_details_show_row (self->details, trace, row);
  etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (trace, row));
  self->syncing = FALSE;
}

void
on_timeline_event_selected (EtlTimelineView *view, guint64 row, EtlWindow *self)
{
  EtlTrace *trace = etl_document_get_trace (self->document);

  if (self->syncing || trace == NULL)
    return;
  self->syncing = TRUE;
  if (row == ETL_TIMELINE_NO_ROW)
    {
      etl_document_set_selected_record (self->document, ETL_DOCUMENT_NO_RECORD);
      etl_details_clear (self->details);
      etl_zoom_manager_set_focus (self->zoom_manager, G_MININT64);
    }
  else
    {
      etl_document_set_selected_record (self->document, (gint64) row);
      etl_event_list_select_row (self->event_list, row);
      etl_details_show_row (self->details, trace, row);
      etl_zoom_manager_set_focus (self->zoom_manager, etl_trace_get_filetime (trace, row));
    }
  self->syncing = FALSE;
}
