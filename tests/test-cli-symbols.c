/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-cli-symbols: `etlscope-cli symbols` on a synthetic PDB written here
 * (etl-test-pdb.h: known GUID, age and functions) and on
 * ../shared/symbols/CppCon.pdb: the JSON identity, the function table, each
 * --rva's `function+0xOFFSET` or null; --no-functions; a broken PDB (exit
 * status 1, one line naming the file and the offset); usage errors (exit
 * status 2).
 */
#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "etl-test-pdb.h"
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
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
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

static JsonObject *
parse_object (JsonParser *parser, const char *text)
{
  g_autoptr (GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  return json_node_get_object (json_parser_get_root (parser));
}

static const EtlTestPdbSection sections[] = {
  { 0x1000, 0x2000, 0x60000020 },
};

static const EtlTestPdbProc procs[] = {
  { 0x1110, 1, 0x000, 0x40, "alpha" },
  { 0x110F, 1, 0x100, 0x80, "Widget::gamma" },
};

static const EtlTestPdbPublic publics[] = {
  { 2, 1, 0x000, "?alpha@@YAXXZ" },
  { 2, 1, 0x300, "_thunk" },
};

/* Writes the synthetic PDB into a fresh folder; returns its path. */
static char *
write_pdb (char **dir_out, gboolean truncate)
{
  g_autoptr (GError) error = NULL;
  EtlTestPdbSpec spec = { 0 };
  g_autoptr (GBytes) bytes = NULL;
  char *dir = g_dir_make_tmp ("etlscope-cli-symbols-XXXXXX", &error);
  char *path;

  g_assert_no_error (error);
  spec.block_size = 512;
  g_assert_true (etl_guid_parse ("a1b2c3d4-0001-0002-0304-05060708090a", &spec.guid));
  spec.age = 7;
  spec.machine = 0x8664;
  spec.sections = sections;
  spec.n_sections = G_N_ELEMENTS (sections);
  spec.procs = procs;
  spec.n_procs = G_N_ELEMENTS (procs);
  spec.publics = publics;
  spec.n_publics = G_N_ELEMENTS (publics);
  bytes = etl_test_pdb_build (&spec);
  path = g_build_filename (dir, "synth.pdb", NULL);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL),
                                      truncate ? 1000 : (gssize)g_bytes_get_size (bytes), NULL));
  *dir_out = dir;
  return path;
}

