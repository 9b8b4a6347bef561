/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli groups: records grouped by a chain of keys, as JSON.
 *
 *   etlscope-cli groups [--by provider,event] [--from MS] [--to MS]
 *                       [--manifest FILE.man]... FILE...
 *
 * Prints one object: the keys, the range, the total and the tree of groups
 * (label, count, share in percent, first_ms and last_ms relative to the
 * trace's origin, children), largest first (see etl-group-summary.c).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>

#include "etl-cli-groups.h"
#include "etl-group-summary.h"
#include "etl-trace.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static void
add_group (JsonBuilder *b, EtlTrace *trace, const EtlGroup *g)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "label");
  json_builder_add_string_value (b, g->label);
  if (g->parent != NULL)
    {
      json_builder_set_member_name (b, "key");
      json_builder_add_string_value (b, etl_group_key_to_string (g->key));
      if (g->key == ETL_GROUP_BY_PROCESS || g->key == ETL_GROUP_BY_THREAD || g->key == ETL_GROUP_BY_CPU)
        {
          json_builder_set_member_name (b, g->key == ETL_GROUP_BY_PROCESS  ? "pid"
                                           : g->key == ETL_GROUP_BY_THREAD ? "tid"
                                                                           : "cpu");
          if (g->id != ETL_GROUP_NONE)
            json_builder_add_int_value (b, g->id);
          else
            json_builder_add_null_value (b);
        }
    }
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, (gint64)g->count);
  json_builder_set_member_name (b, "share");
  json_builder_add_double_value (b, g->share);
  json_builder_set_member_name (b, "first_ms");
  json_builder_add_double_value (b, g->count > 0 ? etl_trace_filetime_to_ms (trace, g->first) : 0.0);
  json_builder_set_member_name (b, "last_ms");
  json_builder_add_double_value (b, g->count > 0 ? etl_trace_filetime_to_ms (trace, g->last) : 0.0);
  if (g->children != NULL)
    {
      json_builder_set_member_name (b, "children");
      json_builder_begin_array (b);
      for (guint i = 0; i < g->children->len; i++)
        add_group (b, trace, g_ptr_array_index (g->children, i));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);
}

/**
 * etl_cli_groups_main:
 * @argc: arguments after "groups"' own name
 * @argv: (array length=argc): the arguments, argv[0] being "groups"
 *
 * Runs `etlscope-cli groups`.
 *
 * Returns: 0, 1 (a file could not be read) or 2 (usage)
 */
int
etl_cli_groups_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  g_autofree char *by = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlGroupSummary) summary = NULL;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;
  EtlGroupKey keys[ETL_GROUP_MAX_KEYS];
  const EtlGroupKey *chain;
  guint n_keys = 0;
  double from_ms = NAN, to_ms = NAN;
  gint64 begin = 0, end = 0;
  GOptionEntry entries[] = {
    { "by", 0, 0, G_OPTION_ARG_STRING, &by,
      "Chain of keys: provider, event, process, thread, cpu (default provider,event)", "K1,K2,..." },
    { "from", 0, 0, G_OPTION_ARG_DOUBLE, &from_ms, "Start of the range, ms from the trace's origin", "MS" },
    { "to", 0, 0, G_OPTION_ARG_DOUBLE, &to_ms, "End of the range (exclusive), ms from the trace's origin", "MS" },
    { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
      "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
    { NULL }
  };

  context = g_option_context_new ("FILE...");
  g_option_context_set_summary (context, "Print the records grouped by a chain of keys as a JSON tree:\n"
                                         "count, share and first/last time of every group.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli groups: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli groups: no FILE given (see --help)\n");
      return EXIT_USAGE;
    }
  if (!etl_group_key_parse_chain (by != NULL ? by : "provider,event", keys, &n_keys, &error))
    {
      g_printerr ("etlscope-cli groups: --by: %s\n", error->message);
      return EXIT_USAGE;
    }
  if ((!isnan (from_ms) && !(fabs (from_ms) <= 1e12)) || (!isnan (to_ms) && !(fabs (to_ms) <= 1e12)))
    {
      g_printerr ("etlscope-cli groups: --from and --to take ms within ±1e12\n");
      return EXIT_USAGE;
    }

  trace = etl_trace_open_full ((const char *const *)files, (const char *const *)manifests, NULL, NULL,
                               NULL, &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      return EXIT_INPUT;
    }
  if (!isnan (from_ms) || !isnan (to_ms))
    {
      gint64 origin = etl_trace_get_origin (trace);

      begin = isnan (from_ms) ? etl_trace_get_first_filetime (trace) : origin + (gint64)llround (from_ms * 10000.0);
      end = isnan (to_ms) ? etl_trace_get_last_filetime (trace) + 1 : origin + (gint64)llround (to_ms * 10000.0);
      if (end <= begin)
        {
          g_printerr ("etlscope-cli groups: --to must be after --from\n");
          return EXIT_USAGE;
        }
    }
  summary = etl_group_summary_compute (trace, NULL, begin, end, keys, n_keys, NULL, NULL, NULL, &error);
  if (summary == NULL)
    {
      g_printerr ("etlscope-cli groups: %s\n", error->message);
      return EXIT_INPUT;
    }

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "by");
  json_builder_begin_array (b);
  for (guint i = 0, n = etl_group_summary_get_keys (summary, &chain); i < n; i++)
    json_builder_add_string_value (b, etl_group_key_to_string (chain[i]));
  json_builder_end_array (b);
  json_builder_set_member_name (b, "from_ms");
  if (end > begin)
    json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, begin));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "to_ms");
  if (end > begin)
    json_builder_add_double_value (b, etl_trace_filetime_to_ms (trace, end));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "records");
  json_builder_add_int_value (b, (gint64)etl_group_summary_get_total (summary));
  json_builder_set_member_name (b, "root");
  add_group (b, trace, etl_group_summary_get_root (summary));
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, TRUE);
  printf ("%s\n", text);
  fflush (stdout);
  return 0;
}
