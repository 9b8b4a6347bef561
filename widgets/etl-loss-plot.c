/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-loss-plot
 * @title: EtlLossPlot
 * @short_description: lost events and buffers over time, per file
 *
 * Drawn under the timeline on the same time axis (the visible range of the
 * shared #EtlZoomManager and the same label column width).  Above the plot,
 * a legend lists each file with the totals its TRACE_LOGFILE_HEADER states
 * ("EventsLost 3 · BuffersLost 0") and a key says what each line style
 * counts.  Below, two rows with their own scales, as cumulative step lines
 * per file from an #EtlLossSummary: the events row (solid: buffers flagged
 * EVENTS_LOST and RTLostEvent records) and the buffers row (dashed: lost
 * buffers).  Hovering shows the nearest loss point (time, kind, count);
 * clicking it emits #EtlLossPlot::loss-activated; the tooltip over the
 * legend explains each counter.
 *
 * The plot never makes the window taller than a few lines, whatever the
 * number of files: the legend takes at most %ETL_LOSS_PLOT_LEGEND_LINES
 * lines, the files set out in columns and each entry shortened to its
 * column (the tooltip lists them whole).  When no loss is recorded at all —
 * every file's header states EventsLost 0 and BuffersLost 0 and the
 * summary holds no loss point — the plot is one compact strip
 * (%ETL_LOSS_PLOT_COMPACT_HEIGHT pixels): "No events lost" and a key of the
 * files' colours, instead of two rows of flat lines.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>

#include "etl-loss-plot.h"
#include "etl-time-ruler.h"

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

  EtlTrace *trace;
  const EtlLoss *hover;   /* the loss point under the pointer */
  gboolean compact;       /* nothing lost: one line instead of the plot */
};

enum
{
  LOSS_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

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

/* Layout, top to bottom: the legend (each file's colour, name and header
 * totals, in columns over at most ETL_LOSS_PLOT_LEGEND_LINES lines), the key
 * (what each line style counts, one line), then two rows of the plot, each with its
 * own scale, so counts of different units are never read against each
 * other. */
#define LEGEND_ROW 18
#define PLOT_ROW 28

typedef struct
{
  double legend_top;
  double key_top;
  double rows_top;   /* top of the first plot row */
  double row_h;
  guint legend_lines;
  guint legend_columns;
} Layout;

static void
compute_layout (EtlLossPlot *self, int height, Layout *l)
{
  guint n = MAX (self->file_names->len, 1);

  l->legend_lines = MIN (n, ETL_LOSS_PLOT_LEGEND_LINES);
  l->legend_columns = (n + l->legend_lines - 1) / l->legend_lines;
  l->legend_top = 4;
  l->key_top = l->legend_top + l->legend_lines * LEGEND_ROW;
  l->rows_top = l->key_top + LEGEND_ROW + 2;
  l->row_h = MAX ((height - l->rows_top - 4) / 2.0, 12.0);
}

/* Whether @summary records no loss at all: headers and loss points. */
static gboolean
summary_is_lossless (EtlLossSummary *summary)
{
  for (guint f = 0; summary != NULL && f < etl_loss_summary_get_n_files (summary); f++)
    {
      guint64 ev = 0, bu = 0, sev = 0, sbu = 0;

      etl_loss_summary_get_header_totals (summary, f, &ev, &bu);
      etl_loss_summary_get_series_totals (summary, f, &sev, &sbu);
      if (ev != 0 || bu != 0 || sev != 0 || sbu != 0)
        return FALSE;
    }
  return TRUE;
}

static const char *
file_name (EtlLossPlot *self, guint file)
{
  return file < self->file_names->len ? g_ptr_array_index (self->file_names, file) : "?";
}

/* The compact strip: "Losses" in the label column, then "No events lost"
 * and one colour square and name per file, as many as fit; the rest are
 * counted ("+2 more") and listed in the tooltip. */
static void
render_compact (EtlLossPlot *self, cairo_t *cr, PangoLayout *layout, const GdkRGBA *fg, int width, int height)
{
  guint n_files = self->file_names->len;
  double x = ETL_LABEL_COLUMN_WIDTH + 8, mid = height / 2.0;
  int tw, th;

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha * 0.9);
  pango_layout_set_markup (layout, "<b>Losses</b>", -1);
  pango_layout_get_pixel_size (layout, NULL, &th);
  cairo_move_to (cr, 10, mid - th / 2.0);
  pango_cairo_show_layout (cr, layout);
  if (self->summary == NULL || width <= ETL_LABEL_COLUMN_WIDTH)
    return;

