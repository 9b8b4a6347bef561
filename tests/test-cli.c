/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-cli: etlscope-cli as scripts use it: info's JSON fields, dump sorted by
 * filetime and summed over several files with the right `file` on each, CSV,
 * stats and losses, and exit status 1 with one line naming the file and the
 * offset for truncated, empty and random-byte files.
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

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
  g_free (run->out);
  g_free (run->err);
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

static JsonNode *
parse_json (const char *text)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_info (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o, *by_type, *mode;
  CliRun run = { 0 };

  if (path == NULL)
    return;
  run_cli (&run, "info", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpstr (run.err, ==, "");
  root = parse_json (run.out);
  g_assert_cmpuint (json_array_get_length (json_node_get_array (root)), ==, 1);
  o = json_array_get_object_element (json_node_get_array (root), 0);
  g_assert_cmpstr (json_object_get_string_member (o, "path"), ==, path);
  g_assert_cmpstr (json_object_get_string_member (o, "logger_name"), ==, "Relogger");
  g_assert_cmpstr (json_object_get_string_member (o, "log_file_name"), ==, "[multiple files]");
  g_assert_cmpint (json_object_get_int_member (o, "buffer_size"), ==, 65536);
  g_assert_cmpint (json_object_get_int_member (o, "pointer_size"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (o, "number_of_processors"), ==, 8);
  g_assert_cmpint (json_object_get_int_member (o, "perf_freq"), ==, 10000000);
  g_assert_cmpint (json_object_get_int_member (o, "clock_type"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (o, "cpu_speed_mhz"), ==, 3592);
  g_assert_cmpint (json_object_get_int_member (o, "timer_resolution"), ==, 156250);
  g_assert_cmpint (json_object_get_int_member (o, "buffers_written"), ==, 360);
  g_assert_cmpint (json_object_get_int_member (o, "events_lost"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "buffers_lost"), ==, 0);
  g_assert_true (json_object_get_boolean_member (o, "compressed"));
  g_assert_cmpint (json_object_get_int_member (o, "records"), ==, 179474);
  g_assert_cmpint (json_object_get_int_member (o, "buffers"), ==, 360);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (o, "start_time_iso"), "2020-07-29T"));
  g_assert_true (g_str_has_suffix (json_object_get_string_member (o, "start_time_iso"), "Z"));
  g_assert_cmpint (json_object_get_int_member (o, "start_time"), <, json_object_get_int_member (o, "end_time"));
  by_type = json_object_get_object_member (o, "records_by_header_type");
  g_assert_cmpint (json_object_get_int_member (by_type, "17"), ==, 100157);
  g_assert_cmpint (json_object_get_int_member (by_type, "20"), ==, 7956);
  mode = json_object_get_object_member (o, "log_file_mode");
  g_assert_cmpint (json_object_get_int_member (mode, "value"), ==, 0x4010001);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (mode, "flags")), ==, 3);
  cli_run_clear (&run);
}

/* Dumps and checks sortedness; returns the records per file. */
static guint
check_dump_sorted (const char *out, guint *per_file, guint n_files)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  gint64 last = G_MININT64;
  guint n = 0;

  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      g_autoptr (JsonNode) node = parse_json (lines[i]);
      JsonObject *o = json_node_get_object (node);
      gint64 ft = json_object_get_int_member (o, "filetime");
      gint64 file = json_object_get_int_member (o, "file");

      g_assert_cmpint (ft, >=, last);
      last = ft;
      g_assert_cmpint (file, >=, 0);
      g_assert_cmpint (file, <, n_files);
      per_file[file]++;
      g_assert_true (json_object_has_member (o, "rel_ms"));
      g_assert_true (json_object_has_member (o, "data_len"));
      g_assert_true (json_object_has_member (o, "provider"));
      g_assert_true (json_object_has_member (o, "name"));
      n++;
    }
  return n;
}

