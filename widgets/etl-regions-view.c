/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-regions-view
 * @title: EtlRegionsView
 * @short_description: the Regions tab: durations per name, a histogram, the instances and their CPU
 *
 * The intervals of a trace (an #EtlSpanSet: the Start/Stop activities,
 * shared per trace by etl_span_set_get_activities_shared(), plus the
 * instances of a loaded Regions of Interest file, etl_regions_view_set_extra())
 * as three parts:
 *
 * - the names table: one row per name with Count, Total, Mean, Median, P90,
 *   P99 and Max in ms (WPA's Regions of Interest columns; PerfView's
 *   StartStop view), Open and Unmatched Stops (Stops no Start paired with,
 *   etl_span_set_get_unmatched_stops(): a name that has only those has a
 *   row with Count 0, as `etlscope-cli regions` lists it), sortable by a
 *   click on a header.  Only the intervals and Stops in the range selected
 *   in the timeline count (etl_regions_view_set_range()), else all of them;
 * - for the selected name, a duration histogram (#EtlDurationHistogram):
 *   dragging over its buckets selects the instances in them (the slow
 *   tail in one gesture), and the instances table lists the selected
 *   instances (all of the name's when no bucket is selected), the longest
 *   first, at most %ETL_REGIONS_VIEW_MAX_ROWS rows: Start, Duration,
 *   Process, Thread and the Start's fields, sortable.  Activating a row
 *   emits #EtlRegionsView::instance-activated (the window selects the
 *   Start in the event list and the timeline);
 * - beside it, the flame graph of the CPU samples that ran on the selected
 *   instances' threads within their intervals
 *   (etl_stack_tree_new_for_threads()), and a button "Summary of these" that
 *   collects the records of those threads within those intervals
 *   (etl_thread_rows_new(): the samples by the flame graph's rule) and hands
 *   them to the window for the grouped summary
 *   (#EtlRegionsView::summary-requested).
 *
 * Every computation runs in a worker (#GTask, etl_worker_run()): the
 * statistics, the instances of a name with their histogram and fields, the
 * flame graph, the records of "Summary of these"; a new request cancels the
 * previous one of its kind, and a new selection the last two.  Rows
 * reach the stores from an idle that stops after ~8 ms, so that no
 * main-loop turn is long (etl_regions_view_get_longest_step()).
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-decode.h"
#include "etl-precise-details.h"
#include "etl-process-table.h"
#include "etl-regions-view.h"
#include "etl-stack-tree.h"
#include "etl-thread-rows.h"
#include "etl-trace-decode.h"
#include "etl-worker.h"

/* A fill step's budget, µs. */
#define STEP_USEC 8000
#define FIELDS_CHARS 200

typedef struct
{
  guint32 span;
  gint64 start;    /* since the origin */
  gint64 duration; /* -1: open */
  guint32 tid;
  char *process;
  char *fields;
  const char *label; /* in the set */
} InstRow;

struct _EtlRegionsView
{
  GtkBox parent_instance;

  GtkLabel *status;
  GtkTreeView *names_view;
  GtkListStore *names;
  EtlDurationHistogram *histogram;
  GtkLabel *instances_label;
  GtkTreeView *instances_view;
  GtkListStore *instances;
  EtlFlameGraph *flame;
  GtkLabel *flame_label;
  GtkButton *summary_button;

  EtlTrace *trace;
  EtlStacks *stacks;
  EtlSpanSet *extra;
  EtlSpanSet *spans; /* what the names table shows */
  gint64 begin, end;

  GCancellable *stats_cancel;
  GCancellable *inst_cancel;
  GCancellable *flame_cancel;
  GCancellable *summary_cancel;
  guint stats_idle;

  gboolean has_name;
  guint32 name;
  guint32 lane;
  char *name_text;     /* kept across recomputations, to select it again */
  char *source_text;
  GArray *selected;    /* guint32 span indices */
  GArray *rows;        /* InstRow, being added */
  guint fill_pos;
  guint fill_id;
  guint64 n_of_name;
  gint64 longest_step;
  char *message;
};

enum
{
  INSTANCE_ACTIVATED,
  SUMMARY_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_TYPE (EtlRegionsView, etl_regions_view, GTK_TYPE_BOX)

static void start_instances (EtlRegionsView *self, gboolean new_histogram);

static void
inst_row_clear (gpointer data)
{
  InstRow *r = data;

  g_free (r->process);
  g_free (r->fields);
}

static void
set_message (EtlRegionsView *self, const char *message)
{
  g_free (self->message);
  self->message = g_strdup (message);
  gtk_label_set_text (self->status, message);
}

static void
cancel (GCancellable **slot)
{
  if (*slot != NULL)
    g_cancellable_cancel (*slot);
  g_clear_object (slot);
}

/* ---- Statistics (worker) ---- */

typedef struct
{
  EtlTrace *trace;
  EtlSpanSet *extra;
  gint64 begin, end;
} StatsJob;

/* The unmatched Stops of a (name, lane) in the range. */
typedef struct
{
  guint32 name;
  guint32 lane;
  guint64 count;
} StopCount;

typedef struct
{
  EtlSpanSet *spans;
  GArray *stats;
  GArray *stops; /* StopCount, by (name, lane) */
} StatsResult;

static void
stats_job_free (gpointer data)
{
  StatsJob *job = data;

  etl_trace_unref (job->trace);
  g_clear_pointer (&job->extra, etl_span_set_unref);
  g_free (job);
}

static void
stats_result_free (gpointer data)
{
  StatsResult *r = data;

  g_clear_pointer (&r->spans, etl_span_set_unref);
  g_clear_pointer (&r->stats, g_array_unref);
  g_clear_pointer (&r->stops, g_array_unref);
  g_free (r);
}

static int
cmp_stop_key (gconstpointer a, gconstpointer b)
{
  const StopCount *x = a, *y = b;

  if (x->name != y->name)
    return x->name < y->name ? -1 : 1;
  return x->lane < y->lane ? -1 : x->lane > y->lane;
}

/* The unmatched Stops of @spans in [@begin, @end) (all when @end ≤
 * @begin), counted per (name, lane), sorted by it. */
static GArray *
count_stops (EtlSpanSet *spans, gint64 begin, gint64 end)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (StopCount));
  guint n = 0, k = 0;
  const EtlSpanStop *st = etl_span_set_get_unmatched_stops (spans, &n);

  for (guint i = 0; i < n; i++)
    if (end <= begin || (st[i].time >= begin && st[i].time < end))
      {
        StopCount c = { st[i].name, st[i].lane, 1 };

        g_array_append_val (out, c);
      }
  g_array_sort (out, cmp_stop_key);
  for (guint i = 0; i < out->len; i++)
    {
      StopCount *c = &g_array_index (out, StopCount, i);

      if (k > 0 && cmp_stop_key (&g_array_index (out, StopCount, k - 1), c) == 0)
        g_array_index (out, StopCount, k - 1).count++;
      else
        g_array_index (out, StopCount, k++) = *c;
    }
  g_array_set_size (out, k);
  return out;
}

static void
stats_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  StatsJob *job = task_data;
  g_autoptr (EtlSpanSet) acts = NULL;
  StatsResult *result;
  GError *error = NULL;

  (void) source;
  acts = etl_span_set_get_activities_shared (job->trace, cancellable, &error);
  if (acts == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  result = g_new0 (StatsResult, 1);
  if (job->extra != NULL)
    {
      result->spans = etl_span_set_new ();
      etl_span_set_add_set (result->spans, acts);
      etl_span_set_add_set (result->spans, job->extra);
    }
  else
    result->spans = etl_span_set_ref (acts);
  result->stats = etl_span_set_compute_stats (result->spans, job->begin, job->end);
  result->stops = count_stops (result->spans, job->begin, job->end);
  if (g_task_return_error_if_cancelled (task))
    stats_result_free (result);
  else
    g_task_return_pointer (task, result, stats_result_free);
}

static GtkListStore *
new_instances_store (void)
{
  return gtk_list_store_new (ETL_REGIONS_VIEW_INSTANCE_N_COLUMNS, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_STRING,
                             G_TYPE_UINT, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_STRING);
}

/* Empties the instances table: a new store in the view, keeping the order
 * the user chose.  Clearing the shown store row by row had the view handle
 * each row's removal: 116 ms of the main loop for 20,000 rows. */
static void
reset_instances (EtlRegionsView *self)
{
  GtkListStore *fresh;
  gint column;
  GtkSortType order;

  if (self->instances == NULL || gtk_tree_model_iter_n_children (GTK_TREE_MODEL (self->instances), NULL) == 0)
    return;
  fresh = new_instances_store ();
  if (gtk_tree_sortable_get_sort_column_id (GTK_TREE_SORTABLE (self->instances), &column, &order))
    gtk_tree_sortable_set_sort_column_id (GTK_TREE_SORTABLE (fresh), column, order);
  gtk_tree_view_set_model (self->instances_view, GTK_TREE_MODEL (fresh));
  g_object_unref (self->instances);
  self->instances = fresh;
}

static void
clear_instances (EtlRegionsView *self)
{
  cancel (&self->inst_cancel);
  cancel (&self->flame_cancel);
  cancel (&self->summary_cancel);
  g_clear_handle_id (&self->fill_id, g_source_remove);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->selected, g_array_unref);
  reset_instances (self);
  etl_duration_histogram_set_histogram (self->histogram, NULL);
  etl_flame_graph_set_tree (self->flame, NULL);
  gtk_label_set_text (self->instances_label, "");
  gtk_label_set_text (self->flame_label, "");
  gtk_widget_set_sensitive (GTK_WIDGET (self->summary_button), FALSE);
}

static void
on_stats (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr (EtlRegionsView) self = user_data;
  g_autoptr (GError) error = NULL;
  StatsResult *result = g_task_propagate_pointer (G_TASK (res), &error);
  GtkTreeSelection *sel;
  gint64 t0 = g_get_monotonic_time ();
  guint n_spans = 0, n_rows = 0;
  guint64 n_stops = 0;
  gboolean reselected = FALSE;
  g_autofree gboolean *stop_shown = NULL;

  (void) source;
  if (g_task_get_cancellable (G_TASK (res)) != self->stats_cancel)
    {
      if (result != NULL)
        stats_result_free (result);
      return;
    }
  g_clear_object (&self->stats_cancel);
  if (result == NULL)
    {
      set_message (self, error->message);
      return;
    }
  g_clear_pointer (&self->spans, etl_span_set_unref);
  self->spans = etl_span_set_ref (result->spans);
  etl_span_set_get (self->spans, &n_spans);

  /* One row per name; names are few (they share the string table). */
  sel = gtk_tree_view_get_selection (self->names_view);
  g_object_ref (self->names);
  gtk_tree_view_set_model (self->names_view, NULL);
  gtk_list_store_clear (self->names);
  stop_shown = g_new0 (gboolean, MAX (result->stops->len, 1));
  for (guint i = 0; i < result->stats->len; i++)
    {
      const EtlSpanNameStats *s = &g_array_index (result->stats, EtlSpanNameStats, i);
      StopCount key = { s->name, s->lane, 0 };
      guint at = 0;
      guint64 unmatched = 0;

      if (g_array_binary_search (result->stops, &key, cmp_stop_key, &at))
        {
          unmatched = g_array_index (result->stops, StopCount, at).count;
          stop_shown[at] = TRUE;
        }
      gtk_list_store_insert_with_values (self->names, NULL, -1,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_NAME,
                                         etl_span_set_get_string (self->spans, s->name),
                                         ETL_REGIONS_VIEW_NAME_COLUMN_COUNT, s->stats.count,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_TOTAL, s->stats.total,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_MEAN, s->stats.mean,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_MEDIAN, s->stats.median,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_P90, s->stats.p90,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_P99, s->stats.p99,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_MAX, s->stats.max,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_OPEN, s->stats.open,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_ID, (guint) s->name,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE,
                                         etl_span_set_get_string (self->spans, s->lane),
                                         ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE_ID, (guint) s->lane,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_UNMATCHED, unmatched, -1);
    }
  /* The names that have only Stops without a Start: no interval, Count 0. */
  for (guint i = 0; i < result->stops->len; i++)
    {
      const StopCount *c = &g_array_index (result->stops, StopCount, i);

      n_stops += c->count;
      if (stop_shown[i])
        continue;
      gtk_list_store_insert_with_values (self->names, NULL, -1,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_NAME, etl_span_set_get_string (self->spans, c->name),
                                         ETL_REGIONS_VIEW_NAME_COLUMN_COUNT, (guint64) 0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_TOTAL, (gint64) 0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_MEAN, 0.0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_MEDIAN, 0.0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_P90, (gint64) 0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_P99, (gint64) 0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_MAX, (gint64) 0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_OPEN, (guint64) 0,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_ID, (guint) c->name,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE,
                                         etl_span_set_get_string (self->spans, c->lane),
                                         ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE_ID, (guint) c->lane,
                                         ETL_REGIONS_VIEW_NAME_COLUMN_UNMATCHED, c->count, -1);
      n_rows++;
    }
  n_rows += result->stats->len;
  gtk_tree_view_set_model (self->names_view, GTK_TREE_MODEL (self->names));
  g_object_unref (self->names);
  {
    g_autofree char *text = NULL;

    if (n_rows == 0)
      text = g_strdup ("No Start/Stop activities or regions in this trace (events with opcodes 1 and 2; "
                       "File ▸ Load Regions… adds a Regions of Interest file)");
    else if (n_stops > 0)
      text = g_strdup_printf ("%u names · %u intervals · %" G_GUINT64_FORMAT " Stops without a Start%s", n_rows,
                              n_spans, n_stops,
                              self->end > self->begin ? " · counting those that begin in the selected range" : "");
    else
      text = g_strdup_printf ("%u names · %u intervals%s", n_rows, n_spans,
                              self->end > self->begin ? " · counting those that begin in the selected range"
                                                      : "");
    set_message (self, text);
  }
  stats_result_free (result);
  self->longest_step = MAX (self->longest_step, g_get_monotonic_time () - t0);

  /* The name selected before, again. */
  if (self->name_text != NULL)
    {
      g_autofree char *want = g_strdup (self->name_text);
      g_autofree char *want_source = g_strdup (self->source_text);

      reselected = etl_regions_view_select_name (self, want, want_source);
    }
  if (!reselected)
    {
      gtk_tree_selection_unselect_all (sel);
      self->has_name = FALSE;
      clear_instances (self);
    }
}

static gboolean
start_stats (gpointer user_data)
{
  EtlRegionsView *self = user_data;
  g_autoptr (GTask) task = NULL;
  StatsJob *job;

  self->stats_idle = 0;
  cancel (&self->stats_cancel);
  if (self->trace == NULL)
    return G_SOURCE_REMOVE;
  job = g_new0 (StatsJob, 1);
  job->trace = etl_trace_ref (self->trace);
  job->extra = self->extra != NULL ? etl_span_set_ref (self->extra) : NULL;
  job->begin = self->begin;
  job->end = self->end;
  self->stats_cancel = g_cancellable_new ();
  set_message (self, "Pairing Start/Stop events…");
  task = g_task_new (NULL, self->stats_cancel, on_stats, g_object_ref (self));
  g_task_set_task_data (task, job, stats_job_free);
  etl_worker_run (task, stats_thread);
  return G_SOURCE_REMOVE;
}

static void
schedule_stats (EtlRegionsView *self)
{
  if (self->stats_idle == 0)
    self->stats_idle = g_idle_add (start_stats, self);
}

/* ---- Instances of a name (worker) ---- */

typedef struct
{
  EtlTrace *trace;
  EtlSpanSet *spans;
  guint32 name;
  guint32 lane;
  gint64 begin, end;
  gboolean new_histogram;
  EtlSpanHistogram histogram;
  gboolean has_selection;
  guint first, last;
} InstJob;

typedef struct
{
  EtlSpanHistogram histogram;
  gboolean new_histogram;
  GArray *selected; /* guint32 */
  GArray *rows;     /* InstRow */
  guint64 n_of_name;
} InstResult;

static void
inst_job_free (gpointer data)
{
  InstJob *job = data;

  etl_trace_unref (job->trace);
  etl_span_set_unref (job->spans);
  g_free (job);
}

static void
inst_result_free (gpointer data)
{
  InstResult *r = data;

  g_clear_pointer (&r->selected, g_array_unref);
  g_clear_pointer (&r->rows, g_array_unref);
  g_free (r);
}

/* Longest first, open ones (no duration) last. */
static int
cmp_by_duration (gconstpointer a, gconstpointer b, gpointer data)
{
  const EtlSpan *spans = data;
  const EtlSpan *x = &spans[*(const guint32 *) a], *y = &spans[*(const guint32 *) b];
  gint64 dx = (x->flags & ETL_SPAN_OPEN) ? -1 : x->stop - x->start;
  gint64 dy = (y->flags & ETL_SPAN_OPEN) ? -1 : y->stop - y->start;

  if (dx != dy)
    return dx > dy ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

static void
inst_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  InstJob *job = task_data;
  InstResult *result = g_new0 (InstResult, 1);
  guint n = 0;
  const EtlSpan *s = etl_span_set_get (job->spans, &n);
  g_autoptr (GArray) of_name = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *order = NULL;
  EtlProcessTable *table = etl_trace_get_process_table (job->trace);
  gint64 origin = etl_trace_get_origin (job->trace);
  guint n_rows;

  (void) source;
  for (guint i = 0; i < n; i++)
    if (s[i].name == job->name && s[i].lane == job->lane && (job->begin >= job->end || (s[i].start >= job->begin && s[i].start < job->end)))
      g_array_append_val (of_name, i);
  result->n_of_name = of_name->len;
  result->new_histogram = job->new_histogram;
  if (job->new_histogram)
    {
      g_autofree gint64 *d = g_new (gint64, MAX (of_name->len, 1));
      gsize k = 0;

      for (guint i = 0; i < of_name->len; i++)
        {
          const EtlSpan *x = &s[g_array_index (of_name, guint32, i)];

          if ((x->flags & ETL_SPAN_OPEN) == 0)
            d[k++] = x->stop - x->start;
        }
      etl_span_histogram_compute (&result->histogram, d, k, ETL_REGIONS_VIEW_BUCKETS);
    }
  else
    result->histogram = job->histogram;

  /* The selection: the closed instances in the selected buckets, by the
   * same rule as the counting (etl_span_histogram_bucket_of()). */
  if (job->has_selection)
    {
      result->selected = g_array_new (FALSE, FALSE, sizeof (guint32));
      for (guint i = 0; i < of_name->len; i++)
        {
          guint32 k = g_array_index (of_name, guint32, i);
          guint b;

          if (s[k].flags & ETL_SPAN_OPEN)
            continue;
          b = etl_span_histogram_bucket_of (&result->histogram, s[k].stop - s[k].start);
          if (b >= job->first && b <= job->last)
            g_array_append_val (result->selected, k);
        }
    }
  else
    result->selected = g_array_ref (of_name);

  /* The rows: the longest first, with their Start's fields. */
  order = g_memdup2 (result->selected->data, MAX (result->selected->len, 1) * sizeof (guint32));
  g_qsort_with_data (order, (gint) result->selected->len, sizeof (guint32), cmp_by_duration, (gpointer) s);
  n_rows = MIN (result->selected->len, ETL_REGIONS_VIEW_MAX_ROWS);
  result->rows = g_array_sized_new (FALSE, TRUE, sizeof (InstRow), n_rows);
  g_array_set_clear_func (result->rows, inst_row_clear);
  for (guint i = 0; i < n_rows; i++)
    {
      const EtlSpan *x = &s[order[i]];
      InstRow row = { 0 };

      if (i % 256 == 0 && g_cancellable_is_cancelled (cancellable))
        break;
      row.span = order[i];
      row.start = x->start - origin;
      row.duration = (x->flags & ETL_SPAN_OPEN) ? -1 : x->stop - x->start;
      row.tid = x->tid;
      row.label = etl_span_set_get_string (job->spans, x->label);
      row.process = table != NULL ? etl_precise_format_process (table, x->pid, x->tid, x->start)
                                  : g_strdup_printf ("%u", x->pid);
      if (x->start_record != ETL_SPAN_NO_RECORD)
        {
          g_auto (EtlRecord) rec = { 0 };

          if (etl_trace_get_record (job->trace, x->start_record, &rec, NULL))
            {
              EtlDecoded *dec = etl_trace_decode_record (job->trace, &rec);

              if (dec != NULL)
                {
                  row.fields = etl_decoded_format_payload (dec, FIELDS_CHARS);
                  etl_decoded_free (dec);
                }
            }
        }
      if (row.fields == NULL)
        row.fields = g_strdup ("");
      g_array_append_val (result->rows, row);
    }
  if (g_task_return_error_if_cancelled (task))
    inst_result_free (result);
  else
    g_task_return_pointer (task, result, inst_result_free);
}

/* ---- Flame graph (worker) ---- */

/* The selected instances as the workers take them: the span set and the
 * indices into it (both referenced, never changed), turned into thread
 * spans in the worker (pick_thread_spans()): a million instances take
 * tens of ms. */
typedef struct
{
  EtlSpanSet *set;
  GArray *selected; /* guint32 */
} Picked;

static void
picked_init (Picked *p, EtlRegionsView *self)
{
  p->set = etl_span_set_ref (self->spans);
  p->selected = g_array_ref (self->selected);
}

static void
picked_clear (Picked *p)
{
  etl_span_set_unref (p->set);
  g_array_unref (p->selected);
}

/* The picked instances' threads and intervals (those with a thread); with
 * @with_stop each interval includes its end, so "Summary of these"
 * counts the Stop record beside the Start (the samples of the flame graph
 * lie strictly inside).  (transfer full) */
static GArray *
pick_thread_spans (const Picked *p, gboolean with_stop)
{
  guint n = 0;
  const EtlSpan *s = etl_span_set_get (p->set, &n);
  GArray *spans = g_array_sized_new (FALSE, FALSE, sizeof (EtlStackTreeSpan), p->selected->len);

  for (guint i = 0; i < p->selected->len; i++)
    {
      const EtlSpan *x = &s[g_array_index (p->selected, guint32, i)];
      EtlStackTreeSpan t = { x->tid, x->start, x->stop };

      if (with_stop)
        t.stop++;
      if (x->tid != 0)
        g_array_append_val (spans, t);
    }
  return spans;
}

typedef struct
{
  EtlStacks *stacks;
  Picked picked;
} FlameJob;

static void
flame_job_free (gpointer data)
{
  FlameJob *job = data;

  etl_stacks_unref (job->stacks);
  picked_clear (&job->picked);
  g_free (job);
}

static void
flame_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  FlameJob *job = task_data;
  GError *error = NULL;
  g_autoptr (GArray) spans = pick_thread_spans (&job->picked, FALSE);
  EtlStackTree *tree;

  (void) source;
  tree = etl_stack_tree_new_for_threads (job->stacks, (const EtlStackTreeSpan *) (gpointer) spans->data, spans->len,
                                         cancellable, &error);
  if (tree == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tree, (GDestroyNotify) etl_stack_tree_free);
}

static void
on_flame (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr (EtlRegionsView) self = user_data;
  g_autoptr (GError) error = NULL;
  EtlStackTree *tree = g_task_propagate_pointer (G_TASK (res), &error);
  guint n_nodes = 0;

  (void) source;
  if (g_task_get_cancellable (G_TASK (res)) != self->flame_cancel)
    {
      g_clear_pointer (&tree, etl_stack_tree_free);
      return;
    }
  g_clear_object (&self->flame_cancel);
  if (tree == NULL)
    {
      gtk_label_set_text (self->flame_label, error->message);
      return;
    }
  {
    const EtlStackTreeNode *nodes = etl_stack_tree_get_nodes (tree, &n_nodes);
    g_autofree char *text = nodes[0].total == 0
        ? g_strdup ("No CPU samples with stacks on these threads in these intervals")
        : g_strdup_printf ("CPU samples of the selected instances' threads in their intervals: %" G_GUINT64_FORMAT,
                           nodes[0].total);

    gtk_label_set_text (self->flame_label, text);
  }
  etl_flame_graph_set_tree (self->flame, tree);
}

static void
start_flame (EtlRegionsView *self)
{
  g_autoptr (GTask) task = NULL;
  FlameJob *job;

  cancel (&self->flame_cancel);
  etl_flame_graph_set_tree (self->flame, NULL);
  if (self->stacks == NULL || self->selected == NULL || self->spans == NULL)
    {
      gtk_label_set_text (self->flame_label, self->stacks == NULL ? "No stacks in this trace" : "");
      return;
    }
  job = g_new0 (FlameJob, 1);
  job->stacks = etl_stacks_ref (self->stacks);
  picked_init (&job->picked, self);
  gtk_label_set_text (self->flame_label, "Reading the samples…");
  self->flame_cancel = g_cancellable_new ();
  task = g_task_new (NULL, self->flame_cancel, on_flame, g_object_ref (self));
  g_task_set_task_data (task, job, flame_job_free);
  etl_worker_run (task, flame_thread);
}

/* ---- "Summary of these": the instances' records (worker) ---- */

typedef struct
{
  EtlTrace *trace;
  Picked picked;
} SummaryJob;

static void
summary_job_free (gpointer data)
{
  SummaryJob *job = data;

  etl_trace_unref (job->trace);
  picked_clear (&job->picked);
  g_free (job);
}

static void
summary_thread (GTask *task, gpointer source, gpointer task_data, GCancellable *cancellable)
{
  SummaryJob *job = task_data;
  GError *error = NULL;
  g_autoptr (GArray) spans = pick_thread_spans (&job->picked, TRUE);
  EtlRowSet *rows;

  (void) source;
  rows = etl_thread_rows_new (job->trace, (const EtlStackTreeSpan *) (gpointer) spans->data, spans->len, cancellable,
                              &error);
  if (rows == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, rows, (GDestroyNotify) etl_row_set_unref);
}

static void
on_summary_rows (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr (EtlRegionsView) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlRowSet) rows = g_task_propagate_pointer (G_TASK (res), &error);
  g_autofree char *title = NULL;
  g_autofree char *count = NULL;
  guint n_sel;

  (void) source;
  if (g_task_get_cancellable (G_TASK (res)) != self->summary_cancel)
    return;
  g_clear_object (&self->summary_cancel);
  gtk_widget_set_sensitive (GTK_WIDGET (self->summary_button), self->selected != NULL && self->selected->len > 0);
  if (rows == NULL)
    {
      gtk_label_set_text (self->flame_label, error->message);
      return;
    }
  n_sel = self->selected != NULL ? self->selected->len : 0;
  count = g_strdup_printf ("%'" G_GUINT64_FORMAT, etl_row_set_get_n (rows));
  title = g_strdup_printf ("%u %s of %s: their threads within their intervals — %s records", n_sel,
                           n_sel == 1 ? "instance" : "instances", self->name_text != NULL ? self->name_text : "?",
                           count);
  g_signal_emit (self, signals[SUMMARY_REQUESTED], 0, rows, title);
}

