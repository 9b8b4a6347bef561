/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli stacks: the top frames of the sample stacks in a time range.
 *
 *   etlscope-cli stacks [--from MS] [--to MS] [--top N] [--manifest FILE.man]... FILE...
 *   etlscope-cli stacks --thread-time [--tid N]... [--from MS] [--to MS] [--top N] FILE...
 *   (both take --symbols PATH: _NT_SYMBOL_PATH syntax, default $_NT_SYMBOL_PATH)
 *
 * Prints one object: the counts of stack records, attached stacks, images
 * and JIT methods, the samples in the range and how many of their frames
 * resolved, and "frames": one row per module / JIT method / "?" with its
 * exclusive and inclusive sample counts (see etl_stacks_summarize()).
 *
 * With --thread-time, PerfView's thread time of the threads (all, or each
 * --tid) over the range instead (etl_thread_time_tree_new()): the same
 * counts of stack records, "threads" (the --tid ids, [] for all),
 * "total_ms" (the root's weight), "cpu_ms", "blocked_ms" and "readied_ms"
 * (the time under the CPU_TIME, BLOCKED_TIME and READIED_TIME
 * pseudo-frames), and "paths": the --top heaviest root-to-leaf paths, each
 * {"frames": [outermost first … pseudo-frame], "ms": its weight}, by
 * weight descending then by frames.
 *
 * With a symbol path (--symbols, else $_NT_SYMBOL_PATH when set), native
 * frames are named `module!function+0xOFFSET` through the images' PDBs
 * (etl-symbol-resolver.c), the summary's rows are per function where the
 * module resolved, and the object gains "symbols": one row per image file
 * and PDB identity {"module", "pdb", "guid", "age", "status", "reason",
 * "file"} (etl_symbol_resolver_dup_statuses(); every image is looked up, not
 * only those in the range).  Without one the output is as before.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "etl-cli-stacks.h"
#include "etl-stacks.h"
#include "etl-symbol-server.h"
#include "etl-thread-time.h"
#include "etl-trace.h"

#define EXIT_INPUT 1
#define EXIT_USAGE 2

static void
add_uint (JsonBuilder *b, const char *name, guint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64)value);
}

