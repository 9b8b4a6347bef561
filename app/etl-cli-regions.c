/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli regions: the Start/Stop activities of a trace (etl-activities.c)
 * and their statistics per name, as JSON.
 *
 *   etlscope-cli regions [--regions FILE.xml] [--builtin KINDS] [--name NAME] [--by-task] [--manifest FILE.man]... FILE...
 *
 * Prints one object:
 * - `regions`: one object per name (the activity's name, "Task(first
 *   string field)", or with --by-task its task name), in the order the
 *   names first occur: `name`, `count` (stopped and open instances),
 *   `total_ms`, `mean_ms`, `median_ms`, `p90_ms`, `p99_ms`, `max_ms` (over
 *   the stopped instances; see etl-interval-stats.c), `open`,
 *   `unmatched_stops`;
 * - `instances`: one object per activity in Start order: `index`, `name`,
 *   `task_name`, `start_ms` (ms from the trace's start, as `dump`'s rel_ms),
 *   `duration_ms` (to the trace's end when open), `pid`, `tid`, `depth`,
 *   `parent` (the enclosing instance's index, null at the top), `open`,
 *   `abandoned`, `activity_id` (GUID, null when zero), `activity_path`
 *   (`//1/2/5/` for EventSource IDs, else null), `provider`, `task`,
 *   `start_record`, `stop_record` (null when open);
 * - `unmatched_stops`: the Stops without a Start: `name`, `time_ms`, `pid`,
 *   `tid`, `activity_id`, `record`;
 * - `counts`: what the pairing met (EtlActivitiesCounts).
 * --name NAME keeps the regions, instances and unmatched Stops whose name
 * or task name is NAME (`--name Target` keeps every "Target(…)").
 *
 * Every region and instance has a `kind`: "activity" for the Start/Stop
 * activities.  --builtin KINDS (comma-separated: gc (with its pauses),
 * gc-pause, disk, file, process, thread, all) adds the built-in intervals
 * (etl-builtin-spans.c) after them, in the same shape: their regions per
 * kind and name (kind "gc", "gc-pause", "disk", "file", "process",
 * "thread"), their instances numbered after the activities (`parent`
 * likewise) with the detail of their kind (gc: `gc_count`, `generation`,
 * `reason`, `type`; gc-pause: `gc_count`, `reason`; disk: `disk_number`,
 * `bytes`, `offset`, `file`; file: `offset`, `bytes`, `file`, `status`;
 * process: `image`, `parent_pid`, `exit_status`; thread: `image`), `flags`
 * (the #EtlBuiltinFlags set, by name) and `pid`/`tid` null when unknown;
 * their unmatched ends in `unmatched_stops` (with `kind`), and
 * `builtin_counts` (EtlBuiltinSpansCounts, per kind where it counts per
 * kind).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>

#include "etl-activities.h"
#include "etl-builtin-spans.h"
#include "etl-cli-regions.h"
#include "etl-cli-util.h"
#include "etl-interval-stats.h"
#include "etl-regions-file.h"
#include "etl-regions.h"
#include "etl-span-payloads.h"
#include "etl-trace.h"

#define EXIT_INPUT ETL_CLI_EXIT_INPUT
#define EXIT_USAGE ETL_CLI_EXIT_USAGE

static void
add_ms (JsonBuilder *b, const char *member, double ticks)
{
  json_builder_set_member_name (b, member);
  json_builder_add_double_value (b, ticks / 10000.0);
}

static void
add_guid (JsonBuilder *b, const char *member, const EtlGuid *guid)
{
  char s[ETL_GUID_STRING_LEN + 1];

  json_builder_set_member_name (b, member);
  if (guid == NULL || etl_guid_is_zero (guid))
    {
      json_builder_add_null_value (b);
      return;
    }
  etl_guid_to_string (guid, s);
  json_builder_add_string_value (b, s);
}

static gboolean
name_matches (EtlActivities *acts, const char *want, guint32 name, guint32 task_name)
{
  return want == NULL || g_strcmp0 (etl_activities_get_string (acts, name), want) == 0
         || g_strcmp0 (etl_activities_get_string (acts, task_name), want) == 0;
}

/* One member of a count table: its JSON name and value. */
typedef struct
{
  const char *name;
  guint64 value;
} CountRow;

/* @n_rows members `name: value` in the object @b is building. */
static void
add_count_rows (JsonBuilder *b, const CountRow *rows, gsize n_rows)
{
  for (gsize k = 0; k < n_rows; k++)
    {
      json_builder_set_member_name (b, rows[k].name);
      json_builder_add_int_value (b, (gint64) rows[k].value);
    }
}

static void
add_counts (JsonBuilder *b, const EtlActivitiesCounts *c)
{
  const CountRow rows[] = {
    { "starts", c->starts },
    { "stops", c->stops },
    { "paired", c->paired },
    { "open", c->open },
    { "abandoned", c->abandoned },
    { "unmatched_stops", c->unmatched_stops },
    { "missing_parent", c->missing_parent },
    { "bad_related_id", c->bad_related_id },
    { "dropped", c->dropped },
    { "out_of_order", c->out_of_order },
    { "duplicate_starts", c->duplicate_starts },
  };

  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
  add_count_rows (b, rows, G_N_ELEMENTS (rows));
  json_builder_end_object (b);
}

static void
add_stats_members (JsonBuilder *b, const EtlIntervalStats *st)
{
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64) st->count);
  add_ms (b, "total_ms", (double) st->total);
  add_ms (b, "mean_ms", st->mean);
  add_ms (b, "median_ms", st->median);
  add_ms (b, "p90_ms", (double) st->p90);
  add_ms (b, "p99_ms", (double) st->p99);
  add_ms (b, "max_ms", (double) st->max);
  json_builder_set_member_name (b, "open");
  json_builder_add_int_value (b, (gint64) st->open);
  json_builder_set_member_name (b, "unmatched_stops");
  json_builder_add_int_value (b, (gint64) st->unmatched_stops);
}

static void
add_id_or_null (JsonBuilder *b, const char *member, guint32 id)
{
  json_builder_set_member_name (b, member);
  if (id != ETL_BUILTIN_UNKNOWN)
    json_builder_add_int_value (b, id);
  else
    json_builder_add_null_value (b);
}

static void
add_string_or_null (JsonBuilder *b, const char *member, const char *value)
{
  json_builder_set_member_name (b, member);
  if (value != NULL && value[0] != '\0')
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* The built-in spans' regions (after the activities' in `regions`). */
static void
add_builtin_regions (JsonBuilder *b, EtlBuiltinSpans *spans, const char *want)
{
  g_autoptr (GArray) stats = etl_builtin_spans_compute_stats (spans);

  for (guint r = 0; r < stats->len; r++)
    {
      const EtlBuiltinSpanStats *s = &g_array_index (stats, EtlBuiltinSpanStats, r);
      const char *name = etl_builtin_spans_get_string (spans, s->name);

      if (want != NULL && g_strcmp0 (want, name) != 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, etl_builtin_kind_name (s->kind));
      add_stats_members (b, &s->stats);
      json_builder_end_object (b);
    }
}

static void
add_span_detail (JsonBuilder *b, EtlBuiltinSpans *spans, const EtlBuiltinSpan *s)
{
  switch (s->kind)
    {
    case ETL_BUILTIN_GC:
    case ETL_BUILTIN_GC_PAUSE:
      add_id_or_null (b, "gc_count", s->detail.gc.count);
      if (s->kind == ETL_BUILTIN_GC)
        {
          add_id_or_null (b, "generation", s->detail.gc.generation);
          add_string_or_null (b, "reason", etl_gc_reason_name (s->detail.gc.reason));
          add_string_or_null (b, "type", etl_gc_type_name (s->detail.gc.type));
        }
      else
        add_string_or_null (b, "reason", etl_gc_suspend_reason_name (s->detail.gc.reason));
      break;
    case ETL_BUILTIN_DISK_IO:
      json_builder_set_member_name (b, "disk_number");
      json_builder_add_int_value (b, s->detail.disk.disk_number);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, s->detail.disk.bytes);
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, (gint64) s->detail.disk.offset);
      add_string_or_null (b, "file", etl_builtin_spans_get_string (spans, s->detail.disk.file));
      break;
    case ETL_BUILTIN_FILE_IO:
      json_builder_set_member_name (b, "offset");
      json_builder_add_int_value (b, (gint64) s->detail.file.offset);
      json_builder_set_member_name (b, "bytes");
      json_builder_add_int_value (b, s->detail.file.bytes);
      add_string_or_null (b, "file", etl_builtin_spans_get_string (spans, s->detail.file.file));
      add_id_or_null (b, "status", s->detail.file.status);
      break;
    case ETL_BUILTIN_PROCESS:
      add_string_or_null (b, "image", etl_builtin_spans_get_string (spans, s->detail.process.image));
      json_builder_set_member_name (b, "parent_pid");
      json_builder_add_int_value (b, s->detail.process.parent_pid);
      json_builder_set_member_name (b, "exit_status");
      json_builder_add_int_value (b, s->detail.process.exit_status);
      break;
    case ETL_BUILTIN_THREAD:
      add_string_or_null (b, "image", etl_builtin_spans_get_string (spans, s->detail.thread.image));
      break;
    default:
      break;
    }
}