static void
test_dump_multi (void)
{
  g_autofree char *a = etl_test_corpus_path ("gcevents.etl");
  g_autofree char *b = etl_test_corpus_path ("AMSITrace.etl");
  g_autofree char *c = etl_test_corpus_path ("primitive-types.etl");
  guint per_file[3] = { 0 };
  CliRun run = { 0 };

  if (!a || !b || !c)
    return;
  run_cli (&run, "dump", a, b, c, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_cmpuint (check_dump_sorted (run.out, per_file, 3), ==, 71 + 21 + 7);
  g_assert_cmpuint (per_file[0], ==, 71);
  g_assert_cmpuint (per_file[1], ==, 21);
  g_assert_cmpuint (per_file[2], ==, 7);
  cli_run_clear (&run);
}

static void
test_dump_fields (void)
{
  g_autofree char *path = etl_test_corpus_path ("primitive-types.etl");
  g_auto (GStrv) lines = NULL;
  g_autoptr (JsonNode) header = NULL;
  g_autoptr (JsonNode) event = NULL;
  JsonObject *o;
  CliRun run = { 0 };

  if (path == NULL)
    return;
  run_cli (&run, "dump", "--limit", "3", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4); /* three lines and the final empty string */

  header = parse_json (lines[0]);
  o = json_node_get_object (header);
  g_assert_cmpint (json_object_get_int_member (o, "header_type"), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, "kernel");
  g_assert_cmpfloat (json_object_get_double_member (o, "rel_ms"), ==, 0.0);

  event = parse_json (lines[2]);
  o = json_node_get_object (event);
  g_assert_cmpint (json_object_get_int_member (o, "cpu"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (o, "pid"), ==, 33984);
  g_assert_cmpint (json_object_get_int_member (o, "tid"), ==, 21768);
  g_assert_cmpint (json_object_get_int_member (o, "ts_raw"), ==, G_GINT64_CONSTANT (2603617064262));
  g_assert_cmpint (json_object_get_int_member (o, "data_len"), ==, 78);
  g_assert_cmpstr (json_object_get_string_member (o, "kind"), ==, "tracelogging");
  g_assert_cmpstr (json_object_get_string_member (o, "provider_name"), ==, "solar_system");
  g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "PrimitiveTypesTest");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "rel_ms"), 2942.3057, 0.00011);
  cli_run_clear (&run);
}

static void
test_dump_perfinfo_null_pid (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_auto (GStrv) lines = NULL;
  guint perfinfo = 0;
  CliRun run = { 0 };

  if (path == NULL)
    return;
  run_cli (&run, "dump", "--format=csv", "--limit", "200", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "index,file,cpu,ts_raw,filetime,rel_ms,header_type,kind,pid,tid,"));
  for (guint i = 1; lines[i] && lines[i][0]; i++)
    {
      g_auto (GStrv) cols = g_strsplit (lines[i], ",", -1);

      if (g_strcmp0 (cols[7], "perfinfo") == 0)
        {
          g_assert_cmpstr (cols[8], ==, "");
          g_assert_cmpstr (cols[9], ==, "");
          perfinfo++;
        }
    }
  g_assert_cmpuint (perfinfo, >, 0);
  cli_run_clear (&run);
}

