/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-activities.h"
#include "etl-builtin-spans.h"
#include "etl-interval-stats.h"
#include "etl-regions-file.h"
#include "etl-regions.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/* "None" values of #EtlSpan's index fields. */
#define ETL_SPAN_NONE      G_MAXUINT32
#define ETL_SPAN_NO_RECORD G_MAXUINT64

/**
 * EtlSpanFlags:
 * @ETL_SPAN_OPEN: no end was seen: the span lasts to the trace's last
 *   record and has no measured duration
 * @ETL_SPAN_CONTAINER: a region instance made of the regions nested in it
 *   (no record of its own)
 *
 * What is known of a span.
 */
typedef enum
{
  ETL_SPAN_OPEN = 1 << 0,
  ETL_SPAN_CONTAINER = 1 << 1,
} EtlSpanFlags;

/**
 * EtlSpanKind:
 * @ETL_SPAN_KIND_ACTIVITY: a Start/Stop activity (etl-activities.h)
 * @ETL_SPAN_KIND_REGION: a Regions of Interest instance (etl-regions.h)
 * @ETL_SPAN_KIND_BUILTIN: an interval the kernel or the runtime describes
 *   (GC, disk I/O, …), added by its own constructor
 *
 * Where a span comes from.
 */
typedef enum
{
  ETL_SPAN_KIND_ACTIVITY,
  ETL_SPAN_KIND_REGION,
  ETL_SPAN_KIND_BUILTIN,
} EtlSpanKind;

/**
 * EtlSpan:
 * @start: FILETIME of the beginning
 * @stop: FILETIME of the end (of the trace's last record when open);
 *   @stop ≥ @start
 * @start_record: the record that begins it (its index in the trace), or
 *   %ETL_SPAN_NO_RECORD
 * @pid: ProcessId of the beginning (0 when none)
 * @tid: ThreadId of the beginning (0 when none)
 * @parent: index of the enclosing span in the same set, %ETL_SPAN_NONE at
 *   the top
 * @depth: 0 at the top, the parent's depth + 1 below it
 * @name: its name (etl_span_set_get_string()); spans of one name and one
 *   @lane make one row of etl_span_set_compute_stats()
 * @label: what is written on it (etl_span_set_get_string()): the same as
 *   @name for an activity, the instance's own name (its Naming) for a
 *   region instance, whose @name is the region's
 * @lane: the lane it is drawn in when lanes are by source
 *   (etl_span_set_get_string()): the provider's name for an activity,
 *   "Regions: FILE" for a region instance, the kind for a built-in one
 * @kind: #EtlSpanKind
 * @flags: #EtlSpanFlags
 *
 * One interval of a #EtlSpanSet: what the Regions view and the timeline's
 * Regions area show, whichever analysis found it.
 */
typedef struct
{
  gint64 start;
  gint64 stop;
  guint64 start_record;
  guint32 pid;
  guint32 tid;
  guint32 parent;
  guint32 depth;
  guint32 name;
  guint32 label;
  guint32 lane;
  guint16 kind;
  guint16 flags;
} EtlSpan;

/**
 * EtlSpanStop:
 * @time: FILETIME of the Stop
 * @record: its record (index in the trace)
 * @pid: its ProcessId
 * @tid: its ThreadId
 * @name: its name (the task name), a string of the set
 * @lane: its provider's lane, a string of the set
 *
 * An end without a beginning: a Stop no Start paired with.
 */
typedef struct
{
  gint64 time;
  guint64 record;
  guint32 pid;
  guint32 tid;
  guint32 name;
  guint32 lane;
} EtlSpanStop;

/**
 * EtlSpanNameStats:
 * @name: the name (etl_span_set_get_string())
 * @lane: the lane of its spans (etl_span_set_get_string()): one name in
 *   two lanes (an activity and a region both called "Target") is two rows
 * @stats: the statistics of its spans (#EtlIntervalStats: open spans are
 *   counted in @count and @open, not in the durations)
 *
 * One row of etl_span_set_compute_stats().
 */
typedef struct
{
  guint32 name;
  guint32 lane;
  EtlIntervalStats stats;
} EtlSpanNameStats;

/* etl_span_histogram_compute(): buckets at most. */
#define ETL_SPAN_HISTOGRAM_MAX_BUCKETS 256

/**
 * EtlSpanHistogram:
 * @n_buckets: buckets in @counts (1 … %ETL_SPAN_HISTOGRAM_MAX_BUCKETS)
 * @lo: the shortest measured duration, 100-ns units
 * @hi: the longest, 100-ns units
 * @log_scale: buckets are of equal width in log(duration + 1) (else in
 *   duration)
 * @counts: spans per bucket
 * @max_count: the largest of @counts
 * @edges: where each bucket begins: bucket b holds the durations d with
 *   @edges[b] ≤ d < @edges[b + 1] (the first and the last bucket also
 *   those below and above); @edges[@n_buckets] is @hi + 1
 *
 * A duration histogram (etl_span_histogram_compute()); a duration's bucket
 * is etl_span_histogram_bucket_of().
 */
typedef struct
{
  guint n_buckets;
  gint64 lo;
  gint64 hi;
  gboolean log_scale;
  guint64 counts[ETL_SPAN_HISTOGRAM_MAX_BUCKETS];
  guint64 max_count;
  gint64 edges[ETL_SPAN_HISTOGRAM_MAX_BUCKETS + 1];
} EtlSpanHistogram;

typedef struct _EtlSpanSet EtlSpanSet;

EtlSpanSet *etl_span_set_new (void);
EtlSpanSet *etl_span_set_ref (EtlSpanSet *set);
void etl_span_set_unref (EtlSpanSet *set);
guint32 etl_span_set_intern (EtlSpanSet *set, const char *string);
guint32 etl_span_set_add (EtlSpanSet *set, const EtlSpan *span);
void etl_span_set_add_activities (EtlSpanSet *set, EtlTrace *trace, EtlActivities *activities);
void etl_span_set_add_regions (EtlSpanSet *set, EtlRegions *regions, const EtlRegionsFile *file,
                               const char *file_name);
void etl_span_set_add_builtin (EtlSpanSet *set, EtlBuiltinSpans *spans, guint kinds);
void etl_span_set_add_set (EtlSpanSet *set, EtlSpanSet *other);
const EtlSpan *etl_span_set_get (EtlSpanSet *set, guint *n_spans);
const EtlSpanStop *etl_span_set_get_unmatched_stops (EtlSpanSet *set, guint *n_stops);
const char *etl_span_set_get_string (EtlSpanSet *set, guint32 string);
guint etl_span_set_get_n_strings (EtlSpanSet *set);
guint etl_span_set_get_max_depth (EtlSpanSet *set);
GArray *etl_span_set_compute_stats (EtlSpanSet *set, gint64 begin, gint64 end);
EtlSpanSet *etl_span_set_get_activities_shared (EtlTrace *trace, GCancellable *cancellable, GError **error);

void etl_span_histogram_compute (EtlSpanHistogram *histogram, const gint64 *durations, gsize n_durations,
                                 guint n_buckets);
guint etl_span_histogram_bucket_of (const EtlSpanHistogram *histogram, gint64 duration);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSpanSet, etl_span_set_unref)

G_END_DECLS
