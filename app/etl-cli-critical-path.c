/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli critical-path: the critical path of one thread over a time
 * range as JSON, from etl-critical-path.c.
 *
 *   etlscope-cli critical-path --tid N --from MS --to MS
 *                              [--manifest FILE.man]... FILE...
 *
 * Prints one object: `tid`, `from_ms`, `to_ms`, `ready_thread` (whether the
 * trace has ReadyThread records: without them no wait can be followed),
 * `segments`, the path in time order tiling [--from, --to] (`tid`, `pid`,
 * `process`, `start_ms`, `end_ms`, `duration_us`, `state` Running / Ready /
 * Waiting / NotRunning / Unknown, `wait_reason` (KWAIT_REASON name, its
 * number when unnamed, null when unknown or running), `hop` (0 = the thread
 * asked about) and `woke_tid` (the thread this one readied, null at hop 0)),
 * `threads`, one per thread on the path in order of first appearance with
 * its time by state (`running_us`, `ready_us`, `waiting_us`,
 * `not_running_us`, `unknown_us`), and `max_hop`, `cycles`, `depth_limited`
 * (the guards' counts, #EtlCriticalPathCounts).  Times of day are ms from
 * the trace's start, as `waits` gives them; durations are µs.
 *
 * --tid, --from and --to are required (usage error, exit 2, without them or
 * with FROM > TO).  A thread with no CSwitch or ReadyThread record in the
 * trace has no path: a message on stderr, nothing on stdout, exit 1.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <math.h>

#include "etl-cli-critical-path.h"
#include "etl-cli-util.h"
#include "etl-critical-path.h"
#include "etl-cswitch.h"
#include "etl-thread-states.h"
#include "etl-trace.h"

typedef struct
{
  guint32 tid, pid;
  gint64 start;                                  /* of its first segment, FILETIME */
  gint64 by_kind[ETL_CRITICAL_PATH_UNKNOWN + 1]; /* 100-ns */
} ThreadSum;

static void
add_segment (JsonBuilder *b, EtlTrace *trace, const EtlCriticalPathSegment *s)
{
  json_builder_begin_object (b);
  etl_cli_add_id (b, "tid", s->tid);
  etl_cli_add_id (b, "pid", s->pid);
  etl_cli_add_process_name (b, "process", etl_trace_get_process_table (trace), s->pid, s->start);
  json_builder_set_member_name (b, "start_ms");
  json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, s->start));
  json_builder_set_member_name (b, "end_ms");
  json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, s->end));
  etl_cli_add_us (b, "duration_us", s->end - s->start);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, etl_critical_path_kind_name (s->kind));
  etl_cli_add_named (b, "wait_reason", s->wait_reason, etl_cswitch_wait_reason_name);
  json_builder_set_member_name (b, "hop");
  json_builder_add_int_value (b, s->hop);
  etl_cli_add_id (b, "woke_tid", s->woke_tid);
  json_builder_end_object (b);
}

static void
print_path (EtlTrace *trace, EtlThreadStates *states, guint32 tid, double from_ms, double to_ms,
            const GArray *segs, const EtlCriticalPathCounts *counts)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (GHashTable) by_tid = g_hash_table_new (NULL, NULL);
  g_autoptr (GPtrArray) sums = g_ptr_array_new_with_free_func (g_free);
  static const char *const members[]
      = { "running_us", "ready_us", "waiting_us", "not_running_us", "unknown_us" };

  G_STATIC_ASSERT (G_N_ELEMENTS (members) == ETL_CRITICAL_PATH_UNKNOWN + 1);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "tid");
  json_builder_add_int_value (b, tid);
  json_builder_set_member_name (b, "from_ms");
  json_builder_add_double_value (b, from_ms);
  json_builder_set_member_name (b, "to_ms");
  json_builder_add_double_value (b, to_ms);
  json_builder_set_member_name (b, "ready_thread");
  json_builder_add_boolean_value (b, etl_thread_states_has_ready_thread (states));
  json_builder_set_member_name (b, "segments");
  json_builder_begin_array (b);
  for (guint i = 0; i < segs->len; i++)
    {
      const EtlCriticalPathSegment *s = &g_array_index (segs, EtlCriticalPathSegment, i);
      ThreadSum *t = g_hash_table_lookup (by_tid, GUINT_TO_POINTER (s->tid));

      add_segment (b, trace, s);
      if (t == NULL)
        {
          t = g_new0 (ThreadSum, 1);
          t->tid = s->tid;
          t->pid = s->pid;
          t->start = s->start;
          g_hash_table_insert (by_tid, GUINT_TO_POINTER (s->tid), t);
          g_ptr_array_add (sums, t);
        }
      if (t->pid == ETL_THREAD_STATES_NO_ID)
        t->pid = s->pid;
      t->by_kind[MIN (s->kind, ETL_CRITICAL_PATH_UNKNOWN)] += s->end - s->start;
    }
  json_builder_end_array (b);

  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint i = 0; i < sums->len; i++)
    {
      const ThreadSum *t = g_ptr_array_index (sums, i);

      json_builder_begin_object (b);
      etl_cli_add_id (b, "tid", t->tid);
      etl_cli_add_id (b, "pid", t->pid);
      etl_cli_add_process_name (b, "process", etl_trace_get_process_table (trace), t->pid,
                                t->start);
      for (guint k = 0; k < G_N_ELEMENTS (members); k++)
        etl_cli_add_us (b, members[k], t->by_kind[k]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "max_hop");
  json_builder_add_int_value (b, counts->max_hop);
  json_builder_set_member_name (b, "cycles");
  json_builder_add_int_value (b, counts->cycles);
  json_builder_set_member_name (b, "depth_limited");
  json_builder_add_int_value (b, counts->depth_limited);
  json_builder_end_object (b);
  etl_cli_print_builder (b);
}

