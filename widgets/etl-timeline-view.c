/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-timeline-view
 * @title: EtlTimelineView
 * @short_description: events of a trace as lanes over time
 *
 * One lane per processor, provider or process (#EtlTimelineView:lane-mode),
 * with a label column on the left and the visible range of an
 * #EtlZoomManager across the rest.  Each pixel column of a lane shows what
 * the summary counted there: a thin mark coloured by the dominant provider
 * where there are one to three events, a bar whose height and opacity grow
 * with the logarithm of the count where there are more.
 *
 * draw() never visits events: it asks the summary for per-column counts in
 * O(lanes × columns) and draws at most one mark per pixel column per lane.
 * The summaries are built in worker threads (#GTask, cancellable) from the
 * trace's index and the #EtlRowSet the view shows
 * (etl_timeline_view_set_rows()): a new row set or lane mode cancels the
 * build in flight, and requests made before the main loop runs again
 * collapse into one.  When the view is zoomed in so far that the summary's
 * finest bins are wider than a pixel, a finer summary of the neighbourhood
 * is built the same way and swapped in when ready.
 *
 * Pointer and keys:
 * - a click selects the record nearest to the pointer in the lane under it
 *   (#EtlTimelineView::event-selected), found from the index around the
 *   clicked time — a bounded number of rows, filtered by lane and row set;
 * - a drag with the primary button selects a time range, drawn translucent
 *   with its record count and duration (#EtlTimelineView::range-selected);
 *   Z (action "timeline.zoom-to-selection") zooms to it, Escape clears it;
 * - Shift+drag or a middle-button drag pans, as do scrolling (Shift+scroll
 *   when the lanes overflow their scrolled pane, where scrolling moves the
 *   lanes) and the arrow
 *   keys (Shift: by half the range);
 * - Ctrl+scroll zooms about the pointer, + and − about the centre, and so
 *   does a pinch on a touchpad or touchscreen.
 *
 * The view inserts a #GActionGroup under the prefix "timeline" on itself:
 * "zoom-to-selection" (enabled while a range is selected), "lane-mode",
 * a stateful string action ("cpu", "provider" or "process"), and
 * "hide-empty-lanes", a stateful boolean (#EtlTimelineView:hide-empty-lanes),
 * and "go-to-waker" (enabled while a wait with a ReadyThread is selected).
 *
 * Process mode's thread lanes draw the thread's states under the marks
 * (etl-thread-lanes.c): #EtlThreadStates, built in a worker when Process
 * mode is entered.  A click on a wait with no event near selects it (and an
 * arrow goes from its end to the readying thread's lane); W, the action or
 * the context menu of a secondary click selects that ReadyThread record.
 *
 * With #EtlTimelineView:hide-empty-lanes the lanes without an event in the
 * visible range are left out (a process lane stays while one of its thread
 * lanes has events).  Which are empty comes from the same per-column summary
 * query draw() makes, redone when the visible range, the summary or the
 * width changes: no record is visited.  Lane numbers in the API
 * (etl_timeline_view_get_n_lanes(), etl_timeline_view_get_lane_label(),
 * etl_timeline_view_get_lane_of_row()) count the lanes drawn.
 *
 * The tooltip describes the record nearest to the pointer in its lane, read
 * with etl_trace_get_record() for that record only.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>
#include <string.h>

#include "etl-column-strip.h"
#include "etl-gallop.h"
#include "etl-names.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"
#include "etl-worker.h"

#include "etl-cpu-segments.h"
#include "etl-thread-lanes.h"

#define DETAIL_BINS_LOG2 16
#define DETAIL_DELAY_MS 80
#define SUMMARY_BINS_LOG2 16
#define TOOLTIP_RADIUS_PX 4
#define TOOLTIP_FIELDS 6
#define CLICK_RADIUS_PX 10
#define NEAREST_MAX_SCAN 50000
#define DRAG_THRESHOLD_PX 3
#define MAX_LANE_HEIGHT 112
#define MIN_LANE_HEIGHT 14
/* Opacity steps of the bars; marks of one colour and step are one path. */
#define N_ALPHA_STEPS 16

#define HELP_TEXT \
  "Click: select the nearest event · Drag: select a time range\n" \
  "Shift+drag or middle-drag, scroll, ←/→: pan\n" \
  "Ctrl+scroll, +/−, pinch: zoom · Z: zoom to the selection · Esc: clear it\n" \
  "Click a thread's wait: the arrow to its waker · W: go to the waker"

typedef enum
{
  DRAG_NONE,
  DRAG_CLICK,  /* primary pressed, not moved yet: a click or a selection */
  DRAG_SELECT, /* selecting a range */
  DRAG_PAN,
} DragMode;

struct _EtlTimelineView
{
  GtkDrawingArea parent_instance;

  EtlZoomManager *zoom_manager;
  gulong changed_handler;

  EtlTrace *trace;
  EtlRowSet *rows;         /* NULL: every row */
  EtlLaneMode lane_mode;
  GArray *expanded;                 /* guint32 pids whose threads have lanes */
  EtlCpuSegments *segments;         /* CPU mode: who ran when (NULL: no CSwitch) */
  EtlTimelineProcessColorFunc process_color; /* the segments' colours, or NULL */
  gpointer process_color_data;
  GDestroyNotify process_color_destroy;
  GCancellable *segments_cancellable; /* their build in flight */
  EtlThreadStates *thread_states;   /* Process mode's thread lanes (NULL: none) */
  GCancellable *states_cancellable; /* their build in flight */
  guint32 wait_tid;                 /* the selected wait's thread */
  guint wait_index;                 /* its index, ETL_THREAD_LANES_NONE: none */
  EtlSummary *summary;
  EtlSummary *detail;
  GCancellable *cancellable;        /* the whole-range build in flight */
  GCancellable *detail_cancellable; /* the detail build in flight */
  guint rebuild_source;
  guint detail_source;
  int axis_w;                       /* last drawn or allocated axis width */

  /* The lanes drawn: summary lanes, in order (all of them unless
   * hide_empty), for the summary, range and width they were computed for. */
  gboolean hide_empty;
  GArray *shown;                    /* guint */
  gboolean shown_valid;
  EtlSummary *shown_summary;        /* not a reference: only compared */
  gint64 shown_t0, shown_t1;
  int shown_axis_w;
  guint shown_notified;             /* n-lanes last notified */

  GSimpleActionGroup *actions;
  GtkGesture *zoom_gesture;
  gint64 pinch_begin;
  gint64 pinch_end;
  double pinch_x;

  /* Scratch for etl_summary_query() and a lane's marks, reused. */
  guint32 *counts;
  guint16 *dominant;
  gsize scratch_len;
  cairo_surface_t *marks;

  /* The selected record and time range. */
  guint64 selected_row;
  gint64 sel_begin;
  gint64 sel_end;
  guint64 sel_count;
  gboolean has_selection;

  /* Pointer. */
  DragMode drag_mode;
  double press_x;
  gint64 anchor;
  gint64 drag_begin;
  gint64 drag_end;
};

enum {
  PROP_0,
  PROP_ZOOM_MANAGER,
  PROP_N_LANES,
  PROP_LANE_MODE,
  PROP_HIDE_EMPTY_LANES,
  N_PROPS
};

enum {
  EVENT_SELECTED,
  RANGE_SELECTED,
  N_SIGNALS
};

G_DEFINE_TYPE (EtlTimelineView, etl_timeline_view, GTK_TYPE_DRAWING_AREA)

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* A qualitative palette (Tango-derived) for providers; the theme supplies
 * every other colour. */
static const guint32 provider_palette[] = {
  0x3465a4, 0xf57900, 0x4e9a06, 0xcc0000, 0x75507b, 0xc17d11,
  0x06989a, 0xedd400, 0x729fcf, 0xad7fa8, 0x8ae234, 0xef2929,
};
#define N_PALETTE G_N_ELEMENTS (provider_palette)

static void schedule_rebuild (EtlTimelineView *self);
static void start_thread_states (EtlTimelineView *self);
static guint state_at_pointer (EtlTimelineView *self, double x, double y, int width, int height, guint32 *tid);

/* State @index of thread @tid, as state_at_pointer() found it. */
static const EtlThreadState *
state_of (EtlTimelineView *self, guint32 tid, guint index)
{
  guint n;

  return etl_thread_states_get (self->thread_states, tid, &n) + index;
}
static void ensure_scratch (EtlTimelineView *self, guint n_lanes, guint axis_w);
static void update_actions (EtlTimelineView *self);

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
  guint32 c = provider_palette[provider_index % N_PALETTE];

  rgba->red = ((c >> 16) & 0xff) / 255.0;
  rgba->green = ((c >> 8) & 0xff) / 255.0;
  rgba->blue = (c & 0xff) / 255.0;
  rgba->alpha = 1.0;
}

/* Rows the view shows: positions 0 … n_positions − 1 of the row set (or of
 * the trace), ascending in time like the trace's merged sequence. */
static guint64
n_positions (EtlTimelineView *self)
{
  g_assert (self->trace != NULL);
  if (self->rows != NULL && !etl_row_set_is_all (self->rows))
    return etl_row_set_get_n (self->rows);
  return etl_trace_get_n_records (self->trace);
}

static guint64
row_at_position (EtlTimelineView *self, guint64 position)
{
  if (self->rows != NULL && !etl_row_set_is_all (self->rows))
    return etl_row_set_get (self->rows, position);
  return position;
}

/* The first position whose row's FILETIME is ≥ @filetime: O(log n). */
static guint64
position_of_time (EtlTimelineView *self, gint64 filetime)
{
  guint64 row = etl_trace_lower_bound (self->trace, filetime);

  if (self->rows != NULL && !etl_row_set_is_all (self->rows))
    return etl_row_set_find (self->rows, row);
  return row;
}

/* Records shown in [begin, end): two binary searches, no record visited. */
static guint64
count_range (EtlTimelineView *self, gint64 begin, gint64 end)
{
  if (self->trace == NULL || end <= begin)
    return 0;
  return position_of_time (self, end) - position_of_time (self, begin);
}

/* The lane of @summary that holds @row, as etl_summary_new() assigns it. */
static guint
lane_of_row (EtlTimelineView *self, EtlSummary *summary, guint64 row)
{
  guint n = etl_summary_get_n_lanes (summary);

  switch (etl_summary_get_mode (summary))
    {
    case ETL_LANE_CPU:
      return MIN (etl_trace_get_cpu (self->trace, row), n - 1);

    case ETL_LANE_PROVIDER:
      return MIN (etl_trace_get_provider_index (self->trace, row), n - 1);

    case ETL_LANE_PROCESS:
      /* Ordered by count, and records attributed through their thread:
       * the summary knows. */
      return etl_summary_get_lane_of_row (summary, self->trace, row);

    default:
      g_assert_not_reached ();
    }
  return 0;
}

/* The row of @lane nearest in time to @t, at most @radius ticks away,
 * scanning at most NEAREST_MAX_SCAN positions each way from @t: the index
 * only, no record is read. */
static guint64
find_nearest (EtlTimelineView *self, guint lane, gint64 t, gint64 radius)
{
  guint64 n = n_positions (self);
  guint64 start = position_of_time (self, t);
  guint64 best = ETL_TIMELINE_NO_ROW;
  gint64 best_dt = G_MAXINT64;

  for (guint64 k = start, c = 0; k < n && c < NEAREST_MAX_SCAN; k++, c++)
    {
      guint64 row = row_at_position (self, k);
      gint64 dt = etl_trace_get_filetime (self->trace, row) - t;

      if (dt > radius)
        break;
      if (lane_of_row (self, self->summary, row) == lane)
        {
          best = row;
          best_dt = dt;
          break;
        }
    }
  for (guint64 k = start, c = 0; k > 0 && c < NEAREST_MAX_SCAN; k--, c++)
    {
      guint64 row = row_at_position (self, k - 1);
      gint64 dt = t - etl_trace_get_filetime (self->trace, row);

      if (dt > radius || dt >= best_dt)
        break;
      if (lane_of_row (self, self->summary, row) == lane)
        {
          best = row;
          break;
        }
    }
  return best;
}

static EtlSummary *
current_summary (EtlTimelineView *self, gint64 t0, gint64 t1)
{
  if (self->detail != NULL && self->summary != NULL &&
      etl_summary_get_mode (self->summary) != ETL_LANE_PROCESS &&
      etl_summary_get_mode (self->detail) == etl_summary_get_mode (self->summary) &&
      etl_summary_get_n_lanes (self->detail) == etl_summary_get_n_lanes (self->summary) &&
      etl_summary_get_begin (self->detail) <= t0 &&
      etl_summary_get_end (self->detail) >= t1 &&
      etl_summary_get_bin_width (self->detail) < etl_summary_get_bin_width (self->summary))
    return self->detail;
  return self->summary;
}

/* Brings self->shown up to date for the current summary, visible range and
 * width; returns TRUE when the number of lanes drawn changed.  Hidden lanes
 * are those whose columns of etl_summary_query() are all empty (what draw()
 * would leave blank). */
static gboolean
shown_update (EtlTimelineView *self)
{
  guint old = self->shown != NULL && self->shown_valid ? self->shown->len : G_MAXUINT;
  EtlSummary *summary;
  gint64 t0 = 0, t1 = 0;
  guint n;

  if (self->summary == NULL)
    {
      g_array_set_size (self->shown, 0);
      self->shown_valid = TRUE;
      self->shown_summary = NULL;
      return old != 0;
    }
  if (self->zoom_manager != NULL)
    etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  summary = current_summary (self, t0, t1);
  if (self->shown_valid && self->shown_summary == summary && self->shown_t0 == t0 && self->shown_t1 == t1 &&
      self->shown_axis_w == self->axis_w)
    return FALSE;
  self->shown_valid = TRUE;
  self->shown_summary = summary;
  self->shown_t0 = t0;
  self->shown_t1 = t1;
  self->shown_axis_w = self->axis_w;

  n = etl_summary_get_n_lanes (summary);
  g_array_set_size (self->shown, 0);
  if (!self->hide_empty || self->zoom_manager == NULL || t1 <= t0)
    {
      for (guint lane = 0; lane < n; lane++)
        g_array_append_val (self->shown, lane);
    }
  else
    {
      guint cols = self->axis_w > 0 ? (guint) self->axis_w : 1024;
      const guint32 *counts;
      g_autofree gboolean *keep = g_new0 (gboolean, n);
      gboolean process = etl_summary_get_mode (summary) == ETL_LANE_PROCESS;
      guint parent = G_MAXUINT;

      /* draw()'s scratch: it queries the same range again right after. */
      ensure_scratch (self, n, cols);
      etl_summary_query (summary, t0, t1, cols, self->counts, NULL);
      counts = self->counts;
      for (guint lane = 0; lane < n; lane++)
        {
          const guint32 *c = counts + (gsize) lane * cols;
          gboolean thread = process && etl_summary_get_lane_is_thread (summary, lane);

          if (!thread)
            parent = lane;
          for (guint col = 0; col < cols && !keep[lane]; col++)
            keep[lane] = c[col] != 0;
          /* A thread with events keeps its process's lane (its header). */
          if (thread && keep[lane] && parent != G_MAXUINT)
            keep[parent] = TRUE;
        }
      for (guint lane = 0; lane < n; lane++)
        if (keep[lane])
          g_array_append_val (self->shown, lane);
    }
  return old != self->shown->len;
}

/* shown_update(), then tells the size and n-lanes when the count changed. */
static void
shown_refresh (EtlTimelineView *self)
{
  shown_update (self);
  if (self->shown->len != self->shown_notified)
    {
      self->shown_notified = self->shown->len;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_LANES]);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

/* The summary lane drawn @index-th, G_MAXUINT when there is none. */
static guint
shown_lane (EtlTimelineView *self, guint index)
{
  shown_update (self);
  return index < self->shown->len ? g_array_index (self->shown, guint, index) : G_MAXUINT;
}

/* Where summary lane @lane is drawn, G_MAXUINT when hidden. */
static guint
shown_index (EtlTimelineView *self, guint lane)
{
  guint lo = 0, hi;

  shown_update (self);
  hi = self->shown->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      guint v = g_array_index (self->shown, guint, mid);

      if (v == lane)
        return mid;
      if (v < lane)
        lo = mid + 1;
      else
        hi = mid;
    }
  return G_MAXUINT;
}

static gboolean
task_is_current (GAsyncResult *result, GCancellable *current)
{
  return current != NULL && g_task_get_cancellable (G_TASK (result)) == current;
}

static void
on_detail_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlTimelineView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSummary) detail = NULL;
  gboolean current = task_is_current (result, self->detail_cancellable);

  detail = etl_summary_new_finish (result, &error);
  if (!current)
    return;
  g_clear_object (&self->detail_cancellable);
  if (detail == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not summarise the visible range: %s", error->message);
      return;
    }
  g_clear_pointer (&self->detail, etl_summary_unref);
  self->detail = g_steal_pointer (&detail);
  self->shown_valid = FALSE;
  shown_refresh (self);
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
  etl_summary_new_async (self->trace, self->rows, etl_summary_get_mode (self->summary), lo, hi,
                         DETAIL_BINS_LOG2, self->detail_cancellable,
                         on_detail_ready, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* Whether the summaries at hand cannot resolve single pixels of the visible
 * range any more. */
static gboolean
detail_wanted (EtlTimelineView *self)
{
  gint64 t0, t1;
  EtlSummary *s;

  if (self->summary == NULL || self->zoom_manager == NULL || self->axis_w <= 0 ||
      etl_summary_get_mode (self->summary) == ETL_LANE_PROCESS)
    return FALSE;
  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  s = current_summary (self, t0, t1);
  if ((double) etl_summary_get_bin_width (s) * self->axis_w <= (double) (t1 - t0))
    return FALSE;
  /* The detail resolves this range well enough unless it is now much
   * coarser than a pixel. */
  if (s == self->detail &&
      (double) etl_summary_get_bin_width (s) * self->axis_w <= 4.0 * (t1 - t0))
    return FALSE;
  return TRUE;
}

/* Called when the range changed: asks for a finer summary when needed, once
 * the range has stopped changing for DETAIL_DELAY_MS. */
static void
maybe_request_detail (EtlTimelineView *self)
{
  if (!detail_wanted (self))
    return;
  if (self->detail_source != 0)
    g_source_remove (self->detail_source);
  self->detail_source = g_timeout_add (DETAIL_DELAY_MS, request_detail_cb, self);
}

static void
on_zoom_changed (EtlTimelineView *self, EtlZoomManager *zoom_manager)
{
  maybe_request_detail (self);
  if (self->hide_empty)
    shown_refresh (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
fg_color (GtkWidget *widget, GdkRGBA *rgba)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  gtk_style_context_get_color (style, gtk_style_context_get_state (style), rgba);
}

/* The theme's selection colour. */
static void
selection_color (GtkWidget *widget, GdkRGBA *rgba)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  if (!gtk_style_context_lookup_color (style, "theme_selected_bg_color", rgba) &&
      !gtk_style_context_lookup_color (style, "selected_bg_color", rgba))
    gdk_rgba_parse (rgba, "#3584e4");
}

/* The theme's window background, for the label behind the range's text. */
static void
bg_color (GtkWidget *widget, GdkRGBA *rgba)
{
  GtkStyleContext *style = gtk_widget_get_style_context (widget);

  if (!gtk_style_context_lookup_color (style, "theme_base_color", rgba) &&
      !gtk_style_context_lookup_color (style, "theme_bg_color", rgba))
    gdk_rgba_parse (rgba, "#ffffff");
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

static void
ensure_scratch (EtlTimelineView *self, guint n_lanes, guint axis_w)
{
  if (self->scratch_len < (gsize) n_lanes * axis_w)
    {
      self->scratch_len = (gsize) n_lanes * axis_w;
      self->counts = g_renew (guint32, self->counts, self->scratch_len);
      self->dominant = g_renew (guint16, self->dominant, self->scratch_len);
    }
}

/* The premultiplied pixel of a mark of palette colour @palette at opacity
 * step @step (0: a count of 1–3, drawn at 0.95; 1 … N_ALPHA_STEPS: from
 * 0.45 up with the count's logarithm). */
static guint32
mark_pixel (guint palette, guint step)
{
  static guint32 table[N_PALETTE * (N_ALPHA_STEPS + 1)];
  static gsize ready = 0;

  if (g_once_init_enter (&ready))
    {
      for (guint k = 0; k < G_N_ELEMENTS (table); k++)
        {
          guint st = k % (N_ALPHA_STEPS + 1);
          GdkRGBA c;

          etl_timeline_view_get_provider_color (k / (N_ALPHA_STEPS + 1), &c);
          table[k] = etl_column_strip_pixel (c.red, c.green, c.blue,
                                             st == 0 ? 0.95 : 0.45 + 0.55 * (double) st / N_ALPHA_STEPS);
        }
      g_once_init_leave (&ready, 1);
    }
  return table[(palette % N_PALETTE) * (N_ALPHA_STEPS + 1) + MIN (step, N_ALPHA_STEPS)];
}

/* The marks of one lane, columns [c0, c1): at most one per column, a bar
 * centred on @mid, @inner high at most, whose height and opacity grow with
 * the logarithm of the column's count, in the colour of its dominant
 * provider.  The bars lie on whole pixels: they are written as pixels into
 * a scratch image and composited once a lane (cairo paths of one rectangle
 * per column, one fill per colour, were two thirds of a frame's time). */
static void
draw_lane_marks (EtlTimelineView *self, cairo_t *cr, const guint32 *counts, const guint16 *dominant,
                 guint c0, guint c1, double mid, double inner, double log_max)
{
  int w = (int) (c1 - c0);
  int top = (int) floor (mid - inner / 2.0 + 0.5) - 1;
  int rows = (int) ceil (inner) + 3;
  gboolean any = FALSE;
  guint32 *px;
  int stride;

  if (w <= 0 || inner <= 0)
    return;
  if (self->marks == NULL || cairo_image_surface_get_width (self->marks) < w ||
      cairo_image_surface_get_height (self->marks) < rows)
    {
      g_clear_pointer (&self->marks, cairo_surface_destroy);
      self->marks = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, rows);
    }
  cairo_surface_flush (self->marks);
  px = (guint32 *) (gpointer) cairo_image_surface_get_data (self->marks);
  stride = cairo_image_surface_get_stride (self->marks) / 4;
  if (px == NULL)
    return;
  for (int r = 0; r < rows; r++)
    memset (px + (gsize) r * stride, 0, (gsize) w * 4);
  for (guint col = c0; col < c1; col++)
    {
      guint32 c = counts[col], pixel;
      double ratio = 0, h;
      int r0, r1;
      guint step = 0;

      if (c == 0)
        continue;
      if (c > 3)
        {
          ratio = log1p ((double) c) / log_max;
          step = 1 + MIN ((guint) (ratio * N_ALPHA_STEPS), N_ALPHA_STEPS - 1);
        }
      h = step == 0 ? inner * 0.7 : inner * (0.3 + 0.7 * ratio);
      r0 = (int) floor (mid - h / 2.0 + 0.5) - top;
      r1 = r0 + (int) floor (h + 0.5);
      r0 = MAX (r0, 0);
      r1 = MIN (r1, rows);
      pixel = mark_pixel (dominant[col], step);
      for (int r = r0; r < r1; r++)
        px[(gsize) r * stride + (col - c0)] = pixel;
      any = TRUE;
    }
  if (!any)
    return;
  cairo_surface_mark_dirty (self->marks);
  cairo_save (cr);
  cairo_set_source_surface (cr, self->marks, ETL_LABEL_COLUMN_WIDTH + c0, top);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH + c0, top, w, rows);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* In the unit that suits the size: µs, ms, s, min, h. */
static char *
format_duration (gint64 ticks)
{
  return etl_time_format_span (ticks);
}

/* The selected range: translucent over the lanes, edges, and a label with
 * its record count and duration at the top. */
static void
draw_selection (EtlTimelineView *self, cairo_t *cr, PangoLayout *layout, int width, int lanes_h,
                guint axis_w)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autofree char *text = NULL;
  g_autofree char *duration = NULL;
  GdkRGBA sel, fg, bg;
  double x0, x1;
  gint64 span = self->sel_end - self->sel_begin;
  int tw, th;
  double lx, pad = 3;

  x0 = ETL_LABEL_COLUMN_WIDTH + etl_zoom_manager_time_to_x (self->zoom_manager, self->sel_begin, axis_w);
  x1 = ETL_LABEL_COLUMN_WIDTH + etl_zoom_manager_time_to_x (self->zoom_manager, self->sel_end, axis_w);
  if (x1 < ETL_LABEL_COLUMN_WIDTH || x0 > width)
    return;
  x0 = floor (MAX (x0, ETL_LABEL_COLUMN_WIDTH));
  x1 = ceil (MIN (x1, width));
  x1 = MAX (x1, x0 + 1);

  selection_color (widget, &sel);
  fg_color (widget, &fg);
  bg_color (widget, &bg);

  cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 0.22);
  cairo_rectangle (cr, x0, 0, x1 - x0, lanes_h);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 0.9);
  cairo_rectangle (cr, x0, 0, 1, lanes_h);
  cairo_rectangle (cr, x1 - 1, 0, 1, lanes_h);
  cairo_fill (cr);

  duration = format_duration (span);
  text = g_strdup_printf ("%'" G_GUINT64_FORMAT " %s · %s", self->sel_count,
                          self->sel_count == 1 ? "event" : "events", duration);
  pango_layout_set_font_description (layout, NULL);
  pango_layout_set_width (layout, -1);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  lx = (x0 + x1 - tw) / 2.0;
  lx = CLAMP (lx, ETL_LABEL_COLUMN_WIDTH + pad, MAX (width - tw - pad, ETL_LABEL_COLUMN_WIDTH + pad));
  lx = round (lx);
  cairo_set_source_rgba (cr, bg.red, bg.green, bg.blue, 0.9);
  cairo_rectangle (cr, lx - pad, 2, tw + 2 * pad, th + 2);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 0.9);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, lx - pad + 0.5, 2.5, tw + 2 * pad - 1, th + 1);
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha);
  cairo_move_to (cr, lx, 3);
  pango_cairo_show_layout (cr, layout);
}

