/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli waits: WPA's CPU Usage (Precise) rows and per-process sums as
 * JSON, from the thread states of etl-thread-states.c.
 *
 *   etlscope-cli waits [--from MS] [--to MS] [--pid N] [--tid N]
 *                      [--manifest FILE.man]... FILE...
 *
 * Prints one object: `rows`, one per CSwitch whose switch-in lies in
 * [--from, --to) (ms from the trace's start, as `stacks` counts them) and
 * whose new thread matches --pid/--tid, and `totals`, those rows summed per
 * new process, most CPU first.  Times of day are ms from the trace's start;
 * durations (Ready, Waits, CPU Usage) are µs.  A field the records did not
 * give (no earlier switch-out, no ReadyThread, unknown process) is null; a
 * wait reason or state without a name is its number.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>

#include "etl-cli-waits.h"
#include "etl-cli-util.h"
#include "etl-cswitch.h"
#include "etl-thread-states.h"
#include "etl-trace.h"

#define EXIT_INPUT ETL_CLI_EXIT_INPUT
#define EXIT_USAGE ETL_CLI_EXIT_USAGE

typedef struct
{
  guint32 pid;
  guint64 switch_ins;
  gint64 ready, waits, cpu_usage; /* 100-ns */
} WaitsTotal;

static void
add_row (JsonBuilder *b, EtlTrace *trace, const EtlSwitchIn *r)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "cpu");
  json_builder_add_int_value (b, r->cpu);
  etl_cli_add_id (b, "new_pid", r->new_pid);
  etl_cli_add_id (b, "new_tid", r->new_tid);
  etl_cli_add_id (b, "readying_pid", r->readying_pid);
  etl_cli_add_id (b, "readying_tid", r->readying_tid);
  etl_cli_add_id (b, "old_pid", r->old_pid);
  etl_cli_add_id (b, "old_tid", r->old_tid);
  json_builder_set_member_name (b, "switch_in_ms");
  json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, r->switch_in));
  json_builder_set_member_name (b, "last_switch_out_ms");
  if (r->last_switch_out != 0)
    json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, r->last_switch_out));
  else
    json_builder_add_null_value (b);
  etl_cli_add_us (b, "ready_us", r->ready);
  etl_cli_add_us (b, "waits_us", r->waits);
  etl_cli_add_named (b, "wait_reason", r->new_prev_wait_reason, etl_cswitch_wait_reason_name);
  etl_cli_add_named (b, "wait_mode", r->new_prev_wait_mode, etl_cswitch_wait_mode_name);
  etl_cli_add_named (b, "prev_state", r->new_prev_state, etl_cswitch_thread_state_name);
  etl_cli_add_us (b, "cpu_usage_us", r->cpu_usage);
  json_builder_end_object (b);
}

static int
compare_totals (gconstpointer a, gconstpointer b)
{
  const WaitsTotal *x = *(const WaitsTotal *const *)a;
  const WaitsTotal *y = *(const WaitsTotal *const *)b;

  if (x->cpu_usage != y->cpu_usage)
    return x->cpu_usage > y->cpu_usage ? -1 : 1;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static void
print_waits (EtlTrace *trace, EtlThreadStates *states, double from_ms, double to_ms, gint64 from_ft,
             gint64 to_ft, gint64 pid, gint64 tid)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GHashTable) by_pid = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GPtrArray) totals = g_ptr_array_new ();
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  guint n_rows, n_kept = 0;
  const EtlSwitchIn *rows = etl_thread_states_get_switch_ins (states, &n_rows);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "from_ms");
  json_builder_add_double_value (b, from_ms);
  json_builder_set_member_name (b, "to_ms");
  json_builder_add_double_value (b, to_ms);
  json_builder_set_member_name (b, "ready_thread");
  json_builder_add_boolean_value (b, etl_thread_states_has_ready_thread (states));
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_rows; i++)
    {
      const EtlSwitchIn *r = &rows[i];
      WaitsTotal *t;

      if (r->switch_in < from_ft || r->switch_in >= to_ft)
        continue;
      if ((pid >= 0 && r->new_pid != (guint32)pid) || (tid >= 0 && r->new_tid != (guint32)tid))
        continue;
      add_row (b, trace, r);
      n_kept++;
      t = g_hash_table_lookup (by_pid, GUINT_TO_POINTER (r->new_pid));
      if (t == NULL)
        {
          t = g_new0 (WaitsTotal, 1);
          t->pid = r->new_pid;
          g_hash_table_insert (by_pid, GUINT_TO_POINTER (r->new_pid), t);
          g_ptr_array_add (totals, t);
        }
      t->switch_ins++;
      t->ready += r->ready;
      t->waits += r->waits;
      t->cpu_usage += r->cpu_usage;
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "n_rows");
  json_builder_add_int_value (b, n_kept);

  g_ptr_array_sort (totals, compare_totals);
  json_builder_set_member_name (b, "totals");
  json_builder_begin_array (b);
  for (guint i = 0; i < totals->len; i++)
    {
      const WaitsTotal *t = g_ptr_array_index (totals, i);
      json_builder_begin_object (b);
      etl_cli_add_id (b, "pid", t->pid);
      etl_cli_add_process_name (b, "name", table, t->pid, from_ft);
      json_builder_set_member_name (b, "switch_ins");
      json_builder_add_int_value (b, (gint64)t->switch_ins);
      etl_cli_add_us (b, "ready_us", t->ready);
      etl_cli_add_us (b, "waits_us", t->waits);
      etl_cli_add_us (b, "cpu_usage_us", t->cpu_usage);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  etl_cli_print_builder (b);
}

