/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-cli-write: the subcommands that write .etl files.
 *
 *   etlscope-cli slice [--from MS] [--to MS] [--pid N] [--provider GUID]... IN... -o OUT.etl
 *   etlscope-cli synth --cpus N --records N [--buffer-kb N] [--clock qpc|system|cycle]
 *                      [--loss-rate F] [--seed S] -o OUT.etl
 *
 * Both write OUT.etl atomically; slice prints a JSON summary of what it wrote.
 * Exit status 0 on success, 1 when an input cannot be read or the output
 * cannot be written, 2 on a usage error.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-cli-write.h"

#include <errno.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "etl-names.h"
#include "etl-synth.h"
#include "etl-trace.h"
#include "etl-writer.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static void
print_summary (const char *path, const EtlWriterStats *st)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "path");
  json_builder_add_string_value (b, path);
  json_builder_set_member_name (b, "records");
  json_builder_add_int_value (b, (gint64) st->n_records);
  json_builder_set_member_name (b, "buffers");
  json_builder_add_int_value (b, (gint64) st->n_buffers);
  json_builder_set_member_name (b, "file_size");
  json_builder_add_int_value (b, (gint64) st->file_size);
  json_builder_set_member_name (b, "cpus");
  json_builder_add_int_value (b, st->n_cpus);
  json_builder_set_member_name (b, "events_lost");
  json_builder_add_int_value (b, st->events_lost);
  json_builder_set_member_name (b, "buffers_lost");
  json_builder_add_int_value (b, st->buffers_lost);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  puts (text);
}

/* A non-negative decimal number of milliseconds, e.g. "1500" or "12.25". */
static gboolean
parse_ms (const char *text, gint64 *ticks)
{
  char *end = NULL;
  double ms;

  if (text == NULL || *text == '\0')
    return FALSE;
  errno = 0;
  ms = g_ascii_strtod (text, &end);
  if (errno != 0 || end == text || *end != '\0' || !(ms >= 0.0 && ms < 1e12))
    return FALSE;
  *ticks = (gint64) (ms * 10000.0 + 0.5); /* 1 ms = 10,000 FILETIME ticks */
  return TRUE;
}

static gboolean
parse_u64 (const char *text, guint64 min, guint64 max, guint64 *out)
{
  return text != NULL && g_ascii_string_to_unsigned (text, 10, min, max, out, NULL);
}

