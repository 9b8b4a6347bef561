/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Thread lanes' states (issue 20): a thread's life from CSwitch and
 * ReadyThread records (EtlThreadStates) drawn as spans under the lane's
 * event marks: Running in the colour of the processor it ran on, Ready
 * hatched (it wanted a processor), Waiting pale and thinner, switched out
 * with Ready and Waiting not told apart (no ReadyThread records) paler
 * still.  Drawing visits only the states in the visible range (a binary
 * search finds the first) and gives each pixel column at most one span:
 * the first state that reaches it, as the CPU lanes' segments do. */

#include "config.h"

#include <math.h>
#include <string.h>

#include "etl-process-table.h"
#include "etl-thread-lanes.h"

#include "etl-cswitch.h"
#include "etl-column-strip.h"
#include "etl-gallop.h"
#include "etl-time-ruler.h"
#include "etl-timeline-view.h"

/* The first state at or after @from that ends after @t (n_states when
 * none). */
static guint
first_ending_after_from (const EtlThreadState *states, guint n_states, guint from, gint64 t)
{
  return (guint) etl_gallop_ending_after (states, n_states, sizeof (EtlThreadState),
                                          G_STRUCT_OFFSET (EtlThreadState, end), from, t);
}

/* The first state that ends after @t (n_states when none). */
static guint
first_ending_after (const EtlThreadState *states, guint n_states, gint64 t)
{
  return first_ending_after_from (states, n_states, 0, t);
}

/* The FILETIME at the left edge of column @col. */
static gint64
time_of_column (const EtlThreadLaneGeometry *g, guint col)
{
  return g->t0 + (gint64) ((double) col * (double) (g->t1 - g->t0) / g->axis_w);
}

/* Ready's look: a 6 × 6 tile of diagonal hatch in @fg, premultiplied
 * ARGB32, drawn with cairo once per foreground colour and kept. */
#define HATCH 6
static const guint32 *
hatch_tile (const GdkRGBA *fg)
{
  static guint32 tile[HATCH * HATCH];
  static GdkRGBA tile_fg = { -1, -1, -1, -1 };
  cairo_surface_t *surface;
  cairo_t *cr;
  const guint8 *data;
  int stride;

  if (gdk_rgba_equal (fg, &tile_fg))
    return tile;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, HATCH, HATCH);
  cr = cairo_create (surface);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.10);
  cairo_paint (cr);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.65);
  cairo_set_line_width (cr, 1.2);
  cairo_move_to (cr, -1, 7);
  cairo_line_to (cr, 7, -1);
  cairo_move_to (cr, -1, 1);
  cairo_line_to (cr, 1, -1);
  cairo_move_to (cr, 5, 7);
  cairo_line_to (cr, 7, 5);
  cairo_stroke (cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < HATCH && data != NULL; y++)
    memcpy (tile + y * HATCH, data + (gsize) y * stride, HATCH * 4);
  cairo_surface_destroy (surface);
  tile_fg = *fg;
  return tile;
}

/* The key of a span's look: spans of one key are one path. */
static guint
span_key (const EtlThreadState *state)
{
  if (state->kind == ETL_THREAD_STATE_RUNNING)
    return 4 + MIN (state->cpu, 0xffffu);
  return state->kind;
}

/* The vertical extent of a span of @kind. */
static void
span_rect (const EtlThreadLaneGeometry *g, guint kind, double *ry, double *rh)
{
  double inner = MAX (g->h - 6, 2);

  if (kind == ETL_THREAD_STATE_WAITING || kind == ETL_THREAD_STATE_NOT_RUNNING)
    inner = MAX (floor (inner * 0.4), 2);
  *ry = floor (g->y + (g->h - inner) / 2.0);
  *rh = inner;
}

typedef struct
{
  guint key;
  guint kind;
  double x0, x1;
} Span;

/* Adds the span [@x0, @x1) of look @key to @spans, merged into the last
 * one when that has the same look and touches it. */
