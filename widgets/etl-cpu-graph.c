/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-cpu-graph
 * @title: EtlCpuGraph
 * @short_description: CPU usage over time, stacked per process
 *
 * Drawn under the timeline on the same time axis (the visible range of the
 * shared #EtlZoomManager and the same label column width): per time bucket,
 * the top %ETL_CPU_GRAPH_TOP_N processes of the visible range and "Other"
 * as stacked areas, in percent of all processors (WPA's "CPU Usage
 * (Sampled)" and "CPU Usage (Precise)" graphs).  A header row switches
 * between Sampled (PerfInfo SampledProfile records) and Precise (Thread
 * CSwitch records; offered only when the trace has them) and says what the
 * graph counts; a legend names each band `name (PID)` with its share of the
 * range; hovering shows the bucket's time and each process's percentage.
 *
 * The series is an #EtlCpuUsage from etl_cpu_usage_compute_range() for the
 * visible range, at a bucket width of about 3 pixels (Sampled: at least 4
 * sampling intervals, else buckets hold 0 or 1 sample a processor), computed
 * in a #GTask worker: a zoom or pan restarts a short timer (repeated
 * requests collapse into one), then cancels the running computation and
 * starts the new one; drawing only reads the last finished series.  The
 * first computation after etl_cpu_graph_set_trace() also counts the trace's
 * SampledProfile and CSwitch records; a trace with neither hides the graph.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>

#include "etl-cpu-graph.h"
#include "etl-worker.h"

#define PX_PER_BUCKET 3
#define LEGEND_ROW 18
#define LEGEND_ROWS 2
#define PLOT_HEIGHT 90
#define UPDATE_DELAY_MS 40
#define MIN_SAMPLES_A_BUCKET 4 /* sampling intervals a sampled bucket spans at least */

struct _EtlCpuGraph
{
  GtkBox parent_instance;

  GtkWidget *sampled_button;
  GtkWidget *precise_button;
  GtkWidget *status_label;
  GtkWidget *expand_button; /* shows or hides the graph (the header stays) */
  GtkWidget *area;

  EtlZoomManager *zoom_manager;
  gulong changed_handler;
  EtlTrace *trace;

  EtlCpuUsageMode mode;
  gboolean probed;       /* record counts known */
  guint64 n_samples;     /* SampledProfile records in the trace */
  guint64 n_cswitches;   /* CSwitch records in the trace */
  gint64 sample_interval; /* 100-ns, learnt from the last sampled usage */

  EtlCpuUsage *usage;    /* the last finished computation */
  EtlCpuUsageSeries *series;

  GCancellable *cancellable; /* of the running computation */
  guint generation;          /* of the latest request */
  gboolean running;          /* the latest request has not finished */
  guint update_id;           /* the collapsing timer */
  double hover_x;            /* pointer x in the area, < 0 outside */
  gboolean updating_buttons;
};

G_DEFINE_TYPE (EtlCpuGraph, etl_cpu_graph, GTK_TYPE_BOX)

enum
{
  SERIES_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static const guint32 palette[ETL_CPU_GRAPH_TOP_N] = {
  0x3465a4, 0xf57900, 0x4e9a06, 0xcc0000, 0x75507b, 0x06989a, 0xc4a000, 0x8f5902,
};

static void
row_color (const EtlCpuUsageSeries *s, guint row, GdkRGBA *rgba)
{
  guint32 c = s->entries[row] == NULL ? 0x888a85 : palette[row % G_N_ELEMENTS (palette)];

  rgba->red = ((c >> 16) & 0xff) / 255.0;
  rgba->green = ((c >> 8) & 0xff) / 255.0;
  rgba->blue = (c & 0xff) / 255.0;
  rgba->alpha = 1.0;
}

/* The worker ---------------------------------------------------------- */

typedef struct
{
  EtlTrace *trace;
  EtlCpuUsageMode mode;
  gboolean probe;
  gboolean mode_chosen; /* the user picked @mode: keep it */
  gint64 begin, end, width;
} Job;

typedef struct
{
  EtlCpuUsage *usage;
  EtlCpuUsageSeries *series;
  gboolean probed;
  guint64 n_samples, n_cswitches;
  EtlCpuUsageMode mode;
} Result;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_trace_unref (job->trace);
  g_free (job);
}

static void
result_free (gpointer data)
{
  Result *r = data;

  g_clear_pointer (&r->usage, etl_cpu_usage_unref);
  g_clear_pointer (&r->series, etl_cpu_usage_series_free);
  g_free (r);
}

/* The records of @mode in the whole trace: one bucket, so it is cheap in
 * memory. */
static gboolean
count_records (EtlTrace *trace, EtlCpuUsageMode mode, guint64 *n, GCancellable *cancellable,
               GError **error)
{
  gint64 span = etl_trace_get_last_filetime (trace) - etl_trace_get_first_filetime (trace);
  g_autoptr (EtlCpuUsage) u = etl_cpu_usage_compute (trace, mode, ETL_CPU_USAGE_BY_PROCESS,
                                                     MAX (span, 0) + 1, NULL, NULL, cancellable, error);

  if (u == NULL)
    return FALSE;
  *n = etl_cpu_usage_get_n_records (u);
  return TRUE;
}

static void
compute_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  Result *r = g_new0 (Result, 1);
  GError *error = NULL;

  r->mode = job->mode;
  if (job->probe)
    {
      if (!count_records (job->trace, ETL_CPU_USAGE_SAMPLED, &r->n_samples, cancellable, &error)
          || !count_records (job->trace, ETL_CPU_USAGE_PRECISE, &r->n_cswitches, cancellable, &error))
        {
          result_free (r);
          g_task_return_error (task, error);
          return;
        }
      r->probed = TRUE;
      if (!job->mode_chosen)
        r->mode = r->n_samples > 0 || r->n_cswitches == 0 ? ETL_CPU_USAGE_SAMPLED : ETL_CPU_USAGE_PRECISE;
      if (r->n_samples == 0 && r->n_cswitches == 0)
        {
          g_task_return_pointer (task, r, result_free);
          return;
        }
    }
  r->usage = etl_cpu_usage_compute_range (job->trace, r->mode, ETL_CPU_USAGE_BY_PROCESS, job->begin, job->end,
                                          job->width, NULL, NULL, cancellable, &error);
  if (r->usage == NULL)
    {
      result_free (r);
      g_task_return_error (task, error);
      return;
    }
  r->series = etl_cpu_usage_dup_series (r->usage, ETL_CPU_GRAPH_TOP_N);
  g_task_return_pointer (task, r, result_free);
}

