/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-timeline-view
 * @title: EtlTimelineView
 * @short_description: events of a trace as lanes over time
 *
 * One lane per processor (or provider, or process: the lanes of the
 * #EtlSummary given), with a label column on the left and the visible range
 * of an #EtlZoomManager across the rest.  Each pixel column of a lane shows
 * what the summary counted there: a thin mark coloured by the dominant
 * provider where there are one to three events, a bar whose height and
 * opacity grow with the logarithm of the count where there are more.
 *
 * draw() never visits events: it asks the summary for per-column counts in
 * O(lanes × columns).  When the view is zoomed in so far that the summary's
 * finest bins are wider than a pixel, a finer summary of the neighbourhood
 * is built in a worker thread and swapped in when ready; repeated requests
 * collapse into one.
 *
 * Ctrl+scroll zooms about the pointer, scroll and drag pan, the arrow keys
 * pan by a tenth of the range.  The tooltip describes the record nearest to
 * the pointer in its lane, read with etl_trace_get_record() for that record
 * only.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>
#include <string.h>

#include "etl-names.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"

#define DETAIL_BINS_LOG2 16
#define DETAIL_DELAY_MS 80
#define TOOLTIP_RADIUS_PX 4
#define TOOLTIP_MAX_SCAN 50000
#define MAX_LANE_HEIGHT 112
#define MIN_LANE_HEIGHT 14

struct _EtlTimelineView
{
  GtkDrawingArea parent_instance;

  EtlZoomManager *zoom_manager;
  gulong changed_handler;

  EtlTrace *trace;
  EtlSummary *summary;
  EtlSummary *detail;
  GCancellable *cancellable;
  GCancellable *detail_cancellable;
  guint detail_source;

  /* Scratch for etl_summary_query(), reused between draws. */
  guint32 *counts;
  guint16 *dominant;
  gsize scratch_len;

  /* Dragging. */
  double drag_x;
  gint64 drag_begin;
  gint64 drag_end;
  guint dragging : 1;
};

enum {
  PROP_0,
  PROP_ZOOM_MANAGER,
  PROP_N_LANES,
  N_PROPS
};

G_DEFINE_TYPE (EtlTimelineView, etl_timeline_view, GTK_TYPE_DRAWING_AREA)

static GParamSpec *properties[N_PROPS];

/* A qualitative palette (Tango-derived) for providers; the theme supplies
 * every other colour. */
static const guint32 provider_palette[] = {
  0x3465a4, 0xf57900, 0x4e9a06, 0xcc0000, 0x75507b, 0xc17d11,
  0x06989a, 0xedd400, 0x729fcf, 0xad7fa8, 0x8ae234, 0xef2929,
};

/**
 * etl_timeline_view_get_provider_color:
 * @provider_index: from etl_trace_get_provider_index()
 * @rgba: (out caller-allocates): the colour used for that provider
 *
 * The colour marks of @provider_index are drawn in.
 */
void
etl_timeline_view_get_provider_color (guint provider_index, GdkRGBA *rgba)
{
  guint32 c = provider_palette[provider_index % G_N_ELEMENTS (provider_palette)];

  rgba->red = ((c >> 16) & 0xff) / 255.0;
  rgba->green = ((c >> 8) & 0xff) / 255.0;
  rgba->blue = (c & 0xff) / 255.0;
  rgba->alpha = 1.0;
}

static EtlSummary *
current_summary (EtlTimelineView *self, gint64 t0, gint64 t1)
{
  if (self->detail != NULL && self->summary != NULL &&
      etl_summary_get_mode (self->summary) != ETL_LANE_PROCESS &&
      etl_summary_get_n_lanes (self->detail) == etl_summary_get_n_lanes (self->summary) &&
      etl_summary_get_begin (self->detail) <= t0 &&
      etl_summary_get_end (self->detail) >= t1 &&
      etl_summary_get_bin_width (self->detail) < etl_summary_get_bin_width (self->summary))
    return self->detail;
  return self->summary;
}

static void
on_detail_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlTimelineView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSummary) detail = NULL;

  detail = etl_summary_new_finish (result, &error);
  if (detail == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not summarise the visible range: %s", error->message);
      return;
    }
  g_clear_pointer (&self->detail, etl_summary_unref);
  self->detail = g_steal_pointer (&detail);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