  pango_layout_set_markup (layout, "No events lost", -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, x, mid - th / 2.0);
  pango_cairo_show_layout (cr, layout);
  x += tw + 16;

  for (guint f = 0; f < n_files; f++)
    {
      g_autofree char *name = g_markup_printf_escaped ("<small>%s</small>", file_name (self, f));
      g_autofree char *more = g_strdup_printf ("<small>+%u more</small>", n_files - f);
      int more_w;
      GdkRGBA color;

      pango_layout_set_markup (layout, more, -1);
      pango_layout_get_pixel_size (layout, &more_w, NULL);
      pango_layout_set_markup (layout, name, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      /* Room for this one, and for "+N more" after it unless it is last. */
      if (x + 14 + tw + (f + 1 < n_files ? 12 + more_w : 0) > width - 4)
        {
          pango_layout_set_markup (layout, more, -1);
          cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha * 0.6);
          cairo_move_to (cr, x, mid - th / 2.0);
          pango_cairo_show_layout (cr, layout);
          break;
        }
      file_color (f, &color);
      cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.9);
      cairo_rectangle (cr, x, floor (mid) - 4, 8, 8);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha * 0.7);
      cairo_move_to (cr, x + 14, mid - th / 2.0);
      pango_cairo_show_layout (cr, layout);
      x += 14 + tw + 12;
    }
}

static const char *const loss_kind_names[ETL_N_LOSS_KINDS] = {
  "buffer flagged EVENTS_LOST",
  "buffer flagged BUFFER_LOST",
  "sequence gap (buffers missing)",
  "RTLostEvent record",
  "RTLostBuffer record",
  "RTLostFile record",
};

static gboolean
kind_is_events (EtlLossKind kind)
{
  return kind == ETL_LOSS_EVENTS_LOST_BUFFER || kind == ETL_LOSS_RT_LOST_EVENT;
}

static void
draw_line_key (cairo_t *cr, double x, double y, gboolean dashed, const GdkRGBA *color)
{
  static const double dash[] = { 4.0, 2.0 };

  cairo_set_source_rgba (cr, color->red, color->green, color->blue, 0.9);
  cairo_set_line_width (cr, dashed ? 1.5 : 2.0);
  if (dashed)
    cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  cairo_move_to (cr, x, y);
  cairo_line_to (cr, x + 18, y);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);
}

