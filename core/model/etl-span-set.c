/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-span-set
 * @title: Span sets
 * @short_description: one flat table of intervals for the Regions view and the timeline
 *
 * Start/Stop activities (etl-activities.h), Regions of Interest instances
 * (etl-regions.h) and the built-in intervals each come from an analysis of
 * their own, with their own record.  What the views need of them is the
 * same: begin, end, the record that began it, process, thread, nesting, a
 * name to group by and a lane to draw in.  An #EtlSpanSet holds that flat
 * (#EtlSpan, 56 bytes) with one string table; a constructor per source
 * appends to it (etl_span_set_add_activities(), etl_span_set_add_regions(),
 * etl_span_set_add_set()), keeping the parent links inside the set.
 *
 * etl_span_set_compute_stats() gives the Regions view's rows (WPA's Regions
 * of Interest columns Count, Duration Sum/Mean/Median/P90/P99/Max; PerfView's
 * StartStop view) and etl_span_histogram_compute() the duration histogram
 * of one name: both O(n) passes plus a radix sort, ~30 ms for 1 M spans.
 * A set is read-only once built and may then be shared between threads.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-span-set.h"

#include <math.h>
#include <string.h>

#include "etl-names.h"
#include "etl-record.h"
#include "etl-span-payloads.h"

struct _EtlSpanSet
{
  gatomicrefcount ref;
  GArray *spans;           /* EtlSpan */
  GPtrArray *strings;      /* char *, owned */
  GHashTable *string_index; /* char * (in @strings) → index + 1 */
  GArray *stops;           /* EtlSpanStop: ends without a beginning */
  guint max_depth;
};

/**
 * etl_span_set_new:
 *
 * Returns: (transfer full): an empty set; string 0 is ""
 */
EtlSpanSet *
etl_span_set_new (void)
{
  EtlSpanSet *set = g_new0 (EtlSpanSet, 1);

  g_atomic_ref_count_init (&set->ref);
  set->spans = g_array_new (FALSE, FALSE, sizeof (EtlSpan));
  set->stops = g_array_new (FALSE, FALSE, sizeof (EtlSpanStop));
  set->strings = g_ptr_array_new_with_free_func (g_free);
  set->string_index = g_hash_table_new (g_str_hash, g_str_equal);
  etl_span_set_intern (set, "");
  return set;
}

/**
 * etl_span_set_ref:
 * @set: a set
 *
 * Returns: (transfer full): @set
 */
EtlSpanSet *
etl_span_set_ref (EtlSpanSet *set)
{
  g_return_val_if_fail (set != NULL, NULL);
  g_atomic_ref_count_inc (&set->ref);
  return set;
}

/**
 * etl_span_set_unref:
 * @set: (transfer full) (nullable): a set
 *
 * Drops a reference; the last frees the set.
 */
void
etl_span_set_unref (EtlSpanSet *set)
{
  if (set == NULL || !g_atomic_ref_count_dec (&set->ref))
    return;
  g_array_unref (set->spans);
  g_array_unref (set->stops);
  g_hash_table_unref (set->string_index);
  g_ptr_array_unref (set->strings);
  g_free (set);
}

/**
 * etl_span_set_intern:
 * @set: a set being built
 * @string: (nullable): a UTF-8 string (%NULL is "")
 *
 * Returns: the index of @string in the set's string table, added when new
 */
guint32
etl_span_set_intern (EtlSpanSet *set, const char *string)
{
  gpointer found;
  char *copy;

  g_return_val_if_fail (set != NULL, 0);
  if (string == NULL)
    string = "";
  found = g_hash_table_lookup (set->string_index, string);
  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  copy = g_strdup (string);
  g_ptr_array_add (set->strings, copy);
  g_hash_table_insert (set->string_index, copy, GUINT_TO_POINTER (set->strings->len));
  return set->strings->len - 1;
}

