/* SPDX-License-Identifier: GPL-3.0-or-later */

/*
 * Loading: etl_window_open_files() reads the trace index, its per-CPU
 * summary, its loss summary and the provider colour legend in a worker
 * (#GTask) and shows them; Cancel and Close; the demo trace, generated in
 * a worker and then loaded like any file.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <errno.h>

#include "etl-cpu-graph.h"
#include "etl-details.h"
#include "etl-event-list.h"
#include "etl-filter-bar.h"
#include "etl-filter.h"
#include "etl-group-view.h"
#include "etl-loss-plot.h"
#include "etl-names.h"
#include "etl-summary.h"
#include "etl-synth.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-window-private.h"
#include "etl-worker.h"

#define DEMO_RECORDS 200000
#define DEMO_CPUS 8

/* ------------------------------------------------------------------------ */
/* Loading                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct
{
  char **paths;
  char **manifests;
  Progress *progress;
  /* Results */
  EtlTrace *trace;
  EtlSummary *summary;
  EtlLossSummary *loss_summary;
  EtlStacks *stacks;    /* for the details pane's Stack section */
  GPtrArray *errors;
  GArray *legend;       /* LegendEntry: the most frequent providers */
} LoadData;

/* One provider in the colour legend. */
typedef struct
{
  guint provider;      /* provider index: picks the colour */
  guint64 count;
  char *name;
} LegendEntry;

#define MAX_LEGEND 12

static void
legend_entry_clear (gpointer data)
{
  g_free (((LegendEntry *) data)->name);
}

static gint
compare_legend (gconstpointer a, gconstpointer b)
{
  guint64 ca = ((const LegendEntry *) a)->count, cb = ((const LegendEntry *) b)->count;

  return ca > cb ? -1 : ca < cb;
}

/* Counts records per provider index (from the index: no record read) and
 * names the MAX_LEGEND most frequent from their first record. */
static GArray *
build_legend (EtlTrace *trace, GCancellable *cancellable)
{
  guint n_providers = etl_trace_get_n_providers (trace);
  guint64 n = etl_trace_get_n_records (trace);
  g_autofree guint64 *counts = g_new0 (guint64, n_providers + 1);
  g_autofree guint64 *first = g_new0 (guint64, n_providers + 1);
  GArray *legend = g_array_new (FALSE, TRUE, sizeof (LegendEntry));

  g_array_set_clear_func (legend, legend_entry_clear);
  for (guint64 i = 0; i < n; i++)
    {
      guint p = etl_trace_get_provider_index (trace, i);

      if ((i & 0xFFFFF) == 0 && g_cancellable_is_cancelled (cancellable))
        return legend;
      if (p >= n_providers)
        continue;
      if (counts[p]++ == 0)
        first[p] = i;
    }
  for (guint p = 0; p < n_providers; p++)
    if (counts[p] > 0)
      {
        LegendEntry e = { p, counts[p], NULL };

        g_array_append_val (legend, e);
      }
  g_array_sort (legend, compare_legend);
  if (legend->len > MAX_LEGEND)
    g_array_set_size (legend, MAX_LEGEND);
  for (guint i = 0; i < legend->len; i++)
    {
      LegendEntry *e = &g_array_index (legend, LegendEntry, i);
      EtlRecord record;

      if (etl_trace_get_record (trace, first[e->provider], &record, NULL))
        {
          e->name = etl_record_dup_provider_name (&record);
          etl_record_clear (&record);
        }
      else
        e->name = g_strdup ("?");
    }
  return legend;
}

static void
load_data_free (gpointer data)
{
  LoadData *ld = data;

  g_strfreev (ld->paths);
  g_strfreev (ld->manifests);
  progress_unref (ld->progress);
  g_clear_pointer (&ld->trace, etl_trace_unref);
  g_clear_pointer (&ld->summary, etl_summary_unref);
  g_clear_pointer (&ld->loss_summary, etl_loss_summary_unref);
  g_clear_pointer (&ld->stacks, etl_stacks_unref);
  g_clear_pointer (&ld->errors, g_ptr_array_unref);
  g_clear_pointer (&ld->legend, g_array_unref);
  g_free (ld);
}