/**
 * etl_loss_plot_render:
 * @self: a loss plot
 * @cr: a cairo context, for the widget or an image surface
 * @width: width in pixels, label column included
 * @height: height in pixels
 *
 * Draws the plot from the loss summary, in O(files × columns): the legend
 * and the key above, then the events row (buffers flagged EVENTS_LOST and
 * RTLostEvent records, solid) and the buffers row (lost buffers: flag,
 * sequence gaps, real-time records, dashed), each on its own scale.  When
 * no loss is recorded (etl_loss_plot_get_compact()), one line instead:
 * "No events lost" and the files' colour key.
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
  guint64 max_events = 0, max_buffers = 0;
  Layout l;
  int th, tw;

  g_return_if_fail (ETL_IS_LOSS_PLOT (self));
  g_return_if_fail (cr != NULL);

  style = gtk_widget_get_style_context (widget);
  gtk_render_background (style, cr, 0, 0, width, height);
  fg_color (widget, &fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  compute_layout (self, height, &l);

  if (self->compact)
    {
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
      cairo_rectangle (cr, 0, 0, width, 1);
      cairo_fill (cr);
      render_compact (self, cr, layout, &fg, width, height);
      return;
    }

  /* Top border and label column. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
  cairo_rectangle (cr, 0, 0, width, 1);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH - 1, l.rows_top, 1, height - l.rows_top);
  cairo_fill (cr);

  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.9);
  pango_layout_set_markup (layout, "<b>Losses</b>", -1);
  cairo_move_to (cr, 10, l.legend_top);
  pango_cairo_show_layout (cr, layout);
  pango_layout_get_pixel_size (layout, NULL, &th);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
  pango_layout_set_markup (layout, "<small>cumulative</small>", -1);
  cairo_move_to (cr, 10, l.legend_top + th);
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
  for (guint f = 0; f < n_files; f++)
    {
      guint64 sev, sbu;

      etl_loss_summary_get_series_totals (self->summary, f, &sev, &sbu);
      max_events = MAX (max_events, sev);
      max_buffers = MAX (max_buffers, sbu);
    }

  /* Legend, outside the plot: the files in columns over at most
   * ETL_LOSS_PLOT_LEGEND_LINES lines, each shortened to its column. */
  {
    double column_w = (double) (axis_w - 8) / l.legend_columns;

    for (guint f = 0; f < n_files; f++)
      {
        g_autofree char *text = etl_loss_plot_dup_legend_text (self, f);
        g_autofree char *row = g_markup_printf_escaped ("<b>%s</b>   %s", file_name (self, f), text);
        double x = ETL_LABEL_COLUMN_WIDTH + 8 + (f % l.legend_columns) * column_w;
        double y = l.legend_top + (f / l.legend_columns) * LEGEND_ROW;
        GdkRGBA color;

        file_color (f, &color);
        cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.9);
        cairo_rectangle (cr, x, y + 4, 10, 10);
        cairo_fill (cr);
        pango_layout_set_markup (layout, row, -1);
        pango_layout_set_width (layout, MAX ((int) column_w - 24, 1) * PANGO_SCALE);
        pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha);
        cairo_move_to (cr, x + 16, y);
        pango_cairo_show_layout (cr, layout);
      }
    pango_layout_set_width (layout, -1);
    pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  }

  /* Key: what each line style counts, both on one line (shortened to the
   * width; the tooltip says it in full). */
  {
    double x = ETL_LABEL_COLUMN_WIDTH + 8, y = l.key_top + 0.5 * LEGEND_ROW;

    for (guint k = 0; k < 2 && x + 24 < width; k++)
      {
        draw_line_key (cr, x, y, k == 1, &fg);
        pango_layout_set_markup (layout,
                                 k == 0 ? "<small>events row: buffers flagged EVENTS_LOST, RTLostEvent records</small>"
                                        : "<small>buffers row: BUFFER_LOST flag, sequence gaps, "
                                          "RTLostBuffer / RTLostFile</small>",
                                 -1);
        pango_layout_set_width (layout, MAX ((int) (width - x - 32), 1) * PANGO_SCALE);
        pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
        pango_layout_get_pixel_size (layout, &tw, &th);
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.75);
        cairo_move_to (cr, x + 24, y - th / 2.0);
        pango_cairo_show_layout (cr, layout);
        x += 24 + tw + 24;
      }
    pango_layout_set_width (layout, -1);
    pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  }

  /* Two rows, each with its name and scale in the label column. */
  for (guint r = 0; r < 2; r++)
    {
      double top = l.rows_top + r * l.row_h + 3, base = l.rows_top + (r + 1) * l.row_h - 2.5;
      guint64 ymax = MAX (r == 0 ? max_events : max_buffers, 1);
      double scale = (base - top) / (double) ymax;
      g_autofree char *max_label = g_strdup_printf ("<small>%" G_GUINT64_FORMAT "</small>", ymax);
      static const double dash[] = { 5.0, 3.0 };

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.8);
      pango_layout_set_markup (layout, r == 0 ? "<small>Events row</small>" : "<small>Buffers row</small>", -1);
      pango_layout_get_pixel_size (layout, NULL, &th);
      cairo_move_to (cr, 10, (top + base) / 2.0 - th / 2.0);
      pango_cairo_show_layout (cr, layout);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
      pango_layout_set_markup (layout, max_label, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH - tw - 6, top - 3);
      pango_cairo_show_layout (cr, layout);
      pango_layout_set_markup (layout, "<small>0</small>", -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH - tw - 6, base - th + 3);
      pango_cairo_show_layout (cr, layout);

      /* Grid: the row's top value and its baseline. */
      cairo_set_line_width (cr, 1.0);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.12);
      cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH, floor (top) + 0.5);
      cairo_line_to (cr, width, floor (top) + 0.5);
      cairo_move_to (cr, ETL_LABEL_COLUMN_WIDTH, floor (base) + 0.5);
      cairo_line_to (cr, width, floor (base) + 0.5);
      cairo_stroke (cr);

      cairo_save (cr);
      cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH, top - 2, axis_w, base - top + 4);
      cairo_clip (cr);
      for (guint f = 0; f < n_files; f++)
        {
          GdkRGBA color;

          etl_loss_summary_query (self->summary, f, t0, t1, axis_w, self->events, self->buffers);
          file_color (f, &color);
          cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.9);
          if (r == 0)
            {
              cairo_set_line_width (cr, 2.0);
              stroke_series (cr, self->events, axis_w, ETL_LABEL_COLUMN_WIDTH, base - 1.0, scale);
            }
          else
            {
              cairo_set_line_width (cr, 1.5);
              cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
              stroke_series (cr, self->buffers, axis_w, ETL_LABEL_COLUMN_WIDTH, base - 1.0, scale);
              cairo_set_dash (cr, NULL, 0, 0);
            }
        }
      cairo_restore (cr);
    }

  /* The loss point under the pointer. */
  if (self->hover != NULL)
    {
      double x = etl_zoom_manager_time_to_x (self->zoom_manager, self->hover->filetime, axis_w) + ETL_LABEL_COLUMN_WIDTH;
      double y = l.rows_top + (kind_is_events (self->hover->kind) ? 0.5 : 1.5) * l.row_h;

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.8);
      cairo_set_line_width (cr, 1.5);
      cairo_arc (cr, x, y, 5, 0, 2 * G_PI);
      cairo_stroke (cr);
    }
}

