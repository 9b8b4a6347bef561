/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Symbol paths (_NT_SYMBOL_PATH syntax) and the local lookup of PDBs in
 * folders and symbol stores (core/symbols/etl-symbol-path.c). */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "etl-symbol-path.h"

/* CppCon.pdb's identity (../shared/symbols/README.md). */
static const EtlGuid cppcon_guid = { 0x12DC0A4F, 0xBD7D, 0x4F2A, { 0xA9, 0xBE, 0x26, 0x3B, 0xAC, 0xAE, 0xB4, 0x67 } };

static void
test_key (void)
{
  g_autofree char *key = etl_symbol_store_key (&cppcon_guid, 5);
  g_autofree char *key2 = etl_symbol_store_key (&cppcon_guid, 0x1a);
  EtlGuid small = { 0x1, 0x2, 0x3, { 0, 1, 2, 3, 4, 5, 6, 7 } };
  g_autofree char *key3 = etl_symbol_store_key (&small, 1);

  g_assert_cmpstr (key, ==, "12DC0A4FBD7D4F2AA9BE263BACAEB4675");
  g_assert_cmpstr (key2, ==, "12DC0A4FBD7D4F2AA9BE263BACAEB4671A");
  /* Leading zeros of each GUID field kept, none before the age. */
  g_assert_cmpstr (key3, ==, "000000010002000300010203040506071");
}

static void
test_basename (void)
{
  g_autofree char *a = etl_symbol_pdb_basename ("C:\\src\\obj\\x64\\Release\\CppCon.pdb");
  g_autofree char *b = etl_symbol_pdb_basename ("/home/u/app.pdb");
  g_autofree char *c = etl_symbol_pdb_basename ("ntkrnlmp.pdb");
  g_autofree char *d = etl_symbol_pdb_basename ("D:/mixed\\dir/last.pdb");

  g_assert_cmpstr (a, ==, "CppCon.pdb");
  g_assert_cmpstr (b, ==, "app.pdb");
  g_assert_cmpstr (c, ==, "ntkrnlmp.pdb");
  g_assert_cmpstr (d, ==, "last.pdb");
}

static void
test_parse (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSymbolPath) path = etl_symbol_path_parse (
      " C:\\build\\bin ;;srv*C:\\symbols*https://msdl.microsoft.com/download/symbols;cache*D:\\cache;"
      "symsrv*symsrv.dll*E:\\down1*E:\\down2*http://symbols.example/store;srv**https://b.example/s;"
      "SRV*\\\\share\\symbols",
      &error);
  const EtlSymbolPathElement *e;
  g_autofree char *text = NULL;
  g_autoptr (EtlSymbolPath) again = NULL;
  g_autofree char *text2 = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (path);
  g_assert_cmpuint (etl_symbol_path_get_n_elements (path), ==, 6);

  e = etl_symbol_path_get_element (path, 0);
  g_assert_cmpint (e->kind, ==, ETL_SYMBOL_PATH_FOLDER);
  g_assert_cmpstr (e->stores[0], ==, "C:\\build\\bin");
  g_assert_null (e->stores[1]);
  g_assert_null (e->url);

  e = etl_symbol_path_get_element (path, 1);
  g_assert_cmpint (e->kind, ==, ETL_SYMBOL_PATH_SERVER);
  g_assert_cmpstr (e->stores[0], ==, "C:\\symbols");
  g_assert_null (e->stores[1]);
  g_assert_cmpstr (e->url, ==, "https://msdl.microsoft.com/download/symbols");

  e = etl_symbol_path_get_element (path, 2);
  g_assert_cmpint (e->kind, ==, ETL_SYMBOL_PATH_CACHE);
  g_assert_cmpstr (e->stores[0], ==, "D:\\cache");

  /* symsrv*symsrv.dll*: the DLL is dropped, two downstream stores. */
  e = etl_symbol_path_get_element (path, 3);
  g_assert_cmpint (e->kind, ==, ETL_SYMBOL_PATH_SERVER);
  g_assert_cmpstr (e->stores[0], ==, "E:\\down1");
  g_assert_cmpstr (e->stores[1], ==, "E:\\down2");
  g_assert_null (e->stores[2]);
  g_assert_cmpstr (e->url, ==, "http://symbols.example/store");

  /* srv**URL: the default cache, kept as an empty store. */
  e = etl_symbol_path_get_element (path, 4);
  g_assert_cmpstr (e->stores[0], ==, "");
  g_assert_cmpstr (e->url, ==, "https://b.example/s");

  /* A server element without a URL: its last part is a store (a share). */
  e = etl_symbol_path_get_element (path, 5);
  g_assert_cmpint (e->kind, ==, ETL_SYMBOL_PATH_SERVER);
  g_assert_cmpstr (e->stores[0], ==, "\\\\share\\symbols");
  g_assert_null (e->url);

  text = etl_symbol_path_to_string (path);
  g_assert_cmpstr (text, ==,
                   "C:\\build\\bin;srv*C:\\symbols*https://msdl.microsoft.com/download/symbols;cache*D:\\cache;"
                   "srv*E:\\down1*E:\\down2*http://symbols.example/store;srv**https://b.example/s;"
                   "srv*\\\\share\\symbols");
  again = etl_symbol_path_parse (text, &error);
  g_assert_no_error (error);
  text2 = etl_symbol_path_to_string (again);
  g_assert_cmpstr (text2, ==, text);
}