/* Collects the selected instances' records in a worker; the signal
 * carries them when done. */
static void
start_summary (EtlRegionsView *self)
{
  g_autoptr (GTask) task = NULL;
  SummaryJob *job;

  cancel (&self->summary_cancel);
  if (self->trace == NULL || self->spans == NULL || self->selected == NULL || self->selected->len == 0)
    return;
  job = g_new0 (SummaryJob, 1);
  job->trace = etl_trace_ref (self->trace);
  picked_init (&job->picked, self);
  self->summary_cancel = g_cancellable_new ();
  gtk_widget_set_sensitive (GTK_WIDGET (self->summary_button), FALSE);
  task = g_task_new (NULL, self->summary_cancel, on_summary_rows, g_object_ref (self));
  g_task_set_task_data (task, job, summary_job_free);
  etl_worker_run (task, summary_thread);
}

/* ---- Filling the instances table in steps ---- */

static void
update_instances_label (EtlRegionsView *self)
{
  g_autofree char *text = NULL;
  guint n_sel = self->selected != NULL ? self->selected->len : 0;
  guint shown = self->fill_pos;

  if (self->selected == NULL)
    return;
  if (self->n_of_name == 0)
    text = g_strdup ("No instance: only Stops without a Start (the Unmatched Stops column)");
  else if (etl_duration_histogram_get_selection (self->histogram, NULL, NULL))
    text = g_strdup_printf ("%u of %" G_GUINT64_FORMAT " instances selected in the histogram%s", n_sel,
                            self->n_of_name, n_sel > shown ? " (the longest shown)" : "");
  else
    text = g_strdup_printf ("%" G_GUINT64_FORMAT " %s%s — drag over the histogram to select by duration",
                            self->n_of_name, self->n_of_name == 1 ? "instance" : "instances",
                            n_sel > shown ? " (the longest shown)" : "");
  gtk_label_set_text (self->instances_label, text);
}