request_detail_cb (gpointer user_data)
{
  EtlTimelineView *self = user_data;
  gint64 t0, t1, span, lo, hi;

  self->detail_source = 0;
  if (self->trace == NULL || self->summary == NULL || self->zoom_manager == NULL)
    return G_SOURCE_REMOVE;

  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  span = t1 - t0;
  lo = MAX (t0 - span, etl_summary_get_begin (self->summary));
  hi = MIN (t1 + span, etl_summary_get_end (self->summary));
  if (hi <= lo)
    return G_SOURCE_REMOVE;

  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  self->detail_cancellable = g_cancellable_new ();
  etl_summary_new_async (self->trace, etl_summary_get_mode (self->summary), lo, hi,
                         DETAIL_BINS_LOG2, self->detail_cancellable,
                         on_detail_ready, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* Called when the range changed: asks for a finer summary when the
 * whole-trace one cannot resolve single pixels any more. */
static void
maybe_request_detail (EtlTimelineView *self)
{
  gint64 t0, t1;
  int axis_w = gtk_widget_get_allocated_width (GTK_WIDGET (self)) - ETL_LABEL_COLUMN_WIDTH;
  EtlSummary *s;

  if (self->summary == NULL || self->zoom_manager == NULL || axis_w <= 0)
    return;
  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  s = current_summary (self, t0, t1);
  if ((double) etl_summary_get_bin_width (s) * axis_w <= (double) (t1 - t0))
    return;
  if (s == self->detail)
    {
      /* The detail resolves this range well enough unless it is now much
       * coarser than a pixel. */
      if ((double) etl_summary_get_bin_width (s) * axis_w <= 4.0 * (t1 - t0))
        return;
    }
  if (self->detail_source != 0)
    g_source_remove (self->detail_source);
  self->detail_source = g_timeout_add (DETAIL_DELAY_MS, request_detail_cb, self);
}

static void
on_zoom_changed (EtlTimelineView *self, EtlZoomManager *zoom_manager)
{
  maybe_request_detail (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
fg_color (GtkWidget *widget, GdkRGBA *rgba)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  gtk_style_context_get_color (style, gtk_style_context_get_state (style), rgba);
}

/**
 * etl_timeline_view_get_lane_height:
 * @self: a timeline view
 * @height: the height the view is drawn at, pixels
 *
 * Returns: the height of one lane in pixels when drawn at @height
 */
int
etl_timeline_view_get_lane_height (EtlTimelineView *self, int height)
{
  guint n;

  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), MIN_LANE_HEIGHT);

  n = etl_timeline_view_get_n_lanes (self);
  if (n == 0)
    return MAX_LANE_HEIGHT;
  return CLAMP (height / (int) n, MIN_LANE_HEIGHT, MAX_LANE_HEIGHT);
}

static void
draw_placeholder (EtlTimelineView *self, cairo_t *cr, int width, int height, const char *text)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  GdkRGBA fg;
  int tw, th;

  fg_color (GTK_WIDGET (self), &fg);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.5);
  cairo_move_to (cr, (width - tw) / 2.0, (height - th) / 2.0);
  pango_cairo_show_layout (cr, layout);
}

/**
 * etl_timeline_view_render:
 * @self: a timeline view
 * @cr: a cairo context, for the widget or an image surface
 * @width: width in pixels, label column included
 * @height: height in pixels
 *
 * Draws the lanes.  Works on the summary only: O(lanes × columns), whatever
 * the number of events.  draw() calls this; tests call it on an image
 * surface.
 */