/**
 * etl_span_set_add:
 * @set: a set being built
 * @span: the span; its @parent an index already in @set (or
 *   %ETL_SPAN_NONE), its @name and @lane from etl_span_set_intern()
 *
 * Returns: the span's index
 */
guint32
etl_span_set_add (EtlSpanSet *set, const EtlSpan *span)
{
  g_return_val_if_fail (set != NULL && span != NULL, ETL_SPAN_NONE);
  g_return_val_if_fail (set->spans->len < G_MAXUINT32 - 1, ETL_SPAN_NONE);
  g_array_append_val (set->spans, *span);
  set->max_depth = MAX (set->max_depth, span->depth);
  return set->spans->len - 1;
}

/* The lane of @provider's activities: its name as
 * etl_record_dup_provider_name() gives it for @record (the provider's first
 * Start, or Stop when it has no Start), remembered in @lanes. */
static guint32
provider_lane (EtlSpanSet *set, EtlTrace *trace, GHashTable *lanes, guint16 provider, guint64 record)
{
  gpointer lane;

  if (!g_hash_table_lookup_extended (lanes, GUINT_TO_POINTER (provider), NULL, &lane))
    {
      g_auto (EtlRecord) rec = { 0 };
      g_autofree char *name = NULL;

      if (etl_trace_get_record (trace, record, &rec, NULL))
        name = etl_record_dup_provider_name (&rec);
      lane = GUINT_TO_POINTER (etl_span_set_intern (set, name != NULL ? name : "Activities"));
      g_hash_table_insert (lanes, GUINT_TO_POINTER (provider), lane);
    }
  return GPOINTER_TO_UINT (lane);
}

/**
 * etl_span_set_add_activities:
 * @set: a set being built
 * @trace: the trace @activities come from (its records name the providers)
 * @activities: the trace's Start/Stop activities
 *
 * Appends one span per activity, named as the activity (task name and
 * first string field), in the lane of its provider (the name
 * etl_record_dup_provider_name() gives the provider's first Start), and
 * the unmatched Stops (etl_activities_get_unmatched_stops(); named by
 * their task name, as etl_activities_compute_stats() counts them) to
 * etl_span_set_get_unmatched_stops().
 */
void
etl_span_set_add_activities (EtlSpanSet *set, EtlTrace *trace, EtlActivities *activities)
{
  g_autoptr (GHashTable) lanes = g_hash_table_new (g_direct_hash, g_direct_equal);
  guint n = 0, n_stops = 0, base;
  const EtlActivity *a;
  const EtlActivityStop *stops;

  g_return_if_fail (set != NULL && trace != NULL && activities != NULL);
  a = etl_activities_get (activities, &n);
  base = set->spans->len;
  g_array_set_size (set->spans, base + n);
  for (guint i = 0; i < n; i++)
    {
      EtlSpan *s = &g_array_index (set->spans, EtlSpan, base + i);
      guint32 lane = provider_lane (set, trace, lanes, a[i].provider, a[i].start_record);

      s->start = a[i].start;
      s->stop = a[i].stop;
      s->start_record = a[i].start_record;
      s->pid = a[i].pid;
      s->tid = a[i].tid;
      s->parent = a[i].parent == ETL_ACTIVITY_NONE ? ETL_SPAN_NONE : base + a[i].parent;
      s->depth = a[i].depth;
      s->name = etl_span_set_intern (set, etl_activities_get_string (activities, a[i].name));
      s->label = s->name;
      s->lane = lane;
      s->kind = ETL_SPAN_KIND_ACTIVITY;
      s->flags = (a[i].flags & ETL_ACTIVITY_OPEN) ? ETL_SPAN_OPEN : 0;
      set->max_depth = MAX (set->max_depth, s->depth);
    }
  stops = etl_activities_get_unmatched_stops (activities, &n_stops);
  for (guint i = 0; i < n_stops; i++)
    {
      EtlSpanStop stop;

      stop.time = stops[i].time;
      stop.record = stops[i].record;
      stop.pid = stops[i].pid;
      stop.tid = stops[i].tid;
      stop.lane = provider_lane (set, trace, lanes, stops[i].provider, stops[i].record);
      stop.name = etl_span_set_intern (set, etl_activities_get_string (activities, stops[i].name));
      g_array_append_val (set->stops, stop);
    }
}