static gboolean
fill_step (gpointer user_data)
{
  EtlRegionsView *self = user_data;
  gint64 t0 = g_get_monotonic_time ();

  while (self->rows != NULL && self->fill_pos < self->rows->len)
    {
      const InstRow *r = &g_array_index (self->rows, InstRow, self->fill_pos);

      gtk_list_store_insert_with_values (self->instances, NULL, -1,
                                         ETL_REGIONS_VIEW_INSTANCE_COLUMN_START, r->start,
                                         ETL_REGIONS_VIEW_INSTANCE_COLUMN_DURATION, r->duration,
                                         ETL_REGIONS_VIEW_INSTANCE_COLUMN_PROCESS, r->process,
                                         ETL_REGIONS_VIEW_INSTANCE_COLUMN_THREAD, (guint) r->tid,
                                         ETL_REGIONS_VIEW_INSTANCE_COLUMN_FIELDS, r->fields,
                                         ETL_REGIONS_VIEW_INSTANCE_COLUMN_SPAN, (guint) r->span,
                                         ETL_REGIONS_VIEW_INSTANCE_COLUMN_LABEL, r->label, -1);
      self->fill_pos++;
      if (self->fill_pos % 64 == 0 && g_get_monotonic_time () - t0 > STEP_USEC)
        break;
    }
  self->longest_step = MAX (self->longest_step, g_get_monotonic_time () - t0);
  update_instances_label (self);
  if (self->rows != NULL && self->fill_pos < self->rows->len)
    return G_SOURCE_CONTINUE;
  self->fill_id = 0;
  g_clear_pointer (&self->rows, g_array_unref);
  return G_SOURCE_REMOVE;
}

