/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-window
 * @title: EtlWindow
 * @short_description: the main window
 *
 * Built from the template ui/etl-window.ui: a header bar with Open, the zoom
 * buttons and the primary menu; a #GtkPaned with the session configuration
 * panel (#EtlSessionPanel) on the left and the trace area on
 * the right: an info bar shown
 * only for problems, the time ruler, the timeline, the loss plot and a
 * status line.
 *
 * etl_window_open_files() loads in a #GTask off the main thread — the trace
 * index, its per-CPU summary and its loss summary — while a progress bar
 * moves and the window stays responsive.  A file that cannot be opened is
 * left out and reported in the info bar with the message the reader gave
 * (it names the file, the offset and the reason); the others still load.
 * When nothing could be opened, whatever was shown before stays.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-loss-plot.h"
#include "etl-session-panel.h"
#include "etl-summary.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-window.h"

#define MAX_MESSAGES_SHOWN 6
#define PROGRESS_POLL_MS 50

struct _EtlWindow
{
  GtkApplicationWindow parent_instance;

  /* Template children */
  GtkHeaderBar *header_bar;
  GtkMenuButton *menu_button;
  GtkPaned *paned;
  GtkBox *session_box;
  EtlSessionPanel *session_panel;
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkProgressBar *progress_bar;
  EtlTimeRuler *time_ruler;
  EtlTimelineView *timeline;
  EtlLossPlot *loss_plot;
  GtkLabel *status_label;

  EtlZoomManager *zoom_manager;
  EtlTrace *trace;
  GCancellable *load_cancellable;
  struct LoadData *load;
  guint progress_source;
};

G_DEFINE_TYPE (EtlWindow, etl_window, GTK_TYPE_APPLICATION_WINDOW)

typedef struct LoadData
{
  gatomicrefcount ref_count;
  char **paths;
  /* Written by the worker, read by the progress poll: permille. */
  int progress;
  /* Results */
  EtlTrace *trace;
  EtlSummary *summary;
  EtlLossSummary *loss_summary;
  GPtrArray *errors;
} LoadData;

static LoadData *
load_data_ref (LoadData *ld)
{
  g_atomic_ref_count_inc (&ld->ref_count);
  return ld;
}

static void
load_data_unref (LoadData *ld)
{
  if (!g_atomic_ref_count_dec (&ld->ref_count))
    return;
  g_strfreev (ld->paths);
  g_clear_pointer (&ld->trace, etl_trace_unref);
  g_clear_pointer (&ld->summary, etl_summary_unref);
  g_clear_pointer (&ld->loss_summary, etl_loss_summary_unref);
  g_clear_pointer (&ld->errors, g_ptr_array_unref);
  g_free (ld);
}

static void
on_progress (double fraction, gpointer user_data)
{
  LoadData *ld = user_data;

  g_atomic_int_set (&ld->progress, (int) (fraction * 1000));
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadData *ld = task_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) good = NULL;

  ld->trace = etl_trace_open ((const char *const *) ld->paths, on_progress, ld, cancellable, &error);
  if (ld->trace == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  if (ld->trace == NULL)
    {
      /* Find which files fail on their own, report them, and open the rest
       * together. */
      if (g_strv_length (ld->paths) == 1)
        g_ptr_array_add (ld->errors, g_steal_pointer (&error));
      else
        {
          g_clear_error (&error);
          good = g_ptr_array_new ();
          for (guint i = 0; ld->paths[i] != NULL; i++)
            {
              const char *one[] = { ld->paths[i], NULL };
              g_autoptr (EtlTrace) t = NULL;
              GError *e = NULL;

              t = etl_trace_open (one, NULL, NULL, cancellable, &e);
              if (t != NULL)
                g_ptr_array_add (good, ld->paths[i]);
              else if (g_error_matches (e, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                {
                  g_task_return_error (task, e);
                  return;
                }
              else
                g_ptr_array_add (ld->errors, e);
            }
          if (good->len > 0)
            {
              g_ptr_array_add (good, NULL);
              ld->trace = etl_trace_open ((const char *const *) good->pdata, on_progress, ld, cancellable, &error);
              if (ld->trace == NULL)
                {
                  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                    {
                      g_task_return_error (task, g_steal_pointer (&error));
                      return;
                    }
                  g_ptr_array_add (ld->errors, g_steal_pointer (&error));
                }
            }
        }
    }

  if (ld->trace != NULL)
    {
      ld->summary = etl_summary_new (ld->trace, ETL_LANE_CPU, 0, 0, 16, cancellable, &error);
      if (ld->summary == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      ld->loss_summary = etl_loss_summary_new (ld->trace, 14);
    }

  g_task_return_boolean (task, TRUE);
}

static void
show_messages (EtlWindow *self, GPtrArray *messages, GtkMessageType type)
{
  g_autoptr (GString) text = g_string_new (NULL);

  if (messages->len == 0)
    {
      gtk_widget_hide (GTK_WIDGET (self->info_bar));
      gtk_label_set_text (self->info_label, "");
      return;
    }
  for (guint i = 0; i < messages->len && i < MAX_MESSAGES_SHOWN; i++)
    {
      if (i > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, g_ptr_array_index (messages, i));
    }
  if (messages->len > MAX_MESSAGES_SHOWN)
    g_string_append_printf (text, "\n… and %u more problems", messages->len - MAX_MESSAGES_SHOWN);
  gtk_label_set_text (self->info_label, text->str);
  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_widget_show (GTK_WIDGET (self->info_bar));
}

static void
update_status (EtlWindow *self)
{
  g_autoptr (GString) status = g_string_new (NULL);
  g_autoptr (GString) names = g_string_new (NULL);
  guint n_files;

  if (self->trace == NULL)
    {
      gtk_label_set_text (self->status_label, "No trace loaded");
      gtk_header_bar_set_subtitle (self->header_bar, NULL);
      return;
    }

  n_files = etl_trace_get_n_files (self->trace);
  for (guint f = 0; f < n_files; f++)
    {
      g_autofree char *base = g_path_get_basename (etl_trace_get_file_info (self->trace, f)->path);

      if (f > 0)
        g_string_append (names, ", ");
      g_string_append (names, base);
    }
  g_string_append_printf (status, "%'" G_GUINT64_FORMAT " records · %u CPUs · %s",
                          etl_trace_get_n_records (self->trace),
                          etl_trace_get_n_cpus (self->trace),
                          names->str);
  gtk_label_set_text (self->status_label, status->str);
  gtk_header_bar_set_subtitle (self->header_bar, names->str);
}

static void
stop_progress (EtlWindow *self)
{
  if (self->progress_source != 0)
    {
      g_source_remove (self->progress_source);
      self->progress_source = 0;
    }
  g_clear_pointer (&self->load, load_data_unref);
  gtk_widget_hide (GTK_WIDGET (self->progress_bar));
}

static void
on_load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (source);
  LoadData *ld = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      stop_progress (self);
      g_clear_object (&self->load_cancellable);
      g_ptr_array_add (messages, g_strdup (error->message));
      show_messages (self, messages, GTK_MESSAGE_ERROR);
      return;
    }

  stop_progress (self);
  g_clear_object (&self->load_cancellable);

  for (guint i = 0; i < ld->errors->len; i++)
    g_ptr_array_add (messages, g_strdup (((GError *) g_ptr_array_index (ld->errors, i))->message));

  if (ld->trace != NULL)
    {
      g_clear_pointer (&self->trace, etl_trace_unref);
      self->trace = etl_trace_ref (ld->trace);

      for (guint f = 0; f < etl_trace_get_n_files (ld->trace); f++)
        {
          const EtlFileInfo *info = etl_trace_get_file_info (ld->trace, f);

          for (guint p = 0; p < info->problems->len; p++)
            g_ptr_array_add (messages, g_strdup (((GError *) g_ptr_array_index (info->problems, p))->message));
          if (info->n_problems_dropped > 0)
            g_ptr_array_add (messages, g_strdup_printf ("%s: %" G_GUINT64_FORMAT " more problems not listed",
                                                        info->path, info->n_problems_dropped));
        }

      etl_zoom_manager_set_bounds (self->zoom_manager,
                                   etl_trace_get_first_filetime (ld->trace),
                                   etl_trace_get_last_filetime (ld->trace) + 1);
      etl_time_ruler_set_origin (self->time_ruler, etl_trace_get_origin (ld->trace));
      etl_timeline_view_set_trace (self->timeline, ld->trace, ld->summary);
      etl_loss_plot_set_trace (self->loss_plot, ld->trace, ld->loss_summary);
      update_status (self);
    }

  show_messages (self, messages, ld->trace != NULL ? GTK_MESSAGE_WARNING : GTK_MESSAGE_ERROR);
}

static gboolean
progress_poll_cb (gpointer user_data)
{
  EtlWindow *self = user_data;

  if (self->load == NULL)
    {
      self->progress_source = 0;
      return G_SOURCE_REMOVE;
    }
  gtk_progress_bar_set_fraction (self->progress_bar, g_atomic_int_get (&self->load->progress) / 1000.0);
  return G_SOURCE_CONTINUE;
}

/**
 * etl_window_open_files:
 * @self: a window
 * @files: (array length=n_files): the .etl files to show as one timeline
 * @n_files: number of files, at least one
 *
 * Starts loading @files in a worker thread, cancelling a load in progress.
 * The trace shown is replaced when the load finishes; problems and files
 * that cannot be opened are listed in the info bar.
 */
void
etl_window_open_files (EtlWindow *self, GFile **files, guint n_files)
{
  g_autoptr (GTask) task = NULL;
  g_autoptr (GString) label = g_string_new ("Loading ");
  LoadData *ld;

  g_return_if_fail (ETL_IS_WINDOW (self));
  g_return_if_fail (files != NULL && n_files > 0);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  stop_progress (self);

  ld = g_new0 (LoadData, 1);
  g_atomic_ref_count_init (&ld->ref_count);
  ld->paths = g_new0 (char *, n_files + 1);
  ld->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *base = g_file_get_basename (files[i]);

      ld->paths[i] = g_file_get_path (files[i]);
      if (ld->paths[i] == NULL)
        ld->paths[i] = g_file_get_uri (files[i]);
      g_string_append_printf (label, "%s%s", i > 0 ? ", " : "", base);
    }
  g_string_append (label, "…");

  self->load_cancellable = g_cancellable_new ();
  self->load = load_data_ref (ld);
  gtk_progress_bar_set_fraction (self->progress_bar, 0.0);
  gtk_progress_bar_set_text (self->progress_bar, label->str);
  gtk_widget_show (GTK_WIDGET (self->progress_bar));
  self->progress_source = g_timeout_add (PROGRESS_POLL_MS, progress_poll_cb, self);

  task = g_task_new (self, self->load_cancellable, on_load_done, NULL);
  g_task_set_source_tag (task, etl_window_open_files);
  g_task_set_task_data (task, ld, (GDestroyNotify) load_data_unref);
  g_task_run_in_thread (task, load_thread);
}

/* Stop in the session panel ended a session that wrote a log file: show it. */
static void
on_session_stopped (EtlSessionPanel *panel, const char *path, EtlWindow *self)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);

  etl_window_open_files (self, &file, 1);
}