/**
 * etl_span_set_add_regions:
 * @set: a set being built
 * @regions: the instances etl_regions_match() found
 * @file: the Regions of Interest file they were matched with
 * @file_name: (nullable): its name as shown (the lane is "Regions: NAME")
 *
 * Appends one span per region instance, named after its region
 * (FriendlyName, else Name: the rows of WPA's Regions of Interest table)
 * and labelled with the instance's own name (its Naming), in one lane per
 * file.
 */
void
etl_span_set_add_regions (EtlSpanSet *set, EtlRegions *regions, const EtlRegionsFile *file,
                          const char *file_name)
{
  g_autofree char *lane_name = g_strdup_printf ("Regions: %s", file_name != NULL ? file_name : "file");
  guint n = 0, base;
  guint32 lane;
  const EtlRegionInstance *r;

  g_return_if_fail (set != NULL && regions != NULL && file != NULL);
  r = etl_regions_get_instances (regions, &n);
  lane = etl_span_set_intern (set, lane_name);
  base = set->spans->len;
  g_array_set_size (set->spans, base + n);
  for (guint i = 0; i < n; i++)
    {
      EtlSpan *s = &g_array_index (set->spans, EtlSpan, base + i);

      s->start = r[i].start;
      s->stop = r[i].stop;
      s->start_record = r[i].start_record;
      s->pid = r[i].pid;
      s->tid = r[i].tid;
      s->parent = r[i].parent == ETL_REGION_INSTANCE_NONE ? ETL_SPAN_NONE : base + r[i].parent;
      s->depth = r[i].depth;
      s->name = etl_span_set_intern (
          set, etl_region_def_display_name (&g_array_index (file->regions, EtlRegionDef, r[i].region)));
      s->label = etl_span_set_intern (set, etl_regions_get_string (regions, r[i].name));
      s->lane = lane;
      s->kind = ETL_SPAN_KIND_REGION;
      s->flags = ((r[i].flags & ETL_REGION_INSTANCE_OPEN) ? ETL_SPAN_OPEN : 0)
                 | ((r[i].flags & ETL_REGION_INSTANCE_CONTAINER) ? ETL_SPAN_CONTAINER : 0);
      set->max_depth = MAX (set->max_depth, s->depth);
    }
}

/**
 * etl_span_set_add_set:
 * @set: a set being built
 * @other: another set (not @set)
 *
 * Appends @other's spans, their strings re-interned and their parents
 * moved to the new indices.
 */
void
etl_span_set_add_set (EtlSpanSet *set, EtlSpanSet *other)
{
  g_autofree guint32 *map = NULL;
  guint base;

  g_return_if_fail (set != NULL && other != NULL && set != other);
  map = g_new (guint32, other->strings->len);
  for (guint k = 0; k < other->strings->len; k++)
    map[k] = etl_span_set_intern (set, g_ptr_array_index (other->strings, k));
  base = set->spans->len;
  for (guint i = 0; i < other->spans->len; i++)
    {
      EtlSpan s = g_array_index (other->spans, EtlSpan, i);

      s.name = map[s.name];
      s.label = map[s.label];
      s.lane = map[s.lane];
      if (s.parent != ETL_SPAN_NONE)
        s.parent += base;
      etl_span_set_add (set, &s);
    }
  for (guint i = 0; i < other->stops->len; i++)
    {
      EtlSpanStop stop = g_array_index (other->stops, EtlSpanStop, i);

      stop.name = map[stop.name];
      stop.lane = map[stop.lane];
      g_array_append_val (set->stops, stop);
    }
}