/* The built-in spans' instances, numbered from @first. */
static void
add_builtin_instances (JsonBuilder *b, EtlTrace *trace, EtlBuiltinSpans *spans, const char *want, guint first)
{
  static const char *const flag_names[] = { "open", "abandoned", "from_elapsed", "rundown_start", "rundown_end",
                                            "truncated" };
  guint n;
  const EtlBuiltinSpan *s = etl_builtin_spans_get (spans, &n);

  for (guint i = 0; i < n; i++)
    {
      const char *name = etl_builtin_spans_get_string (spans, s[i].name);

      if (want != NULL && g_strcmp0 (want, name) != 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "index");
      json_builder_add_int_value (b, (gint64) first + i);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, etl_builtin_kind_name (s[i].kind));
      json_builder_set_member_name (b, "start_ms");
      json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, s[i].start));
      add_ms (b, "duration_ms", (double) (s[i].stop - s[i].start));
      add_id_or_null (b, "pid", s[i].pid);
      add_id_or_null (b, "tid", s[i].tid);
      json_builder_set_member_name (b, "depth");
      json_builder_add_int_value (b, s[i].depth);
      json_builder_set_member_name (b, "parent");
      if (s[i].parent != ETL_BUILTIN_NONE)
        json_builder_add_int_value (b, (gint64) first + s[i].parent);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "open");
      json_builder_add_boolean_value (b, (s[i].flags & ETL_BUILTIN_OPEN) != 0);
      json_builder_set_member_name (b, "activity_id");
      json_builder_add_null_value (b);
      json_builder_set_member_name (b, "flags");
      json_builder_begin_array (b);
      for (guint k = 0; k < G_N_ELEMENTS (flag_names); k++)
        if (s[i].flags & (1u << k))
          json_builder_add_string_value (b, flag_names[k]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "opcode");
      json_builder_add_int_value (b, s[i].op);
      json_builder_set_member_name (b, "start_record");
      json_builder_add_int_value (b, (gint64) s[i].start_record);
      json_builder_set_member_name (b, "stop_record");
      if (s[i].stop_record != ETL_BUILTIN_NO_RECORD)
        json_builder_add_int_value (b, (gint64) s[i].stop_record);
      else
        json_builder_add_null_value (b);
      add_span_detail (b, spans, &s[i]);
      json_builder_end_object (b);
    }
}