/* The selected record: a line through every lane at its time and a marker
 * in its own lane. */
static void
draw_selected_row (EtlTimelineView *self, cairo_t *cr, EtlSummary *summary, int width, int lane_h,
                   int lanes_h, guint axis_w)
{
  GdkRGBA sel;
  gint64 t;
  double x, y;
  guint lane;

  if (self->selected_row >= etl_trace_get_n_records (self->trace))
    return;
  t = etl_trace_get_filetime (self->trace, self->selected_row);
  x = floor (ETL_LABEL_COLUMN_WIDTH + etl_zoom_manager_time_to_x (self->zoom_manager, t, axis_w));
  if (x < ETL_LABEL_COLUMN_WIDTH || x >= width)
    return;
  lane = shown_index (self, lane_of_row (self, summary, self->selected_row));
  y = (double) lane * lane_h;

  selection_color (GTK_WIDGET (self), &sel);
  cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 0.5);
  cairo_rectangle (cr, x, 0, 1, lanes_h);
  cairo_fill (cr);
  if (lane == G_MAXUINT)
    return; /* its lane is hidden */

  cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 1.0);
  cairo_rectangle (cr, x - 1, y + 1, 3, lane_h - 2);
  cairo_fill (cr);
  /* A triangle pointing down at the top of the lane. */
  cairo_move_to (cr, x + 0.5 - 5, y + 1);
  cairo_line_to (cr, x + 0.5 + 5, y + 1);
  cairo_line_to (cr, x + 0.5, y + 7);
  cairo_close_path (cr);
  cairo_fill (cr);
}