static void
load_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  LoadData *ld = task_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) good = NULL;

  ld->trace = etl_trace_open_full ((const char *const *) ld->paths, (const char *const *) ld->manifests, on_progress,
                                   ld->progress, cancellable, &error);
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
              ld->trace = etl_trace_open_full ((const char *const *) good->pdata,
                                               (const char *const *) ld->manifests, on_progress, ld->progress,
                                               cancellable, &error);
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
      g_atomic_int_set (&ld->progress->permille, -1);
      /* The process table is decoded on first use: do it here, in the
       * worker, so the list and lanes never pay for it on the main loop. */
      progress_set_stage (ld->progress, "— processes and threads");
      (void) etl_trace_get_process_table (ld->trace);
      progress_set_stage (ld->progress, "— timeline");
      ld->summary = etl_summary_new (ld->trace, NULL, ETL_LANE_CPU, 0, 0, 16, cancellable, &error);
      if (ld->summary == NULL)
        {
          g_task_return_error (task, g_steal_pointer (&error));
          return;
        }
      ld->loss_summary = etl_loss_summary_new (ld->trace, 14);
      progress_set_stage (ld->progress, "— stacks");
      ld->stacks = etl_stacks_compute (ld->trace, NULL, NULL, cancellable, NULL);
      progress_set_stage (ld->progress, "— providers");
      ld->legend = build_legend (ld->trace, cancellable);
    }
  /* The merge and the summaries freed much in this thread's heap arena. */
  etl_worker_release_memory ();

  g_task_return_boolean (task, TRUE);
}

/* The provider colour legend under the timeline ------------------------- */

static gboolean
draw_swatch (GtkWidget *widget, cairo_t *cr, gpointer user_data)
{
  GdkRGBA rgba;

  etl_timeline_view_get_provider_color (GPOINTER_TO_UINT (user_data), &rgba);
  gdk_cairo_set_source_rgba (cr, &rgba);
  cairo_rectangle (cr, 0, 2, gtk_widget_get_allocated_width (widget), gtk_widget_get_allocated_height (widget) - 4);
  cairo_fill (cr);
  return FALSE;
}

static void
show_legend (EtlWindow *self, GArray *legend)
{
  g_autoptr (GList) children = gtk_container_get_children (GTK_CONTAINER (self->legend_box));

  for (GList *l = children; l != NULL; l = l->next)
    gtk_widget_destroy (l->data);
  for (guint i = 0; legend != NULL && i < legend->len; i++)
    {
      const LegendEntry *e = &g_array_index (legend, LegendEntry, i);
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
      GtkWidget *swatch = gtk_drawing_area_new ();
      /* Provider names differ at their end: keep it, whole in the tooltip. */
      g_autofree char *shown = g_utf8_strlen (e->name, -1) > 24
                                   ? g_strconcat ("…", g_utf8_offset_to_pointer (e->name, g_utf8_strlen (e->name, -1) - 22),
                                                  NULL)
                                   : g_strdup (e->name);
      GtkWidget *label = gtk_label_new (shown);
      g_autofree char *tip = g_strdup_printf ("%s: %'" G_GUINT64_FORMAT " events", e->name, e->count);

      gtk_widget_set_size_request (swatch, 12, 14);
      g_signal_connect (swatch, "draw", G_CALLBACK (draw_swatch), GUINT_TO_POINTER (e->provider));
      gtk_style_context_add_class (gtk_widget_get_style_context (label), "dim-label");
      gtk_widget_set_tooltip_text (box, tip);
      gtk_container_add (GTK_CONTAINER (box), swatch);
      gtk_container_add (GTK_CONTAINER (box), label);
      gtk_widget_show_all (box);
      gtk_container_add (GTK_CONTAINER (self->legend_box), box);
    }
  gtk_widget_set_visible (self->legend_scroller, legend != NULL && legend->len > 0);
}