/* The loss nearest to (@x, @y) within 8 px, in the row under @y. */
static const EtlLoss *
loss_at (EtlLossPlot *self, double x, double y, int width, int height)
{
  const EtlLoss *losses, *best = NULL;
  guint n_losses = 0;
  double best_d = 8.0;
  gboolean events_row;
  Layout l;
  int axis_w = width - ETL_LABEL_COLUMN_WIDTH;

  if (self->trace == NULL || self->compact || self->zoom_manager == NULL || axis_w <= 0
      || x < ETL_LABEL_COLUMN_WIDTH)
    return NULL;
  compute_layout (self, height, &l);
  if (y < l.rows_top)
    return NULL;
  events_row = y < l.rows_top + l.row_h;
  losses = etl_trace_get_losses (self->trace, &n_losses);
  for (guint i = 0; i < n_losses; i++)
    {
      double lx;

      if (kind_is_events (losses[i].kind) != events_row)
        continue;
      lx = etl_zoom_manager_time_to_x (self->zoom_manager, losses[i].filetime, axis_w) + ETL_LABEL_COLUMN_WIDTH;
      if (fabs (lx - x) < best_d)
        {
          best_d = fabs (lx - x);
          best = &losses[i];
        }
    }
  return best;
}

/**
 * etl_loss_plot_dup_loss_text:
 * @self: a loss plot
 * @x: pointer position, pixels
 * @y: pointer position, pixels
 * @width: widget width
 * @height: widget height
 *
 * Returns: (transfer full) (nullable): the tooltip for the loss point
 *   nearest to (@x, @y) — its time since the start, kind, count and file —
 *   or %NULL when none is within 8 pixels
 */
