/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-cli-waits: `etlscope-cli synth --waits` then `etlscope-cli waits` on
 * what it wrote, against the known schedule of etl-synth-waits.c (the same
 * figures test-thread-states.c checks in the model, here through the JSON:
 * ms from the trace's start, the schedule starting at 1 ms), the
 * --pid/--tid/--from/--to filters, the trace without ReadyThread records, and
 * usage errors (exit status 2 and a line naming the option); then
 * `etlscope-cli critical-path` on the same schedule (the chain D→B→C→A
 * through the JSON, the trace without ReadyThread records, usage errors and
 * a thread the trace does not know).
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
  g_ptr_array_add (argv, (gpointer)cli);
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer)a);
  va_end (args);
  g_ptr_array_add (argv, NULL);

  proc = etl_test_subprocess_newv ((const char *const *)argv->pdata,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                   &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  run->status = g_subprocess_get_exit_status (proc);
}

/* Writes the schedule with synth into a fresh folder; returns the file. */
static char *
synth_waits (char **dir_out, gboolean no_ready_thread)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("etlscope-cli-waits-XXXXXX", &error);
  char *path;
  CliRun run = { 0 };

  g_assert_no_error (error);
  path = g_build_filename (dir, "waits.etl", NULL);
  if (no_ready_thread)
    run_cli (&run, "synth", "--waits", "--no-ready-thread", "-o", path, NULL);
  else
    run_cli (&run, "synth", "--waits", "-o", path, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  cli_run_clear (&run);
  *dir_out = dir;
  return path;
}

/* Runs `waits` with the arguments (NULL-terminated, FILE last) and parses
 * its JSON; the run must succeed. */
static JsonObject *
waits_json (JsonNode **root, const char *first, ...)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  va_list args;

  g_ptr_array_add (argv, (gpointer)g_getenv ("ETLSCOPE_CLI"));
  g_ptr_array_add (argv, (gpointer) "waits");
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer)a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  g_assert_nonnull (argv->pdata[0]);
  proc = etl_test_subprocess_newv ((const char *const *)argv->pdata,
                                   G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                   &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (err, ==, "");
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  *root = json_node_copy (json_parser_get_root (parser));
  return json_node_get_object (*root);
}

#define assert_ms(o, member, want)                                                                 \
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, member), want, 1e-9)

/* One row: the new thread, where it ran and the Ready/Waits/CPU figures. */
typedef struct
{
  gint64 cpu, new_pid, new_tid;
  gint64 readying_pid, readying_tid; /* -1: null */
  double switch_in_ms, last_switch_out_ms;
  double ready_us, waits_us, cpu_usage_us;
  const char *wait_reason, *wait_mode, *prev_state;
} WantRow;