static void update_header (EtlCpuGraph *self);
static void schedule_update (EtlCpuGraph *self);

static void
on_computed (GObject *source, GAsyncResult *res, gpointer user_data)
{
  EtlCpuGraph *self = ETL_CPU_GRAPH (source);
  guint generation = GPOINTER_TO_UINT (user_data);
  g_autoptr (GError) error = NULL;
  Result *r = g_task_propagate_pointer (G_TASK (res), &error);

  if (generation != self->generation)
    {
      /* A later request replaced this one. */
      etl_worker_free (r, result_free);
      return;
    }
  self->running = FALSE;
  if (r == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("CPU usage: %s", error->message);
      return;
    }
  if (r->probed)
    {
      self->probed = TRUE;
      self->n_samples = r->n_samples;
      self->n_cswitches = r->n_cswitches;
    }
  self->mode = r->mode;
  /* One block a process: freed in a worker, the main loop would wait. */
  etl_worker_free (g_steal_pointer (&self->usage), (GDestroyNotify) etl_cpu_usage_unref);
  g_clear_pointer (&self->series, etl_cpu_usage_series_free);
  self->usage = g_steal_pointer (&r->usage);
  if (self->usage != NULL && self->mode == ETL_CPU_USAGE_SAMPLED)
    {
      guint n;
      const EtlCpuUsageEntry *e = etl_cpu_usage_get_entries (self->usage, &n);

      /* Every sample of an entry is worth the same interval unless the
       * trace changed it; the top entry's ratio is the interval in force. */
      if (n > 0 && e[0].samples > 0 && e[0].cpu_time > 0)
        {
          gint64 interval = e[0].cpu_time / (gint64)e[0].samples;

          if (interval != self->sample_interval && interval > 0)
            {
              self->sample_interval = interval;
              schedule_update (self);
            }
        }
    }
  self->series = g_steal_pointer (&r->series);
  result_free (r);
  update_header (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (self->area);
  g_signal_emit (self, signals[SERIES_CHANGED], 0);
}

static int
axis_width (EtlCpuGraph *self)
{
  int w = gtk_widget_get_allocated_width (self->area) - ETL_LABEL_COLUMN_WIDTH;

  return w > 16 ? w : 800;
}

static void
start_job (EtlCpuGraph *self, gboolean mode_chosen)
{
  g_autoptr (GTask) task = NULL;
  Job *job;
  gint64 t0, t1, span, full;
  guint n;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->generation++;
  if (self->trace == NULL || self->zoom_manager == NULL)
    {
      self->running = FALSE;
      return;
    }

  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  span = MAX (t1 - t0, 1);
  full = MAX (etl_trace_get_last_filetime (self->trace) - etl_trace_get_first_filetime (self->trace), 1);
  n = MAX (axis_width (self) / PX_PER_BUCKET, 1);

  job = g_new0 (Job, 1);
  job->trace = etl_trace_ref (self->trace);
  job->mode = self->mode;
  job->mode_chosen = mode_chosen;
  job->probe = !self->probed;
  job->begin = t0;
  job->end = t1;
  job->width = MAX ((span + n - 1) / n, 1);
  /* Sampled: a bucket narrower than a few sampling intervals holds 0 or 1
   * sample a processor, which draws as a comb, not as usage. */
  if (self->mode == ETL_CPU_USAGE_SAMPLED)
    job->width = MAX (job->width, MIN_SAMPLES_A_BUCKET * self->sample_interval);
  /* Never more buckets than the core allows, whatever the zoom. */
  job->width = MAX (job->width, full / (ETL_CPU_USAGE_MAX_BUCKETS / 2) + 1);

  self->cancellable = g_cancellable_new ();
  self->running = TRUE;
  task = g_task_new (self, self->cancellable, on_computed, GUINT_TO_POINTER (self->generation));
  g_task_set_source_tag (task, start_job);
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, compute_thread);
}