static void
on_instances (GObject *source, GAsyncResult *res, gpointer user_data)
{
  g_autoptr (EtlRegionsView) self = user_data;
  g_autoptr (GError) error = NULL;
  InstResult *result = g_task_propagate_pointer (G_TASK (res), &error);

  (void) source;
  if (g_task_get_cancellable (G_TASK (res)) != self->inst_cancel)
    {
      if (result != NULL)
        inst_result_free (result);
      return;
    }
  g_clear_object (&self->inst_cancel);
  if (result == NULL)
    {
      gtk_label_set_text (self->instances_label, error->message);
      return;
    }
  if (result->new_histogram)
    etl_duration_histogram_set_histogram (self->histogram, &result->histogram);
  g_clear_pointer (&self->selected, g_array_unref);
  self->selected = g_steal_pointer (&result->selected);
  self->n_of_name = result->n_of_name;
  g_clear_handle_id (&self->fill_id, g_source_remove);
  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = g_steal_pointer (&result->rows);
  self->fill_pos = 0;
  reset_instances (self);
  inst_result_free (result);
  gtk_widget_set_sensitive (GTK_WIDGET (self->summary_button), self->selected->len > 0);
  if (fill_step (self))
    self->fill_id = g_timeout_add (1, fill_step, self);
  start_flame (self);
}

