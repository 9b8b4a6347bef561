/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli cpu: CPU usage per process or thread as JSON.
 *
 *   etlscope-cli cpu [--precise] [--by process|thread] [--bucket-ms N] [--top N]
 *                    [--manifest FILE.man]... FILE...
 *
 * Prints one object: the totals sorted by use (pid, name, samples or cpu_ms,
 * percent of all processors), the idle threads apart, and the per-bucket
 * series of the top N entries plus "Other" (see etl-cpu-usage.c).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "etl-cli-cpu.h"
#include "etl-cpu-usage.h"
#include "etl-trace.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static void
add_entry_fields (JsonBuilder *b, EtlCpuUsage *usage, const EtlCpuUsageEntry *e)
{
  gboolean sampled = etl_cpu_usage_get_mode (usage) == ETL_CPU_USAGE_SAMPLED;

  json_builder_set_member_name (b, "pid");
  if (e->pid != G_MAXUINT32)
    json_builder_add_int_value (b, e->pid);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, e->name);
  json_builder_set_member_name (b, "image_name");
  if (e->process != NULL && e->process->image_name != NULL)
    json_builder_add_string_value (b, e->process->image_name);
  else
    json_builder_add_null_value (b);
  if (etl_cpu_usage_get_grouping (usage) == ETL_CPU_USAGE_BY_THREAD)
    {
      json_builder_set_member_name (b, "tid");
      json_builder_add_int_value (b, e->tid);
      json_builder_set_member_name (b, "thread_name");
      if (e->thread != NULL && e->thread->name != NULL)
        json_builder_add_string_value (b, e->thread->name);
      else
        json_builder_add_null_value (b);
    }
  if (sampled)
    {
      json_builder_set_member_name (b, "samples");
      json_builder_add_int_value (b, (gint64)e->samples);
    }
  json_builder_set_member_name (b, "cpu_ms");
  json_builder_add_double_value (b, (double)e->cpu_time / 10000.0);
  json_builder_set_member_name (b, "percent");
  json_builder_add_double_value (b, e->percent);
}

static void
add_series (JsonBuilder *b, EtlCpuUsage *usage, guint top_n)
{
  g_autoptr (EtlCpuUsageSeries) series = etl_cpu_usage_dup_series (usage, top_n);
  gboolean sampled = etl_cpu_usage_get_mode (usage) == ETL_CPU_USAGE_SAMPLED;
  guint n_entries;
  const EtlCpuUsageEntry *entries = etl_cpu_usage_get_entries (usage, &n_entries);
  gint64 width = etl_cpu_usage_get_bucket_width (usage);

  json_builder_set_member_name (b, "series");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "bucket_start_ms");
  json_builder_begin_array (b);
  for (guint k = 0; k < series->n_buckets; k++)
    json_builder_add_double_value (b, (double)((gint64)k * width) / 10000.0);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "rows");
  json_builder_begin_array (b);
  for (guint r = 0; r <= series->n_rows; r++)
    {
      const EtlCpuUsageEntry *e
          = r < series->n_rows ? series->entries[r] : etl_cpu_usage_get_idle (usage);
      const char *name = r < series->n_rows ? series->names[r] : e->name;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, name);
      json_builder_set_member_name (b, "pid");
      if (e != NULL && e->pid != G_MAXUINT32)
        json_builder_add_int_value (b, e->pid);
      else
        json_builder_add_null_value (b);
      if (etl_cpu_usage_get_grouping (usage) == ETL_CPU_USAGE_BY_THREAD)
        {
          json_builder_set_member_name (b, "tid");
          if (e != NULL && e->tid != G_MAXUINT32)
            json_builder_add_int_value (b, e->tid);
          else
            json_builder_add_null_value (b);
        }
      json_builder_set_member_name (b, "idle");
      json_builder_add_boolean_value (b, r == series->n_rows);
      json_builder_set_member_name (b, "percent");
      json_builder_begin_array (b);
      for (guint k = 0; k < series->n_buckets; k++)
        {
          gint64 cap = etl_cpu_usage_get_bucket_capacity (usage, k);

          if (r < series->n_rows)
            json_builder_add_double_value (b, series->percent[(gsize)r * series->n_buckets + k]);
          else
            json_builder_add_double_value (
                b, cap > 0
                       ? 100.0 * (double)etl_cpu_usage_get_bucket_time (usage, e, k) / (double)cap
                       : 0.0);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "cpu_ms");
      json_builder_begin_array (b);
      for (guint k = 0; k < series->n_buckets; k++)
        {
          gint64 t = 0;

          if (e != NULL)
            t = etl_cpu_usage_get_bucket_time (usage, e, k);
          else
            for (guint i = series->n_rows - 1; i < n_entries; i++)
              t += etl_cpu_usage_get_bucket_time (usage, &entries[i], k);
          json_builder_add_double_value (b, (double)t / 10000.0);
        }
      json_builder_end_array (b);
      if (sampled)
        {
          json_builder_set_member_name (b, "samples");
          json_builder_begin_array (b);
          for (guint k = 0; k < series->n_buckets; k++)
            {
              guint64 n = 0;

              if (e != NULL)
                n = etl_cpu_usage_get_bucket_samples (usage, e, k);
              else
                for (guint i = series->n_rows - 1; i < n_entries; i++)
                  n += etl_cpu_usage_get_bucket_samples (usage, &entries[i], k);
              json_builder_add_int_value (b, (gint64)n);
            }
          json_builder_end_array (b);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
print_usage (EtlCpuUsage *usage, guint top_n)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  guint n_entries;
  const EtlCpuUsageEntry *entries = etl_cpu_usage_get_entries (usage, &n_entries);
  gboolean sampled = etl_cpu_usage_get_mode (usage) == ETL_CPU_USAGE_SAMPLED;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "mode");
  json_builder_add_string_value (b, sampled ? "sampled" : "precise");
  json_builder_set_member_name (b, "by");
  json_builder_add_string_value (
      b, etl_cpu_usage_get_grouping (usage) == ETL_CPU_USAGE_BY_THREAD ? "thread" : "process");
  json_builder_set_member_name (b, "n_cpus");
  json_builder_add_int_value (b, etl_cpu_usage_get_n_cpus (usage));
  json_builder_set_member_name (b, "start_time");
  json_builder_add_int_value (b, etl_cpu_usage_get_start (usage));
  json_builder_set_member_name (b, "span_ms");
  json_builder_add_double_value (
      b, (double)(etl_cpu_usage_get_end (usage) - etl_cpu_usage_get_start (usage)) / 10000.0);
  json_builder_set_member_name (b, sampled ? "n_samples" : "n_cswitches");
  json_builder_add_int_value (b, (gint64)etl_cpu_usage_get_n_records (usage));
  json_builder_set_member_name (b, "n_unattributed");
  json_builder_add_int_value (b, (gint64)etl_cpu_usage_get_n_unattributed (usage));
  json_builder_set_member_name (b, "bucket_ms");
  json_builder_add_double_value (b, (double)etl_cpu_usage_get_bucket_width (usage) / 10000.0);
  json_builder_set_member_name (b, "n_buckets");
  json_builder_add_int_value (b, etl_cpu_usage_get_n_buckets (usage));
  json_builder_set_member_name (b, "totals");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_entries; i++)
    {
      json_builder_begin_object (b);
      add_entry_fields (b, usage, &entries[i]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "idle");
  json_builder_begin_object (b);
  add_entry_fields (b, usage, etl_cpu_usage_get_idle (usage));
  json_builder_end_object (b);
  add_series (b, usage, top_n);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
}