void
etl_timeline_view_render (EtlTimelineView *self, cairo_t *cr, int width, int height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style;
  g_autoptr (PangoLayout) layout = NULL;
  PangoFontDescription *small = NULL;
  EtlSummary *summary;
  GdkRGBA fg;
  gint64 t0, t1;
  guint n_lanes, axis_w;
  int lane_h;
  guint32 max_count = 1;
  double log_max;

  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (cr != NULL);

  style = gtk_widget_get_style_context (widget);
  gtk_render_background (style, cr, 0, 0, width, height);
  fg_color (widget, &fg);

  if (self->summary == NULL || self->zoom_manager == NULL)
    {
      draw_placeholder (self, cr, width, height,
                        self->trace != NULL ? "Summarising…" : "Open a trace file with Ctrl+O");
      return;
    }
  if (width <= ETL_LABEL_COLUMN_WIDTH)
    return;

  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  summary = current_summary (self, t0, t1);
  n_lanes = etl_summary_get_n_lanes (summary);
  lane_h = etl_timeline_view_get_lane_height (self, height);

  if (self->scratch_len < (gsize) n_lanes * axis_w)
    {
      self->scratch_len = (gsize) n_lanes * axis_w;
      self->counts = g_renew (guint32, self->counts, self->scratch_len);
      self->dominant = g_renew (guint16, self->dominant, self->scratch_len);
    }
  etl_summary_query (summary, t0, t1, axis_w, self->counts, self->dominant);
  for (gsize i = 0; i < (gsize) n_lanes * axis_w; i++)
    max_count = MAX (max_count, self->counts[i]);
  log_max = log1p ((double) MAX (max_count, 4));

  layout = gtk_widget_create_pango_layout (widget, NULL);
  small = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));
  pango_font_description_set_size (small, pango_font_description_get_size (small) * 4 / 5);

  for (guint lane = 0; lane < n_lanes; lane++)
    {
      double y = (double) lane * lane_h;
      const guint32 *counts = self->counts + (gsize) lane * axis_w;
      const guint16 *dominant = self->dominant + (gsize) lane * axis_w;
      double inner = lane_h - 6;
      double mid = y + lane_h / 2.0;
      g_autofree char *total = NULL;
      int th;

      if (y >= height)
        break;

      /* Alternate lane shading and the separator. */
      if (lane % 2 == 1)
        {
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.04);
          cairo_rectangle (cr, 0, y, width, lane_h);
          cairo_fill (cr);
        }
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.10);
      cairo_rectangle (cr, 0, y + lane_h - 1, width, 1);
      cairo_fill (cr);

      /* Label column: the lane's name and its event count. */
      pango_layout_set_font_description (layout, NULL);
      pango_layout_set_text (layout, etl_summary_get_lane_label (summary, lane), -1);
      pango_layout_set_width (layout, (ETL_LABEL_COLUMN_WIDTH - 16) * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_get_pixel_size (layout, NULL, &th);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.9);
      if (lane_h >= 2 * th + 2)
        {
          cairo_move_to (cr, 10, mid - th);
          pango_cairo_show_layout (cr, layout);
          guint64 n = etl_summary_get_lane_total (self->summary,
                                                  MIN (lane, etl_summary_get_n_lanes (self->summary) - 1));

          total = g_strdup_printf ("%'" G_GUINT64_FORMAT " %s", n, n == 1 ? "event" : "events");
          pango_layout_set_font_description (layout, small);
          pango_layout_set_text (layout, total, -1);
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
          cairo_move_to (cr, 10, mid);
          pango_cairo_show_layout (cr, layout);
        }
      else
        {
          cairo_move_to (cr, 10, mid - th / 2.0);
          pango_cairo_show_layout (cr, layout);
        }

      /* Events: at most one mark per pixel column. */
      for (guint col = 0; col < axis_w; col++)
        {
          guint32 c = counts[col];
          GdkRGBA color;
          double h, x;

          if (c == 0)
            continue;
          etl_timeline_view_get_provider_color (dominant[col], &color);
          x = ETL_LABEL_COLUMN_WIDTH + col;
          if (c <= 3)
            {
              h = inner * 0.7;
              cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.95);
            }
          else
            {
              double r = log1p ((double) c) / log_max;
              h = inner * (0.3 + 0.7 * r);
              cairo_set_source_rgba (cr, color.red, color.green, color.blue, 0.45 + 0.55 * r);
            }
          cairo_rectangle (cr, x, round (mid - h / 2.0), 1, round (h));
          cairo_fill (cr);
        }
    }

  /* The label column's edge. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH - 1, 0, 1, MIN (height, (int) n_lanes * lane_h));
  cairo_fill (cr);

  pango_font_description_free (small);
}

static gboolean
etl_timeline_view_draw (GtkWidget *widget, cairo_t *cr)
{
  etl_timeline_view_render (ETL_TIMELINE_VIEW (widget), cr,
                            gtk_widget_get_allocated_width (widget),
                            gtk_widget_get_allocated_height (widget));
  return GDK_EVENT_PROPAGATE;
}

static gboolean
lane_matches (EtlTimelineView *self, EtlSummary *summary, guint lane, guint64 i)
{
  guint id = etl_summary_get_lane_id (summary, lane);
  guint32 pid;

  switch (etl_summary_get_mode (summary))
    {
    case ETL_LANE_CPU:
      return etl_trace_get_cpu (self->trace, i) == id ||
             (lane + 1 == etl_summary_get_n_lanes (summary) && etl_trace_get_cpu (self->trace, i) > id);
    case ETL_LANE_PROVIDER:
      return MIN (etl_trace_get_provider_index (self->trace, i), G_MAXUINT16) == id;
    case ETL_LANE_PROCESS:
      if (!etl_trace_get_pid (self->trace, i, &pid))
        return id == ETL_SUMMARY_NO_PID;
      return pid == id;
    default:
      return FALSE;
    }
}

/**
 * etl_timeline_view_dup_tooltip_at:
 * @self: a timeline view
 * @x: pointer x, pixels from the view's left edge
 * @y: pointer y, pixels from the view's top edge
 * @width: the view's width, pixels
 * @height: the view's height, pixels
 *
 * Finds the record of the lane under the pointer nearest in time to @x,
 * within a few pixels, using the trace's index, and reads that one record to
 * name its provider and event.
 *
 * Returns: (transfer full) (nullable): Pango markup describing the record,
 *   or %NULL when there is none near
 */