static void
on_info_bar_response (GtkInfoBar *info_bar, int response, EtlWindow *self)
{
  gtk_widget_hide (GTK_WIDGET (info_bar));
}

static void
etl_window_dispose (GObject *object)
{
  EtlWindow *self = ETL_WINDOW (object);

  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->progress_source != 0)
    {
      g_source_remove (self->progress_source);
      self->progress_source = 0;
    }
  g_clear_pointer (&self->load, load_data_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);

  G_OBJECT_CLASS (etl_window_parent_class)->dispose (object);
}

static void
etl_window_finalize (GObject *object)
{
  EtlWindow *self = ETL_WINDOW (object);

  g_clear_object (&self->zoom_manager);

  G_OBJECT_CLASS (etl_window_parent_class)->finalize (object);
}

static void
etl_window_class_init (EtlWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_window_dispose;
  object_class->finalize = etl_window_finalize;

  g_type_ensure (ETL_TYPE_TIME_RULER);
  g_type_ensure (ETL_TYPE_TIMELINE_VIEW);
  g_type_ensure (ETL_TYPE_LOSS_PLOT);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/etlscope/Etlscope/ui/etl-window.ui");
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, header_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, session_box);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, info_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, info_label);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, time_ruler);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, timeline);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, loss_plot);
  gtk_widget_class_bind_template_child (widget_class, EtlWindow, status_label);
  gtk_widget_class_bind_template_callback (widget_class, on_info_bar_response);
}