static gboolean
on_update_timeout (gpointer user_data)
{
  EtlCpuGraph *self = user_data;

  self->update_id = 0;
  start_job (self, FALSE);
  return G_SOURCE_REMOVE;
}

/* Asks for the series of the visible range; repeated requests within
 * UPDATE_DELAY_MS collapse into one. */
static void
schedule_update (EtlCpuGraph *self)
{
  if (self->trace == NULL)
    return;
  if (self->probed && self->n_samples == 0 && self->n_cswitches == 0)
    return;
  self->running = TRUE;
  if (self->update_id == 0)
    self->update_id = g_timeout_add (UPDATE_DELAY_MS, on_update_timeout, self);
}

static void
on_zoom_changed (EtlCpuGraph *self, EtlZoomManager *zoom_manager)
{
  gtk_widget_queue_draw (self->area);
  if (self->usage != NULL)
    {
      gint64 t0, t1;

      etl_zoom_manager_get_visible (zoom_manager, &t0, &t1);
      if (t0 == etl_cpu_usage_get_start (self->usage) && MIN (t1, etl_trace_get_last_filetime (self->trace))
                                                            == etl_cpu_usage_get_end (self->usage))
        return;
    }
  schedule_update (self);
}

/* Header: the mode switch and what the graph counts ------------------- */

static void
update_header (EtlCpuGraph *self)
{
  g_autofree char *text = NULL;

  self->updating_buttons = TRUE;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->mode == ETL_CPU_USAGE_PRECISE ? self->precise_button
                                                                                       : self->sampled_button),
                                TRUE);
  self->updating_buttons = FALSE;
  gtk_widget_set_sensitive (self->sampled_button, self->n_samples > 0);
  gtk_widget_set_sensitive (self->precise_button, self->n_cswitches > 0);
  gtk_widget_set_tooltip_text (self->precise_button,
                               self->n_cswitches > 0 ? "CPU time from Thread CSwitch records"
                                                     : "This trace has no CSwitch records");
  gtk_widget_set_tooltip_text (self->sampled_button,
                               self->n_samples > 0 ? "CPU time from PerfInfo SampledProfile records"
                                                   : "This trace has no SampledProfile records");

  if (!self->probed)
    text = g_strdup (self->trace != NULL ? "counting samples and context switches…" : "");
  else if (self->n_samples == 0 && self->n_cswitches == 0)
    text = g_strdup ("no samples or context switches");
  else if (self->usage != NULL)
    text = g_strdup_printf ("%'" G_GUINT64_FORMAT " %s in view · %u CPUs · %.3g ms buckets · %% of all CPUs",
                            etl_cpu_usage_get_n_records (self->usage),
                            self->mode == ETL_CPU_USAGE_PRECISE ? "CSwitch records" : "SampledProfile records",
                            etl_cpu_usage_get_n_cpus (self->usage),
                            etl_cpu_usage_get_bucket_width (self->usage) / 10000.0);
  gtk_label_set_text (GTK_LABEL (self->status_label), text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self), self->trace != NULL
                                                 && (!self->probed || self->n_samples > 0 || self->n_cswitches > 0));
}

static void
on_mode_toggled (GtkToggleButton *button, EtlCpuGraph *self)
{
  if (self->updating_buttons || !gtk_toggle_button_get_active (button))
    return;
  etl_cpu_graph_set_mode (self, GTK_WIDGET (button) == self->precise_button ? ETL_CPU_USAGE_PRECISE
                                                                             : ETL_CPU_USAGE_SAMPLED);
}

/* Drawing --------------------------------------------------------------- */

static void
fg_color (GtkWidget *widget, GdkRGBA *rgba)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  gtk_style_context_get_color (style, gtk_style_context_get_state (style), rgba);
}

/* The top of the scale: the smallest of a few round percentages above the
 * highest stack, so a mostly idle machine still shows its shape. */
static double
scale_top (const EtlCpuUsageSeries *s)
{
  static const double steps[] = { 1, 2, 4, 5, 10, 15, 20, 25, 30, 40, 50, 60, 80, 100 };
  double max = 0;

  if (s == NULL)
    return 100.0;
  for (guint k = 0; k < s->n_buckets; k++)
    {
      double sum = 0;

      for (guint r = 0; r < s->n_rows; r++)
        sum += s->percent[(gsize)r * s->n_buckets + k];
      max = MAX (max, sum);
    }
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (max <= steps[i] + 1e-9)
      return steps[i];
  return 100.0;
}