int
etl_cli_slice_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) provider_args = NULL;
  g_autofree char *from_arg = NULL;
  g_autofree char *to_arg = NULL;
  g_autofree char *pid_arg = NULL;
  g_autofree char *output = NULL;
  g_autoptr (GArray) providers = g_array_new (FALSE, FALSE, sizeof (EtlGuid));
  g_autoptr (EtlTrace) trace = NULL;
  EtlSliceOptions options;
  EtlWriterStats stats;
  gint64 from_ticks = -1, to_ticks = -1;
  guint64 pid = 0;
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_STRING, &from_arg, "Keep records from MS milliseconds after the trace's start (inclusive)", "MS" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &to_arg, "Keep records before MS milliseconds after the trace's start", "MS" },
    { "pid", 0, 0, G_OPTION_ARG_STRING, &pid_arg, "Keep only records of process N", "N" },
    { "provider", 0, 0, G_OPTION_ARG_STRING_ARRAY, &provider_args, "Keep only records of this provider (GUID or known name; repeatable)", "GUID" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The .etl file to write (written atomically)", "OUT.etl" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "IN..." },
    { NULL }
  };

  context = g_option_context_new ("IN... -o OUT.etl");
  g_option_context_set_summary (context,
                                "Write the selected records of the input files, merged in time order, to a new "
                                ".etl file.\nRecords keep their bytes; times are milliseconds from the "
                                "earliest input's start, as 'dump' prints them (rel_ms).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli slice: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli slice: no input file given (see --help)\n");
      return EXIT_USAGE;
    }
  if (output == NULL)
    {
      g_printerr ("etlscope-cli slice: no output file given (-o OUT.etl)\n");
      return EXIT_USAGE;
    }
  if ((from_arg && !parse_ms (from_arg, &from_ticks)) || (to_arg && !parse_ms (to_arg, &to_ticks)))
    {
      g_printerr ("etlscope-cli slice: --from and --to take a number of milliseconds ≥ 0\n");
      return EXIT_USAGE;
    }
  if (pid_arg && !parse_u64 (pid_arg, 0, G_MAXUINT32, &pid))
    {
      g_printerr ("etlscope-cli slice: --pid takes a process id (0 to 4294967295), not '%s'\n", pid_arg);
      return EXIT_USAGE;
    }
  for (guint i = 0; provider_args && provider_args[i]; i++)
    {
      EtlGuid guid;

      if (!etl_guid_parse (provider_args[i], &guid) && !etl_names_provider_lookup (provider_args[i], &guid))
        {
          g_printerr ("etlscope-cli slice: --provider '%s' is neither a GUID nor a known provider name\n",
                      provider_args[i]);
          return EXIT_USAGE;
        }
      g_array_append_val (providers, guid);
    }

  trace = etl_trace_open ((const char *const *) files, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli slice: %s\n", error->message);
      return EXIT_INPUT;
    }

  etl_slice_options_init (&options);
  if (from_ticks >= 0)
    options.from = etl_trace_get_origin (trace) + from_ticks;
  if (to_ticks >= 0)
    options.to = etl_trace_get_origin (trace) + to_ticks;
  options.has_pid = pid_arg != NULL;
  options.pid = (guint32) pid;
  options.n_providers = providers->len;
  options.providers = (const EtlGuid *) (void *) providers->data;

  if (!etl_writer_write_slice (trace, &options, output, NULL, NULL, NULL, &stats, &error))
    {
      g_printerr ("etlscope-cli slice: %s\n", error->message);
      return EXIT_INPUT;
    }
  print_summary (output, &stats);

  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    if (etl_trace_get_file_info (trace, i)->problems->len > 0)
      {
        const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

        for (guint p = 0; p < info->problems->len; p++)
          g_printerr ("etlscope-cli: %s\n", ((const GError *) g_ptr_array_index (info->problems, p))->message);
        return EXIT_INPUT;
      }
  return 0;
}