/**
 * etl_cli_critical_path_main:
 * @argc: arguments, "critical-path" first
 * @argv: (array length=argc): the arguments
 *
 * The `critical-path` command: opens the files as one trace, builds its
 * thread states (etl_thread_states_new()) and prints the critical path of
 * --tid over [--from, --to] (etl_critical_path_compute()) as JSON.
 *
 * Returns: the exit status: 0; 1 when input could not be read completely
 *   (one line per problem on stderr) or the thread has no state in the
 *   trace; 2 on a usage error
 */
int
etl_cli_critical_path_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  g_autofree char *tid_arg = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlThreadStates) states = NULL;
  g_autoptr (GArray) segs = NULL;
  EtlCriticalPathCounts counts;
  double from_ms = NAN, to_ms = NAN;
  gint64 tid, origin;
  guint n_states = 0;
  GOptionEntry entries[]
      = { { "tid", 0, 0, G_OPTION_ARG_STRING, &tid_arg,
            "The thread whose path is wanted (required)", "N" },
          { "from", 0, 0, G_OPTION_ARG_DOUBLE, &from_ms,
            "From MS, ms from the trace's start (required)", "MS" },
          { "to", 0, 0, G_OPTION_ARG_DOUBLE, &to_ms, "To MS, ms from the trace's start (required)",
            "MS" },
          { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
            "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
          { NULL } };

  (void)argc;
  context = g_option_context_new ("FILE...");
  g_option_context_set_summary (
      context, "Print the critical path of a thread over a time range, as JSON: where it ran or\n"
               "was ready, the thread itself; where it waited until another thread readied it\n"
               "(ReadyThread), that thread's path over the wait, followed transitively.  A\n"
               "thread with no CSwitch or ReadyThread record is an error (exit 1).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli critical-path: %s\n", error->message);
      return ETL_CLI_EXIT_USAGE;
    }
  if (tid_arg == NULL || isnan (from_ms) || isnan (to_ms))
    {
      g_printerr ("etlscope-cli critical-path: --tid, --from and --to are required\n");
      return ETL_CLI_EXIT_USAGE;
    }
  if (!etl_cli_parse_id (tid_arg, &tid))
    {
      g_printerr ("etlscope-cli critical-path: --tid takes a decimal id, not '%s'\n", tid_arg);
      return ETL_CLI_EXIT_USAGE;
    }
  if (!(from_ms >= 0.0 && from_ms <= to_ms && to_ms <= 1e12))
    {
      g_printerr ("etlscope-cli critical-path: --from and --to take 0 <= FROM <= TO ms\n");
      return ETL_CLI_EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli critical-path: no FILE given (see --help)\n");
      return ETL_CLI_EXIT_USAGE;
    }

  trace = etl_trace_open_full ((const char *const *)files, (const char *const *)manifests, NULL,
                               NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      return ETL_CLI_EXIT_INPUT;
    }
  states = etl_thread_states_new (trace, NULL, &error);
  if (states == NULL)
    {
      g_printerr ("etlscope-cli critical-path: %s\n", error->message);
      return ETL_CLI_EXIT_INPUT;
    }
  if (etl_thread_states_get (states, (guint32)tid, &n_states) == NULL || n_states == 0)
    {
      g_printerr ("etlscope-cli critical-path: thread %" G_GINT64_FORMAT
                  " has no state in the trace (no CSwitch or ReadyThread names it)\n",
                  tid);
      etl_cli_report_problems (trace);
      return ETL_CLI_EXIT_INPUT;
    }
  origin = etl_trace_get_origin (trace);
  segs = etl_critical_path_compute (states, etl_trace_get_process_table (trace), (guint32)tid,
                                    origin + (gint64)(from_ms * 10000.0 + 0.5),
                                    origin + (gint64)(to_ms * 10000.0 + 0.5), &counts);
  print_path (trace, states, (guint32)tid, from_ms, to_ms, segs, &counts);
  return etl_cli_report_problems (trace);
}