static void
start_instances (EtlRegionsView *self, gboolean new_histogram)
{
  g_autoptr (GTask) task = NULL;
  InstJob *job;

  cancel (&self->inst_cancel);
  cancel (&self->summary_cancel); /* of the instances selected before */
  if (!self->has_name || self->spans == NULL || self->trace == NULL)
    return;
  job = g_new0 (InstJob, 1);
  job->trace = etl_trace_ref (self->trace);
  job->spans = etl_span_set_ref (self->spans);
  job->name = self->name;
  job->lane = self->lane;
  job->begin = self->begin;
  job->end = self->end;
  job->new_histogram = new_histogram;
  if (!new_histogram)
    {
      const EtlSpanHistogram *h = etl_duration_histogram_get_histogram (self->histogram);

      if (h != NULL)
        job->histogram = *h;
      job->has_selection = h != NULL && etl_duration_histogram_get_selection (self->histogram, &job->first, &job->last);
    }
  self->inst_cancel = g_cancellable_new ();
  task = g_task_new (NULL, self->inst_cancel, on_instances, g_object_ref (self));
  g_task_set_task_data (task, job, inst_job_free);
  etl_worker_run (task, inst_thread);
}

/* ---- Signals of the parts ---- */

static void
on_name_selected (GtkTreeSelection *selection, EtlRegionsView *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  guint id, lane;
  g_autofree char *name = NULL;
  g_autofree char *source = NULL;

  if (!gtk_tree_selection_get_selected (selection, &model, &iter))
    return;
  gtk_tree_model_get (model, &iter, ETL_REGIONS_VIEW_NAME_COLUMN_ID, &id, ETL_REGIONS_VIEW_NAME_COLUMN_NAME, &name,
                      ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE_ID, &lane, ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE, &source, -1);
  if (self->has_name && self->name == id && self->lane == lane && self->inst_cancel != NULL)
    return;
  clear_instances (self);
  self->has_name = TRUE;
  self->name = id;
  self->lane = lane;
  g_free (self->name_text);
  self->name_text = g_steal_pointer (&name);
  g_free (self->source_text);
  self->source_text = g_steal_pointer (&source);
  start_instances (self, TRUE);
}