static void
etl_window_init (EtlWindow *self)
{
  g_autoptr (GPropertyAction) utc = NULL;
  GtkApplication *app;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->session_panel = ETL_SESSION_PANEL (etl_session_panel_new ());
  gtk_widget_show_all (GTK_WIDGET (self->session_panel));
  gtk_box_pack_start (self->session_box, GTK_WIDGET (self->session_panel), TRUE, TRUE, 0);
  g_signal_connect_object (self->session_panel, "session-stopped", G_CALLBACK (on_session_stopped), self, 0);

  self->zoom_manager = etl_zoom_manager_new ();
  etl_time_ruler_set_zoom_manager (self->time_ruler, self->zoom_manager);
  etl_timeline_view_set_zoom_manager (self->timeline, self->zoom_manager);
  etl_loss_plot_set_zoom_manager (self->loss_plot, self->zoom_manager);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "zoom", G_ACTION_GROUP (self->zoom_manager));

  utc = g_property_action_new ("utc", self->time_ruler, "utc");
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (utc));

  /* Fill most of the monitor; maximised where a window manager allows. */
  {
    GdkDisplay *display = gdk_display_get_default ();
    GdkMonitor *monitor = display != NULL ? gdk_display_get_primary_monitor (display) : NULL;

    if (monitor == NULL && display != NULL && gdk_display_get_n_monitors (display) > 0)
      monitor = gdk_display_get_monitor (display, 0);
    if (monitor != NULL)
      {
        GdkRectangle area;

        gdk_monitor_get_workarea (monitor, &area);
        /* The default size excludes the client-side title bar. */
        gtk_window_set_default_size (GTK_WINDOW (self), MAX (area.width - 24, 800), MAX (area.height - 64, 600));
      }
    gtk_window_maximize (GTK_WINDOW (self));
  }

  app = GTK_APPLICATION (g_application_get_default ());
  if (app != NULL)
    {
      GMenu *menu = gtk_application_get_menu_by_id (app, "primary_menu");

      if (menu != NULL)
        gtk_menu_button_set_menu_model (self->menu_button, G_MENU_MODEL (menu));
    }
}