static void
add_span (GArray *spans, guint key, guint kind, double x0, double x1)
{
  Span sp = { key, kind, x0, x1 };

  if (spans->len > 0 && g_array_index (spans, Span, spans->len - 1).key == key
      && g_array_index (spans, Span, spans->len - 1).x1 >= x0)
    g_array_index (spans, Span, spans->len - 1).x1 = x1;
  else
    g_array_append_val (spans, sp);
}

/* The spans of columns [c0, c1) from the thread's overview: each column
 * takes the sample of the bucket its left edge falls in. */
static void
spans_from_overview (GArray *spans, const EtlThreadLaneGeometry *g, const EtlThreadStateSample *ov, gint64 ov_start,
                     gint64 ov_width, guint ov_n, guint c0, guint c1)
{
  for (guint col = c0; col < c1; col++)
    {
      gint64 t = time_of_column (g, col);
      gint64 b;

      if (t < ov_start)
        continue;
      b = (t - ov_start) / ov_width;
      if (b >= ov_n)
        break;
      if (ov[b].present)
        {
          EtlThreadState st = { 0 };

          st.kind = ov[b].kind;
          st.cpu = ov[b].cpu;
          add_span (spans, span_key (&st), st.kind, col, col + 1);
        }
    }
}

/* The spans of columns [c0, c1) from the states: column by column, the
 * state at the column's left edge (the first that ends after it) takes the
 * column and the whole columns it spans; then on from the column after it.
 * O(columns × log states). */
static void
spans_from_states (GArray *spans, const EtlThreadLaneGeometry *g, const EtlThreadState *states, guint n_states,
                   guint c0, guint c1)
{
  double span = (double) (g->t1 - g->t0);

  for (guint col = c0, k = first_ending_after (states, n_states, time_of_column (g, c0)); col < c1;)
    {
      double x0, x1;

      if (k >= n_states || states[k].start >= g->t1)
        break;
      x0 = floor (CLAMP ((double) (states[k].start - g->t0) / span * g->axis_w, 0, (double) g->axis_w));
      x1 = floor (CLAMP ((double) (states[k].end - g->t0) / span * g->axis_w, 0, (double) g->axis_w));
      x0 = MAX (x0, (double) col);
      if (x0 >= c1)
        break;
      x1 = MAX (x1, x0 + 1);
      add_span (spans, span_key (&states[k]), states[k].kind, x0, x1);
      col = (guint) x1;
      k = first_ending_after_from (states, n_states, k, time_of_column (g, col));
    }
}

/* Running's pixel on processor @cpu: its colour
 * (etl_timeline_view_get_provider_color()) at 0.85, kept for the first 256
 * processors (a zoomed-out frame has tens of thousands of spans, and four
 * lround() a pixel were a tenth of it). */
static guint32
running_pixel (guint cpu)
{
  static guint32 cache[256];
  GdkRGBA rgba;
  guint32 px;

  if (cpu < G_N_ELEMENTS (cache) && cache[cpu] != 0)
    return cache[cpu];
  etl_timeline_view_get_provider_color (cpu, &rgba);
  px = etl_column_strip_pixel (rgba.red, rgba.green, rgba.blue, 0.85);
  if (cpu < G_N_ELEMENTS (cache))
    cache[cpu] = px;
  return px;
}

/* Paints @spans (columns relative to the axis, within [@c0, @c1)) as one
 * image of the lane's columns and rows, composited once: per column its
 * look — Running full height in its processor's colour, Ready the hatch
 * tile (hatch_tile(), laid from the user-space origin as a repeating
 * pattern would lay it), Waiting and Not running a thin band — written as
 * pixels.  A cairo fill per span cost ~0.2 µs each (a lane of one-pixel
 * spans ~0.4 ms); one-pixel strips stretched to height and a hatch mask
 * were still half of a 50-lane frame in pixman's scaling and general
 * paths. */