/* The bucket under x (area coordinates), or -1. */
static int
bucket_at (EtlCpuGraph *self, double x, int width)
{
  int axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  gint64 t, start, bw;

  if (self->series == NULL || self->zoom_manager == NULL || axis_w <= 0 || x < ETL_LABEL_COLUMN_WIDTH)
    return -1;
  t = etl_zoom_manager_x_to_time (self->zoom_manager, x - ETL_LABEL_COLUMN_WIDTH, axis_w);
  start = etl_cpu_usage_get_start (self->usage);
  bw = etl_cpu_usage_get_bucket_width (self->usage);
  if (t < start || t >= etl_cpu_usage_get_end (self->usage) || bw <= 0)
    return -1;
  return (int)MIN ((t - start) / bw, (gint64)self->series->n_buckets - 1);
}

/**
 * etl_cpu_graph_render:
 * @self: a CPU graph
 * @cr: a cairo context, for the graph's drawing area or an image surface
 * @width: width in pixels, label column included
 * @height: height in pixels
 *
 * Draws the legend and the stacked areas of the last computed series, in
 * O(rows × buckets): each bucket is a step from its start to its end on
 * the shared time axis, bands stacked from the most used process up, with
 * "Other" on top.  The scale runs from 0 to the smallest round percentage
 * of all processors above the highest stack (1, 2, 4, 5, 10, 15, 20, 25,
 * 30, 40, 50, 60, 80 or 100 %), marked in the label column.  Never computes: a series still being computed is drawn when it
 * arrives.
 */