/* The summary lane of thread @tid (Process mode, its process expanded),
 * G_MAXUINT when it has none. */
static guint
thread_lane (EtlSummary *summary, guint32 tid)
{
  if (summary == NULL || etl_summary_get_mode (summary) != ETL_LANE_PROCESS)
    return G_MAXUINT;
  for (guint lane = 0; lane < etl_summary_get_n_lanes (summary); lane++)
    if (etl_summary_get_lane_is_thread (summary, lane) && etl_summary_get_lane_id (summary, lane) == tid)
      return lane;
  return G_MAXUINT;
}

/* The selected wait, NULL when none (or its states are gone). */
static const EtlThreadState *
selected_wait (EtlTimelineView *self, guint *n_states, const EtlThreadState **states)
{
  const EtlThreadState *all;
  guint n;

  if (self->thread_states == NULL || self->wait_index == ETL_THREAD_LANES_NONE)
    return NULL;
  all = etl_thread_states_get (self->thread_states, self->wait_tid, &n);
  if (all == NULL || self->wait_index >= n)
    return NULL;
  if (n_states != NULL)
    *n_states = n;
  if (states != NULL)
    *states = all;
  return &all[self->wait_index];
}

/* A selected wait that a thread readied: an arrow from the wait's end down
 * (or up) to the readying thread's lane, when both lanes are drawn. */
static void
draw_waker_arrow (EtlTimelineView *self, cairo_t *cr, EtlSummary *summary, int lane_h, guint axis_w, gint64 t0,
                  gint64 t1)
{
  const EtlThreadState *wait = selected_wait (self, NULL, NULL);
  guint from, to;
  double x, y0, y1, dir;
  GdkRGBA sel;

  if (wait == NULL || wait->readying_tid == ETL_THREAD_STATES_NO_ID || wait->readying_tid == 0 || t1 <= t0 ||
      wait->end < t0 || wait->end > t1)
    return;
  from = shown_index (self, thread_lane (summary, self->wait_tid));
  to = shown_index (self, thread_lane (summary, wait->readying_tid));
  if (from == G_MAXUINT || to == G_MAXUINT || from == to)
    return;
  x = ETL_LABEL_COLUMN_WIDTH + floor ((double) (wait->end - t0) / (double) (t1 - t0) * axis_w) + 0.5;
  dir = to > from ? 1 : -1;
  y0 = (double) from * lane_h + lane_h / 2.0;
  y1 = (double) to * lane_h + lane_h / 2.0 - dir * (lane_h / 2.0 - 3);
  selection_color (GTK_WIDGET (self), &sel);
  cairo_save (cr);
  cairo_set_source_rgba (cr, sel.red, sel.green, sel.blue, 1.0);
  cairo_set_line_width (cr, 2);
  cairo_arc (cr, x, y0, 3, 0, 2 * G_PI);
  cairo_fill (cr);
  cairo_move_to (cr, x, y0);
  cairo_line_to (cr, x, y1 - dir * 6);
  cairo_stroke (cr);
  cairo_move_to (cr, x, y1);
  cairo_line_to (cr, x - 5, y1 - dir * 8);
  cairo_line_to (cr, x + 5, y1 - dir * 8);
  cairo_close_path (cr);
  cairo_fill (cr);
  cairo_restore (cr);
}

/* The colour of a CPU lane's segment of process @pid (G_MAXUINT32 unknown):
 * the CPU usage graph's for it, grey as "Other" when the graph has none;
 * without the graph's colours, one of the provider palette by pid. */
static void
segment_color (EtlTimelineView *self, guint32 pid, GdkRGBA *rgba)
{
  if (self->process_color == NULL)
    etl_timeline_view_get_provider_color (pid == G_MAXUINT32 ? 0 : pid / 4 + 3, rgba);
  else if (pid == G_MAXUINT32 || !self->process_color (pid, rgba, self->process_color_data))
    gdk_rgba_parse (rgba, "#888a85"); /* as "Other" */
}

/**
 * etl_timeline_view_render:
 * @self: a timeline view
 * @cr: a cairo context, for the widget or an image surface
 * @width: width in pixels, label column included
 * @height: height in pixels
 *
 * Draws the lanes, the selected range and the selected record.  Works on
 * the summary only: O(lanes × columns), whatever the number of events, and
 * skips lanes and columns outside the clip.  draw() calls this; tests and
 * the frame benchmark call it on an image surface.
 */