/**
 * etl_cli_cpu_main:
 * @argc: arguments, "cpu" first
 * @argv: (array length=argc): the arguments
 *
 * The `cpu` command: opens the files as one trace, computes its CPU usage
 * (etl_cpu_usage_compute()) and prints it as JSON.
 *
 * Returns: the exit status: 0, 1 when input could not be read completely
 *   (one line per problem on stderr), 2 on a usage error
 */
int
etl_cli_cpu_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  g_autofree char *by = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlCpuUsage) usage = NULL;
  gboolean precise = FALSE;
  double bucket_ms = 0.0;
  gint top_n = 10;
  EtlCpuUsageGrouping grouping = ETL_CPU_USAGE_BY_PROCESS;
  int status = 0;
  GOptionEntry entries[] = {
    { "precise", 0, 0, G_OPTION_ARG_NONE, &precise,
      "From CSwitch records (default: SampledProfile samples)", NULL },
    { "by", 0, 0, G_OPTION_ARG_STRING, &by, "Group by process (default) or thread",
      "process|thread" },
    { "bucket-ms", 0, 0, G_OPTION_ARG_DOUBLE, &bucket_ms,
      "Width of a time bucket in ms (default: a whole number of ms giving at most 100 buckets)",
      "N" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top_n,
      "Rows of their own in the series before \"Other\" (default 10)", "N" },
    { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
      "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
    { NULL }
  };

  context = g_option_context_new ("FILE...");
  g_option_context_set_summary (
      context, "Print CPU usage per process (or thread) as JSON: totals sorted by use and the\n"
               "per-bucket series, from PerfInfo SampledProfile records or, with --precise,\n"
               "from Thread CSwitch records.  Percentages are of all processors.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli cpu: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli cpu: no FILE given (see --help)\n");
      return EXIT_USAGE;
    }
  if (by != NULL)
    {
      if (strcmp (by, "process") == 0)
        grouping = ETL_CPU_USAGE_BY_PROCESS;
      else if (strcmp (by, "thread") == 0)
        grouping = ETL_CPU_USAGE_BY_THREAD;
      else
        {
          g_printerr ("etlscope-cli cpu: --by takes process or thread, not '%s'\n", by);
          return EXIT_USAGE;
        }
    }
  if (!(bucket_ms >= 0.0 && bucket_ms <= 1e9) || (bucket_ms > 0.0 && bucket_ms < 0.0001))
    {
      g_printerr ("etlscope-cli cpu: --bucket-ms takes a width from 0.0001 to 1e9 ms\n");
      return EXIT_USAGE;
    }
  if (top_n < 0)
    {
      g_printerr ("etlscope-cli cpu: --top takes a count\n");
      return EXIT_USAGE;
    }

  trace = etl_trace_open_full ((const char *const *)files, (const char *const *)manifests, NULL,
                               NULL, NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      return EXIT_INPUT;
    }
  usage = etl_cpu_usage_compute (trace, precise ? ETL_CPU_USAGE_PRECISE : ETL_CPU_USAGE_SAMPLED,
                                 grouping, (gint64)(bucket_ms * 10000.0 + 0.5), NULL, NULL, NULL,
                                 &error);
  if (usage == NULL)
    {
      g_printerr ("etlscope-cli cpu: %s\n", error->message);
      return EXIT_USAGE;
    }
  print_usage (usage, (guint)top_n);
  fflush (stdout);

  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      for (guint p = 0; p < info->problems->len; p++)
        {
          g_printerr ("etlscope-cli: %s\n",
                      ((const GError *)g_ptr_array_index (info->problems, p))->message);
          status = EXIT_INPUT;
        }
    }
  return status;
}