static void
add_nullable_string (JsonBuilder *b, const char *name, const char *value)
{
  json_builder_set_member_name (b, name);
  if (value != NULL)
    json_builder_add_string_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* "symbols": each image's status, after every image was looked up. */
static void
add_symbols (JsonBuilder *b, EtlSymbolResolver *resolver)
{
  g_autoptr (GArray) rows = NULL;

  if (resolver == NULL)
    return;
  etl_symbol_resolver_request_all (resolver);
  rows = etl_symbol_resolver_dup_statuses (resolver);
  json_builder_set_member_name (b, "symbols");
  json_builder_begin_array (b);
  for (guint i = 0; i < rows->len; i++)
    {
      const EtlSymbolModuleStatus *row = &g_array_index (rows, EtlSymbolModuleStatus, i);

      json_builder_begin_object (b);
      add_nullable_string (b, "module", row->module);
      add_nullable_string (b, "pdb", row->pdb);
      add_nullable_string (b, "guid", row->guid);
      add_uint (b, "age", row->age);
      add_nullable_string (b, "status", etl_symbol_status_to_string (row->status));
      add_nullable_string (b, "reason", row->reason);
      add_nullable_string (b, "file", row->file);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/**
 * etl_cli_symbols_resolver_new:
 * @stacks: the trace's stacks
 * @option: (nullable): the --symbols argument; %NULL: $_NT_SYMBOL_PATH
 *   when set
 * @command: the command's name, for messages
 * @download: ask the path's symbol servers (`srv*DIR*URL`) for PDBs not
 *   found locally (--download; off by default)
 * @usage_error: (out): set when @option cannot be parsed (the message is
 *   printed)
 *
 * Makes an on-demand resolver for @stacks from the symbol path and
 * attaches it (etl_symbol_resolver_attach()), with the symbol-server client
 * installed (app/etl-symbol-server.c: it also unpacks local `.pd_` cabinets).
 *
 * Returns: (transfer full) (nullable): the resolver, or %NULL when no symbol
 *   path is given (or on a usage error)
 */
EtlSymbolResolver *
etl_cli_symbols_resolver_new (EtlStacks *stacks, const char *option, const char *command, gboolean download,
                              gboolean *usage_error)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  const char *text = option != NULL ? option : g_getenv ("_NT_SYMBOL_PATH");
  g_autoptr (EtlSymbolServer) server = NULL;
  EtlSymbolResolver *resolver;

  *usage_error = FALSE;
  if (text == NULL || stacks == NULL)
    return NULL;
  path = etl_symbol_path_parse (text, &error);
  if (path == NULL)
    {
      g_printerr ("etlscope-cli %s: %s %s\n", command, option != NULL ? "--symbols" : "$_NT_SYMBOL_PATH",
                  error->message);
      *usage_error = TRUE;
      return NULL;
    }
  resolver = etl_symbol_resolver_new (stacks, path, TRUE);
  server = etl_symbol_server_new ();
  etl_symbol_server_install (server, resolver);
  etl_symbol_resolver_set_downloads (resolver, download);
  etl_symbol_resolver_attach (resolver);
  return resolver;
}

static void
print_summary (EtlStacks *stacks, const EtlStackSummary *sum, double from_ms, double to_ms, guint top_n,
               EtlSymbolResolver *resolver)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autofree char *text = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "from_ms");
  json_builder_add_double_value (b, from_ms);
  json_builder_set_member_name (b, "to_ms");
  json_builder_add_double_value (b, to_ms);
  add_uint (b, "stack_records", etl_stacks_get_n_stack_records (stacks));
  add_uint (b, "attached", etl_stacks_get_n_attached (stacks));
  add_uint (b, "images", etl_stacks_get_n_modules (stacks));
  add_uint (b, "jit_methods", etl_stacks_get_n_methods (stacks));
  add_uint (b, "samples", sum->n_samples);
  add_uint (b, "samples_with_stack", sum->n_with_stack);
  add_uint (b, "frames_total", sum->n_frames);
  add_uint (b, "frames_resolved", sum->n_resolved);
  json_builder_set_member_name (b, "resolved_percent");
  json_builder_add_double_value (b, sum->n_frames > 0 ? 100.0 * (double)sum->n_resolved / (double)sum->n_frames
                                                      : 0.0);
  json_builder_set_member_name (b, "frames");
  json_builder_begin_array (b);
  for (guint k = 0; k < sum->rows->len && k < top_n; k++)
    {
      const EtlStackFrameCount *row = &g_array_index (sum->rows, EtlStackFrameCount, k);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "frame");
      json_builder_add_string_value (b, row->name);
      add_uint (b, "exclusive", row->exclusive);
      add_uint (b, "inclusive", row->inclusive);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_symbols (b, resolver);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  puts (text);
}

typedef struct
{
  guint node;
  char *key; /* the frames joined, to order equal weights */
} PathRow;

static int
cmp_path_rows (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlStackTreeNode *nodes = user_data;
  const PathRow *x = a, *y = b;

  if (nodes[x->node].self != nodes[y->node].self)
    return nodes[x->node].self > nodes[y->node].self ? -1 : 1;
  return strcmp (x->key, y->key);
}

static double
ticks_ms (guint64 ticks)
{
  return (double)ticks / 10000.0;
}