char *
etl_loss_plot_dup_loss_text (EtlLossPlot *self, double x, double y, int width, int height)
{
  const EtlLoss *loss;
  g_autofree char *when = NULL;
  g_autofree char *cpu = NULL;

  g_return_val_if_fail (ETL_IS_LOSS_PLOT (self), NULL);
  loss = loss_at (self, x, y, width, height);
  if (loss == NULL)
    return NULL;
  when = etl_time_format_span (loss->filetime - etl_trace_get_origin (self->trace));
  cpu = loss->cpu >= 0 ? g_strdup_printf (" · CPU %d", loss->cpu) : g_strdup ("");
  return g_strdup_printf ("%s · %s × %" G_GUINT64_FORMAT "%s · %s\nClick to go there", when,
                          loss_kind_names[loss->kind], loss->count, cpu,
                          loss->file < self->file_names->len ? (char *) g_ptr_array_index (self->file_names, loss->file)
                                                             : "?");
}

#define EXPLANATION                                                                                                   \
  "<b>What the loss plot counts</b>\n"                                                                                \
  "<b>EventsLost</b>, <b>BuffersLost</b> (legend): the totals the file's header (TRACE_LOGFILE_HEADER) states, "      \
  "as the session counted them.\n"                                                                                    \
  "<b>Events row</b> (solid): buffers flagged EVENTS_LOST — each flagged buffer counts once, however many "          \
  "events it lost — plus RTLostEvent records; so it can read 3 beside EventsLost 3009.\n"                            \
  "<b>Buffers row</b> (dashed): buffers flagged BUFFER_LOST, gaps in the buffers' SequenceNumber series (buffers "    \
  "missing from the file) and RTLostBuffer / RTLostFile records.\n"                                                   \
  "The rows are cumulative and each has its own scale."

#define EXPLANATION_COMPACT                                                                                           \
  "<b>No loss recorded</b>\n"                                                                                          \
  "Every file's header (TRACE_LOGFILE_HEADER) states EventsLost 0 and BuffersLost 0; no buffer is flagged "         \
  "EVENTS_LOST or BUFFER_LOST, the buffers' SequenceNumber series has no gap and there are no RTLostEvent, "         \
  "RTLostBuffer or RTLostFile records.  The plot opens when a trace has a loss."

/* The tooltip over the legend: what the counters mean, then every file's
 * line in full (the legend may shorten them). */
static char *
dup_legend_markup (EtlLossPlot *self)
{
  GString *str = g_string_new (self->compact ? EXPLANATION_COMPACT : EXPLANATION);

  g_string_append (str, "\n");
  for (guint f = 0; self->summary != NULL && f < etl_loss_summary_get_n_files (self->summary); f++)
    {
      g_autofree char *text = etl_loss_plot_dup_legend_text (self, f);
      g_autofree char *row = g_markup_printf_escaped ("\n<b>%s</b>   %s", file_name (self, f), text);

      g_string_append (str, row);
    }
  return g_string_free (str, FALSE);
}

static gboolean
etl_loss_plot_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (widget);
  g_autofree char *text = NULL;
  Layout l;

  if (keyboard || self->summary == NULL)
    return FALSE;
  text = etl_loss_plot_dup_loss_text (self, x, y, gtk_widget_get_allocated_width (widget),
                                      gtk_widget_get_allocated_height (widget));
  if (text != NULL)
    {
      gtk_tooltip_set_text (tooltip, text);
      return TRUE;
    }
  compute_layout (self, gtk_widget_get_allocated_height (widget), &l);
  /* Over the legend, the key or the row names (anywhere on the compact
   * strip): what the counters mean, and each file's totals. */
  if (self->compact || y < l.rows_top || x < ETL_LABEL_COLUMN_WIDTH)
    {
      g_autofree char *markup = dup_legend_markup (self);

      gtk_tooltip_set_markup (tooltip, markup);
      return TRUE;
    }
  return FALSE;
}