static void
check_row (JsonObject *row, const WantRow *w)
{
  g_assert_cmpint (json_object_get_int_member (row, "cpu"), ==, w->cpu);
  g_assert_cmpint (json_object_get_int_member (row, "new_pid"), ==, w->new_pid);
  g_assert_cmpint (json_object_get_int_member (row, "new_tid"), ==, w->new_tid);
  if (w->readying_tid < 0)
    {
      g_assert_true (json_object_get_null_member (row, "readying_tid"));
      g_assert_true (json_object_get_null_member (row, "readying_pid"));
    }
  else
    {
      g_assert_cmpint (json_object_get_int_member (row, "readying_tid"), ==, w->readying_tid);
      g_assert_cmpint (json_object_get_int_member (row, "readying_pid"), ==, w->readying_pid);
    }
  g_assert_cmpint (json_object_get_int_member (row, "old_pid"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (row, "old_tid"), ==, 0);
  assert_ms (row, "switch_in_ms", w->switch_in_ms);
  assert_ms (row, "last_switch_out_ms", w->last_switch_out_ms);
  assert_ms (row, "ready_us", w->ready_us);
  assert_ms (row, "waits_us", w->waits_us);
  assert_ms (row, "cpu_usage_us", w->cpu_usage_us);
  g_assert_cmpstr (json_object_get_string_member (row, "wait_reason"), ==, w->wait_reason);
  g_assert_cmpstr (json_object_get_string_member (row, "wait_mode"), ==, w->wait_mode);
  g_assert_cmpstr (json_object_get_string_member (row, "prev_state"), ==, w->prev_state);
}

/* The switch-ins of threads seen before (rows 7, 8, 11, 12 and 14 of the
 * 17), as test-thread-states.c's want_rows, in ms from the trace's start. */
static const WantRow want_rows[] = {
  { 0, 1000, 1008, 0, 0, 3.2, 2.5, 200, 500, 800, "DelayExecution", "UserMode", "Waiting" },
  { 1, 2000, 2004, 1000, 1008, 3.8, 1.5, 300, 2000, 600, "UserRequest", "UserMode", "Waiting" },
  { 0, 3000, 3004, 2000, 2004, 4.5, 2.0, 300, 2200, 1000, "WrQueue", "KernelMode", "Waiting" },
  { 1, 1000, 1004, 3000, 3004, 5.1, 2.0, 100, 3000, 1100, "WrAlertByThreadId", "UserMode",
    "Waiting" },
  { 0, 3000, 3004, -1, -1, 5.8, 5.5, 300, 0, 700, "WrPreempted", "KernelMode", "Ready" },
};
static const guint want_row_index[] = { 7, 8, 11, 12, 14 };

/* A process's totals. */
static void
check_total (JsonObject *t, gint64 pid, const char *name, gint64 switch_ins, double ready_us,
             double waits_us, double cpu_usage_us)
{
  g_assert_cmpint (json_object_get_int_member (t, "pid"), ==, pid);
  g_assert_cmpstr (json_object_get_string_member (t, "name"), ==, name);
  g_assert_cmpint (json_object_get_int_member (t, "switch_ins"), ==, switch_ins);
  assert_ms (t, "ready_us", ready_us);
  assert_ms (t, "waits_us", waits_us);
  assert_ms (t, "cpu_usage_us", cpu_usage_us);
}

static JsonObject *
total_of (JsonArray *totals, gint64 pid)
{
  for (guint i = 0; i < json_array_get_length (totals); i++)
    {
      JsonObject *t = json_array_get_object_element (totals, i);

      if (json_object_get_int_member (t, "pid") == pid)
        return t;
    }
  g_assert_not_reached ();
  return NULL;
}

static void
test_waits_rows (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = synth_waits (&dir, FALSE);
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o = waits_json (&root, path, NULL);
  JsonArray *rows = json_object_get_array_member (o, "rows");
  JsonArray *totals = json_object_get_array_member (o, "totals");
  double sum_ready = 0, sum_waits = 0;

  g_assert_true (json_object_get_boolean_member (o, "ready_thread"));
  g_assert_cmpuint (json_array_get_length (rows), ==, 17);
  g_assert_cmpint (json_object_get_int_member (o, "n_rows"), ==, 17);
  assert_ms (o, "from_ms", 0.0);
  assert_ms (o, "to_ms", 7.0);
  for (guint i = 0; i < G_N_ELEMENTS (want_rows); i++)
    {
      g_test_message ("row %u", want_row_index[i]);
      check_row (json_array_get_object_element (rows, want_row_index[i]), &want_rows[i]);
    }
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *r = json_array_get_object_element (rows, i);

      sum_ready += json_object_get_double_member (r, "ready_us");
      sum_waits += json_object_get_double_member (r, "waits_us");
    }
  /* Row 0: A's first switch-in: no earlier switch-out, no wait reason. */
  {
    JsonObject *r = json_array_get_object_element (rows, 0);

    g_assert_cmpint (json_object_get_int_member (r, "new_tid"), ==, 1004);
    g_assert_true (json_object_get_null_member (r, "last_switch_out_ms"));
    g_assert_true (json_object_get_null_member (r, "wait_reason"));
    g_assert_true (json_object_get_null_member (r, "prev_state"));
    assert_ms (r, "switch_in_ms", 1.0);
    assert_ms (r, "cpu_usage_us", 1000);
  }
  /* Row 4: D switched in, A switched out, on processor 0 at 2.0 ms. */
  {
    JsonObject *r = json_array_get_object_element (rows, 4);

    g_assert_cmpint (json_object_get_int_member (r, "new_tid"), ==, 1008);
    g_assert_cmpint (json_object_get_int_member (r, "old_tid"), ==, 1004);
    g_assert_cmpint (json_object_get_int_member (r, "old_pid"), ==, 1000);
    assert_ms (r, "switch_in_ms", 2.0);
  }
  /* Ready 1.2 ms and Waits 7.7 ms in all, as the model's test sums them. */
  g_assert_cmpfloat_with_epsilon (sum_ready, 1200, 1e-6);
  g_assert_cmpfloat_with_epsilon (sum_waits, 7700, 1e-6);

  /* Per process, most CPU first: alpha ran A 1.0 + D 0.5 + D 0.8 + A 1.1
   * ms, gamma 0.4 + 1.0 + 0.7, beta 0.5 + 0.6. */
  g_assert_cmpuint (json_array_get_length (totals), ==, 4);
  check_total (total_of (totals, 1000), 1000, "alpha.exe (1000)", 4, 300, 3500, 3400);
  check_total (total_of (totals, 2000), 2000, "beta.exe (2000)", 2, 300, 2000, 1100);
  check_total (total_of (totals, 3000), 3000, "gamma.exe (3000)", 3, 600, 2200, 2100);
  /* The idle threads: processor 0 idle 0.7 + 0.5 + 0.3 + 0.5 ms (the last
   * to the trace's end at 7 ms), processor 1 0.1 + 1.8 + 0.7 + 0.8 ms. */
  check_total (total_of (totals, 0), 0, "Idle (0)", 8, 0, 0, 5400);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (totals, 0), "pid"),
                   ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (totals, 1), "pid"),
                   ==, 1000);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (totals, 2), "pid"),
                   ==, 3000);
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (totals, 3), "pid"),
                   ==, 2000);
  etl_test_rm_rf (dir);
}

