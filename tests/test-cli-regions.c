/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-cli-regions: `etlscope-cli synth --activities` then `etlscope-cli
 * regions` on what it wrote, against the scenario of etl-synth-activities.c
 * (the figures test-activities.c checks in the model, here through the
 * JSON: ms from the trace's start); --name and --by-task; the Target and
 * ExecuteTask regions of real/msbuild_PerfViewData.etl; usage errors (exit
 * status 2 and a line naming the problem).
 * builtin-net452: `regions --builtin gc,disk` on net.4.5.2.x64.etl: the
 * GC regions and every GC instance against `dump`'s GCStart/GCEnd lines
 * (the first Start of each process and Count to its Stop, computed here),
 * the pauses, the disk regions (TraceEvent's baseline counts), instance
 * numbering after the activities, and `builtin_counts`.
 * builtin-synth: `synth --builtin-spans` then `regions --builtin file,disk`:
 * the FileIo and DiskIo regions of etl-synth-spans.c's scenario.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "etl-test-util.h"

typedef struct
{
  int status;
  char *out;
  char *err;
} CliRun;

static void
cli_run_clear (CliRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

static void
run_cli (CliRun *run, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer) a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  proc = etl_test_subprocess_newv ((const char *const *) argv->pdata,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  run->status = g_subprocess_get_exit_status (proc);
}

/* Parses a successful run's JSON. (transfer full) */
static JsonNode *
parse_ok (CliRun *run)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  g_assert_cmpstr (run->err, ==, "");
  g_assert_cmpint (run->status, ==, 0);
  json_parser_load_from_data (parser, run->out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static JsonObject *
find_by_name (JsonArray *array, const char *name)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *o = json_array_get_object_element (array, i);

      if (strcmp (json_object_get_string_member (o, "name"), name) == 0)
        return o;
    }
  g_assert_not_reached ();
  return NULL;
}

#define assert_ms(o, member, want) g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, member), want, 1e-9)

static void
test_synth (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cli-regions-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "activities.etl", NULL);
  g_autoptr (JsonNode) root = NULL;
  CliRun run = { 0 };
  JsonObject *o, *r, *inst, *counts;
  JsonArray *regions, *instances, *stops;

  g_assert_no_error (error);
  run_cli (&run, "synth", "--activities", "-o", path, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  cli_run_clear (&run);

  run_cli (&run, "regions", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  o = json_node_get_object (root);
  regions = json_object_get_array_member (o, "regions");
  instances = json_object_get_array_member (o, "instances");
  stops = json_object_get_array_member (o, "unmatched_stops");
  g_assert_cmpuint (json_array_get_length (regions), ==, 12); /* 10 names, Orphan, Query */
  g_assert_cmpuint (json_array_get_length (instances), ==, 10);
  g_assert_cmpuint (json_array_get_length (stops), ==, 2);

  r = find_by_name (regions, "Request(beta)");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 1);
  assert_ms (r, "total_ms", 2.5);
  assert_ms (r, "mean_ms", 2.5);
  assert_ms (r, "median_ms", 2.5);
  assert_ms (r, "p90_ms", 2.5);
  assert_ms (r, "p99_ms", 2.5);
  assert_ms (r, "max_ms", 2.5);
  g_assert_cmpint (json_object_get_int_member (r, "open"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (r, "unmatched_stops"), ==, 0);
  r = find_by_name (regions, "Job(first)");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (r, "open"), ==, 1);
  assert_ms (r, "total_ms", 0.0);
  r = find_by_name (regions, "Orphan");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (r, "unmatched_stops"), ==, 1);

  /* Query(q1): on thread 1008, under Request(beta) (instance 3) by its RelatedActivityId. */
  inst = json_array_get_object_element (instances, 4);
  g_assert_cmpstr (json_object_get_string_member (inst, "name"), ==, "Query(q1)");
  g_assert_cmpstr (json_object_get_string_member (inst, "task_name"), ==, "Query");
  assert_ms (inst, "start_ms", 4.5);
  assert_ms (inst, "duration_ms", 1.5);
  g_assert_cmpint (json_object_get_int_member (inst, "pid"), ==, 1000);
  g_assert_cmpint (json_object_get_int_member (inst, "tid"), ==, 1008);
  g_assert_cmpint (json_object_get_int_member (inst, "depth"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (inst, "parent"), ==, 3);
  g_assert_cmpstr (json_object_get_string_member (inst, "activity_id"), ==, "00012c1d-0000-0000-0000-0000cac59e59");
  g_assert_cmpstr (json_object_get_string_member (inst, "activity_path"), ==, "//1/300/");
  g_assert_cmpint (json_object_get_int_member (inst, "start_record"), ==, 9);
  g_assert_cmpint (json_object_get_int_member (inst, "stop_record"), ==, 12);
  g_assert_false (json_object_get_boolean_member (inst, "open"));
  /* Lonely(never): open, to the trace's end at 10 ms. */
  inst = json_array_get_object_element (instances, 8);
  g_assert_cmpstr (json_object_get_string_member (inst, "name"), ==, "Lonely(never)");
  assert_ms (inst, "duration_ms", 1.5);
  g_assert_true (json_object_get_boolean_member (inst, "open"));
  g_assert_true (json_object_get_null_member (inst, "parent"));
  g_assert_true (json_object_get_null_member (inst, "activity_id"));
  g_assert_true (json_object_get_null_member (inst, "stop_record"));
  /* Job(first): abandoned by the reuse of its ActivityId. */
  inst = json_array_get_object_element (instances, 6);
  g_assert_true (json_object_get_boolean_member (inst, "abandoned"));
  g_assert_true (json_object_get_null_member (inst, "activity_path"));

  r = json_array_get_object_element (stops, 0);
  g_assert_cmpstr (json_object_get_string_member (r, "name"), ==, "Orphan");
  assert_ms (r, "time_ms", 9.0);
  g_assert_cmpint (json_object_get_int_member (r, "record"), ==, 18);
  counts = json_object_get_object_member (o, "counts");
  g_assert_cmpint (json_object_get_int_member (counts, "starts"), ==, 10);
  g_assert_cmpint (json_object_get_int_member (counts, "paired"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (counts, "abandoned"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (counts, "bad_related_id"), ==, 1);
  g_clear_pointer (&root, json_node_unref);

  /* --by-task --name Step: one region of the four Steps; its instances only. */
  run_cli (&run, "regions", "--by-task", "--name", "Step", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  o = json_node_get_object (root);
  regions = json_object_get_array_member (o, "regions");
  g_assert_cmpuint (json_array_get_length (regions), ==, 1);
  r = json_array_get_object_element (regions, 0);
  g_assert_cmpstr (json_object_get_string_member (r, "name"), ==, "Step");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 4);
  assert_ms (r, "total_ms", 1.7);
  assert_ms (r, "mean_ms", 0.425);
  assert_ms (r, "median_ms", 0.4);
  assert_ms (r, "p90_ms", 0.7);
  assert_ms (r, "max_ms", 0.7);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "instances")), ==, 4);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "unmatched_stops")), ==, 0);
  g_clear_pointer (&root, json_node_unref);

  /* --name of a task name without --by-task: every region of that task. */
  run_cli (&run, "regions", "--name", "Request", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  o = json_node_get_object (root);
  regions = json_object_get_array_member (o, "regions");
  g_assert_cmpuint (json_array_get_length (regions), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (regions, 0), "name"), ==,
                   "Request(alpha)");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (regions, 1), "name"), ==,
                   "Request(beta)");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "instances")), ==, 2);
  g_clear_pointer (&root, json_node_unref);

  /* --name of a full name. */
  run_cli (&run, "regions", "--name", "Step(s2)", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  o = json_node_get_object (root);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "regions")), ==, 1);
  instances = json_object_get_array_member (o, "instances");
  g_assert_cmpuint (json_array_get_length (instances), ==, 1);
  inst = json_array_get_object_element (instances, 0);
  g_assert_cmpint (json_object_get_int_member (inst, "index"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (inst, "parent"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (inst, "depth"), ==, 2);
  assert_ms (inst, "duration_ms", 0.2);
  g_clear_pointer (&root, json_node_unref);

  g_remove (path);
  g_rmdir (dir);
}

static void
test_msbuild (void)
{
  g_autofree char *path = etl_test_corpus_path ("real/msbuild_PerfViewData.etl");
  g_autoptr (JsonNode) root = NULL;
  CliRun run = { 0 };
  JsonArray *regions;
  JsonObject *r;

  if (path == NULL)
    return;
  run_cli (&run, "regions", "--by-task", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  regions = json_object_get_array_member (json_node_get_object (root), "regions");
  r = find_by_name (regions, "Target");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 393);
  g_assert_cmpint (json_object_get_int_member (r, "open"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (r, "unmatched_stops"), ==, 3);
  g_assert_cmpfloat (json_object_get_double_member (r, "max_ms"), >=, json_object_get_double_member (r, "p99_ms"));
  g_assert_cmpfloat (json_object_get_double_member (r, "p99_ms"), >=, json_object_get_double_member (r, "p90_ms"));
  g_assert_cmpfloat (json_object_get_double_member (r, "p90_ms"), >=, json_object_get_double_member (r, "median_ms"));
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (r, "mean_ms") * 390,
                                  json_object_get_double_member (r, "total_ms"), 1e-6);
  r = find_by_name (regions, "ExecuteTask");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 678);
  r = find_by_name (regions, "EvaluateStop");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (r, "unmatched_stops"), ==, 6);
}