void
etl_cpu_graph_render (EtlCpuGraph *self, cairo_t *cr, int width, int height)
{
  GtkWidget *widget;
  g_autoptr (PangoLayout) layout = NULL;
  const EtlCpuUsageSeries *s;
  GdkRGBA fg;
  double top, base, lx, ly;
  int axis_w, tw, th;
  gint64 start, bw;
  g_autofree double *acc = NULL;
  double ymax;

  g_return_if_fail (ETL_IS_CPU_GRAPH (self));
  g_return_if_fail (cr != NULL);

  widget = self->area;
  gtk_render_background (gtk_widget_get_style_context (widget), cr, 0, 0, width, height);
  fg_color (widget, &fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_fill (cr);

  top = 4 + LEGEND_ROWS * LEGEND_ROW + 6;
  base = height - 4.5;
  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH - 1, top, 1, height - top);
  cairo_fill (cr);

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.9);
  pango_layout_set_markup (layout, "<b>CPU usage</b>", -1);
  cairo_move_to (cr, 10, 4);
  pango_cairo_show_layout (cr, layout);
  pango_layout_get_pixel_size (layout, NULL, &th);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
  pango_layout_set_markup (layout,
                           self->mode == ETL_CPU_USAGE_PRECISE ? "<small>precise, % of CPUs</small>"
                                                               : "<small>sampled, % of CPUs</small>",
                           -1);
  cairo_move_to (cr, 10, 4 + th);
  pango_cairo_show_layout (cr, layout);

  ymax = scale_top (self->series);

  /* Scale: ymax at the top, 0 % at the base, with grid lines. */
  for (guint g = 0; g <= 4; g++)
    {
      double y = floor (base - (base - top) * g / 4.0) + 0.5;

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * (g == 0 || g == 4 ? 0.2 : 0.08));
      cairo_set_line_width (cr, 1.0);
      cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH, y);
      cairo_line_to (cr, width, y);
      cairo_stroke (cr);
      if (g == 0 || g == 2 || g == 4)
        {
          g_autofree char *label = g_strdup_printf ("<small>%g %%</small>", ymax * g / 4.0);

          pango_layout_set_markup (layout, label, -1);
          pango_layout_get_pixel_size (layout, &tw, &th);
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
          cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH - tw - 6, CLAMP (y - th / 2.0, top - 4, base - th + 3));
          pango_cairo_show_layout (cr, layout);
        }
    }

  s = self->series;
  if (s == NULL || self->zoom_manager == NULL || axis_w <= 0)
    {
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
      pango_layout_set_text (layout, self->trace != NULL ? "computing…" : "", -1);
      cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH + 8, 4);
      pango_cairo_show_layout (cr, layout);
      return;
    }

  /* Legend: a swatch, the process and its share of the range. */
  lx = ETL_LABEL_COLUMN_WIDTH + 8;
  ly = 4;
  for (guint r = 0; r < s->n_rows; r++)
    {
      GdkRGBA color;
      double pct = 0;
      g_autofree char *text = NULL;
      gint64 cap = 0, t = 0;

      for (guint k = 0; k < s->n_buckets; k++)
        {
          gint64 c = etl_cpu_usage_get_bucket_capacity (self->usage, k);

          cap += c;
          t += (gint64)llround (s->percent[(gsize)r * s->n_buckets + k] * (double)c / 100.0);
        }
      pct = s->entries[r] != NULL ? s->entries[r]->percent : (cap > 0 ? 100.0 * (double)t / (double)cap : 0.0);
      text = g_markup_printf_escaped ("%s <small>%.1f %%</small>", s->names[r], pct);
      pango_layout_set_markup (layout, text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      if (lx + 16 + tw > width && lx > ETL_LABEL_COLUMN_WIDTH + 8)
        {
          lx = ETL_LABEL_COLUMN_WIDTH + 8;
          ly += LEGEND_ROW;
          if (ly >= 4 + LEGEND_ROWS * LEGEND_ROW)
            break;
        }
      row_color (s, r, &color);
      cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.85);
      cairo_rectangle (cr, lx, ly + 4, 10, 10);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha);
      cairo_move_to (cr, lx + 14, ly);
      pango_cairo_show_layout (cr, layout);
      lx += 14 + tw + 16;
    }

  /* Stacked bands, one step per bucket. */
  start = etl_cpu_usage_get_start (self->usage);
  bw = etl_cpu_usage_get_bucket_width (self->usage);
  acc = g_new0 (double, s->n_buckets);
  cairo_save (cr);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH, top, axis_w, base - top + 1);
  cairo_clip (cr);
  for (guint r = 0; r < s->n_rows; r++)
    {
      GdkRGBA color;
      double scale = (base - top) / ymax;

      row_color (s, r, &color);
      cairo_new_path (cr);
      for (guint k = 0; k < s->n_buckets; k++)
        {
          double x0 = ETL_LABEL_COLUMN_WIDTH
                      + etl_zoom_manager_time_to_x (self->zoom_manager, start + (gint64)k * bw, axis_w);
          double x1 = ETL_LABEL_COLUMN_WIDTH
                      + etl_zoom_manager_time_to_x (self->zoom_manager,
                                                    MIN (start + (gint64)(k + 1) * bw,
                                                         etl_cpu_usage_get_end (self->usage)),
                                                    axis_w);
          double v = s->percent[(gsize)r * s->n_buckets + k];

          if (v <= 0 || x1 < ETL_LABEL_COLUMN_WIDTH || x0 > width)
            {
              acc[k] += MAX (v, 0);
              continue;
            }
          cairo_rectangle (cr, x0, base - (acc[k] + v) * scale, MAX (x1 - x0, 0.5), v * scale);
          acc[k] += v;
        }
      cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.8);
      cairo_fill (cr);
    }

  /* The bucket under the pointer. */
  if (self->hover_x >= ETL_LABEL_COLUMN_WIDTH)
    {
      int k = bucket_at (self, self->hover_x, width);

      if (k >= 0)
        {
          double x0 = ETL_LABEL_COLUMN_WIDTH
                      + etl_zoom_manager_time_to_x (self->zoom_manager, start + (gint64)k * bw, axis_w);
          double x1 = ETL_LABEL_COLUMN_WIDTH
                      + etl_zoom_manager_time_to_x (self->zoom_manager, start + (gint64)(k + 1) * bw, axis_w);

          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.15);
          cairo_rectangle (cr, x0, top, MAX (x1 - x0, 1), base - top);
          cairo_fill (cr);
        }
    }
  cairo_restore (cr);
}

/**
 * etl_cpu_graph_dup_hover_text:
 * @self: a CPU graph
 * @x: pointer x in the graph's drawing area, pixels (label column included)
 * @width: the drawing area's width in pixels
 *
 * The text shown when hovering @x: the bucket's start and end (seconds
 * from the trace's origin), then each band with a share above zero and its
 * percentage of all processors in that bucket, then the total, one per
 * line, such as "0.500 – 0.510 s\nTest.x64.exe (3676): 25.0 %\n…".
 *
 * Returns: (transfer full) (nullable): the text, %NULL outside the data
 */
char *
etl_cpu_graph_dup_hover_text (EtlCpuGraph *self, double x, int width)
{
  const EtlCpuUsageSeries *s;
  GString *str;
  gint64 origin, b0, b1, bw;
  double total = 0;
  int k, digits;

  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), NULL);

  k = bucket_at (self, x, width);
  if (k < 0)
    return NULL;
  s = self->series;
  origin = etl_trace_get_origin (self->trace);
  bw = etl_cpu_usage_get_bucket_width (self->usage);
  b0 = etl_cpu_usage_get_start (self->usage) + (gint64)k * bw;
  b1 = MIN (b0 + bw, etl_cpu_usage_get_end (self->usage));
  digits = bw >= 10000 ? 3 : 6;
  str = g_string_new (NULL);
  g_string_append_printf (str, "%.*f – %.*f s", digits, (b0 - origin) / 1e7, digits, (b1 - origin) / 1e7);
  for (guint r = 0; r < s->n_rows; r++)
    {
      double v = s->percent[(gsize)r * s->n_buckets + k];

      total += v;
      if (v > 0)
        g_string_append_printf (str, "\n%s: %.1f %%", s->names[r], v);
    }
  g_string_append_printf (str, "\nTotal: %.1f %% of %u CPUs", total, etl_cpu_usage_get_n_cpus (self->usage));
  return g_string_free (str, FALSE);
}