static void
add_builtin_unmatched (JsonBuilder *b, EtlTrace *trace, EtlBuiltinSpans *spans, const char *want)
{
  guint n;
  const EtlBuiltinStop *s = etl_builtin_spans_get_unmatched (spans, &n);

  for (guint i = 0; i < n; i++)
    {
      const char *name = etl_builtin_spans_get_string (spans, s[i].name);

      if (want != NULL && g_strcmp0 (want, name) != 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, etl_builtin_kind_name (s[i].kind));
      json_builder_set_member_name (b, "time_ms");
      json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, s[i].time));
      add_id_or_null (b, "pid", s[i].pid);
      add_id_or_null (b, "tid", s[i].tid);
      json_builder_set_member_name (b, "activity_id");
      json_builder_add_null_value (b);
      json_builder_set_member_name (b, "record");
      json_builder_add_int_value (b, (gint64) s[i].record);
      json_builder_end_object (b);
    }
}

static void
add_builtin_counts (JsonBuilder *b, const EtlBuiltinSpansCounts *c)
{
  const struct
  {
    const char *name;
    const guint64 *per_kind;
  } kinded[] = {
    { "begins", c->begins }, { "ends", c->ends }, { "paired", c->paired },
    { "open", c->open }, { "abandoned", c->abandoned }, { "unmatched_ends", c->unmatched_ends },
  };
  const CountRow rows[] = {
    { "records", c->records },
    { "duplicate_gc_starts", c->duplicate_gc_starts },
    { "missing", c->missing },
    { "truncated", c->truncated },
    { "dropped", c->dropped },
    { "out_of_order", c->out_of_order },
    { "unmatched_listed_dropped", c->unmatched_listed_dropped },
  };

  json_builder_set_member_name (b, "builtin_counts");
  json_builder_begin_object (b);
  add_count_rows (b, rows, G_N_ELEMENTS (rows));
  for (guint k = 0; k < G_N_ELEMENTS (kinded); k++)
    {
      json_builder_set_member_name (b, kinded[k].name);
      json_builder_begin_object (b);
      for (guint j = 0; j < ETL_N_BUILTIN_KINDS; j++)
        {
          json_builder_set_member_name (b, etl_builtin_kind_name (j));
          json_builder_add_int_value (b, (gint64) kinded[k].per_kind[j]);
        }
      json_builder_end_object (b);
    }
  json_builder_end_object (b);
}