/* --regions: a Regions of Interest file pairing MSBuild's Target (event
 * 43/44) and Task (47/48) events, the Task nested in its thread's Target;
 * the counts are test-regions-file's (and the Start/Stop pairing's). */
static const char msbuild_roi[] =
  "<?xml version='1.0' encoding='utf-8'?>\n<InstrumentationManifest><Instrumentation><Regions>\n"
  "<RegionRoot Guid=\"{20000000-0000-0000-0000-000000000000}\" Name=\"MSBuild\">\n"
  "<Region Guid=\"{20000000-0000-0000-0000-000000000001}\" Name=\"MSBuild-Target\" FriendlyName=\"Target\">\n"
  " <Start><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"43\" Version=\"0\"/></Start>\n"
  " <Stop><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"44\" Version=\"0\"/></Stop>\n"
  " <Match><Event PID=\"true\" TID=\"true\"><Payload FieldName=\"targetName\"/></Event></Match>\n"
  " <Naming><PayloadBased NameField=\"targetName\"/></Naming>\n"
  " <Region Guid=\"{20000000-0000-0000-0000-000000000002}\" Name=\"MSBuild-Target-Task\" FriendlyName=\"Task\">\n"
  "  <Start><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"47\" Version=\"0\"/></Start>\n"
  "  <Stop><Event Provider=\"{d44a2098-821f-5808-4cea-1e24e982ca37}\" Id=\"48\" Version=\"0\"/></Stop>\n"
  "  <Match><Event PID=\"true\" TID=\"true\"><Payload FieldName=\"taskID\"/></Event>"
  "<Parent PID=\"true\" TID=\"true\"/></Match>\n"
  "  <Naming><PayloadBased NameField=\"taskName\"/></Naming>\n"
  " </Region>\n</Region>\n</RegionRoot></Regions></Instrumentation></InstrumentationManifest>\n";