/**
 * etl_window_new:
 * @application: (nullable): the application
 *
 * Returns: (transfer none): a new, empty window owned by @application
 */
EtlWindow *
etl_window_new (GtkApplication *application)
{
  return g_object_new (ETL_TYPE_WINDOW, "application", application, NULL);
}

/**
 * etl_window_get_loading:
 * @self: a window
 *
 * Returns: whether files are being loaded
 */
gboolean
etl_window_get_loading (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return self->load_cancellable != NULL;
}

/**
 * etl_window_get_trace:
 * @self: a window
 *
 * Returns: (transfer none) (nullable): the trace shown
 */
EtlTrace *
etl_window_get_trace (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->trace;
}

/**
 * etl_window_get_zoom_manager:
 * @self: a window
 *
 * Returns: (transfer none): the visible range shared by the trace area
 */
EtlZoomManager *
etl_window_get_zoom_manager (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return self->zoom_manager;
}

/**
 * etl_window_get_n_lanes:
 * @self: a window
 *
 * Returns: lanes in the timeline
 */
guint
etl_window_get_n_lanes (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return etl_timeline_view_get_n_lanes (self->timeline);
}

/**
 * etl_window_get_n_loss_files:
 * @self: a window
 *
 * Returns: files in the loss plot's legend
 */
guint
etl_window_get_n_loss_files (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), 0);
  return etl_loss_plot_get_n_files (self->loss_plot);
}

/**
 * etl_window_get_loss_totals:
 * @self: a window
 * @file: file index
 * @events_lost: (out) (optional): EventsLost shown in the legend
 * @buffers_lost: (out) (optional): BuffersLost shown in the legend
 *
 * Returns: %FALSE when the legend has no such file
 */
gboolean
etl_window_get_loss_totals (EtlWindow *self, guint file, guint64 *events_lost, guint64 *buffers_lost)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return etl_loss_plot_get_legend_totals (self->loss_plot, file, events_lost, buffers_lost);
}

/**
 * etl_window_dup_loss_legend:
 * @self: a window
 * @file: file index
 *
 * Returns: (transfer full) (nullable): the loss plot's legend text for @file
 */
char *
etl_window_dup_loss_legend (EtlWindow *self, guint file)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return etl_loss_plot_dup_legend_text (self->loss_plot, file);
}

/**
 * etl_window_get_visible_range:
 * @self: a window
 * @begin: (out) (optional): start of the visible range, FILETIME
 * @end: (out) (optional): end of the visible range, FILETIME
 */
void
etl_window_get_visible_range (EtlWindow *self, gint64 *begin, gint64 *end)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  etl_zoom_manager_get_visible (self->zoom_manager, begin, end);
}

/**
 * etl_window_get_info_bar_visible:
 * @self: a window
 *
 * Returns: whether the info bar shows problems
 */
gboolean
etl_window_get_info_bar_visible (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), FALSE);
  return gtk_widget_get_visible (GTK_WIDGET (self->info_bar));
}

/**
 * etl_window_get_info_message:
 * @self: a window
 *
 * Returns: (transfer none): the info bar's text
 */
const char *
etl_window_get_info_message (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->info_label);
}

/**
 * etl_window_get_status:
 * @self: a window
 *
 * Returns: (transfer none): the status line's text
 */
const char *
etl_window_get_status (EtlWindow *self)
{
  g_return_val_if_fail (ETL_IS_WINDOW (self), NULL);
  return gtk_label_get_text (self->status_label);
}