char *
etl_timeline_view_dup_tooltip_at (EtlTimelineView *self, double x, double y, int width, int height)
{
  g_autofree char *provider = NULL;
  g_autofree char *event = NULL;
  g_autofree char *rel = NULL;
  g_autofree char *wall = NULL;
  g_autofree char *escaped_provider = NULL;
  g_autofree char *escaped_event = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GString) str = NULL;
  EtlRecord rec = { 0 };
  int axis_w, lane_h;
  guint lane, n_lanes;
  gint64 t, radius, best_dt = G_MAXINT64;
  guint64 n, start, best = G_MAXUINT64;

  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);

  if (self->trace == NULL || self->summary == NULL || self->zoom_manager == NULL)
    return NULL;
  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  if (axis_w <= 0 || x < ETL_LABEL_COLUMN_WIDTH)
    return NULL;
  n_lanes = etl_summary_get_n_lanes (self->summary);
  lane_h = etl_timeline_view_get_lane_height (self, height);
  if (y < 0 || y >= (double) lane_h * n_lanes)
    return NULL;
  lane = (guint) (y / lane_h);

  t = etl_zoom_manager_x_to_time (self->zoom_manager, x - ETL_LABEL_COLUMN_WIDTH, axis_w);
  radius = etl_zoom_manager_x_to_time (self->zoom_manager, TOOLTIP_RADIUS_PX, axis_w) -
           etl_zoom_manager_get_begin (self->zoom_manager);
  n = etl_trace_get_n_records (self->trace);
  start = etl_trace_lower_bound (self->trace, t);

  /* Scan outwards from the pointer's time, at most TOOLTIP_MAX_SCAN
   * entries each way: the index only, no record is read. */
  for (guint64 i = start, k = 0; i < n && k < TOOLTIP_MAX_SCAN; i++, k++)
    {
      gint64 dt = etl_trace_get_filetime (self->trace, i) - t;

      if (dt > radius || dt >= best_dt)
        break;
      if (lane_matches (self, self->summary, lane, i))
        {
          best = i;
          best_dt = dt;
          break;
        }
    }
  for (guint64 i = start, k = 0; i > 0 && k < TOOLTIP_MAX_SCAN; i--, k++)
    {
      gint64 dt = t - etl_trace_get_filetime (self->trace, i - 1);

      if (dt > radius || dt >= best_dt)
        break;
      if (lane_matches (self, self->summary, lane, i - 1))
        {
          best = i - 1;
          best_dt = dt;
          break;
        }
    }
  if (best == G_MAXUINT64)
    return NULL;

  if (!etl_trace_get_record (self->trace, best, &rec, &error))
    return g_markup_printf_escaped ("Record %" G_GUINT64_FORMAT ": %s", best, error->message);

  provider = etl_record_dup_provider_name (&rec);
  event = etl_record_dup_event_name (&rec);
  escaped_provider = g_markup_escape_text (provider ? provider : "?", -1);
  escaped_event = g_markup_escape_text (event ? event : "?", -1);
  rel = g_strdup_printf ("%.4f ms", (rec.filetime - etl_trace_get_origin (self->trace)) / 1e4);
  wall = etl_time_format_wall_clock (rec.filetime, 1, FALSE, TRUE);

  str = g_string_new (NULL);
  g_string_append_printf (str, "<b>%s</b> / %s\n", escaped_provider, escaped_event);
  g_string_append_printf (str, "%s · %s\n", rel, wall);
  if (rec.has_pid)
    g_string_append_printf (str, "PID %u · TID %u · ", rec.pid, rec.tid);
  g_string_append_printf (str, "CPU %u · record %" G_GUINT64_FORMAT, rec.cpu, best);
  etl_record_clear (&rec);

  return g_string_free (g_steal_pointer (&str), FALSE);
}