static void
test_regions_file (void)
{
  g_autofree char *path = etl_test_corpus_path ("real/msbuild_PerfViewData.etl");
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *roi = NULL;
  g_autofree char *bad = NULL;
  g_autoptr (JsonNode) root = NULL;
  CliRun run = { 0 };
  JsonArray *regions, *instances;
  JsonObject *r;
  guint n_tasks = 0, n_nested = 0, n_targets = 0;

  if (path == NULL)
    return;
  dir = g_dir_make_tmp ("etlscope-cli-roi-XXXXXX", &error);
  g_assert_no_error (error);
  roi = g_build_filename (dir, "msbuild.regions.xml", NULL);
  bad = g_build_filename (dir, "bad.regions.xml", NULL);
  g_file_set_contents (roi, msbuild_roi, -1, &error);
  g_assert_no_error (error);
  g_file_set_contents (bad, "<InstrumentationManifest>\n<Instrumentation>\n<Regions>\n<RegionRoot Guid=\"{zz}\"",
                       -1, &error);
  g_assert_no_error (error);

  run_cli (&run, "regions", "--regions", roi, path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  regions = json_object_get_array_member (json_node_get_object (root), "regions");
  g_assert_cmpuint (json_array_get_length (regions), ==, 2);
  r = find_by_name (regions, "Target");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 393);
  g_assert_cmpint (json_object_get_int_member (r, "unmatched_stops"), ==, 5);
  g_assert_cmpfloat (json_object_get_double_member (r, "max_ms"), >=, json_object_get_double_member (r, "median_ms"));
  r = find_by_name (regions, "Task");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 678);
  instances = json_object_get_array_member (json_node_get_object (root), "instances");
  for (guint i = 0; i < json_array_get_length (instances); i++)
    {
      JsonObject *o = json_array_get_object_element (instances, i);

      if (strcmp (json_object_get_string_member (o, "region"), "Task") == 0)
        {
          n_tasks++;
          if (!json_object_get_null_member (o, "parent"))
            {
              JsonObject *parent = json_array_get_object_element (
                  instances, (guint) json_object_get_int_member (o, "parent"));

              g_assert_cmpstr (json_object_get_string_member (parent, "region"), ==, "Target");
              g_assert_cmpint (json_object_get_int_member (o, "depth"), ==, 1);
              n_nested++;
            }
        }
      else
        n_targets++;
    }
  g_assert_cmpuint (n_targets, ==, 393);
  g_assert_cmpuint (n_tasks, ==, 678);
  g_assert_cmpuint (n_nested, ==, 139); /* test-regions-file's containment scan */

  /* --name keeps one region. */
  g_clear_pointer (&root, json_node_unref);
  run_cli (&run, "regions", "--regions", roi, "--name", "Task", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  regions = json_object_get_array_member (json_node_get_object (root), "regions");
  g_assert_cmpuint (json_array_get_length (regions), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (root), "instances")),
                    ==, 678);

  /* A malformed file: exit 1, the file and its line named. */
  run_cli (&run, "regions", "--regions", bad, path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_nonnull (strstr (run.err, "bad.regions.xml:4"));
  cli_run_clear (&run);

  g_remove (roi);
  g_remove (bad);
  g_rmdir (dir);
}