static gboolean
on_area_draw (GtkWidget *area, cairo_t *cr, EtlCpuGraph *self)
{
  etl_cpu_graph_render (self, cr, gtk_widget_get_allocated_width (area), gtk_widget_get_allocated_height (area));
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_area_query_tooltip (GtkWidget *area, int x, int y, gboolean keyboard, GtkTooltip *tooltip,
                       EtlCpuGraph *self)
{
  g_autofree char *text = NULL;

  if (keyboard)
    return FALSE;
  if (y < 4 + LEGEND_ROWS * LEGEND_ROW || x < ETL_LABEL_COLUMN_WIDTH)
    {
      gtk_tooltip_set_text (tooltip,
                            "CPU usage of the visible range, in percent of all processors: the most used "
                            "processes and Other, stacked.  Sampled counts PerfInfo SampledProfile records "
                            "(each worth the sampling interval); Precise adds up the running time between "
                            "Thread CSwitch records.");
      return TRUE;
    }
  text = etl_cpu_graph_dup_hover_text (self, x, gtk_widget_get_allocated_width (area));
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static gboolean
on_area_motion (GtkWidget *area, GdkEventMotion *event, EtlCpuGraph *self)
{
  self->hover_x = event->x;
  gtk_widget_queue_draw (area);
  return GDK_EVENT_PROPAGATE;
}

static gboolean
on_area_leave (GtkWidget *area, GdkEventCrossing *event, EtlCpuGraph *self)
{
  self->hover_x = -1;
  gtk_widget_queue_draw (area);
  return GDK_EVENT_PROPAGATE;
}

static void
on_area_size_allocate (GtkWidget *area, GdkRectangle *allocation, EtlCpuGraph *self)
{
  /* A new width wants a new bucket width. */
  if (self->series != NULL && self->usage != NULL)
    {
      int n = MAX ((allocation->width - ETL_LABEL_COLUMN_WIDTH) / PX_PER_BUCKET, 1);

      if (ABS ((int)self->series->n_buckets - n) > n / 4 + 1)
        schedule_update (self);
    }
}

/* GObject ---------------------------------------------------------------- */

static void
etl_cpu_graph_dispose (GObject *object)
{
  EtlCpuGraph *self = ETL_CPU_GRAPH (object);

  g_clear_handle_id (&self->update_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->generation++;
  etl_cpu_graph_set_zoom_manager (self, NULL);
  g_clear_pointer (&self->usage, etl_cpu_usage_unref);
  g_clear_pointer (&self->series, etl_cpu_usage_series_free);
  g_clear_pointer (&self->trace, etl_trace_unref);

  G_OBJECT_CLASS (etl_cpu_graph_parent_class)->dispose (object);
}

static void
etl_cpu_graph_class_init (EtlCpuGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_cpu_graph_dispose;
  gtk_widget_class_set_css_name (widget_class, "etlcpugraph");

  /**
   * EtlCpuGraph::series-changed:
   * @self: the graph
   *
   * A new series is drawn (another trace, mode or visible range): the
   * processes etl_cpu_graph_get_process_color() knows, and their colours,
   * may have changed.
   */
  signals[SERIES_CHANGED] =
      g_signal_new ("series-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

/**
 * etl_cpu_graph_get_process_color:
 * @self: a graph
 * @pid: a process id
 * @rgba: (out caller-allocates): the colour of its area in the graph
 *
 * The colour the graph draws @pid in, so that other views (the timeline's
 * CPU lanes) can use the same one for the same process.
 *
 * Returns: %TRUE when @pid is one of the top processes of the series drawn,
 *   %FALSE when it is in "Other" or no series is ready
 */
gboolean
etl_cpu_graph_get_process_color (EtlCpuGraph *self, guint32 pid, GdkRGBA *rgba)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), FALSE);
  g_return_val_if_fail (rgba != NULL, FALSE);

  if (self->series == NULL)
    return FALSE;
  for (guint row = 0; row < self->series->n_rows; row++)
    if (self->series->entries[row] != NULL && self->series->entries[row]->pid == pid)
      {
        row_color (self->series, row, rgba);
        return TRUE;
      }
  return FALSE;
}

static void
on_expand_toggled (GtkToggleButton *button, EtlCpuGraph *self)
{
  gboolean expanded = gtk_toggle_button_get_active (button);

  gtk_widget_set_visible (self->area, expanded);
  gtk_button_set_image (GTK_BUTTON (button),
                        gtk_image_new_from_icon_name (expanded ? "pan-down-symbolic" : "pan-end-symbolic",
                                                      GTK_ICON_SIZE_BUTTON));
}

static void
etl_cpu_graph_init (EtlCpuGraph *self)
{
  GtkWidget *header, *title, *switch_box;

  self->hover_x = -1;
  self->sample_interval = ETL_CPU_USAGE_DEFAULT_INTERVAL;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_margin_start (header, 10);
  gtk_widget_set_margin_top (header, 2);
  gtk_widget_set_margin_bottom (header, 2);
  title = gtk_label_new ("CPU usage:");
  gtk_style_context_add_class (gtk_widget_get_style_context (title), "dim-label");
  switch_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_style_context_add_class (gtk_widget_get_style_context (switch_box), "linked");
  self->sampled_button = gtk_radio_button_new_with_label (NULL, "Sampled");
  self->precise_button
      = gtk_radio_button_new_with_label_from_widget (GTK_RADIO_BUTTON (self->sampled_button), "Precise");
  gtk_toggle_button_set_mode (GTK_TOGGLE_BUTTON (self->sampled_button), FALSE);
  gtk_toggle_button_set_mode (GTK_TOGGLE_BUTTON (self->precise_button), FALSE);
  g_signal_connect (self->sampled_button, "toggled", G_CALLBACK (on_mode_toggled), self);
  g_signal_connect (self->precise_button, "toggled", G_CALLBACK (on_mode_toggled), self);
  gtk_container_add (GTK_CONTAINER (switch_box), self->sampled_button);
  gtk_container_add (GTK_CONTAINER (switch_box), self->precise_button);
  self->status_label = gtk_label_new (NULL);
  gtk_label_set_ellipsize (GTK_LABEL (self->status_label), PANGO_ELLIPSIZE_END);
  gtk_style_context_add_class (gtk_widget_get_style_context (self->status_label), "dim-label");
  self->expand_button = gtk_toggle_button_new ();
  gtk_button_set_relief (GTK_BUTTON (self->expand_button), GTK_RELIEF_NONE);
  gtk_widget_set_tooltip_text (self->expand_button, "Show or hide the CPU usage graph");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->expand_button), TRUE);
  gtk_button_set_image (GTK_BUTTON (self->expand_button),
                        gtk_image_new_from_icon_name ("pan-down-symbolic", GTK_ICON_SIZE_BUTTON));
  gtk_container_add (GTK_CONTAINER (header), self->expand_button);
  gtk_container_add (GTK_CONTAINER (header), title);
  gtk_container_add (GTK_CONTAINER (header), switch_box);
  gtk_container_add (GTK_CONTAINER (header), self->status_label);
  gtk_widget_show_all (header);
  gtk_container_add (GTK_CONTAINER (self), header);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_size_request (self->area, -1, 4 + LEGEND_ROWS * LEGEND_ROW + 6 + PLOT_HEIGHT);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  gtk_widget_add_events (self->area, GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK);
  g_signal_connect (self->area, "draw", G_CALLBACK (on_area_draw), self);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_area_query_tooltip), self);
  g_signal_connect (self->area, "motion-notify-event", G_CALLBACK (on_area_motion), self);
  g_signal_connect (self->area, "leave-notify-event", G_CALLBACK (on_area_leave), self);
  g_signal_connect (self->area, "size-allocate", G_CALLBACK (on_area_size_allocate), self);
  gtk_widget_show (self->area);
  gtk_container_add (GTK_CONTAINER (self), self->area);
  g_signal_connect (self->expand_button, "toggled", G_CALLBACK (on_expand_toggled), self);
  update_header (self);
}