int
etl_cli_synth_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *cpus_arg = NULL;
  g_autofree char *records_arg = NULL;
  g_autofree char *buffer_arg = NULL;
  g_autofree char *clock_arg = NULL;
  g_autofree char *loss_arg = NULL;
  g_autofree char *seed_arg = NULL;
  g_autofree char *output = NULL;
  g_autofree char *schedule_ms_arg = NULL;
  g_autofree char *interval_arg = NULL;
  gboolean schedule = FALSE;
  gboolean waits = FALSE;
  gboolean no_ready_thread = FALSE;
  gboolean waits_stacks = FALSE;
  gboolean activities = FALSE;
  gboolean builtin_spans = FALSE;
  g_autofree char *pairs_arg = NULL;
  g_auto (GStrv) rest = NULL;
  EtlSynthParams params;
  guint64 v;
  GOptionEntry entries[] = {
    { "cpus", 0, 0, G_OPTION_ARG_STRING, &cpus_arg, "Processors (1–2048)", "N" },
    { "records", 0, 0, G_OPTION_ARG_STRING, &records_arg, "Event records, the EventTrace header excluded", "N" },
    { "buffer-kb", 0, 0, G_OPTION_ARG_STRING, &buffer_arg, "BufferSize in KiB (4–16384, default 64)", "N" },
    { "clock", 0, 0, G_OPTION_ARG_STRING, &clock_arg, "Timestamp clock: qpc (default), system or cycle", "CLOCK" },
    { "loss-rate", 0, 0, G_OPTION_ARG_STRING, &loss_arg, "Fraction of full buffers lost (0–0.9, default 0)", "F" },
    { "seed", 0, 0, G_OPTION_ARG_STRING, &seed_arg, "Generator seed (default 1)", "S" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, "The .etl file to write (written atomically)", "OUT.etl" },
    { "schedule", 0, 0, G_OPTION_ARG_NONE, &schedule,
      "Write a known CPU schedule instead (process/thread lifetimes, Image loads, CSwitch, ReadyThread, SampledProfile with StackWalk); "
      "--records is then not used", NULL },
    { "schedule-ms", 0, 0, G_OPTION_ARG_STRING, &schedule_ms_arg, "Length of the schedule in ms (default 100)", "N" },
    { "sample-interval", 0, 0, G_OPTION_ARG_STRING, &interval_arg,
      "SampledProfile interval in 100-ns units (1000–1000000), written as a SampledProfileInterval record "
      "(default: none, 1 ms)", "N" },
    { "waits", 0, 0, G_OPTION_ARG_NONE, &waits,
      "Write the known waits schedule instead (CSwitch and ReadyThread of 4 threads in 3 processes on 2 "
      "processors, see etl-synth-waits.c); --cpus defaults to 2, --records is not used", NULL },
    { "no-ready-thread", 0, 0, G_OPTION_ARG_NONE, &no_ready_thread,
      "With --waits, leave the ReadyThread records out", NULL },
    { "stacks", 0, 0, G_OPTION_ARG_NONE, &waits_stacks,
      "With --waits, add Image loads and a StackWalk record after each CSwitch and ReadyThread", NULL },
    { "activities", 0, 0, G_OPTION_ARG_NONE, &activities,
      "Write TraceLogging Start/Stop activities instead (see etl-synth-activities.c): the known scenario, or "
      "with --activity-pairs N, --records records of which N Start/Stop pairs; --cpus defaults to 2", NULL },
    { "activity-pairs", 0, 0, G_OPTION_ARG_STRING, &pairs_arg, "With --activities, the Start/Stop pairs", "N" },
    { "builtin-spans", 0, 0, G_OPTION_ARG_NONE, &builtin_spans,
      "Write kernel process, thread, FileIo and DiskIo records of known intervals instead (see "
      "etl-synth-spans.c); --records is not used", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &rest, NULL, NULL },
    { NULL }
  };

  context = g_option_context_new ("--cpus N --records N -o OUT.etl");
  g_option_context_set_summary (context,
                                "Write a realistic, deterministic synthetic trace: kernel process, thread and "
                                "image records,\nPERFINFO samples, TraceLogging and classic events, buffers "
                                "interleaved as a session flushes them.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli synth: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (rest != NULL && rest[0] != NULL)
    {
      g_printerr ("etlscope-cli synth: unexpected argument '%s'\n", rest[0]);
      return EXIT_USAGE;
    }
  if (no_ready_thread && !waits)
    {
      g_printerr ("etlscope-cli synth: --no-ready-thread needs --waits\n");
      return EXIT_USAGE;
    }
  if (waits_stacks && !waits)
    {
      g_printerr ("etlscope-cli synth: --stacks needs --waits\n");
      return EXIT_USAGE;
    }
  if (waits && schedule)
    {
      g_printerr ("etlscope-cli synth: --waits and --schedule are two different schedules: give one\n");
      return EXIT_USAGE;
    }
  if ((pairs_arg != NULL && !activities) || (activities && (waits || schedule)))
    {
      g_printerr ("etlscope-cli synth: --activity-pairs needs --activities, which goes without --waits and --schedule\n");
      return EXIT_USAGE;
    }
  if (builtin_spans && (waits || schedule || activities))
    {
      g_printerr ("etlscope-cli synth: --builtin-spans goes without --waits, --schedule and --activities\n");
      return EXIT_USAGE;
    }
  if ((waits || activities || builtin_spans) && cpus_arg == NULL)
    cpus_arg = g_strdup ("2");
  if (builtin_spans && records_arg == NULL)
    records_arg = g_strdup ("0");
  if (activities && pairs_arg == NULL && records_arg == NULL)
    records_arg = g_strdup ("0");
  if (output == NULL || cpus_arg == NULL || (records_arg == NULL && !schedule && !waits))
    {
      g_printerr ("etlscope-cli synth: --cpus, --records (or --schedule or --waits) and -o are required (see --help)\n");
      return EXIT_USAGE;
    }

  etl_synth_params_init (&params);
  if (!parse_u64 (cpus_arg, 1, 2048, &v))
    {
      g_printerr ("etlscope-cli synth: --cpus takes 1 to 2048, not '%s'\n", cpus_arg);
      return EXIT_USAGE;
    }
  params.n_cpus = (guint) v;
  params.schedule = schedule;
  params.waits = waits;
  params.no_ready_thread = no_ready_thread;
  params.waits_stacks = waits_stacks;
  params.activities = activities;
  params.builtin_spans = builtin_spans;
  if (pairs_arg != NULL && !parse_u64 (pairs_arg, 1, G_MAXUINT32, &params.activity_pairs))
    {
      g_printerr ("etlscope-cli synth: --activity-pairs takes 1 to 4294967295, not '%s'\n", pairs_arg);
      return EXIT_USAGE;
    }
  if (records_arg != NULL && !parse_u64 (records_arg, 0, G_MAXINT64, &params.n_records))
    {
      g_printerr ("etlscope-cli synth: --records takes a count, not '%s'\n", records_arg);
      return EXIT_USAGE;
    }
  if (buffer_arg != NULL)
    {
      if (!parse_u64 (buffer_arg, 4, 16384, &v))
        {
          g_printerr ("etlscope-cli synth: --buffer-kb takes 4 to 16384, not '%s'\n", buffer_arg);
          return EXIT_USAGE;
        }
      params.buffer_kb = (guint) v;
    }
  if (clock_arg != NULL)
    {
      if (g_ascii_strcasecmp (clock_arg, "qpc") == 0)
        params.clock = ETL_CLOCK_QPC;
      else if (g_ascii_strcasecmp (clock_arg, "system") == 0)
        params.clock = ETL_CLOCK_SYSTEM_TIME;
      else if (g_ascii_strcasecmp (clock_arg, "cycle") == 0)
        params.clock = ETL_CLOCK_CPU_CYCLE;
      else
        {
          g_printerr ("etlscope-cli synth: --clock takes qpc, system or cycle, not '%s'\n", clock_arg);
          return EXIT_USAGE;
        }
    }
  if (loss_arg != NULL)
    {
      char *end = NULL;

      params.loss_rate = g_ascii_strtod (loss_arg, &end);
      if (end == loss_arg || *end != '\0' || !(params.loss_rate >= 0.0 && params.loss_rate <= 0.9))
        {
          g_printerr ("etlscope-cli synth: --loss-rate takes a fraction from 0 to 0.9, not '%s'\n", loss_arg);
          return EXIT_USAGE;
        }
    }
  if (seed_arg != NULL && !parse_u64 (seed_arg, 0, G_MAXUINT64, &params.seed))
    {
      g_printerr ("etlscope-cli synth: --seed takes a number, not '%s'\n", seed_arg);
      return EXIT_USAGE;
    }

  if (schedule_ms_arg != NULL)
    {
      if (!parse_u64 (schedule_ms_arg, 1, 3600000, &v))
        {
          g_printerr ("etlscope-cli synth: --schedule-ms takes 1 to 3600000, not '%s'\n", schedule_ms_arg);
          return EXIT_USAGE;
        }
      params.schedule_ms = (guint) v;
    }
  if (interval_arg != NULL)
    {
      if (!parse_u64 (interval_arg, 1000, 1000000, &v))
        {
          g_printerr ("etlscope-cli synth: --sample-interval takes 1000 to 1000000, not '%s'\n", interval_arg);
          return EXIT_USAGE;
        }
      params.sample_interval = (guint) v;
    }
  if ((schedule_ms_arg != NULL || interval_arg != NULL) && !schedule)
    {
      g_printerr ("etlscope-cli synth: --schedule-ms and --sample-interval need --schedule\n");
      return EXIT_USAGE;
    }

  if (!etl_synth_write (&params, output, &error))
    {
      g_printerr ("etlscope-cli synth: %s\n", error->message);
      return EXIT_INPUT;
    }
  return 0;
}
