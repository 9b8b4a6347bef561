/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The window's intervals: the Regions tab (#EtlRegionsView), the timeline's
 * Regions area (#EtlRegionLanes, under the lanes) and File ▸ Load Regions…,
 * which parses a Regions of Interest file (etl_regions_file_load()) and
 * matches it with the trace (etl_regions_match()) in a worker, then shows
 * its instances beside the trace's Start/Stop activities in both.  The
 * Regions tab's "Summary of these" shows the grouped summary of the
 * selected instances' records in the Summary tab.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-window-private.h"

#include "etl-event-list.h"
#include "etl-group-view.h"
#include "etl-region-lanes.h"
#include "etl-regions-file.h"
#include "etl-regions-view.h"
#include "etl-regions.h"
#include "etl-span-set.h"
#include "etl-timeline-view.h"
#include "etl-view-panel.h"
#include "etl-worker.h"

static EtlRegionsView *
regions_view (EtlWindow *self)
{
  return ETL_REGIONS_VIEW (etl_view_panel_get_view_widget (self->view_panel, "regions"));
}

static EtlRegionLanesMode
lanes_mode_for (EtlLaneMode mode)
{
  return mode == ETL_LANE_PROCESS ? ETL_REGION_LANES_BY_PROCESS : ETL_REGION_LANES_BY_SOURCE;
}

static void
on_lane_mode (EtlTimelineView *timeline, GParamSpec *pspec, EtlWindow *self)
{
  (void) pspec;
  etl_region_lanes_set_mode (self->region_lanes, lanes_mode_for (etl_timeline_view_get_lane_mode (timeline)));
}

/* A span clicked in the Regions area: its Start in the list and details. */
static void
on_span_selected (EtlRegionLanes *lanes, guint span, guint64 start_record, EtlWindow *self)
{
  (void) lanes;
  (void) span;
  if (start_record != ETL_SPAN_NO_RECORD)
    select_everywhere (self, start_record);
}

/* An instance activated in the Regions tab: its Start selected, the
 * timeline on the instance. */
static void
on_instance_activated (EtlRegionsView *view, guint64 start_record, gint64 start, gint64 stop, EtlWindow *self)
{
  gint64 pad = MAX ((stop - start) / 10, 10);

  (void) view;
  if (start_record != ETL_SPAN_NO_RECORD)
    select_everywhere (self, start_record);
  etl_zoom_manager_set_visible (self->zoom_manager, start - pad, stop + pad);
}

/* "Summary of these": the grouped summary of the records of the selected
 * instances' threads within their intervals (collected by the view in a
 * worker), in the Summary tab, until its "Show all" or the next filter. */
static void
on_summary_requested (EtlRegionsView *view, EtlRowSet *rows, const char *title, EtlWindow *self)
{
  (void) view;
  etl_group_view_show_rows (self->group_view, rows, title);
  etl_view_panel_show_view (self->view_panel, "summary");
}

/**
 * etl_window_setup_regions:
 * @self: a window being built
 *
 * Adds the Regions tab and the Regions area (under the timeline's lanes,
 * hidden while there are no intervals).
 */
void
etl_window_setup_regions (EtlWindow *self)
{
  GtkWidget *view = etl_regions_view_new ();
  GtkWidget *tracks = gtk_widget_get_parent (GTK_WIDGET (self->loss_plot));
  GtkWidget *scroller;

  etl_window_add_view_tab (self, "regions", "Regions", view);
  g_signal_connect_object (view, "instance-activated", G_CALLBACK (on_instance_activated), self, 0);
  g_signal_connect_object (view, "summary-requested", G_CALLBACK (on_summary_requested), self, 0);

  self->region_lanes = ETL_REGION_LANES (etl_region_lanes_new ());
  etl_region_lanes_set_zoom_manager (self->region_lanes, self->zoom_manager);
  /* In its own scroller (at most ETL_REGION_LANES_MAX_AREA_HEIGHT high),
   * right under the lanes, above the loss plot. */
  scroller = etl_region_lanes_new_scrolled (self->region_lanes);
  gtk_box_pack_start (GTK_BOX (tracks), scroller, FALSE, FALSE, 0);
  gtk_box_reorder_child (GTK_BOX (tracks), scroller, 1);
  gtk_widget_hide (GTK_WIDGET (self->region_lanes));
  g_signal_connect_object (self->region_lanes, "span-selected", G_CALLBACK (on_span_selected), self, 0);
  g_signal_connect_object (self->timeline, "notify::lane-mode", G_CALLBACK (on_lane_mode), self, 0);
}

/**
 * etl_window_regions_trace_changed:
 * @self: a window
 *
 * A trace was loaded or closed: the Regions tab and area show its
 * activities (the loaded Regions file is forgotten).
 */
void
etl_window_regions_trace_changed (EtlWindow *self)
{
  EtlTrace *trace = etl_document_get_trace (self->document);

  if (self->regions_cancellable != NULL)
    g_cancellable_cancel (self->regions_cancellable);
  g_clear_object (&self->regions_cancellable);
  g_clear_pointer (&self->regions_spans, etl_span_set_unref);
  g_clear_pointer (&self->regions_error, g_free);
  etl_regions_view_set_trace (regions_view (self), trace, trace != NULL ? etl_document_get_stacks (self->document)
                                                                         : NULL);
  etl_region_lanes_set_trace (self->region_lanes, trace);
  etl_region_lanes_set_mode (self->region_lanes, lanes_mode_for (etl_timeline_view_get_lane_mode (self->timeline)));
  if (trace != NULL && self->pending_regions != NULL)
    {
      g_autofree char *path = g_steal_pointer (&self->pending_regions);

      etl_window_load_regions (self, path);
    }
}

/**
 * etl_window_set_pending_regions:
 * @self: a window
 * @path: (nullable): a Regions of Interest file
 *
 * Loads @path (etl_window_load_regions()) with the next trace loaded
 * (`etlscope --regions FILE TRACE.etl`); now when a trace is shown.
 */
void
etl_window_set_pending_regions (EtlWindow *self, const char *path)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  g_free (self->pending_regions);
  self->pending_regions = g_strdup (path);
  if (path != NULL && etl_document_get_trace (self->document) != NULL)
    {
      g_autofree char *p = g_steal_pointer (&self->pending_regions);

      etl_window_load_regions (self, p);
    }
}