static void
print_regions (EtlTrace *trace, EtlActivities *acts, EtlBuiltinSpans *spans, const char *want, EtlActivityGroup group)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GArray) stats = etl_activities_compute_stats (acts, group);
  guint n_acts, n_stops;
  const EtlActivity *a = etl_activities_get (acts, &n_acts);
  const EtlActivityStop *stops = etl_activities_get_unmatched_stops (acts, &n_stops);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "regions");
  json_builder_begin_array (b);
  for (guint r = 0; r < stats->len; r++)
    {
      const EtlActivityNameStats *s = &g_array_index (stats, EtlActivityNameStats, r);

      if (!name_matches (acts, want, s->name, s->task_name))
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, etl_activities_get_string (acts, s->name));
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, "activity");
      add_stats_members (b, &s->stats);
      json_builder_end_object (b);
    }
  if (spans != NULL)
    add_builtin_regions (b, spans, want);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "instances");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_acts; i++)
    {
      char path[ETL_ACTIVITY_PATH_MAX];

      if (!name_matches (acts, want, a[i].name, a[i].task_name))
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "index");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, etl_activities_get_string (acts, a[i].name));
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, "activity");
      json_builder_set_member_name (b, "task_name");
      json_builder_add_string_value (b, etl_activities_get_string (acts, a[i].task_name));
      json_builder_set_member_name (b, "start_ms");
      json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, a[i].start));
      add_ms (b, "duration_ms", (double) (a[i].stop - a[i].start));
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, a[i].pid);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, a[i].tid);
      json_builder_set_member_name (b, "depth");
      json_builder_add_int_value (b, a[i].depth);
      json_builder_set_member_name (b, "parent");
      if (a[i].parent != ETL_ACTIVITY_NONE)
        json_builder_add_int_value (b, a[i].parent);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "open");
      json_builder_add_boolean_value (b, (a[i].flags & ETL_ACTIVITY_OPEN) != 0);
      json_builder_set_member_name (b, "abandoned");
      json_builder_add_boolean_value (b, (a[i].flags & ETL_ACTIVITY_ABANDONED) != 0);
      add_guid (b, "activity_id", &a[i].activity_id);
      json_builder_set_member_name (b, "activity_path");
      if (etl_activity_id_to_path (&a[i].activity_id, path))
        json_builder_add_string_value (b, path);
      else
        json_builder_add_null_value (b);
      add_guid (b, "provider", etl_activities_get_provider (acts, a[i].provider));
      json_builder_set_member_name (b, "task");
      json_builder_add_int_value (b, a[i].task);
      json_builder_set_member_name (b, "start_record");
      json_builder_add_int_value (b, (gint64) a[i].start_record);
      json_builder_set_member_name (b, "stop_record");
      if (a[i].stop_record != ETL_ACTIVITY_NO_RECORD)
        json_builder_add_int_value (b, (gint64) a[i].stop_record);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  if (spans != NULL)
    add_builtin_instances (b, trace, spans, want, n_acts);
  json_builder_end_array (b);

  json_builder_set_member_name (b, "unmatched_stops");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_stops; i++)
    {
      if (!name_matches (acts, want, stops[i].name, stops[i].name))
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, etl_activities_get_string (acts, stops[i].name));
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (b, "activity");
      json_builder_set_member_name (b, "time_ms");
      json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, stops[i].time));
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, stops[i].pid);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, stops[i].tid);
      add_guid (b, "activity_id", &stops[i].activity_id);
      json_builder_set_member_name (b, "record");
      json_builder_add_int_value (b, (gint64) stops[i].record);
      json_builder_end_object (b);
    }
  if (spans != NULL)
    add_builtin_unmatched (b, trace, spans, want);
  json_builder_end_array (b);
  add_counts (b, etl_activities_get_counts (acts));
  if (spans != NULL)
    add_builtin_counts (b, etl_builtin_spans_get_counts (spans));
  json_builder_end_object (b);
  etl_cli_print_builder (b);
}