/**
 * etl_span_set_get_unmatched_stops:
 * @set: a set
 * @n_stops: (out): their number
 *
 * The ends that began no span: the activities' Stops without a Start
 * (etl_span_set_add_activities()), as `etlscope-cli regions` lists them in
 * `unmatched_stops`.
 *
 * Returns: (transfer none) (array length=n_stops): the Stops, in the order
 *   they were added (each source's in record order)
 */
const EtlSpanStop *
etl_span_set_get_unmatched_stops (EtlSpanSet *set, guint *n_stops)
{
  g_return_val_if_fail (set != NULL && n_stops != NULL, NULL);
  *n_stops = set->stops->len;
  return (const EtlSpanStop *) (gpointer) set->stops->data;
}

/**
 * etl_span_set_get:
 * @set: a set
 * @n_spans: (out): the number of spans
 *
 * Returns: (transfer none) (array length=n_spans): the spans, in the order
 *   they were added (each source's in the order of its beginnings)
 */
const EtlSpan *
etl_span_set_get (EtlSpanSet *set, guint *n_spans)
{
  g_return_val_if_fail (set != NULL && n_spans != NULL, NULL);
  *n_spans = set->spans->len;
  return (const EtlSpan *) (gpointer) set->spans->data;
}

/**
 * etl_span_set_get_string:
 * @set: a set
 * @string: a string index (#EtlSpan @name or @lane)
 *
 * Returns: (transfer none): the string, "" for an index out of range
 */
const char *
etl_span_set_get_string (EtlSpanSet *set, guint32 string)
{
  g_return_val_if_fail (set != NULL, "");
  return string < set->strings->len ? g_ptr_array_index (set->strings, string) : "";
}

/**
 * etl_span_set_get_n_strings:
 * @set: a set
 *
 * Returns: the size of the string table (string indices are below it)
 */
guint
etl_span_set_get_n_strings (EtlSpanSet *set)
{
  g_return_val_if_fail (set != NULL, 0);
  return set->strings->len;
}

/**
 * etl_span_set_get_max_depth:
 * @set: a set
 *
 * Returns: the largest #EtlSpan @depth (0 when empty)
 */
guint
etl_span_set_get_max_depth (EtlSpanSet *set)
{
  g_return_val_if_fail (set != NULL, 0);
  return set->max_depth;
}

static gboolean
in_range (const EtlSpan *s, gint64 begin, gint64 end)
{
  return begin >= end || (s->start >= begin && s->start < end);
}

/* (name, lane) pairs get dense group ids from a table of n_strings × lanes
 * cells up to this many, else from a hash table. */
#define MAX_DENSE_CELLS (1u << 22)

/**
 * etl_span_set_compute_stats:
 * @set: a set
 * @begin: FILETIME; with @end, only spans that begin in [@begin, @end)
 *   count; @begin ≥ @end counts every span
 * @end: FILETIME, exclusive
 *
 * The statistics of each name in each lane (#EtlIntervalStats): spans are
 * grouped by (name, lane) with a counting pass (a table indexed by name
 * and lane, or a hash table when there are very many of both), and each
 * group's measured durations (open spans have none) sorted once (a radix
 * sort).  O(spans + strings × lanes).
 *
 * Returns: (transfer full) (element-type EtlSpanNameStats): one row per
 *   name and lane that has spans, in the order of their first span
 */
