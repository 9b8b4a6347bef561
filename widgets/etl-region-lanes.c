/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-region-lanes
 * @title: EtlRegionLanes
 * @short_description: the timeline's Regions area: spans as nested bars, one lane per provider, process or thread
 *
 * Below the timeline's lanes, on the same time axis (the shared
 * #EtlZoomManager, the same label column), the intervals of an
 * #EtlSpanSet — the trace's Start/Stop activities (shared per trace,
 * etl_span_set_get_activities_shared()) and those of a loaded Regions of
 * Interest file (etl_region_lanes_set_extra()) — as bars: one lane per
 * provider (or Regions file), process or thread (#EtlRegionLanesMode, the
 * window follows the timeline's lane mode), spans nested in a lane drawn
 * as stacked rows (a span goes to the first row free when it begins, below
 * its parent's row when the parent is in the same lane; at most
 * %ETL_REGION_LANES_MAX_ROWS rows, the deepest spans share the last).  A span
 * wide enough carries its name; hovering shows its name, duration and the
 * Start's fields; a click selects it (#EtlRegionLanes::span-selected: the
 * window selects its Start in the event list), a double-click zooms to it.
 * The spans whose Start the filter hides are left out
 * (etl_region_lanes_set_rows()); outside the range selected in the timeline
 * the area is shaded.  In lanes by source the built-in intervals' lanes
 * (".NET GC", "Disk I/O", "File I/O"…: %ETL_SPAN_KIND_BUILTIN) come first,
 * then the others by their first span.
 *
 * A lane is as high as the spans it has in the visible range need: one
 * row more than the deepest row holding such a span (the rows above it
 * stay, so nesting keeps its shape); a lane with none there collapses to
 * a thin row with its name (%ETL_REGION_LANES_COLLAPSED_HEIGHT).  The
 * depths are found when the visible range changes (per row, one binary
 * search on the running maximum of the ends: microseconds for any number
 * of spans), not per frame.  So that zooming or dragging does not make
 * the timeline jump on every pixel, a lane grows at once (nothing in view
 * is ever left out) but shrinks only once the visible range has stayed
 * still for %ETL_REGION_LANES_SHRINK_DELAY ms: during a gesture heights
 * only grow, and settle once at its end.  etl_region_lanes_new_scrolled()
 * puts the area in a scroller at most %ETL_REGION_LANES_MAX_AREA_HEIGHT
 * high, so that many lanes scroll on their own (the mouse wheel over
 * them) instead of pushing the timeline's lanes out of a small window.
 *
 * The layout (lanes, rows, each row's spans by start with the running
 * maximum of their ends) is built in a worker.  Drawing visits, per row,
 * only the spans of the visible range (a binary search on the running
 * maximum) and at most one bar per pixel column where spans are narrower
 * than a pixel (the next span is found by a binary search past that
 * column), and fills the bars of one colour as one path: a frame costs
 * O(rows × width × log n), whatever the number of spans.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "etl-decode.h"
#include "etl-duration-histogram.h"
#include "etl-precise-details.h"
#include "etl-region-lanes.h"
#include "etl-trace-decode.h"
#include "etl-worker.h"

#define LANE_GAP ETL_REGION_LANES_GAP
#define N_COLORS 10
#define NO_LANE G_MAXUINT32

/* A row's span as the drawing reads it: the three times together, so that
 * a search and what follows it stay in one or two cache lines. */
typedef struct
{
  gint64 start;
  gint64 stop;
  gint64 max_stop; /* the latest end among the row's spans up to this one */
} RowEntry;

typedef struct
{
  guint32 *idx;     /* spans of the row, by start */
  RowEntry *ent;    /* their times (the spans themselves are not read) */
  guint8 *color;    /* color[i]: its colour (color_of()) */
  guint n;
} Row;

typedef struct
{
  char *label;
  guint first_row;
  guint n_rows;   /* rows of all its spans */
  guint shown;    /* rows given room now (0: collapsed; update_heights()) */
  int top;        /* widget y of its first row, pixels */
} Lane;

typedef struct
{
  EtlSpanSet *spans;
  Lane *lanes;
  guint n_lanes;
  Row *rows;
  guint n_rows;
  guint32 *span_lane; /* per span: its lane, NO_LANE when hidden */
  guint8 *span_row;   /* per span: its row in the lane */
  int height;         /* of all the lanes as shown, pixels */
} Layout;

struct _EtlRegionLanes
{
  GtkDrawingArea parent_instance;

  EtlZoomManager *zoom_manager;
  gulong zoom_handler;
  EtlTrace *trace;
  EtlSpanSet *extra;
  EtlRowSet *rows;
  EtlRegionLanesMode mode;
  gint64 range_begin, range_end;

  Layout *layout;
  GCancellable *cancellable;
  guint idle_id;
  guint shrink_id; /* lanes shrink when it fires (update_heights()) */
  GtkScrolledWindow *scroller; /* weak: etl_region_lanes_new_scrolled()'s */
  guint32 selected;
  guint n_drawn;
  cairo_surface_t *pixels;           /* the bars, reused from frame to frame */
  guint32 pixel_colors[2 * N_COLORS]; /* premultiplied ARGB; open spans from N_COLORS */
};

