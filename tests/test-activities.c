/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-activities: the Start/Stop pairing of etl-activities.c.
 *
 * - synth: the activities scenario of etl-synth-activities.c (its table is
 *   restated here), every interval to the 100-ns tick: start, stop, records,
 *   parent, depth, flags, names, ActivityId paths; the unmatched Stops and
 *   the counts; and `dump`'s activity_id / related_activity_id members.
 * - msbuild: real/msbuild_PerfViewData.etl: Starts per task name counted
 *   here from the records, the pairing redone here by a plain per-key stack
 *   (the ActivityIds of that trace are all zero), each duration against the
 *   two records' times, the nesting invariants, and the figures of the
 *   trace (393 Target, 678 ExecuteTask, 399 EvaluateCondition …).
 * - rules: the builder fed by hand: reuse, a RelatedActivityId naming no
 *   open activity, thread ids reused by another process, a Stop before its
 *   Start, non-zero and zero ActivityIds kept apart, providers kept apart.
 * - many-unpaired: millions of open Starts, both keys, in linear time.
 * - path: EventSource ActivityId paths, each nibble code.
 * - stats: etl_interval_stats_compute() against a sort here.
 * - dump: net.4.5.2.x64.etl's TPL ActivityIds in `dump`'s lines.
 * - hostile: extended items of absurd sizes; cancellation.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <stdlib.h>
#include <string.h>

#include "etl-activities-private.h"
#include "etl-dump.h"
#include "etl-format-private.h"
#include "etl-interval-stats.h"
#include "etl-record.h"
#include "etl-synth.h"
#include "etl-test-trace.h"

#define TICKS_PER_MS 10000

/* ------------------------------------------------------------------------ */
/* The synthetic scenario                                                   */

static char *
write_scenario (char **dir_out)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("etlscope-activities-XXXXXX", &error);
  char *path;
  EtlSynthParams params;

  g_assert_no_error (error);
  path = g_build_filename (dir, "activities.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.activities = TRUE;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  *dir_out = dir;
  return path;
}