GArray *
etl_span_set_compute_stats (EtlSpanSet *set, gint64 begin, gint64 end)
{
  g_autofree guint32 *lane_rank = NULL;
  g_autofree guint32 *cell_group = NULL;
  g_autofree guint32 *group = NULL;
  g_autofree gsize *offset = NULL;
  g_autofree gsize *fill = NULL;
  g_autofree guint64 *open = NULL;
  g_autofree gint64 *durations = NULL;
  g_autoptr (GHashTable) pairs = NULL;
  g_autoptr (GArray) keys = g_array_new (FALSE, FALSE, sizeof (guint64)); /* group → name << 32 | lane */
  const EtlSpan *s;
  guint n = 0, n_strings, n_lanes = 0, n_groups;
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (EtlSpanNameStats));

  g_return_val_if_fail (set != NULL, rows);
  s = etl_span_set_get (set, &n);
  n_strings = set->strings->len;
  lane_rank = g_new (guint32, n_strings);
  memset (lane_rank, 0xff, n_strings * sizeof (guint32));
  for (guint i = 0; i < n; i++)
    if (lane_rank[s[i].lane] == ETL_SPAN_NONE)
      lane_rank[s[i].lane] = n_lanes++;
  if ((guint64) n_strings * MAX (n_lanes, 1) <= MAX_DENSE_CELLS)
    {
      cell_group = g_new (guint32, (gsize) n_strings * MAX (n_lanes, 1));
      memset (cell_group, 0xff, (gsize) n_strings * MAX (n_lanes, 1) * sizeof (guint32));
    }
  else
    pairs = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  group = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      guint64 key;
      guint32 g;

      if (!in_range (&s[i], begin, end))
        continue;
      key = ((guint64) s[i].name << 32) | s[i].lane;
      if (cell_group != NULL)
        {
          guint32 *cell = &cell_group[(gsize) lane_rank[s[i].lane] * n_strings + s[i].name];

          if (*cell == ETL_SPAN_NONE)
            {
              *cell = keys->len;
              g_array_append_val (keys, key);
            }
          g = *cell;
        }
      else
        {
          gpointer found = g_hash_table_lookup (pairs, &key);

          if (found == NULL)
            {
              g_array_append_val (keys, key);
              found = GUINT_TO_POINTER (keys->len);
              g_hash_table_insert (pairs, g_memdup2 (&key, sizeof key), found);
            }
          g = GPOINTER_TO_UINT (found) - 1;
        }
      group[i] = g;
    }
  n_groups = keys->len;
  offset = g_new0 (gsize, n_groups + 1);
  open = g_new0 (guint64, MAX (n_groups, 1));
  for (guint i = 0; i < n; i++)
    {
      if (!in_range (&s[i], begin, end))
        continue;
      if (s[i].flags & ETL_SPAN_OPEN)
        open[group[i]]++;
      else
        offset[group[i] + 1]++;
    }
  for (guint k = 0; k < n_groups; k++)
    offset[k + 1] += offset[k];
  durations = g_new (gint64, MAX (offset[n_groups], 1));
  fill = g_memdup2 (offset, (n_groups + 1) * sizeof (gsize));
  for (guint i = 0; i < n; i++)
    if (in_range (&s[i], begin, end) && (s[i].flags & ETL_SPAN_OPEN) == 0)
      durations[fill[group[i]]++] = s[i].stop - s[i].start;
  for (guint k = 0; k < n_groups; k++)
    {
      EtlSpanNameStats row = { 0 };
      guint64 key = g_array_index (keys, guint64, k);

      row.name = (guint32) (key >> 32);
      row.lane = (guint32) key;
      etl_interval_stats_compute (durations + offset[k], offset[k + 1] - offset[k], &row.stats);
      row.stats.count += open[k];
      row.stats.open = open[k];
      g_array_append_val (rows, row);
    }
  return rows;
}

/**
 * etl_span_histogram_bucket_of:
 * @histogram: a histogram from etl_span_histogram_compute()
 * @duration: a duration, 100-ns units
 *
 * The bucket a duration falls in (a binary search of @edges): the one rule
 * both the counting and the Regions view's selection of "the spans in
 * these buckets" use, so that the two agree exactly.  Durations outside
 * [@lo, @hi] go to the first or the last bucket.
 *
 * Returns: the bucket, below @n_buckets
 */
guint
etl_span_histogram_bucket_of (const EtlSpanHistogram *histogram, gint64 duration)
{
  guint lo = 1, hi;

  g_return_val_if_fail (histogram != NULL && histogram->n_buckets > 0, 0);
  /* The last bucket whose edge is ≤ @duration (binary search). */
  hi = histogram->n_buckets;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (histogram->edges[mid] <= duration)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo - 1;
}

