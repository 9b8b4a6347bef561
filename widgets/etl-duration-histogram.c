/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-duration-histogram
 * @title: EtlDurationHistogram
 * @short_description: the durations of one region name as bars; drag to select buckets
 *
 * Draws an #EtlSpanHistogram (etl_span_histogram_compute()): one bar per
 * bucket, its height the bucket's count (square-root scale, so that a tail
 * of a few instances beside thousands still shows), the shortest and the
 * longest duration under the axis and, on hover, the bucket's range and
 * count.  Dragging across the bars selects the buckets it passes (the slow
 * tail in one gesture, as in Tracy's zone histogram); a click on one bar
 * selects it alone; a click beside the bars clears the selection.  Each
 * change emits #EtlDurationHistogram::selection-changed.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>

#include "etl-duration-histogram.h"

#define PAD 6
#define AXIS_HEIGHT 16

struct _EtlDurationHistogram
{
  GtkDrawingArea parent_instance;

  EtlSpanHistogram histogram;
  gboolean has_histogram;
  int sel_first; /* -1: no selection */
  int sel_last;
  int drag_anchor; /* -1: not dragging */
  int hover;
};

enum
{
  SELECTION_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_TYPE (EtlDurationHistogram, etl_duration_histogram, GTK_TYPE_DRAWING_AREA)

/**
 * etl_duration_format:
 * @ticks: a duration, 100-ns units
 *
 * Returns: (transfer full): @ticks with three significant digits and a
 *   unit ("850 ns", "12.3 µs", "4.56 ms", "1.20 s")
 */
char *
etl_duration_format (gint64 ticks)
{
  double ns = (double) ticks * 100.0;
  static const struct
  {
    double scale;
    const char *unit;
  } units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "µs" } };

  for (guint k = 0; k < G_N_ELEMENTS (units); k++)
    if (fabs (ns) >= units[k].scale)
      {
        double v = ns / units[k].scale;

        return g_strdup_printf (v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[k].unit);
      }
  return g_strdup_printf ("%.0f ns", ns);
}

/* The duration where bucket @b begins (@b = n_buckets: the end). */
static gint64
bucket_edge (const EtlSpanHistogram *h, guint b)
{
  if (b == 0)
    return h->lo;
  return h->edges[MIN (b, h->n_buckets)];
}

static void
plot_area (GtkWidget *widget, double *x0, double *w, double *y0, double *h)
{
  int width = gtk_widget_get_allocated_width (widget);
  int height = gtk_widget_get_allocated_height (widget);

  *x0 = PAD;
  *w = MAX (width - 2 * PAD, 1);
  *y0 = PAD;
  *h = MAX (height - 2 * PAD - AXIS_HEIGHT, 1);
}

/**
 * etl_duration_histogram_bucket_at:
 * @self: a histogram
 * @x: a widget x coordinate, pixels
 * @width: the widget's width, pixels
 *
 * Returns: the bucket under @x, or -1 beside the bars (or when empty)
 */
int
etl_duration_histogram_bucket_at (EtlDurationHistogram *self, double x, int width)
{
  double bw;
  int b;

  g_return_val_if_fail (ETL_IS_DURATION_HISTOGRAM (self), -1);
  if (!self->has_histogram || self->histogram.n_buckets == 0)
    return -1;
  bw = (double) MAX (width - 2 * PAD, 1) / self->histogram.n_buckets;
  if (x < PAD)
    return -1;
  b = (int) ((x - PAD) / bw);
  return b < (int) self->histogram.n_buckets ? b : -1;
}