static gboolean
etl_loss_plot_motion_notify (GtkWidget *widget, GdkEventMotion *event)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (widget);
  const EtlLoss *loss = loss_at (self, event->x, event->y, gtk_widget_get_allocated_width (widget),
                                 gtk_widget_get_allocated_height (widget));

  if (loss != self->hover)
    {
      self->hover = loss;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
etl_loss_plot_leave_notify (GtkWidget *widget, GdkEventCrossing *event)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (widget);

  if (self->hover != NULL)
    {
      self->hover = NULL;
      gtk_widget_queue_draw (widget);
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
etl_loss_plot_button_press (GtkWidget *widget, GdkEventButton *event)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (widget);
  const EtlLoss *loss;

  if (event->button != GDK_BUTTON_PRIMARY || event->type != GDK_BUTTON_PRESS)
    return GDK_EVENT_PROPAGATE;
  loss = loss_at (self, event->x, event->y, gtk_widget_get_allocated_width (widget),
                  gtk_widget_get_allocated_height (widget));
  if (loss == NULL)
    return GDK_EVENT_PROPAGATE;
  g_signal_emit (self, signals[LOSS_ACTIVATED], 0, loss->filetime);
  return GDK_EVENT_STOP;
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
  guint lines = MIN (MAX (self->file_names->len, 1), ETL_LOSS_PLOT_LEGEND_LINES);

  if (self->compact)
    *min = *nat = ETL_LOSS_PLOT_COMPACT_HEIGHT;
  else
    *min = *nat = 4 + (int) (lines + 1) * LEGEND_ROW + 2 + 2 * PLOT_ROW + 4;
}

static void
etl_loss_plot_dispose (GObject *object)
{
  EtlLossPlot *self = ETL_LOSS_PLOT (object);

  etl_loss_plot_set_zoom_manager (self, NULL);
  g_clear_pointer (&self->summary, etl_loss_summary_unref);
  self->hover = NULL;
  g_clear_pointer (&self->trace, etl_trace_unref);

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
  widget_class->query_tooltip = etl_loss_plot_query_tooltip;
  widget_class->motion_notify_event = etl_loss_plot_motion_notify;
  widget_class->leave_notify_event = etl_loss_plot_leave_notify;
  widget_class->button_press_event = etl_loss_plot_button_press;

  /**
   * EtlLossPlot::loss-activated:
   * @self: the plot
   * @filetime: FILETIME of the loss point clicked
   *
   * A loss point was clicked; the window moves the timeline there.
   */
  signals[LOSS_ACTIVATED] = g_signal_new ("loss-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                          NULL, NULL, G_TYPE_NONE, 1, G_TYPE_INT64);

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
  self->compact = TRUE;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK | GDK_BUTTON_PRESS_MASK);
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
  self->hover = NULL;
  g_clear_pointer (&self->trace, etl_trace_unref);
  if (trace != NULL)
    {
      self->trace = etl_trace_ref (trace);
      self->summary = summary != NULL ? etl_loss_summary_ref (summary) : etl_loss_summary_new (trace, 14);
      for (guint f = 0; f < etl_trace_get_n_files (trace); f++)
        g_ptr_array_add (self->file_names, g_path_get_basename (etl_trace_get_file_info (trace, f)->path));
    }
  self->compact = summary_is_lossless (self->summary);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * etl_loss_plot_get_compact:
 * @self: a loss plot
 *
 * Returns: %TRUE when the plot is the one-line strip: no trace, or no loss
 *   recorded in any file (headers' EventsLost and BuffersLost 0, no loss
 *   point in the summary)
 */
gboolean
etl_loss_plot_get_compact (EtlLossPlot *self)
{
  g_return_val_if_fail (ETL_IS_LOSS_PLOT (self), TRUE);
  return self->compact;
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