static void
test_usage (void)
{
  CliRun run = { 0 };

  run_cli (&run, "regions", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "no FILE given"));
  g_assert_cmpstr (run.out, ==, "");
  cli_run_clear (&run);
  run_cli (&run, "regions", "--bogus", "x.etl", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--bogus"));
  cli_run_clear (&run);
  run_cli (&run, "regions", "/nonexistent/none.etl", NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "none.etl"));
  cli_run_clear (&run);
  run_cli (&run, "synth", "--activity-pairs", "5", "-o", "/nonexistent/x.etl", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "--activity-pairs needs --activities"));
  cli_run_clear (&run);
}

/* The GCs of `dump`'s lines: (pid, Count) → first GCStart rel_ms, GCEnd
 * rel_ms, Depth. */
typedef struct
{
  double start_ms, stop_ms;
  gint64 depth;
  gboolean stopped;
} DumpGc;

static void
test_builtin_net452 (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (GHashTable) gcs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (JsonNode) root = NULL;
  CliRun run = { 0 };
  JsonObject *top, *r, *counts;
  JsonArray *regions, *instances;
  guint n_gc = 0, n_acts = 0, first_builtin = G_MAXUINT, n_pause_parent = 0;
  const char *next, *end;

  if (path == NULL)
    return;
  run_cli (&run, "dump", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  /* 158 MB of lines, walked with their lengths (g_strsplit()'s strstr() per
   * line is quadratic under AddressSanitizer, which measures the rest of
   * the string at every call). */
  end = run.out + strlen (run.out);
  for (const char *line = run.out; line < end; line = next)
    {
      const char *nl = memchr (line, '\n', (gsize) (end - line));
      gsize len = nl != NULL ? (gsize) (nl - line) : (gsize) (end - line);
      g_autoptr (JsonParser) parser = NULL;
      JsonObject *o, *fields;
      gint64 id;
      char key[64];
      DumpGc *g;

      next = line + len + 1;
      if (g_strstr_len (line, (gssize) len, "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4") == NULL)
        continue;
      parser = json_parser_new ();
      g_assert_true (json_parser_load_from_data (parser, line, (gssize) len, NULL));
      o = json_node_get_object (json_parser_get_root (parser));
      id = json_object_get_int_member (o, "event_id");
      if (id != 1 && id != 2)
        continue;
      fields = json_object_get_object_member (o, "fields");
      g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT "/%s", json_object_get_int_member (o, "pid"),
                  json_object_get_string_member (fields, "Count"));
      g = g_hash_table_lookup (gcs, key);
      if (id == 1 && g == NULL)
        {
          g = g_new0 (DumpGc, 1);
          g->start_ms = json_object_get_double_member (o, "rel_ms");
          g->depth = g_ascii_strtoll (json_object_get_string_member (fields, "Depth"), NULL, 10);
          g_hash_table_insert (gcs, g_strdup (key), g);
        }
      else if (id == 2)
        {
          g_assert_nonnull (g);
          g->stop_ms = json_object_get_double_member (o, "rel_ms");
          g->stopped = TRUE;
        }
    }
  cli_run_clear (&run);
  g_assert_cmpuint (g_hash_table_size (gcs), ==, 264);

  run_cli (&run, "regions", "--builtin", "gc,disk", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  top = json_node_get_object (root);
  regions = json_object_get_array_member (top, "regions");
  r = find_by_name (regions, "GC gen 0");
  g_assert_cmpstr (json_object_get_string_member (r, "kind"), ==, "gc");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 263);
  g_assert_cmpint (json_object_get_int_member (r, "open"), ==, 0);
  r = find_by_name (regions, "GC gen 1");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 1);
  r = find_by_name (regions, "GC pause");
  g_assert_cmpstr (json_object_get_string_member (r, "kind"), ==, "gc-pause");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 265);
  assert_ms (r, "max_ms", 10.8771);
  g_assert_cmpint (json_object_get_int_member (find_by_name (regions, "Disk Read"), "count"), ==, 1208);
  g_assert_cmpint (json_object_get_int_member (find_by_name (regions, "Disk Write"), "count"), ==, 21);
  g_assert_cmpint (json_object_get_int_member (find_by_name (regions, "Disk Flush"), "count"), ==, 2);
  r = find_by_name (regions, "ImmersiveShellAppManagerSetActiveProcess");
  g_assert_cmpstr (json_object_get_string_member (r, "kind"), ==, "activity");

  instances = json_object_get_array_member (top, "instances");
  for (guint i = 0; i < json_array_get_length (instances); i++)
    {
      JsonObject *o = json_array_get_object_element (instances, i);
      const char *kind = json_object_get_string_member (o, "kind");
      char key[64];
      const DumpGc *g;

      g_assert_cmpint (json_object_get_int_member (o, "index"), ==, i);
      if (strcmp (kind, "activity") == 0)
        {
          g_assert_cmpuint (first_builtin, ==, G_MAXUINT); /* the activities come first */
          n_acts++;
          continue;
        }
      first_builtin = MIN (first_builtin, i);
      if (strcmp (kind, "gc") != 0)
        continue;
      n_gc++;
      g_snprintf (key, sizeof key, "%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, json_object_get_int_member (o, "pid"),
                  json_object_get_int_member (o, "gc_count"));
      g = g_hash_table_lookup (gcs, key);
      g_assert_nonnull (g);
      g_assert_true (g->stopped);
      g_assert_cmpint (json_object_get_int_member (o, "generation"), ==, g->depth);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "start_ms"), g->start_ms, 1e-3);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "duration_ms"), g->stop_ms - g->start_ms, 2e-4);
      if (!json_object_get_null_member (o, "parent"))
        {
          JsonObject *p = json_array_get_object_element (instances, (guint) json_object_get_int_member (o, "parent"));

          g_assert_cmpstr (json_object_get_string_member (p, "kind"), ==, "gc-pause");
          n_pause_parent++;
        }
    }
  g_assert_cmpuint (n_gc, ==, 264);
  g_assert_cmpuint (n_pause_parent, ==, 264); /* every GC of this trace is blocking: inside its pause */
  g_assert_cmpuint (first_builtin, ==, n_acts);
  counts = json_object_get_object_member (top, "builtin_counts");
  g_assert_cmpint (json_object_get_int_member (counts, "duplicate_gc_starts"), ==, 264);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (counts, "paired"), "disk"), ==, 1231);

  run_cli (&run, "regions", "--builtin", "gc,bogus", path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "bogus"));
  g_assert_cmpstr (run.out, ==, "");
  cli_run_clear (&run);
}

