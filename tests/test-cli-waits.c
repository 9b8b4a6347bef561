/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-cli-waits: `etlscope-cli synth --waits` then `etlscope-cli waits` on
 * what it wrote, against the known schedule of etl-synth-waits.c (the same
 * figures test-thread-states.c checks in the model, here through the JSON:
 * ms from the trace's start, the schedule starting at 1 ms), the
 * --pid/--tid/--from/--to filters, the trace without ReadyThread records, and
 * usage errors (exit status 2 and a line naming the option).
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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/cli/waits/rows", test_waits_rows);
  g_test_add_func ("/etl/cli/waits/filters", test_waits_filters);
  g_test_add_func ("/etl/cli/waits/no-ready-thread", test_waits_no_ready_thread);
  g_test_add_func ("/etl/cli/waits/usage", test_waits_usage);
  return g_test_run ();
}