static gboolean
etl_timeline_view_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  g_autofree char *markup = NULL;

  if (keyboard)
    return FALSE;
  markup = etl_timeline_view_dup_tooltip_at (ETL_TIMELINE_VIEW (widget), x, y,
                                             gtk_widget_get_allocated_width (widget),
                                             gtk_widget_get_allocated_height (widget));
  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static gboolean
etl_timeline_view_scroll_event (GtkWidget *widget, GdkEventScroll *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);
  int axis_w = gtk_widget_get_allocated_width (widget) - ETL_LABEL_COLUMN_WIDTH;
  double dx = 0, dy = 0;
  gint64 t0, t1;

  if (self->zoom_manager == NULL || axis_w <= 0)
    return GDK_EVENT_PROPAGATE;

  switch (event->direction)
    {
    case GDK_SCROLL_UP: dy = -1; break;
    case GDK_SCROLL_DOWN: dy = 1; break;
    case GDK_SCROLL_LEFT: dx = -1; break;
    case GDK_SCROLL_RIGHT: dx = 1; break;
    case GDK_SCROLL_SMOOTH: gdk_event_get_scroll_deltas ((GdkEvent *) event, &dx, &dy); break;
    default: break;
    }

  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  if (event->state & GDK_CONTROL_MASK)
    {
      gint64 center = etl_zoom_manager_x_to_time (self->zoom_manager,
                                                  MAX (event->x - ETL_LABEL_COLUMN_WIDTH, 0), axis_w);
      etl_zoom_manager_zoom_around (self->zoom_manager, center, pow (1.25, dy != 0 ? dy : dx));
    }
  else
    {
      /* Vertical and horizontal scrolling both pan through time. */
      etl_zoom_manager_pan (self->zoom_manager, (gint64) ((dx + dy) * 0.1 * (t1 - t0)));
    }
  return GDK_EVENT_STOP;
}

static gboolean
etl_timeline_view_button_press_event (GtkWidget *widget, GdkEventButton *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);

  gtk_widget_grab_focus (widget);
  if (event->button == GDK_BUTTON_PRIMARY && event->type == GDK_BUTTON_PRESS && self->zoom_manager != NULL)
    {
      self->dragging = TRUE;
      self->drag_x = event->x;
      etl_zoom_manager_get_visible (self->zoom_manager, &self->drag_begin, &self->drag_end);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

static gboolean
etl_timeline_view_motion_notify_event (GtkWidget *widget, GdkEventMotion *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);
  int axis_w = gtk_widget_get_allocated_width (widget) - ETL_LABEL_COLUMN_WIDTH;
  gint64 delta;

  if (!self->dragging || axis_w <= 0)
    return GDK_EVENT_PROPAGATE;
  delta = (gint64) ((event->x - self->drag_x) * (double) (self->drag_end - self->drag_begin) / axis_w);
  etl_zoom_manager_set_visible (self->zoom_manager, self->drag_begin - delta, self->drag_end - delta);
  return GDK_EVENT_STOP;
}