/* Decoded names, process, task/opcode/level/keyword names and fields. */
static void
test_dump_decoded (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_auto (GStrv) lines = NULL;
  gboolean seen_header = FALSE, seen_process_start = FALSE, seen_image_load = FALSE;
  CliRun run = { 0 };

  if (path == NULL)
    return;
  run_cli (&run, "dump", "--limit", "30000", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  lines = g_strsplit (run.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 30001);
  for (guint i = 0; lines[i] && lines[i][0]; i++)
    {
      g_autoptr (JsonNode) node = parse_json (lines[i]);
      JsonObject *o = json_node_get_object (node);
      JsonObject *fields;

      g_assert_true (json_object_has_member (o, "process_name"));
      g_assert_true (json_object_has_member (o, "task_name"));
      g_assert_true (json_object_has_member (o, "opcode_name"));
      g_assert_true (json_object_has_member (o, "level_name"));
      g_assert_true (json_object_has_member (o, "keyword_names"));
      fields = json_object_get_object_member (o, "fields");
      g_assert_nonnull (fields);
      if (i == 0)
        {
          /* The EventTrace header: MOF EventTrace_Header, logged by PerfView. */
          g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "EventTrace");
          g_assert_cmpstr (json_object_get_string_member (o, "process_name"), ==, "PerfView.exe");
          g_assert_cmpstr (json_object_get_string_member (fields, "BufferSize"), ==, "65536");
          g_assert_cmpstr (json_object_get_string_member (fields, "PointerSize"), ==, "8");
          seen_header = TRUE;
        }
      if (json_object_get_int_member (o, "index") == 29324)
        {
          /* Microsoft-Windows-Kernel-Process ProcessStart, logged by cmd.exe for Test.x64.exe. */
          JsonArray *keywords = json_object_get_array_member (o, "keyword_names");

          g_assert_cmpstr (json_object_get_string_member (o, "provider_name"), ==, "Microsoft-Windows-Kernel-Process");
          g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "ProcessStart/Start");
          g_assert_cmpstr (json_object_get_string_member (o, "task_name"), ==, "ProcessStart");
          g_assert_cmpstr (json_object_get_string_member (o, "opcode_name"), ==, "Start");
          g_assert_cmpstr (json_object_get_string_member (o, "level_name"), ==, "Informational");
          g_assert_cmpuint (json_array_get_length (keywords), ==, 1);
          g_assert_cmpstr (json_array_get_string_element (keywords, 0), ==, "WINEVENT_KEYWORD_PROCESS");
          g_assert_cmpstr (json_object_get_string_member (o, "process_name"), ==, "cmd.exe");
          g_assert_cmpint (json_object_get_int_member (o, "process_id"), ==, 3508);
          g_assert_cmpstr (json_object_get_string_member (fields, "ProcessID"), ==, "3676");
          g_assert_cmpstr (json_object_get_string_member (fields, "ParentProcessID"), ==, "3508");
          g_assert_cmpstr (json_object_get_string_member (fields, "CreateTime"), ==, "2020-07-29T00:07:03.3564008Z");
          seen_process_start = TRUE;
        }
      if (g_strcmp0 (json_object_get_string_member (o, "name"), "Image/Load") == 0
          && json_object_get_int_member (o, "process_id") == 3676 && !seen_image_load)
        {
          /* A kernel record's process comes from its payload (ProcessId); its
           * NT path is shown as a DOS path (SysConfig VolumeMapping), \Device\Mup as UNC. */
          g_assert_cmpstr (json_object_get_string_member (o, "process_name"), ==, "Test.x64.exe");
          g_assert_true (g_str_has_prefix (json_object_get_string_member (fields, "FileName"), "\\\\DfsClient\\"));
          g_assert_true (json_object_has_member (fields, "BuildTime")); /* derived as TraceEvent does */
          seen_image_load = TRUE;
        }
    }
  g_assert_true (seen_header);
  g_assert_true (seen_process_start);
  g_assert_true (seen_image_load);
  cli_run_clear (&run);

  /* --no-fields leaves the fields out, nothing else. */
  run_cli (&run, "dump", "--no-fields", "--limit", "1", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  {
    g_autoptr (JsonNode) node = parse_json (run.out);
    JsonObject *o = json_node_get_object (node);

    g_assert_false (json_object_has_member (o, "fields"));
    g_assert_cmpstr (json_object_get_string_member (o, "name"), ==, "EventTrace");
  }
  cli_run_clear (&run);
}