static void
on_histogram_selection (EtlDurationHistogram *histogram, EtlRegionsView *self)
{
  (void) histogram;
  start_instances (self, FALSE);
}

static void
on_instance_activated (GtkTreeView *view, GtkTreePath *path, GtkTreeViewColumn *column, EtlRegionsView *self)
{
  GtkTreeModel *model = gtk_tree_view_get_model (view);
  GtkTreeIter iter;
  guint span;
  guint n = 0;
  const EtlSpan *s;

  (void) column;
  if (self->spans == NULL || !gtk_tree_model_get_iter (model, &iter, path))
    return;
  gtk_tree_model_get (model, &iter, ETL_REGIONS_VIEW_INSTANCE_COLUMN_SPAN, &span, -1);
  s = etl_span_set_get (self->spans, &n);
  if (span < n)
    g_signal_emit (self, signals[INSTANCE_ACTIVATED], 0, (guint64) s[span].start_record, s[span].start, s[span].stop);
}

static void
on_summary_clicked (GtkButton *button, EtlRegionsView *self)
{
  (void) button;
  start_summary (self);
}

/* ---- Cells ---- */

static void
ms_cell (GtkTreeViewColumn *column, GtkCellRenderer *cell, GtkTreeModel *model, GtkTreeIter *iter, gpointer data)
{
  int col = GPOINTER_TO_INT (data);
  GType type = gtk_tree_model_get_column_type (model, col);
  double ticks;
  char text[64];

  (void) column;
  if (type == G_TYPE_DOUBLE)
    gtk_tree_model_get (model, iter, col, &ticks, -1);
  else
    {
      gint64 v;

      gtk_tree_model_get (model, iter, col, &v, -1);
      if (v < 0)
        {
          g_object_set (cell, "text", "open", NULL);
          return;
        }
      ticks = (double) v;
    }
  g_snprintf (text, sizeof text, "%.3f", ticks / 10000.0);
  g_object_set (cell, "text", text, NULL);
}

static void
add_column (GtkTreeView *view, const char *title, int col, gboolean ms, gboolean expand)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *column = gtk_tree_view_column_new ();

  gtk_tree_view_column_set_title (column, title);
  gtk_tree_view_column_pack_start (column, cell, TRUE);
  if (ms)
    {
      g_object_set (cell, "xalign", 1.0, NULL);
      gtk_tree_view_column_set_cell_data_func (column, cell, ms_cell, GINT_TO_POINTER (col), NULL);
    }
  else
    {
      gtk_tree_view_column_add_attribute (column, cell, "text", col);
      if (!expand)
        g_object_set (cell, "xalign", 1.0, NULL);
      else
        g_object_set (cell, "ellipsize", PANGO_ELLIPSIZE_END, NULL);
    }
  gtk_tree_view_column_set_sort_column_id (column, col);
  gtk_tree_view_column_set_resizable (column, TRUE);
  gtk_tree_view_column_set_expand (column, expand);
  if (expand)
    gtk_tree_view_column_set_min_width (column, 160);
  gtk_tree_view_append_column (view, column);
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *sw = gtk_scrolled_window_new (NULL, NULL);

  gtk_container_add (GTK_CONTAINER (sw), child);
  gtk_widget_set_vexpand (sw, TRUE);
  gtk_widget_set_hexpand (sw, TRUE);
  return sw;
}

static void
etl_regions_view_dispose (GObject *object)
{
  EtlRegionsView *self = ETL_REGIONS_VIEW (object);

  cancel (&self->stats_cancel);
  cancel (&self->inst_cancel);
  cancel (&self->flame_cancel);
  cancel (&self->summary_cancel);
  g_clear_handle_id (&self->stats_idle, g_source_remove);
  g_clear_handle_id (&self->fill_id, g_source_remove);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_pointer (&self->selected, g_array_unref);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->extra, etl_span_set_unref);
  g_clear_pointer (&self->spans, etl_span_set_unref);
  g_clear_object (&self->names);
  g_clear_object (&self->instances);
  G_OBJECT_CLASS (etl_regions_view_parent_class)->dispose (object);
}

static void
etl_regions_view_finalize (GObject *object)
{
  EtlRegionsView *self = ETL_REGIONS_VIEW (object);

  g_free (self->name_text);
  g_free (self->source_text);
  g_free (self->message);
  G_OBJECT_CLASS (etl_regions_view_parent_class)->finalize (object);
}