static gboolean
etl_timeline_view_button_release_event (GtkWidget *widget, GdkEventButton *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);

  if (event->button == GDK_BUTTON_PRIMARY)
    self->dragging = FALSE;
  return GDK_EVENT_PROPAGATE;
}

static gboolean
etl_timeline_view_key_press_event (GtkWidget *widget, GdkEventKey *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);
  gint64 t0, t1;
  double fraction = (event->state & GDK_SHIFT_MASK) ? 0.5 : 0.1;

  if (self->zoom_manager == NULL)
    return GDK_EVENT_PROPAGATE;
  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  switch (event->keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      etl_zoom_manager_pan (self->zoom_manager, (gint64) (-fraction * (t1 - t0)));
      return GDK_EVENT_STOP;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      etl_zoom_manager_pan (self->zoom_manager, (gint64) (fraction * (t1 - t0)));
      return GDK_EVENT_STOP;
    default:
      break;
    }
  return GTK_WIDGET_CLASS (etl_timeline_view_parent_class)->key_press_event (widget, event);
}

static void
etl_timeline_view_size_allocate (GtkWidget *widget, GtkAllocation *allocation)
{
  GTK_WIDGET_CLASS (etl_timeline_view_parent_class)->size_allocate (widget, allocation);
  maybe_request_detail (ETL_TIMELINE_VIEW (widget));
}

static void
etl_timeline_view_get_preferred_height (GtkWidget *widget, int *min, int *nat)
{
  guint n = MAX (etl_timeline_view_get_n_lanes (ETL_TIMELINE_VIEW (widget)), 4);

  *min = n * MIN_LANE_HEIGHT;
  *nat = n * 44;
}

static void
etl_timeline_view_dispose (GObject *object)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (object);

  if (self->detail_source != 0)
    {
      g_source_remove (self->detail_source);
      self->detail_source = 0;
    }
  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->detail_cancellable);
  etl_timeline_view_set_zoom_manager (self, NULL);
  g_clear_pointer (&self->summary, etl_summary_unref);
  g_clear_pointer (&self->detail, etl_summary_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);

  G_OBJECT_CLASS (etl_timeline_view_parent_class)->dispose (object);
}

static void
etl_timeline_view_finalize (GObject *object)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (object);

  g_free (self->counts);
  g_free (self->dominant);

  G_OBJECT_CLASS (etl_timeline_view_parent_class)->finalize (object);
}

