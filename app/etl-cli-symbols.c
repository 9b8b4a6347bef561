/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etlscope-cli symbols: a PDB's identity and function table as JSON, and
 * the function each given RVA falls in (core/symbols/etl-pdb.c).
 *
 *   etlscope-cli symbols [--rva HEX]... [--no-functions] FILE.pdb
 *
 * Prints one object: `file`, `guid` ({XXXXXXXX-XXXX-...} upper case, as
 * Windows and llvm-pdbutil print it), `age`, `machine` (the DBI header's
 * IMAGE_FILE_MACHINE_* value), the counts of procedure and public records,
 * `functions` (name, rva, length, kind "procedure" or "public"; sorted by
 * RVA) unless --no-functions, and `lookups`: for each --rva, `rva` and
 * `symbol`, "function+0xOFFSET" or null when the RVA lies in no function.
 * RVAs and lengths are JSON numbers (bytes).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <json-glib/json-glib.h>
#include <stdlib.h>

#include "etl-cli-symbols.h"
#include "etl-cli-util.h"
#include "etl-pdb.h"

#define EXIT_INPUT ETL_CLI_EXIT_INPUT
#define EXIT_USAGE ETL_CLI_EXIT_USAGE

/* "0x1A2B" or "1A2B" (hex) into a 32-bit RVA. */
static gboolean
parse_rva (const char *arg, guint32 *out)
{
  guint64 v;
  char *end = NULL;

  if (g_str_has_prefix (arg, "0x") || g_str_has_prefix (arg, "0X"))
    arg += 2;
  if (*arg == '\0' || !g_ascii_isxdigit (*arg))
    return FALSE;
  v = g_ascii_strtoull (arg, &end, 16);
  if (*end != '\0' || v > G_MAXUINT32)
    return FALSE;
  *out = (guint32)v;
  return TRUE;
}

static void
add_functions (JsonBuilder *b, const EtlPdb *pdb)
{
  guint n;
  const EtlPdbFunction *functions = etl_pdb_get_functions (pdb, &n);

  json_builder_set_member_name (b, "functions");
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, functions[i].name);
      json_builder_set_member_name (b, "rva");
      json_builder_add_int_value (b, functions[i].rva);
      json_builder_set_member_name (b, "length");
      json_builder_add_int_value (b, functions[i].length);
      json_builder_set_member_name (b, "kind");
      json_builder_add_string_value (
          b, functions[i].kind == ETL_PDB_FUNCTION_PROCEDURE ? "procedure" : "public");
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_lookups (JsonBuilder *b, const EtlPdb *pdb, const guint32 *rvas, guint n_rvas)
{
  json_builder_set_member_name (b, "lookups");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_rvas; i++)
    {
      guint32 offset = 0;
      const EtlPdbFunction *f = etl_pdb_lookup (pdb, rvas[i], &offset);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "rva");
      json_builder_add_int_value (b, rvas[i]);
      json_builder_set_member_name (b, "symbol");
      if (f)
        {
          g_autofree char *symbol = g_strdup_printf ("%s+0x%x", f->name, offset);

          json_builder_add_string_value (b, symbol);
        }
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/**
 * etl_cli_symbols_main:
 * @argc: arguments, "symbols" first
 * @argv: (array length=argc): the arguments
 *
 * The `symbols` command: reads one PDB (etl_pdb_open()) and prints its
 * identity, its function table and the function of each --rva as JSON.
 *
 * Returns: the exit status: 0, 1 when the PDB cannot be read (one line on
 *   stderr: file, offset, reason), 2 on a usage error
 */
int
etl_cli_symbols_main (int argc, char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) files = NULL;
  g_auto (GStrv) rva_args = NULL;
  g_autoptr (GArray) rvas = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (EtlPdb) pdb = NULL;
  g_autoptr (JsonBuilder) b = NULL;
  gboolean no_functions = FALSE;
  char guid[ETL_PDB_GUID_STRING_LEN + 1];
  GOptionEntry entries[]
      = { { "rva", 0, 0, G_OPTION_ARG_STRING_ARRAY, &rva_args,
            "Name the function this RVA (hex, bytes from the module's base) falls in (repeatable)",
            "HEX" },
          { "no-functions", 0, 0, G_OPTION_ARG_NONE, &no_functions, "Leave out the function table",
            NULL },
          { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "FILE.pdb" },
          { NULL } };

  (void)argc;
  context = g_option_context_new ("FILE.pdb");
  g_option_context_set_summary (
      context, "Print a PDB's identity (GUID, age) and its functions (name, RVA, length: module\n"
               "procedures and code publics) as JSON, and for each --rva the function+0xOFFSET\n"
               "it falls in.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse_strv (context, &argv, &error))
    {
      g_printerr ("etlscope-cli symbols: %s\n", error->message);
      return EXIT_USAGE;
    }
  for (guint i = 0; rva_args && rva_args[i]; i++)
    {
      guint32 rva;

      if (!parse_rva (rva_args[i], &rva))
        {
          g_printerr (
              "etlscope-cli symbols: --rva takes a hexadecimal RVA below 0x100000000, not '%s'\n",
              rva_args[i]);
          return EXIT_USAGE;
        }
      g_array_append_val (rvas, rva);
    }
  if (files == NULL || files[0] == NULL || files[1] != NULL)
    {
      g_printerr ("etlscope-cli symbols: give one FILE.pdb (see --help)\n");
      return EXIT_USAGE;
    }

  pdb = etl_pdb_open (files[0], &error);
  if (pdb == NULL)
    {
      g_printerr ("etlscope-cli: %s\n", error->message);
      return EXIT_INPUT;
    }

  b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  json_builder_add_string_value (b, files[0]);
  etl_pdb_format_guid (etl_pdb_get_guid (pdb), guid);
  json_builder_set_member_name (b, "guid");
  json_builder_add_string_value (b, guid);
  json_builder_set_member_name (b, "age");
  json_builder_add_int_value (b, etl_pdb_get_age (pdb));
  json_builder_set_member_name (b, "machine");
  json_builder_add_int_value (b, etl_pdb_get_machine (pdb));
  json_builder_set_member_name (b, "n_procedures");
  json_builder_add_int_value (b, etl_pdb_get_n_procedures (pdb));
  json_builder_set_member_name (b, "n_publics");
  json_builder_add_int_value (b, etl_pdb_get_n_publics (pdb));
  if (!no_functions)
    add_functions (b, pdb);
  add_lookups (b, pdb, (const guint32 *)(void *)rvas->data, rvas->len);
  json_builder_end_object (b);
  etl_cli_print_builder (b);
  return 0;
}
