/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-loss-plot
 * @title: EtlLossPlot
 * @short_description: lost events and buffers over time, per file
 *
 * Drawn under the timeline on the same time axis (the visible range of the
 * shared #EtlZoomManager and the same label column width): for each file,
 * the cumulative number of lost events (solid) and lost buffers (dashed) as
 * step lines, from an #EtlLossSummary.  A legend lists each file with the
 * totals its TRACE_LOGFILE_HEADER states ("EventsLost 3 · BuffersLost 0").
 * Nothing lost is worth seeing too: the lines stay flat and the legend says
 * "0 lost".
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>

#include "etl-loss-plot.h"

#define ROW_HEIGHT 20
#define PAD 8

struct _EtlLossPlot
{
  GtkDrawingArea parent_instance;

  EtlZoomManager *zoom_manager;
  gulong changed_handler;
  EtlLossSummary *summary;
  GPtrArray *file_names;

  guint64 *events;
  guint64 *buffers;
  gsize scratch_len;
};

enum {
  PROP_0,
  PROP_ZOOM_MANAGER,
  N_PROPS
};

G_DEFINE_TYPE (EtlLossPlot, etl_loss_plot, GTK_TYPE_DRAWING_AREA)

static GParamSpec *properties[N_PROPS];

static const guint32 file_palette[] = {
  0xcc0000, 0x3465a4, 0xf57900, 0x4e9a06, 0x75507b, 0x06989a,
};

static void
file_color (guint file, GdkRGBA *rgba)
{
  guint32 c = file_palette[file % G_N_ELEMENTS (file_palette)];

  rgba->red = ((c >> 16) & 0xff) / 255.0;
  rgba->green = ((c >> 8) & 0xff) / 255.0;
  rgba->blue = (c & 0xff) / 255.0;
  rgba->alpha = 1.0;
}

static void
on_zoom_changed (EtlLossPlot *self, EtlZoomManager *zoom_manager)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_loss_plot_dup_legend_text:
 * @self: a loss plot
 * @file: file index
 *
 * Returns: (transfer full) (nullable): the legend's text for @file, such as
 *   "EventsLost 3 · BuffersLost 0", followed by " · 0 lost" when nothing was
 *   lost; %NULL without a summary or past the last file
 */
char *
etl_loss_plot_dup_legend_text (EtlLossPlot *self, guint file)
{
  guint64 ev, bu, sev, sbu;
  GString *str;

  g_return_val_if_fail (ETL_IS_LOSS_PLOT (self), NULL);

  if (self->summary == NULL || file >= etl_loss_summary_get_n_files (self->summary))
    return NULL;
  etl_loss_summary_get_header_totals (self->summary, file, &ev, &bu);
  etl_loss_summary_get_series_totals (self->summary, file, &sev, &sbu);

  str = g_string_new (NULL);
  g_string_append_printf (str, "EventsLost %" G_GUINT64_FORMAT " · BuffersLost %" G_GUINT64_FORMAT, ev, bu);
  if (ev == 0 && bu == 0 && sev == 0 && sbu == 0)
    g_string_append (str, " · 0 lost");
  else if (sev == 0 && sbu == 0)
    g_string_append (str, " · no loss marked in time");
  else
    g_string_append_printf (str, " · over time: %" G_GUINT64_FORMAT " flagged buffers, %" G_GUINT64_FORMAT " lost buffers",
                            sev, sbu);
  return g_string_free (str, FALSE);
}

static void
fg_color (GtkWidget *widget, GdkRGBA *rgba)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  gtk_style_context_get_color (style, gtk_style_context_get_state (style), rgba);
}

static void
stroke_series (cairo_t *cr, const guint64 *values, guint n, double x0, double base, double scale)
{
  double prev = base - values[0] * scale;

  cairo_move_to (cr, x0, prev);
  for (guint c = 1; c < n; c++)
    {
      double y = base - values[c] * scale;

      if (y != prev)
        {
          cairo_line_to (cr, x0 + c, prev);
          cairo_line_to (cr, x0 + c, y);
          prev = y;
        }
    }
  cairo_line_to (cr, x0 + n, prev);
  cairo_stroke (cr);
}

