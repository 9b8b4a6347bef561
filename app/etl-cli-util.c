/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Helpers shared by the commands of etlscope-cli that print thread-state
 * analyses (waits, critical-path): JSON members for ids, named values and
 * durations, id options, and the report of a trace's read problems.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-cli-util.h"

#include <stdio.h>

#include "etl-thread-states.h"

/**
 * etl_cli_add_id:
 * @b: a builder inside an object
 * @member: the member's name
 * @id: a process or thread id, %ETL_THREAD_STATES_NO_ID when unknown
 *
 * Adds @member: the id, or null when unknown.
 */
void
etl_cli_add_id (JsonBuilder *b, const char *member, guint32 id)
{
  json_builder_set_member_name (b, member);
  if (id != ETL_THREAD_STATES_NO_ID)
    json_builder_add_int_value (b, id);
  else
    json_builder_add_null_value (b);
}

/**
 * etl_cli_add_named:
 * @b: a builder inside an object
 * @member: the member's name
 * @value: a KWAIT_REASON, KTHREAD_STATE or wait mode, -1 when unknown
 * @name_of: its name table (e.g. etl_cswitch_wait_reason_name()), NULL for
 *   values without a name
 *
 * Adds @member: the name when the table has one, else the number, null when
 * unknown (%ETL_THREAD_STATES_UNKNOWN).
 */
void
etl_cli_add_named (JsonBuilder *b, const char *member, int value, const char *(*name_of) (int))
{
  const char *name = name_of (value);

  json_builder_set_member_name (b, member);
  if (name != NULL)
    json_builder_add_string_value (b, name);
  else if (value == ETL_THREAD_STATES_UNKNOWN)
    json_builder_add_null_value (b);
  else
    json_builder_add_int_value (b, value);
}

/**
 * etl_cli_add_us:
 * @b: a builder inside an object
 * @member: the member's name
 * @ticks: a duration, 100-ns units
 *
 * Adds @member: the duration in µs (a double).
 */
void
etl_cli_add_us (JsonBuilder *b, const char *member, gint64 ticks)
{
  json_builder_set_member_name (b, member);
  json_builder_add_double_value (b, (double)ticks / 10.0);
}

/**
 * etl_cli_add_process_name:
 * @b: a builder inside an object
 * @member: the member's name
 * @table: the trace's process table
 * @pid: a process id, %ETL_THREAD_STATES_NO_ID when unknown
 * @filetime: when (FILETIME): picks the lifetime of a reused pid
 *
 * Adds @member: "image.exe (pid)" (etl_process_format_name()), "Idle (0)"
 * for pid 0, null when @pid is unknown.
 */
void
etl_cli_add_process_name (JsonBuilder *b, const char *member, EtlProcessTable *table, guint32 pid,
                          gint64 filetime)
{
  g_autofree char *name = NULL;

  json_builder_set_member_name (b, member);
  if (pid == 0)
    json_builder_add_string_value (b, "Idle (0)");
  else if (pid != ETL_THREAD_STATES_NO_ID)
    {
      name = etl_process_format_name (etl_process_table_lookup (table, pid, filetime), pid);
      json_builder_add_string_value (b, name);
    }
  else
    json_builder_add_null_value (b);
}

/**
 * etl_cli_parse_id:
 * @arg: (nullable): an option's text
 * @out: (out): the id, -1 when @arg is NULL
 *
 * Reads a decimal process or thread id (0 to 2^32 − 2: the last value means
 * "unknown" in the thread states).
 *
 * Returns: FALSE when @arg is not such a number
 */
gboolean
etl_cli_parse_id (const char *arg, gint64 *out)
{
  guint64 v;

  if (arg == NULL)
    {
      *out = -1;
      return TRUE;
    }
  if (!g_ascii_string_to_unsigned (arg, 10, 0, G_MAXUINT32 - 1, &v, NULL))
    return FALSE;
  *out = (gint64)v;
  return TRUE;
}

/**
 * etl_cli_print_builder:
 * @b: a builder holding one finished value
 *
 * Prints the value as pretty JSON and a newline on stdout, and flushes it.
 */
void
etl_cli_print_builder (JsonBuilder *b)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  g_autofree char *text = NULL;

  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  fputs (text, stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

/**
 * etl_cli_report_problems:
 * @trace: an open trace
 *
 * Prints each file's read problems (GErrors naming file, offset and
 * reason), one line each, on stderr.
 *
 * Returns: 0 when there were none, else %ETL_CLI_EXIT_INPUT
 */
int
etl_cli_report_problems (EtlTrace *trace)
{
  int status = 0;

  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      for (guint p = 0; p < info->problems->len; p++)
        {
          g_printerr ("etlscope-cli: %s\n",
                      ((const GError *)g_ptr_array_index (info->problems, p))->message);
          status = ETL_CLI_EXIT_INPUT;
        }
    }
  return status;
}
