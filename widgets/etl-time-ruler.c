/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-time-ruler
 * @title: EtlTimeRuler
 * @short_description: the time axis above the timeline
 *
 * Two rows over the visible range of an #EtlZoomManager: the time since the
 * trace's origin (the earliest file header) and the wall-clock time of the
 * same FILETIME, in the viewer's local time zone or in UTC
 * (#EtlTimeRuler:utc).  Tick steps are 1, 2 and 5 × 10^k 100-ns ticks; minor
 * ticks stay at least 20 pixels apart and only the coarsest level — the one
 * whose labels fit without overlapping — is labelled, as in sysprof's
 * SysprofVisualizerTicks.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>
#include <string.h>

#include "etl-time-ruler.h"

#define MIN_TICK_SPACING 20
#define LABEL_GAP 18
#define TICKS_PER_SECOND G_GINT64_CONSTANT (10000000)
#define TICKS_PER_MS G_GINT64_CONSTANT (10000)
/* FILETIME of 1970-01-01T00:00:00Z. */
#define UNIX_EPOCH_FILETIME G_GINT64_CONSTANT (116444736000000000)

struct _EtlTimeRuler
{
  GtkDrawingArea parent_instance;

  EtlZoomManager *zoom_manager;
  gulong changed_handler;
  gint64 origin;
  guint utc : 1;
  GArray *markers; /* Marker, by time */
};

typedef struct
{
  gint64 filetime;
  char *name;
} Marker;

static void
marker_clear (gpointer data)
{
  g_free (((Marker *) data)->name);
}

enum {
  PROP_0,
  PROP_ZOOM_MANAGER,
  PROP_ORIGIN,
  PROP_UTC,
  N_PROPS
};

G_DEFINE_TYPE (EtlTimeRuler, etl_time_ruler, GTK_TYPE_DRAWING_AREA)

static GParamSpec *properties[N_PROPS];

/**
 * etl_time_nice_step:
 * @min_ticks: the smallest acceptable step, 100-ns ticks
 *
 * Returns: the smallest step of the form 1, 2 or 5 × 10^k ticks that is at
 *   least @min_ticks
 */
gint64
etl_time_nice_step (gint64 min_ticks)
{
  static const int mult[] = { 1, 2, 5 };
  gint64 power = 1;

  min_ticks = MAX (min_ticks, 1);
  for (;;)
    {
      for (guint i = 0; i < G_N_ELEMENTS (mult); i++)
        if (power * mult[i] >= min_ticks)
          return power * mult[i];
      if (power > G_MAXINT64 / 100)
        return power * 10;
      power *= 10;
    }
}

static int
decimals_for (gint64 step, gint64 unit)
{
  int d = 0;

  while (step < unit && d < 7)
    {
      unit /= 10;
      d++;
    }
  return d;
}

/**
 * etl_time_format_relative:
 * @ticks: time since the origin, 100-ns ticks (may be negative)
 * @step: the tick step the label belongs to, 100-ns ticks; chooses the unit
 *   and the number of decimals
 *
 * Returns: (transfer full): a label such as "1.5 s", "120 ms" or "35.2 µs"
 */
char *
etl_time_format_relative (gint64 ticks, gint64 step)
{
  if (step >= TICKS_PER_SECOND / 10)
    return g_strdup_printf ("%.*f s", decimals_for (step, TICKS_PER_SECOND), ticks / 1e7);
  if (step >= TICKS_PER_MS / 10)
    return g_strdup_printf ("%.*f ms", decimals_for (step, TICKS_PER_MS), ticks / 1e4);
  return g_strdup_printf ("%.*f µs", decimals_for (step, 10), ticks / 10.0);
}

/* Appends to a text being built in a fixed buffer; what does not fit is
 * dropped (the buffer ends NUL-terminated). */
typedef struct
{
  char *p;
  char *end; /* the last byte, kept for the NUL */
} Out;

static void
put_str (Out *out, const char *text)
{
  for (; *text != '\0' && out->p < out->end; text++)
    *out->p++ = *text;
}

/* @value in decimal, at least @width digits (zeros in front). */
static void
put_uint (Out *out, guint64 value, int width)
{
  char digits[24];
  int n = 0;

  do
    {
      digits[n++] = (char) ('0' + value % 10);
      value /= 10;
    }
  while (value > 0);
  while (n < width && n < (int) sizeof digits)
    digits[n++] = '0';
  while (n > 0 && out->p < out->end)
    *out->p++ = digits[--n];
}

/**
 * etl_time_format_span_into:
 * @buf: (out caller-allocates): where the text goes, with its NUL
 * @size: @buf's size, at least %ETL_TIME_FORMAT_SIZE
 * @ticks: as for etl_time_format_span()
 *
 * etl_time_format_span() without an allocation or printf: the tables format
 * their visible rows as they draw them.  Every digit comes from integer
 * arithmetic on the ticks, as printf's correctly rounded "%.4f" of ticks /
 * 1e4 (and "%.1f" of ticks / 10) gives them.
 *
 * Returns: @buf
 */
char *
etl_time_format_span_into (char *buf, gsize size, gint64 ticks)
{
  Out out = { buf, buf + size - 1 };
  guint64 t = ticks < 0 ? (guint64) (-(ticks + 1)) + 1 : (guint64) ticks;
  guint64 hours, minutes, seconds, fraction;

  g_return_val_if_fail (size >= ETL_TIME_FORMAT_SIZE, buf);
  if (ticks < 0)
    put_str (&out, "−");
  if (t < (guint64) TICKS_PER_MS)
    {
      put_uint (&out, t / 10, 1);
      put_str (&out, ".");
      put_uint (&out, t % 10, 1);
      put_str (&out, " µs");
    }
  else if (t < (guint64) TICKS_PER_SECOND)
    {
      put_uint (&out, t / (guint64) TICKS_PER_MS, 1);
      put_str (&out, ".");
      put_uint (&out, t % (guint64) TICKS_PER_MS, 4);
      put_str (&out, " ms");
    }
  else
    {
      hours = t / (3600 * (guint64) TICKS_PER_SECOND);
      minutes = t / (60 * (guint64) TICKS_PER_SECOND) % 60;
      seconds = t / (guint64) TICKS_PER_SECOND % 60;
      fraction = t % (guint64) TICKS_PER_SECOND;
      if (hours > 0)
        {
          put_uint (&out, hours, 1);
          put_str (&out, " h ");
        }
      if (t >= 60 * (guint64) TICKS_PER_SECOND)
        {
          put_uint (&out, minutes, hours > 0 ? 2 : 1);
          put_str (&out, " min ");
        }
      put_uint (&out, seconds, t >= 60 * (guint64) TICKS_PER_SECOND ? 2 : 1);
      put_str (&out, ".");
      put_uint (&out, fraction, 7);
      put_str (&out, " s");
    }
  *out.p = '\0';
  return buf;
}

/**
 * etl_time_format_span:
 * @ticks: a time since the origin or a duration, 100-ns ticks (may be
 *   negative)
 *
 * Formats @ticks in the unit that suits its size, to the 100-ns tick:
 * "35.2 µs", "120.5000 ms", "12.3456780 s", "4 min 05.2500000 s",
 * "8 h 11 min 59.6680115 s".  Used wherever the views show a time or a
 * duration, so "29519668.0115 ms" reads as hours.
 *
 * Returns: (transfer full): the text (etl_time_format_span_into())
 */
char *
etl_time_format_span (gint64 ticks)
{
  char buf[ETL_TIME_FORMAT_SIZE];

  return g_strdup (etl_time_format_span_into (buf, sizeof buf, ticks));
}

/**
 * etl_time_format_wall_clock:
 * @filetime: a FILETIME (100-ns ticks since 1601-01-01 UTC)
 * @step: precision wanted, 100-ns ticks: decimals of a second are added
 *   until one unit of the last digit is no more than @step
 * @utc: %TRUE for UTC, %FALSE for the viewer's local time zone
 * @with_date: prefix the date ("2016-03-01 ")
 *
 * Returns: (transfer full): a label such as "14:03:22.125"
 */
char *
etl_time_format_wall_clock (gint64 filetime, gint64 step, gboolean utc, gboolean with_date)
{
  g_autoptr (GDateTime) dt = NULL;
  g_autofree char *hms = NULL;
  gint64 since_epoch = filetime - UNIX_EPOCH_FILETIME;
  gint64 secs = since_epoch >= 0 ? since_epoch / TICKS_PER_SECOND
                                 : -((-since_epoch + TICKS_PER_SECOND - 1) / TICKS_PER_SECOND);
  gint64 frac = since_epoch - secs * TICKS_PER_SECOND;
  int decimals = decimals_for (step, TICKS_PER_SECOND);

  if (utc)
    dt = g_date_time_new_from_unix_utc (secs);
  else
    dt = g_date_time_new_from_unix_local (secs);
  if (dt == NULL)
    return g_strdup ("—");

  hms = g_date_time_format (dt, with_date ? "%Y-%m-%d %H:%M:%S" : "%H:%M:%S");
  if (decimals == 0)
    return g_steal_pointer (&hms);
  else
    {
      char digits[8];
      g_snprintf (digits, sizeof digits, "%07" G_GINT64_FORMAT, frac);
      digits[decimals] = '\0';
      return g_strdup_printf ("%s.%s", hms, digits);
    }
}

static void
on_zoom_changed (EtlTimeRuler *self, EtlZoomManager *zoom_manager)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
fg_color (GtkWidget *widget, GdkRGBA *rgba)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  gtk_style_context_get_color (style, gtk_style_context_get_state (style), rgba);
}