static void
remove_scenario (char *dir, char *path)
{
  g_remove (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

/* The scenario's activities (etl-synth-activities.c's table; record = row + 1,
 * the EventTrace header being record 0; times in 0.1 ms). */
typedef struct
{
  const char *name;
  const char *task_name;
  guint start_t, stop_t; /* stop_t 100 (the last record) when open */
  guint64 start_record, stop_record;
  guint32 tid, pid;
  guint32 parent, depth, flags;
  const char *path; /* the ActivityId's path, NULL when zero or not a path */
  gboolean has_id;
} Expected;

#define OPEN ETL_ACTIVITY_OPEN
#define ABANDONED ETL_ACTIVITY_ABANDONED
#define RELATED ETL_ACTIVITY_BY_RELATED_ID
#define THREAD ETL_ACTIVITY_BY_THREAD
#define NO_PARENT ETL_ACTIVITY_NONE
#define NO_REC ETL_ACTIVITY_NO_RECORD

static const Expected expected[] = {
  { "Request(alpha)", "Request", 10, 30, 1, 7, 1004, 1000, NO_PARENT, 0, THREAD, NULL, FALSE },
  { "Step(s1)", "Step", 15, 22, 2, 5, 1004, 1000, 0, 1, THREAD, NULL, FALSE },
  { "Step(s2)", "Step", 17, 19, 3, 4, 1004, 1000, 1, 2, THREAD, NULL, FALSE },
  { "Request(beta)", "Request", 40, 65, 8, 13, 1004, 1000, NO_PARENT, 0, 0, "//1/", TRUE },
  { "Query(q1)", "Query", 45, 60, 9, 12, 1008, 1000, 3, 1, RELATED, "//1/300/", TRUE },
  { "Step(inner)", "Step", 50, 55, 10, 11, 1008, 1000, 4, 2, THREAD, NULL, FALSE },
  { "Job(first)", "Job", 70, 100, 14, NO_REC, 2004, 2000, NO_PARENT, 0, OPEN | ABANDONED, NULL, TRUE },
  { "Job(second)", "Job", 75, 80, 15, 16, 2004, 2000, NO_PARENT, 0, 0, NULL, TRUE },
  { "Lonely(never)", "Lonely", 85, 100, 17, NO_REC, 2004, 2000, NO_PARENT, 0, OPEN | THREAD, NULL, FALSE },
  { "Step(bad)", "Step", 95, 98, 20, 21, 1008, 1000, NO_PARENT, 0, THREAD, NULL, FALSE },
};

static void
test_synth (void)
{
  g_autofree char *dir = NULL;
  char *path = write_scenario (&dir);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_autoptr (EtlActivities) acts = NULL;
  const EtlActivitiesCounts *c;
  const EtlActivity *a;
  const EtlActivityStop *stops;
  guint n, n_stops;
  gint64 origin;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpuint (etl_trace_get_n_records (trace), ==, 23);
  acts = etl_activities_new (trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (acts);
  origin = etl_trace_get_origin (trace);
  g_assert_cmpint (etl_trace_get_last_filetime (trace) - origin, ==, 10 * TICKS_PER_MS);

  a = etl_activities_get (acts, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < n; i++)
    {
      const Expected *e = &expected[i];
      char p[ETL_ACTIVITY_PATH_MAX];

      g_test_message ("activity %u: %s", i, e->name);
      g_assert_cmpstr (etl_activities_get_string (acts, a[i].name), ==, e->name);
      g_assert_cmpstr (etl_activities_get_string (acts, a[i].task_name), ==, e->task_name);
      g_assert_cmpint (a[i].start - origin, ==, (gint64) e->start_t * (TICKS_PER_MS / 10));
      g_assert_cmpint (a[i].stop - origin, ==, (gint64) e->stop_t * (TICKS_PER_MS / 10));
      g_assert_cmpuint (a[i].start_record, ==, e->start_record);
      g_assert_cmpuint (a[i].stop_record, ==, e->stop_record);
      g_assert_cmpuint (a[i].tid, ==, e->tid);
      g_assert_cmpuint (a[i].pid, ==, e->pid);
      g_assert_cmpuint (a[i].parent, ==, e->parent);
      g_assert_cmpuint (a[i].depth, ==, e->depth);
      g_assert_cmphex (a[i].flags, ==, e->flags);
      g_assert_cmpint (!etl_guid_is_zero (&a[i].activity_id), ==, e->has_id);
      if (e->path != NULL)
        {
          g_assert_true (etl_activity_id_to_path (&a[i].activity_id, p));
          g_assert_cmpstr (p, ==, e->path);
        }
      else
        g_assert_false (etl_activity_id_to_path (&a[i].activity_id, p));
      {
        const EtlGuid *provider = etl_activities_get_provider (acts, a[i].provider);

        g_assert_nonnull (provider);
        etl_guid_to_string (provider, p);
        g_assert_cmpstr (p, ==, "6c0f5e2a-7d41-4b8e-9a3c-1f2e3d4c5b6a");
      }
    }

  stops = etl_activities_get_unmatched_stops (acts, &n_stops);
  g_assert_cmpuint (n_stops, ==, 2);
  g_assert_cmpstr (etl_activities_get_string (acts, stops[0].name), ==, "Orphan");
  g_assert_cmpuint (stops[0].record, ==, 18);
  g_assert_cmpuint (stops[0].tid, ==, 1004);
  g_assert_cmpint (stops[0].time - origin, ==, 9 * TICKS_PER_MS);
  g_assert_true (etl_guid_is_zero (&stops[0].activity_id));
  g_assert_cmpstr (etl_activities_get_string (acts, stops[1].name), ==, "Query");
  g_assert_cmpuint (stops[1].record, ==, 19);
  g_assert_cmpuint (stops[1].tid, ==, 1008);
  g_assert_false (etl_guid_is_zero (&stops[1].activity_id));

  c = etl_activities_get_counts (acts);
  g_assert_cmpuint (c->starts, ==, 10);
  g_assert_cmpuint (c->stops, ==, 10);
  g_assert_cmpuint (c->paired, ==, 8);
  g_assert_cmpuint (c->open, ==, 2);
  g_assert_cmpuint (c->abandoned, ==, 1);
  g_assert_cmpuint (c->unmatched_stops, ==, 2);
  g_assert_cmpuint (c->missing_parent, ==, 0);
  g_assert_cmpuint (c->bad_related_id, ==, 1);
  g_assert_cmpuint (c->dropped, ==, 0);
  g_assert_cmpuint (c->out_of_order, ==, 0);

  /* Statistics per task name: Step has three measured durations (0.7, 0.2,
   * 0.5, 0.3 ms: four), Job one measured and one open. */
  {
    g_autoptr (GArray) stats = etl_activities_compute_stats (acts, ETL_ACTIVITY_GROUP_TASK);
    gboolean seen_step = FALSE, seen_job = FALSE, seen_orphan = FALSE;

    for (guint r = 0; r < stats->len; r++)
      {
        const EtlActivityNameStats *s = &g_array_index (stats, EtlActivityNameStats, r);
        const char *name = etl_activities_get_string (acts, s->name);

        if (strcmp (name, "Step") == 0)
          {
            seen_step = TRUE;
            g_assert_cmpuint (s->stats.count, ==, 4);
            g_assert_cmpuint (s->stats.n_closed, ==, 4);
            g_assert_cmpint (s->stats.total, ==, 17000);
            g_assert_cmpfloat (s->stats.mean, ==, 4250.0);
            g_assert_cmpfloat (s->stats.median, ==, 4000.0); /* (3000 + 5000) / 2 */
            g_assert_cmpint (s->stats.p90, ==, 7000);
            g_assert_cmpint (s->stats.max, ==, 7000);
          }
        else if (strcmp (name, "Job") == 0)
          {
            seen_job = TRUE;
            g_assert_cmpuint (s->stats.count, ==, 2);
            g_assert_cmpuint (s->stats.open, ==, 1);
            g_assert_cmpint (s->stats.total, ==, 5000);
          }
        else if (strcmp (name, "Orphan") == 0)
          {
            seen_orphan = TRUE;
            g_assert_cmpuint (s->stats.count, ==, 0);
            g_assert_cmpuint (s->stats.unmatched_stops, ==, 1);
          }
      }
    g_assert_true (seen_step && seen_job && seen_orphan);
  }

  /* dump: the ActivityIds of the records that have them, nothing on others. */
  {
    g_autoptr (GString) line = g_string_new (NULL);
    g_autoptr (JsonParser) parser = json_parser_new ();
    JsonObject *o;

    g_assert_true (etl_dump_append_record (line, trace, NULL, ETL_DUMP_JSONL, ETL_DUMP_FIELDS, 9, &error));
    g_assert_no_error (error);
    g_assert_true (json_parser_load_from_data (parser, line->str, -1, &error));
    o = json_node_get_object (json_parser_get_root (parser));
    g_assert_true (json_object_has_member (o, "activity_id"));
    g_assert_true (json_object_has_member (o, "related_activity_id"));
    g_assert_cmpstr (json_object_get_string_member (o, "activity_id"), ==, "00012c1d-0000-0000-0000-0000cac59e59");
    g_assert_cmpstr (json_object_get_string_member (o, "related_activity_id"), ==,
                     "00000010-0000-0000-0000-0000bd999d59");
    g_string_truncate (line, 0);
    g_assert_true (etl_dump_append_record (line, trace, NULL, ETL_DUMP_JSONL, ETL_DUMP_FIELDS, 1, &error));
    g_assert_null (strstr (line->str, "activity_id"));
    /* Record 20: a RelatedActivityId item of 8 bytes is not a GUID: left out. */
    g_string_truncate (line, 0);
    g_assert_true (etl_dump_append_record (line, trace, NULL, ETL_DUMP_JSONL, ETL_DUMP_FIELDS, 20, &error));
    g_assert_null (strstr (line->str, "related_activity_id"));
  }

  g_clear_pointer (&acts, etl_activities_unref);
  g_clear_pointer (&trace, etl_trace_unref);
  remove_scenario (g_steal_pointer (&dir), path);
}

/* ------------------------------------------------------------------------ */
/* msbuild_PerfViewData.etl                                                 */

typedef struct
{
  const char *task;
  guint count;
  guint open;
  guint unmatched;
} MsbuildRow;

/* `etlscope-cli dump` of the trace, counted by task name and opcode (and the
 * Stops without a Start of the same thread: the Starts on thread 15708 whose
 * Stops came on 16400, and EvaluateStop, a task of its own). */
static const MsbuildRow msbuild_rows[] = {
  { "Target", 393, 3, 3 },
  { "ExecuteTask", 678, 4, 4 },
  { "EvaluateCondition", 399, 0, 0 },
  { "ApplyLazyItemOperations", 1047, 0, 0 },
  { "LoadDocument", 112, 0, 0 },
  { "Parse", 112, 0, 0 },
  { "Evaluate", 6, 6, 0 },
  { "EvaluateStop", 0, 0, 6 },
  { "EvaluatePass1", 6, 0, 0 },
  { "BuildProject", 6, 2, 2 },
  { "RequestThreadProc", 6, 2, 2 },
  { "RarOverall", 4, 0, 0 },
  { "ExpandGlob", 16, 0, 0 },
};

typedef struct
{
  guint64 record;
  gint64 filetime;
  guint32 pid, tid;
  EtlGuid provider;
  guint16 task;
  char *task_name;
} Ev;

static char *
key_of (const Ev *e)
{
  char g[ETL_GUID_STRING_LEN + 1];

  etl_guid_to_string (&e->provider, g);
  return g_strdup_printf ("%s/%u/%u/%u", g, e->task, e->pid, e->tid);
}

static void
test_msbuild (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("real/msbuild_PerfViewData.etl");
  g_autoptr (EtlActivities) acts = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GHashTable) starts_by_task = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) stacks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                         (GDestroyNotify) g_array_unref);
  g_autoptr (GHashTable) pair_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr (GArray) events = g_array_new (FALSE, FALSE, sizeof (Ev));
  guint n, n_stops, ref_unmatched = 0, n_zero_ids = 0, checked_nesting = 0, exec_in_target = 0;
  const EtlActivity *a;
  guint64 n_records;

  if (trace == NULL)
    return;

  /* The Start and Stop events, read here. */
  n_records = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n_records; i++)
    {
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) d = NULL;
      Ev e;

      g_assert_true (etl_trace_get_record (trace, i, &r, &error));
      g_assert_no_error (error);
      if ((r.header_type != ETL_HEADER_TYPE_EVENT_HEADER32 && r.header_type != ETL_HEADER_TYPE_EVENT_HEADER64)
          || (r.opcode != 1 && r.opcode != 2))
        continue;
      d = etl_trace_decode_record (trace, &r);
      g_assert_nonnull (d->schema);
      g_assert_nonnull (d->schema->task_name);
      e.record = i;
      e.filetime = r.filetime;
      e.pid = r.pid;
      e.tid = r.tid;
      e.provider = r.provider;
      e.task = r.task;
      e.task_name = g_strdup (d->schema->task_name);
      if (etl_guid_is_zero (&r.activity_id))
        n_zero_ids++;
      if (r.opcode == 1)
        {
          guint c = GPOINTER_TO_UINT (g_hash_table_lookup (starts_by_task, e.task_name));

          g_hash_table_insert (starts_by_task, g_strdup (e.task_name), GUINT_TO_POINTER (c + 1));
        }
      /* The reference pairing: a stack per provider, task, process, thread. */
      {
        g_autofree char *key = key_of (&e);
        GArray *stack = g_hash_table_lookup (stacks, key);

        if (stack == NULL)
          {
            stack = g_array_new (FALSE, FALSE, sizeof (guint64));
            g_hash_table_insert (stacks, g_strdup (key), stack);
          }
        if (r.opcode == 1)
          g_array_append_val (stack, i);
        else if (stack->len > 0)
          {
            gint64 *k = g_new (gint64, 1);
            gint64 *v = g_new (gint64, 1);

            *k = (gint64) g_array_index (stack, guint64, stack->len - 1);
            *v = (gint64) i;
            g_hash_table_insert (pair_of, k, v);
            g_array_set_size (stack, stack->len - 1);
          }
        else
          ref_unmatched++;
      }
      g_array_append_val (events, e);
    }
  /* The trace's ActivityIds are all zero: everything pairs by thread. */
  g_assert_cmpuint (n_zero_ids, ==, events->len);
  g_assert_cmpuint (events->len, ==, 2828 * 2);

  acts = etl_activities_new (trace, NULL, &error);
  g_assert_no_error (error);
  a = etl_activities_get (acts, &n);
  g_assert_cmpuint (n, ==, 2828);
  g_assert_cmpuint (etl_activities_get_counts (acts)->paired, ==, g_hash_table_size (pair_of));
  g_assert_cmpuint (etl_activities_get_counts (acts)->unmatched_stops, ==, ref_unmatched);
  etl_activities_get_unmatched_stops (acts, &n_stops);
  g_assert_cmpuint (n_stops, ==, 17);
  g_assert_cmpuint (etl_activities_get_counts (acts)->open, ==, 17);

  for (guint i = 0; i < n; i++)
    {
      gint64 key = (gint64) a[i].start_record;
      const gint64 *stop = g_hash_table_lookup (pair_of, &key);
      g_auto (EtlRecord) rs = { 0 };

      /* Paired with the same Stop as the reference, or open in both. */
      if (stop == NULL)
        {
          g_assert_true (a[i].flags & ETL_ACTIVITY_OPEN);
          g_assert_cmpuint (a[i].stop_record, ==, ETL_ACTIVITY_NO_RECORD);
          g_assert_cmpint (a[i].stop, ==, etl_trace_get_last_filetime (trace));
        }
      else
        {
          g_auto (EtlRecord) re = { 0 };

          g_assert_false (a[i].flags & ETL_ACTIVITY_OPEN);
          g_assert_cmpuint (a[i].stop_record, ==, (guint64) *stop);
          g_assert_true (etl_trace_get_record (trace, a[i].stop_record, &re, NULL));
          g_assert_cmpuint (re.opcode, ==, 2);
          g_assert_cmpuint (re.tid, ==, a[i].tid);
          /* The duration is Stop − Start of the two records. */
          g_assert_true (etl_trace_get_record (trace, a[i].start_record, &rs, NULL));
          g_assert_cmpint (a[i].stop - a[i].start, ==, re.filetime - rs.filetime);
          g_assert_cmpuint (re.task, ==, rs.task);
        }
      g_assert_cmpint (a[i].start, ==, etl_trace_get_filetime (trace, a[i].start_record));

      /* Nesting: inside the parent, on its thread, one level below it. */
      if (a[i].parent != ETL_ACTIVITY_NONE)
        {
          const EtlActivity *p = &a[a[i].parent];

          g_assert_cmpuint (a[i].parent, <, i);
          g_assert_cmpuint (a[i].depth, ==, p->depth + 1);
          g_assert_cmpuint (p->tid, ==, a[i].tid);
          g_assert_cmpint (p->start, <=, a[i].start);
          g_assert_cmpint (p->stop, >=, a[i].start);
          checked_nesting++;
          if (strcmp (etl_activities_get_string (acts, a[i].task_name), "ExecuteTask") == 0
              && strcmp (etl_activities_get_string (acts, p->task_name), "Target") == 0)
            exec_in_target++;
        }
      else
        {
          g_assert_cmpuint (a[i].depth, ==, 0);
          if (strcmp (etl_activities_get_string (acts, a[i].task_name), "ExecuteTask") == 0)
            g_assert_true (a[i].tid == 16400 || (a[i].flags & ETL_ACTIVITY_OPEN));
        }
      /* The name: the task, then the first field when a string. */
      g_assert_true (g_str_has_prefix (etl_activities_get_string (acts, a[i].name),
                                       etl_activities_get_string (acts, a[i].task_name)));
    }
  g_assert_cmpuint (checked_nesting, >, 2700);
  /* Every ExecuteTask runs inside a Target, but for 6 with no parent: 5 on
   * thread 16400, where the build went on after its Targets started on
   * 15708 (zero ActivityIds: no nesting across threads), and 1 open on
   * 15708 that started with no Target open on its thread. */
  g_assert_cmpuint (exec_in_target, ==, 672);

  /* Per task name: the Starts counted here and the figures above. */
  {
    g_autoptr (GArray) stats = etl_activities_compute_stats (acts, ETL_ACTIVITY_GROUP_TASK);
    guint seen = 0;

    for (guint r = 0; r < stats->len; r++)
      {
        const EtlActivityNameStats *s = &g_array_index (stats, EtlActivityNameStats, r);
        const char *name = etl_activities_get_string (acts, s->name);

        g_assert_cmpuint (s->stats.count, ==, GPOINTER_TO_UINT (g_hash_table_lookup (starts_by_task, name)));
        for (guint k = 0; k < G_N_ELEMENTS (msbuild_rows); k++)
          if (strcmp (msbuild_rows[k].task, name) == 0)
            {
              g_test_message ("%s", name);
              g_assert_cmpuint (s->stats.count, ==, msbuild_rows[k].count);
              g_assert_cmpuint (s->stats.open, ==, msbuild_rows[k].open);
              g_assert_cmpuint (s->stats.unmatched_stops, ==, msbuild_rows[k].unmatched);
              seen++;
            }
      }
    g_assert_cmpuint (seen, ==, G_N_ELEMENTS (msbuild_rows));
  }
  /* A name with its first field: the project MSBuild parsed first. */
  g_assert_cmpstr (etl_activities_get_string (acts, a[5].name), ==, "Parse(E:\\delete\\p2p\\A\\A.csproj)");
  for (guint i = 0; i < events->len; i++)
    g_free (g_array_index (events, Ev, i).task_name);
}