static void
paint_spans (cairo_t *cr, const EtlThreadLaneGeometry *g, const GArray *spans, const GdkRGBA *fg, guint c0, guint c1)
{
  int w = (int) (c1 - c0);
  const guint32 *tile = hatch_tile (fg);
  g_autofree guint32 *full = g_new0 (guint32, w);
  g_autofree guint32 *thin = g_new0 (guint32, w);
  guint32 waiting = etl_column_strip_pixel (fg->red, fg->green, fg->blue, 0.16);
  guint32 not_running = etl_column_strip_pixel (fg->red, fg->green, fg->blue, 0.08);
  cairo_surface_t *surface;
  guint32 *px;
  double ry, rh, thin_y, thin_h;
  int rows, thin_r0, thin_r1, stride, x0, y0;

  for (guint i = 0; i < spans->len; i++)
    {
      const Span *sp = &g_array_index (spans, Span, i);
      int s0 = MAX ((int) sp->x0 - (int) c0, 0), s1 = MIN ((int) sp->x1 - (int) c0, w);
      guint32 f = 0, t = 0;

      if (s1 <= s0)
        continue;
      switch (sp->key)
        {
        case ETL_THREAD_STATE_READY:
          break; /* the hatch is laid below, over clear columns */
        case ETL_THREAD_STATE_WAITING:
        case ETL_THREAD_STATE_NOT_RUNNING:
          t = sp->key == ETL_THREAD_STATE_WAITING ? waiting : not_running;
          break;
        default:
          f = running_pixel (sp->key - 4);
          break;
        }
      for (int x = s0; x < s1; x++)
        {
          full[x] = f;
          thin[x] = t;
        }
    }

  span_rect (g, ETL_THREAD_STATE_RUNNING, &ry, &rh);
  span_rect (g, ETL_THREAD_STATE_WAITING, &thin_y, &thin_h);
  rows = (int) ceil (rh);
  y0 = (int) ry;
  thin_r0 = (int) thin_y - y0;
  thin_r1 = thin_r0 + (int) ceil (thin_h);
  x0 = (int) floor (g->x) + (int) c0;
  if (rows <= 0 || w <= 0)
    return;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, rows);
  cairo_surface_flush (surface);
  px = (guint32 *) (gpointer) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;
  if (px != NULL)
    {
      /* Row by row the Running and thin looks (a loop the compiler
       * vectorises), then the Ready spans' hatch over their columns. */
      for (int r = 0; r < rows; r++)
        {
          guint32 thin_mask = r >= thin_r0 && r < thin_r1 ? 0xffffffffu : 0;
          guint32 *row = px + (gsize) r * stride;

          for (int x = 0; x < w; x++)
            row[x] = full[x] | (thin[x] & thin_mask);
        }
      for (guint i = 0; i < spans->len; i++)
        {
          const Span *sp = &g_array_index (spans, Span, i);
          int s0 = MAX ((int) sp->x0 - (int) c0, 0), s1 = MIN ((int) sp->x1 - (int) c0, w);

          if (sp->key != ETL_THREAD_STATE_READY)
            continue;
          for (int r = 0; r < rows; r++)
            {
              const guint32 *tile_row = tile + ((y0 + r) % HATCH + HATCH) % HATCH * HATCH;
              guint32 *row = px + (gsize) r * stride;

              for (int x = s0; x < s1; x++)
                row[x] = tile_row[((x0 + x) % HATCH + HATCH) % HATCH];
            }
        }
      cairo_surface_mark_dirty (surface);
      cairo_save (cr);
      cairo_set_source_surface (cr, surface, x0, y0);
      cairo_rectangle (cr, x0, y0, w, rows);
      cairo_fill (cr);
      cairo_restore (cr);
    }
  cairo_surface_destroy (surface);
}