static void
etl_regions_view_class_init (EtlRegionsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_regions_view_dispose;
  object_class->finalize = etl_regions_view_finalize;

  /**
   * EtlRegionsView::instance-activated:
   * @self: the view
   * @start_record: the record that began the instance (its index in the
   *   trace; %ETL_SPAN_NO_RECORD for a container region)
   * @start: its beginning, FILETIME
   * @stop: its end, FILETIME
   *
   * A row of the instances table was activated.
   */
  signals[INSTANCE_ACTIVATED] = g_signal_new ("instance-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                              NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT64, G_TYPE_INT64,
                                              G_TYPE_INT64);
  /**
   * EtlRegionsView::summary-requested:
   * @self: the view
   * @rows: (type gpointer): the #EtlRowSet of the records of the selected
   *   instances' threads within their intervals (etl_thread_rows_new()),
   *   valid during the emission (take a reference to keep it)
   * @title: what they are: "12 instances of ExecuteTask: their threads
   *   within their intervals — 3,456 records"
   *
   * "Summary of these" was clicked and its records collected (in a
   * worker): the window shows their grouped summary.
   */
  signals[SUMMARY_REQUESTED] = g_signal_new ("summary-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                             NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_POINTER, G_TYPE_STRING);
}

static void
etl_regions_view_init (EtlRegionsView *self)
{
  GtkWidget *paned, *lower, *left, *right, *bar;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (self), GTK_ORIENTATION_VERTICAL);
  self->status = GTK_LABEL (gtk_label_new (""));
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  g_object_set (self->status, "margin", 4, NULL);
  gtk_box_pack_start (GTK_BOX (self), GTK_WIDGET (self->status), FALSE, FALSE, 0);

  self->names = gtk_list_store_new (ETL_REGIONS_VIEW_NAME_N_COLUMNS, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_INT64,
                                    G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_INT64,
                                    G_TYPE_UINT64, G_TYPE_UINT, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_UINT64);
  gtk_tree_sortable_set_sort_column_id (GTK_TREE_SORTABLE (self->names), ETL_REGIONS_VIEW_NAME_COLUMN_TOTAL,
                                        GTK_SORT_DESCENDING);
  self->names_view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->names)));
  add_column (self->names_view, "Name", ETL_REGIONS_VIEW_NAME_COLUMN_NAME, FALSE, TRUE);
  add_column (self->names_view, "Count", ETL_REGIONS_VIEW_NAME_COLUMN_COUNT, FALSE, FALSE);
  add_column (self->names_view, "Total (ms)", ETL_REGIONS_VIEW_NAME_COLUMN_TOTAL, TRUE, FALSE);
  add_column (self->names_view, "Mean (ms)", ETL_REGIONS_VIEW_NAME_COLUMN_MEAN, TRUE, FALSE);
  add_column (self->names_view, "Median (ms)", ETL_REGIONS_VIEW_NAME_COLUMN_MEDIAN, TRUE, FALSE);
  add_column (self->names_view, "P90 (ms)", ETL_REGIONS_VIEW_NAME_COLUMN_P90, TRUE, FALSE);
  add_column (self->names_view, "P99 (ms)", ETL_REGIONS_VIEW_NAME_COLUMN_P99, TRUE, FALSE);
  add_column (self->names_view, "Max (ms)", ETL_REGIONS_VIEW_NAME_COLUMN_MAX, TRUE, FALSE);
  add_column (self->names_view, "Open", ETL_REGIONS_VIEW_NAME_COLUMN_OPEN, FALSE, FALSE);
  add_column (self->names_view, "Unmatched Stops", ETL_REGIONS_VIEW_NAME_COLUMN_UNMATCHED, FALSE, FALSE);
  add_column (self->names_view, "Source", ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE, FALSE, TRUE);
  g_signal_connect (gtk_tree_view_get_selection (self->names_view), "changed", G_CALLBACK (on_name_selected), self);

  self->instances = new_instances_store ();
  self->instances_view = GTK_TREE_VIEW (gtk_tree_view_new_with_model (GTK_TREE_MODEL (self->instances)));
  gtk_tree_view_set_fixed_height_mode (self->instances_view, FALSE);
  add_column (self->instances_view, "Name", ETL_REGIONS_VIEW_INSTANCE_COLUMN_LABEL, FALSE, TRUE);
  add_column (self->instances_view, "Start (ms)", ETL_REGIONS_VIEW_INSTANCE_COLUMN_START, TRUE, FALSE);
  add_column (self->instances_view, "Duration (ms)", ETL_REGIONS_VIEW_INSTANCE_COLUMN_DURATION, TRUE, FALSE);
  add_column (self->instances_view, "Process", ETL_REGIONS_VIEW_INSTANCE_COLUMN_PROCESS, FALSE, FALSE);
  add_column (self->instances_view, "Thread", ETL_REGIONS_VIEW_INSTANCE_COLUMN_THREAD, FALSE, FALSE);
  add_column (self->instances_view, "Fields", ETL_REGIONS_VIEW_INSTANCE_COLUMN_FIELDS, FALSE, TRUE);
  g_signal_connect (self->instances_view, "row-activated", G_CALLBACK (on_instance_activated), self);

  self->histogram = ETL_DURATION_HISTOGRAM (etl_duration_histogram_new ());
  g_signal_connect (self->histogram, "selection-changed", G_CALLBACK (on_histogram_selection), self);
  self->instances_label = GTK_LABEL (gtk_label_new (""));
  gtk_label_set_xalign (self->instances_label, 0);
  gtk_label_set_ellipsize (self->instances_label, PANGO_ELLIPSIZE_END);
  g_object_set (self->instances_label, "margin-start", 4, NULL);

  self->flame = ETL_FLAME_GRAPH (etl_flame_graph_new ());
  self->flame_label = GTK_LABEL (gtk_label_new (""));
  gtk_label_set_xalign (self->flame_label, 0);
  gtk_label_set_ellipsize (self->flame_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_line_wrap (self->flame_label, FALSE);
  self->summary_button = GTK_BUTTON (gtk_button_new_with_label ("Summary of these"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summary_button),
                               "The grouped summary of what happened on the selected instances' threads within "
                               "their intervals");
  gtk_widget_set_sensitive (GTK_WIDGET (self->summary_button), FALSE);
  g_signal_connect (self->summary_button, "clicked", G_CALLBACK (on_summary_clicked), self);

  left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_box_pack_start (GTK_BOX (left), GTK_WIDGET (self->histogram), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (left), GTK_WIDGET (self->instances_label), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (left), scrolled (GTK_WIDGET (self->instances_view)), TRUE, TRUE, 0);

  right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_box_pack_start (GTK_BOX (bar), GTK_WIDGET (self->flame_label), TRUE, TRUE, 0);
  gtk_box_pack_end (GTK_BOX (bar), GTK_WIDGET (self->summary_button), FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (right), bar, FALSE, FALSE, 0);
  gtk_box_pack_start (GTK_BOX (right), scrolled (GTK_WIDGET (self->flame)), TRUE, TRUE, 0);

  lower = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_pack1 (GTK_PANED (lower), left, TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (lower), right, TRUE, FALSE);
  paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_pack1 (GTK_PANED (paned), scrolled (GTK_WIDGET (self->names_view)), TRUE, FALSE);
  gtk_paned_pack2 (GTK_PANED (paned), lower, TRUE, FALSE);
  gtk_box_pack_start (GTK_BOX (self), paned, TRUE, TRUE, 0);
  gtk_widget_show_all (GTK_WIDGET (self));
}

/**
 * etl_regions_view_new:
 *
 * Returns: (transfer floating): an empty Regions view
 */
GtkWidget *
etl_regions_view_new (void)
{
  return g_object_new (ETL_TYPE_REGIONS_VIEW, NULL);
}

/**
 * etl_regions_view_set_trace:
 * @self: a view
 * @trace: (nullable): the trace, %NULL to empty the view
 * @stacks: (nullable): its stacks, for the flame graph
 *
 * Shows @trace's activities (paired in a worker, once per trace), with the
 * extra spans of etl_regions_view_set_extra() cleared.
 */
void
etl_regions_view_set_trace (EtlRegionsView *self, EtlTrace *trace, EtlStacks *stacks)
{
  g_return_if_fail (ETL_IS_REGIONS_VIEW (self));
  cancel (&self->stats_cancel);
  clear_instances (self);
  g_clear_pointer (&self->trace, etl_trace_unref);
  g_clear_pointer (&self->stacks, etl_stacks_unref);
  g_clear_pointer (&self->extra, etl_span_set_unref);
  g_clear_pointer (&self->spans, etl_span_set_unref);
  g_clear_pointer (&self->name_text, g_free);
  g_clear_pointer (&self->source_text, g_free);
  self->has_name = FALSE;
  self->begin = self->end = 0;
  gtk_list_store_clear (self->names);
  set_message (self, "");
  if (trace == NULL)
    return;
  self->trace = etl_trace_ref (trace);
  self->stacks = stacks != NULL ? etl_stacks_ref (stacks) : NULL;
  schedule_stats (self);
}