/**
 * etl_cpu_graph_set_expanded:
 * @self: a graph
 * @expanded: %TRUE to show the graph under its header row, %FALSE to keep
 *   only the header (on short screens the timeline's lanes need the room)
 *
 * Shows or hides the graph, as its header's expander button does.
 */
void
etl_cpu_graph_set_expanded (EtlCpuGraph *self, gboolean expanded)
{
  g_return_if_fail (ETL_IS_CPU_GRAPH (self));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->expand_button), expanded);
}

/**
 * etl_cpu_graph_get_expanded:
 * @self: a graph
 *
 * Returns: whether the graph shows under its header row
 */
gboolean
etl_cpu_graph_get_expanded (EtlCpuGraph *self)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), FALSE);
  return gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->expand_button));
}

/**
 * etl_cpu_graph_new:
 * @zoom_manager: (nullable): the shared visible range
 *
 * Returns: (transfer floating): a new CPU usage graph, hidden until a trace
 *   with SampledProfile or CSwitch records is set
 */
GtkWidget *
etl_cpu_graph_new (EtlZoomManager *zoom_manager)
{
  EtlCpuGraph *self = g_object_new (ETL_TYPE_CPU_GRAPH, NULL);

  etl_cpu_graph_set_zoom_manager (self, zoom_manager);
  return GTK_WIDGET (self);
}