void
etl_timeline_view_render (EtlTimelineView *self, cairo_t *cr, int width, int height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style;
  g_autoptr (PangoLayout) layout = NULL;
  PangoFontDescription *small = NULL;
  EtlSummary *summary;
  GdkRectangle clip;
  GdkRGBA fg;
  gint64 t0, t1;
  guint n_lanes, axis_w, c0, c1;
  int lane_h, lanes_h;
  guint32 max_count = 1;
  double log_max;

  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (cr != NULL);

  if (!gdk_cairo_get_clip_rectangle (cr, &clip))
    clip = (GdkRectangle) { 0, 0, width, height };

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
  if ((int) axis_w != self->axis_w)
    {
      self->axis_w = axis_w;
      if (self->detail_source == 0 && self->detail_cancellable == NULL)
        maybe_request_detail (self);
    }
  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  summary = current_summary (self, t0, t1);
  shown_update (self);
  n_lanes = self->shown->len;
  lane_h = etl_timeline_view_get_lane_height (self, height);
  lanes_h = MIN (height, (int) n_lanes * lane_h);
  c0 = (guint) CLAMP (clip.x - ETL_LABEL_COLUMN_WIDTH, 0, (int) axis_w);
  c1 = (guint) CLAMP (clip.x + clip.width - ETL_LABEL_COLUMN_WIDTH, 0, (int) axis_w);

  ensure_scratch (self, etl_summary_get_n_lanes (summary), axis_w);
  etl_summary_query (summary, t0, t1, axis_w, self->counts, self->dominant);
  for (gsize i = 0; i < (gsize) etl_summary_get_n_lanes (summary) * axis_w; i++)
    max_count = MAX (max_count, self->counts[i]);
  log_max = log1p ((double) MAX (max_count, 4));

  layout = gtk_widget_create_pango_layout (widget, NULL);
  small = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (layout)));
  pango_font_description_set_size (small, pango_font_description_get_size (small) * 4 / 5);

  /* Alternate lane shading and the separators. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.04);
  for (guint lane = 1; lane < n_lanes && (int) lane * lane_h < height; lane += 2)
    cairo_rectangle (cr, 0, (double) lane * lane_h, width, lane_h);
  cairo_fill (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.10);
  for (guint lane = 0; lane < n_lanes && (int) lane * lane_h < height; lane++)
    cairo_rectangle (cr, 0, (double) lane * lane_h + lane_h - 1, width, 1);
  cairo_fill (cr);

  for (guint index = 0; index < n_lanes; index++)
    {
      guint lane = g_array_index (self->shown, guint, index);
      double y = (double) index * lane_h;
      double inner = lane_h - 6;
      double mid = y + lane_h / 2.0;
      g_autofree char *total = NULL;
      int th;

      if (y >= height || y >= clip.y + clip.height)
        break;
      if (y + lane_h <= clip.y)
        continue;

      /* Process mode: an expander before a process's name (a click on the
       * label toggles its thread lanes); thread lanes are indented. */
      if (clip.x < ETL_LABEL_COLUMN_WIDTH && etl_summary_get_mode (summary) == ETL_LANE_PROCESS)
        {
          cairo_save (cr);
          cairo_rectangle (cr, 0, y, ETL_LABEL_COLUMN_WIDTH - 2, lane_h);
          cairo_clip (cr);
          if (etl_summary_get_lane_is_thread (summary, lane))
            cairo_translate (cr, 12, 0);
          else if (etl_summary_get_lane_id (summary, lane) != ETL_SUMMARY_NO_PID)
            {
              gboolean open = etl_timeline_view_get_process_expanded (self, etl_summary_get_lane_id (summary, lane));
              double ty = lane_h >= 28 ? mid - 7 : mid;

              cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.6);
              if (open)
                {
                  cairo_move_to (cr, 1, ty - 2);
                  cairo_line_to (cr, 8, ty - 2);
                  cairo_line_to (cr, 4.5, ty + 2.5);
                }
              else
                {
                  cairo_move_to (cr, 2.5, ty - 4);
                  cairo_line_to (cr, 7, ty);
                  cairo_line_to (cr, 2.5, ty + 4);
                }
              cairo_close_path (cr);
              cairo_fill (cr);
            }
        }
      /* Label column: the lane's name and its event count. */
      if (clip.x < ETL_LABEL_COLUMN_WIDTH)
        {
          const char *label = etl_summary_get_lane_label (summary, lane);
          const char *pid_part = etl_summary_get_mode (summary) == ETL_LANE_PROCESS ? strrchr (label, '(') : NULL;
          g_autofree char *short_label = NULL;
          int pid_w = 0, full_w = 0;

          pango_layout_set_font_description (layout, NULL);
          pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
          pango_layout_set_width (layout, -1);
          /* Process lanes, "svchost.exe (1408)": when that is too wide,
           * "svchost (1408)", then "svcho… (1408)": the PID always shows. */
          if (pid_part != NULL && pid_part - label > 5)
            {
              pango_layout_set_text (layout, label, -1);
              pango_layout_get_pixel_size (layout, &full_w, NULL);
              if (full_w > ETL_LABEL_COLUMN_WIDTH - 16)
                {
                  gsize name_len = (gsize) (pid_part - 1 - label);

                  if (name_len > 4 && g_ascii_strncasecmp (label + name_len - 4, ".exe", 4) == 0)
                    name_len -= 4;
                  short_label = g_strdup_printf ("%.*s %s", (int) name_len, label, pid_part);
                  label = short_label;
                  pid_part = strrchr (label, '(');
                  pango_layout_set_text (layout, label, -1);
                  pango_layout_get_pixel_size (layout, &full_w, NULL);
                }
              if (full_w > ETL_LABEL_COLUMN_WIDTH - 16)
                {
                  pango_layout_set_text (layout, pid_part - 1, -1);
                  pango_layout_get_pixel_size (layout, &pid_w, NULL);
                  if (pid_w > (ETL_LABEL_COLUMN_WIDTH - 16) / 2)
                    pid_w = 0;
                }
            }
          pango_layout_set_text (layout, label, pid_w > 0 ? (int) (pid_part - 1 - label) : -1);
          pango_layout_set_width (layout, (ETL_LABEL_COLUMN_WIDTH - 16 - pid_w) * PANGO_SCALE);
          /* Provider names differ at their end ("Microsoft-Windows-…"):
           * keep the end; the tooltip has the whole name. */
          pango_layout_set_ellipsize (layout, etl_summary_get_mode (summary) == ETL_LANE_PROVIDER
                                                ? PANGO_ELLIPSIZE_START : PANGO_ELLIPSIZE_END);
          pango_layout_get_pixel_size (layout, NULL, &th);
          cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.9);
          if (pid_w > 0)
            {
              int name_w;
              double ly = lane_h >= 2 * th + 2 ? mid - th : mid - th / 2.0;

              pango_layout_get_pixel_size (layout, &name_w, NULL);
              cairo_move_to (cr, 10, ly);
              pango_cairo_show_layout (cr, layout);
              pango_layout_set_width (layout, -1);
              pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_NONE);
              pango_layout_set_text (layout, pid_part - 1, -1);
              cairo_move_to (cr, 10 + name_w, ly);
              pango_cairo_show_layout (cr, layout);
            }
          if (lane_h >= 2 * th + 2)
            {
              guint64 n;

              if (pid_w == 0)
                {
                  cairo_move_to (cr, 10, mid - th);
                  pango_cairo_show_layout (cr, layout);
                }
              n = etl_summary_get_lane_total (self->summary,
                                              MIN (lane, etl_summary_get_n_lanes (self->summary) - 1));
              total = g_strdup_printf ("%'" G_GUINT64_FORMAT " %s", n, n == 1 ? "event" : "events");
              pango_layout_set_font_description (layout, small);
              pango_layout_set_text (layout, total, -1);
              cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.55);
              cairo_move_to (cr, 10, mid);
              pango_cairo_show_layout (cr, layout);
            }
          else if (pid_w == 0)
            {
              cairo_move_to (cr, 10, mid - th / 2.0);
              pango_cairo_show_layout (cr, layout);
            }
        }
      if (clip.x < ETL_LABEL_COLUMN_WIDTH && etl_summary_get_mode (summary) == ETL_LANE_PROCESS)
        cairo_restore (cr);

      /* CPU lanes of a trace with CSwitch records: who ran when, one bar
       * per thread's stretch coloured by its process; idle is a gap.  At
       * most one bar per pixel column (the first segment that reaches it). */
      if (self->segments != NULL && etl_summary_get_mode (summary) == ETL_LANE_CPU && t1 > t0)
        {
          guint n_seg, k, lo = 0, hi;
          const EtlCpuSegment *seg =
              etl_summary_get_lane_id (summary, lane) < etl_cpu_segments_get_n_cpus (self->segments)
                  ? etl_cpu_segments_get (self->segments, etl_summary_get_lane_id (summary, lane), &n_seg)
                  : NULL;
          double span = (double) (t1 - t0);

          hi = seg != NULL ? n_seg : 0;
          while (lo < hi)
            {
              guint m = lo + (hi - lo) / 2;

              if (seg[m].end <= t0)
                lo = m + 1;
              else
                hi = m;
            }
          /* Each column's colour into a one-pixel-high strip, composited
           * once (etl-column-strip.h): a cairo fill per segment cost
           * ~0.2 µs, up to ~1,800 a lane when zoomed out. */
          if (seg != NULL && c1 > c0)
            {
              int w = (int) (c1 - c0);
              cairo_surface_t *strip = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, 1);
              guint32 *px;

              cairo_surface_flush (strip);
              px = (guint32 *) (gpointer) cairo_image_surface_get_data (strip);
              if (px != NULL)
                {
                  memset (px, 0, (gsize) w * 4);
                  /* Column by column: the segment at the column's left
                   * edge (the first that ends after it) takes the column
                   * and the whole columns it spans; then a gallop to the
                   * segment at the next column, not a walk over the
                   * segments in between (millions across a zoomed-out
                   * lane). */
                  const guint32 *ov = NULL;
                  gint64 ov_start = 0, ov_width = 1;
                  guint ov_n = 0, cpu = etl_summary_get_lane_id (summary, lane), seg_c1 = c1;

                  ov = etl_cpu_segments_get_overview (self->segments, cpu, &ov_start, &ov_width, &ov_n);
                  /* Zoomed out past the overview's buckets: a column reads
                   * its bucket's pid, no segment. */
                  if (ov != NULL && span / axis_w >= (double) ov_width)
                    {
                      guint32 last_pid = ETL_CPU_SEGMENTS_NONE;
                      guint32 color = 0;

                      for (guint col = c0; col < c1; col++)
                        {
                          gint64 tc = t0 + (gint64) ((double) col * span / axis_w);
                          gint64 b = tc >= ov_start ? (tc - ov_start) / ov_width : -1;
                          GdkRGBA rgba;

                          if (b < 0)
                            continue;
                          if (b >= ov_n)
                            break;
                          if (ov[b] == ETL_CPU_SEGMENTS_NONE)
                            continue;
                          if (ov[b] != last_pid)
                            {
                              segment_color (self, ov[b], &rgba);
                              color = etl_column_strip_pixel (rgba.red, rgba.green, rgba.blue, 0.55);
                              last_pid = ov[b];
                            }
                          px[col - c0] = color;
                        }
                      seg_c1 = c0; /* done: the loop below draws nothing */
                    }
                  for (guint col = c0; col < seg_c1;)
                    {
                      gint64 tc = t0 + (gint64) ((double) col * span / axis_w);
                      double x0, x1;
                      GdkRGBA rgba;
                      guint32 color;

                      k = (guint) etl_gallop_ending_after (seg, n_seg, sizeof (EtlCpuSegment),
                                                           G_STRUCT_OFFSET (EtlCpuSegment, end), lo, tc);
                      if (k >= n_seg || seg[k].start >= t1)
                        break;
                      lo = k;
                      x0 = floor (CLAMP ((double) (seg[k].start - t0) / span * axis_w, 0, (double) axis_w));
                      x1 = floor (CLAMP ((double) (seg[k].end - t0) / span * axis_w, 0, (double) axis_w));
                      x0 = MAX (x0, (double) col);
                      if (x0 >= seg_c1)
                        break;
                      x1 = MAX (x1, x0 + 1);
                      segment_color (self, seg[k].pid, &rgba);
                      color = etl_column_strip_pixel (rgba.red, rgba.green, rgba.blue, 0.55);
                      for (int x = (int) x0; x < MIN ((int) x1, (int) seg_c1); x++)
                        px[x - (int) c0] = color;
                      col = (guint) x1;
                    }
                  etl_column_strip_paint (cr, strip, ETL_LABEL_COLUMN_WIDTH + c0, y + 3, lane_h - 6, w);
                }
              cairo_surface_destroy (strip);
            }
        }

      /* Process lanes: the process's lifetime (Start to End, the trace's
       * edges when it ran before or after) shaded under its marks. */
      if (etl_summary_get_mode (summary) == ETL_LANE_PROCESS && t1 > t0)
        {
          gint64 ls, le;

          if (etl_summary_get_lane_lifetime (summary, lane, &ls, &le))
            {
              double span = (double) (t1 - t0);
              double x0 = ls != 0 ? ((double) (ls - t0) / span) * axis_w : 0;
              double x1 = le != 0 ? ((double) (le - t0) / span) * axis_w : axis_w;

              x0 = CLAMP (x0, 0, (double) axis_w);
              x1 = CLAMP (x1, 0, (double) axis_w);
              if (x1 > x0)
                {
                  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.07);
                  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH + x0, y + 2, x1 - x0, lane_h - 4);
                  cairo_fill (cr);
                  /* A Start or End inside the view: a tick at its edge. */
                  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.45);
                  if (ls > t0 && ls < t1)
                    cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH + x0, y + 2, 1.5, lane_h - 4);
                  if (le > t0 && le < t1)
                    cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH + x1 - 1.5, y + 2, 1.5, lane_h - 4);
                  cairo_fill (cr);
                }
            }
        }

      /* Thread lanes: the thread's states under its marks. */
      if (self->thread_states != NULL && etl_summary_get_mode (summary) == ETL_LANE_PROCESS &&
          etl_summary_get_lane_is_thread (summary, lane) && t1 > t0)
        {
          guint32 tid = etl_summary_get_lane_id (summary, lane);
          EtlThreadLaneGeometry g = { t0, t1, axis_w, ETL_LABEL_COLUMN_WIDTH, y, lane_h };

          etl_thread_lanes_draw (cr, &g, self->thread_states, tid, c0, c1, &fg,
                                 tid == self->wait_tid ? self->wait_index : ETL_THREAD_LANES_NONE);
        }

      /* Events: at most one mark per pixel column. */
      draw_lane_marks (self, cr, self->counts + (gsize) lane * axis_w, self->dominant + (gsize) lane * axis_w,
                       c0, c1, mid, inner, log_max);
    }

  /* The label column's edge. */
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.25);
  cairo_rectangle (cr, ETL_LABEL_COLUMN_WIDTH - 1, 0, 1, lanes_h);
  cairo_fill (cr);

  if (self->has_selection || self->drag_mode == DRAG_SELECT)
    draw_selection (self, cr, layout, width, lanes_h, axis_w);
  if (self->selected_row != ETL_TIMELINE_NO_ROW)
    draw_selected_row (self, cr, summary, width, lane_h, lanes_h, axis_w);
  draw_waker_arrow (self, cr, summary, lane_h, axis_w, t0, t1);

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

static void
segments_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  EtlCpuSegments *segments = etl_cpu_segments_new (task_data, cancellable, &error);

  if (segments == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, segments, (GDestroyNotify) etl_cpu_segments_unref);
}

static void
on_segments_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlTimelineView) self = user_data;
  EtlCpuSegments *segments = g_task_propagate_pointer (G_TASK (result), NULL);
  gboolean any = FALSE;

  if (g_task_get_cancellable (G_TASK (result)) != self->segments_cancellable || segments == NULL)
    {
      g_clear_pointer (&segments, etl_cpu_segments_unref);
      return;
    }
  g_clear_object (&self->segments_cancellable);
  for (guint c = 0; c < etl_cpu_segments_get_n_cpus (segments) && !any; c++)
    {
      guint n;

      etl_cpu_segments_get (segments, c, &n);
      any = n > 0;
    }
  if (any)
    self->segments = segments;
  else
    etl_cpu_segments_unref (segments);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* CPU mode's segments (who ran when, from CSwitch records), built in a
 * worker for the trace shown. */
static void
start_segments (EtlTimelineView *self)
{
  g_autoptr (GTask) task = NULL;

  g_cancellable_cancel (self->segments_cancellable);
  g_clear_object (&self->segments_cancellable);
  g_clear_pointer (&self->segments, etl_cpu_segments_unref);
  if (self->trace == NULL)
    return;
  self->segments_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->segments_cancellable, on_segments_ready, g_object_ref (self));
  g_task_set_task_data (task, etl_trace_ref (self->trace), (GDestroyNotify) etl_trace_unref);
  etl_worker_run (task, segments_thread);
}

/* The lane under @y and the time under @x; FALSE outside the lanes. */
static gboolean
locate (EtlTimelineView *self, double x, double y, int width, int height, guint *lane, gint64 *t)
{
  int axis_w, lane_h;
  guint n_lanes;

  if (self->trace == NULL || self->summary == NULL || self->zoom_manager == NULL)
    return FALSE;
  axis_w = width - ETL_LABEL_COLUMN_WIDTH;
  if (axis_w <= 0 || x < ETL_LABEL_COLUMN_WIDTH || x >= width)
    return FALSE;
  n_lanes = etl_timeline_view_get_n_lanes (self);
  lane_h = etl_timeline_view_get_lane_height (self, height);
  if (y < 0 || y >= (double) lane_h * n_lanes)
    return FALSE;
  *lane = shown_lane (self, (guint) (y / lane_h));
  if (*lane == G_MAXUINT)
    return FALSE;
  *t = etl_zoom_manager_x_to_time (self->zoom_manager, x - ETL_LABEL_COLUMN_WIDTH, axis_w);
  return TRUE;
}

static guint64
nearest_at (EtlTimelineView *self, double x, double y, int width, int height, double radius_px)
{
  gint64 t, radius;
  guint lane;

  if (!locate (self, x, y, width, height, &lane, &t))
    return ETL_TIMELINE_NO_ROW;
  radius = etl_zoom_manager_x_to_time (self->zoom_manager, radius_px, width - ETL_LABEL_COLUMN_WIDTH) -
           etl_zoom_manager_get_begin (self->zoom_manager);
  return find_nearest (self, lane, t, radius);
}