static void
test_parse_empty (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlSymbolPath) none = etl_symbol_path_parse (NULL, &error);
  g_autoptr (EtlSymbolPath) blank = etl_symbol_path_parse (" ; ;", &error);
  g_autoptr (EtlSymbolPath) srv = etl_symbol_path_parse ("srv*https://msdl.microsoft.com/download/symbols", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (etl_symbol_path_get_n_elements (none), ==, 0);
  g_assert_cmpuint (etl_symbol_path_get_n_elements (blank), ==, 0);
  g_assert_cmpuint (etl_symbol_path_get_n_elements (srv), ==, 1);
  g_assert_null (etl_symbol_path_get_element (srv, 0)->stores[0]);
  g_assert_cmpstr (etl_symbol_path_get_element (srv, 0)->url, ==, "https://msdl.microsoft.com/download/symbols");
}

static void
test_parse_errors (void)
{
  static const struct
  {
    const char *text;
    int code;
    const char *says;
  } cases[] = {
    { "srv*C:\\s*ftp://host/symbols", G_IO_ERROR_NOT_SUPPORTED, "http:// and https://" },
    { "srv*https://a.example/s*C:\\s", G_IO_ERROR_INVALID_ARGUMENT, "last part" },
    { "cache*a*b", G_IO_ERROR_INVALID_ARGUMENT, "one local folder" },
    { "cache*https://x.example", G_IO_ERROR_INVALID_ARGUMENT, "one local folder" },
    { "C:\\ok;foo*bar", G_IO_ERROR_INVALID_ARGUMENT, "“foo*”" },
    { "https://msdl.microsoft.com/download/symbols", G_IO_ERROR_INVALID_ARGUMENT, "must follow srv*" },
  };
  g_autoptr (GString) many = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  EtlSymbolPath *path;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) e = NULL;

      path = etl_symbol_path_parse (cases[i].text, &e);
      g_assert_null (path);
      g_assert_error (e, G_IO_ERROR, cases[i].code);
      g_assert_nonnull (strstr (e->message, cases[i].says));
    }
  for (guint i = 0; i <= ETL_SYMBOL_PATH_MAX_ELEMENTS; i++)
    g_string_append_printf (many, "d%u;", i);
  path = etl_symbol_path_parse (many->str, &error);
  g_assert_null (path);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* Writes @contents to @root/@rel, making its folders. */
static char *
put (const char *root, const char *rel, const char *contents)
{
  g_autofree char *file = g_build_filename (root, rel, NULL);
  g_autofree char *dir = g_path_get_dirname (file);
  g_autoptr (GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (file, contents, -1, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&file);
}

static void
remove_tree (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  if (d == NULL)
    {
      g_remove (dir);
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (dir);
}

/* Looks @name up in @text (with "@" replaced by @root) and checks the
 * outcome and the file found (relative to @root). */
static void
check_lookup (const char *root, const char *text, const char *name, guint32 age, EtlSymbolLookup outcome,
              const char *expected, guint min_tried)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) parts = g_strsplit (text, "@", -1);
  g_autofree char *joined = g_strjoinv (root, parts);
  g_autoptr (EtlSymbolPath) path = etl_symbol_path_parse (joined, &error);
  g_autoptr (GPtrArray) tried = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *found = NULL;
  g_autofree char *want = NULL;

  g_assert_no_error (error);
  g_assert_cmpint (etl_symbol_path_find_local (path, name, &cppcon_guid, age, &found, tried), ==, outcome);
  if (expected == NULL)
    g_assert_null (found);
  else
    {
      /* The same file whichever separators built it (Windows mixes
       * the path's "/" with g_build_filename()'s "\"). */
      want = g_build_filename (root, expected, NULL);
      g_strdelimit (want, "\\", '/');
      g_strdelimit (found, "\\", '/');
#ifdef G_OS_WIN32
      /* A case-insensitive file system: the trace's spelling finds it. */
      for (char *c = want; *c != '\0'; c++)
        *c = g_ascii_tolower (*c);
      for (char *c = found; *c != '\0'; c++)
        *c = g_ascii_tolower (*c);
#endif
      g_assert_cmpstr (found, ==, want);
    }
  g_assert_cmpuint (tried->len, >=, min_tried);
}