/**
 * etl_window_regions_range_changed:
 * @self: a window
 * @begin: the range selected in the timeline, FILETIME
 * @end: its end, exclusive (≤ @begin: none)
 */
void
etl_window_regions_range_changed (EtlWindow *self, gint64 begin, gint64 end)
{
  etl_regions_view_set_range (regions_view (self), begin, end);
  etl_region_lanes_set_range (self->region_lanes, begin, end);
}

/**
 * etl_window_regions_rows_changed:
 * @self: a window
 *
 * The filter changed: the Regions area leaves out the spans whose Start it
 * hides.
 */
void
etl_window_regions_rows_changed (EtlWindow *self)
{
  EtlRowSet *rows = etl_document_get_row_set (self->document);

  etl_region_lanes_set_rows (self->region_lanes, rows != NULL && !etl_row_set_is_all (rows) ? rows : NULL);
}

/* ---- File ▸ Load Regions… ---- */

typedef struct
{
  EtlTrace *trace;
  char *path;
} LoadJob;

static void
load_job_free (gpointer data)
{
  LoadJob *job = data;

  etl_trace_unref (job->trace);
  g_free (job->path);
  g_free (job);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadJob *job = task_data;
  g_autoptr (EtlRegionsFile) file = NULL;
  g_autoptr (EtlRegions) regions = NULL;
  g_autofree char *base = NULL;
  GError *error = NULL;
  EtlSpanSet *set;

  (void) source;
  file = etl_regions_file_load (job->path, &error);
  if (file == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  regions = etl_regions_match (job->trace, file, cancellable, &error);
  if (regions == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  base = g_path_get_basename (job->path);
  set = etl_span_set_new ();
  etl_span_set_add_regions (set, regions, file, base);
  g_task_return_pointer (task, set, (GDestroyNotify) etl_span_set_unref);
}

static void
on_loaded (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr (EtlWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  EtlSpanSet *set = g_task_propagate_pointer (G_TASK (res), &error);

  (void) source;
  if (g_task_get_cancellable (G_TASK (res)) != self->regions_cancellable)
    {
      g_clear_pointer (&set, etl_span_set_unref);
      return;
    }
  g_clear_object (&self->regions_cancellable);
  if (set == NULL)
    {
      g_free (self->regions_error);
      self->regions_error = g_strdup (error->message);
      show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }
  g_clear_pointer (&self->regions_spans, etl_span_set_unref);
  self->regions_spans = set;
  etl_regions_view_set_extra (regions_view (self), set);
  etl_region_lanes_set_extra (self->region_lanes, set);
  etl_view_panel_show_view (self->view_panel, "regions");
}

/**
 * etl_window_load_regions:
 * @self: a window showing a trace
 * @path: a Regions of Interest file (WPA's XML)
 *
 * Loads @path and matches it with the trace in a worker; its instances are
 * then shown in the Regions tab and area beside the activities, replacing
 * a file loaded before.  A file that does not parse shows its error
 * (path:line:column: reason) in the info bar
 * (etl_window_get_regions_error()).
 */
void
etl_window_load_regions (EtlWindow *self, const char *path)
{
  g_autoptr (GTask) task = NULL;
  EtlTrace *trace;
  LoadJob *job;

  g_return_if_fail (ETL_IS_WINDOW (self) && path != NULL);
  trace = etl_document_get_trace (self->document);
  g_clear_pointer (&self->regions_error, g_free);
  if (trace == NULL)
    {
      self->regions_error = g_strdup ("Open a trace first: a Regions file is matched with its events");
      show_message (self, GTK_MESSAGE_ERROR, self->regions_error);
      return;
    }
  if (self->regions_cancellable != NULL)
    g_cancellable_cancel (self->regions_cancellable);
  g_clear_object (&self->regions_cancellable);
  self->regions_cancellable = g_cancellable_new ();
  job = g_new0 (LoadJob, 1);
  job->trace = etl_trace_ref (trace);
  job->path = g_strdup (path);
  task = g_task_new (NULL, self->regions_cancellable, on_loaded, g_object_ref (self));
  g_task_set_task_data (task, job, load_job_free);
  etl_worker_run (task, load_thread);
}

/**
 * etl_window_get_regions_busy:
 * @self: a window
 *
 * Returns: whether a Regions file is being loaded
 */
gboolean
etl_window_get_regions_busy (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return self->regions_cancellable != NULL;
}

/**
 * etl_window_get_regions_error:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): why the last Regions file did not
 *   load, %NULL when it did
 */
const char *
etl_window_get_regions_error (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->regions_error;
}

/**
 * etl_window_get_regions_view:
 * @self: a window
 *
 * Returns: (transfer none): the Regions tab
 */
EtlRegionsView *
etl_window_get_regions_view (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return regions_view (self);
}

/**
 * etl_window_get_region_lanes:
 * @self: a window
 *
 * Returns: (transfer none): the timeline's Regions area
 */
EtlRegionLanes *
etl_window_get_region_lanes (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->region_lanes;
}

static void
on_regions_response (GtkNativeDialog *dialog, int response, EtlWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *path = gtk_file_chooser_get_filename (GTK_FILE_CHOOSER (dialog));

      if (path != NULL)
        etl_window_load_regions (self, path);
    }
  g_object_unref (dialog);
  g_object_unref (self);
}

void
load_regions_action (GSimpleAction *action, GVariant *param, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (user_data);
  GtkFileChooserNative *dialog;
  GtkFileFilter *filter;

  (void) action;
  (void) param;
  dialog = gtk_file_chooser_native_new ("Load Regions of Interest", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                        "_Load", "_Cancel");
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "Regions of Interest (*.xml)");
  gtk_file_filter_add_pattern (filter, "*.xml");
  gtk_file_filter_add_pattern (filter, "*.XML");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, "All files");
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_signal_connect (dialog, "response", G_CALLBACK (on_regions_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}