/* --manifest names the events the trace has no metadata for. */
static void
test_manifest_option (void)
{
  g_autofree char *path = etl_test_corpus_path ("gcevents.etl");
  g_autofree char *manifest = etl_test_corpus_path ("manifests/ClrEtwAll.man");
  CliRun run = { 0 };

  if (path == NULL || manifest == NULL)
    return;
  run_cli (&run, "dump", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_null (strstr (run.out, "\"name\":\"GC/CreateSegment\""));
  g_assert_nonnull (strstr (run.out, "\"name\":\"Event(10)\""));
  cli_run_clear (&run);

  run_cli (&run, "dump", "--manifest", manifest, path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "\"name\":\"GC/CreateSegment\""));
  g_assert_nonnull (strstr (run.out, "\"name\":\"GC/AllocationTick\""));
  g_assert_nonnull (strstr (run.out, "\"Type\":\"SmallObjectHeap\""));
  cli_run_clear (&run);

  /* Every trace command takes it; a manifest that cannot be read fails with its reason. */
  run_cli (&run, "stats", "-m", manifest, "--manifest", manifest, path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  cli_run_clear (&run);
  run_cli (&run, "info", "--manifest", "/nonexistent/ClrEtwAll.man", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_nonnull (strstr (run.err, "/nonexistent/ClrEtwAll.man"));
  cli_run_clear (&run);
}

/* stats groups by process name and PID; processes prints the table. */
static void
test_processes (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (JsonNode) stats = NULL;
  g_autoptr (JsonNode) table = NULL;
  JsonObject *by_process;
  JsonArray *list;
  gboolean found = FALSE;
  CliRun run = { 0 };

  if (path == NULL)
    return;
  run_cli (&run, "stats", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  stats = parse_json (run.out);
  by_process = json_object_get_object_member (json_node_get_object (stats), "records_by_process");
  g_assert_cmpint (json_object_get_int_member (by_process, "Test.x64.exe (3676)"), >, 40000);
  g_assert_cmpint (json_object_get_int_member (by_process, "PerfView.exe (3988)"), >, 30000);
  g_assert_true (json_object_has_member (by_process, "Idle (0)"));
  cli_run_clear (&run);

  run_cli (&run, "processes", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  table = parse_json (run.out);
  list = json_node_get_array (table);
  g_assert_cmpuint (json_array_get_length (list), ==, 33);
  for (guint i = 0; i < json_array_get_length (list); i++)
    {
      JsonObject *p = json_array_get_object_element (list, i);
      JsonArray *threads;
      gboolean main_thread = FALSE;

      if (json_object_get_int_member (p, "pid") != 3676)
        continue;
      found = TRUE;
      g_assert_cmpstr (json_object_get_string_member (p, "name"), ==, "Test.x64.exe (3676)");
      g_assert_cmpstr (json_object_get_string_member (p, "image_name"), ==, "Test.x64.exe");
      g_assert_cmpstr (json_object_get_string_member (p, "command_line"), ==, "Test.x64.exe");
      g_assert_cmpint (json_object_get_int_member (p, "parent_pid"), ==, 3508);
      g_assert_cmpint (json_object_get_int_member (p, "session_id"), ==, 1);
      g_assert_cmpint (json_object_get_int_member (p, "exit_status"), ==, 0);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (p, "start_rel_ms"), 2732.8, 0.5);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (p, "end_rel_ms"), 8202.3, 0.5);
      threads = json_object_get_array_member (p, "threads");
      for (guint t = 0; t < json_array_get_length (threads); t++)
        if (json_object_get_int_member (json_array_get_object_element (threads, t), "tid") == 3680)
          main_thread = TRUE;
      g_assert_true (main_thread);
    }
  g_assert_true (found);
  cli_run_clear (&run);
}

static void
test_stats_losses (void)
{
  g_autofree char *path = etl_test_corpus_path ("AMSITrace.etl");
  g_autoptr (JsonNode) stats = NULL;
  g_autoptr (JsonNode) losses = NULL;
  JsonObject *o;
  CliRun run = { 0 };

  if (path == NULL)
    return;
  run_cli (&run, "stats", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  stats = parse_json (run.out);
  o = json_node_get_object (stats);
  g_assert_cmpint (json_object_get_int_member (o, "records"), ==, 21);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "losses"), "events_lost"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "records_by_header_type"),
                                               "EVENT_HEADER64"), ==, 19);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (o, "records_by_kind"), "kernel"), ==, 2);
  cli_run_clear (&run);

  run_cli (&run, "losses", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  losses = parse_json (run.out);
  o = json_array_get_object_element (json_node_get_array (losses), 0);
  g_assert_cmpint (json_object_get_int_member (o, "events_lost"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (o, "buffers_lost"), ==, 0);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "series")), ==, 0);
  cli_run_clear (&run);
}