/**
 * etl_cpu_graph_set_zoom_manager:
 * @self: a CPU graph
 * @zoom_manager: (nullable): the shared visible range, whose changes
 *   recompute the series
 */
void
etl_cpu_graph_set_zoom_manager (EtlCpuGraph *self, EtlZoomManager *zoom_manager)
{
  g_return_if_fail (ETL_IS_CPU_GRAPH (self));

  if (etl_zoom_manager_follow (GTK_WIDGET (self), &self->zoom_manager, &self->changed_handler, zoom_manager,
                               G_CALLBACK (on_zoom_changed)))
    {
      schedule_update (self);
    }
}

/**
 * etl_cpu_graph_set_trace:
 * @self: a CPU graph
 * @trace: (nullable): the trace to show
 *
 * Shows the CPU usage of @trace: counts its SampledProfile and CSwitch
 * records and computes the visible range's series in a worker (the graph
 * says "computing…" until then); chooses Sampled when the trace has
 * samples, else Precise; hides itself when it has neither.
 */
void
etl_cpu_graph_set_trace (EtlCpuGraph *self, EtlTrace *trace)
{
  g_return_if_fail (ETL_IS_CPU_GRAPH (self));

  g_clear_handle_id (&self->update_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->generation++;
  self->running = FALSE;
  etl_worker_free (g_steal_pointer (&self->usage), (GDestroyNotify) etl_cpu_usage_unref);
  g_clear_pointer (&self->series, etl_cpu_usage_series_free);
  g_clear_pointer (&self->trace, etl_trace_unref);
  self->probed = FALSE;
  self->n_samples = self->n_cswitches = 0;
  self->mode = ETL_CPU_USAGE_SAMPLED;
  self->sample_interval = ETL_CPU_USAGE_DEFAULT_INTERVAL;
  if (trace != NULL)
    self->trace = etl_trace_ref (trace);
  update_header (self);
  schedule_update (self);
  gtk_widget_queue_draw (self->area);
}

/**
 * etl_cpu_graph_is_busy:
 * @self: a CPU graph
 *
 * Returns: %TRUE while a series is asked for or being computed
 */
gboolean
etl_cpu_graph_is_busy (EtlCpuGraph *self)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), FALSE);
  return self->running || self->update_id != 0;
}

/**
 * etl_cpu_graph_has_mode:
 * @self: a CPU graph
 * @mode: sampled or precise
 *
 * Returns: %TRUE when the trace has records for @mode (SampledProfile or
 *   CSwitch); %FALSE until they are counted
 */
gboolean
etl_cpu_graph_has_mode (EtlCpuGraph *self, EtlCpuUsageMode mode)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), FALSE);
  return mode == ETL_CPU_USAGE_PRECISE ? self->n_cswitches > 0 : self->n_samples > 0;
}

/**
 * etl_cpu_graph_get_mode:
 * @self: a CPU graph
 *
 * Returns: the mode shown (or being computed)
 */
EtlCpuUsageMode
etl_cpu_graph_get_mode (EtlCpuGraph *self)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), ETL_CPU_USAGE_SAMPLED);
  return self->mode;
}

/**
 * etl_cpu_graph_set_mode:
 * @self: a CPU graph
 * @mode: sampled (SampledProfile) or precise (CSwitch)
 *
 * Switches the graph's source and recomputes the series in a worker; the
 * header's switch follows.
 */
void
etl_cpu_graph_set_mode (EtlCpuGraph *self, EtlCpuUsageMode mode)
{
  g_return_if_fail (ETL_IS_CPU_GRAPH (self));

  if (mode == self->mode && (self->usage == NULL || etl_cpu_usage_get_mode (self->usage) == mode))
    return;
  self->mode = mode;
  update_header (self);
  if (self->trace == NULL)
    return;
  g_clear_handle_id (&self->update_id, g_source_remove);
  start_job (self, TRUE);
}

/**
 * etl_cpu_graph_get_usage:
 * @self: a CPU graph
 *
 * Returns: (transfer none) (nullable): the usage of the series drawn
 */
EtlCpuUsage *
etl_cpu_graph_get_usage (EtlCpuGraph *self)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), NULL);
  return self->usage;
}

/**
 * etl_cpu_graph_get_series:
 * @self: a CPU graph
 *
 * Returns: (transfer none) (nullable): the series drawn: the top
 *   %ETL_CPU_GRAPH_TOP_N processes of the visible range and "Other"
 */
const EtlCpuUsageSeries *
etl_cpu_graph_get_series (EtlCpuGraph *self)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), NULL);
  return self->series;
}

/**
 * etl_cpu_graph_get_area:
 * @self: a CPU graph
 *
 * Returns: (transfer none): the drawing area holding the legend and the
 *   graph (for hover coordinates and export)
 */
GtkWidget *
etl_cpu_graph_get_area (EtlCpuGraph *self)
{
  g_return_val_if_fail (ETL_IS_CPU_GRAPH (self), NULL);
  return self->area;
}
