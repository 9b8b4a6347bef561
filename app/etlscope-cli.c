/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli: the etlscope core, headless, for scripts and tests.
 *
 *   etlscope-cli info [--manifest FILE.man]... FILE...
 *   etlscope-cli dump [--format=jsonl|csv] [--limit N] [--no-fields] [--stacks] [--manifest FILE.man]... FILE...
 *   etlscope-cli stats [--manifest FILE.man]... FILE...
 *   etlscope-cli losses [--manifest FILE.man]... FILE...
 *   etlscope-cli processes [--manifest FILE.man]... FILE...
 *   etlscope-cli session ...
 *   etlscope-cli slice [--from MS] [--to MS] [--pid N] [--provider GUID] IN... -o OUT.etl
 *   etlscope-cli synth --cpus N --records N [...] -o OUT.etl
 *   etlscope-cli symbols [--rva HEX]... FILE.pdb
 *
 * Exit status 0 on success; 1 with one line per problem on stderr (file,
 * byte offset, reason) when input could not be read completely; 2 on a usage
 * error.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#ifdef G_OS_WIN32
#include <fcntl.h>
#include <io.h>
#endif

#include "etl-cli-cpu.h"
#include "etl-cli-regions.h"
#include "etl-cli-waits.h"
#include "etl-cli-critical-path.h"
#include "etl-cli-stacks.h"
#include "etl-cli-symbols.h"
#include "etl-stacks.h"
#include "etl-cli-groups.h"
#include "etl-cli-session.h"
#include "etl-cli-write.h"
#include "etl-decode.h"
#include "etl-dump.h"
#include "etl-names.h"
#include "etl-process-table.h"
#include "etl-session.h"
#include "etl-trace.h"
#include "etl-trace-stats.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static const char *
clock_type_name (guint32 clock_type)
{
  switch (clock_type)
    {
    case ETL_CLOCK_QPC: return "QPC";
    case ETL_CLOCK_SYSTEM_TIME: return "SystemTime";
    case ETL_CLOCK_CPU_CYCLE: return "CpuCycle";
    default: return "Unknown";
    }
}

static void
print_json (JsonNode *root, gboolean pretty)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, pretty);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
}

/* Prints every file's problems, one line each; returns the exit status. */
static int
report_problems (EtlTrace *trace)
{
  int status = 0;

  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      for (guint p = 0; p < info->problems->len; p++)
        {
          const GError *e = g_ptr_array_index (info->problems, p);

          g_printerr ("etlscope-cli: %s\n", e->message);
          status = EXIT_INPUT;
        }
      if (info->n_problems_dropped)
        g_printerr ("etlscope-cli: %s: %" G_GUINT64_FORMAT " more problems not shown\n", info->path,
                    info->n_problems_dropped);
    }
  return status;
}

static EtlTrace *
open_or_report (char **files, char **manifests, int *status)
{
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;

  trace = etl_trace_open_full ((const char *const *) files, (const char *const *) manifests, NULL, NULL, NULL,
                               &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      *status = EXIT_INPUT;
    }
  return trace;
}

static void
add_time (JsonBuilder *b, const char *name, gint64 filetime)
{
  g_autofree char *iso = etl_filetime_to_iso8601 (filetime);
  g_autofree char *iso_name = g_strconcat (name, "_iso", NULL);

  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, filetime);
  json_builder_set_member_name (b, iso_name);
  if (iso)
    json_builder_add_string_value (b, iso);
  else
    json_builder_add_null_value (b);
}