enum
{
  SPAN_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_TYPE (EtlRegionLanes, etl_region_lanes, GTK_TYPE_DRAWING_AREA)

/* Tango's mid tones, for names (one per name hash). */
static const guint32 palette[N_COLORS] = {
  0x729fcf, 0x8ae234, 0xfcaf3e, 0xad7fa8, 0xe9b96e, 0x34e2e2, 0xef2929, 0xfce94f, 0x73d216, 0x3465a4,
};

static guint
name_color (guint32 name)
{
  return ((name * 2654435761u) >> 16) % N_COLORS;
}

/* The scratch array of a span's bars: its name's colour, open ones apart. */
static guint
color_of (const EtlSpan *x)
{
  return name_color (x->name) + ((x->flags & ETL_SPAN_OPEN) ? N_COLORS : 0);
}


static void
layout_free (Layout *l)
{
  if (l == NULL)
    return;
  for (guint i = 0; i < l->n_lanes; i++)
    g_free (l->lanes[i].label);
  for (guint r = 0; r < l->n_rows; r++)
    {
      g_free (l->rows[r].idx);
      g_free (l->rows[r].ent);
      g_free (l->rows[r].color);
    }
  g_free (l->lanes);
  g_free (l->rows);
  g_free (l->span_lane);
  g_free (l->span_row);
  g_clear_pointer (&l->spans, etl_span_set_unref);
  g_free (l);
}

static int
cmp_start (gconstpointer a, gconstpointer b, gpointer data)
{
  const EtlSpan *s = data;
  const EtlSpan *x = &s[*(const guint32 *) a], *y = &s[*(const guint32 *) b];

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->stop != y->stop)
    return x->stop > y->stop ? -1 : 1; /* the enclosing one first */
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

static gboolean
shown (EtlRowSet *rows, guint64 record)
{
  guint64 pos;

  if (rows == NULL || etl_row_set_is_all (rows) || record == ETL_SPAN_NO_RECORD)
    return TRUE;
  pos = etl_row_set_find (rows, record);
  return pos < etl_row_set_get_n (rows) && etl_row_set_get (rows, pos) == record;
}

static char *
lane_label (EtlSpanSet *set, EtlTrace *trace, EtlRegionLanesMode mode, const EtlSpan *s)
{
  EtlProcessTable *table = trace != NULL ? etl_trace_get_process_table (trace) : NULL;

  switch (mode)
    {
    case ETL_REGION_LANES_BY_PROCESS:
      return table != NULL ? etl_precise_format_process (table, s->pid, s->tid, s->start)
                           : g_strdup_printf ("Process %u", s->pid);
    case ETL_REGION_LANES_BY_THREAD:
      {
        g_autofree char *process = table != NULL ? etl_precise_format_process (table, s->pid, s->tid, s->start)
                                                 : g_strdup_printf ("%u", s->pid);

        return g_strdup_printf ("Thread %u · %s", s->tid, process);
      }
    case ETL_REGION_LANES_BY_SOURCE:
    default:
      return g_strdup (etl_span_set_get_string (set, s->lane));
    }
}

static Layout *
build_layout (EtlSpanSet *set, EtlTrace *trace, EtlRowSet *rows, EtlRegionLanesMode mode, GCancellable *cancellable)
{
  Layout *l = g_new0 (Layout, 1);
  g_autoptr (GHashTable) keys = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr (GPtrArray) members = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();
  g_autoptr (GArray) builtin = g_array_new (FALSE, FALSE, sizeof (gboolean));
  g_autoptr (GArray) all_rows = g_array_new (FALSE, TRUE, sizeof (Row));
  g_autoptr (GArray) lanes = g_array_new (FALSE, TRUE, sizeof (Lane));
  guint n = 0;
  const EtlSpan *s = etl_span_set_get (set, &n);

  l->spans = etl_span_set_ref (set);
  l->span_lane = g_new (guint32, MAX (n, 1));
  l->span_row = g_new0 (guint8, MAX (n, 1));
  /* The keys are kept in a list of blocks so that their addresses stay put. */
  {
    g_autoptr (GPtrArray) blocks = g_ptr_array_new_with_free_func (g_free);
    gint64 *block = NULL;
    guint used = 256;

    for (guint i = 0; i < n; i++)
      {
        gint64 key;
        gpointer found;
        guint lane;

        l->span_lane[i] = NO_LANE;
        if (!shown (rows, s[i].start_record))
          continue;
        key = mode == ETL_REGION_LANES_BY_PROCESS  ? (gint64) s[i].pid
              : mode == ETL_REGION_LANES_BY_THREAD ? ((gint64) s[i].pid << 32) | s[i].tid
                                                   : (gint64) s[i].lane;
        found = g_hash_table_lookup (keys, &key);
        if (found == NULL)
          {
            if (used == 256)
              {
                block = g_new (gint64, 256);
                g_ptr_array_add (blocks, block);
                used = 0;
              }
            block[used] = key;
            lane = members->len;
            g_hash_table_insert (keys, &block[used++], GUINT_TO_POINTER (lane + 1));
            g_ptr_array_add (members, g_array_new (FALSE, FALSE, sizeof (guint32)));
            g_ptr_array_add (labels, lane_label (set, trace, mode, &s[i]));
            {
              gboolean b = mode == ETL_REGION_LANES_BY_SOURCE && s[i].kind == ETL_SPAN_KIND_BUILTIN;

              g_array_append_val (builtin, b);
            }
          }
        else
          lane = GPOINTER_TO_UINT (found) - 1;
        l->span_lane[i] = lane;
        g_array_append_val (g_ptr_array_index (members, lane), i);
      }
    g_hash_table_remove_all (keys);
  }

  /* The built-in intervals' lanes first (their kind is set by source: GC,
   * disk and file I/O are what a look at a trace starts with), each group
   * in the order of its first span. */
  if (members->len > 1)
    {
      g_autofree guint *to = g_new (guint, members->len);
      g_autofree gpointer *m = g_memdup2 (members->pdata, members->len * sizeof (gpointer));
      g_autofree gpointer *lb = g_memdup2 (labels->pdata, labels->len * sizeof (gpointer));
      g_autofree gboolean *bi = g_memdup2 (builtin->data, builtin->len * sizeof (gboolean));
      guint next = 0;

      for (int pass = 1; pass >= 0; pass--)
        for (guint k = 0; k < members->len; k++)
          if (bi[k] == (gboolean) pass)
            to[k] = next++;
      for (guint k = 0; k < members->len; k++)
        {
          members->pdata[to[k]] = m[k];
          labels->pdata[to[k]] = lb[k];
          g_array_index (builtin, gboolean, to[k]) = bi[k];
        }
      for (guint i = 0; i < n; i++)
        if (l->span_lane[i] != NO_LANE)
          l->span_lane[i] = to[l->span_lane[i]];
    }

  for (guint k = 0; k < members->len; k++)
    {
      GArray *m = g_ptr_array_index (members, k);
      guint32 *idx = (guint32 *) (gpointer) m->data;
      g_autofree guint *row_n = g_new0 (guint, ETL_REGION_LANES_MAX_ROWS);
      g_autofree guint *row_fill = g_new0 (guint, ETL_REGION_LANES_MAX_ROWS);
      Lane lane = { 0 };
      gint64 last_stop[ETL_REGION_LANES_MAX_ROWS];
      guint max_row = 0;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      g_qsort_with_data (idx, (gint) m->len, sizeof (guint32), cmp_start, (gpointer) s);
      /* Rows: the first row free at the span's start (every span there has
       * ended), below its parent's row when the parent is in this lane, so
       * that nested spans stack under what encloses them. */
      for (guint r = 0; r < ETL_REGION_LANES_MAX_ROWS; r++)
        last_stop[r] = G_MININT64;
      for (guint j = 0; j < m->len; j++)
        {
          const EtlSpan *x = &s[idx[j]];
          guint row = 0;

          if (x->parent != ETL_SPAN_NONE && x->parent < n && l->span_lane[x->parent] == k)
            row = MIN ((guint) l->span_row[x->parent] + 1, ETL_REGION_LANES_MAX_ROWS - 1);
          while (row < ETL_REGION_LANES_MAX_ROWS - 1 && last_stop[row] > x->start)
            row++;
          l->span_row[idx[j]] = (guint8) row;
          last_stop[row] = MAX (last_stop[row], x->stop);
          row_n[row]++;
          max_row = MAX (max_row, row);
        }
      lane.label = g_ptr_array_index (labels, k);
      labels->pdata[k] = NULL;
      lane.first_row = all_rows->len;
      lane.n_rows = m->len > 0 ? max_row + 1 : 0;
      for (guint r = 0; r < lane.n_rows; r++)
        {
          Row row = { 0 };

          row.idx = g_new (guint32, MAX (row_n[r], 1));
          row.ent = g_new (RowEntry, MAX (row_n[r], 1));
          row.color = g_new (guint8, MAX (row_n[r], 1));
          row.n = row_n[r];
          g_array_append_val (all_rows, row);
        }
      for (guint j = 0; j < m->len; j++)
        {
          guint r = l->span_row[idx[j]];
          Row *row = &g_array_index (all_rows, Row, lane.first_row + r);
          guint p = row_fill[r]++;

          row->idx[p] = idx[j];
          row->ent[p].start = s[idx[j]].start;
          row->ent[p].stop = s[idx[j]].stop;
          row->color[p] = (guint8) color_of (&s[idx[j]]);
          row->ent[p].max_stop = p == 0 ? s[idx[j]].stop : MAX (row->ent[p - 1].max_stop, s[idx[j]].stop);
        }
      g_array_append_val (lanes, lane);
    }
  for (guint k = 0; k < labels->len; k++)
    g_free (labels->pdata[k]);
  l->n_lanes = lanes->len;
  l->lanes = (Lane *) (gpointer) g_array_free (g_steal_pointer (&lanes), FALSE);
  l->n_rows = all_rows->len;
  l->rows = (Row *) (gpointer) g_array_free (g_steal_pointer (&all_rows), FALSE);
  return l;
}

/* ---- Worker ---- */

typedef struct
{
  EtlTrace *trace;
  EtlSpanSet *extra;
  EtlRowSet *rows;
  EtlRegionLanesMode mode;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  etl_trace_unref (job->trace);
  g_clear_pointer (&job->extra, etl_span_set_unref);
  g_clear_pointer (&job->rows, etl_row_set_unref);
  g_free (job);
}

static void
layout_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  Job *job = task_data;
  g_autoptr (EtlSpanSet) acts = NULL;
  g_autoptr (EtlSpanSet) set = NULL;
  GError *error = NULL;
  Layout *l;