/**
 * etl_timeline_view_row_at:
 * @self: a timeline view
 * @x: pointer x, pixels from the view's left edge
 * @y: pointer y, pixels from the view's top edge
 * @width: the view's width, pixels
 * @height: the view's height, pixels
 *
 * What a click at (@x, @y) selects: the record of the lane under the
 * pointer nearest in time to @x, no more than 10 pixels away, among the rows
 * the view shows (etl_timeline_view_set_rows()).  Searches the trace's index
 * around the clicked time with etl_trace_lower_bound(), visiting at most
 * 50,000 rows each way; no record is read.
 *
 * Returns: the record's row in the trace's merged sequence, or
 *   %ETL_TIMELINE_NO_ROW when there is none near
 */
guint64
etl_timeline_view_row_at (EtlTimelineView *self, double x, double y, int width, int height)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), ETL_TIMELINE_NO_ROW);
  return nearest_at (self, x, y, width, height, CLICK_RADIUS_PX);
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
 * within a few pixels, using the trace's index, and reads and decodes that
 * one record to name its provider, event and process and show its first
 * fields.
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
  g_autoptr (EtlDecoded) decoded = NULL;
  EtlRecord rec = { 0 };
  guint64 best;

  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);

  best = nearest_at (self, x, y, width, height, TOOLTIP_RADIUS_PX);
  if (best == ETL_TIMELINE_NO_ROW)
    {
      guint32 tid;
      guint index = state_at_pointer (self, x, y, width, height, &tid);

      /* Over a thread lane's state off the processor: why and who woke it. */
      if (index != ETL_THREAD_LANES_NONE)
        {
          const EtlThreadState *st = state_of (self, tid, index);

          if (st->kind != ETL_THREAD_STATE_RUNNING)
            return etl_thread_lanes_dup_wait_text (self->trace, st);
        }
      /* Over a CPU segment with no event near: the thread that ran. */
      g_autofree char *ran = etl_timeline_view_dup_segment_text_at (self, x, y, width, height);

      return ran != NULL ? g_markup_printf_escaped ("<b>Running</b> %s", ran) : NULL;
    }

  if (!etl_trace_get_record (self->trace, best, &rec, &error))
    return g_markup_printf_escaped ("Record %" G_GUINT64_FORMAT ": %s", best, error->message);

  decoded = etl_trace_decode_record (self->trace, &rec);
  if (decoded->schema != NULL && decoded->schema->provider_name != NULL && decoded->schema->provider_name[0] != '\0')
    provider = g_strdup (decoded->schema->provider_name);
  else
    provider = etl_record_dup_provider_name (&rec);
  if (decoded->schema != NULL && rec.kind != ETL_RECORD_KIND_TRACELOGGING)
    event = etl_schema_dup_display_name (decoded->schema);
  else
    event = etl_record_dup_event_name (&rec);
  escaped_provider = g_markup_escape_text (provider ? provider : "?", -1);
  escaped_event = g_markup_escape_text (event ? event : "?", -1);
  rel = g_strdup_printf ("%.4f ms", (rec.filetime - etl_trace_get_origin (self->trace)) / 1e4);
  wall = etl_time_format_wall_clock (rec.filetime, 1, FALSE, TRUE);

  str = g_string_new (NULL);
  g_string_append_printf (str, "<b>%s</b> / %s\n", escaped_provider, escaped_event);
  {
    const EtlProcess *process = etl_trace_get_record_process (self->trace, &rec, decoded);

    if (process != NULL || rec.has_pid)
      {
        g_autofree char *name = etl_process_format_name (process, rec.pid);
        g_autofree char *escaped = g_markup_escape_text (name, -1);

        g_string_append_printf (str, "%s\n", escaped);
      }
  }
  /* The first fields, "Name=value" as the list's Payload column. */
  for (guint f = 0; f < decoded->fields->len && f < TOOLTIP_FIELDS; f++)
    {
      const EtlField *field = &g_array_index (decoded->fields, EtlField, f);
      g_autofree char *value = g_utf8_strlen (field->value, -1) > 60
                                   ? g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (field->value, 59) - field->value),
                                                      field->value)
                                   : g_strdup (field->value);
      g_autofree char *line = g_markup_printf_escaped ("<small>%s</small> = %s\n", field->name, value);

      g_string_append (str, line);
    }
  if (decoded->fields->len > TOOLTIP_FIELDS)
    g_string_append_printf (str, "<small>… %u more fields</small>\n", decoded->fields->len - TOOLTIP_FIELDS);
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
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);
  g_autofree char *markup = NULL;
  int width = gtk_widget_get_allocated_width (widget);
  int height = gtk_widget_get_allocated_height (widget);

  if (keyboard || self->drag_mode != DRAG_NONE || self->summary == NULL)
    return FALSE;
  markup = etl_timeline_view_dup_tooltip_at (self, x, y, width, height);
  if (markup == NULL)
    {
      int lane_h = etl_timeline_view_get_lane_height (self, height);

      /* Over the label column: the lane and how to use the view. */
      if (x >= ETL_LABEL_COLUMN_WIDTH || y < 0 || y >= lane_h * (int) etl_timeline_view_get_n_lanes (self))
        return FALSE;
      markup = g_markup_printf_escaped ("<b>%s</b>\n<small>%s</small>",
                                        etl_timeline_view_get_lane_label (self, (guint) y / lane_h), HELP_TEXT);
    }
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

/* TRUE when the view is taller than the scrolled pane showing it. */
static gboolean
lanes_overflow (EtlTimelineView *self)
{
  GtkWidget *scroller = gtk_widget_get_ancestor (GTK_WIDGET (self), GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adj;

  if (scroller == NULL)
    return FALSE;
  adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  return gtk_adjustment_get_upper (adj) - gtk_adjustment_get_lower (adj) > gtk_adjustment_get_page_size (adj) + 0.5;
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

  /* When the lanes overflow their scrolled pane, a plain vertical scroll
   * goes to the pane (it scrolls the lanes); Shift+scroll still pans. */
  if ((event->state & (GDK_CONTROL_MASK | GDK_SHIFT_MASK)) == 0 && dy != 0 && dx == 0 && lanes_overflow (self))
    return GDK_EVENT_PROPAGATE;

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

static gint64
time_at_x (EtlTimelineView *self, double x)
{
  int axis_w = gtk_widget_get_allocated_width (GTK_WIDGET (self)) - ETL_LABEL_COLUMN_WIDTH;

  x = CLAMP (x - ETL_LABEL_COLUMN_WIDTH, 0, MAX (axis_w, 0));
  return etl_zoom_manager_x_to_time (self->zoom_manager, x, axis_w);
}

static gboolean
etl_timeline_view_button_press_event (GtkWidget *widget, GdkEventButton *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);

  gtk_widget_grab_focus (widget);
  if (event->type != GDK_BUTTON_PRESS || self->zoom_manager == NULL)
    return GDK_EVENT_PROPAGATE;

  if (event->button == GDK_BUTTON_MIDDLE ||
      (event->button == GDK_BUTTON_PRIMARY && (event->state & GDK_SHIFT_MASK)))
    {
      self->drag_mode = DRAG_PAN;
      self->press_x = event->x;
      etl_zoom_manager_get_visible (self->zoom_manager, &self->drag_begin, &self->drag_end);
      return GDK_EVENT_STOP;
    }
  if (event->button == GDK_BUTTON_PRIMARY && event->type == GDK_BUTTON_PRESS && event->x < ETL_LABEL_COLUMN_WIDTH &&
      self->summary != NULL && etl_summary_get_mode (self->summary) == ETL_LANE_PROCESS)
    {
      int lane_h = etl_timeline_view_get_lane_height (self, gtk_widget_get_allocated_height (widget));
      guint lane = lane_h > 0 && event->y >= 0 ? shown_lane (self, (guint) (event->y / lane_h)) : G_MAXUINT;

      if (lane < etl_summary_get_n_lanes (self->summary) && !etl_summary_get_lane_is_thread (self->summary, lane) &&
          etl_summary_get_lane_id (self->summary, lane) != ETL_SUMMARY_NO_PID)
        {
          guint32 pid = etl_summary_get_lane_id (self->summary, lane);

          etl_timeline_view_set_process_expanded (self, pid, !etl_timeline_view_get_process_expanded (self, pid));
          return GDK_EVENT_STOP;
        }
    }
  /* Secondary click on a thread lane's wait: select it, offer its waker. */
  if (event->button == GDK_BUTTON_SECONDARY && event->x >= ETL_LABEL_COLUMN_WIDTH)
    {
      guint32 tid;
      guint index = state_at_pointer (self, event->x, event->y, gtk_widget_get_allocated_width (widget),
                                      gtk_widget_get_allocated_height (widget), &tid);
      g_autoptr (GMenu) model = NULL;
      GtkWidget *menu;

      if (index == ETL_THREAD_LANES_NONE ||
          state_of (self, tid, index)->kind != ETL_THREAD_STATE_WAITING)
        return GDK_EVENT_PROPAGATE;
      etl_timeline_view_select_thread_state (self, tid, index);
      model = g_menu_new ();
      g_menu_append (model, "Go to the waker", "timeline.go-to-waker");
      menu = gtk_menu_new_from_model (G_MENU_MODEL (model));
      gtk_menu_attach_to_widget (GTK_MENU (menu), widget, NULL);
      g_signal_connect (menu, "deactivate", G_CALLBACK (gtk_widget_destroy), NULL);
      gtk_menu_popup_at_pointer (GTK_MENU (menu), (GdkEvent *) event);
      return GDK_EVENT_STOP;
    }
  if (event->button == GDK_BUTTON_PRIMARY && event->x >= ETL_LABEL_COLUMN_WIDTH)
    {
      self->drag_mode = DRAG_CLICK;
      self->press_x = event->x;
      self->anchor = time_at_x (self, event->x);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

static void
set_selection_internal (EtlTimelineView *self, gint64 begin, gint64 end)
{
  self->sel_begin = MIN (begin, end);
  self->sel_end = MAX (begin, end);
  self->sel_count = count_range (self, self->sel_begin, self->sel_end);
}

static gboolean
etl_timeline_view_motion_notify_event (GtkWidget *widget, GdkEventMotion *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);
  int axis_w = gtk_widget_get_allocated_width (widget) - ETL_LABEL_COLUMN_WIDTH;
  gint64 delta;

  if (axis_w <= 0 || self->zoom_manager == NULL)
    return GDK_EVENT_PROPAGATE;

  switch (self->drag_mode)
    {
    case DRAG_PAN:
      delta = (gint64) ((event->x - self->press_x) * (double) (self->drag_end - self->drag_begin) / axis_w);
      etl_zoom_manager_set_visible (self->zoom_manager, self->drag_begin - delta, self->drag_end - delta);
      return GDK_EVENT_STOP;

    case DRAG_CLICK:
      if (fabs (event->x - self->press_x) < DRAG_THRESHOLD_PX)
        return GDK_EVENT_STOP;
      self->drag_mode = DRAG_SELECT;
      G_GNUC_FALLTHROUGH;

    case DRAG_SELECT:
      set_selection_internal (self, self->anchor, time_at_x (self, event->x));
      gtk_widget_queue_draw (widget);
      return GDK_EVENT_STOP;

    case DRAG_NONE:
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

static gboolean
etl_timeline_view_button_release_event (GtkWidget *widget, GdkEventButton *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);
  DragMode mode = self->drag_mode;

  if (mode == DRAG_NONE)
    return GDK_EVENT_PROPAGATE;
  if ((mode == DRAG_PAN && event->button != GDK_BUTTON_MIDDLE && event->button != GDK_BUTTON_PRIMARY) ||
      (mode != DRAG_PAN && event->button != GDK_BUTTON_PRIMARY))
    return GDK_EVENT_PROPAGATE;
  self->drag_mode = DRAG_NONE;

  if (mode == DRAG_SELECT)
    {
      gint64 t = time_at_x (self, event->x);

      if (t != self->anchor)
        etl_timeline_view_set_selection (self, self->anchor, t);
      else
        etl_timeline_view_clear_selection (self);
    }
  else if (mode == DRAG_CLICK)
    {
      guint64 row = etl_timeline_view_row_at (self, event->x, event->y,
                                              gtk_widget_get_allocated_width (widget),
                                              gtk_widget_get_allocated_height (widget));

      /* No event near, inside a CPU segment: its CSwitch. */
      if (row == ETL_TIMELINE_NO_ROW)
        {
          const EtlCpuSegment *seg = etl_timeline_view_segment_at (self, event->x, event->y,
                                                                   gtk_widget_get_allocated_width (widget),
                                                                   gtk_widget_get_allocated_height (widget));

          if (seg != NULL)
            row = seg->row;
        }
      /* No event near, inside a thread lane's wait: select the wait (the
       * arrow to its waker shows; "Go to the waker" follows it). */
      if (row == ETL_TIMELINE_NO_ROW)
        {
          guint32 tid;
          guint index = state_at_pointer (self, event->x, event->y, gtk_widget_get_allocated_width (widget),
                                          gtk_widget_get_allocated_height (widget), &tid);

          if (index != ETL_THREAD_LANES_NONE &&
              state_of (self, tid, index)->kind == ETL_THREAD_STATE_WAITING)
            etl_timeline_view_select_thread_state (self, tid, index);
          else
            etl_timeline_view_select_thread_state (self, 0, ETL_THREAD_LANES_NONE);
        }
      else
        etl_timeline_view_select_thread_state (self, 0, ETL_THREAD_LANES_NONE);
      if (row != ETL_TIMELINE_NO_ROW)
        {
          etl_timeline_view_select_row (self, row, FALSE);
          g_signal_emit (self, signals[EVENT_SELECTED], 0, row);
        }
    }
  return GDK_EVENT_STOP;
}

static void
zoom_about_centre (EtlTimelineView *self, double factor)
{
  gint64 t0, t1;

  etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
  etl_zoom_manager_zoom_around (self->zoom_manager, t0 + (t1 - t0) / 2, factor);
}

static gboolean
etl_timeline_view_key_press_event (GtkWidget *widget, GdkEventKey *event)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);
  gint64 t0, t1;
  double fraction = (event->state & GDK_SHIFT_MASK) ? 0.5 : 0.1;
  GdkModifierType mods = event->state & gtk_accelerator_get_default_mod_mask ();

  if (self->zoom_manager == NULL || (mods & (GDK_CONTROL_MASK | GDK_MOD1_MASK)) != 0)
    return GTK_WIDGET_CLASS (etl_timeline_view_parent_class)->key_press_event (widget, event);
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
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      zoom_about_centre (self, 0.5);
      return GDK_EVENT_STOP;
    case GDK_KEY_minus:
    case GDK_KEY_underscore:
    case GDK_KEY_KP_Subtract:
      zoom_about_centre (self, 2.0);
      return GDK_EVENT_STOP;
    case GDK_KEY_w:
    case GDK_KEY_W:
      if (etl_timeline_view_go_to_waker (self) == ETL_TIMELINE_NO_ROW)
        break;
      return GDK_EVENT_STOP;
    case GDK_KEY_z:
    case GDK_KEY_Z:
      if (!self->has_selection)
        break;
      etl_timeline_view_zoom_to_selection (self);
      return GDK_EVENT_STOP;
    case GDK_KEY_Escape:
      if (self->drag_mode == DRAG_SELECT)
        {
          /* The drag replaced the previous range already: drop both. */
          self->drag_mode = DRAG_NONE;
          etl_timeline_view_clear_selection (self);
          return GDK_EVENT_STOP;
        }
      if (!self->has_selection)
        break;
      etl_timeline_view_clear_selection (self);
      return GDK_EVENT_STOP;
    default:
      break;
    }
  return GTK_WIDGET_CLASS (etl_timeline_view_parent_class)->key_press_event (widget, event);
}