static void
show_trace (EtlWindow *self, LoadData *ld)
{
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_ptr_array_set_size (self->conditions, 0);
  self->trace = etl_trace_ref (ld->trace);

  etl_zoom_manager_set_bounds (self->zoom_manager,
                               etl_trace_get_first_filetime (ld->trace),
                               etl_trace_get_last_filetime (ld->trace) + 1);
  etl_time_ruler_set_origin (self->time_ruler, etl_trace_get_origin (ld->trace));
  if (etl_timeline_view_get_lane_mode (self->timeline) == ETL_LANE_CPU)
    etl_timeline_view_set_trace (self->timeline, ld->trace, ld->summary);
  else
    etl_timeline_view_set_trace (self->timeline, ld->trace, NULL);
  etl_loss_plot_set_trace (self->loss_plot, ld->trace, ld->loss_summary);
  etl_cpu_graph_set_trace (self->cpu_graph, ld->trace);
  etl_event_list_set_rows (self->event_list, ld->trace, NULL);
  etl_group_view_set_range (self->group_view, 0, 0);
  etl_group_view_set_rows (self->group_view, ld->trace, NULL);
  etl_zoom_manager_set_focus (self->zoom_manager, G_MININT64);
  load_markers (self);
  show_legend (self, ld->legend);
  /* A few records far from the rest (a header hours before the data) would
   * squeeze the data into a pixel: start on the range of 99.9 % of them. */
  {
    gint64 begin, end, full = etl_trace_get_last_filetime (ld->trace) + 1 - etl_trace_get_first_filetime (ld->trace);

    if (etl_window_get_data_range (self, &begin, &end) && (end - begin) < full / 20)
      etl_window_zoom_to_data (self);
  }
  etl_details_set_stacks (self->details, ld->stacks);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  self->stacks = ld->stacks != NULL ? etl_stacks_ref (ld->stacks) : NULL;
  etl_details_clear (self->details);
  etl_filter_bar_set_counts (self->filter_bar, etl_trace_get_n_records (ld->trace),
                             etl_trace_get_n_records (ld->trace));
  gtk_stack_set_visible_child_name (self->stack, "trace");

  /* Recent files: the file, or the merged set as one entry. */
  add_recent (self, ld->trace);

  if (!etl_filter_is_empty (self->filter) || self->conditions->len > 0)
    apply_filter (self);
  update_status (self);
  update_actions (self);
}

static void
on_load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (source);
  LoadData *ld = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) messages = g_ptr_array_new_with_free_func (g_free);

  /* A load replaced by a newer one, or the window went away. */
  if (g_task_get_cancellable (G_TASK (result)) != self->load_cancellable)
    return;

  stop_progress (self);
  g_clear_object (&self->load_cancellable);
  update_actions (self);

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          update_status (self);
          return;
        }
      show_message (self, GTK_MESSAGE_ERROR, error->message);
      return;
    }

  for (guint i = 0; i < ld->errors->len; i++)
    g_ptr_array_add (messages, g_strdup (((GError *) g_ptr_array_index (ld->errors, i))->message));

  if (ld->trace != NULL)
    {
      for (guint f = 0; f < etl_trace_get_n_files (ld->trace); f++)
        {
          const EtlFileInfo *info = etl_trace_get_file_info (ld->trace, f);

          for (guint p = 0; p < info->problems->len; p++)
            g_ptr_array_add (messages, g_strdup (((GError *) g_ptr_array_index (info->problems, p))->message));
          if (info->n_problems_dropped > 0)
            g_ptr_array_add (messages, g_strdup_printf ("%s: %" G_GUINT64_FORMAT " more problems not listed",
                                                        info->path, info->n_problems_dropped));
        }
      show_trace (self, ld);
    }

  show_messages (self, messages, ld->trace != NULL ? GTK_MESSAGE_WARNING : GTK_MESSAGE_ERROR);
}

void
cancel_jobs (EtlWindow *self)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  if (self->export_cancellable != NULL)
    g_cancellable_cancel (self->export_cancellable);
  g_clear_object (&self->export_cancellable);
  stop_progress (self);
}

/**
 * etl_window_open_files:
 * @self: a window
 * @files: (array length=n_files): the .etl files to show as one timeline
 * @n_files: number of files, at least one
 *
 * Starts loading @files in a worker thread, cancelling a job in progress.
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

  cancel_jobs (self);

  ld = g_new0 (LoadData, 1);
  ld->progress = progress_new ();
  ld->paths = g_new0 (char *, n_files + 1);
  /* Manifests loaded earlier describe this trace too; one deleted since
   * would fail the whole open, so only those still there. */
  ld->manifests = g_new0 (char *, self->manifests->len + 1);
  for (guint i = 0, k = 0; i < self->manifests->len; i++)
    if (g_file_test (g_ptr_array_index (self->manifests, i), G_FILE_TEST_IS_REGULAR))
      ld->manifests[k++] = g_strdup (g_ptr_array_index (self->manifests, i));
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
  start_progress (self, label->str, ld->progress);
  update_actions (self);

  task = g_task_new (self, self->load_cancellable, on_load_done, NULL);
  g_task_set_source_tag (task, etl_window_open_files);
  g_task_set_task_data (task, ld, load_data_free);
  etl_worker_run (task, load_thread);
}