static void
test_waits_filters (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = synth_waits (&dir, FALSE);

  {
    /* gamma's C: three switch-ins, one process in the totals. */
    g_autoptr (JsonNode) root = NULL;
    JsonObject *o = waits_json (&root, "--pid", "3000", path, NULL);
    JsonArray *rows = json_object_get_array_member (o, "rows");
    JsonArray *totals = json_object_get_array_member (o, "totals");

    g_assert_cmpuint (json_array_get_length (rows), ==, 3);
    for (guint i = 0; i < 3; i++)
      g_assert_cmpint (
          json_object_get_int_member (json_array_get_object_element (rows, i), "new_tid"), ==,
          3004);
    check_row (json_array_get_object_element (rows, 1), &want_rows[2]);
    check_row (json_array_get_object_element (rows, 2), &want_rows[4]);
    g_assert_cmpuint (json_array_get_length (totals), ==, 1);
    check_total (json_array_get_object_element (totals, 0), 3000, "gamma.exe (3000)", 3, 600, 2200,
                 2100);
  }
  {
    /* D of alpha (A left aside): two switch-ins. */
    g_autoptr (JsonNode) root = NULL;
    JsonObject *o = waits_json (&root, "--tid", "1008", path, NULL);
    JsonArray *rows = json_object_get_array_member (o, "rows");

    g_assert_cmpuint (json_array_get_length (rows), ==, 2);
    assert_ms (json_array_get_object_element (rows, 0), "switch_in_ms", 2.0);
    check_row (json_array_get_object_element (rows, 1), &want_rows[0]);
    check_total (json_array_get_object_element (json_object_get_array_member (o, "totals"), 0),
                 1000, "alpha.exe (1000)", 2, 200, 500, 1300);
  }
  {
    /* [2.5, 4.5) ms: the switch-ins at 2.5 (idle ← D) up to 4.4 (idle ←
     * B); C's at 4.5 is the end, left out. */
    g_autoptr (JsonNode) root = NULL;
    JsonObject *o = waits_json (&root, "--from", "2.5", "--to", "4.5", path, NULL);
    JsonArray *rows = json_object_get_array_member (o, "rows");

    g_assert_cmpuint (json_array_get_length (rows), ==, 5);
    assert_ms (json_array_get_object_element (rows, 0), "switch_in_ms", 2.5);
    assert_ms (json_array_get_object_element (rows, 4), "switch_in_ms", 4.4);
    check_row (json_array_get_object_element (rows, 1), &want_rows[0]);
    check_row (json_array_get_object_element (rows, 2), &want_rows[1]);
    assert_ms (o, "from_ms", 2.5);
    assert_ms (o, "to_ms", 4.5);
  }
  {
    /* Both: alpha in that range is D's switch-in at 3.2 ms. */
    g_autoptr (JsonNode) root = NULL;
    JsonObject *o = waits_json (&root, "--from", "2.5", "--to", "4.5", "--pid", "1000", path, NULL);
    JsonArray *rows = json_object_get_array_member (o, "rows");

    g_assert_cmpuint (json_array_get_length (rows), ==, 1);
    check_row (json_array_get_object_element (rows, 0), &want_rows[0]);
  }
  {
    /* A thread that never ran: no rows, no totals, still exit 0. */
    g_autoptr (JsonNode) root = NULL;
    JsonObject *o = waits_json (&root, "--tid", "4242", path, NULL);

    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "rows")), ==, 0);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (o, "totals")), ==, 0);
  }
  etl_test_rm_rf (dir);
}