static void
on_pinch_begin (GtkGesture *gesture, GdkEventSequence *sequence, EtlTimelineView *self)
{
  double x = 0, y = 0;

  if (self->zoom_manager == NULL)
    {
      gtk_gesture_set_state (gesture, GTK_EVENT_SEQUENCE_DENIED);
      return;
    }
  gtk_gesture_get_bounding_box_center (gesture, &x, &y);
  self->pinch_x = x;
  self->drag_mode = DRAG_NONE;
  etl_zoom_manager_get_visible (self->zoom_manager, &self->pinch_begin, &self->pinch_end);
}

static void
on_pinch_scale_changed (GtkGestureZoom *gesture, double scale, EtlTimelineView *self)
{
  int axis_w = gtk_widget_get_allocated_width (GTK_WIDGET (self)) - ETL_LABEL_COLUMN_WIDTH;
  double frac, span;
  gint64 centre, begin;

  if (self->zoom_manager == NULL || axis_w <= 0 || scale <= 0)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  /* The time under the fingers' centre stays there. */
  frac = CLAMP ((self->pinch_x - ETL_LABEL_COLUMN_WIDTH) / axis_w, 0.0, 1.0);
  centre = self->pinch_begin + (gint64) llround (frac * (double) (self->pinch_end - self->pinch_begin));
  span = (double) (self->pinch_end - self->pinch_begin) / scale;
  begin = centre - (gint64) llround (frac * span);
  etl_zoom_manager_set_visible (self->zoom_manager, begin, begin + (gint64) llround (span));
}

static void
etl_timeline_view_size_allocate (GtkWidget *widget, GtkAllocation *allocation)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (widget);

  GTK_WIDGET_CLASS (etl_timeline_view_parent_class)->size_allocate (widget, allocation);
  self->axis_w = allocation->width - ETL_LABEL_COLUMN_WIDTH;
  maybe_request_detail (self);
  if (self->hide_empty && self->summary != NULL)
    shown_refresh (self);
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

  g_clear_handle_id (&self->detail_source, g_source_remove);
  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->detail_cancellable);
  etl_timeline_view_set_zoom_manager (self, NULL);
  g_clear_object (&self->zoom_gesture);
  g_clear_object (&self->actions);
  g_clear_pointer (&self->summary, etl_summary_unref);
  g_clear_pointer (&self->detail, etl_summary_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->expanded, g_array_unref);
  g_cancellable_cancel (self->segments_cancellable);
  g_clear_object (&self->segments_cancellable);
  g_clear_pointer (&self->segments, etl_cpu_segments_unref);
  g_cancellable_cancel (self->states_cancellable);
  g_clear_object (&self->states_cancellable);
  g_clear_pointer (&self->thread_states, etl_thread_states_unref);

  G_OBJECT_CLASS (etl_timeline_view_parent_class)->dispose (object);
}

static void
etl_timeline_view_finalize (GObject *object)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (object);

  g_free (self->counts);
  g_free (self->dominant);
  g_clear_pointer (&self->marks, cairo_surface_destroy);
  g_clear_pointer (&self->shown, g_array_unref);
  if (self->process_color_destroy != NULL)
    self->process_color_destroy (self->process_color_data);

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

    case PROP_LANE_MODE:
      g_value_set_enum (value, self->lane_mode);
      break;

    case PROP_HIDE_EMPTY_LANES:
      g_value_set_boolean (value, self->hide_empty);
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

    case PROP_LANE_MODE:
      etl_timeline_view_set_lane_mode (self, g_value_get_enum (value));
      break;

    case PROP_HIDE_EMPTY_LANES:
      etl_timeline_view_set_hide_empty_lanes (self, g_value_get_boolean (value));
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

  /**
   * EtlTimelineView:lane-mode:
   *
   * How records are split into lanes: per processor, provider or process.
   * Changing it rebuilds the summaries in a worker; the lanes change when
   * the new summary is ready.  The "timeline.lane-mode" action follows it.
   */
  properties[PROP_LANE_MODE] =
    g_param_spec_enum ("lane-mode", "Lane mode", "How records are split into lanes",
                       ETL_TYPE_LANE_MODE, ETL_LANE_CPU,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  /**
   * EtlTimelineView:hide-empty-lanes:
   *
   * Whether lanes without an event in the visible range are left out; they
   * come and go as the view is zoomed and panned.  The
   * "timeline.hide-empty-lanes" action follows it.
   */
  properties[PROP_HIDE_EMPTY_LANES] =
    g_param_spec_boolean ("hide-empty-lanes", "Hide empty lanes", "Leave out lanes without events in view", FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * EtlTimelineView::event-selected:
   * @self: the view
   * @row: the record's row in the trace's merged sequence
   *
   * The user clicked a record (the nearest to the pointer in the lane under
   * it).  Not emitted by etl_timeline_view_select_row().
   */
  signals[EVENT_SELECTED] =
    g_signal_new ("event-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT64);

  /**
   * EtlTimelineView::range-selected:
   * @self: the view
   * @begin: start of the range, FILETIME, inclusive
   * @end: end of the range, FILETIME, exclusive; @begin = @end = 0 when the
   *   selection was cleared (Escape, etl_timeline_view_clear_selection())
   *
   * A time range was selected by dragging or with
   * etl_timeline_view_set_selection(), or the selection was cleared.
   */
  signals[RANGE_SELECTED] =
    g_signal_new ("range-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, G_TYPE_INT64, G_TYPE_INT64);

  gtk_widget_class_set_css_name (widget_class, "etltimelineview");
}

static void
zoom_to_selection_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  etl_timeline_view_zoom_to_selection (ETL_TIMELINE_VIEW (user_data));
}

static void
lane_mode_change_state (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  EtlTimelineView *self = ETL_TIMELINE_VIEW (user_data);
  GEnumClass *klass = g_type_class_ref (ETL_TYPE_LANE_MODE);
  GEnumValue *v = g_enum_get_value_by_nick (klass, g_variant_get_string (value, NULL));

  if (v != NULL)
    etl_timeline_view_set_lane_mode (self, v->value);
  else
    g_warning ("Unknown lane mode “%s”", g_variant_get_string (value, NULL));
  g_type_class_unref (klass);
}

static void
hide_empty_change_state (GSimpleAction *action, GVariant *value, gpointer user_data)
{
  etl_timeline_view_set_hide_empty_lanes (ETL_TIMELINE_VIEW (user_data), g_variant_get_boolean (value));
}

static const char *
lane_mode_nick (EtlLaneMode mode)
{
  GEnumClass *klass = g_type_class_ref (ETL_TYPE_LANE_MODE);
  GEnumValue *v = g_enum_get_value (klass, mode);
  const char *nick = v != NULL ? v->value_nick : "cpu";

  g_type_class_unref (klass);
  return nick;
}

static void
update_actions (EtlTimelineView *self)
{
  GAction *action;

  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "zoom-to-selection");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->has_selection && self->zoom_manager != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "lane-mode");
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (lane_mode_nick (self->lane_mode)));
  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "hide-empty-lanes");
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_boolean (self->hide_empty));
  action = g_action_map_lookup_action (G_ACTION_MAP (self->actions), "go-to-waker");
  if (action != NULL)
    {
      guint n;
      const EtlThreadState *states;

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                                   selected_wait (self, &n, &states) != NULL &&
                                       etl_thread_lanes_waker_of (states, n, self->wait_index) != ETL_THREAD_LANES_NONE);
    }
}

static void
go_to_waker_activated (GSimpleAction *action, GVariant *parameter, gpointer user_data)
{
  etl_timeline_view_go_to_waker (user_data);
}

static void
etl_timeline_view_init (EtlTimelineView *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  const GActionEntry entries[] = {
    { .name = "zoom-to-selection", .activate = zoom_to_selection_activated },
    { .name = "lane-mode", .parameter_type = "s", .state = "'cpu'", .change_state = lane_mode_change_state },
    { .name = "hide-empty-lanes", .state = "false", .change_state = hide_empty_change_state },
    { .name = "go-to-waker", .activate = go_to_waker_activated },
  };

  self->selected_row = ETL_TIMELINE_NO_ROW;
  self->wait_index = ETL_THREAD_LANES_NONE;
  self->lane_mode = ETL_LANE_CPU;
  self->shown = g_array_new (FALSE, FALSE, sizeof (guint));

  gtk_widget_set_can_focus (widget, TRUE);
  gtk_widget_set_has_tooltip (widget, TRUE);
  gtk_widget_add_events (widget,
                         GDK_BUTTON_PRESS_MASK | GDK_BUTTON_RELEASE_MASK |
                         GDK_POINTER_MOTION_MASK | GDK_SCROLL_MASK |
                         GDK_SMOOTH_SCROLL_MASK | GDK_KEY_PRESS_MASK |
                         GDK_TOUCH_MASK | GDK_TOUCHPAD_GESTURE_MASK);

  self->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (self->actions), entries, G_N_ELEMENTS (entries), self);
  gtk_widget_insert_action_group (widget, "timeline", G_ACTION_GROUP (self->actions));
  update_actions (self);

  self->zoom_gesture = gtk_gesture_zoom_new (widget);
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (self->zoom_gesture), GTK_PHASE_BUBBLE);
  g_signal_connect (self->zoom_gesture, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (self->zoom_gesture, "scale-changed", G_CALLBACK (on_pinch_scale_changed), self);
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
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM_MANAGER]);
      if (self->actions != NULL)
        update_actions (self);
    }
}

static void
set_summary (EtlTimelineView *self, EtlSummary *summary)
{
  guint old = etl_timeline_view_get_n_lanes (self);

  g_clear_handle_id (&self->detail_source, g_source_remove);
  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  g_clear_pointer (&self->detail, etl_summary_unref);
  g_clear_pointer (&self->summary, etl_summary_unref);
  if (summary != NULL)
    self->summary = etl_summary_ref (summary);
  self->shown_valid = FALSE;
  if (old != etl_timeline_view_get_n_lanes (self))
    {
      self->shown_notified = self->shown->len;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_N_LANES]);
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
  maybe_request_detail (self);
}