static void
test_find_local (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("etlscope-symbols-XXXXXX", &error);
  g_autofree char *elsewhere = NULL;
  g_autofree char *ptr_text = NULL;
  g_autofree char *f = NULL;
  static const char *key = "12DC0A4FBD7D4F2AA9BE263BACAEB4675";
  g_autofree char *in_store = g_strdup_printf ("store/CppCon.pdb/%s/CppCon.pdb", key);
  g_autofree char *in_two_tier = g_strdup_printf ("tiers/Cp/CppCon.pdb/%s/CppCon.pdb", key);
  g_autofree char *in_cab = g_strdup_printf ("cabs/CppCon.pdb/%s/CppCon.pd_", key);
  g_autofree char *ptr_path = g_strdup_printf ("ptrs/CppCon.pdb/%s/file.ptr", key);
  g_autofree char *msg_path = g_strdup_printf ("msgs/CppCon.pdb/%s/file.ptr", key);
  g_autofree char *lower = g_strdup_printf ("lower/cppcon.pdb/%s/cppcon.pdb", key);

  g_assert_no_error (error);
  g_free (put (root, "flat/CppCon.pdb", "pdb"));
  g_free (put (root, in_store, "pdb"));
  g_free (put (root, "tiers/index2.txt", ""));
  g_free (put (root, in_two_tier, "pdb"));
  g_free (put (root, in_cab, "cab"));
  elsewhere = put (root, "elsewhere/CppCon.pdb", "pdb");
  ptr_text = g_strdup_printf ("PATH:%s\r\n", elsewhere);
  g_free (put (root, ptr_path, ptr_text));
  g_free (put (root, msg_path, "MSG: not found on the server"));
  g_free (put (root, lower, "pdb"));

  /* A plain folder: the file directly, whatever build it is. */
  check_lookup (root, "@/empty;@/flat", "C:\\src\\CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, "flat/CppCon.pdb", 2);
  /* A store, as a plain folder, as a cache and as a server's downstream. */
  check_lookup (root, "@/store", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, in_store, 2);
  check_lookup (root, "cache*@/store", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, in_store, 1);
  check_lookup (root, "srv*@/nothing*@/store*https://msdl.microsoft.com/download/symbols", "CppCon.pdb", 5,
                ETL_SYMBOL_LOOKUP_FOUND, in_store, 2);
  /* Another age is another key: not found, every candidate reported. */
  check_lookup (root, "@/store;cache*@/store", "CppCon.pdb", 6, ETL_SYMBOL_LOOKUP_NOT_FOUND, NULL, 3);
  /* Two-tier (index2.txt): the name's first two characters as a level. */
  check_lookup (root, "srv*@/tiers", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, in_two_tier, 1);
  /* The cabinet, for the caller to unpack. */
  check_lookup (root, "srv*@/cabs", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_COMPRESSED, in_cab, 1);
  /* file.ptr: PATH:… followed; MSG:… is no file. */
  check_lookup (root, "srv*@/ptrs", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, "elsewhere/CppCon.pdb", 1);
  check_lookup (root, "srv*@/msgs", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_NOT_FOUND, NULL, 1);
  /* The trace's spelling, then lower case. */
#ifdef G_OS_WIN32
  check_lookup (root, "srv*@/lower", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, lower, 1); /* case-insensitive */
#else
  check_lookup (root, "srv*@/lower", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, lower, 2);
#endif
  /* The first element that has it wins. */
  check_lookup (root, "srv*@/tiers;@/flat", "CppCon.pdb", 5, ETL_SYMBOL_LOOKUP_FOUND, in_two_tier, 1);
  /* Servers' URLs and the default cache are not looked at here. */
  check_lookup (root, "srv**https://msdl.microsoft.com/download/symbols", "CppCon.pdb", 5,
                ETL_SYMBOL_LOOKUP_NOT_FOUND, NULL, 0);
  /* A name that is only a folder: nothing. */
  check_lookup (root, "@/flat", "C:\\src\\", 5, ETL_SYMBOL_LOOKUP_NOT_FOUND, NULL, 0);

  remove_tree (root);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbol-path/key", test_key);
  g_test_add_func ("/symbol-path/basename", test_basename);
  g_test_add_func ("/symbol-path/parse", test_parse);
  g_test_add_func ("/symbol-path/parse-empty", test_parse_empty);
  g_test_add_func ("/symbol-path/parse-errors", test_parse_errors);
  g_test_add_func ("/symbol-path/find-local", test_find_local);
  return g_test_run ();
}