static void
print_thread_time (EtlStacks *stacks, EtlStackTree *tree, const guint32 *tids, guint n_tids, double from_ms,
                   double to_ms, guint top_n, EtlSymbolResolver *resolver)
{
  g_autoptr (JsonBuilder) b = json_builder_new ();
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = NULL;
  g_autoptr (GArray) rows = g_array_new (FALSE, FALSE, sizeof (PathRow));
  g_autofree char *text = NULL;
  guint n = 0;
  const EtlStackTreeNode *nodes = etl_stack_tree_get_nodes (tree, &n);

  for (guint i = 1; i < n; i++)
    {
      g_autoptr (GPtrArray) names = NULL;
      PathRow row = { i, NULL };

      if (nodes[i].self == 0)
        continue;
      names = g_ptr_array_new ();
      for (guint k = i; k != 0; k = nodes[k].parent)
        g_ptr_array_insert (names, 0, (gpointer)nodes[k].name);
      g_ptr_array_add (names, NULL);
      row.key = g_strjoinv ("\n", (char **)names->pdata);
      g_array_append_val (rows, row);
    }
  g_array_sort_with_data (rows, cmp_path_rows, (gpointer)nodes);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "from_ms");
  json_builder_add_double_value (b, from_ms);
  json_builder_set_member_name (b, "to_ms");
  json_builder_add_double_value (b, to_ms);
  add_uint (b, "stack_records", etl_stacks_get_n_stack_records (stacks));
  add_uint (b, "attached", etl_stacks_get_n_attached (stacks));
  json_builder_set_member_name (b, "threads");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_tids; i++)
    json_builder_add_int_value (b, tids[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "total_ms");
  json_builder_add_double_value (b, ticks_ms (nodes[0].total));
  json_builder_set_member_name (b, "cpu_ms");
  json_builder_add_double_value (b, ticks_ms (etl_thread_time_tree_sum (tree, ETL_THREAD_TIME_CPU)));
  json_builder_set_member_name (b, "blocked_ms");
  json_builder_add_double_value (b, ticks_ms (etl_thread_time_tree_sum (tree, ETL_THREAD_TIME_BLOCKED)));
  json_builder_set_member_name (b, "readied_ms");
  json_builder_add_double_value (b, ticks_ms (etl_thread_time_tree_sum (tree, ETL_THREAD_TIME_READIED)));
  json_builder_set_member_name (b, "paths");
  json_builder_begin_array (b);
  for (guint r = 0; r < rows->len && r < top_n; r++)
    {
      const PathRow *row = &g_array_index (rows, PathRow, r);
      g_auto (GStrv) frames = g_strsplit (row->key, "\n", -1);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "frames");
      json_builder_begin_array (b);
      for (guint f = 0; frames[f] != NULL; f++)
        json_builder_add_string_value (b, frames[f]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "ms");
      json_builder_add_double_value (b, ticks_ms (nodes[row->node].self));
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_symbols (b, resolver);
  json_builder_end_object (b);
  for (guint r = 0; r < rows->len; r++)
    g_free (g_array_index (rows, PathRow, r).key);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  text = json_generator_to_data (gen, NULL);
  puts (text);
}

/* The --tid values, decimal ids; FALSE (with *@bad) on another word. */
static gboolean
parse_tids (char **args, GArray *tids, const char **bad)
{
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    {
      guint64 v;

      if (!g_ascii_string_to_unsigned (args[i], 10, 0, G_MAXUINT32, &v, NULL))
        {
          *bad = args[i];
          return FALSE;
        }
      guint32 tid = (guint32)v;

      g_array_append_val (tids, tid);
    }
  return TRUE;
}

/**
 * etl_cli_stacks_main:
 * @argc: arguments, "stacks" first
 * @argv: (array length=argc): the arguments
 *
 * The `stacks` command: opens the files as one trace, attaches and
 * symbolizes its stacks (etl_stacks_compute()) and prints the summary of the
 * samples between --from and --to (ms from the trace's start) as JSON; with
 * --thread-time, the heaviest paths of the thread-time tree
 * (etl_thread_time_tree_new()) of the --tid threads over the range.
 *
 * Returns: the exit status: 0, 1 when input could not be read completely,
 *   2 on a usage error
 */