static void
on_summary_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlTimelineView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSummary) summary = NULL;
  gboolean current = task_is_current (result, self->cancellable);

  summary = etl_summary_new_finish (result, &error);
  if (!current)
    return;
  g_clear_object (&self->cancellable);
  if (summary == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not summarise the trace: %s", error->message);
      return;
    }
  set_summary (self, summary);
}

static gboolean
rebuild_cb (gpointer user_data)
{
  EtlTimelineView *self = user_data;

  self->rebuild_source = 0;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  /* A detail of the old rows or lanes would be stale too. */
  g_clear_handle_id (&self->detail_source, g_source_remove);
  g_cancellable_cancel (self->detail_cancellable);
  g_clear_object (&self->detail_cancellable);
  if (self->trace == NULL)
    return G_SOURCE_REMOVE;

  self->cancellable = g_cancellable_new ();
  etl_summary_new_expanded_async (self->trace, self->rows, self->lane_mode,
                                  self->expanded != NULL ? (const guint32 *) self->expanded->data : NULL,
                                  self->expanded != NULL ? self->expanded->len : 0, 0, 0, SUMMARY_BINS_LOG2,
                                  self->cancellable, on_summary_ready, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* Requests a new whole-range summary for the current rows and lane mode;
 * requests before the main loop runs again collapse into one build, and a
 * new build cancels the one in flight. */
static void
schedule_rebuild (EtlTimelineView *self)
{
  if (self->trace == NULL || self->rebuild_source != 0)
    return;
  self->rebuild_source = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, rebuild_cb, self, NULL);
}

/**
 * etl_timeline_view_set_trace:
 * @self: a timeline view
 * @trace: (nullable): the trace to show
 * @summary: (nullable): a whole-trace summary of every row of @trace, if one
 *   was built already (by the loading worker); otherwise (or when its lane
 *   mode is not #EtlTimelineView:lane-mode) one is built in a worker thread
 *   and shown when ready
 *
 * Shows @trace, every row of it: the row set, the selected record and the
 * selected range are reset.  The zoom manager's bounds are left to the
 * caller.
 */
void
etl_timeline_view_set_trace (EtlTimelineView *self, EtlTrace *trace, EtlSummary *summary)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  g_clear_handle_id (&self->rebuild_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (trace != NULL)
    etl_trace_ref (trace);
  g_clear_pointer (&self->trace, etl_trace_unref);
  self->trace = trace;
  g_clear_pointer (&self->rows, etl_row_set_unref);
  if (self->expanded != NULL)
    g_array_set_size (self->expanded, 0);
  self->selected_row = ETL_TIMELINE_NO_ROW;
  self->has_selection = FALSE;
  self->drag_mode = DRAG_NONE;
  update_actions (self);

  set_summary (self, summary);
  if (trace != NULL && (summary == NULL || etl_summary_get_mode (summary) != self->lane_mode))
    rebuild_cb (self);
  start_segments (self);
  etl_timeline_view_set_thread_states (self, NULL);
  if (self->lane_mode == ETL_LANE_PROCESS)
    start_thread_states (self);
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

static gboolean
rows_equivalent (EtlRowSet *a, EtlRowSet *b)
{
  if (a == b)
    return TRUE;
  return (a == NULL || etl_row_set_is_all (a)) && (b == NULL || etl_row_set_is_all (b));
}

/**
 * etl_timeline_view_set_rows:
 * @self: a timeline view
 * @rows: (nullable): the rows to show (those the filter kept), positions in
 *   the trace's merged sequence; %NULL or a set for which
 *   etl_row_set_is_all() holds shows every row
 *
 * Shows only @rows: the lanes, the per-lane totals, the selected range's
 * count, clicks and tooltips all follow.  The summaries are rebuilt in a
 * worker thread (cancelling a build in flight; calls before the main loop
 * runs again collapse into one build) and drawn when ready; until then the
 * previous ones stay on screen.  The selected record stays selected.
 */
void
etl_timeline_view_set_rows (EtlTimelineView *self, EtlRowSet *rows)
{
  gboolean same;

  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (rows == self->rows)
    return;
  same = rows_equivalent (rows, self->rows);
  if (rows != NULL)
    etl_row_set_ref (rows);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  self->rows = rows;
  if (self->has_selection)
    set_selection_internal (self, self->sel_begin, self->sel_end);
  if (!same)
    schedule_rebuild (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_timeline_view_get_rows:
 * @self: a timeline view
 *
 * Returns: (transfer none) (nullable): the rows shown, %NULL for every row
 */
EtlRowSet *
etl_timeline_view_get_rows (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  return self->rows;
}

/**
 * etl_timeline_view_get_lane_mode:
 * @self: a timeline view
 *
 * Returns: how records are split into lanes (the lanes drawn may still be
 *   those of the previous mode while the summary is being rebuilt)
 */
EtlLaneMode
etl_timeline_view_get_lane_mode (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), ETL_LANE_CPU);
  return self->lane_mode;
}

/**
 * etl_timeline_view_set_lane_mode:
 * @self: a timeline view
 * @mode: one lane per processor, provider or process
 *
 * Sets #EtlTimelineView:lane-mode.  The summaries are rebuilt in a worker
 * thread like for etl_timeline_view_set_rows() and the lanes change when
 * they are ready.
 */
void
etl_timeline_view_set_lane_mode (EtlTimelineView *self, EtlLaneMode mode)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));
  g_return_if_fail (mode <= ETL_LANE_PROCESS);

  if (self->lane_mode == mode)
    return;
  self->lane_mode = mode;
  update_actions (self);
  schedule_rebuild (self);
  if (mode == ETL_LANE_PROCESS && self->thread_states == NULL && self->states_cancellable == NULL)
    start_thread_states (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LANE_MODE]);
}

/**
 * etl_timeline_view_is_busy:
 * @self: a timeline view
 *
 * Returns: %TRUE while a summary for the current rows, lane mode or visible
 *   range is scheduled or being built (tests and benchmarks wait for %FALSE)
 */
gboolean
etl_timeline_view_is_busy (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), FALSE);
  return self->rebuild_source != 0 || self->cancellable != NULL ||
         self->detail_source != 0 || self->detail_cancellable != NULL || self->segments_cancellable != NULL ||
         self->states_cancellable != NULL;
}

/**
 * etl_timeline_view_get_n_lanes:
 * @self: a timeline view
 *
 * Returns: lanes drawn, 0 while no summary is ready; with
 *   #EtlTimelineView:hide-empty-lanes, those with events in the visible
 *   range
 */
guint
etl_timeline_view_get_n_lanes (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), 0);
  if (self->summary == NULL)
    return 0;
  shown_update (self);
  return self->shown->len;
}

/**
 * etl_timeline_view_get_lane_label:
 * @self: a timeline view
 * @lane: a lane drawn, 0 (the top) to etl_timeline_view_get_n_lanes() − 1
 *
 * The lane's label as drawn in the label column, before any shortening to
 * fit: "CPU 0", the provider's name, "name (PID)" or a thread's name or TID
 * (etl_summary_get_lane_label()).
 *
 * Returns: (transfer none) (nullable): the label, %NULL when @lane is not
 *   drawn
 */
const char *
etl_timeline_view_get_lane_label (EtlTimelineView *self, guint lane)
{
  guint index;

  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  if (self->summary == NULL)
    return NULL;
  index = shown_lane (self, lane);
  return index == G_MAXUINT ? NULL : etl_summary_get_lane_label (self->shown_summary, index);
}

/**
 * etl_timeline_view_set_process_color_func:
 * @self: a timeline view
 * @func: (nullable): gives the colour of a process's CPU segments, %FALSE
 *   for a process it has none for (drawn grey, as "Other")
 * @user_data: closure for @func
 * @destroy: (nullable): frees @user_data when replaced or finalized
 *
 * Colours the CPU lanes' segments (who ran when) by @func, e.g. with the
 * colours of the CPU usage graph so that a process looks the same in both.
 * Without it, a colour of the provider palette chosen from the process id.
 * Call gtk_widget_queue_draw() when @func's answers change.
 */
void
etl_timeline_view_set_process_color_func (EtlTimelineView *self, EtlTimelineProcessColorFunc func,
                                          gpointer user_data, GDestroyNotify destroy)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (self->process_color_destroy != NULL)
    self->process_color_destroy (self->process_color_data);
  self->process_color = func;
  self->process_color_data = user_data;
  self->process_color_destroy = destroy;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_timeline_view_get_hide_empty_lanes:
 * @self: a timeline view
 *
 * Returns: #EtlTimelineView:hide-empty-lanes
 */
gboolean
etl_timeline_view_get_hide_empty_lanes (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), FALSE);
  return self->hide_empty;
}

/**
 * etl_timeline_view_set_hide_empty_lanes:
 * @self: a timeline view
 * @hide: whether to leave out lanes without an event in the visible range
 *
 * Sets #EtlTimelineView:hide-empty-lanes.  In every lane mode (for process
 * lanes, a process stays while one of its thread lanes has events).  The
 * lanes are recomputed from the summary drawn, at once and whenever the
 * visible range changes.
 */
void
etl_timeline_view_set_hide_empty_lanes (EtlTimelineView *self, gboolean hide)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  hide = !!hide;
  if (self->hide_empty == hide)
    return;
  self->hide_empty = hide;
  self->shown_valid = FALSE;
  update_actions (self);
  shown_refresh (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIDE_EMPTY_LANES]);
}

/**
 * etl_timeline_view_get_lane_of_row:
 * @self: a timeline view
 * @row: a row of the trace
 *
 * Returns: the lane @row is drawn in (counting the lanes drawn), or
 *   G_MAXUINT while no summary is ready or when its lane is hidden
 *   (#EtlTimelineView:hide-empty-lanes)
 */
guint
etl_timeline_view_get_lane_of_row (EtlTimelineView *self, guint64 row)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), G_MAXUINT);
  if (self->trace == NULL || self->summary == NULL || row >= etl_trace_get_n_records (self->trace))
    return G_MAXUINT;
  return shown_index (self, lane_of_row (self, self->summary, row));
}

/**
 * etl_timeline_view_get_selected_row:
 * @self: a timeline view
 *
 * Returns: the selected record's row, or %ETL_TIMELINE_NO_ROW (G_MAXUINT64)
 *   when none is
 */
guint64
etl_timeline_view_get_selected_row (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), ETL_TIMELINE_NO_ROW);
  return self->selected_row;
}

/**
 * etl_timeline_view_select_row:
 * @self: a timeline view
 * @row: a row of the trace's merged sequence, or %ETL_TIMELINE_NO_ROW to
 *   select none
 * @center: whether to pan so that the record's time is in the middle of the
 *   visible range (the zoom level is kept)
 *
 * Marks @row with a line at its time and a marker in its lane, e.g. when
 * the event list's selection changed.  Does not emit
 * #EtlTimelineView::event-selected.
 */
void
etl_timeline_view_select_row (EtlTimelineView *self, guint64 row, gboolean center)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (self->trace == NULL || row >= etl_trace_get_n_records (self->trace))
    row = ETL_TIMELINE_NO_ROW;
  self->selected_row = row;
  if (row != ETL_TIMELINE_NO_ROW && center && self->zoom_manager != NULL)
    {
      gint64 t = etl_trace_get_filetime (self->trace, row);
      gint64 t0, t1;

      etl_zoom_manager_get_visible (self->zoom_manager, &t0, &t1);
      etl_zoom_manager_set_visible (self->zoom_manager, t - (t1 - t0) / 2, t - (t1 - t0) / 2 + (t1 - t0));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_timeline_view_get_selection:
 * @self: a timeline view
 * @begin: (out) (optional): start of the selected range, FILETIME
 * @end: (out) (optional): end of the selected range, FILETIME, exclusive
 *
 * Returns: %TRUE when a time range is selected
 */
gboolean
etl_timeline_view_get_selection (EtlTimelineView *self, gint64 *begin, gint64 *end)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), FALSE);

  if (begin != NULL)
    *begin = self->has_selection ? self->sel_begin : 0;
  if (end != NULL)
    *end = self->has_selection ? self->sel_end : 0;
  return self->has_selection;
}

/**
 * etl_timeline_view_set_selection:
 * @self: a timeline view
 * @begin: one end of the range, FILETIME
 * @end: the other end, FILETIME (the two may come in either order; equal
 *   ends clear the selection)
 *
 * Selects [@begin, @end) as a drag does, emitting
 * #EtlTimelineView::range-selected.
 */
void
etl_timeline_view_set_selection (EtlTimelineView *self, gint64 begin, gint64 end)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (begin == end)
    {
      etl_timeline_view_clear_selection (self);
      return;
    }
  set_selection_internal (self, begin, end);
  self->has_selection = TRUE;
  update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[RANGE_SELECTED], 0, self->sel_begin, self->sel_end);
}