static void
add_int (JsonBuilder *b, const char *name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

static void
add_problems (JsonBuilder *b, const EtlFileInfo *info)
{
  json_builder_set_member_name (b, "problems");
  json_builder_begin_array (b);
  for (guint p = 0; p < info->problems->len; p++)
    json_builder_add_string_value (b, ((const GError *) g_ptr_array_index (info->problems, p))->message);
  json_builder_end_array (b);
}

/* ------------------------------------------------------------------------ */

static int
cmd_info (EtlTrace *trace)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;

  json_builder_begin_array (b);
  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);
      g_autofree char *mode_names = etl_session_format_flags (info->log_file_mode, FALSE);
      g_auto (GStrv) modes = NULL;

      json_builder_begin_object (b);
      add_string (b, "path", info->path);
      add_string (b, "logger_name", info->logger_name);
      add_string (b, "log_file_name", info->log_file_name);
      add_int (b, "file_size", (gint64) info->file_size);
      add_int (b, "buffer_size", info->buffer_size);
      add_int (b, "version", info->version);
      add_int (b, "provider_version", info->provider_version);
      add_int (b, "pointer_size", info->pointer_size);
      add_int (b, "number_of_processors", info->number_of_processors);
      add_int (b, "perf_freq", info->perf_freq);
      add_int (b, "clock_type", info->clock_type);
      add_string (b, "clock_type_name", clock_type_name (info->clock_type));
      add_int (b, "cpu_speed_mhz", info->cpu_speed_mhz);
      add_int (b, "timer_resolution", info->timer_resolution);
      add_int (b, "maximum_file_size", info->maximum_file_size);
      add_int (b, "utc_offset_minutes", -info->tz_bias_minutes);
      add_time (b, "start_time", info->start_time);
      add_time (b, "end_time", info->end_time);
      add_time (b, "boot_time", info->boot_time);
      json_builder_set_member_name (b, "log_file_mode");
      json_builder_begin_object (b);
      add_int (b, "value", info->log_file_mode);
      json_builder_set_member_name (b, "flags");
      json_builder_begin_array (b);
      modes = g_strsplit (mode_names, "|", -1);
      for (guint m = 0; modes[m]; m++)
        if (modes[m][0] && strcmp (modes[m], "0") != 0)
          json_builder_add_string_value (b, modes[m]);
      json_builder_end_array (b);
      json_builder_end_object (b);
      add_int (b, "buffers_written", info->buffers_written);
      add_int (b, "events_lost", info->events_lost);
      add_int (b, "buffers_lost", info->buffers_lost);
      json_builder_set_member_name (b, "compressed");
      json_builder_add_boolean_value (b, info->compressed);
      add_int (b, "records", (gint64) info->n_records);
      add_int (b, "skipped_records", (gint64) info->n_skipped);
      add_int (b, "buffers", (gint64) info->n_buffers);
      add_int (b, "cpus_seen", info->n_cpus);
      json_builder_set_member_name (b, "records_by_header_type");
      json_builder_begin_object (b);
      for (guint t = 0; t < ETL_N_HEADER_TYPES; t++)
        if (info->records_by_header_type[t])
          {
            char key[8];

            g_snprintf (key, sizeof key, "%u", t);
            add_int (b, key, (gint64) info->records_by_header_type[t]);
          }
      json_builder_end_object (b);
      add_problems (b, info);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return 0;
}

/* ------------------------------------------------------------------------ */

/* dump: etl_dump_write() to stdout, problems on stderr. */
static gboolean
dump_to_stdout (const char *data, gsize len, gpointer user_data, GError **error)
{
  (void)user_data;
  if (fwrite (data, 1, len, stdout) != len)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "writing the output: %s", g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static void
dump_problem (guint64 index, const GError *problem, gpointer user_data)
{
  (void)index;
  (void)user_data;
  g_printerr ("etlscope-cli: %s\n", problem->message);
}

static int
cmd_dump (EtlTrace *trace, EtlDumpFormat format, gint64 limit, gboolean with_fields, EtlStacks *stacks)
{
  g_autoptr (GError) error = NULL;
  guint64 n_problems = 0;

  if (!etl_dump_write (trace, stacks, format, with_fields ? ETL_DUMP_FIELDS : ETL_DUMP_NONE,
                       limit >= 0 ? (guint64)limit : G_MAXUINT64, 0, dump_to_stdout, dump_problem, NULL,
                       &n_problems, &error))
    {
      g_printerr ("etlscope-cli dump: %s\n", error->message);
      return EXIT_INPUT;
    }
  return n_problems > 0 ? EXIT_INPUT : 0;
}

/* ------------------------------------------------------------------------ */

static gint
compare_counts (gconstpointer a, gconstpointer b, gpointer user_data)
{
  GHashTable *counts = user_data;
  gsize x = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, *(const char *const *) a));
  gsize y = GPOINTER_TO_SIZE (g_hash_table_lookup (counts, *(const char *const *) b));

  if (x != y)
    return x > y ? -1 : 1;
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* Adds @counts as an object, largest first. */
static void
add_counts (JsonBuilder *b, const char *member, GHashTable *counts)
{
  guint n;
  g_autofree gpointer *keys = g_hash_table_get_keys_as_array (counts, &n);

  g_qsort_with_data (keys, (gint) n, sizeof (gpointer), compare_counts, counts);
  json_builder_set_member_name (b, member);
  json_builder_begin_object (b);
  for (guint i = 0; i < n; i++)
    add_int (b, keys[i], (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (counts, keys[i])));
  json_builder_end_object (b);
}