/**
 * etl_thread_lanes_draw:
 * @cr: a cairo context
 * @geometry: the lane's place and time range
 * @all: the trace's thread states
 * @tid: the lane's thread
 * @c0: first column to draw (the clip's left edge)
 * @c1: column after the last to draw (the clip's right edge)
 * @fg: the theme's foreground colour (Ready's hatch, Waiting's shade)
 * @selected: index of the state to outline, %ETL_THREAD_LANES_NONE for none
 *
 * Draws the spans of the thread's states (etl_thread_states_get()) in the
 * lane: Running in the colour of its processor
 * (etl_timeline_view_get_provider_color() of the processor number), Ready
 * hatched, Waiting pale and thinner, Not running paler.  At most one span
 * per pixel column: the state at the column's left edge.  Zoomed out so far
 * that a column is wider than a bucket of the thread's overview
 * (etl_thread_states_get_overview(), for threads of many states), the
 * columns read the overview and no state; else a search finds the state at
 * @c0 and, after each span, gallops on to the state at the next column, so
 * a frame visits O(columns × log states) states whatever the number in the
 * range.  Spans lie on whole pixel columns and are written as pixels into
 * one image a lane, composited once (a zoomed-out lane alternates looks
 * column by column: a cairo fill per span made a 50-lane frame cost
 * hundreds of ms).
 */
void
etl_thread_lanes_draw (cairo_t *cr, const EtlThreadLaneGeometry *geometry, EtlThreadStates *all, guint32 tid,
                       guint c0, guint c1, const GdkRGBA *fg, guint selected)
{
  const EtlThreadLaneGeometry *g = geometry;
  g_autoptr (GArray) spans = NULL;
  const EtlThreadState *states;
  const EtlThreadStateSample *ov;
  gint64 ov_start = 0, ov_width = 1;
  guint ov_n = 0;
  guint n_states = 0;
  double span;

  g_return_if_fail (cr != NULL && g != NULL && all != NULL && fg != NULL);
  states = etl_thread_states_get (all, tid, &n_states);
  if (states == NULL || n_states == 0 || g->t1 <= g->t0 || c1 <= c0)
    return;
  span = (double) (g->t1 - g->t0);
  spans = g_array_sized_new (FALSE, FALSE, sizeof (Span), MIN (c1 - c0, 4096));
  ov = etl_thread_states_get_overview (all, tid, &ov_start, &ov_width, &ov_n);
  if (ov != NULL && span / g->axis_w >= (double) ov_width)
    spans_from_overview (spans, g, ov, ov_start, ov_width, ov_n, c0, c1);
  else
    spans_from_states (spans, g, states, n_states, c0, c1);
  paint_spans (cr, g, spans, fg, c0, c1);
  /* The selected state's outline. */
  if (selected < n_states && states[selected].end >= g->t0 && states[selected].start <= g->t1)
    {
      double sel_x0 = CLAMP ((double) (states[selected].start - g->t0) / span * g->axis_w, 0, (double) g->axis_w);
      double sel_x1 = CLAMP ((double) (states[selected].end - g->t0) / span * g->axis_w, 0, (double) g->axis_w);
      double ry, rh;

      sel_x1 = MAX (sel_x1, sel_x0 + 1);
      span_rect (g, states[selected].kind, &ry, &rh);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.9);
      cairo_set_line_width (cr, 1.5);
      cairo_rectangle (cr, g->x + sel_x0 + 0.75, ry - 1.25, MAX (sel_x1 - sel_x0 - 1.5, 1), rh + 2.5);
      cairo_stroke (cr);
    }
}

/**
 * etl_thread_lanes_state_at:
 * @states: (array length=n_states): one thread's states, in time order
 * @n_states: their number
 * @t: a FILETIME
 *
 * Returns: the index of the state with start ≤ @t < end,
 *   %ETL_THREAD_LANES_NONE when none covers @t
 */
guint
etl_thread_lanes_state_at (const EtlThreadState *states, guint n_states, gint64 t)
{
  guint k;

  if (states == NULL)
    return ETL_THREAD_LANES_NONE;
  k = first_ending_after (states, n_states, t);
  return k < n_states && states[k].start <= t ? k : ETL_THREAD_LANES_NONE;
}