/**
 * etl_span_histogram_compute:
 * @histogram: (out caller-allocates): the histogram
 * @durations: (array length=n_durations): measured durations, 100-ns units
 * @n_durations: their number
 * @n_buckets: buckets wanted (clamped to 1 … %ETL_SPAN_HISTOGRAM_MAX_BUCKETS)
 *
 * Counts @durations in buckets between the shortest and the longest.
 * Durations spread over more than two decades get buckets of equal width
 * in log(duration + 1) (a slow tail stays visible beside the bulk, as in
 * Tracy's zone histogram); else the buckets are of equal width.
 */
void
etl_span_histogram_compute (EtlSpanHistogram *histogram, const gint64 *durations, gsize n_durations,
                            guint n_buckets)
{
  gint64 lo = G_MAXINT64, hi = 0;

  g_return_if_fail (histogram != NULL);
  g_return_if_fail (durations != NULL || n_durations == 0);
  memset (histogram, 0, sizeof *histogram);
  histogram->n_buckets = CLAMP (n_buckets, 1, ETL_SPAN_HISTOGRAM_MAX_BUCKETS);
  for (gsize i = 0; i < n_durations; i++)
    {
      gint64 d = MAX (durations[i], 0);

      lo = MIN (lo, d);
      hi = MAX (hi, d);
    }
  if (n_durations == 0)
    lo = 0;
  histogram->lo = lo;
  histogram->hi = hi;
  histogram->log_scale = (double) hi > 100.0 * ((double) lo + 1.0);
  /* Edges: equal steps in log(d + 1) or in d, rounded up, never falling. */
  histogram->edges[0] = G_MININT64;
  for (guint b = 1; b < histogram->n_buckets; b++)
    {
      double f = (double) b / histogram->n_buckets;
      gint64 e;

      if (histogram->log_scale)
        e = (gint64) ceil (expm1 (log1p ((double) lo) + f * (log1p ((double) hi) - log1p ((double) lo))));
      else
        e = lo + (gint64) ceil (f * (double) (hi - lo));
      histogram->edges[b] = MAX (e, histogram->edges[b - 1]);
    }
  histogram->edges[histogram->n_buckets] = hi + 1;
  for (gsize i = 0; i < n_durations; i++)
    histogram->counts[etl_span_histogram_bucket_of (histogram, MAX (durations[i], 0))]++;
  for (guint b = 0; b < histogram->n_buckets; b++)
    histogram->max_count = MAX (histogram->max_count, histogram->counts[b]);
}

/**
 * etl_span_set_add_builtin:
 * @set: a set being built
 * @spans: intervals the kernel or the runtime describe (etl_builtin_spans_new())
 * @kinds: which of them: bit (1 << #EtlBuiltinKind) for each kind
 *
 * Appends the spans of @kinds, named as @spans names them ("GC gen 0",
 * "Read", the image name…), in a lane per subject: ".NET GC" (collections
 * and their pauses, so a blocking GC is drawn inside its pause), "Disk
 * I/O", "File I/O", "Processes", "Threads".  A span whose parent is of a
 * kind left out is put at the top.
 */