/**
 * etl_window_cancel:
 * @self: a window
 *
 * Cancels loading and exporting.  What was shown before stays.
 */
void
etl_window_cancel (EtlWindow *self)
{
  g_return_if_fail (ETL_IS_WINDOW (self));
  if (self->load_cancellable == NULL && self->export_cancellable == NULL)
    return;
  cancel_jobs (self);
  update_status (self);
  update_actions (self);
}

/**
 * etl_window_close_trace:
 * @self: a window
 *
 * Stops every job, forgets the trace and shows the start page.
 */
void
etl_window_close_trace (EtlWindow *self)
{
  g_return_if_fail (ETL_IS_WINDOW (self));

  cancel_jobs (self);
  if (self->filter_cancellable != NULL)
    g_cancellable_cancel (self->filter_cancellable);
  g_clear_object (&self->filter_cancellable);
  etl_filter_bar_set_busy (self->filter_bar, FALSE);

  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_ptr_array_set_size (self->conditions, 0);
  etl_event_list_set_rows (self->event_list, NULL, NULL);
  etl_group_view_set_rows (self->group_view, NULL, NULL);
  g_array_set_size (self->markers, 0);
  show_markers (self);
  show_legend (self, NULL);
  etl_timeline_view_set_trace (self->timeline, NULL, NULL);
  etl_loss_plot_set_trace (self->loss_plot, NULL, NULL);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  etl_details_set_stacks (self->details, NULL);
  etl_cpu_graph_set_trace (self->cpu_graph, NULL);
  etl_details_clear (self->details);
  etl_filter_bar_set_counts (self->filter_bar, 0, 0);
  gtk_widget_hide (GTK_WIDGET (self->info_bar));
  gtk_stack_set_visible_child_name (self->stack, "start");
  update_status (self);
  update_actions (self);
  etl_window_save_state (self, NULL);
}

/* Demo trace ------------------------------------------------------------- */

static char *
demo_path (void)
{
  return g_build_filename (g_get_user_cache_dir (), "etlscope", "demo.etl", NULL);
}

static void
demo_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  const char *path = task_data;
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", dir, g_strerror (saved));
      return;
    }
  etl_synth_params_init (&params);
  params.n_cpus = DEMO_CPUS;
  params.n_records = DEMO_RECORDS;
  params.loss_rate = 0.02;
  params.seed = 2024;
  /* Written atomically: an existing demo.etl is always complete. */
  if (!etl_synth_write (&params, path, &error))
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_demo_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  EtlWindow *self = ETL_WINDOW (source);
  const char *path = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  g_autoptr (GFile) file = NULL;

  if (g_task_get_cancellable (G_TASK (result)) != self->load_cancellable)
    return;
  stop_progress (self);
  g_clear_object (&self->load_cancellable);
  update_actions (self);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *message = g_strdup_printf ("Could not generate the demo trace %s: %s", path, error->message);

      show_message (self, GTK_MESSAGE_ERROR, message);
      return;
    }
  file = g_file_new_for_path (path);
  etl_window_open_files (self, &file, 1);
}

/**
 * etl_window_open_demo:
 * @self: a window
 *
 * Opens g_get_user_cache_dir()/etlscope/demo.etl, generating it first (in a
 * worker, etl_synth_write(): 8 CPUs, 200,000 records, 2 % of buffers lost)
 * when it does not exist yet.
 */
void
etl_window_open_demo (EtlWindow *self)
{
  g_autofree char *path = demo_path ();
  g_autoptr (GTask) task = NULL;
  g_autoptr (Progress) progress = NULL;

  g_return_if_fail (ETL_IS_WINDOW (self));

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);

      etl_window_open_files (self, &file, 1);
      return;
    }

  cancel_jobs (self);
  self->load_cancellable = g_cancellable_new ();
  progress = progress_new ();
  progress->permille = -1;
  start_progress (self, "Generating the demo trace…", progress);
  update_actions (self);

  task = g_task_new (self, self->load_cancellable, on_demo_done, NULL);
  g_task_set_source_tag (task, etl_window_open_demo);
  g_task_set_task_data (task, g_steal_pointer (&path), g_free);
  etl_worker_run (task, demo_thread);
}