/* ------------------------------------------------------------------------ */
/* The rules, by hand                                                       */

static void
ev_init (EtlActivityEvent *e, guint64 record, gint64 t, guint32 pid, guint32 tid, guint8 opcode, guint16 task)
{
  memset (e, 0, sizeof *e);
  e->record = record;
  e->filetime = t;
  e->pid = pid;
  e->tid = tid;
  e->opcode = opcode;
  e->task = task;
  etl_guid_parse ("11111111-2222-3333-4444-555555555555", &e->provider);
  e->task_name = "T";
}

/* A Start logged twice in two versions of one event (the .NET runtime's
 * GCStart v1 and v2, 5 µs apart) is one activity; the same version twice,
 * another event Id, a Start on another thread between, or a gap over
 * 1 ms are not the rule's case and nest as usual. */
static void
test_duplicate_starts (void)
{
  struct
  {
    const char *what;
    guint16 id2;
    guint8 version2;
    gint64 gap;
    gboolean other_between;
    guint want_activities;
  } cases[] = {
    { "v1 then v2", 1, 2, 50, FALSE, 1 },
    { "the same version twice", 1, 1, 50, FALSE, 2 },
    { "another event", 7, 2, 50, FALSE, 2 },
    { "over 1 ms apart", 1, 2, 10001, FALSE, 2 },
    { "another Start between", 1, 2, 50, TRUE, 3 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      EtlActivitiesBuilder *b = etl_activities_builder_new ();
      g_autoptr (EtlActivities) acts = NULL;
      EtlActivityEvent e;
      const EtlActivity *a;
      guint n = 0;

      g_test_message ("%s", cases[c].what);
      ev_init (&e, 0, 1000, 1, 7, 1, 1);
      e.event_id = 1;
      e.version = 1;
      etl_activities_builder_add (b, &e);
      if (cases[c].other_between)
        {
          ev_init (&e, 1, 1010, 1, 8, 1, 3);
          etl_activities_builder_add (b, &e);
        }
      ev_init (&e, 2, 1000 + cases[c].gap, 1, 7, 1, 1);
      e.event_id = cases[c].id2;
      e.version = cases[c].version2;
      etl_activities_builder_add (b, &e);
      ev_init (&e, 3, 20000, 1, 7, 2, 1);
      e.event_id = 2;
      etl_activities_builder_add (b, &e);
      acts = etl_activities_builder_finish (b, 30000);
      a = etl_activities_get (acts, &n);
      g_assert_cmpuint (n, ==, cases[c].want_activities);
      g_assert_cmpuint (etl_activities_get_counts (acts)->starts, ==, cases[c].other_between ? 3 : 2);
      g_assert_cmpuint (etl_activities_get_counts (acts)->duplicate_starts, ==, cases[c].want_activities == 1);
      /* The first Start is the one the Stop ends when the second is a
       * duplicate; else the Stop ends the innermost, the first stays open. */
      g_assert_cmpint (a[0].stop, ==, cases[c].want_activities == 1 ? 20000 : 30000);
      g_assert_cmpuint (etl_activities_get_counts (acts)->open, ==, cases[c].want_activities - 1);
    }
}

static void
test_rules (void)
{
  EtlActivitiesBuilder *b = etl_activities_builder_new ();
  g_autoptr (EtlActivities) acts = NULL;
  EtlActivityEvent e;
  const EtlActivity *a;
  guint n, n_stops;
  const EtlActivityStop *stops;

  /* 0: a Start of process 1 thread 7. */
  ev_init (&e, 0, 100, 1, 7, 1, 1);
  etl_activities_builder_add (b, &e);
  /* 1: thread 7 of process 2 (the id reused): does not nest in 0. */
  ev_init (&e, 1, 110, 2, 7, 1, 1);
  etl_activities_builder_add (b, &e);
  /* 2: RelatedActivityId naming no open activity: the thread's innermost (1). */
  ev_init (&e, 2, 120, 2, 7, 1, 2);
  e.related_state = 1;
  etl_guid_parse ("99999999-0000-0000-0000-000000000001", &e.related);
  etl_activities_builder_add (b, &e);
  /* Opcode 0 and 3: ignored. */
  ev_init (&e, 3, 125, 2, 7, 0, 2);
  etl_activities_builder_add (b, &e);
  ev_init (&e, 4, 126, 2, 7, 3, 2);
  etl_activities_builder_add (b, &e);
  /* A Stop of task 2 with a non-zero ActivityId: does not stop 2 (zero id). */
  ev_init (&e, 5, 130, 2, 7, 2, 2);
  etl_guid_parse ("99999999-0000-0000-0000-000000000002", &e.activity_id);
  etl_activities_builder_add (b, &e);
  /* A Stop of task 2 of another provider: does not stop 2 either. */
  ev_init (&e, 6, 131, 2, 7, 2, 2);
  etl_guid_parse ("11111111-2222-3333-4444-666666666666", &e.provider);
  etl_activities_builder_add (b, &e);
  /* A Stop of task 2 timed before its Start (clamped): stops 2. */
  ev_init (&e, 7, 90, 2, 7, 2, 2);
  etl_activities_builder_add (b, &e);
  /* 3, 4, 5: three Starts with one ActivityId X on thread 8: each replaces the last. */
  for (guint k = 0; k < 3; k++)
    {
      ev_init (&e, 8 + k, 200 + k, 1, 8, 1, 5);
      etl_guid_parse ("aaaaaaaa-0000-0000-0000-000000000001", &e.activity_id);
      etl_activities_builder_add (b, &e);
    }
  /* 6: a Start on thread 8, ActivityId zero: nests in 5 (3 and 4 no longer enclose). */
  ev_init (&e, 11, 210, 1, 8, 1, 6);
  etl_activities_builder_add (b, &e);
  /* 7: a child of X on thread 9 by RelatedActivityId: parent 5. */
  ev_init (&e, 12, 220, 1, 9, 1, 7);
  e.related_state = 1;
  etl_guid_parse ("aaaaaaaa-0000-0000-0000-000000000001", &e.related);
  etl_guid_parse ("bbbbbbbb-0000-0000-0000-000000000001", &e.activity_id);
  etl_activities_builder_add (b, &e);
  /* The Stop of X stops 5 only. */
  ev_init (&e, 13, 300, 1, 8, 2, 5);
  etl_guid_parse ("aaaaaaaa-0000-0000-0000-000000000001", &e.activity_id);
  etl_activities_builder_add (b, &e);
  /* A second Stop of X: unmatched (3 and 4 were abandoned). */
  ev_init (&e, 14, 310, 1, 8, 2, 5);
  etl_guid_parse ("aaaaaaaa-0000-0000-0000-000000000001", &e.activity_id);
  etl_activities_builder_add (b, &e);
  acts = etl_activities_builder_finish (b, 1000);

  a = etl_activities_get (acts, &n);
  g_assert_cmpuint (n, ==, 8);
  g_assert_cmpuint (a[0].parent, ==, ETL_ACTIVITY_NONE);
  g_assert_cmpuint (a[1].parent, ==, ETL_ACTIVITY_NONE);
  g_assert_cmpuint (a[2].parent, ==, 1);
  g_assert_cmpuint (a[2].depth, ==, 1);
  g_assert_false (a[2].flags & ETL_ACTIVITY_BY_RELATED_ID);
  g_assert_false (a[2].flags & ETL_ACTIVITY_OPEN);
  g_assert_cmpuint (a[2].stop_record, ==, 7);
  g_assert_cmpint (a[2].stop, ==, a[2].start);
  g_assert_cmphex (a[3].flags, ==, ETL_ACTIVITY_OPEN | ETL_ACTIVITY_ABANDONED);
  g_assert_cmphex (a[4].flags, ==, ETL_ACTIVITY_OPEN | ETL_ACTIVITY_ABANDONED);
  g_assert_cmpint (a[3].stop, ==, 1000);
  g_assert_cmphex (a[5].flags, ==, 0);
  g_assert_cmpuint (a[5].stop_record, ==, 13);
  g_assert_cmpuint (a[5].parent, ==, ETL_ACTIVITY_NONE);
  g_assert_cmpuint (a[6].parent, ==, 5);
  g_assert_cmpuint (a[7].parent, ==, 5);
  g_assert_true (a[7].flags & ETL_ACTIVITY_BY_RELATED_ID);
  g_assert_cmpuint (a[7].depth, ==, 1);

  stops = etl_activities_get_unmatched_stops (acts, &n_stops);
  g_assert_cmpuint (n_stops, ==, 3);
  g_assert_cmpuint (stops[0].record, ==, 5);
  g_assert_cmpuint (stops[1].record, ==, 6);
  g_assert_cmpuint (stops[2].record, ==, 14);
  g_assert_cmpuint (etl_activities_get_counts (acts)->missing_parent, ==, 1);
  g_assert_cmpuint (etl_activities_get_counts (acts)->out_of_order, ==, 1);
  g_assert_cmpuint (etl_activities_get_counts (acts)->abandoned, ==, 2);
  g_assert_cmpuint (etl_activities_get_counts (acts)->open, ==, 6);
  g_assert_cmpuint (etl_activities_get_counts (acts)->starts, ==, 8);
  g_assert_cmpuint (etl_activities_get_counts (acts)->stops, ==, 5);
}

/* ------------------------------------------------------------------------ */
/* Millions of unpaired Starts                                              */

#define MANY 1000000

static void
test_many_unpaired (void)
{
  EtlActivitiesBuilder *b = etl_activities_builder_new ();
  g_autoptr (EtlActivities) acts = NULL;
  EtlActivityEvent e;
  const EtlActivity *a;
  guint n;
  gint64 t0 = g_get_monotonic_time ();

  /* MANY Starts of one thread key (a stack MANY deep), MANY with distinct
   * ActivityIds on another thread, then MANY / 2 Stops of the thread key:
   * they stop the last MANY / 2 Starts, last first. */
  for (guint i = 0; i < MANY; i++)
    {
      ev_init (&e, i, i, 1, 7, 1, 1);
      etl_activities_builder_add (b, &e);
      ev_init (&e, i, i, 1, 8, 1, 2);
      e.activity_id.data1 = i + 1;
      etl_activities_builder_add (b, &e);
    }
  for (guint i = 0; i < MANY / 2; i++)
    {
      ev_init (&e, 2 * MANY + i, 2 * MANY + i, 1, 7, 2, 1);
      etl_activities_builder_add (b, &e);
    }
  acts = etl_activities_builder_finish (b, 4 * MANY);
  g_test_message ("%u Starts, %u Stops: %.0f ms", 2 * MANY, MANY / 2,
                  (double) (g_get_monotonic_time () - t0) / 1000.0);
  a = etl_activities_get (acts, &n);
  g_assert_cmpuint (n, ==, 2 * MANY);
  g_assert_cmpuint (etl_activities_get_counts (acts)->open, ==, 2 * MANY - MANY / 2);
  g_assert_cmpuint (etl_activities_get_counts (acts)->paired, ==, MANY / 2);
  /* Start k of thread 7 is activity 2k; the first Stop stops the last Start. */
  g_assert_cmpuint (a[2 * (MANY - 1)].stop_record, ==, 2 * MANY);
  g_assert_cmpuint (a[2 * (MANY / 2)].stop_record, ==, 2 * MANY + MANY / 2 - 1);
  g_assert_true (a[2 * (MANY / 2 - 1)].flags & ETL_ACTIVITY_OPEN);
  g_assert_cmpuint (a[2 * (MANY - 1)].depth, ==, MANY - 1);
  /* Each ActivityId Start nests in the thread 8 Start before it. */
  g_assert_cmpuint (a[3].parent, ==, 1);
  g_assert_cmpuint (etl_activities_get_string (acts, a[0].name)[0], ==, 'T');
  g_clear_pointer (&acts, etl_activities_unref);

  /* MANY Starts open at once with one ActivityId (distinct tasks and
   * processes), then their Stops oldest first: each Stop takes its Start out
   * of the middle of the ActivityId's chain.  Linear: a walk along the chain
   * would take MANY² / 2 steps. */
  t0 = g_get_monotonic_time ();
  b = etl_activities_builder_new ();
  for (guint i = 0; i < 2 * MANY; i++)
    {
      guint k = i < MANY ? i : i - MANY;

      ev_init (&e, i, i, 1 + k / 65536, 7, i < MANY ? 1 : 2, (guint16) (k % 65536));
      etl_guid_parse ("cccccccc-0000-0000-0000-000000000001", &e.activity_id);
      etl_activities_builder_add (b, &e);
    }
  acts = etl_activities_builder_finish (b, 4 * MANY);
  g_test_message ("%u Starts of one ActivityId, then their Stops: %.0f ms", MANY,
                  (double) (g_get_monotonic_time () - t0) / 1000.0);
  a = etl_activities_get (acts, &n);
  g_assert_cmpuint (n, ==, MANY);
  g_assert_cmpuint (etl_activities_get_counts (acts)->paired, ==, MANY);
  g_assert_cmpuint (etl_activities_get_counts (acts)->abandoned, ==, 0);
  g_assert_cmpuint (a[MANY / 3].stop_record, ==, MANY + MANY / 3);
  /* Each nests in the one before on the thread (no RelatedActivityId), but
   * for the first of each process (the thread id met in another process). */
  g_assert_cmpuint (a[MANY - 1].depth, ==, (MANY - 1) % 65536);
  g_assert_cmpuint (a[65536].parent, ==, ETL_ACTIVITY_NONE);
}

/* ------------------------------------------------------------------------ */
/* ActivityId paths                                                         */

static void
guid_from_head (EtlGuid *g, const guint8 *head, gsize n, gboolean valid)
{
  guint8 b[16] = { 0 };
  guint32 w[3], sum;

  memcpy (b, head, n);
  for (guint k = 0; k < 3; k++)
    w[k] = (guint32) b[4 * k] | (guint32) b[4 * k + 1] << 8 | (guint32) b[4 * k + 2] << 16
           | (guint32) b[4 * k + 3] << 24;
  sum = w[0] + w[1] + w[2] + 0x599D99ADu + (valid ? 0 : 1);
  b[12] = (guint8) sum;
  b[13] = (guint8) (sum >> 8);
  b[14] = (guint8) (sum >> 16);
  b[15] = (guint8) (sum >> 24);
  etl_guid_read (g, b);
}

static void
test_path (void)
{
  static const struct
  {
    guint8 head[12];
    gsize n;
    const char *path;
  } cases[] = {
    { { 0x00 }, 1, "//" },
    { { 0x10 }, 1, "//1/" },
    { { 0x12, 0x5A }, 2, "//1/2/5/10/" },
    { { 0x1D, 0x2C, 0x01 }, 3, "//1/300/" },             /* MultiByte2 in a low nibble */
    { { 0xC7, 0xD0 }, 2, "//2000/" },                    /* MultiByte1 high, its low nibble the high bits */
    { { 0x1B, 0xC0, 0x05 }, 3, "//1$5/" },                 /* PrefixCode then MultiByte1: an overflow id */
    { { 0xF0, 0x78, 0x56, 0x34, 0x12 }, 5, "//305419896/" }, /* MultiByte4 */
    { { 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x1E }, 12,
      "//1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/1/" }, /* the last number cut by the end */
  };
  char out[ETL_ACTIVITY_PATH_MAX];
  EtlGuid g;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      guid_from_head (&g, cases[i].head, cases[i].n, TRUE);
      g_assert_true (etl_activity_id_to_path (&g, out));
      g_assert_cmpstr (out, ==, cases[i].path);
      guid_from_head (&g, cases[i].head, cases[i].n, FALSE);
      g_assert_false (etl_activity_id_to_path (&g, out));
      g_assert_cmpstr (out, ==, "");
    }
  /* PrefixCode followed by a code below MultiByte1: not understood. */
  guid_from_head (&g, (const guint8[]){ 0x1B, 0x30 }, 2, TRUE);
  g_assert_false (etl_activity_id_to_path (&g, out));
  /* A TPL ActivityId (net.4.5.2.x64.etl) is no path. */
  etl_guid_parse ("00000006-0001-0000-940f-0000ffdcd7b5", &g);
  g_assert_false (etl_activity_id_to_path (&g, out));
  /* Arbitrary heads: the path stays in bounds and ends with '/'. */
  for (guint32 v = 0; v < (1u << 16); v += 7)
    {
      guint8 head[12];

      for (guint k = 0; k < 12; k++)
        head[k] = (guint8) (v * (k + 1) + (v >> (k % 8)));
      guid_from_head (&g, head, 12, TRUE);
      if (etl_activity_id_to_path (&g, out))
        {
          g_assert_cmpuint (strlen (out), <, ETL_ACTIVITY_PATH_MAX);
          g_assert_true (g_str_has_suffix (out, "/"));
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Statistics                                                               */

static int
compare_i64 (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

static void
test_stats (void)
{
  gint64 odd[] = { 50, 10, 40, 20, 30 };
  gint64 even[] = { 4, 1, 3, 2 };
  EtlIntervalStats s;
  g_autofree gint64 *big = g_new (gint64, 1000003);
  g_autofree gint64 *ref = g_new (gint64, 1000003);
  GRand *rand = g_rand_new_with_seed (42);

  etl_interval_stats_compute (odd, G_N_ELEMENTS (odd), &s);
  g_assert_cmpuint (s.count, ==, 5);
  g_assert_cmpint (s.total, ==, 150);
  g_assert_cmpfloat (s.mean, ==, 30.0);
  g_assert_cmpfloat (s.median, ==, 30.0);
  g_assert_cmpint (s.p90, ==, 50); /* ⌈4.5⌉ = 5th */
  g_assert_cmpint (s.p99, ==, 50);
  g_assert_cmpint (s.max, ==, 50);
  g_assert_cmpint (odd[0], ==, 10);

  /* Nearest rank where p × n is a whole number: the 9th of 10, not the 10th. */
  {
    gint64 ten[] = { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 };

    etl_interval_stats_compute (ten, G_N_ELEMENTS (ten), &s);
    g_assert_cmpint (s.p90, ==, 9);
    g_assert_cmpint (s.p99, ==, 10);
    g_assert_cmpfloat (s.median, ==, 5.5);
    g_assert_cmpint (etl_interval_stats_percentile (ten, 10, 500), ==, 5);
  }

  etl_interval_stats_compute (even, G_N_ELEMENTS (even), &s);
  g_assert_cmpfloat (s.median, ==, 2.5);
  g_assert_cmpint (s.p90, ==, 4);

  etl_interval_stats_compute (NULL, 0, &s);
  g_assert_cmpuint (s.count, ==, 0);
  g_assert_cmpint (s.max, ==, 0);

  /* A million durations over 40 bits: the radix sort against qsort(). */
  for (guint i = 0; i < 1000003; i++)
    big[i] = ref[i] = (gint64) (((guint64) g_rand_int (rand) << 8) ^ g_rand_int_range (rand, 0, 1 << 20));
  g_rand_free (rand);
  qsort (ref, 1000003, sizeof (gint64), compare_i64);
  etl_interval_stats_compute (big, 1000003, &s);
  g_assert_cmpmem (big, 1000003 * sizeof (gint64), ref, 1000003 * sizeof (gint64));
  g_assert_cmpint (s.p90, ==, ref[900002]); /* ⌈0.9 × 1000003⌉ = 900003rd */
  g_assert_cmpint (s.p99, ==, ref[990002]);
  g_assert_cmpfloat (s.median, ==, (double) ref[500001]);
  g_assert_cmpint (s.max, ==, ref[1000002]);
}

/* ------------------------------------------------------------------------ */
/* dump: TPL ActivityIds in net.4.5.2.x64.etl                               */

static void
test_dump_ids (void)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus ("net.4.5.2.x64.etl");
  g_autoptr (GString) line = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_auto (EtlRecord) r = { 0 };

  if (trace == NULL)
    return;
  /* TaskScheduled/Send: a RelatedActivityId, no ActivityId. */
  g_assert_true (etl_dump_append_record (line, trace, NULL, ETL_DUMP_JSONL, 0, 135010, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (line->str, ",\"related_activity_id\":\"00000006-0001-0000-940f-0000ffdcd7b5\""));
  g_assert_null (strstr (line->str, "\"activity_id\""));
  /* TaskExecute/Start: the ActivityId of the task scheduled above. */
  g_string_truncate (line, 0);
  g_assert_true (etl_dump_append_record (line, trace, NULL, ETL_DUMP_JSONL, 0, 135021, &error));
  g_assert_nonnull (strstr (line->str, ",\"flags\":1,\"activity_id\":\"00000006-0001-0000-940f-0000ffdcd7b5\",\"data_len\""));
  g_assert_null (strstr (line->str, "related_activity_id"));
  /* The same from the record itself. */
  g_assert_true (etl_trace_get_record (trace, 135021, &r, &error));
  g_assert_true (r.has_activity_id);
}

/* ------------------------------------------------------------------------ */
/* Hostile extended items; cancellation                                     */

static void
test_hostile (void)
{
  guint8 ext[64];
  EtlRecord r = { 0 };
  const guint8 *data;
  gsize len;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  char *path;

  /* A RelatedActivityId item claiming 65535 bytes in a 24-byte item: not found. */
  memset (ext, 0, sizeof ext);
  ext[0] = 24;       /* item size */
  ext[2] = ETL_EXT_TYPE_RELATED_ACTIVITYID;
  ext[6] = 0xFF;     /* data size 65535 */
  ext[7] = 0xFF;
  r.ext = ext;
  r.ext_len = 24;
  g_assert_false (etl_record_find_ext_item (&r, ETL_EXT_TYPE_RELATED_ACTIVITYID, &data, &len));
  /* An item larger than the extended data: not found either. */
  ext[0] = 0xF0;
  ext[6] = 16;
  ext[7] = 0;
  g_assert_false (etl_record_find_ext_item (&r, ETL_EXT_TYPE_RELATED_ACTIVITYID, &data, &len));
  /* A sane one is. */
  ext[0] = 24;
  g_assert_true (etl_record_find_ext_item (&r, ETL_EXT_TYPE_RELATED_ACTIVITYID, &data, &len));
  g_assert_cmpuint (len, ==, 16);

  /* Cancelled before it starts: NULL and G_IO_ERROR_CANCELLED. */
  path = write_scenario (&dir);
  {
    g_autoptr (EtlTrace) trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    g_cancellable_cancel (cancellable);
    g_assert_null (etl_activities_new (trace, cancellable, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }
  remove_scenario (g_steal_pointer (&dir), path);
}

/* ------------------------------------------------------------------------ */
/* Names and opcodes against the decoder and the full record               */

/* Every activity of @name's corpus file is called as the decoder has it:
 * the Start's task name (else its event name without "Start"), then
 * "(first field)" when that field is a string (cut at 127 bytes); and
 * etl_trace_get_opcode() gives every record's opcode. */
static void
check_names_and_opcodes (const char *name)
{
  g_autoptr (EtlTrace) trace = etl_test_open_corpus (name);
  g_autoptr (EtlActivities) acts = NULL;
  g_autoptr (GError) error = NULL;
  const EtlActivity *a;
  guint n, n_with_string = 0;
  guint64 n_records;

  if (trace == NULL)
    return;
  acts = etl_activities_new (trace, NULL, &error);
  g_assert_no_error (error);
  a = etl_activities_get (acts, &n);
  for (guint i = 0; i < n; i++)
    {
      g_auto (EtlRecord) r = { 0 };
      g_autoptr (EtlDecoded) d = NULL;
      g_autoptr (GString) want = g_string_new (NULL);

      g_assert_true (etl_trace_get_record (trace, a[i].start_record, &r, NULL));
      d = etl_trace_decode_record (trace, &r);
      if (d->schema != NULL && d->schema->task_name != NULL && d->schema->task_name[0] != '\0')
        g_string_append (want, d->schema->task_name);
      else if (d->schema != NULL && d->schema->event_name != NULL && d->schema->event_name[0] != '\0')
        {
          g_string_append (want, d->schema->event_name);
          if (g_str_has_suffix (want->str, "Start") && want->len > 5)
            g_string_truncate (want, want->len - 5);
        }
      else
        g_string_append_printf (want, "Task %u", r.task);
      g_assert_cmpstr (etl_activities_get_string (acts, a[i].task_name), ==, want->str);
      if (d->fields->len > 0)
        {
          const EtlField *f = &g_array_index (d->fields, EtlField, 0);

          if ((f->in_type == ETL_IN_UNICODESTRING || f->in_type == ETL_IN_ANSISTRING) && f->value[0] != '\0')
            {
              gsize cut = MIN (strlen (f->value), 127);

              while (cut > 0 && ((guchar) f->value[cut] & 0xC0) == 0x80 && cut < strlen (f->value))
                cut--;
              g_string_append_c (want, '(');
              g_string_append_len (want, f->value, (gssize) cut);
              g_string_append_c (want, ')');
              n_with_string++;
            }
        }
      g_assert_cmpstr (etl_activities_get_string (acts, a[i].name), ==, want->str);
    }
  g_test_message ("%s: %u activities, %u named with a string", name, n, n_with_string);

  n_records = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n_records; i++)
    {
      g_auto (EtlRecord) r = { 0 };
      guint8 opcode;

      if (!etl_trace_get_record (trace, i, &r, NULL) || r.kind == ETL_RECORD_KIND_WPP)
        continue;
      g_assert_true (etl_trace_get_opcode (trace, i, &opcode));
      g_assert_cmpuint (opcode, ==, r.opcode);
    }
}

static void
test_names_and_opcodes (void)
{
  check_names_and_opcodes ("real/msbuild_PerfViewData.etl");
  check_names_and_opcodes ("net.4.5.2.x64.etl");
  check_names_and_opcodes ("real/hw3d_trace.etl");
  check_names_and_opcodes ("real/sonde_test.etl");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/activities/synth", test_synth);
  g_test_add_func ("/etl/activities/msbuild", test_msbuild);
  g_test_add_func ("/etl/activities/duplicate-starts", test_duplicate_starts);
  g_test_add_func ("/etl/activities/rules", test_rules);
  g_test_add_func ("/etl/activities/many-unpaired", test_many_unpaired);
  g_test_add_func ("/etl/activities/path", test_path);
  g_test_add_func ("/etl/activities/stats", test_stats);
  g_test_add_func ("/etl/activities/dump-ids", test_dump_ids);
  g_test_add_func ("/etl/activities/hostile", test_hostile);
  g_test_add_func ("/etl/activities/names-and-opcodes", test_names_and_opcodes);
  return g_test_run ();
}