  (void) source;
  acts = etl_span_set_get_activities_shared (job->trace, cancellable, &error);
  if (acts == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (job->extra != NULL)
    {
      set = etl_span_set_new ();
      etl_span_set_add_set (set, acts);
      etl_span_set_add_set (set, job->extra);
    }
  else
    set = etl_span_set_ref (acts);
  l = build_layout (set, job->trace, job->rows, job->mode, cancellable);
  if (g_task_return_error_if_cancelled (task))
    layout_free (l);
  else
    g_task_return_pointer (task, l, (GDestroyNotify) layout_free);
}

static gboolean update_heights (EtlRegionLanes *self, gboolean shrink);

static void
take_layout (EtlRegionLanes *self, Layout *l)
{
  layout_free (self->layout);
  self->layout = l;
  self->selected = ETL_SPAN_NONE;
  g_clear_handle_id (&self->shrink_id, g_source_remove);
  update_heights (self, TRUE);
  gtk_widget_set_size_request (GTK_WIDGET (self), -1, l != NULL ? l->height : 0);
  gtk_widget_set_visible (GTK_WIDGET (self), l != NULL && l->n_lanes > 0);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
on_layout (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr (EtlRegionLanes) self = user_data;
  g_autoptr (GError) error = NULL;
  Layout *l = g_task_propagate_pointer (G_TASK (res), &error);

  (void) source;
  if (g_task_get_cancellable (G_TASK (res)) != self->cancellable)
    {
      layout_free (l);
      return;
    }
  g_clear_object (&self->cancellable);
  if (l == NULL)
    {
      g_debug ("region lanes: %s", error->message);
      return;
    }
  take_layout (self, l);
}

static gboolean
start_layout (gpointer user_data)
{
  EtlRegionLanes *self = user_data;
  g_autoptr (GTask) task = NULL;
  Job *job;

  self->idle_id = 0;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->trace == NULL)
    return G_SOURCE_REMOVE;
  job = g_new0 (Job, 1);
  job->trace = etl_trace_ref (self->trace);
  job->extra = self->extra != NULL ? etl_span_set_ref (self->extra) : NULL;
  job->rows = self->rows != NULL ? etl_row_set_ref (self->rows) : NULL;
  job->mode = self->mode;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (NULL, self->cancellable, on_layout, g_object_ref (self));
  g_task_set_task_data (task, job, job_free);
  etl_worker_run (task, layout_thread);
  return G_SOURCE_REMOVE;
}

static void
schedule (EtlRegionLanes *self)
{
  if (self->idle_id == 0 && self->trace != NULL)
    self->idle_id = g_idle_add (start_layout, self);
}

/* ---- Geometry ---- */

/* The first index of @row whose running end reaches @t. */
static guint
first_reaching (const Row *row, gint64 t)
{
  guint lo = 0, hi = row->n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (row->ent[mid].max_stop < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The first index in [@from, n) of @row whose span begins at or after @t:
 * galloping from @from (the answer is usually a few spans on, within the
 * cache lines just read), then a binary search of the last step. */
static guint
first_starting (const Row *row, const EtlSpan *s, guint from, gint64 t)
{
  guint lo = from, hi, step = 1;

  (void) s;
  while (lo + step < row->n && row->ent[lo + step].start < t)
    {
      lo += step;
      step *= 2;
    }
  hi = MIN (lo + step, row->n);
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (row->ent[mid].start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Pixels of @lane as shown, without the gap below it. */
static int
lane_height (const Lane *lane)
{
  return lane->shown > 0 ? (int) lane->shown * ETL_REGION_LANES_ROW_HEIGHT : ETL_REGION_LANES_COLLAPSED_HEIGHT;
}

/* The rows of @lane that hold a span meeting [@vb, @ve): one more than the
 * deepest such row, 0 when none.  A row's spans are by start with the
 * running maximum of their ends, so the first span reaching @vb is found
 * by a binary search and the row meets the range iff it begins before @ve. */
static guint
visible_depth (const Layout *l, const Lane *lane, gint64 vb, gint64 ve)
{
  for (guint r = lane->n_rows; r > 0; r--)
    {
      const Row *row = &l->rows[lane->first_row + r - 1];
      guint i = first_reaching (row, vb);

      if (i < row->n && row->ent[i].start < ve)
        return r;
    }
  return 0;
}

/* Gives each lane the rows its spans in the visible range need (all of
 * them when there is no visible range): at once where a lane must grow,
 * where it could shrink only with @shrink.  Returns whether a lane keeps
 * more rows than it needs (a shrink to come). */
static gboolean
update_heights (EtlRegionLanes *self, gboolean shrink)
{
  Layout *l = self->layout;
  gint64 vb = 0, ve = 0;
  gboolean pending = FALSE;
  int y = 0;

  if (l == NULL)
    return FALSE;
  if (self->zoom_manager != NULL)
    etl_zoom_manager_get_visible (self->zoom_manager, &vb, &ve);
  for (guint i = 0; i < l->n_lanes; i++)
    {
      Lane *lane = &l->lanes[i];
      guint want = ve > vb ? visible_depth (l, lane, vb, ve) : lane->n_rows;

      lane->shown = shrink ? want : MAX (want, lane->shown);
      pending = pending || lane->shown > want;
      lane->top = y;
      y += lane_height (lane) + LANE_GAP;
    }
  if (y != l->height)
    {
      l->height = y;
      gtk_widget_set_size_request (GTK_WIDGET (self), -1, y);
      if (self->scroller != NULL)
        gtk_scrolled_window_set_min_content_height (self->scroller, MIN (y, ETL_REGION_LANES_MAX_AREA_HEIGHT / 2));
    }
  return pending;
}

static gboolean
shrink_lanes (gpointer user_data)
{
  EtlRegionLanes *self = user_data;

  self->shrink_id = 0;
  update_heights (self, TRUE);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return G_SOURCE_REMOVE;
}

/* The visible range changed: lanes grow now, shrink once it stays still. */
static void
on_zoom_changed (EtlRegionLanes *self)
{
  g_clear_handle_id (&self->shrink_id, g_source_remove);
  if (update_heights (self, FALSE))
    self->shrink_id = g_timeout_add (ETL_REGION_LANES_SHRINK_DELAY, shrink_lanes, self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_region_lanes_render:
 * @self: the area
 * @cr: where to draw
 * @width: pixels
 * @height: pixels
 *
 * Draws the area at @width × @height (the widget's draw, the timeline
 * image export and the benchmark).
 */
void
etl_region_lanes_render (EtlRegionLanes *self, cairo_t *cr, int width, int height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  Layout *l = self->layout;
  gint64 vb, ve;
  double x0 = ETL_LABEL_COLUMN_WIDTH, pw = MAX (width - ETL_LABEL_COLUMN_WIDTH, 1), scale;
  const EtlSpan *s;
  guint n = 0;
  GdkRGBA fg;
  PangoLayout *text, *small;
  GdkRectangle clip;
  int clip_top = 0, clip_bottom = height;

  g_return_if_fail (ETL_IS_REGION_LANES (self));
  self->n_drawn = 0;
  gtk_render_background (style, cr, 0, 0, width, height);
  if (l == NULL || self->zoom_manager == NULL)
    return;
  if (gdk_cairo_get_clip_rectangle (cr, &clip))
    {
      clip_top = CLAMP (clip.y, 0, height);
      clip_bottom = CLAMP (clip.y + clip.height, clip_top, height);
    }
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);
  etl_zoom_manager_get_visible (self->zoom_manager, &vb, &ve);
  if (ve <= vb)
    return;
  scale = pw / (double) (ve - vb);
  s = etl_span_set_get (l->spans, &n);
  text = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);
  small = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_ellipsize (small, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (small, (ETL_LABEL_COLUMN_WIDTH - 6) * PANGO_SCALE);
  {
    PangoAttrList *attrs = pango_attr_list_new ();

    pango_attr_list_insert (attrs, pango_attr_scale_new (0.75));
    pango_layout_set_attributes (small, attrs);
    pango_attr_list_unref (attrs);
  }

  /* The bars go into an image of the plot's width as pixels, a row's
   * scanline at a time (as the thread lanes do), then onto @cr in one
   * paint: tens of thousands of cairo rectangles cost ten times more. */
  {
    int pwi = (int) pw, stride;
    guint32 *line = g_new (guint32, pwi);
    guchar *data;

    if (self->pixels == NULL || cairo_image_surface_get_width (self->pixels) != pwi
        || cairo_image_surface_get_height (self->pixels) != height)
      {
        g_clear_pointer (&self->pixels, cairo_surface_destroy);
        self->pixels = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, pwi, MAX (height, 1));
      }
    cairo_surface_flush (self->pixels);
    data = cairo_image_surface_get_data (self->pixels);
    stride = cairo_image_surface_get_stride (self->pixels);
    /* Only the rows in the clip: in a scroller most of the area is out of
     * sight. */
    memset (data + (gsize) clip_top * (gsize) stride, 0, (gsize) stride * (gsize) (clip_bottom - clip_top));

    for (guint li = 0; li < l->n_lanes; li++)
      {
        const Lane *lane = &l->lanes[li];
        int y = lane->top, lane_h = lane_height (lane);

        if (y + lane_h < clip_top || y > clip_bottom)
          continue;
        /* The label column and the lane's separator. */
        cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.12);
        cairo_rectangle (cr, 0, y + lane_h + 1, width, 1);
        cairo_fill (cr);
        if (lane->shown == 0)
          {
            /* Nothing in view: its name, small and dim, over a faint band. */
            int th = 0;

            cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.04);
            cairo_rectangle (cr, x0, y, pw, lane_h);
            cairo_fill (cr);
            cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.6);
            pango_layout_set_text (small, lane->label, -1);
            pango_layout_get_pixel_size (small, NULL, &th);
            cairo_move_to (cr, 3, y + (lane_h - th) / 2.0);
            pango_cairo_show_layout (cr, small);
            continue;
          }
        gdk_cairo_set_source_rgba (cr, &fg);
        pango_layout_set_width (text, (ETL_LABEL_COLUMN_WIDTH - 6) * PANGO_SCALE);
        pango_layout_set_text (text, lane->label, -1);
        cairo_move_to (cr, 3, y + 1);
        pango_cairo_show_layout (cr, text);

        for (guint r = 0; r < lane->shown; r++)
          {
            const Row *row = &l->rows[lane->first_row + r];
            int ry = (int) y + (int) r * ETL_REGION_LANES_ROW_HEIGHT + 1, rh = ETL_REGION_LANES_ROW_HEIGHT - 2;
            guint i = first_reaching (row, vb);
            gboolean any = FALSE;

            memset (line, 0, (gsize) pwi * sizeof (guint32));
            while (i < row->n)
              {
                gint64 x_start = row->ent[i].start;
                guint32 pixel = self->pixel_colors[row->color[i]];
                double fa, fb;
                int ia, ib;

                if (x_start >= ve)
                  break;
                fa = floor (MAX ((double) (x_start - vb) * scale, 0));
                fb = MIN ((double) (row->ent[i].stop - vb) * scale, pw);
                ia = (int) fa;
                if (fb - fa < 1.0)
                  {
                    /* Narrower than a pixel: one bar for the column, as far
                     * as the spans that begin in it reach, then the first
                     * span past it. */
                    gint64 next = vb + (gint64) ceil ((fa + 1.0) / scale);
                    guint j = first_starting (row, s, i + 1, MAX (next, x_start + 1));
                    double reach = MIN ((double) (row->ent[j - 1].max_stop - vb) * scale, pw);

                    ib = MAX ((int) ceil (reach), ia + 1);
                    i = j;
                  }
                else
                  {
                    ib = (int) ceil (fb);
                    if (ib - ia > 3)
                      ib--; /* a gap between neighbours */
                    i++;
                  }
                ib = MIN (ib, pwi);
                for (int px = MAX (ia, 0); px < ib; px++)
                  line[px] = pixel;
                self->n_drawn++;
                any = TRUE;
              }
            if (any)
              for (int dy = MAX (0, clip_top - ry); dy < rh && ry + dy < clip_bottom; dy++)
                memcpy (data + (gsize) (ry + dy) * (gsize) stride, line, (gsize) pwi * sizeof (guint32));
          }
      }
    g_free (line);
    cairo_surface_mark_dirty (self->pixels);
    cairo_set_source_surface (cr, self->pixels, x0, 0);
    cairo_rectangle (cr, x0, clip_top, pwi, clip_bottom - clip_top);
    cairo_fill (cr);
  }

  /* Names inside the spans wide enough for them: a second pass over the
   * visible spans of at least ETL_REGION_LANES_LABEL_MIN pixels. */
  cairo_set_source_rgba (cr, 0, 0, 0, 0.87);
  for (guint li = 0; li < l->n_lanes; li++)
    {
      const Lane *lane = &l->lanes[li];
      int y = lane->top, lane_h = lane_height (lane);

      if (y + lane_h >= clip_top && y <= clip_bottom)
        for (guint r = 0; r < lane->shown; r++)
          {
            const Row *row = &l->rows[lane->first_row + r];
            guint i = first_reaching (row, vb);
            double ry = y + r * ETL_REGION_LANES_ROW_HEIGHT;
            double free_x = x0; /* where the row's last label ended */

            while (i < row->n)
              {
                const RowEntry *e = &row->ent[i];
                const EtlSpan *x;
                double xa, xb;

                if (e->start >= ve)
                  break;
                xa = x0 + MAX ((double) (e->start - vb) * scale, 0);
                xb = x0 + MIN ((double) (e->stop - vb) * scale, pw);
                /* Spans overlapping in the last row: no label over another. */
                xa = MAX (xa, free_x);
                if (xb - xa < ETL_REGION_LANES_LABEL_MIN)
                  {
                    /* Skip the spans that begin within the next label's width. */
                    gint64 next = vb + (gint64) ceil ((xa + ETL_REGION_LANES_LABEL_MIN - x0) / scale);

                    i = first_starting (row, s, i + 1, MAX (next, e->start + 1));
                    continue;
                  }
                x = &s[row->idx[i]];
                pango_layout_set_width (text, (int) (xb - xa - 4) * PANGO_SCALE);
                pango_layout_set_text (text, etl_span_set_get_string (l->spans, x->label), -1);
                cairo_move_to (cr, xa + 2, ry + 1);
                pango_cairo_show_layout (cr, text);
                {
                  int tw, th;

                  pango_layout_get_pixel_size (text, &tw, &th);
                  free_x = xa + 2 + tw + 4;
                }
                i++;
              }
          }
    }

  /* The selected span, outlined. */
  if (self->selected != ETL_SPAN_NONE && self->selected < n && l->span_lane[self->selected] != NO_LANE)
    {
      GdkRectangle rect;

      etl_region_lanes_span_rect (self, self->selected, &rect);
      if (rect.height > 0) /* none while its row is not given room */
        {
          gdk_cairo_set_source_rgba (cr, &fg);
          cairo_set_line_width (cr, 2);
          cairo_rectangle (cr, rect.x + 1, rect.y + 1, MAX (rect.width - 2, 1), rect.height - 2);
          cairo_stroke (cr);
        }
    }

  /* Outside the range selected in the timeline: shaded. */
  if (self->range_end > self->range_begin)
    {
      double a = x0 + CLAMP ((double) (self->range_begin - vb) * scale, 0, pw);
      double b = x0 + CLAMP ((double) (self->range_end - vb) * scale, 0, pw);

      cairo_set_source_rgba (cr, 0.5, 0.5, 0.5, 0.35);
      cairo_rectangle (cr, x0, 0, a - x0, height);
      cairo_rectangle (cr, b, 0, x0 + pw - b, height);
      cairo_fill (cr);
    }
  g_object_unref (text);
  g_object_unref (small);
}

static gboolean
etl_region_lanes_draw (GtkWidget *widget, cairo_t *cr)
{
  etl_region_lanes_render (ETL_REGION_LANES (widget), cr, gtk_widget_get_allocated_width (widget),
                           gtk_widget_get_allocated_height (widget));
  return FALSE;
}

/**
 * etl_region_lanes_span_at:
 * @self: the area
 * @x: widget x, pixels
 * @y: widget y, pixels
 *
 * Returns: the index (in etl_region_lanes_get_spans()) of the innermost
 *   span under (@x, @y) (within a pixel either side), or %ETL_SPAN_NONE
 */
guint32
etl_region_lanes_span_at (EtlRegionLanes *self, double x, double y)
{
  Layout *l;
  int width;
  gint64 vb, ve, t, slack;
  const EtlSpan *s;
  guint n = 0;

  g_return_val_if_fail (ETL_IS_REGION_LANES (self), ETL_SPAN_NONE);
  l = self->layout;
  width = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  if (l == NULL || self->zoom_manager == NULL || x < ETL_LABEL_COLUMN_WIDTH || y < 0)
    return ETL_SPAN_NONE;
  etl_zoom_manager_get_visible (self->zoom_manager, &vb, &ve);
  t = etl_zoom_manager_x_to_time (self->zoom_manager, x - ETL_LABEL_COLUMN_WIDTH, width - ETL_LABEL_COLUMN_WIDTH);
  slack = (ve - vb) / MAX (width - ETL_LABEL_COLUMN_WIDTH, 1);
  s = etl_span_set_get (l->spans, &n);
  for (guint li = 0; li < l->n_lanes; li++)
    {
      const Lane *lane = &l->lanes[li];
      int top = lane->top, h = (int) lane->shown * ETL_REGION_LANES_ROW_HEIGHT;

      if (y >= top && y < top + h)
        {
          const Row *row = &l->rows[lane->first_row + (guint) ((y - top) / ETL_REGION_LANES_ROW_HEIGHT)];
          guint32 best = ETL_SPAN_NONE;

          for (guint i = first_reaching (row, t - slack); i < row->n && s[row->idx[i]].start <= t + slack; i++)
            if (s[row->idx[i]].stop >= t - slack)
              best = row->idx[i];
          return best;
        }
    }
  return ETL_SPAN_NONE;
}

/**
 * etl_region_lanes_span_rect:
 * @self: the area
 * @span: a span index
 * @rect: (out): where it is drawn (clamped to the widget), pixels; a
 *   width of 0 when hidden or outside the visible range, all 0 when its
 *   row has no room now (its lane is collapsed or shallower: a span
 *   outside the visible range)
 */
void
etl_region_lanes_span_rect (EtlRegionLanes *self, guint32 span, GdkRectangle *rect)
{
  Layout *l;
  int width;
  guint n = 0;
  const EtlSpan *s;
  double a, b;

  g_return_if_fail (ETL_IS_REGION_LANES (self) && rect != NULL);
  memset (rect, 0, sizeof *rect);
  l = self->layout;
  if (l == NULL || self->zoom_manager == NULL)
    return;
  s = etl_span_set_get (l->spans, &n);
  if (span >= n || l->span_lane[span] == NO_LANE || l->span_row[span] >= l->lanes[l->span_lane[span]].shown)
    return;
  width = gtk_widget_get_allocated_width (GTK_WIDGET (self));
  a = etl_zoom_manager_time_to_x (self->zoom_manager, s[span].start, width - ETL_LABEL_COLUMN_WIDTH);
  b = etl_zoom_manager_time_to_x (self->zoom_manager, s[span].stop, width - ETL_LABEL_COLUMN_WIDTH);
  a = CLAMP (a, 0, width - ETL_LABEL_COLUMN_WIDTH);
  b = CLAMP (b, 0, width - ETL_LABEL_COLUMN_WIDTH);
  rect->x = ETL_LABEL_COLUMN_WIDTH + (int) floor (a);
  rect->width = MAX ((int) ceil (b) - (int) floor (a), b > a ? 1 : 0);
  rect->y = l->lanes[l->span_lane[span]].top + l->span_row[span] * ETL_REGION_LANES_ROW_HEIGHT;
  rect->height = ETL_REGION_LANES_ROW_HEIGHT;
}

/**
 * etl_region_lanes_dup_tooltip:
 * @self: the area
 * @span: a span index
 *
 * Returns: (transfer full) (nullable): the span's name, duration, process,
 *   thread and its Start's fields, as the tooltip shows them
 */
char *
etl_region_lanes_dup_tooltip (EtlRegionLanes *self, guint32 span)
{
  Layout *l;
  guint n = 0;
  const EtlSpan *s;
  g_autofree char *duration = NULL;
  g_autofree char *fields = NULL;
  GString *out;

  g_return_val_if_fail (ETL_IS_REGION_LANES (self), NULL);
  l = self->layout;
  if (l == NULL)
    return NULL;
  s = etl_span_set_get (l->spans, &n);
  if (span >= n)
    return NULL;
  s += span;
  duration = etl_duration_format (s->stop - s->start);
  if (self->trace != NULL && s->start_record != ETL_SPAN_NO_RECORD)
    {
      g_auto (EtlRecord) rec = { 0 };

      if (etl_trace_get_record (self->trace, s->start_record, &rec, NULL))
        {
          EtlDecoded *dec = etl_trace_decode_record (self->trace, &rec);

          if (dec != NULL)
            {
              fields = etl_decoded_format_payload (dec, 400);
              etl_decoded_free (dec);
            }
        }
    }
  out = g_string_new (NULL);
  g_string_append_printf (out, "%s%s%s\n%s%s · process %u · thread %u", etl_span_set_get_string (l->spans, s->label),
                          s->label != s->name ? " · " : "", s->label != s->name ? etl_span_set_get_string (l->spans, s->name) : "",
                          duration, (s->flags & ETL_SPAN_OPEN) ? " (open: no Stop)" : "", s->pid, s->tid);
  if (fields != NULL && fields[0] != '\0')
    g_string_append_printf (out, "\n%s", fields);
  return g_string_free (out, FALSE);
}

static gboolean
etl_region_lanes_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  EtlRegionLanes *self = ETL_REGION_LANES (widget);
  guint32 span;
  g_autofree char *text = NULL;
  GdkRectangle rect;

  if (keyboard)
    return FALSE;
  span = etl_region_lanes_span_at (self, x, y);
  if (span == ETL_SPAN_NONE)
    return FALSE;
  text = etl_region_lanes_dup_tooltip (self, span);
  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  etl_region_lanes_span_rect (self, span, &rect);
  if (rect.width > 0)
    gtk_tooltip_set_tip_area (tooltip, &rect);
  return TRUE;
}

static gboolean
etl_region_lanes_button_press (GtkWidget *widget, GdkEventButton *event)
{
  EtlRegionLanes *self = ETL_REGION_LANES (widget);
  guint32 span;

  if (event->button != GDK_BUTTON_PRIMARY)
    return FALSE;
  span = etl_region_lanes_span_at (self, event->x, event->y);
  if (span == ETL_SPAN_NONE)
    return FALSE;
  if (event->type == GDK_2BUTTON_PRESS)
    {
      const EtlSpan *s;
      guint n = 0;

      s = etl_span_set_get (self->layout->spans, &n);
      if (self->zoom_manager != NULL)
        {
          /* The span with a tenth of its length either side. */
          gint64 pad = MAX ((s[span].stop - s[span].start) / 10, 10);

          etl_zoom_manager_set_visible (self->zoom_manager, s[span].start - pad, s[span].stop + pad);
        }
      return TRUE;
    }
  if (event->type == GDK_BUTTON_PRESS)
    {
      etl_region_lanes_select_span (self, span);
      return TRUE;
    }
  return FALSE;
}

static void
etl_region_lanes_dispose (GObject *object)
{
  EtlRegionLanes *self = ETL_REGION_LANES (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_handle_id (&self->shrink_id, g_source_remove);
  if (self->scroller != NULL)
    g_object_remove_weak_pointer (G_OBJECT (self->scroller), (gpointer *) &self->scroller);
  self->scroller = NULL;
  if (self->zoom_manager != NULL)
    g_clear_signal_handler (&self->zoom_handler, self->zoom_manager);
  g_clear_object (&self->zoom_manager);
  g_clear_pointer (&self->layout, layout_free);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->extra, etl_span_set_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  g_clear_pointer (&self->pixels, cairo_surface_destroy);
  G_OBJECT_CLASS (etl_region_lanes_parent_class)->dispose (object);
}

static void
etl_region_lanes_class_init (EtlRegionLanesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = etl_region_lanes_dispose;
  widget_class->draw = etl_region_lanes_draw;
  widget_class->query_tooltip = etl_region_lanes_query_tooltip;
  widget_class->button_press_event = etl_region_lanes_button_press;

  /**
   * EtlRegionLanes::span-selected:
   * @self: the area
   * @span: the span's index in etl_region_lanes_get_spans()
   * @start_record: the record that began it (%ETL_SPAN_NO_RECORD when none)
   *
   * A span was clicked (or etl_region_lanes_select_span() called).
   */
  signals[SPAN_SELECTED] = g_signal_new ("span-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                         NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT64);
  gtk_widget_class_set_css_name (widget_class, "etlregionlanes");
}

static void
etl_region_lanes_init (EtlRegionLanes *self)
{
  self->selected = ETL_SPAN_NONE;
  for (guint k = 0; k < 2 * N_COLORS; k++)
    {
      /* Premultiplied: 0.85 opaque, open spans 0.3. */
      guint32 rgb = palette[k % N_COLORS], a = k < N_COLORS ? 217 : 77;

      self->pixel_colors[k] = (a << 24) | ((((rgb >> 16) & 0xff) * a / 255) << 16)
                              | ((((rgb >> 8) & 0xff) * a / 255) << 8) | ((rgb & 0xff) * a / 255);
    }
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_add_events (GTK_WIDGET (self), GDK_BUTTON_PRESS_MASK);
}

/**
 * etl_region_lanes_new:
 *
 * Returns: (transfer floating): an empty Regions area (hidden until it has
 *   spans)
 */
GtkWidget *
etl_region_lanes_new (void)
{
  return g_object_new (ETL_TYPE_REGION_LANES, NULL);
}

/**
 * etl_region_lanes_new_scrolled:
 * @self: an area not yet in a container
 *
 * Puts @self in a vertical scroller as high as the lanes, at most
 * %ETL_REGION_LANES_MAX_AREA_HEIGHT pixels (more lanes scroll with the
 * mouse wheel over them), shown while @self is: what the window packs
 * under the timeline's lanes, so that the area never pushes them out of a
 * small window (1366×768).
 *
 * Returns: (transfer floating): the scroller
 */
GtkWidget *
etl_region_lanes_new_scrolled (EtlRegionLanes *self)
{
  GtkWidget *scroller, *viewport;

  g_return_val_if_fail (ETL_IS_REGION_LANES (self), NULL);
  g_return_val_if_fail (gtk_widget_get_parent (GTK_WIDGET (self)) == NULL, NULL);
  scroller = gtk_scrolled_window_new (NULL, NULL);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), ETL_REGION_LANES_MAX_AREA_HEIGHT);
  viewport = gtk_viewport_new (NULL, NULL);
  gtk_viewport_set_shadow_type (GTK_VIEWPORT (viewport), GTK_SHADOW_NONE);
  gtk_container_add (GTK_CONTAINER (viewport), GTK_WIDGET (self));
  gtk_container_add (GTK_CONTAINER (scroller), viewport);
  gtk_widget_show (viewport);
  g_object_bind_property (self, "visible", scroller, "visible", G_BINDING_SYNC_CREATE);
  self->scroller = GTK_SCROLLED_WINDOW (scroller);
  g_object_add_weak_pointer (G_OBJECT (scroller), (gpointer *) &self->scroller);
  if (self->layout != NULL)
    gtk_scrolled_window_set_min_content_height (self->scroller,
                                                MIN (self->layout->height, ETL_REGION_LANES_MAX_AREA_HEIGHT / 2));
  return scroller;
}

/**
 * etl_region_lanes_set_zoom_manager:
 * @self: the area
 * @zoom_manager: (nullable): the shared visible range
 */
void
etl_region_lanes_set_zoom_manager (EtlRegionLanes *self, EtlZoomManager *zoom_manager)
{
  g_return_if_fail (ETL_IS_REGION_LANES (self));
  if (etl_zoom_manager_follow (GTK_WIDGET (self), &self->zoom_manager, &self->zoom_handler, zoom_manager,
                               G_CALLBACK (on_zoom_changed)))
    on_zoom_changed (self);
}

/**
 * etl_region_lanes_set_trace:
 * @self: the area
 * @trace: (nullable): the trace whose activities to draw (paired in a
 *   worker), %NULL for none; the extra spans and the rows are cleared
 */
void
etl_region_lanes_set_trace (EtlRegionLanes *self, EtlTrace *trace)
{
  g_return_if_fail (ETL_IS_REGION_LANES (self));
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->extra, etl_span_set_unref);
  g_clear_pointer (&self->rows, etl_row_set_unref);
  self->range_begin = self->range_end = 0;
  take_layout (self, NULL);
  if (trace == NULL)
    return;
  self->trace = etl_trace_ref (trace);
  schedule (self);
}