static gboolean
etl_duration_histogram_draw (GtkWidget *widget, cairo_t *cr)
{
  EtlDurationHistogram *self = ETL_DURATION_HISTOGRAM (widget);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  const EtlSpanHistogram *h = &self->histogram;
  int width = gtk_widget_get_allocated_width (widget);
  int height = gtk_widget_get_allocated_height (widget);
  double x0, w, y0, ph, bw, top;
  GdkRGBA fg, sel;
  PangoLayout *layout;

  gtk_render_background (style, cr, 0, 0, width, height);
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);
  if (!gtk_style_context_lookup_color (style, "theme_selected_bg_color", &sel))
    gdk_rgba_parse (&sel, "#3584e4");
  plot_area (widget, &x0, &w, &y0, &ph);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  if (!self->has_histogram || h->max_count == 0)
    {
      pango_layout_set_text (layout, "Select a name above to see its durations", -1);
      cairo_move_to (cr, x0, y0);
      gdk_cairo_set_source_rgba (cr, &fg);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
      return FALSE;
    }
  bw = w / h->n_buckets;
  top = sqrt ((double) h->max_count);
  for (guint b = 0; b < h->n_buckets; b++)
    {
      double bh;
      gboolean selected = self->sel_first >= 0 && (int) b >= self->sel_first && (int) b <= self->sel_last;

      if (selected)
        {
          GdkRGBA band = sel;

          band.alpha = 0.25;
          gdk_cairo_set_source_rgba (cr, &band);
          cairo_rectangle (cr, x0 + b * bw, y0, bw, ph);
          cairo_fill (cr);
        }
      if (h->counts[b] == 0)
        continue;
      /* A bucket of one instance stays at least 2 px high. */
      bh = MAX (ph * sqrt ((double) h->counts[b]) / top, 2.0);
      if (selected)
        gdk_cairo_set_source_rgba (cr, &sel);
      else
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, (int) b == self->hover ? 0.8 : 0.55);
      cairo_rectangle (cr, x0 + b * bw + (bw > 3 ? 0.5 : 0), y0 + ph - bh, MAX (bw - (bw > 3 ? 1 : 0), 1), bh);
      cairo_fill (cr);
    }

  /* The axis: shortest left, longest right, the scale and the hovered
   * bucket in the middle. */
  gdk_cairo_set_source_rgba (cr, &fg);
  {
    g_autofree char *lo = etl_duration_format (h->lo);
    g_autofree char *hi = etl_duration_format (h->hi);
    g_autofree char *mid = NULL;
    int tw, th;

    if (self->hover >= 0)
      {
        g_autofree char *a = etl_duration_format (bucket_edge (h, self->hover));
        g_autofree char *z = etl_duration_format (bucket_edge (h, self->hover + 1));

        mid = g_strdup_printf ("%s – %s: %" G_GUINT64_FORMAT, a, z, h->counts[self->hover]);
      }
    else
      mid = g_strdup (h->log_scale ? "duration (log scale) — drag to select" : "duration — drag to select");
    pango_layout_set_text (layout, lo, -1);
    cairo_move_to (cr, x0, y0 + ph + 2);
    pango_cairo_show_layout (cr, layout);
    pango_layout_set_text (layout, hi, -1);
    pango_layout_get_pixel_size (layout, &tw, &th);
    cairo_move_to (cr, x0 + w - tw, y0 + ph + 2);
    pango_cairo_show_layout (cr, layout);
    pango_layout_set_text (layout, mid, -1);
    pango_layout_get_pixel_size (layout, &tw, &th);
    cairo_move_to (cr, x0 + (w - tw) / 2, y0 + ph + 2);
    pango_cairo_show_layout (cr, layout);
  }
  g_object_unref (layout);
  return FALSE;
}