static void
etl_timeline_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_ZOOM_MANAGER:
      g_value_set_object (value, self->zoom_manager);
      break;

    case PROP_N_LANES:
      g_value_set_uint (value, etl_timeline_view_get_n_lanes (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_timeline_view_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (object);

  switch (prop_id)
    {
    case PROP_ZOOM_MANAGER:
      etl_timeline_view_set_zoom_manager (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
etl_timeline_view_class_init (EtlTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_timeline_view_dispose;
  object_class->finalize = etl_timeline_view_finalize;
  object_class->get_property = etl_timeline_view_get_property;
  object_class->set_property = etl_timeline_view_set_property;

  widget_class->draw = etl_timeline_view_draw;
  widget_class->query_tooltip = etl_timeline_view_query_tooltip;
  widget_class->scroll_event = etl_timeline_view_scroll_event;
  widget_class->button_press_event = etl_timeline_view_button_press_event;
  widget_class->button_release_event = etl_timeline_view_button_release_event;
  widget_class->motion_notify_event = etl_timeline_view_motion_notify_event;
  widget_class->key_press_event = etl_timeline_view_key_press_event;
  widget_class->size_allocate = etl_timeline_view_size_allocate;
  widget_class->get_preferred_height = etl_timeline_view_get_preferred_height;

  /**
   * EtlTimelineView:zoom-manager:
   *
   * The shared visible range.
   */
  properties[PROP_ZOOM_MANAGER] =
    g_param_spec_object ("zoom-manager", "Zoom manager", "The shared visible range",
                         ETL_TYPE_ZOOM_MANAGER,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlTimelineView:n-lanes:
   *
   * Lanes drawn: 0 until a summary is ready.
   */
  properties[PROP_N_LANES] =
    g_param_spec_uint ("n-lanes", "Lanes", "Number of lanes",
                       0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "etltimelineview");
}

static void
etl_timeline_view_init (EtlTimelineView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_set_can_focus (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_add_events (widget,
                         GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
                         GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK |
                         GDK_SMOOTH_SCROLL_MASK | GDK_KEY_PRESS_MASK);
}

/**
 * etl_timeline_view_new:
 * @zoom_manager: (nullable): the shared visible range
 *
 * Returns: (transfer floating): a new timeline view
 */
GtkWidget *
etl_timeline_view_new (EtlZoomManager *zoom_manager)
{
  return g_object_new (ETL_TYPE_TIMELINE_VIEW, "zoom-manager", zoom_manager, NULL);
}

/**
 * etl_timeline_view_get_zoom_manager:
 * @self: a timeline view
 *
 * Returns: (transfer none) (nullable): the zoom manager
 */
EtlZoomManager *
etl_timeline_view_get_zoom_manager (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  return self->zoom_manager;
}

/**
 * etl_timeline_view_set_zoom_manager:
 * @self: a timeline view
 * @zoom_manager: (nullable): the shared visible range
 */
void
etl_timeline_view_set_zoom_manager (EtlTimelineView *self, EtlZoomManager *zoom_manager)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (etl_zoom_manager_follow (GTK_WIDGET (self), &self->zoom_manager, &self->changed_handler, zoom_manager,
                               G_CALLBACK (on_zoom_changed)))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_MANAGER]);
}

static void
set_summary (EtlTimelineView *self, EtlSummary *summary)
{
  guint old = etl_timeline_view_get_n_lanes (self);

  g_clear_pointer (&self->detail, etl_summary_unref);
  g_clear_pointer (&self->summary, etl_summary_unref);
  if (summary != NULL)
    self->summary = etl_summary_ref (summary);
  if (old != etl_timeline_view_get_n_lanes (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_LANES]);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  maybe_request_detail (self);
}

static void
on_summary_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlTimelineView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSummary) summary = NULL;

  summary = etl_summary_new_finish (result, &error);
  if (summary == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not summarise the trace: %s", error->message);
      return;
    }
  set_summary (self, summary);
}

/**
 * etl_timeline_view_set_trace:
 * @self: a timeline view
 * @trace: (nullable): the trace to show
 * @summary: (nullable): a whole-trace summary of @trace, if one was built
 *   already (by the loading worker); otherwise one per processor is built in
 *   a worker thread and shown when ready
 *
 * Shows @trace.  The zoom manager's bounds are left to the caller.
 */
void
etl_timeline_view_set_trace (EtlTimelineView *self, EtlTrace *trace, EtlSummary *summary)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);

  if (trace != NULL)
    etl_trace_ref (trace);
  g_clear_pointer (&self->trace, etl_trace_unref);
  self->trace = trace;

  set_summary (self, summary);
  if (trace != NULL && summary == NULL)
    {
      self->cancellable = g_cancellable_new ();
      etl_summary_new_async (trace, ETL_LANE_CPU, 0, 0, 16, self->cancellable,
                             on_summary_ready, g_object_ref (self));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_timeline_view_get_trace:
 * @self: a timeline view
 *
 * Returns: (transfer none) (nullable): the trace shown
 */
EtlTrace *
etl_timeline_view_get_trace (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  return self->trace;
}

/**
 * etl_timeline_view_get_summary:
 * @self: a timeline view
 *
 * Returns: (transfer none) (nullable): the whole-trace summary drawn
 */
EtlSummary *
etl_timeline_view_get_summary (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  return self->summary;
}

/**
 * etl_timeline_view_get_n_lanes:
 * @self: a timeline view
 *
 * Returns: lanes drawn, 0 while no summary is ready
 */
guint
etl_timeline_view_get_n_lanes (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), 0);
  return self->summary != NULL ? etl_summary_get_n_lanes (self->summary) : 0;
}