static int
cmd_stats (EtlTrace *trace, double open_ms)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (EtlTraceStats) stats = NULL;
  guint64 n = etl_trace_get_n_records (trace);
  guint64 bytes = 0, events_lost = 0, buffers_lost = 0;
  guint n_losses;
  double duration_ms;
  int status = 0;

  /* Counted from the index, each record's header read once, in parallel
   * (etl-trace-stats.c). */
  stats = etl_trace_stats_compute (trace, 0);
  if (stats->n_unreadable > 0)
    status = EXIT_INPUT;

  etl_trace_get_losses (trace, &n_losses);
  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      bytes += info->file_size;
      events_lost += info->events_lost;
      buffers_lost += info->buffers_lost;
    }
  duration_ms = n ? etl_trace_filetime_to_ms (trace, etl_trace_get_last_filetime (trace))
                      - etl_trace_filetime_to_ms (trace, etl_trace_get_first_filetime (trace))
                  : 0.0;

  json_builder_begin_object (b);
  add_int (b, "files", etl_trace_get_n_files (trace));
  add_int (b, "bytes", (gint64) bytes);
  add_int (b, "records", (gint64) n);
  add_int (b, "cpus", etl_trace_get_n_cpus (trace));
  add_time (b, "first_filetime", etl_trace_get_first_filetime (trace));
  add_time (b, "last_filetime", etl_trace_get_last_filetime (trace));
  json_builder_set_member_name (b, "duration_ms");
  json_builder_add_double_value (b, duration_ms);
  json_builder_set_member_name (b, "records_per_second");
  json_builder_add_double_value (b, duration_ms > 0 ? (double) n / (duration_ms / 1000.0) : 0.0);
  json_builder_set_member_name (b, "open_ms");
  json_builder_add_double_value (b, open_ms);
  json_builder_set_member_name (b, "open_records_per_second");
  json_builder_add_double_value (b, open_ms > 0 ? (double) n / (open_ms / 1000.0) : 0.0);
  json_builder_set_member_name (b, "open_mb_per_second");
  json_builder_add_double_value (b, open_ms > 0 ? (double) bytes / 1e6 / (open_ms / 1000.0) : 0.0);
  add_counts (b, "records_by_provider", stats->by_provider);
  add_counts (b, "records_by_kind", stats->by_kind);
  add_counts (b, "records_by_header_type", stats->by_header_type);
  add_counts (b, "records_by_cpu", stats->by_cpu);
  add_counts (b, "records_by_process", stats->by_process);
  json_builder_set_member_name (b, "losses");
  json_builder_begin_object (b);
  add_int (b, "events_lost", (gint64) events_lost);
  add_int (b, "buffers_lost", (gint64) buffers_lost);
  add_int (b, "loss_points", n_losses);
  json_builder_end_object (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return status;
}

/* ------------------------------------------------------------------------ */

static const char *
loss_kind_name (EtlLossKind kind)
{
  switch (kind)
    {
    case ETL_LOSS_EVENTS_LOST_BUFFER: return "events_lost_buffer";
    case ETL_LOSS_BUFFER_LOST_FLAG: return "buffer_lost_flag";
    case ETL_LOSS_SEQUENCE_GAP: return "sequence_gap";
    case ETL_LOSS_RT_LOST_EVENT: return "rt_lost_event";
    case ETL_LOSS_RT_LOST_BUFFER: return "rt_lost_buffer";
    case ETL_LOSS_RT_LOST_FILE: return "rt_lost_file";
    default: return "unknown";
    }
}

static int
cmd_losses (EtlTrace *trace)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  guint n_losses;
  const EtlLoss *losses = etl_trace_get_losses (trace, &n_losses);

  json_builder_begin_array (b);
  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      json_builder_begin_object (b);
      add_string (b, "path", info->path);
      add_int (b, "events_lost", info->events_lost);
      add_int (b, "buffers_lost", info->buffers_lost);
      json_builder_set_member_name (b, "series");
      json_builder_begin_array (b);
      for (guint l = 0; l < n_losses; l++)
        {
          if (losses[l].file != i)
            continue;
          json_builder_begin_object (b);
          add_int (b, "filetime", losses[l].filetime);
          json_builder_set_member_name (b, "rel_ms");
          json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, losses[l].filetime));
          json_builder_set_member_name (b, "cpu");
          if (losses[l].cpu >= 0)
            json_builder_add_int_value (b, losses[l].cpu);
          else
            json_builder_add_null_value (b);
          add_string (b, "kind", loss_kind_name (losses[l].kind));
          add_int (b, "count", (gint64) losses[l].count);
          add_int (b, "sequence", losses[l].sequence);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      add_problems (b, info);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return 0;
}