static void
test_builtin_synth (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cli-spans-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "spans.etl", NULL);
  g_autoptr (JsonNode) root = NULL;
  CliRun run = { 0 };
  JsonArray *regions, *unmatched;
  JsonObject *r;

  g_assert_no_error (error);
  run_cli (&run, "synth", "--builtin-spans", "-o", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  cli_run_clear (&run);
  run_cli (&run, "regions", "--builtin", "file,disk", path, NULL);
  root = parse_ok (&run);
  cli_run_clear (&run);
  regions = json_object_get_array_member (json_node_get_object (root), "regions");
  g_assert_cmpuint (json_array_get_length (regions), ==, 7);
  r = find_by_name (regions, "File Read");
  g_assert_cmpstr (json_object_get_string_member (r, "kind"), ==, "file");
  g_assert_cmpint (json_object_get_int_member (r, "count"), ==, 1);
  assert_ms (r, "total_ms", 0.4);
  r = find_by_name (regions, "File Write");
  g_assert_cmpint (json_object_get_int_member (r, "open"), ==, 1);
  r = find_by_name (regions, "Disk Write");
  assert_ms (r, "max_ms", 1.0);
  r = find_by_name (regions, "File OpEnd");
  g_assert_cmpint (json_object_get_int_member (r, "unmatched_stops"), ==, 1);
  unmatched = json_object_get_array_member (json_node_get_object (root), "unmatched_stops");
  g_assert_cmpuint (json_array_get_length (unmatched), ==, 1);
  g_remove (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/cli-regions/synth", test_synth);
  g_test_add_func ("/etl/cli-regions/msbuild", test_msbuild);
  g_test_add_func ("/etl/cli-regions/regions-file", test_regions_file);
  g_test_add_func ("/etl/cli-regions/usage", test_usage);
  g_test_add_func ("/etl/cli-regions/builtin-net452", test_builtin_net452);
  g_test_add_func ("/etl/cli-regions/builtin-synth", test_builtin_synth);
  return g_test_run ();
}