/**
 * etl_timeline_view_clear_selection:
 * @self: a timeline view
 *
 * Clears the selected range (Escape does this), emitting
 * #EtlTimelineView::range-selected with 0, 0 if there was one.
 */
void
etl_timeline_view_clear_selection (EtlTimelineView *self)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (!self->has_selection)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  self->has_selection = FALSE;
  self->sel_begin = self->sel_end = 0;
  self->sel_count = 0;
  update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[RANGE_SELECTED], 0, (gint64) 0, (gint64) 0);
}

/**
 * etl_timeline_view_get_selection_count:
 * @self: a timeline view
 *
 * The number drawn on the selected range: rows shown whose FILETIME lies in
 * it, from two binary searches of the index (etl_trace_lower_bound() and
 * etl_row_set_find()), O(log n).
 *
 * Returns: records in the selected range, 0 when none is selected
 */
guint64
etl_timeline_view_get_selection_count (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), 0);
  return self->has_selection ? self->sel_count : 0;
}

/**
 * etl_timeline_view_zoom_to_selection:
 * @self: a timeline view
 *
 * Makes the selected range the visible range (within the zoom manager's
 * limits); the range stays selected.  Z and the "timeline.zoom-to-selection"
 * action call this.  Does nothing without a selection.
 */
void
etl_timeline_view_zoom_to_selection (EtlTimelineView *self)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (!self->has_selection || self->zoom_manager == NULL)
    return;
  etl_zoom_manager_set_visible (self->zoom_manager, self->sel_begin, self->sel_end);
}

/**
 * etl_timeline_view_get_process_expanded:
 * @self: a timeline view
 * @pid: a process id
 *
 * Returns: %TRUE when the process lane of @pid shows a lane per thread
 */
gboolean
etl_timeline_view_get_process_expanded (EtlTimelineView *self, guint32 pid)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), FALSE);
  if (self->expanded == NULL)
    return FALSE;
  for (guint i = 0; i < self->expanded->len; i++)
    if (g_array_index (self->expanded, guint32, i) == pid)
      return TRUE;
  return FALSE;
}

/**
 * etl_timeline_view_set_process_expanded:
 * @self: a timeline view
 * @pid: a process id
 * @expanded: whether its threads get lanes of their own
 *
 * In Process mode, expands a process lane into one lane per thread (as a
 * click on the lane's label does) or collapses it; the lanes are rebuilt
 * in a worker (etl_summary_new_expanded_async()).  Kept until another trace
 * is shown.
 */
void
etl_timeline_view_set_process_expanded (EtlTimelineView *self, guint32 pid, gboolean expanded)
{
  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));
  if (etl_timeline_view_get_process_expanded (self, pid) == !!expanded)
    return;
  if (self->expanded == NULL)
    self->expanded = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (expanded)
    g_array_append_val (self->expanded, pid);
  else
    for (guint i = 0; i < self->expanded->len; i++)
      if (g_array_index (self->expanded, guint32, i) == pid)
        {
          g_array_remove_index (self->expanded, i);
          break;
        }
  if (self->lane_mode == ETL_LANE_PROCESS)
    schedule_rebuild (self);
}

/**
 * etl_timeline_view_segment_at:
 * @self: a timeline view
 * @x: x in the view, pixels
 * @y: y in the view, pixels
 * @width: the view's width, pixels
 * @height: the view's height, pixels
 *
 * In CPU mode, when the trace has CSwitch records: the stretch of time a
 * thread ran on the processor of the lane under (@x, @y), at the time under
 * @x (#EtlCpuSegment: thread, process, the CSwitch record's row).
 *
 * Returns: (transfer none) (nullable): the segment, %NULL when the
 *   processor was idle, outside the lanes or in another mode
 */
const EtlCpuSegment *
etl_timeline_view_segment_at (EtlTimelineView *self, double x, double y, int width, int height)
{
  guint lane;
  gint64 t;

  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  if (self->segments == NULL || self->summary == NULL || etl_summary_get_mode (self->summary) != ETL_LANE_CPU ||
      !locate (self, x, y, width, height, &lane, &t))
    return NULL;
  return etl_cpu_segments_lookup (self->segments, etl_summary_get_lane_id (self->summary, lane), t);
}

/* "thread (TID n) · process (PID)" for a segment. */
static char *
segment_description (EtlTimelineView *self, const EtlCpuSegment *seg)
{
  EtlProcessTable *table = etl_trace_get_process_table (self->trace);
  const EtlThread *thread = table != NULL ? etl_process_table_lookup_thread (table, seg->tid, seg->start) : NULL;
  const EtlProcess *process = table != NULL && seg->pid != G_MAXUINT32 ? etl_process_table_lookup (table, seg->pid, seg->start) : NULL;
  g_autofree char *pname = process != NULL ? etl_process_format_name (process, seg->pid)
                                           : seg->pid != G_MAXUINT32 ? g_strdup_printf ("PID %u", seg->pid)
                                                                     : g_strdup ("unknown process");

  if (thread != NULL && thread->name != NULL && thread->name[0] != '\0')
    return g_strdup_printf ("%s (TID %u) · %s", thread->name, seg->tid, pname);
  return g_strdup_printf ("TID %u · %s", seg->tid, pname);
}

/**
 * etl_timeline_view_dup_segment_text_at:
 * @self: a timeline view
 * @x: x in the view, pixels
 * @y: y in the view, pixels
 * @width: the view's width, pixels
 * @height: the view's height, pixels
 *
 * The text the hover shows for etl_timeline_view_segment_at(): the thread
 * (name when known, TID) and its process, "name (PID)".
 *
 * Returns: (transfer full) (nullable): the text, %NULL without a segment
 */
char *
etl_timeline_view_dup_segment_text_at (EtlTimelineView *self, double x, double y, int width, int height)
{
  const EtlCpuSegment *seg = etl_timeline_view_segment_at (self, x, y, width, height);

  return seg != NULL ? segment_description (self, seg) : NULL;
}

/* Thread states (issue 20): built in a worker when Process mode is entered
 * or a trace is set in it, like the CPU segments. */
static void
thread_states_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  GError *error = NULL;
  EtlThreadStates *states = etl_thread_states_new (task_data, cancellable, &error);

  if (states == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, states, (GDestroyNotify) etl_thread_states_unref);
}

static void
on_thread_states_ready (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (EtlTimelineView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlThreadStates) states = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_task_get_cancellable (G_TASK (result)) != self->states_cancellable)
    return;
  g_clear_object (&self->states_cancellable);
  if (states == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not build the thread states: %s", error->message);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  etl_timeline_view_set_thread_states (self, states);
}

static void
start_thread_states (EtlTimelineView *self)
{
  g_autoptr (GTask) task = NULL;

  g_cancellable_cancel (self->states_cancellable);
  g_clear_object (&self->states_cancellable);
  if (self->trace == NULL)
    return;
  self->states_cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->states_cancellable, on_thread_states_ready, g_object_ref (self));
  g_task_set_task_data (task, etl_trace_ref (self->trace), (GDestroyNotify) etl_trace_unref);
  etl_worker_run (task, thread_states_thread);
}

/**
 * etl_timeline_view_set_thread_states:
 * @self: a timeline view
 * @states: (nullable): the thread states of the trace shown, or %NULL
 *
 * Sets what Process mode's thread lanes draw under their event marks:
 * Running, Ready and Waiting spans (see etl-thread-lanes.c).  The view
 * builds them itself in a worker when Process mode is entered; a trace
 * without CSwitch records (no thread has a state) draws none.  Clears the
 * selected wait.
 */
void
etl_timeline_view_set_thread_states (EtlTimelineView *self, EtlThreadStates *states)
{
  guint n_threads = 0;

  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));

  if (states != NULL)
    etl_thread_states_get_threads (states, &n_threads);
  if (states != NULL && n_threads > 0)
    etl_thread_states_ref (states);
  else
    states = NULL;
  g_clear_pointer (&self->thread_states, etl_thread_states_unref);
  self->thread_states = states;
  self->wait_index = ETL_THREAD_LANES_NONE;
  update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_timeline_view_get_thread_states:
 * @self: a timeline view
 *
 * Returns: (transfer none) (nullable): the thread states drawn, %NULL
 *   before they are built or when the trace has none
 */
EtlThreadStates *
etl_timeline_view_get_thread_states (EtlTimelineView *self)
{
  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  return self->thread_states;
}

/* The state of the thread lane under (@x, @y), ETL_THREAD_LANES_NONE when
 * the pointer is not over a thread lane's state. */
static guint
state_at_pointer (EtlTimelineView *self, double x, double y, int width, int height, guint32 *tid)
{
  guint lane, n;
  gint64 t;
  const EtlThreadState *states;

  if (self->thread_states == NULL || self->summary == NULL ||
      etl_summary_get_mode (self->summary) != ETL_LANE_PROCESS || !locate (self, x, y, width, height, &lane, &t) ||
      !etl_summary_get_lane_is_thread (self->summary, lane))
    return ETL_THREAD_LANES_NONE;
  *tid = etl_summary_get_lane_id (self->summary, lane);
  states = etl_thread_states_get (self->thread_states, *tid, &n);
  return etl_thread_lanes_state_at (states, n, t);
}

/**
 * etl_timeline_view_thread_state_at:
 * @self: a timeline view
 * @tid: a thread id
 * @x: x in the view, pixels (the time axis starts after the label column)
 *
 * The state thread @tid's lane shows at @x: the one covering the time at
 * @x in the visible range and the width last drawn (the lane draws it
 * there unless a state shorter than a pixel reached the column first).
 *
 * Returns: (transfer none) (nullable): the state, %NULL without thread
 *   states, outside the axis or when no state covers that time
 */
const EtlThreadState *
etl_timeline_view_thread_state_at (EtlTimelineView *self, guint32 tid, double x)
{
  const EtlThreadState *states;
  guint n, index;
  gint64 t;

  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), NULL);
  if (self->thread_states == NULL || self->zoom_manager == NULL || self->axis_w <= 0 ||
      x < ETL_LABEL_COLUMN_WIDTH || x >= ETL_LABEL_COLUMN_WIDTH + self->axis_w)
    return NULL;
  states = etl_thread_states_get (self->thread_states, tid, &n);
  t = etl_zoom_manager_x_to_time (self->zoom_manager, x - ETL_LABEL_COLUMN_WIDTH, self->axis_w);
  index = etl_thread_lanes_state_at (states, n, t);
  return index != ETL_THREAD_LANES_NONE ? &states[index] : NULL;
}

/**
 * etl_timeline_view_select_thread_state:
 * @self: a timeline view
 * @tid: a thread id
 * @index: index into etl_thread_states_get() of @tid, or
 *   %ETL_THREAD_LANES_NONE to clear
 *
 * Selects a state of thread @tid (what a click on a wait does): its span is
 * outlined and, for a wait that a thread readied, an arrow goes from its
 * end to the readying thread's lane when that lane is drawn.  The
 * "timeline.go-to-waker" action is enabled while the selected wait has a
 * ReadyThread record.
 */
void
etl_timeline_view_select_thread_state (EtlTimelineView *self, guint32 tid, guint index)
{
  guint n = 0;

  g_return_if_fail (ETL_IS_TIMELINE_VIEW (self));
  if (self->thread_states == NULL || etl_thread_states_get (self->thread_states, tid, &n) == NULL || index >= n)
    index = ETL_THREAD_LANES_NONE;
  if (index == self->wait_index && tid == self->wait_tid)
    return;
  self->wait_tid = tid;
  self->wait_index = index;
  update_actions (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_timeline_view_go_to_waker:
 * @self: a timeline view
 *
 * "Go to the waker" (key W, action "timeline.go-to-waker"): selects the
 * ReadyThread record that ended the selected wait (the record beginning
 * the Ready state after it), centres it and emits
 * #EtlTimelineView::event-selected so that the list follows.
 *
 * Returns: that record's row, %ETL_TIMELINE_NO_ROW when no wait is
 *   selected or no ReadyThread ended it
 */
guint64
etl_timeline_view_go_to_waker (EtlTimelineView *self)
{
  const EtlThreadState *states;
  guint n, ready;

  g_return_val_if_fail (ETL_IS_TIMELINE_VIEW (self), ETL_TIMELINE_NO_ROW);
  if (selected_wait (self, &n, &states) == NULL)
    return ETL_TIMELINE_NO_ROW;
  ready = etl_thread_lanes_waker_of (states, n, self->wait_index);
  if (ready == ETL_THREAD_LANES_NONE)
    return ETL_TIMELINE_NO_ROW;
  etl_timeline_view_select_row (self, states[ready].record, TRUE);
  if (self->selected_row == ETL_TIMELINE_NO_ROW)
    return ETL_TIMELINE_NO_ROW;
  g_signal_emit (self, signals[EVENT_SELECTED], 0, self->selected_row);
  return self->selected_row;
}