/* ------------------------------------------------------------------------ */

/* A FILETIME that may be unknown (0): the number and its ISO 8601 form, or nulls. */
static void
add_time_or_null (JsonBuilder *b, const char *name, gint64 filetime)
{
  g_autofree char *iso_name = g_strconcat (name, "_iso", NULL);

  if (filetime != 0)
    {
      add_time (b, name, filetime);
      return;
    }
  json_builder_set_member_name (b, name);
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, iso_name);
  json_builder_add_null_value (b);
}

static int
cmd_processes (EtlTrace *trace)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  guint n_processes, n_threads;
  const EtlProcess *processes = etl_process_table_get_processes (table, &n_processes);
  const EtlThread *threads = etl_process_table_get_threads (table, &n_threads);
  g_autofree GPtrArray **threads_of = g_new0 (GPtrArray *, MAX (n_processes, 1));

  for (guint t = 0; t < n_threads; t++)
    if (threads[t].process != NULL)
      {
        guint p = threads[t].process->index;

        if (threads_of[p] == NULL)
          threads_of[p] = g_ptr_array_new ();
        g_ptr_array_add (threads_of[p], (gpointer) &threads[t]);
      }

  json_builder_begin_array (b);
  for (guint i = 0; i < n_processes; i++)
    {
      const EtlProcess *p = &processes[i];
      g_autofree char *display = etl_process_format_name (p, p->pid);

      json_builder_begin_object (b);
      add_int (b, "pid", p->pid);
      add_string (b, "name", display);
      add_string (b, "image_name", p->image_name);
      add_string (b, "command_line", p->command_line);
      add_int (b, "parent_pid", p->parent_pid);
      json_builder_set_member_name (b, "session_id");
      if (p->session_id != G_MAXUINT32)
        json_builder_add_int_value (b, p->session_id);
      else
        json_builder_add_null_value (b);
      add_time_or_null (b, "start_time", p->start_time);
      add_time_or_null (b, "end_time", p->end_time);
      json_builder_set_member_name (b, "start_rel_ms");
      if (p->start_time != 0)
        json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, p->start_time));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "end_rel_ms");
      if (p->end_time != 0)
        json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, p->end_time));
      else
        json_builder_add_null_value (b);
      json_builder_set_member_name (b, "exit_status");
      if (p->end_time != 0)
        json_builder_add_int_value (b, p->exit_status);
      else
        json_builder_add_null_value (b);
      {
        char key[24];

        g_snprintf (key, sizeof key, "0x%" G_GINT64_MODIFIER "x", p->unique_process_key);
        add_string (b, "unique_process_key", key);
      }
      json_builder_set_member_name (b, "threads");
      json_builder_begin_array (b);
      for (guint t = 0; threads_of[i] != NULL && t < threads_of[i]->len; t++)
        {
          const EtlThread *th = g_ptr_array_index (threads_of[i], t);

          json_builder_begin_object (b);
          add_int (b, "tid", th->tid);
          add_time_or_null (b, "start_time", th->start_time);
          add_time_or_null (b, "end_time", th->end_time);
          add_string (b, "name", th->name);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
      g_clear_pointer (&threads_of[i], g_ptr_array_unref);
    }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  print_json (root, TRUE);
  return 0;
}

/* ------------------------------------------------------------------------ */