static void
remove_pdb (char *dir, char *path)
{
  g_remove (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
}

static void
test_symbols (void)
{
  char *dir;
  char *path = write_pdb (&dir, FALSE);
  g_autoptr (JsonParser) parser = json_parser_new ();
  CliRun run = { 0 };
  JsonObject *root, *f;
  JsonArray *functions, *lookups;

  run_cli (&run, "symbols", "--rva", "0x1110", "--rva", "1180", "--rva", "0x1000", "--rva",
           "0x1305", "--rva", "0", path, NULL);
  g_assert_cmpstr (run.err, ==, "");
  g_assert_cmpint (run.status, ==, 0);
  root = parse_object (parser, run.out);
  g_assert_cmpstr (json_object_get_string_member (root, "file"), ==, path);
  g_assert_cmpstr (json_object_get_string_member (root, "guid"), ==,
                   "{A1B2C3D4-0001-0002-0304-05060708090A}");
  g_assert_cmpint (json_object_get_int_member (root, "age"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (root, "machine"), ==, 0x8664);
  g_assert_cmpint (json_object_get_int_member (root, "n_procedures"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (root, "n_publics"), ==, 2);

  functions = json_object_get_array_member (root, "functions");
  g_assert_cmpuint (json_array_get_length (functions), ==, 3);
  f = json_array_get_object_element (functions, 0);
  g_assert_cmpstr (json_object_get_string_member (f, "name"), ==,
                   "alpha"); /* the procedure beats ?alpha@@YAXXZ */
  g_assert_cmpint (json_object_get_int_member (f, "rva"), ==, 0x1000);
  g_assert_cmpint (json_object_get_int_member (f, "length"), ==, 0x40);
  g_assert_cmpstr (json_object_get_string_member (f, "kind"), ==, "procedure");
  f = json_array_get_object_element (functions, 1);
  g_assert_cmpstr (json_object_get_string_member (f, "name"), ==, "Widget::gamma");
  g_assert_cmpint (json_object_get_int_member (f, "rva"), ==, 0x1100);
  f = json_array_get_object_element (functions, 2);
  g_assert_cmpstr (json_object_get_string_member (f, "name"), ==, "_thunk");
  g_assert_cmpint (json_object_get_int_member (f, "rva"), ==, 0x1300);
  g_assert_cmpint (json_object_get_int_member (f, "length"), ==,
                   0x3000 - 0x1300); /* to the end of .text */
  g_assert_cmpstr (json_object_get_string_member (f, "kind"), ==, "public");

  lookups = json_object_get_array_member (root, "lookups");
  g_assert_cmpuint (json_array_get_length (lookups), ==, 5);
  f = json_array_get_object_element (lookups, 0);
  g_assert_cmpint (json_object_get_int_member (f, "rva"), ==, 0x1110);
  g_assert_cmpstr (json_object_get_string_member (f, "symbol"), ==, "Widget::gamma+0x10");
  f = json_array_get_object_element (lookups, 1);
  g_assert_cmpint (json_object_get_int_member (f, "rva"), ==, 0x1180);
  g_assert_true (json_object_get_null_member (f, "symbol"));
  f = json_array_get_object_element (lookups, 2);
  g_assert_cmpstr (json_object_get_string_member (f, "symbol"), ==, "alpha+0x0");
  f = json_array_get_object_element (lookups, 3);
  g_assert_cmpstr (json_object_get_string_member (f, "symbol"), ==, "_thunk+0x5");
  f = json_array_get_object_element (lookups, 4);
  g_assert_true (json_object_get_null_member (f, "symbol"));
  cli_run_clear (&run);

  run_cli (&run, "symbols", "--no-functions", "--rva", "1003", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_object (parser, run.out);
  g_assert_false (json_object_has_member (root, "functions"));
  f = json_array_get_object_element (json_object_get_array_member (root, "lookups"), 0);
  g_assert_cmpstr (json_object_get_string_member (f, "symbol"), ==, "alpha+0x3");
  cli_run_clear (&run);
  remove_pdb (dir, path);
}

static void
test_symbols_cppcon (void)
{
  g_autofree char *path
      = g_build_filename (etl_test_corpus_dir (), "..", "symbols", "CppCon.pdb", NULL);
  g_autoptr (JsonParser) parser = json_parser_new ();
  CliRun run = { 0 };
  JsonObject *root, *f;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("../shared/symbols/CppCon.pdb is absent");
      return;
    }
  run_cli (&run, "symbols", "--no-functions", "--rva", "0x1004", "--rva", "0x1EFF", path, NULL);
  g_assert_cmpint (run.status, ==, 0);
  root = parse_object (parser, run.out);
  g_assert_cmpstr (json_object_get_string_member (root, "guid"), ==,
                   "{12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467}");
  g_assert_cmpint (json_object_get_int_member (root, "age"), ==, 5);
  f = json_array_get_object_element (json_object_get_array_member (root, "lookups"), 0);
  g_assert_cmpstr (json_object_get_string_member (f, "symbol"), ==, "main+0x4");
  f = json_array_get_object_element (json_object_get_array_member (root, "lookups"), 1);
  g_assert_cmpstr (json_object_get_string_member (f, "symbol"), ==, "_terminate+0x0");
  cli_run_clear (&run);
}

static void
test_symbols_errors (void)
{
  char *dir;
  char *path = write_pdb (&dir, TRUE);
  CliRun run = { 0 };

  run_cli (&run, "symbols", path, NULL);
  g_assert_cmpint (run.status, ==, 1);
  g_assert_cmpstr (run.out, ==, "");
  g_assert_true (g_str_has_prefix (run.err, "etlscope-cli: "));
  g_assert_nonnull (strstr (run.err, path));
  g_assert_nonnull (strstr (run.err, "offset 40"));
  cli_run_clear (&run);

  run_cli (&run, "symbols", "--rva", "zz", path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "'zz'"));
  cli_run_clear (&run);
  run_cli (&run, "symbols", "--rva", "0x100000000", path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  cli_run_clear (&run);
  run_cli (&run, "symbols", NULL);
  g_assert_cmpint (run.status, ==, 2);
  g_assert_nonnull (strstr (run.err, "FILE.pdb"));
  cli_run_clear (&run);
  run_cli (&run, "symbols", path, path, NULL);
  g_assert_cmpint (run.status, ==, 2);
  cli_run_clear (&run);
  run_cli (&run, "symbols", "--help", NULL);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "--rva"));
  cli_run_clear (&run);
  run_cli (&run, "--help", NULL);
  g_assert_nonnull (strstr (run.out, "symbols FILE.pdb"));
  cli_run_clear (&run);
  remove_pdb (dir, path);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/cli/symbols/synthetic", test_symbols);
  g_test_add_func ("/etl/cli/symbols/cppcon", test_symbols_cppcon);
  g_test_add_func ("/etl/cli/symbols/errors", test_symbols_errors);
  return g_test_run ();
}