static void
set_selection (EtlDurationHistogram *self, int first, int last, gboolean emit)
{
  if (first > last)
    {
      int t = first;

      first = last;
      last = t;
    }
  if (first < 0)
    first = last = -1;
  if (first == self->sel_first && last == self->sel_last)
    return;
  self->sel_first = first;
  self->sel_last = last;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (emit)
    g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

static gboolean
etl_duration_histogram_button_press (GtkWidget *widget, GdkEventButton *event)
{
  EtlDurationHistogram *self = ETL_DURATION_HISTOGRAM (widget);
  int b;

  if (event->button != GDK_BUTTON_PRIMARY || event->type != GDK_BUTTON_PRESS)
    return FALSE;
  b = etl_duration_histogram_bucket_at (self, event->x, gtk_widget_get_allocated_width (widget));
  self->drag_anchor = b;
  set_selection (self, b, b, TRUE);
  return TRUE;
}

static gboolean
etl_duration_histogram_motion (GtkWidget *widget, GdkEventMotion *event)
{
  EtlDurationHistogram *self = ETL_DURATION_HISTOGRAM (widget);
  int width = gtk_widget_get_allocated_width (widget);
  int b = etl_duration_histogram_bucket_at (self, event->x, width);

  if (b != self->hover)
    {
      self->hover = b;
      gtk_widget_queue_draw (widget);
    }
  if (self->drag_anchor >= 0 && (event->state & GDK_BUTTON1_MASK))
    {
      /* Past the ends: the first or the last bucket. */
      if (b < 0)
        b = event->x < PAD ? 0 : (int) self->histogram.n_buckets - 1;
      set_selection (self, self->drag_anchor, b, TRUE);
    }
  return FALSE;
}

static gboolean
etl_duration_histogram_button_release (GtkWidget *widget, GdkEventButton *event)
{
  EtlDurationHistogram *self = ETL_DURATION_HISTOGRAM (widget);

  if (event->button == GDK_BUTTON_PRIMARY)
    self->drag_anchor = -1;
  return FALSE;
}

static gboolean
etl_duration_histogram_leave (GtkWidget *widget, GdkEventCrossing *event)
{
  EtlDurationHistogram *self = ETL_DURATION_HISTOGRAM (widget);

  (void) event;
  self->hover = -1;
  gtk_widget_queue_draw (widget);
  return FALSE;
}

static void
etl_duration_histogram_class_init (EtlDurationHistogramClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->draw = etl_duration_histogram_draw;
  widget_class->button_press_event = etl_duration_histogram_button_press;
  widget_class->motion_notify_event = etl_duration_histogram_motion;
  widget_class->button_release_event = etl_duration_histogram_button_release;
  widget_class->leave_notify_event = etl_duration_histogram_leave;

  /**
   * EtlDurationHistogram::selection-changed:
   * @self: the histogram
   *
   * The selected buckets changed (etl_duration_histogram_get_selection()),
   * by the pointer or etl_duration_histogram_set_selection().
   */
  signals[SELECTION_CHANGED] = g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_css_name (widget_class, "etldurationhistogram");
}

static void
etl_duration_histogram_init (EtlDurationHistogram *self)
{
  self->sel_first = self->sel_last = -1;
  self->drag_anchor = -1;
  self->hover = -1;
  gtk_widget_add_events (GTK_WIDGET (self), GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK
                                                | GDK_POINTER_MOTION_MASK | GDK_LEAVE_NOTIFY_MASK);
  gtk_widget_set_size_request (GTK_WIDGET (self), 200, 110);
}

/**
 * etl_duration_histogram_new:
 *
 * Returns: (transfer floating): an empty histogram
 */
GtkWidget *
etl_duration_histogram_new (void)
{
  return g_object_new (ETL_TYPE_DURATION_HISTOGRAM, NULL);
}

/**
 * etl_duration_histogram_set_histogram:
 * @self: a histogram
 * @histogram: (nullable): the buckets to draw (copied), %NULL for none
 *
 * Shows @histogram and clears the selection (without a signal: the
 * buckets are new).
 */
void
etl_duration_histogram_set_histogram (EtlDurationHistogram *self, const EtlSpanHistogram *histogram)
{
  g_return_if_fail (ETL_IS_DURATION_HISTOGRAM (self));
  self->has_histogram = histogram != NULL;
  if (histogram != NULL)
    self->histogram = *histogram;
  self->sel_first = self->sel_last = -1;
  self->drag_anchor = -1;
  self->hover = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_duration_histogram_get_histogram:
 * @self: a histogram
 *
 * Returns: (transfer none) (nullable): the buckets shown
 */
const EtlSpanHistogram *
etl_duration_histogram_get_histogram (EtlDurationHistogram *self)
{
  g_return_val_if_fail (ETL_IS_DURATION_HISTOGRAM (self), NULL);
  return self->has_histogram ? &self->histogram : NULL;
}

/**
 * etl_duration_histogram_set_selection:
 * @self: a histogram
 * @first: the first selected bucket, -1 for none
 * @last: the last (inclusive; the two may come in either order)
 *
 * Selects buckets as a drag from @first to @last would, emitting
 * #EtlDurationHistogram::selection-changed when that changes it.
 */
void
etl_duration_histogram_set_selection (EtlDurationHistogram *self, int first, int last)
{
  g_return_if_fail (ETL_IS_DURATION_HISTOGRAM (self));
  if (self->has_histogram)
    {
      first = MIN (first, (int) self->histogram.n_buckets - 1);
      last = MIN (last, (int) self->histogram.n_buckets - 1);
    }
  else
    first = last = -1;
  set_selection (self, first, last, TRUE);
}

/**
 * etl_duration_histogram_get_selection:
 * @self: a histogram
 * @first: (out) (optional): the first selected bucket
 * @last: (out) (optional): the last, inclusive
 *
 * Returns: whether buckets are selected
 */
gboolean
etl_duration_histogram_get_selection (EtlDurationHistogram *self, guint *first, guint *last)
{
  g_return_val_if_fail (ETL_IS_DURATION_HISTOGRAM (self), FALSE);
  if (self->sel_first < 0)
    return FALSE;
  if (first != NULL)
    *first = (guint) self->sel_first;
  if (last != NULL)
    *last = (guint) self->sel_last;
  return TRUE;
}