static const char *usage_summary =
  "Commands:\n"
  "  info FILE...        header fields and counts of each file, as JSON\n"
  "  dump FILE...        every record in merged time order (JSON lines or CSV)\n"
  "  stats FILE...       open, merge and summarise: records per provider, kind, CPU, process\n"
  "  losses FILE...      lost events and buffers over time, as JSON\n"
  "  processes FILE...   the processes and threads of the trace, with lifetimes, as JSON\n"
  "  cpu FILE...         CPU usage per process or thread (sampled or --precise), totals and series, JSON\n"
  "  waits FILE...       CPU Usage (Precise) rows: who waited, why, who readied it (--from/--to/--pid/--tid), JSON\n"
  "  regions FILE...     Start/Stop activities (and GC, I/O, lifetimes: --builtin): statistics per name, instances, nesting, JSON\n"
  "  critical-path FILE... the chain of threads a thread waited on (--tid N --from MS --to MS), JSON\n"
  "  stacks FILE...      top frames of the sample stacks in a time range (--from/--to MS), JSON\n"
  "  groups FILE...      records grouped by --by provider,event|process|thread|cpu: counts, times, JSON\n"
  "  session ...         build and check EVENT_TRACE_PROPERTIES (see session --help)\n"
  "  slice IN... -o OUT  write the records in a time range / of a process / provider to a new .etl\n"
  "  synth -o OUT        write a realistic synthetic .etl (--cpus N --records N ...)\n"
  "  symbols FILE.pdb    a PDB's GUID, age and functions; --rva HEX names the function+0xOFFSET, JSON\n"
  "\n"
  "\n"
  "info, dump, stats, losses and processes take --manifest FILE.man (repeatable) to\n"
  "describe events with an instrumentation manifest, and --threads N: how many\n"
  "threads read and merge the files (default: $ETLSCOPE_THREADS, else all processors).\n"
  "Run 'etlscope-cli COMMAND --help' for a command's options.";

static int
run_trace_command (const char *command, int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  gboolean no_fields = FALSE;
  gboolean with_stacks = FALSE;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autofree char *symbols = NULL;
  g_autoptr (EtlSymbolResolver) resolver = NULL;
  gboolean download = FALSE;
  g_autofree char *format = NULL;
  g_autofree char *param = NULL;
  gint64 limit = -1;
  gint threads = -1;
  g_autoptr (EtlTrace) trace = NULL;
  int status = 0, command_status;
  gint64 t0;
  double open_ms;
  EtlDumpFormat dump_format = ETL_DUMP_JSONL;
  GOptionEntry dump_entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format, "Output format: jsonl (default) or csv", "FORMAT" },
    { "limit", 'n', 0, G_OPTION_ARG_INT64, &limit, "Print at most N records", "N" },
    { "no-fields", 0, 0, G_OPTION_ARG_NONE, &no_fields, "Leave out each record's decoded fields", NULL },
    { "stacks", 0, 0, G_OPTION_ARG_NONE, &with_stacks,
      "Add \"stack\" (module+0xOFFSET frames, innermost first) to records that have one (JSON lines)", NULL },
    { "symbols", 0, 0, G_OPTION_ARG_STRING, &symbols,
      "With --stacks, name native frames module!function+0xOFFSET through PDBs found in this symbol path "
      "(_NT_SYMBOL_PATH syntax; default $_NT_SYMBOL_PATH)", "PATH" },
    { "download", 0, 0, G_OPTION_ARG_NONE, &download,
      "With --symbols, download PDBs not found locally from the symbol path's servers (srv*DIR*URL)", NULL },
    { NULL }
  };
  GOptionEntry file_entries[] = {
    { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
      "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &threads,
      "Threads that read and merge the files (1-64; 0 or unset: $ETLSCOPE_THREADS, else all processors)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
    { NULL }
  };

  param = g_strdup_printf ("%s FILE...", command);
  context = g_option_context_new (param);
  if (strcmp (command, "dump") == 0)
    {
      g_option_context_set_summary (context, "Print every record of the files in merged time order, one per line,\n"
                                             "with its decoded name, process and fields.");
      g_option_context_add_main_entries (context, dump_entries, NULL);
      g_option_context_add_main_entries (context, file_entries, NULL);
    }
  else
    {
      g_option_context_add_main_entries (context, file_entries, NULL);
      if (strcmp (command, "processes") == 0)
        g_option_context_set_summary (context, "Print the process table (processes with lifetimes, command lines and\n"
                                               "threads, from the trace's Process and Thread records) as JSON.");
      else if (strcmp (command, "info") == 0)
        g_option_context_set_summary (context, "Print each file's TRACE_LOGFILE_HEADER and record counts as a JSON array.");
      else if (strcmp (command, "stats") == 0)
        g_option_context_set_summary (context, "Read, decompress, index and merge the files and summarise them as JSON.");
      else
        g_option_context_set_summary (context, "Print the loss accounting (header totals and the time series) as JSON.");
    }
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli %s: %s\n", command, error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli %s: no FILE given (see --help)\n", command);
      return EXIT_USAGE;
    }
  if (threads != -1)
    {
      if (threads < 0 || threads > 64)
        {
          g_printerr ("etlscope-cli %s: --threads %d is outside 0..64\n", command, threads);
          return EXIT_USAGE;
        }
      etl_trace_set_open_threads ((guint) threads);
    }
  if (format != NULL)
    {
      if (strcmp (format, "jsonl") == 0)
        dump_format = ETL_DUMP_JSONL;
      else if (strcmp (format, "csv") == 0)
        dump_format = ETL_DUMP_CSV;
      else
        {
          g_printerr ("etlscope-cli dump: unknown --format '%s' (jsonl or csv)\n", format);
          return EXIT_USAGE;
        }
    }

  t0 = g_get_monotonic_time ();
  trace = open_or_report (files, manifests, &status);
  if (trace == NULL)
    return status;
  open_ms = (double) (g_get_monotonic_time () - t0) / 1000.0;

  if (strcmp (command, "info") == 0)
    command_status = cmd_info (trace);
  else if (strcmp (command, "dump") == 0)
    {
      gboolean usage_error = FALSE;

      if (with_stacks)
        stacks = etl_stacks_compute (trace, NULL, NULL, NULL, NULL);
      resolver = etl_cli_symbols_resolver_new (stacks, symbols, "dump", download, &usage_error);
      if (usage_error)
        return EXIT_USAGE;
      command_status = cmd_dump (trace, dump_format, limit, !no_fields, stacks);
    }
  else if (strcmp (command, "stats") == 0)
    command_status = cmd_stats (trace, open_ms);
  else if (strcmp (command, "processes") == 0)
    command_status = cmd_processes (trace);
  else
    command_status = cmd_losses (trace);
  fflush (stdout);

  status = report_problems (trace);
  return status ? status : command_status;
}