/* Without ReadyThread records: no readying thread, and Ready and Waits
 * split by the state the thread left in (0.3 ms and 8.6 ms in all). */
static void
test_waits_no_ready_thread (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = synth_waits (&dir, TRUE);
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o = waits_json (&root, path, NULL);
  JsonArray *rows = json_object_get_array_member (o, "rows");
  JsonObject *c;
  double sum_ready = 0, sum_waits = 0;

  g_assert_false (json_object_get_boolean_member (o, "ready_thread"));
  g_assert_cmpuint (json_array_get_length (rows), ==, 17);
  for (guint i = 0; i < json_array_get_length (rows); i++)
    {
      JsonObject *r = json_array_get_object_element (rows, i);

      g_assert_true (json_object_get_null_member (r, "readying_tid"));
      sum_ready += json_object_get_double_member (r, "ready_us");
      sum_waits += json_object_get_double_member (r, "waits_us");
    }
  g_assert_cmpfloat_with_epsilon (sum_ready, 300, 1e-6);
  g_assert_cmpfloat_with_epsilon (sum_waits, 8600, 1e-6);
  c = json_array_get_object_element (rows, 11);
  g_assert_cmpint (json_object_get_int_member (c, "new_tid"), ==, 3004);
  assert_ms (c, "ready_us", 0);
  assert_ms (c, "waits_us", 2500);
  check_total (total_of (json_object_get_array_member (o, "totals"), 3000), 3000,
               "gamma.exe (3000)", 3, 300, 2500, 2100);
  etl_test_rm_rf (dir);
}