/**
 * etl_region_lanes_set_extra:
 * @self: the area
 * @extra: (nullable): spans drawn beside the activities (a Regions of
 *   Interest file's)
 */
void
etl_region_lanes_set_extra (EtlRegionLanes *self, EtlSpanSet *extra)
{
  g_return_if_fail (ETL_IS_REGION_LANES (self));
  g_clear_pointer (&self->extra, etl_span_set_unref);
  self->extra = extra != NULL ? etl_span_set_ref (extra) : NULL;
  schedule (self);
}

/**
 * etl_region_lanes_set_rows:
 * @self: the area
 * @rows: (nullable): the rows the filter keeps; spans whose Start is not
 *   among them are not drawn (%NULL: all)
 */
void
etl_region_lanes_set_rows (EtlRegionLanes *self, EtlRowSet *rows)
{
  g_return_if_fail (ETL_IS_REGION_LANES (self));
  if (rows == self->rows)
    return;
  g_clear_pointer (&self->rows, etl_row_set_unref);
  self->rows = rows != NULL ? etl_row_set_ref (rows) : NULL;
  schedule (self);
}

/**
 * etl_region_lanes_set_mode:
 * @self: the area
 * @mode: lanes by source, process or thread
 */
void
etl_region_lanes_set_mode (EtlRegionLanes *self, EtlRegionLanesMode mode)
{
  g_return_if_fail (ETL_IS_REGION_LANES (self));
  if (mode == self->mode)
    return;
  self->mode = mode;
  schedule (self);
}