/**
 * etl_loss_plot_render:
 * @self: a loss plot
 * @cr: a cairo context, for the widget or an image surface
 * @width: width in pixels, label column included
 * @height: height in pixels
 *
 * Draws the plot from the loss summary, in O(files × columns).
 */
void
etl_loss_plot_render (EtlLossPlot *self, cairo_t *cr, int width, int height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style;
  g_autoptr (PangoLayout) layout = NULL;
  GdkRGBA fg;
  gint64 t0, t1;
  guint n_files, axis_w;
  double base, top, scale;
  guint64 ymax;
  int legend_w = 0, th;

  g_return_if_fail (ETL_IS_LOSS_PLOT (self));
  g_return_if_fail (cr != NULL);

  style = gtk_widget_get_style_context (widget);
  gtk_render_background (style, cr, 0, 0, width, height);
  fg_color (widget, &fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);

  /* Top border and label column. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH - 1, 0, 1, height);
  cairo_fill (cr);

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.9);
  pango_layout_set_text (layout, "Losses", -1);
  cairo_move_to (cr, 10, PAD);
  pango_cairo_show_layout (cr, layout);
  pango_layout_get_pixel_size (layout, NULL, &th);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
  pango_layout_set_markup (layout, "<small>cumulative</small>", -1);
  cairo_move_to (cr, 10, PAD + th);
  pango_cairo_show_layout (cr, layout);

  if (self->summary == NULL || self->zoom_manager == NULL || width <= ETL_LABEL_COLUMN_WIDTH)
    return;

  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  n_files = etl_loss_summary_get_n_files (self->summary);
  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  if (self->scratch_len < axis_w)
    {
      self->scratch_len = axis_w;
      self->events = g_renew (guint64, self->events, axis_w);
      self->buffers = g_renew (guint64, self->buffers, axis_w);
    }

  top = PAD + 4;
  base = height - PAD - 0.5;
  ymax = MAX (etl_loss_summary_get_max (self->summary), 1);
  scale = (base - top) / (double) ymax;

  /* Grid: the baseline and the top value. */
  cairo_set_line_width (cr, 1.0);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.15);
  cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH, floor (top) + 0.5);
  cairo_line_to (cr, width, floor (top) + 0.5);
  cairo_stroke (cr);

  cairo_save (cr);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH, 0, axis_w, height);
  cairo_clip (cr);
  for (guint f = 0; f < n_files; f++)
    {
      GdkRGBA color;
      static const double dash[] = { 5.0, 3.0 };

      etl_loss_summary_query (self->summary, f, t0, t1, axis_w, self->events, self->buffers);
      file_color (f, &color);

      cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.9);
      cairo_set_line_width (cr, 2.0);
      cairo_set_dash (cr, NULL, 0, 0);
      stroke_series (cr, self->events, axis_w, ETL_LABEL_COLUMN_WIDTH, base - 1.0, scale);

      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
      stroke_series (cr, self->buffers, axis_w, ETL_LABEL_COLUMN_WIDTH, base - 3.0, scale);
      cairo_set_dash (cr, NULL, 0, 0);
    }
  cairo_restore (cr);

  /* Y scale. */
  {
    g_autofree char *label = g_strdup_printf ("<small>%" G_GUINT64_FORMAT "</small>", ymax);
    int lw;

    pango_layout_set_markup (layout, label, -1);
    pango_layout_get_pixel_size (layout, &lw, NULL);
    cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
    cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH - lw - 6, top - 6);
    pango_cairo_show_layout (cr, layout);
    pango_layout_set_markup (layout, "<small>0</small>", -1);
    pango_layout_get_pixel_size (layout, &lw, &th);
    cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH - lw - 6, base - th + 2);
    pango_cairo_show_layout (cr, layout);
  }

  /* Legend, top left of the plot: one row per file. */
  for (guint f = 0; f < n_files; f++)
    {
      g_autofree char *text = etl_loss_plot_dup_legend_text (self, f);
      g_autofree char *row = NULL;
      int w;

      row = g_markup_printf_escaped ("<b>%s</b>   %s",
                                     f < self->file_names->len ? (char *) g_ptr_array_index (self->file_names, f) : "?",
                                     text);
      pango_layout_set_markup (layout, row, -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      legend_w = MAX (legend_w, w);
    }
  {
    double lx = ETL_LABEL_COLUMN_WIDTH + 12;
    double ly = top + 2;
    double box_w = legend_w + 44 + 16;
    double box_h = n_files * ROW_HEIGHT + 8;

    gtk_render_background (style, cr, lx - 6, ly - 4, box_w, box_h);
    cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.2);
    cairo_set_line_width (cr, 1.0);
    cairo_rectangle (cr, floor (lx - 6) + 0.5, floor (ly - 4) + 0.5, box_w, box_h);
    cairo_stroke (cr);

    for (guint f = 0; f < n_files; f++)
      {
        g_autofree char *text = etl_loss_plot_dup_legend_text (self, f);
        g_autofree char *row = NULL;
        double ry = ly + f * ROW_HEIGHT;
        static const double dash[] = { 4.0, 2.0 };
        GdkRGBA color;

        file_color (f, &color);
        cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.9);
        cairo_set_line_width (cr, 2.0);
        cairo_move_to (cr, lx, ry + ROW_HEIGHT / 2.0 - 3);
        cairo_line_to (cr, lx + 16, ry + ROW_HEIGHT / 2.0 - 3);
        cairo_stroke (cr);
        cairo_set_line_width (cr, 1.5);
        cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
        cairo_move_to (cr, lx + 20, ry + ROW_HEIGHT / 2.0 - 3);
        cairo_line_to (cr, lx + 36, ry + ROW_HEIGHT / 2.0 - 3);
        cairo_stroke (cr);
        cairo_set_dash (cr, NULL, 0, 0);

        row = g_markup_printf_escaped ("<b>%s</b>   %s",
                                       f < self->file_names->len ? (char *) g_ptr_array_index (self->file_names, f) : "?",
                                       text);
        pango_layout_set_markup (layout, row, -1);
        pango_layout_get_pixel_size (layout, NULL, &th);
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha);
        cairo_move_to (cr, lx + 44, ry + (ROW_HEIGHT - th) / 2.0 - 2);
        pango_cairo_show_layout (cr, layout);
      }
  }
}