void
etl_span_set_add_builtin (EtlSpanSet *set, EtlBuiltinSpans *spans, guint kinds)
{
  static const char *const lanes[ETL_N_BUILTIN_KINDS] = {
    [ETL_BUILTIN_GC] = ".NET GC",         [ETL_BUILTIN_GC_PAUSE] = ".NET GC", [ETL_BUILTIN_DISK_IO] = "Disk I/O",
    [ETL_BUILTIN_FILE_IO] = "File I/O",   [ETL_BUILTIN_PROCESS] = "Processes", [ETL_BUILTIN_THREAD] = "Threads",
  };
  guint n = 0;
  const EtlBuiltinSpan *b;
  g_autofree guint32 *index = NULL; /* builtin index → set index, or ETL_SPAN_NONE */

  g_return_if_fail (set != NULL && spans != NULL);
  b = etl_builtin_spans_get (spans, &n);
  index = g_new (guint32, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      EtlSpan span = { 0 };
      guint32 parent = b[i].parent != ETL_BUILTIN_NONE && b[i].parent < i ? index[b[i].parent] : ETL_SPAN_NONE;

      index[i] = ETL_SPAN_NONE;
      if (b[i].kind >= ETL_N_BUILTIN_KINDS || !(kinds & (1u << b[i].kind)))
        continue;
      span.start = b[i].start;
      span.stop = b[i].stop;
      span.start_record = b[i].start_record == ETL_BUILTIN_NO_RECORD ? ETL_SPAN_NO_RECORD : b[i].start_record;
      span.pid = b[i].pid == ETL_BUILTIN_UNKNOWN ? 0 : b[i].pid;
      span.tid = b[i].tid == ETL_BUILTIN_UNKNOWN ? 0 : b[i].tid;
      span.parent = parent;
      span.depth = parent != ETL_SPAN_NONE ? g_array_index (set->spans, EtlSpan, parent).depth + 1 : 0;
      span.name = etl_span_set_intern (set, etl_builtin_spans_get_string (spans, b[i].name));
      span.label = span.name;
      span.lane = etl_span_set_intern (set, lanes[b[i].kind]);
      span.kind = ETL_SPAN_KIND_BUILTIN;
      span.flags = (b[i].flags & ETL_BUILTIN_OPEN) ? ETL_SPAN_OPEN : 0;
      index[i] = etl_span_set_add (set, &span);
    }
}

/* The spans the views show without a Regions file: the Start/Stop
 * activities and the built-in intervals but the processes' and threads'
 * lifetimes (the timeline's process and thread lanes show those, and a
 * lane of every process would push the others out of the Regions area;
 * `etlscope-cli regions --builtin process,thread` lists them). */
#define SHARED_BUILTIN_KINDS \
  (ETL_BUILTIN_KINDS_ALL & ~(1u << ETL_BUILTIN_THREAD) & ~(1u << ETL_BUILTIN_PROCESS))

static gpointer
build_activity_spans (EtlTrace *trace, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlActivities) acts = etl_activities_new (trace, cancellable, error);
  g_autoptr (EtlBuiltinSpans) builtin = NULL;
  EtlSpanSet *set;

  if (acts == NULL)
    return NULL;
  builtin = etl_builtin_spans_new (trace, SHARED_BUILTIN_KINDS, cancellable, error);
  if (builtin == NULL)
    return NULL;
  set = etl_span_set_new ();
  etl_span_set_add_activities (set, trace, acts);
  etl_span_set_add_builtin (set, builtin, SHARED_BUILTIN_KINDS);
  return set;
}

/**
 * etl_span_set_get_activities_shared:
 * @trace: a trace
 * @cancellable: (nullable): cancels the pairing (or the wait for another
 *   request's)
 * @error: return location for a #GError
 *
 * The spans of @trace's Start/Stop activities (etl_activities_new(),
 * etl_span_set_add_activities()) and of its built-in intervals but the
 * processes' and threads' lifetimes (GCs and their pauses, disk and file
 * I/O: etl_builtin_spans_new(), etl_span_set_add_builtin()), built once per
 * trace in the first
 * asking thread and shared (etl_trace_get_derived()): the Regions view and
 * the timeline's Regions area ask from their workers.
 *
 * Returns: (transfer full) (nullable): the set, %NULL with @error set when
 *   cancelled or the pairing failed
 */
EtlSpanSet *
etl_span_set_get_activities_shared (EtlTrace *trace, GCancellable *cancellable, GError **error)
{
  static const char key[] = "etl-span-set-activities";

  g_return_val_if_fail (trace != NULL, NULL);
  return etl_trace_get_derived (trace, key, build_activity_spans, (GBoxedCopyFunc) etl_span_set_ref,
                                (GDestroyNotify) etl_span_set_unref, cancellable, error);
}