/**
 * etl_region_lanes_set_range:
 * @self: the area
 * @begin: the selected range's start, FILETIME
 * @end: its end (exclusive); @end ≤ @begin for none
 *
 * Shades what lies outside the range selected in the timeline.
 */
void
etl_region_lanes_set_range (EtlRegionLanes *self, gint64 begin, gint64 end)
{
  g_return_if_fail (ETL_IS_REGION_LANES (self));
  self->range_begin = begin;
  self->range_end = end;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * etl_region_lanes_set_spans_sync:
 * @self: the area
 * @spans: spans to draw, laid out in the calling thread (tests and
 *   benchmarks; the window uses etl_region_lanes_set_trace())
 */
void
etl_region_lanes_set_spans_sync (EtlRegionLanes *self, EtlSpanSet *spans)
{
  g_return_if_fail (ETL_IS_REGION_LANES (self) && spans != NULL);
  take_layout (self, build_layout (spans, self->trace, self->rows, self->mode, NULL));
}

/**
 * etl_region_lanes_is_busy:
 * @self: the area
 *
 * Returns: whether a layout is being built, or lanes are to shrink to
 *   the visible range once it stays still (%ETL_REGION_LANES_SHRINK_DELAY)
 */
gboolean
etl_region_lanes_is_busy (EtlRegionLanes *self)
{
  g_return_val_if_fail (ETL_IS_REGION_LANES (self), FALSE);
  return self->idle_id != 0 || self->cancellable != NULL || self->shrink_id != 0;
}

/**
 * etl_region_lanes_get_n_lanes:
 * @self: the area
 *
 * Returns: the lanes drawn
 */
guint
etl_region_lanes_get_n_lanes (EtlRegionLanes *self)
{
  g_return_val_if_fail (ETL_IS_REGION_LANES (self), 0);
  return self->layout != NULL ? self->layout->n_lanes : 0;
}

/**
 * etl_region_lanes_get_lane_label:
 * @self: the area
 * @lane: a lane, below etl_region_lanes_get_n_lanes()
 *
 * Returns: (transfer none) (nullable): its label
 */
const char *
etl_region_lanes_get_lane_label (EtlRegionLanes *self, guint lane)
{
  g_return_val_if_fail (ETL_IS_REGION_LANES (self), NULL);
  if (self->layout == NULL || lane >= self->layout->n_lanes)
    return NULL;
  return self->layout->lanes[lane].label;
}

/**
 * etl_region_lanes_get_lane_extent:
 * @self: the area
 * @lane: a lane, below etl_region_lanes_get_n_lanes()
 * @y: (out) (optional): its top, widget pixels
 * @height: (out) (optional): its height as shown, pixels, the gap below it
 *   left out: %ETL_REGION_LANES_ROW_HEIGHT per row its spans in the
 *   visible range need, %ETL_REGION_LANES_COLLAPSED_HEIGHT when it has none
 *   there (a lane shrinks only once the range stays still: see the
 *   section's text)
 *
 * Returns: %FALSE when there is no such lane
 */
gboolean
etl_region_lanes_get_lane_extent (EtlRegionLanes *self, guint lane, int *y, int *height)
{
  g_return_val_if_fail (ETL_IS_REGION_LANES (self), FALSE);
  if (self->layout == NULL || lane >= self->layout->n_lanes)
    return FALSE;
  if (y != NULL)
    *y = self->layout->lanes[lane].top;
  if (height != NULL)
    *height = lane_height (&self->layout->lanes[lane]);
  return TRUE;
}

/**
 * etl_region_lanes_get_n_collapsed:
 * @self: the area
 *
 * Returns: the lanes drawn collapsed (no span of theirs in the visible
 *   range)
 */
guint
etl_region_lanes_get_n_collapsed (EtlRegionLanes *self)
{
  guint c = 0;

  g_return_val_if_fail (ETL_IS_REGION_LANES (self), 0);
  for (guint i = 0; self->layout != NULL && i < self->layout->n_lanes; i++)
    c += self->layout->lanes[i].shown == 0;
  return c;
}

/**
 * etl_region_lanes_get_n_drawn:
 * @self: the area
 *
 * Returns: the bars the last frame drew (at most about one per pixel
 *   column and row where spans are dense)
 */
guint
etl_region_lanes_get_n_drawn (EtlRegionLanes *self)
{
  g_return_val_if_fail (ETL_IS_REGION_LANES (self), 0);
  return self->n_drawn;
}

/**
 * etl_region_lanes_select_span:
 * @self: the area
 * @span: a span index, %ETL_SPAN_NONE for none
 *
 * Outlines @span and emits #EtlRegionLanes::span-selected for it.
 */
void
etl_region_lanes_select_span (EtlRegionLanes *self, guint32 span)
{
  guint n = 0;
  const EtlSpan *s;

  g_return_if_fail (ETL_IS_REGION_LANES (self));
  if (self->layout == NULL)
    return;
  s = etl_span_set_get (self->layout->spans, &n);
  self->selected = span < n ? span : ETL_SPAN_NONE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (self->selected != ETL_SPAN_NONE)
    g_signal_emit (self, signals[SPAN_SELECTED], 0, (guint) span, (guint64) s[span].start_record);
}

/**
 * etl_region_lanes_get_selected_span:
 * @self: the area
 *
 * Returns: the selected span, %ETL_SPAN_NONE when none
 */
guint32
etl_region_lanes_get_selected_span (EtlRegionLanes *self)
{
  g_return_val_if_fail (ETL_IS_REGION_LANES (self), ETL_SPAN_NONE);
  return self->selected;
}

/**
 * etl_region_lanes_get_spans:
 * @self: the area
 *
 * Returns: (transfer none) (nullable): the spans laid out
 */
EtlSpanSet *
etl_region_lanes_get_spans (EtlRegionLanes *self)
{
  g_return_val_if_fail (ETL_IS_REGION_LANES (self), NULL);
  return self->layout != NULL ? self->layout->spans : NULL;
}