static char *
write_temp (const char *name, const char *data, gsize len)
{
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cli-XXXXXX", NULL);
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, data, (gssize) len, NULL));
  return path;
}

static void
assert_one_error_line (const CliRun *run, const char *path)
{
  g_auto (GStrv) lines = g_strsplit (run->err, "\n", -1);

  g_assert_cmpint (run->status, ==, 1);
  g_assert_cmpuint (g_strv_length (lines), >=, 2);
  g_assert_nonnull (strstr (lines[0], path));
  g_assert_nonnull (strstr (lines[0], "offset"));
}

static void
test_bad_files (void)
{
  g_autofree char *src = etl_test_corpus_path ("gcevents.etl");
  g_autofree char *contents = NULL;
  g_autofree char *truncated = NULL;
  g_autofree char *empty = write_temp ("empty.etl", "", 0);
  g_autofree char *random_path = NULL;
  g_autofree char *noise = g_malloc (4096);
  const char *commands[] = { "info", "dump", "stats", "losses" };
  gsize len;

  for (guint i = 0; i < 4096; i++)
    noise[i] = (char) (i * 7919 % 251);
  random_path = write_temp ("random.etl", noise, 4096);

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      CliRun run = { 0 };

      run_cli (&run, commands[c], empty, NULL);
      assert_one_error_line (&run, empty);
      cli_run_clear (&run);
      run_cli (&run, commands[c], random_path, NULL);
      assert_one_error_line (&run, random_path);
      cli_run_clear (&run);
    }

  if (src == NULL)
    return;
  g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
  truncated = write_temp ("truncated.etl", contents, 65536 * 2 + 1000);
  {
    CliRun run = { 0 };
    g_auto (GStrv) lines = NULL;

    run_cli (&run, "dump", truncated, NULL);
    assert_one_error_line (&run, truncated);
    g_assert_nonnull (strstr (run.err, "offset 131072"));
    /* What could be read was still printed. */
    lines = g_strsplit (run.out, "\n", -1);
    g_assert_cmpuint (g_strv_length (lines), >, 3);
    cli_run_clear (&run);
  }
}

static void
test_help_and_usage (void)
{
  const char *commands[] = { "info", "dump", "stats", "losses", "session" };
  CliRun run = { 0 };

  run_cli (&run, "--help", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "dump"));
  cli_run_clear (&run);

  for (guint c = 0; c < G_N_ELEMENTS (commands); c++)
    {
      run_cli (&run, commands[c], "--help", NULL);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, "Usage:"));
      cli_run_clear (&run);
    }

  run_cli (&run, "dump", NULL);
  g_assert_cmpint (run.status, ==, 2);
  cli_run_clear (&run);
  run_cli (&run, "frobnicate", NULL);
  g_assert_cmpint (run.status, ==, 2);
  cli_run_clear (&run);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/cli/info", test_info);
  g_test_add_func ("/etl/cli/dump-multi", test_dump_multi);
  g_test_add_func ("/etl/cli/dump-fields", test_dump_fields);
  g_test_add_func ("/etl/cli/dump-perfinfo-null-pid", test_dump_perfinfo_null_pid);
  g_test_add_func ("/etl/cli/dump-decoded", test_dump_decoded);
  g_test_add_func ("/etl/cli/manifest-option", test_manifest_option);
  g_test_add_func ("/etl/cli/processes", test_processes);
  g_test_add_func ("/etl/cli/stats-losses", test_stats_losses);
  g_test_add_func ("/etl/cli/bad-files", test_bad_files);
  g_test_add_func ("/etl/cli/help-and-usage", test_help_and_usage);

  return g_test_run ();
}