/* The same bytes on every platform.  Windows: stdout and stderr in binary
 * mode (the C runtime's text mode writes CR LF for each LF, which corrupts
 * `session --emit binary` and makes every text output differ), and the
 * arguments as UTF-8 from the UTF-16 command line (main()'s argv is in the
 * ANSI code page, which cannot hold every file name).  Returns the
 * arguments as a GStrv, which the commands parse with
 * g_option_context_parse_strv() (UTF-8 on Windows, bytes elsewhere). */
static char **
cli_init_platform (char **argv)
{
#ifdef G_OS_WIN32
  _setmode (_fileno (stdout), _O_BINARY);
  _setmode (_fileno (stderr), _O_BINARY);
  (void) argv;
  return g_win32_get_command_line ();
#else
  return g_strdupv (argv);
#endif
}

int
main (int argc, char **argv)
{
  const char *command;
  g_auto (GStrv) args = cli_init_platform (argv);

  argv = args;
  argc = (int) g_strv_length (args);
  setlocale (LC_ALL, "");

  if (argc < 2 || strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0
      || strcmp (argv[1], "help") == 0)
    {
      g_print ("Usage:\n  etlscope-cli COMMAND [OPTION…] [FILE…]\n\n%s\n", usage_summary);
      return argc < 2 ? EXIT_USAGE : 0;
    }
  if (strcmp (argv[1], "--version") == 0)
    {
      g_print ("etlscope-cli %s\n", PACKAGE_VERSION);
      return 0;
    }

  command = argv[1];
  if (strcmp (command, "session") == 0)
    return etl_cli_session_main (argc - 1, argv + 1);
  if (strcmp (command, "slice") == 0)
    return etl_cli_slice_main (argc - 1, argv + 1);
  if (strcmp (command, "synth") == 0)
    return etl_cli_synth_main (argc - 1, argv + 1);
  if (strcmp (command, "cpu") == 0)
    return etl_cli_cpu_main (argc - 1, argv + 1);
  if (strcmp (command, "waits") == 0)
    return etl_cli_waits_main (argc - 1, argv + 1);
  if (strcmp (command, "regions") == 0)
    return etl_cli_regions_main (argc - 1, argv + 1);
  if (strcmp (command, "critical-path") == 0)
    return etl_cli_critical_path_main (argc - 1, argv + 1);
  if (strcmp (command, "stacks") == 0)
    return etl_cli_stacks_main (argc - 1, argv + 1);
  if (strcmp (command, "groups") == 0)
    return etl_cli_groups_main (argc - 1, argv + 1);
  if (strcmp (command, "symbols") == 0)
    return etl_cli_symbols_main (argc - 1, argv + 1);
  if (strcmp (command, "info") == 0 || strcmp (command, "dump") == 0 || strcmp (command, "stats") == 0
      || strcmp (command, "losses") == 0 || strcmp (command, "processes") == 0)
    return run_trace_command (command, argc - 1, argv + 1);

  g_printerr ("etlscope-cli: unknown command '%s'\n\n%s\n", command, usage_summary);
  return EXIT_USAGE;
}