/**
 * etl_regions_view_set_extra:
 * @self: a view
 * @extra: (nullable): spans shown beside the trace's activities (a
 *   Regions of Interest file's, etl_span_set_add_regions()); %NULL for none
 *
 * Recomputes the table with @extra (a reference is taken).
 */
void
etl_regions_view_set_extra (EtlRegionsView *self, EtlSpanSet *extra)
{
  g_return_if_fail (ETL_IS_REGIONS_VIEW (self));
  g_clear_pointer (&self->extra, etl_span_set_unref);
  self->extra = extra != NULL ? etl_span_set_ref (extra) : NULL;
  schedule_stats (self);
}

/**
 * etl_regions_view_set_range:
 * @self: a view
 * @begin: FILETIME; only intervals that begin in [@begin, @end) count
 * @end: FILETIME, exclusive; @end ≤ @begin counts them all
 *
 * Follows the range selected in the timeline.
 */
void
etl_regions_view_set_range (EtlRegionsView *self, gint64 begin, gint64 end)
{
  g_return_if_fail (ETL_IS_REGIONS_VIEW (self));
  if (end <= begin)
    begin = end = 0;
  if (begin == self->begin && end == self->end)
    return;
  self->begin = begin;
  self->end = end;
  if (self->trace != NULL)
    schedule_stats (self);
}

/**
 * etl_regions_view_get_spans:
 * @self: a view
 *
 * Returns: (transfer none) (nullable): the spans the table shows
 */
EtlSpanSet *
etl_regions_view_get_spans (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), NULL);
  return self->spans;
}

/**
 * etl_regions_view_select_name:
 * @self: a view
 * @name: a name of the names table
 * @source: (nullable): its Source (the lane), %NULL for the first row of
 *   @name
 *
 * Selects @name's row (its instances and histogram are then computed).
 *
 * Returns: whether the table has @name
 */
gboolean
etl_regions_view_select_name (EtlRegionsView *self, const char *name, const char *source)
{
  GtkTreeModel *model;
  GtkTreeIter iter;

  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), FALSE);
  model = gtk_tree_view_get_model (self->names_view);
  if (model == NULL || !gtk_tree_model_get_iter_first (model, &iter))
    return FALSE;
  do
    {
      g_autofree char *text = NULL;
      g_autofree char *lane = NULL;

      gtk_tree_model_get (model, &iter, ETL_REGIONS_VIEW_NAME_COLUMN_NAME, &text, ETL_REGIONS_VIEW_NAME_COLUMN_SOURCE,
                          &lane, -1);
      if (g_strcmp0 (text, name) == 0 && (source == NULL || g_strcmp0 (lane, source) == 0))
        {
          GtkTreeSelection *sel = gtk_tree_view_get_selection (self->names_view);
          g_autoptr (GtkTreePath) path = gtk_tree_model_get_path (model, &iter);

          /* Selected again after a recomputation: compute it anew. */
          self->has_name = FALSE;
          gtk_tree_selection_unselect_all (sel);
          gtk_tree_selection_select_iter (sel, &iter);
          gtk_tree_view_scroll_to_cell (self->names_view, path, NULL, FALSE, 0, 0);
          return TRUE;
        }
    }
  while (gtk_tree_model_iter_next (model, &iter));
  return FALSE;
}

/**
 * etl_regions_view_get_selected:
 * @self: a view
 * @n_spans: (out): their number
 *
 * The selected instances: those of the selected name in the selected
 * histogram buckets (all of the name's when none is selected), as the
 * flame graph and "Summary of these" take them.
 *
 * Returns: (transfer none) (array length=n_spans) (nullable): their
 *   indices in etl_regions_view_get_spans(), %NULL when no name is selected
 */
const guint32 *
etl_regions_view_get_selected (EtlRegionsView *self, guint *n_spans)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self) && n_spans != NULL, NULL);
  *n_spans = self->selected != NULL ? self->selected->len : 0;
  return self->selected != NULL ? (const guint32 *) (gpointer) self->selected->data : NULL;
}

/**
 * etl_regions_view_is_busy:
 * @self: a view
 *
 * Returns: whether a computation runs or rows are still being added
 */
gboolean
etl_regions_view_is_busy (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), FALSE);
  return self->stats_idle != 0 || self->stats_cancel != NULL || self->inst_cancel != NULL
         || self->flame_cancel != NULL || self->summary_cancel != NULL || self->fill_id != 0;
}

/**
 * etl_regions_view_get_longest_step:
 * @self: a view
 *
 * Returns: the longest time one of the view's main-loop steps (a table
 *   filled, a piece of rows added) took so far, µs
 */
gint64
etl_regions_view_get_longest_step (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), 0);
  return self->longest_step;
}

/**
 * etl_regions_view_get_message:
 * @self: a view
 *
 * Returns: (transfer none): the status line ("N names · M intervals")
 */
const char *
etl_regions_view_get_message (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), "");
  return self->message != NULL ? self->message : "";
}

/**
 * etl_regions_view_get_names_view:
 * @self: a view
 *
 * Returns: (transfer none): the names table
 */
GtkTreeView *
etl_regions_view_get_names_view (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), NULL);
  return self->names_view;
}

/**
 * etl_regions_view_get_instances_view:
 * @self: a view
 *
 * Returns: (transfer none): the instances table; its model is replaced by
 *   a new #GtkListStore for each new selection (take it from the view each
 *   time)
 */
GtkTreeView *
etl_regions_view_get_instances_view (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), NULL);
  return self->instances_view;
}

/**
 * etl_regions_view_get_histogram:
 * @self: a view
 *
 * Returns: (transfer none): the duration histogram
 */
EtlDurationHistogram *
etl_regions_view_get_histogram (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), NULL);
  return self->histogram;
}

/**
 * etl_regions_view_get_flame_graph:
 * @self: a view
 *
 * Returns: (transfer none): the flame graph of the selected instances
 */
EtlFlameGraph *
etl_regions_view_get_flame_graph (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), NULL);
  return self->flame;
}

/**
 * etl_regions_view_get_summary_button:
 * @self: a view
 *
 * Returns: (transfer none): the "Summary of these" button
 */
GtkButton *
etl_regions_view_get_summary_button (EtlRegionsView *self)
{
  g_return_val_if_fail (ETL_IS_REGIONS_VIEW (self), NULL);
  return self->summary_button;
}