int
etl_cli_stacks_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) manifests = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlStackSummary) sum = NULL;
  g_auto (GStrv) tid_args = NULL;
  g_autofree char *symbols = NULL;
  g_autoptr (EtlSymbolResolver) resolver = NULL;
  gboolean download = FALSE;
  gboolean usage_error = FALSE;
  g_autoptr (GArray) tids = g_array_new (FALSE, FALSE, sizeof (guint32));
  gboolean thread_time = FALSE;
  const char *bad = NULL;
  double from_ms = 0.0, to_ms = -1.0;
  gint top_n = 50;
  gint64 origin, from_ft, to_ft;
  int status = 0;
  GOptionEntry entries[] = {
    { "from", 0, 0, G_OPTION_ARG_DOUBLE, &from_ms, "Start of the range, ms from the trace's start (default 0)", "MS" },
    { "to", 0, 0, G_OPTION_ARG_DOUBLE, &to_ms, "End of the range, ms from the trace's start (default: the end)", "MS" },
    { "top", 0, 0, G_OPTION_ARG_INT, &top_n, "Rows to print (default 50)", "N" },
    { "thread-time", 0, 0, G_OPTION_ARG_NONE, &thread_time,
      "Thread time (PerfView) from CSwitch/ReadyThread and their stacks instead of the samples", NULL },
    { "tid", 0, 0, G_OPTION_ARG_STRING_ARRAY, &tid_args, "With --thread-time, only thread N (repeatable)",
      "N" },
    { "manifest", 'm', 0, G_OPTION_ARG_FILENAME_ARRAY, &manifests,
      "Describe events with this instrumentation manifest (repeatable)", "FILE.man" },
    { "symbols", 0, 0, G_OPTION_ARG_STRING, &symbols,
      "Name native frames through PDBs found in this symbol path (_NT_SYMBOL_PATH syntax; default "
      "$_NT_SYMBOL_PATH)", "PATH" },
    { "download", 0, 0, G_OPTION_ARG_NONE, &download,
      "Download PDBs not found locally from the symbol path's servers (srv*DIR*URL)", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE..." },
    { NULL }
  };

  context = g_option_context_new ("FILE...");
  g_option_context_set_summary (
      context, "Print the top frames of the PerfInfo SampledProfile stacks in a time range as\n"
               "JSON: per module (module.dll), .NET JIT method (Namespace.Method) or '?', the\n"
               "samples with it innermost (exclusive) and anywhere in the stack (inclusive).");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli stacks: %s\n", error->message);
      return EXIT_USAGE;
    }
  if (files == NULL || files[0] == NULL)
    {
      g_printerr ("etlscope-cli stacks: no FILE given (see --help)\n");
      return EXIT_USAGE;
    }
  if (!(from_ms >= 0.0 && from_ms <= 1e12) || !(to_ms <= 1e12) || (to_ms >= 0.0 && to_ms < from_ms) || top_n < 0)
    {
      g_printerr ("etlscope-cli stacks: --from and --to take 0 <= FROM <= TO ms, --top a count\n");
      return EXIT_USAGE;
    }

  if (!parse_tids (tid_args, tids, &bad))
    {
      g_printerr ("etlscope-cli stacks: --tid takes a decimal thread id, not '%s'\n", bad);
      return EXIT_USAGE;
    }
  if (tids->len > 0 && !thread_time)
    {
      g_printerr ("etlscope-cli stacks: --tid needs --thread-time\n");
      return EXIT_USAGE;
    }

  trace = etl_trace_open_full ((const char *const *)files, (const char *const *)manifests, NULL, NULL, NULL,
                               &error);
  if (trace == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      return EXIT_INPUT;
    }
  stacks = etl_stacks_compute (trace, NULL, NULL, NULL, &error);
  resolver = etl_cli_symbols_resolver_new (stacks, symbols, "stacks", download, &usage_error);
  if (usage_error)
    return EXIT_USAGE;
  origin = etl_trace_get_origin (trace);
  from_ft = origin + (gint64)(from_ms * 10000.0);
  to_ft = to_ms >= 0.0 ? origin + (gint64)(to_ms * 10000.0) : G_MAXINT64;
  if (thread_time)
    {
      g_autoptr (EtlThreadStates) states = NULL;
      g_autoptr (EtlStackTree) tree = NULL;

      from_ft = origin + (gint64)(from_ms * 10000.0 + 0.5);
      to_ft = to_ms >= 0.0 ? origin + (gint64)(to_ms * 10000.0 + 0.5) : G_MAXINT64;
      if (stacks != NULL)
        states = etl_thread_states_new (trace, NULL, &error);
      if (states != NULL)
        tree = etl_thread_time_tree_new (states, stacks, (const guint32 *)tids->data, tids->len, from_ft, to_ft,
                                         NULL, &error);
      if (tree == NULL)
        {
          g_printerr ("etlscope-cli stacks: %s\n", error->message);
          return EXIT_INPUT;
        }
      print_thread_time (stacks, tree, (const guint32 *)tids->data, tids->len, from_ms,
                         to_ms >= 0.0 ? to_ms : etl_trace_filetime_to_ms (trace, etl_trace_get_last_filetime (trace)),
                         (guint)top_n, resolver);
    }
  else
    {
      if (stacks != NULL)
        sum = etl_stacks_summarize (stacks, from_ft, to_ft, NULL, &error);
      if (sum == NULL)
        {
          g_printerr ("etlscope-cli stacks: %s\n", error->message);
          return EXIT_INPUT;
        }
      print_summary (stacks, sum, from_ms,
                     to_ms >= 0.0 ? to_ms : etl_trace_filetime_to_ms (trace, etl_trace_get_last_filetime (trace)),
                     (guint)top_n, resolver);
    }
  fflush (stdout);

  for (guint i = 0; i < etl_trace_get_n_files (trace); i++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, i);

      for (guint p = 0; p < info->problems->len; p++)
        {
          g_printerr ("etlscope-cli: %s\n", ((const GError *)g_ptr_array_index (info->problems, p))->message);
          status = EXIT_INPUT;
        }
    }
  return status;
}