/* --regions FILE: the instances of a Regions of Interest file's regions
 * (etl_regions_match()), in the same JSON shape: statistics per region (its
 * FriendlyName, else Name), every instance with its own name (PayloadBased
 * naming) and its region. */
static void
print_file_regions (EtlTrace *trace, const EtlRegionsFile *file, EtlRegions *regions, const char *want)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  guint n = 0;
  const EtlRegionInstance *inst = etl_regions_get_instances (regions, &n);
  const EtlRegionsTotals *totals = etl_regions_get_totals (regions);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "regions");
  json_builder_begin_array (b);
  for (guint r = 0; r < file->regions->len; r++)
    {
      const EtlRegionDef *def = &g_array_index (file->regions, EtlRegionDef, r);
      const char *region_name = etl_region_def_display_name (def);
      const EtlRegionCounts *counts = etl_regions_get_counts (regions, r);
      g_autoptr (GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
      EtlIntervalStats st;

      if (want != NULL && g_strcmp0 (want, region_name) != 0)
        continue;
      for (guint i = 0; i < n; i++)
        if (inst[i].region == r && (inst[i].flags & ETL_REGION_INSTANCE_OPEN) == 0)
          {
            gint64 d = inst[i].stop - inst[i].start;

            g_array_append_val (durations, d);
          }
      etl_interval_stats_compute ((gint64 *) (gpointer) durations->data, durations->len, &st);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, region_name);
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, (gint64) counts->instances);
      add_ms (b, "total_ms", (double) st.total);
      add_ms (b, "mean_ms", st.mean);
      add_ms (b, "median_ms", st.median);
      add_ms (b, "p90_ms", (double) st.p90);
      add_ms (b, "p99_ms", (double) st.p99);
      add_ms (b, "max_ms", (double) st.max);
      json_builder_set_member_name (b, "open");
      json_builder_add_int_value (b, (gint64) counts->open);
      json_builder_set_member_name (b, "unmatched_stops");
      json_builder_add_int_value (b, (gint64) counts->unmatched_stops);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "instances");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      const char *region_name
          = etl_region_def_display_name (&g_array_index (file->regions, EtlRegionDef, inst[i].region));

      if (want != NULL && g_strcmp0 (want, region_name) != 0)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "index");
      json_builder_add_int_value (b, i);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, etl_regions_get_string (regions, inst[i].name));
      json_builder_set_member_name (b, "region");
      json_builder_add_string_value (b, region_name);
      json_builder_set_member_name (b, "start_ms");
      json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, inst[i].start));
      add_ms (b, "duration_ms", (double) (inst[i].stop - inst[i].start));
      json_builder_set_member_name (b, "pid");
      json_builder_add_int_value (b, inst[i].pid);
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, inst[i].tid);
      json_builder_set_member_name (b, "depth");
      json_builder_add_int_value (b, inst[i].depth);
      json_builder_set_member_name (b, "parent");
      if (inst[i].parent != ETL_REGION_INSTANCE_NONE)
        json_builder_add_int_value (b, inst[i].parent);
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "open");
      json_builder_add_boolean_value (b, (inst[i].flags & ETL_REGION_INSTANCE_OPEN) != 0);
      add_guid (b, "activity_id", &inst[i].activity_id);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "counts");
  json_builder_begin_object (b);
  {
    const CountRow rows[] = {
      { "records_read", totals->records_read },
      { "starts", totals->starts },
      { "stops", totals->stops },
      { "open", totals->open },
      { "unmatched_stops", totals->unmatched_stops },
      { "no_schema", totals->no_schema },
    };

    add_count_rows (b, rows, G_N_ELEMENTS (rows));
  }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "warnings");
  json_builder_begin_array (b);
  for (guint i = 0; file->warnings != NULL && i < file->warnings->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (file->warnings, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
  etl_cli_print_builder (b);
}

/**
 * etl_cli_regions_main:
 * @argc: arguments, "regions" first
 * @argv: (array length=argc): the arguments
 *
 * The `regions` command: opens the files as one trace, pairs its Start and
 * Stop events (etl_activities_new()) and prints the statistics per name,
 * the instances and the unmatched Stops as JSON (see the file's comment).
 *
 * Returns: the exit status: 0, 1 when input could not be read completely
 *   (one line per problem on stderr), 2 on a usage error
 */
int
etl_cli_regions_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  g_autofree char *name = NULL;
  g_autofree char *regions_path = NULL;
  g_autofree char *builtin = NULL;
  g_autoptr (EtlBuiltinSpans) spans = NULL;
  guint kinds = 0;
  g_autoptr (EtlRegionsFile) regions_file = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlActivities) acts = NULL;
  gboolean by_task = FALSE;
  GOptionEntry entries[]
      = { { "name", 0, 0, G_OPTION_ARG_STRING, &name,
            "Only the regions and instances of this name or task name", "NAME" },
          { "regions", 'r', 0, G_OPTION_ARG_FILENAME, &regions_path,
            "The regions of this Regions of Interest file (WPA's XML) instead of the Start/Stop activities",
            "FILE.xml" },
          { "builtin", 'b', 0, G_OPTION_ARG_STRING, &builtin,
            "Add the built-in intervals of these kinds: gc (with its pauses), gc-pause, disk, file, process, "
            "thread, all (comma-separated)",
            "KINDS" },
          { "by-task", 0, 0, G_OPTION_ARG_NONE, &by_task,
            "One region per task name instead of per full name (Task(first field))", NULL },
          { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
            "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
          { NULL } };

  (void) argc;
  context = g_option_context_new ("FILE...");
  g_option_context_set_summary (
      context, "Print the Start/Stop activities of the trace as JSON: statistics per name\n"
               "(count, total, mean, median, p90, p99, max in ms, open, unmatched Stops), every\n"
               "instance (start, duration, process, thread, nesting depth and parent, ActivityId)\n"
               "and the Stops without a Start.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli regions: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli regions: no FILE given (see --help)\n");
      return EXIT_USAGE;
    }
  if (builtin != NULL && !etl_builtin_kinds_parse (builtin, &kinds))
    {
      g_printerr ("etlscope-cli regions: --builtin: unknown kind in \"%s\" (gc, gc-pause, disk, file, process, "
                  "thread, all)\n",
                  builtin);
      return EXIT_USAGE;
    }

  if (regions_path != NULL && (regions_file = etl_regions_file_load (regions_path, &error)) == NULL)
    {
      g_printerr ("etlscope-cli regions: %s\n", error->message);
      return EXIT_INPUT;
    }
  trace = etl_trace_open_full ((const char *const *) files, (const char *const *) manifests, NULL, NULL, NULL,
                               &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      return EXIT_INPUT;
    }
  if (regions_file != NULL)
    {
      g_autoptr (EtlRegions) regions = etl_regions_match (trace, regions_file, NULL, &error);

      if (regions == NULL)
        {
          g_printerr ("etlscope-cli regions: %s\n", error->message);
          return EXIT_INPUT;
        }
      print_file_regions (trace, regions_file, regions, name);
      return etl_cli_report_problems (trace);
    }
  acts = etl_activities_new (trace, NULL, &error);
  if (acts == NULL)
    {
      g_printerr ("etlscope-cli regions: %s\n", error->message);
      return EXIT_INPUT;
    }
  if (kinds != 0 && (spans = etl_builtin_spans_new (trace, kinds, NULL, &error)) == NULL)
    {
      g_printerr ("etlscope-cli regions: %s\n", error->message);
      return EXIT_INPUT;
    }
  print_regions (trace, acts, spans, name, by_task ? ETL_ACTIVITY_GROUP_TASK : ETL_ACTIVITY_GROUP_NAME);
  return etl_cli_report_problems (trace);
}