static gboolean
etl_loss_plot_draw (GtkWidget *widget, cairo_t *cr)
{
  etl_loss_plot_render (ETL_LOSS_PLOT (widget), cr,
                        gtk_widget_get_allocated_width (widget),
                        gtk_widget_get_allocated_height (widget));
  return GDK_EVENT_PROPAGATE;
}

static void
etl_loss_plot_get_preferred_height (GtkWidget *widget, int *min, int *nat)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (widget);
  guint n = MAX (self->file_names->len, 1);

  *min = *nat = MAX (2 * PAD + 12 + (int) n * ROW_HEIGHT + 24, 84);
}

static void
etl_loss_plot_dispose (GObject *object)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (object);

  etl_loss_plot_set_zoom_manager (self, NULL);
  g_clear_pointer (&self->summary, etl_loss_summary_unref);

  G_OBJECT_CLASS (etl_loss_plot_parent_class)->dispose (object);
}

static void
etl_loss_plot_finalize (GObject *object)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (object);

  g_clear_pointer (&self->file_names, g_ptr_array_unref);
  g_free (self->events);
  g_free (self->buffers);

  G_OBJECT_CLASS (etl_loss_plot_parent_class)->finalize (object);
}

static void
etl_loss_plot_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (object);

  switch (prop_id)
    {
    case PROP_ZOOM_MANAGER:
      g_value_set_object (value, self->zoom_manager);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_loss_plot_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (object);

  switch (prop_id)
    {
    case PROP_ZOOM_MANAGER:
      etl_loss_plot_set_zoom_manager (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_loss_plot_class_init (EtlLossPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_loss_plot_dispose;
  object_class->finalize = etl_loss_plot_finalize;
  object_class->get_property = etl_loss_plot_get_property;
  object_class->set_property = etl_loss_plot_set_property;

  widget_class->draw = etl_loss_plot_draw;
  widget_class->get_preferred_height = etl_loss_plot_get_preferred_height;

  /**
   * EtlLossPlot:zoom-manager:
   *
   * The shared visible range.
   */
  properties[PROP_ZOOM_MANAGER] =
    g_param_spec_object ("zoom-manager", "Zoom manager", "The shared visible range",
                         ETL_TYPE_ZOOM_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "etllossplot");
}

static void
etl_loss_plot_init (EtlLossPlot *self)
{
  self->file_names = g_ptr_array_new_with_free_func (g_free);
}

/**
 * etl_loss_plot_new:
 * @zoom_manager: (nullable): the shared visible range
 *
 * Returns: (transfer floating): a new loss plot
 */
GtkWidget *
etl_loss_plot_new (EtlZoomManager *zoom_manager)
{
  return g_object_new (ETL_TYPE_LOSS_PLOT, "zoom-manager", zoom_manager, NULL);
}

/**
 * etl_loss_plot_get_zoom_manager:
 * @self: a loss plot
 *
 * Returns: (transfer none) (nullable): the zoom manager
 */
EtlZoomManager *
etl_loss_plot_get_zoom_manager (EtlLossPlot *self)
{
  g_return_val_if_fail (ETL_IS_LOSS_PLOT (self), NULL);
  return self->zoom_manager;
}

/**
 * etl_loss_plot_set_zoom_manager:
 * @self: a loss plot
 * @zoom_manager: (nullable): the shared visible range
 */
void
etl_loss_plot_set_zoom_manager (EtlLossPlot *self, EtlZoomManager *zoom_manager)
{
  g_return_if_fail (ETL_IS_LOSS_PLOT (self));

  if (etl_zoom_manager_follow (GTK_WIDGET (self), &self->zoom_manager, &self->changed_handler, zoom_manager,
                               G_CALLBACK (on_zoom_changed)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_MANAGER]);
}

/**
 * etl_loss_plot_set_trace:
 * @self: a loss plot
 * @trace: (nullable): the trace whose files to list
 * @summary: (nullable): its loss summary; built here when %NULL (the loss
 *   series holds a few points per lost buffer, so this is cheap)
 *
 * Shows the losses of @trace.
 */
void
etl_loss_plot_set_trace (EtlLossPlot *self, EtlTrace *trace, EtlLossSummary *summary)
{
  g_return_if_fail (ETL_IS_LOSS_PLOT (self));

  g_clear_pointer (&self->summary, etl_loss_summary_unref);
  g_ptr_array_set_size (self->file_names, 0);
  if (trace != NULL)
    {
      self->summary = summary != NULL ? etl_loss_summary_ref (summary) : etl_loss_summary_new (trace, 14);
      for (guint f = 0; f < etl_trace_get_n_files (trace); f++)
        g_ptr_array_add (self->file_names, g_path_get_basename (etl_trace_get_file_info (trace, f)->path));
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * etl_loss_plot_get_summary:
 * @self: a loss plot
 *
 * Returns: (transfer none) (nullable): the loss summary drawn
 */
EtlLossSummary *
etl_loss_plot_get_summary (EtlLossPlot *self)
{
  g_return_val_if_fail (ETL_IS_LOSS_PLOT (self), NULL);
  return self->summary;
}

/**
 * etl_loss_plot_get_n_files:
 * @self: a loss plot
 *
 * Returns: the number of files in the legend
 */
guint
etl_loss_plot_get_n_files (EtlLossPlot *self)
{
  g_return_val_if_fail (ETL_IS_LOSS_PLOT (self), 0);
  return self->summary != NULL ? etl_loss_summary_get_n_files (self->summary) : 0;
}

/**
 * etl_loss_plot_get_legend_totals:
 * @self: a loss plot
 * @file: file index
 * @events_lost: (out) (optional): the EventsLost shown in the legend
 * @buffers_lost: (out) (optional): the BuffersLost shown in the legend
 *
 * Returns: %FALSE when there is no such file
 */
gboolean
etl_loss_plot_get_legend_totals (EtlLossPlot *self, guint file, guint64 *events_lost, guint64 *buffers_lost)
{
  g_return_val_if_fail (ETL_IS_LOSS_PLOT (self), FALSE);

  if (self->summary == NULL || file >= etl_loss_summary_get_n_files (self->summary))
    return FALSE;
  etl_loss_summary_get_header_totals (self->summary, file, events_lost, buffers_lost);
  return TRUE;
}