static void
test_waits_usage (void)
{
  static const struct
  {
    const char *args[4];
    const char *message;
  } bad[] = {
    { { "waits", "--pid", "abc" }, "--pid and --tid take a decimal id, not 'abc'" },
    { { "waits", "--tid", "-3" }, "--pid and --tid take a decimal id, not '-3'" },
    { {
          "waits",
          "--from",
          "5",
      },
      "no FILE given" },
    { { "waits", "--from", "x" }, "--from" },
    { { "waits" }, "no FILE given" },
    { { "synth", "--no-ready-thread" }, "--no-ready-thread needs --waits" },
    { { "synth", "--waits", "--schedule" }, "--waits and --schedule" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      CliRun run = { 0 };

      g_test_message ("case %u", i);
      run_cli (&run, bad[i].args[0], bad[i].args[1], bad[i].args[2], bad[i].args[3], NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_nonnull (strstr (run.err, bad[i].message));
      g_assert_nonnull (strchr (run.err, '\n'));
      cli_run_clear (&run);
    }
  {
    /* --to before --from, with a file that exists. */
    g_autofree char *dir = NULL;
    g_autofree char *path = synth_waits (&dir, FALSE);
    CliRun run = { 0 };

    run_cli (&run, "waits", "--from", "5", "--to", "2", path, NULL);
    g_assert_cmpint (run.status, ==, 2);
    g_assert_cmpstr (run.err, ==, "etlscope-cli waits: --from and --to take 0 <= FROM <= TO ms\n");
    cli_run_clear (&run);
    etl_test_rm_rf (dir);
  }
  {
    /* A file that is not there: input error 1, naming it. */
    CliRun run = { 0 };

    run_cli (&run, "waits", "/nonexistent/etlscope/none.etl", NULL);
    g_assert_cmpint (run.status, ==, 1);
    g_assert_nonnull (strstr (run.err, "none.etl"));
    cli_run_clear (&run);
  }
}

/* ------------------------------------------------------------------------ */
/* critical-path */

/* Runs `critical-path --tid TID --from FROM --to TO FILE`, which must
 * succeed, and parses its JSON. */
static JsonObject *
critical_path_json (JsonNode **root, const char *tid, const char *from, const char *to,
                    const char *path)
{
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  CliRun run = { 0 };

  run_cli (&run, "critical-path", "--tid", tid, "--from", from, "--to", to, path, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  json_parser_load_from_data (parser, run.out, -1, &error);
  g_assert_no_error (error);
  cli_run_clear (&run);
  *root = json_node_copy (json_parser_get_root (parser));
  return json_node_get_object (*root);
}

typedef struct
{
  gint64 tid, pid;
  const char *process;
  double start_ms, end_ms;
  const char *state, *wait_reason; /* wait_reason NULL: null */
  gint64 hop, woke_tid;            /* woke_tid -1: null */
} WantSegment;

static void
check_segments (JsonArray *segs, const WantSegment *want, guint n_want)
{
  g_assert_cmpuint (json_array_get_length (segs), ==, n_want);
  for (guint i = 0; i < n_want; i++)
    {
      JsonObject *g = json_array_get_object_element (segs, i);
      const WantSegment *w = &want[i];

      g_test_message ("segment %u", i);
      g_assert_cmpint (json_object_get_int_member (g, "tid"), ==, w->tid);
      g_assert_cmpint (json_object_get_int_member (g, "pid"), ==, w->pid);
      g_assert_cmpstr (json_object_get_string_member (g, "process"), ==, w->process);
      assert_ms (g, "start_ms", w->start_ms);
      assert_ms (g, "end_ms", w->end_ms);
      assert_ms (g, "duration_us", (w->end_ms - w->start_ms) * 1000.0);
      g_assert_cmpstr (json_object_get_string_member (g, "state"), ==, w->state);
      if (w->wait_reason == NULL)
        g_assert_true (json_object_get_null_member (g, "wait_reason"));
      else
        g_assert_cmpstr (json_object_get_string_member (g, "wait_reason"), ==, w->wait_reason);
      g_assert_cmpint (json_object_get_int_member (g, "hop"), ==, w->hop);
      if (w->woke_tid < 0)
        g_assert_true (json_object_get_null_member (g, "woke_tid"));
      else
        g_assert_cmpint (json_object_get_int_member (g, "woke_tid"), ==, w->woke_tid);
    }
}

#define ALPHA "alpha.exe (1000)"
#define BETA  "beta.exe (2000)"
#define GAMMA "gamma.exe (3000)"

/* A (1004) over the whole trace: its wait 2.0–5.0 ms was ended by C, C's
 * by B, B's by D (the schedule's chain); D's DPC-ended wait stays. */
static void
test_critical_path (void)
{
  static const WantSegment want[] = {
    { 1004, 1000, ALPHA, 0.0, 1.0, "Unknown", NULL, 0, -1 },
    { 1004, 1000, ALPHA, 1.0, 2.0, "Running", NULL, 0, -1 },
    { 1008, 1000, ALPHA, 2.0, 2.5, "Running", NULL, 3, 2004 },
    { 1008, 1000, ALPHA, 2.5, 3.0, "Waiting", "DelayExecution", 3, 2004 },
    { 1008, 1000, ALPHA, 3.0, 3.2, "Ready", "DelayExecution", 3, 2004 },
    { 1008, 1000, ALPHA, 3.2, 3.5, "Running", NULL, 3, 2004 },
    { 2004, 2000, BETA, 3.5, 3.8, "Ready", "UserRequest", 2, 3004 },
    { 2004, 2000, BETA, 3.8, 4.2, "Running", NULL, 2, 3004 },
    { 3004, 3000, GAMMA, 4.2, 4.5, "Ready", "WrQueue", 1, 1004 },
    { 3004, 3000, GAMMA, 4.5, 5.0, "Running", NULL, 1, 1004 },
    { 1004, 1000, ALPHA, 5.0, 5.1, "Ready", "WrAlertByThreadId", 0, -1 },
    { 1004, 1000, ALPHA, 5.1, 6.2, "Running", NULL, 0, -1 },
    { 1004, 1000, ALPHA, 6.2, 7.0, "Waiting", "WrLpcReceive", 0, -1 },
  };
  /* tid, running, ready, waiting, not running, unknown (µs) */
  static const double want_threads[][6] = {
    { 1004, 2100, 100, 800, 0, 1000 },
    { 1008, 800, 200, 500, 0, 0 },
    { 2004, 400, 300, 0, 0, 0 },
    { 3004, 500, 300, 0, 0, 0 },
  };
  static const char *const members[]
      = { "running_us", "ready_us", "waiting_us", "not_running_us", "unknown_us" };
  g_autofree char *dir = NULL;
  g_autofree char *path = synth_waits (&dir, FALSE);
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o = critical_path_json (&root, "1004", "0", "7", path);
  JsonArray *threads = json_object_get_array_member (o, "threads");

  g_assert_cmpint (json_object_get_int_member (o, "tid"), ==, 1004);
  assert_ms (o, "from_ms", 0.0);
  assert_ms (o, "to_ms", 7.0);
  g_assert_true (json_object_get_boolean_member (o, "ready_thread"));
  g_assert_cmpint (json_object_get_int_member (o, "max_hop"), ==, 3);
  g_assert_cmpint (json_object_get_int_member (o, "cycles"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (o, "depth_limited"), ==, 0);
  check_segments (json_object_get_array_member (o, "segments"), want, G_N_ELEMENTS (want));
  g_assert_cmpuint (json_array_get_length (threads), ==, G_N_ELEMENTS (want_threads));
  for (guint i = 0; i < G_N_ELEMENTS (want_threads); i++)
    {
      JsonObject *t = json_array_get_object_element (threads, i);

      g_assert_cmpint (json_object_get_int_member (t, "tid"), ==, (gint64)want_threads[i][0]);
      g_assert_cmpint (json_object_get_int_member (t, "pid"), ==,
                       (gint64)want_threads[i][0] / 1000 * 1000);
      for (guint k = 0; k < G_N_ELEMENTS (members); k++)
        assert_ms (t, members[k], want_threads[i][k + 1]);
    }
  g_assert_cmpstr (
      json_object_get_string_member (json_array_get_object_element (threads, 2), "process"), ==,
      BETA);

  /* A range ending inside A's wait: not readied by its end, it stays. */
  {
    static const WantSegment inside[]
        = { { 1004, 1000, ALPHA, 2.5, 3.0, "Waiting", "WrAlertByThreadId", 0, -1 } };
    g_autoptr (JsonNode) root2 = NULL;

    o = critical_path_json (&root2, "1004", "2.5", "3", path);
    check_segments (json_object_get_array_member (o, "segments"), inside, 1);
  }
  etl_test_rm_rf (dir);
}

/* Without ReadyThread records no wait is followed: A alone. */
static void
test_critical_path_no_ready_thread (void)
{
  static const WantSegment want[] = {
    { 1004, 1000, ALPHA, 0.0, 1.0, "Unknown", NULL, 0, -1 },
    { 1004, 1000, ALPHA, 1.0, 2.0, "Running", NULL, 0, -1 },
    { 1004, 1000, ALPHA, 2.0, 5.1, "NotRunning", "WrAlertByThreadId", 0, -1 },
    { 1004, 1000, ALPHA, 5.1, 6.2, "Running", NULL, 0, -1 },
    { 1004, 1000, ALPHA, 6.2, 7.0, "NotRunning", "WrLpcReceive", 0, -1 },
  };
  g_autofree char *dir = NULL;
  g_autofree char *path = synth_waits (&dir, TRUE);
  g_autoptr (JsonNode) root = NULL;
  JsonObject *o = critical_path_json (&root, "1004", "0", "7", path);
  JsonArray *threads = json_object_get_array_member (o, "threads");

  g_assert_false (json_object_get_boolean_member (o, "ready_thread"));
  check_segments (json_object_get_array_member (o, "segments"), want, G_N_ELEMENTS (want));
  g_assert_cmpuint (json_array_get_length (threads), ==, 1);
  assert_ms (json_array_get_object_element (threads, 0), "not_running_us", 3900);
  etl_test_rm_rf (dir);
}

/* Usage errors exit 2 naming the problem; a thread without states exits 1. */
static void
test_critical_path_usage (void)
{
  static const struct
  {
    const char *args[7];
    const char *message;
  } bad[] = {
    { { "--from", "0", "--to", "7" }, "--tid, --from and --to are required" },
    { { "--tid", "1004", "--to", "7" }, "--tid, --from and --to are required" },
    { { "--tid", "1004", "--from", "0" }, "--tid, --from and --to are required" },
    { { "--tid", "abc", "--from", "0", "--to", "7" }, "--tid takes a decimal id, not 'abc'" },
    { { "--tid", "1004", "--from", "5", "--to", "2" }, "--from and --to take 0 <= FROM <= TO ms" },
    { { "--tid", "1004", "--from", "-1", "--to", "2" }, "--from and --to take 0 <= FROM <= TO ms" },
    { { "--tid", "1004", "--from", "x", "--to", "2" }, "--from" },
  };
  g_autofree char *dir = NULL;
  g_autofree char *path = synth_waits (&dir, FALSE);
  CliRun run = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      const char *v[8] = { NULL };
      guint n = 0;

      /* The case's options, then the file. */
      for (guint k = 0; k < G_N_ELEMENTS (bad[i].args) && bad[i].args[k] != NULL; k++)
        v[n++] = bad[i].args[k];
      v[n] = path;
      g_test_message ("case %u", i);
      run_cli (&run, "critical-path", v[0], v[1], v[2], v[3], v[4], v[5], v[6], NULL);
      g_assert_cmpint (run.status, ==, 2);
      g_assert_cmpstr (run.out, ==, "");
      g_assert_nonnull (strstr (run.err, bad[i].message));
      cli_run_clear (&run);
    }
  run_cli (&run, "critical-path", "--tid", "1004", "--from", "0", "--to", "7", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "no FILE given"));
  cli_run_clear (&run);

  /* A thread no CSwitch or ReadyThread names: an error, no JSON. */
  run_cli (&run, "critical-path", "--tid", "9", "--from", "0", "--to", "7", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_cmpstr (
      run.err, ==,
      "etlscope-cli critical-path: thread 9 has no state in the trace (no CSwitch or ReadyThread "
      "names it)\n");
  cli_run_clear (&run);
  etl_test_rm_rf (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/cli/waits/rows", test_waits_rows);
  g_test_add_func ("/etl/cli/waits/filters", test_waits_filters);
  g_test_add_func ("/etl/cli/waits/no-ready-thread", test_waits_no_ready_thread);
  g_test_add_func ("/etl/cli/waits/usage", test_waits_usage);
  g_test_add_func ("/etl/cli/critical-path/chain", test_critical_path);
  g_test_add_func ("/etl/cli/critical-path/no-ready-thread", test_critical_path_no_ready_thread);
  g_test_add_func ("/etl/cli/critical-path/usage", test_critical_path_usage);
  return g_test_run ();
}