static int
text_width (PangoLayout *layout, const char *text)
{
  int w;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &w, NULL);
  return w;
}

/**
 * etl_time_ruler_render:
 * @self: a time ruler
 * @cr: a cairo context, for the widget or an image surface
 * @width: width in pixels, label column included
 * @height: height in pixels
 *
 * Draws the ruler.  The cost depends on the number of ticks only.  draw()
 * calls this; tests call it on an image surface.
 */
void
etl_time_ruler_render (EtlTimeRuler *self, cairo_t *cr, int width, int height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style;
  g_autoptr (PangoLayout) layout = NULL;
  g_autofree char *date = NULL;
  GdkRGBA fg;
  gint64 t0, t1, span, minor, major, first;
  int axis_w, row_h, max_label;
  double px_per_tick;

  g_return_if_fail (ETL_IS_TIME_RULER (self));
  g_return_if_fail (cr != NULL);

  style = gtk_widget_get_style_context (widget);
  gtk_render_background (style, cr, 0, 0, width, height);
  fg_color (widget, &fg);
  layout = gtk_widget_create_pango_layout (widget, NULL);
  row_h = height / 2;

  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  if (self->zoom_manager == NULL || axis_w <= 0)
    return;

  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  span = MAX (t1 - t0, 1);
  px_per_tick = (double) axis_w / span;

  /* Captions in the label column. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.6);
  pango_layout_set_text (layout, "Since start", -1);
  cairo_move_to (cr, 8, (row_h - 14) / 2.0);
  pango_cairo_show_layout (cr, layout);
  date = etl_time_format_wall_clock (t0, TICKS_PER_SECOND, self->utc, TRUE);
  date[MIN (strlen (date), 10)] = '\0';
  {
    g_autofree char *caption = g_strdup_printf ("%s %s", date, self->utc ? "UTC" : "local");
    pango_layout_set_text (layout, caption, -1);
    cairo_move_to (cr, 8, row_h + (row_h - 14) / 2.0);
    pango_cairo_show_layout (cr, layout);
  }

  /* Minor ticks ≥ 20 px apart; the labelled (major) step is the smallest
   * nice step whose widest label fits with a gap. */
  minor = etl_time_nice_step ((gint64) ceil (MIN_TICK_SPACING / px_per_tick));
  major = minor;
  for (int guard = 0; guard < 64; guard++)
    {
      g_autofree char *rel = etl_time_format_relative (t1 - self->origin, major);
      g_autofree char *rel0 = etl_time_format_relative (t0 - self->origin, major);
      g_autofree char *wall = etl_time_format_wall_clock (t1, major, self->utc, FALSE);

      max_label = MAX (MAX (text_width (layout, rel), text_width (layout, rel0)), text_width (layout, wall));
      if (major * px_per_tick >= max_label + LABEL_GAP)
        break;
      major = etl_time_nice_step (major + 1);
    }
  /* Keep minor ticks a divisor of the major step. */
  while (major % minor != 0)
    minor = etl_time_nice_step (minor + 1);

  cairo_save (cr);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH, 0, axis_w, height);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1.0);

  /* Ticks are aligned to multiples of the step since the origin. */
  first = self->origin + ((t0 - self->origin) / minor - 1) * minor;
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.35);
  for (gint64 t = first; t <= t1; t += minor)
    {
      double x = floor (ETL_LABEL_COLUMN_WIDTH + (t - t0) * px_per_tick) + 0.5;
      if ((t - self->origin) % major == 0)
        continue;
      cairo_move_to (cr, x, height - 5);
      cairo_line_to (cr, x, height);
    }
  cairo_stroke (cr);

  first = self->origin + ((t0 - self->origin) / major - 1) * major;
  for (gint64 t = first; t <= t1 + major; t += major)
    {
      double x = floor (ETL_LABEL_COLUMN_WIDTH + (t - t0) * px_per_tick) + 0.5;
      g_autofree char *rel = etl_time_format_relative (t - self->origin, major);
      g_autofree char *wall = etl_time_format_wall_clock (t, major, self->utc, FALSE);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
      cairo_move_to (cr, x, 2);
      cairo_line_to (cr, x, height);
      cairo_stroke (cr);

      /* A label cut by either edge is left out: one starting left of the
       * axis would be clipped by the label column. */
      if (x < ETL_LABEL_COLUMN_WIDTH || x + 4 + MAX (text_width (layout, rel), text_width (layout, wall)) > width)
        continue;

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha);
      pango_layout_set_text (layout, rel, -1);
      cairo_move_to (cr, x + 4, (row_h - 14) / 2.0);
      pango_cairo_show_layout (cr, layout);

      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.7);
      pango_layout_set_text (layout, wall, -1);
      cairo_move_to (cr, x + 4, row_h + (row_h - 14) / 2.0);
      pango_cairo_show_layout (cr, layout);
    }

  /* Markers: a line in the theme's selection colour and a flag with the
   * name, over the ticks. */
  if (self->markers != NULL && self->markers->len > 0)
    {
      GdkRGBA accent;

      if (!gtk_style_context_lookup_color (style, "theme_selected_bg_color", &accent))
        gdk_rgba_parse (&accent, "#3584e4");
      for (guint i = 0; i < self->markers->len; i++)
        {
          const Marker *m = &g_array_index (self->markers, Marker, i);
          double x = floor (ETL_LABEL_COLUMN_WIDTH + (m->filetime - t0) * px_per_tick) + 0.5;
          int tw, th;

          if (m->filetime < t0 || m->filetime > t1)
            continue;
          pango_layout_set_text (layout, m->name, -1);
          pango_layout_get_pixel_size (layout, &tw, &th);
          gdk_cairo_set_source_rgba (cr, &accent);
          cairo_set_line_width (cr, 2.0);
          cairo_move_to (cr, x, 0);
          cairo_line_to (cr, x, height);
          cairo_stroke (cr);
          cairo_rectangle (cr, x, height - th - 6, tw + 8, th + 4);
          cairo_fill (cr);
          cairo_set_source_rgb (cr, 1, 1, 1);
          cairo_move_to (cr, x + 4, height - th - 4);
          pango_cairo_show_layout (cr, layout);
        }
    }
  cairo_restore (cr);

  /* Bottom border. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
  cairo_rectangle (cr, 0, height - 1, width, 1);
  cairo_fill (cr);
}

static gboolean
etl_time_ruler_draw (GtkWidget *widget, cairo_t *cr)
{
  etl_time_ruler_render (ETL_TIME_RULER (widget), cr,
                         gtk_widget_get_allocated_width (widget),
                         gtk_widget_get_allocated_height (widget));
  return GDK_EVENT_PROPAGATE;
}

static void
etl_time_ruler_get_preferred_height (GtkWidget *widget, int *min, int *nat)
{
  *min = *nat = 44;
}

static void
etl_time_ruler_dispose (GObject *object)
{
  EtlTimeRuler *self = ETL_TIME_RULER (object);

  etl_time_ruler_set_zoom_manager (self, NULL);
  g_clear_pointer (&self->markers, g_array_unref);

  G_OBJECT_CLASS (etl_time_ruler_parent_class)->dispose (object);
}

static void
etl_time_ruler_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlTimeRuler *self = ETL_TIME_RULER (object);

  switch (prop_id)
    {
    case PROP_ZOOM_MANAGER:
      g_value_set_object (value, self->zoom_manager);
      break;

    case PROP_ORIGIN:
      g_value_set_int64 (value, self->origin);
      break;

    case PROP_UTC:
      g_value_set_boolean (value, self->utc);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_time_ruler_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  EtlTimeRuler *self = ETL_TIME_RULER (object);

  switch (prop_id)
    {
    case PROP_ZOOM_MANAGER:
      etl_time_ruler_set_zoom_manager (self, g_value_get_object (value));
      break;

    case PROP_ORIGIN:
      etl_time_ruler_set_origin (self, g_value_get_int64 (value));
      break;

    case PROP_UTC:
      etl_time_ruler_set_utc (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_time_ruler_class_init (EtlTimeRulerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_time_ruler_dispose;
  object_class->get_property = etl_time_ruler_get_property;
  object_class->set_property = etl_time_ruler_set_property;

  widget_class->draw = etl_time_ruler_draw;
  widget_class->get_preferred_height = etl_time_ruler_get_preferred_height;

  /**
   * EtlTimeRuler:zoom-manager:
   *
   * The visible range to label.
   */
  properties[PROP_ZOOM_MANAGER] =
    g_param_spec_object ("zoom-manager", "Zoom manager", "The shared visible range",
                         ETL_TYPE_ZOOM_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlTimeRuler:origin:
   *
   * FILETIME shown as 0 in the relative row (etl_trace_get_origin()).
   */
  properties[PROP_ORIGIN] =
    g_param_spec_int64 ("origin", "Origin", "FILETIME of time zero",
                        G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlTimeRuler:utc:
   *
   * Whether the wall-clock row is in UTC rather than the local time zone.
   */
  properties[PROP_UTC] =
    g_param_spec_boolean ("utc", "UTC", "Show wall-clock time in UTC",
                          FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "etltimeruler");
}

static void
etl_time_ruler_init (EtlTimeRuler *self)
{
}

/**
 * etl_time_ruler_new:
 * @zoom_manager: (nullable): the shared visible range
 *
 * Returns: (transfer floating): a new time ruler
 */
GtkWidget *
etl_time_ruler_new (EtlZoomManager *zoom_manager)
{
  return g_object_new (ETL_TYPE_TIME_RULER, "zoom-manager", zoom_manager, NULL);
}

/**
 * etl_time_ruler_get_zoom_manager:
 * @self: a time ruler
 *
 * Returns: (transfer none) (nullable): the zoom manager
 */
EtlZoomManager *
etl_time_ruler_get_zoom_manager (EtlTimeRuler *self)
{
  g_return_val_if_fail (ETL_IS_TIME_RULER (self), NULL);
  return self->zoom_manager;
}

/**
 * etl_time_ruler_set_zoom_manager:
 * @self: a time ruler
 * @zoom_manager: (nullable): the shared visible range
 */
void
etl_time_ruler_set_zoom_manager (EtlTimeRuler *self, EtlZoomManager *zoom_manager)
{
  g_return_if_fail (ETL_IS_TIME_RULER (self));

  if (etl_zoom_manager_follow (GTK_WIDGET (self), &self->zoom_manager, &self->changed_handler, zoom_manager,
                               G_CALLBACK (on_zoom_changed)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_MANAGER]);
}

/**
 * etl_time_ruler_get_origin:
 * @self: a time ruler
 *
 * Returns: FILETIME of time zero
 */
gint64
etl_time_ruler_get_origin (EtlTimeRuler *self)
{
  g_return_val_if_fail (ETL_IS_TIME_RULER (self), 0);
  return self->origin;
}

/**
 * etl_time_ruler_set_origin:
 * @self: a time ruler
 * @origin: FILETIME of time zero, normally etl_trace_get_origin()
 */
void
etl_time_ruler_set_origin (EtlTimeRuler *self, gint64 origin)
{
  g_return_if_fail (ETL_IS_TIME_RULER (self));

  if (origin != self->origin)
    {
      self->origin = origin;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIGIN]);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

/**
 * etl_time_ruler_set_markers:
 * @self: a time ruler
 * @filetimes: (array length=n_markers): where the markers are, FILETIME
 * @names: (array length=n_markers): their names
 * @n_markers: number of markers
 *
 * Shows named markers on the ruler (a line and a flag with the name),
 * replacing those shown before.
 */
void
etl_time_ruler_set_markers (EtlTimeRuler *self, const gint64 *filetimes, const char *const *names, guint n_markers)
{
  g_return_if_fail (ETL_IS_TIME_RULER (self));

  g_clear_pointer (&self->markers, g_array_unref);
  self->markers = g_array_new (FALSE, FALSE, sizeof (Marker));
  g_array_set_clear_func (self->markers, marker_clear);
  for (guint i = 0; i < n_markers; i++)
    {
      Marker m = { filetimes[i], g_strdup (names[i]) };

      g_array_append_val (self->markers, m);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_time_ruler_get_n_markers:
 * @self: a time ruler
 *
 * Returns: markers shown
 */
guint
etl_time_ruler_get_n_markers (EtlTimeRuler *self)
{
  g_return_val_if_fail (ETL_IS_TIME_RULER (self), 0);
  return self->markers != NULL ? self->markers->len : 0;
}

/**
 * etl_time_ruler_get_utc:
 * @self: a time ruler
 *
 * Returns: whether wall-clock time is shown in UTC
 */
gboolean
etl_time_ruler_get_utc (EtlTimeRuler *self)
{
  g_return_val_if_fail (ETL_IS_TIME_RULER (self), FALSE);
  return self->utc;
}

/**
 * etl_time_ruler_set_utc:
 * @self: a time ruler
 * @utc: %TRUE for UTC, %FALSE for local time
 */
void
etl_time_ruler_set_utc (EtlTimeRuler *self, gboolean utc)
{
  g_return_if_fail (ETL_IS_TIME_RULER (self));

  utc = !!utc;
  if (utc != self->utc)
    {
      self->utc = utc;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UTC]);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}