/**
 * etl_thread_lanes_waker_of:
 * @states: (array length=n_states): one thread's states, in time order
 * @n_states: their number
 * @index: a Waiting state's index
 *
 * The state that ReadyThread began: a Waiting state ends when a
 * ReadyThread record readies the thread, and that record begins the next
 * state (Ready; EtlThreadState.record, see etl-thread-states.h).
 *
 * Returns: the index of that Ready state, %ETL_THREAD_LANES_NONE when
 *   @index is not a Waiting state that a ReadyThread ended
 */
guint
etl_thread_lanes_waker_of (const EtlThreadState *states, guint n_states, guint index)
{
  if (states == NULL || index + 1 >= n_states || states[index].kind != ETL_THREAD_STATE_WAITING ||
      states[index].readying_tid == ETL_THREAD_STATES_NO_ID)
    return ETL_THREAD_LANES_NONE;
  if (states[index + 1].kind != ETL_THREAD_STATE_READY || states[index + 1].start != states[index].end)
    return ETL_THREAD_LANES_NONE;
  return index + 1;
}

/**
 * etl_thread_lanes_dup_wait_text:
 * @trace: the trace (names the readying thread's process)
 * @state: a Waiting, Ready or Not running state
 *
 * The hover text of a state off the processor: its kind, the wait reason
 * (OldThreadWaitReason of the CSwitch that switched the thread out, by
 * number: KWAIT_REASON, see the CSwitch MOF class), the wait mode, its
 * duration and the thread that readied it with its process.
 *
 * Returns: (transfer full): Pango markup
 */
char *
etl_thread_lanes_dup_wait_text (EtlTrace *trace, const EtlThreadState *state)
{
  g_autoptr (GString) str = g_string_new (NULL);
  g_autofree char *duration = NULL;

  g_return_val_if_fail (state != NULL, NULL);
  duration = etl_time_format_span (state->end - state->start);
  g_string_append_printf (str, "<b>%s</b> · %s", etl_thread_state_kind_name (state->kind), duration);
  if (state->wait_reason != ETL_THREAD_STATES_UNKNOWN)
    {
      const char *name = etl_cswitch_wait_reason_name (state->wait_reason);

      if (name != NULL)
        g_string_append_printf (str, "\nWait reason %s (%d)", name, state->wait_reason);
      else
        g_string_append_printf (str, "\nWait reason %d", state->wait_reason);
    }
  if (state->wait_mode != ETL_THREAD_STATES_UNKNOWN)
    g_string_append_printf (str, " · %s", state->wait_mode == 0 ? "KernelMode" : "UserMode");
  if (state->readying_tid == 0)
    g_string_append (str, "\nReadied by a DPC or the idle thread");
  else if (state->readying_tid != ETL_THREAD_STATES_NO_ID)
    {
      EtlProcessTable *table = trace != NULL ? etl_trace_get_process_table (trace) : NULL;
      const EtlProcess *process = table != NULL && state->readying_pid != ETL_THREAD_STATES_NO_ID
                                      ? etl_process_table_lookup (table, state->readying_pid, state->end)
                                      : NULL;
      g_autofree char *pname = process != NULL ? etl_process_format_name (process, state->readying_pid)
                               : state->readying_pid != ETL_THREAD_STATES_NO_ID
                                   ? g_strdup_printf ("PID %u", state->readying_pid)
                                   : g_strdup ("unknown process");
      g_autofree char *escaped = g_markup_escape_text (pname, -1);

      g_string_append_printf (str, "\nReadied by TID %u · %s", state->readying_tid, escaped);
    }
  else if (state->kind == ETL_THREAD_STATE_WAITING)
    g_string_append (str, "\nNot readied before the trace's end");
  return g_string_free (g_steal_pointer (&str), FALSE);
}