/**
 * etl_cli_waits_main:
 * @argc: arguments, "waits" first
 * @argv: (array length=argc): the arguments
 *
 * The `waits` command: opens the files as one trace, builds its thread
 * states (etl_thread_states_new()) and prints the CPU Usage (Precise) rows
 * in range with their per-process totals as JSON.
 *
 * Returns: the exit status: 0, 1 when input could not be read completely
 *   (one line per problem on stderr), 2 on a usage error
 */
int
etl_cli_waits_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  g_autofree char *pid_arg = NULL;
  g_autofree char *tid_arg = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlThreadStates) states = NULL;
  double from_ms = 0.0, to_ms = -1.0;
  gint64 pid, tid, origin, from_ft, to_ft;
  GOptionEntry entries[]
      = { { "from", 0, 0, G_OPTION_ARG_DOUBLE, &from_ms,
            "Switch-ins from MS, ms from the trace's start (default 0)", "MS" },
          { "to", 0, 0, G_OPTION_ARG_DOUBLE, &to_ms,
            "Switch-ins before MS, ms from the trace's start (default: the end)", "MS" },
          { "pid", 0, 0, G_OPTION_ARG_STRING, &pid_arg, "Only threads of process N switched in",
            "N" },
          { "tid", 0, 0, G_OPTION_ARG_STRING, &tid_arg, "Only thread N switched in", "N" },
          { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
            "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
          { NULL } };

  (void)argc;
  context = g_option_context_new ("FILE...");
  g_option_context_set_summary (
      context, "Print why threads waited, as JSON: one row per context switch (CSwitch) with\n"
               "WPA's CPU Usage (Precise) columns (readying thread from ReadyThread, Ready and\n"
               "Waits in µs, the wait reason and state the thread left in, CPU Usage until its\n"
               "next switch-out) and the rows summed per process.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli waits: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (!(from_ms >= 0.0 && from_ms <= 1e12) || !(to_ms <= 1e12) || (to_ms >= 0.0 && to_ms < from_ms))
    {
      g_printerr ("etlscope-cli waits: --from and --to take 0 <= FROM <= TO ms\n");
      return EXIT_USAGE;
    }
  if (!etl_cli_parse_id (pid_arg, &pid) || !etl_cli_parse_id (tid_arg, &tid))
    {
      g_printerr ("etlscope-cli waits: --pid and --tid take a decimal id, not '%s'\n",
                  etl_cli_parse_id (pid_arg, &pid) ? tid_arg : pid_arg);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli waits: no FILE given (see --help)\n");
      return EXIT_USAGE;
    }

  trace = etl_trace_open_full ((const char *const *)files, (const char *const *)manifests, NULL,
                               NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      return EXIT_INPUT;
    }
  states = etl_thread_states_new (trace, NULL, &error);
  if (states == NULL)
    {
      g_printerr ("etlscope-cli waits: %s\n", error->message);
      return EXIT_INPUT;
    }
  origin = etl_trace_get_origin (trace);
  from_ft = origin + (gint64)(from_ms * 10000.0 + 0.5);
  to_ft = to_ms >= 0.0 ? origin + (gint64)(to_ms * 10000.0 + 0.5) : G_MAXINT64;
  print_waits (trace, states, from_ms,
               to_ms >= 0.0 ? to_ms
                            : etl_trace_filetime_to_ms (trace, etl_trace_get_last_filetime (trace)),
               from_ft, to_ft, pid, tid);
  return etl_cli_report_problems (trace);
}
