/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-pdb: the PDB reader (core/symbols/) on
 * - ../shared/symbols/CppCon.pdb, a real MSVC PDB (GUID, age, known
 *   functions at the RVAs llvm-pdbutil reports, lookups);
 * - PDBs built here from a small C program with clang and lld-link (x64 and
 *   x86: a recursive, a static, an always-inlined function, and a function
 *   of an object without debug information, known only as a public);
 * - synthetic PDBs (etl-test-pdb.h), 512-byte and 4 KiB blocks, fragmented;
 * every table compared with `llvm-pdbutil dump` where it is installed;
 * - truncated and poisoned copies: each structure cut or set out of range
 *   gives its EtlPdbError code, every prefix and random byte flips give an
 *   error or a table, never a crash.
 */
#include "config.h"

#include <string.h>

#include "etl-msf.h"
#include "etl-pdb.h"
#include "etl-test-pdb.h"
#include "etl-test-util.h"

/* ------------------------------------------------------------------------ */
/* Helpers */

static char *
symbols_path (const char *name)
{
  char *path = g_build_filename (etl_test_corpus_dir (), "..", "symbols", name, NULL);

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("%s not found (../shared/symbols is absent)", path);

      g_test_skip (msg);
      g_free (path);
      return NULL;
    }
  return path;
}

static const EtlPdbFunction *
find_at (const EtlPdb *pdb, guint32 rva)
{
  guint32 offset = G_MAXUINT32;
  const EtlPdbFunction *f = etl_pdb_lookup (pdb, rva, &offset);

  if (f == NULL || offset != 0)
    return NULL;
  return f;
}

/* The table's invariants: sorted, one entry per RVA, no overlaps, within
 * 32 bits; a lookup of each entry's first and last byte finds it. */
static void
assert_table_sane (const EtlPdb *pdb)
{
  guint n;
  const EtlPdbFunction *f = etl_pdb_get_functions (pdb, &n);

  for (guint i = 1; i < n; i++)
    {
      g_assert_cmpuint (f[i - 1].rva, <, f[i].rva);
      g_assert_cmpuint ((guint64)f[i - 1].rva + f[i - 1].length, <=, f[i].rva);
    }
  for (guint i = 0; i < n; i++)
    {
      guint32 off = 1;

      g_assert_nonnull (f[i].name);
      g_assert_cmpuint ((guint64)f[i].rva + f[i].length, <=, (guint64)G_MAXUINT32 + 1);
      if (f[i].length > 0)
        {
          g_assert_true (etl_pdb_lookup (pdb, f[i].rva + f[i].length - 1, &off) == &f[i]);
          g_assert_cmpuint (off, ==, f[i].length - 1);
          g_assert_true (etl_pdb_lookup (pdb, f[i].rva, &off) == &f[i]);
          g_assert_cmpuint (off, ==, 0);
        }
    }
}

/* ------------------------------------------------------------------------ */
/* llvm-pdbutil: the expected table */

typedef struct
{
  guint32 rva;
  guint32 length;
  char *name;
  gboolean procedure;
} LlvmSymbol;

static void
llvm_symbol_clear (gpointer p)
{
  g_free (((LlvmSymbol *)p)->name);
}

/* Runs `llvm-pdbutil dump --publics --symbols --section-headers` on @path
 * and returns its procedures and code publics with RVAs, or NULL (and a
 * skip) when llvm-pdbutil is not installed. */
static GArray *
llvm_pdbutil_symbols (const char *path)
{
  g_autofree char *tool = g_find_program_in_path ("llvm-pdbutil");
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GArray) vas = g_array_new (FALSE, TRUE, sizeof (guint32));
  g_autoptr (GArray) code = g_array_new (FALSE, TRUE, sizeof (gboolean));
  g_autoptr (GRegex) sym_re
      = g_regex_new ("^\\s*\\d+ \\| (S_[A-Z0-9_]+) \\[size = \\d+\\] `(.*)`$", 0, 0, NULL);
  g_autoptr (GRegex) proc_re = g_regex_new ("addr = (\\d+):(\\d+), code size = (\\d+)", 0, 0, NULL);
  g_autoptr (GRegex) pub_re = g_regex_new ("flags = (.*), addr = (\\d+):(\\d+)$", 0, 0, NULL);
  GArray *symbols;

  if (tool == NULL)
    tool = g_find_program_in_path ("llvm-pdbutil-14");
  if (tool == NULL)
    {
      g_test_skip ("llvm-pdbutil is not installed: no comparison with LLVM's reader");
      return NULL;
    }
  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error,
                           tool, "dump", "--publics", "--symbols", "--section-headers", path, NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_exit_status (proc) != 0)
    g_error ("llvm-pdbutil dump %s failed: %s%s", path, err, out);

  symbols = g_array_new (FALSE, TRUE, sizeof (LlvmSymbol));
  g_array_set_clear_func (symbols, llvm_symbol_clear);
  lines = g_strsplit (out, "\n", -1);
  /* The section headers first: llvm-pdbutil prints them after the symbols. */
  for (guint i = 0; lines[i]; i++)
    {
      const char *l = lines[i];

      if (strstr (l, "SECTION HEADER #") != NULL)
        {
          guint32 zero = 0;
          gboolean no = FALSE;

          g_array_append_val (vas, zero);
          g_array_append_val (code, no);
        }
      else if (g_str_has_suffix (l, " virtual address") && vas->len > 0)
        g_array_index (vas, guint32, vas->len - 1)
            = (guint32)g_ascii_strtoull (g_strchug ((char *)l), NULL, 16);
      else if (g_str_has_suffix (l, " flags") && vas->len > 0)
        g_array_index (code, gboolean, code->len - 1)
            = (g_ascii_strtoull (g_strchug ((char *)l), NULL, 16) & 0x20000020) != 0;
    }
  for (guint i = 0; lines[i]; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      const char *l = lines[i];

      if (g_regex_match (sym_re, l, 0, &m) && lines[i + 1] != NULL)
        {
          g_autofree char *kind = g_match_info_fetch (m, 1);
          g_autofree char *name = g_match_info_fetch (m, 2);
          g_autoptr (GMatchInfo) m2 = NULL;
          gboolean is_proc
              = g_str_has_prefix (kind, "S_GPROC32") || g_str_has_prefix (kind, "S_LPROC32");
          gboolean is_pub = strcmp (kind, "S_PUB32") == 0;
          LlvmSymbol s = { 0 };
          guint seg;

          if (is_proc && g_regex_match (proc_re, lines[i + 1], 0, &m2))
            {
              g_autofree char *a = g_match_info_fetch (m2, 1);
              g_autofree char *b = g_match_info_fetch (m2, 2);
              g_autofree char *c = g_match_info_fetch (m2, 3);

              seg = (guint)g_ascii_strtoull (a, NULL, 10);
              s.rva = (guint32)g_ascii_strtoull (b, NULL, 10);
              s.length = (guint32)g_ascii_strtoull (c, NULL, 10);
              s.procedure = TRUE;
            }
          else if (is_pub && g_regex_match (pub_re, lines[i + 1], 0, &m2))
            {
              g_autofree char *flags = g_match_info_fetch (m2, 1);
              g_autofree char *a = g_match_info_fetch (m2, 2);
              g_autofree char *b = g_match_info_fetch (m2, 3);

              seg = (guint)g_ascii_strtoull (a, NULL, 10);
              s.rva = (guint32)g_ascii_strtoull (b, NULL, 10);
              if (strstr (flags, "function") == NULL && strstr (flags, "code") == NULL
                  && (seg == 0 || seg > code->len || !g_array_index (code, gboolean, seg - 1)))
                continue;
            }
          else
            continue;
          if (seg == 0 || seg > vas->len)
            continue;
          s.rva += g_array_index (vas, guint32, seg - 1);
          s.name = g_steal_pointer (&name);
          g_array_append_val (symbols, s);
        }
    }
  g_assert_cmpuint (vas->len, >, 0);
  return symbols;
}

/* Every procedure llvm-pdbutil lists is in the table at its RVA with its
 * CodeSize and name (one of them where several share an RVA), a lookup in
 * its middle names it; every code public without a procedure over it is
 * there too; and the table has nothing else. */
static void
compare_with_llvm (const EtlPdb *pdb, const char *path)
{
  g_autoptr (GArray) expected = llvm_pdbutil_symbols (path);
  g_autoptr (GHashTable) rvas = NULL;
  guint n, n_procs = 0;

  if (expected == NULL)
    return;
  etl_pdb_get_functions (pdb, &n);
  rvas = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < expected->len; i++)
    {
      const LlvmSymbol *s = &g_array_index (expected, LlvmSymbol, i);
      const EtlPdbFunction *f = find_at (pdb, s->rva);
      guint32 offset;

      if (!s->procedure)
        continue;
      n_procs++;
      g_hash_table_add (rvas, GUINT_TO_POINTER (s->rva));
      g_assert_nonnull (f);
      g_assert_cmpint (f->kind, ==, ETL_PDB_FUNCTION_PROCEDURE);
      g_assert_cmpuint (f->length, ==, s->length);
      if (strcmp (f->name, s->name) != 0)
        {
          /* Identical code folded: another procedure at this RVA won. */
          gboolean other = FALSE;

          for (guint j = 0; j < expected->len; j++)
            {
              const LlvmSymbol *t = &g_array_index (expected, LlvmSymbol, j);

              other |= t->procedure && t->rva == s->rva && strcmp (t->name, f->name) == 0;
            }
          g_assert_true (other);
        }
      if (s->length > 1)
        {
          f = etl_pdb_lookup (pdb, s->rva + s->length / 2, &offset);
          g_assert_nonnull (f);
          g_assert_cmpuint (f->rva, ==, s->rva);
          g_assert_cmpuint (offset, ==, s->length / 2);
        }
    }
  g_assert_cmpuint (etl_pdb_get_n_procedures (pdb), ==, n_procs);
  for (guint i = 0; i < expected->len; i++)
    {
      const LlvmSymbol *s = &g_array_index (expected, LlvmSymbol, i);
      const EtlPdbFunction *f;
      guint32 offset;

      if (s->procedure || g_hash_table_contains (rvas, GUINT_TO_POINTER (s->rva)))
        continue;
      f = etl_pdb_lookup (pdb, s->rva, &offset);
      if (f && f->kind == ETL_PDB_FUNCTION_PROCEDURE && offset > 0)
        continue; /* inside a procedure */
      g_hash_table_add (rvas, GUINT_TO_POINTER (s->rva));
      g_assert_nonnull (f);
      g_assert_cmpuint (offset, ==, 0);
      g_assert_cmpint (f->kind, ==, ETL_PDB_FUNCTION_PUBLIC);
    }
  g_assert_cmpuint (n, ==, g_hash_table_size (rvas));
  g_test_message ("%s: %u functions agree with llvm-pdbutil", path, n);
}

/* ------------------------------------------------------------------------ */
/* CppCon.pdb (MSVC, x86) */

static void
test_cppcon (void)
{
  g_autofree char *path = symbols_path ("CppCon.pdb");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlPdb) pdb = NULL;
  char guid[ETL_PDB_GUID_STRING_LEN + 1];
  const EtlPdbFunction *f;
  guint32 offset;
  guint n;

  if (path == NULL)
    return;
  pdb = etl_pdb_open (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (pdb);
  etl_pdb_format_guid (etl_pdb_get_guid (pdb), guid);
  g_assert_cmpstr (guid, ==, "{12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467}");
  g_assert_cmpuint (etl_pdb_get_age (pdb), ==, 5);
  g_assert_cmpuint (etl_pdb_get_machine (pdb), ==, 0x14C);
  g_assert_cmpuint (etl_pdb_get_n_procedures (pdb), ==, 58);
  etl_pdb_get_functions (pdb, &n);
  g_assert_cmpuint (n, ==, 79);
  assert_table_sane (pdb);

  /* llvm-pdbutil: S_GPROC32 `main`, addr = 0001:0000, code size = 14 (.text at 0x1000). */
  f = find_at (pdb, 0x1000);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, "main");
  g_assert_cmpuint (f->length, ==, 14);
  g_assert_cmpint (f->kind, ==, ETL_PDB_FUNCTION_PROCEDURE);
  /* 0001:0016, 541 bytes. */
  f = find_at (pdb, 0x1010);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, "std::operator<<<std::char_traits<char> >");
  g_assert_cmpuint (f->length, ==, 541);
  /* S_LPROC32 `__get_entropy`, 0001:2236, 77 bytes. */
  f = find_at (pdb, 0x1000 + 2236);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, "__get_entropy");
  g_assert_cmpuint (f->length, ==, 77);
  /* 0001:2388: the procedure _get_startup_commit_mode (3 bytes) beats the
   * seven publics folded onto it (__matherr, ...). */
  f = find_at (pdb, 0x1000 + 2388);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, "_get_startup_commit_mode");
  g_assert_cmpuint (f->length, ==, 3);
  /* Publics only: the import thunk _terminate (0001:3839), 6 bytes to the
   * next function. */
  f = find_at (pdb, 0x1000 + 3839);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, "_terminate");
  g_assert_cmpint (f->kind, ==, ETL_PDB_FUNCTION_PUBLIC);
  g_assert_cmpuint (f->length, ==, 6);

  /* Lookups: inside main, in the padding after it, before .text. */
  f = etl_pdb_lookup (pdb, 0x100D, &offset);
  g_assert_nonnull (f);
  g_assert_cmpstr (f->name, ==, "main");
  g_assert_cmpuint (offset, ==, 0xD);
  g_assert_null (etl_pdb_lookup (pdb, 0x100E, NULL));
  g_assert_null (etl_pdb_lookup (pdb, 0xFFF, NULL));
  g_assert_null (etl_pdb_lookup (pdb, 0, NULL));
  g_assert_null (etl_pdb_lookup (pdb, G_MAXUINT32, NULL));
  f = etl_pdb_lookup (pdb, 0x1010 + 540, &offset);
  g_assert_nonnull (f);
  g_assert_cmpuint (offset, ==, 540);

  compare_with_llvm (pdb, path);
}

/* The same bytes in memory, and through etl_msf_* directly. */
static void
test_cppcon_msf (void)
{
  g_autofree char *path = symbols_path ("CppCon.pdb");
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlMsf) msf = NULL;
  g_autoptr (GBytes) info = NULL;
  gsize len;

  if (path == NULL)
    return;
  msf = etl_msf_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_msf_get_block_size (msf), ==, 4096);
  g_assert_cmpuint (etl_msf_get_n_blocks (msf), ==, 173);
  g_assert_cmpuint (etl_msf_get_n_streams (msf), ==, 77);
  /* llvm-pdbutil dump -streams: stream 1 272 bytes, 3 30951, 5 empty. */
  g_assert_cmpuint (etl_msf_get_stream_size (msf, 1), ==, 272);
  g_assert_cmpuint (etl_msf_get_stream_size (msf, 3), ==, 30951);
  g_assert_true (etl_msf_has_stream (msf, 5));
  g_assert_cmpuint (etl_msf_get_stream_size (msf, 5), ==, 0);
  g_assert_false (etl_msf_has_stream (msf, 77));
  info = etl_msf_read_stream (msf, 1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_bytes_get_size (info), ==, 272);
  /* Version VC70, then Signature 1661906834 (llvm-pdbutil -summary). */
  g_assert_cmpuint (((const guint8 *)g_bytes_get_data (info, &len))[0], ==, 20000404 & 0xFF);
  g_assert_cmpuint (GUINT32_FROM_LE (((const guint32 *)g_bytes_get_data (info, &len))[1]), ==,
                    1661906834);
  g_assert_null (etl_msf_read_stream (msf, 77, &error));
  g_assert_error (error, ETL_PDB_ERROR, ETL_PDB_ERROR_MISSING_STREAM);
}

/* ------------------------------------------------------------------------ */
/* PDBs built with clang and lld-link */

static const char test_program[]
    = "static __attribute__((noinline)) int scale (int x) { return x * 3 + 1; }\n"
      "static inline __attribute__((always_inline)) int twice (int x) { return x + x; }\n"
      "int fib (int n) { return n < 2 ? n : fib (n - 1) + fib (n - 2); }\n"
      "volatile int counter;\n"
      "int nodebug_add (int a, int b);\n"
      "int use_inline (int a) { counter += twice (a); return twice (counter) + scale (a); }\n"
      "int start (void) { return fib (10) + use_inline (3) + scale (counter) + nodebug_add (1, 2); "
      "}\n";

static const char test_nodebug[] = "int nodebug_add (int a, int b) { return a * b + a; }\n";

static gboolean
run_tool (const char *const *argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc = g_subprocess_newv (
      argv, G_SUBPROCESS_FLAGS_STDERR_MERGE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_autofree char *out = NULL;

  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_exit_status (proc) != 0)
    {
      g_test_message ("%s failed: %s", argv[0], out);
      return FALSE;
    }
  return TRUE;
}

/* Builds the test program for @triple into @dir; returns the PDB's path. */
static char *
build_with_clang (const char *dir, const char *triple)
{
  g_autofree char *clang = g_find_program_in_path ("clang");
  g_autofree char *lld = g_find_program_in_path ("lld-link");
  g_autofree char *src = g_build_filename (dir, "prog.c", NULL);
  g_autofree char *src2 = g_build_filename (dir, "nodebug.c", NULL);
  g_autofree char *obj = g_strdup_printf ("%s/prog-%s.obj", dir, triple);
  g_autofree char *obj2 = g_strdup_printf ("%s/nodebug-%s.obj", dir, triple);
  g_autofree char *exe = g_strdup_printf ("/out:%s/prog-%s.exe", dir, triple);
  g_autofree char *pdb = g_strdup_printf ("%s/prog-%s.pdb", dir, triple);
  g_autofree char *pdb_arg = g_strconcat ("/pdb:", pdb, NULL);
  g_autofree char *target = g_strdup_printf ("--target=%s", triple);

  if (clang == NULL || lld == NULL)
    {
      g_test_skip ("clang or lld-link is not installed: no PDB built");
      return NULL;
    }
  g_assert_true (g_file_set_contents (src, test_program, -1, NULL));
  g_assert_true (g_file_set_contents (src2, test_nodebug, -1, NULL));
  {
    const char *cc[] = { clang, target, "-O1", "-g", "-gcodeview", "-c", src, "-o", obj, NULL };
    const char *cc2[] = { clang, target, "-O1", "-c", src2, "-o", obj2, NULL };
    const char *link[]
        = { lld, "/debug", pdb_arg, exe, "/entry:start", "/nodefaultlib", "/subsystem:console",
            obj, obj2,     NULL };

    if (!run_tool (cc) || !run_tool (cc2) || !run_tool (link))
      {
        g_test_skip ("clang or lld-link could not build the test program for this target");
        return NULL;
      }
  }
  return g_steal_pointer (&pdb);
}

static void
check_clang_pdb (const char *triple, guint16 machine, const char *public_name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-pdb-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr (EtlPdb) pdb = NULL;
  const EtlPdbFunction *fib, *scale, *use_inline, *nodebug, *f;
  guint n;
  guint32 offset;

  g_assert_no_error (error);
  path = build_with_clang (dir, triple);
  if (path != NULL)
    {
      pdb = etl_pdb_open (path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (etl_pdb_get_machine (pdb), ==, machine);
      g_assert_cmpuint (etl_pdb_get_age (pdb), >=, 1);
      g_assert_false (etl_guid_is_zero (etl_pdb_get_guid (pdb)));
      assert_table_sane (pdb);
      etl_pdb_get_functions (pdb, &n);
      /* fib, use_inline, scale, start (procedures), nodebug_add (public). */
      g_assert_cmpuint (n, ==, 5);
      g_assert_cmpuint (etl_pdb_get_n_procedures (pdb), ==, 4);
      fib = scale = use_inline = nodebug = NULL;
      for (guint i = 0; i < n; i++)
        {
          f = &etl_pdb_get_functions (pdb, &n)[i];
          if (strcmp (f->name, "fib") == 0)
            fib = f;
          else if (strcmp (f->name, "scale") == 0)
            scale = f;
          else if (strcmp (f->name, "use_inline") == 0)
            use_inline = f;
          else if (strcmp (f->name, public_name) == 0)
            nodebug = f;
          /* The always-inlined function has no code of its own. */
          g_assert_cmpstr (f->name, !=, "twice");
        }
      g_assert_nonnull (fib);
      g_assert_nonnull (scale);
      g_assert_nonnull (use_inline);
      g_assert_nonnull (nodebug);
      g_assert_cmpint (fib->kind, ==, ETL_PDB_FUNCTION_PROCEDURE);
      g_assert_cmpint (scale->kind, ==, ETL_PDB_FUNCTION_PROCEDURE);
      g_assert_cmpint (nodebug->kind, ==, ETL_PDB_FUNCTION_PUBLIC);
      g_assert_cmpuint (nodebug->length, >, 0);
      /* The last byte of use_inline (the inlined twice() lies within it). */
      f = etl_pdb_lookup (pdb, use_inline->rva + use_inline->length - 1, &offset);
      g_assert_true (f == use_inline);
      g_assert_cmpuint (offset, ==, use_inline->length - 1);
      compare_with_llvm (pdb, path);
    }
  /* The sources, objects and outputs, then the folder. */
  {
    g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name (d)) != NULL)
      {
        g_autofree char *p = g_build_filename (dir, name, NULL);

        g_remove (p);
      }
  }
  g_rmdir (dir);
}

static void
test_clang_x64 (void)
{
  check_clang_pdb ("x86_64-pc-windows-msvc", 0x8664, "nodebug_add");
}

static void
test_clang_x86 (void)
{
  /* x86 C names carry a leading underscore in the publics. */
  check_clang_pdb ("i686-pc-windows-msvc", 0x14C, "_nodebug_add");
}

/* ------------------------------------------------------------------------ */
/* Synthetic PDBs */

static const EtlTestPdbSection synth_sections[] = {
  { 0x1000, 0x3000, 0x60000020 }, /* .text */
  { 0x4000, 0x1000, 0x40000040 }, /* .rdata */
  { 0x5000, 0x800, 0x60000020 },  /* a second code section */
};

static const EtlTestPdbProc synth_procs[] = {
  { 0x1110, 1, 0x0000, 0x40, "alpha" },       { 0x110F, 1, 0x0040, 0x20, "beta_static" },
  { 0x1147, 1, 0x0100, 0x80, "gamma_id" },    { 0x1146, 3, 0x0010, 0x30, "delta_local_id" },
  { 0x1110, 1, 0x0200, 0x10, "folded_one" },  { 0x1110, 1, 0x0200, 0x10, "folded_two" },
  { 0x1110, 9, 0x0000, 0x10, "bad_segment" },
};

static const EtlTestPdbPublic synth_publics[] = {
  { 2, 1, 0x0000, "_alpha" },           /* same RVA as alpha: the procedure wins */
  { 2, 1, 0x0300, "_thunk_a" },         /* public only: runs to _thunk_b */
  { 2, 1, 0x0306, "_thunk_b" },         /* up to the end of .text */
  { 0, 2, 0x0010, "_data_item" },       /* data: left out */
  { 0, 3, 0x0100, "_code_by_section" }, /* no flags, but in a code section */
  { 2, 1, 0x0110, "_inside_gamma" },    /* inside a procedure: left out */
};

static GBytes *
synth_pdb (guint32 block_size, gboolean fragment)
{
  EtlTestPdbSpec spec = { 0 };

  spec.block_size = block_size;
  spec.fragment = fragment;
  g_assert_true (etl_guid_parse ("01234567-89ab-cdef-0011-223344556677", &spec.guid));
  spec.age = 42;
  spec.machine = 0x8664;
  spec.sections = synth_sections;
  spec.n_sections = G_N_ELEMENTS (synth_sections);
  spec.procs = synth_procs;
  spec.n_procs = G_N_ELEMENTS (synth_procs);
  spec.procs_per_module = 3;
  spec.publics = synth_publics;
  spec.n_publics = G_N_ELEMENTS (synth_publics);
  return etl_test_pdb_build (&spec);
}

static void
check_synth_table (const EtlPdb *pdb)
{
  static const struct
  {
    guint32 rva, length;
    const char *name;
    EtlPdbFunctionKind kind;
  } expected[] = {
    { 0x1000, 0x40, "alpha", ETL_PDB_FUNCTION_PROCEDURE },
    { 0x1040, 0x20, "beta_static", ETL_PDB_FUNCTION_PROCEDURE },
    { 0x1100, 0x80, "gamma_id", ETL_PDB_FUNCTION_PROCEDURE },
    { 0x1200, 0x10, "folded_one", ETL_PDB_FUNCTION_PROCEDURE },
    { 0x1300, 0x6, "_thunk_a", ETL_PDB_FUNCTION_PUBLIC },
    { 0x1306, 0x4000 - 0x1306, "_thunk_b", ETL_PDB_FUNCTION_PUBLIC },
    { 0x5010, 0x30, "delta_local_id", ETL_PDB_FUNCTION_PROCEDURE },
    { 0x5100, 0x5800 - 0x5100, "_code_by_section", ETL_PDB_FUNCTION_PUBLIC },
  };
  char guid[ETL_PDB_GUID_STRING_LEN + 1];
  const EtlPdbFunction *f;
  guint n;
  guint32 offset;

  etl_pdb_format_guid (etl_pdb_get_guid (pdb), guid);
  g_assert_cmpstr (guid, ==, "{01234567-89AB-CDEF-0011-223344556677}");
  g_assert_cmpuint (etl_pdb_get_age (pdb), ==, 42);
  g_assert_cmpuint (etl_pdb_get_machine (pdb), ==, 0x8664);
  g_assert_cmpuint (etl_pdb_get_n_procedures (pdb), ==, 6); /* bad_segment is in no section */
  g_assert_cmpuint (etl_pdb_get_n_publics (pdb), ==, 5);
  f = etl_pdb_get_functions (pdb, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (f[i].rva, ==, expected[i].rva);
      g_assert_cmpuint (f[i].length, ==, expected[i].length);
      g_assert_cmpstr (f[i].name, ==, expected[i].name);
      g_assert_cmpint (f[i].kind, ==, expected[i].kind);
    }
  assert_table_sane (pdb);
  f = etl_pdb_lookup (pdb, 0x1115, &offset);
  g_assert_cmpstr (f->name, ==, "gamma_id");
  g_assert_cmpuint (offset, ==, 0x15);
  g_assert_null (etl_pdb_lookup (pdb, 0x1180, NULL));
  g_assert_null (etl_pdb_lookup (pdb, 0x4000, NULL));
}

static void
test_synthetic (void)
{
  const guint32 sizes[] = { 512, 4096 };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (int fragment = 0; fragment < 2; fragment++)
      {
        g_autoptr (GBytes) bytes = synth_pdb (sizes[i], fragment);
        g_autoptr (GError) error = NULL;
        g_autoptr (EtlPdb) pdb = etl_pdb_new_from_bytes (bytes, "synthetic.pdb", &error);

        g_assert_no_error (error);
        check_synth_table (pdb);
      }
}

/* LLVM's reader sees the same table in the synthetic file (it also checks
 * that the writer of etl-test-pdb.h follows the format). */
static void
test_synthetic_llvm (void)
{
  g_autoptr (GBytes) bytes = synth_pdb (512, TRUE);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlPdb) pdb = etl_pdb_new_from_bytes (bytes, "synthetic.pdb", &error);
  g_autofree char *path = NULL;
  int fd;

  g_assert_no_error (error);
  fd = g_file_open_tmp ("etlscope-synth-XXXXXX.pdb", &path, &error);
  g_assert_no_error (error);
  g_close (fd, NULL);
  g_assert_true (
      g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  compare_with_llvm (pdb, path);
  g_remove (path);
}

/* ------------------------------------------------------------------------ */
/* Broken files */

typedef void (*Poison) (guint8 *data, gsize *size, const EtlMsf *msf);

static guint8 *
stream_byte (guint8 *data, const EtlMsf *msf, guint32 stream, guint32 offset)
{
  g_assert_cmpuint (offset, <, etl_msf_get_stream_size (msf, stream));
  return data + etl_msf_get_file_offset (msf, stream, offset);
}

/* The stream directory's first block, and the entry of stream @s's size. */
static guint8 *
directory (guint8 *data)
{
  guint32 bs = GUINT32_FROM_LE (*(guint32 *)(void *)(data + 32));
  guint32 map = GUINT32_FROM_LE (*(guint32 *)(void *)(data + 52));
  guint32 first = GUINT32_FROM_LE (*(guint32 *)(void *)(data + (gsize)map * bs));

  return data + (gsize)first * bs;
}

static void
p_empty (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)d;
  (void)m;
  *size = 0;
}
static void
p_short_superblock (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)d;
  (void)m;
  *size = 55;
}
static void
p_magic (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  d[20] = '8';
}
static void
p_msf2 (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  memcpy (d,
          "Microsoft C/C++ program database 2.00\r\n\x1a"
          "JG\0\0",
          44);
}
static void
p_block_size (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (d + 32, 1000);
}
static void
p_half_file (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)d;
  (void)m;
  *size /= 2;
}
static void
p_no_blocks (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (d + 40, 0);
}
static void
p_block_map (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (d + 52, etl_msf_get_n_blocks (m));
}
static void
p_dir_bytes (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (d + 44, 0xFFFFFFF0);
}
static void
p_dir_block (guint8 *d, gsize *size, const EtlMsf *m)
{
  guint32 bs = etl_msf_get_block_size (m);
  guint32 map = GUINT32_FROM_LE (*(guint32 *)(void *)(d + 52));

  (void)size;
  etl_test_set_u32 (d + (gsize)map * bs, 0x7FFFFFFF);
}
static void
p_n_streams (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (directory (d), 0x40000000);
}
static void
p_stream_size (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (directory (d) + 4 + 4 * 3, 0x7FFFFFF0);
}
static void
p_stream_blocks (guint8 *d, gsize *size, const EtlMsf *m)
{
  /* Stream 8's size so large its blocks run past the directory. */
  (void)size;
  etl_test_set_u32 (directory (d) + 4 + 4 * 8,
                    etl_msf_get_n_blocks (m) * etl_msf_get_block_size (m) - 1);
}
static void
p_stream_block_index (guint8 *d, gsize *size, const EtlMsf *m)
{
  /* The last entry of the directory: the last block of the last stream. */
  guint32 n = etl_msf_get_n_streams (m), total = 0;

  (void)size;
  for (guint32 s = 0; s < n; s++)
    total += (etl_msf_get_stream_size (m, s) + etl_msf_get_block_size (m) - 1)
             / etl_msf_get_block_size (m);
  etl_test_set_u32 (directory (d) + 4 + 4 * n + 4 * (total - 1), etl_msf_get_n_blocks (m));
}
static void
p_info_short (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (directory (d) + 4 + 4 * 1, 20);
}
static void
p_info_version (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 1, 0), 19970604);
}
static void
p_no_dbi (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (directory (d) + 4 + 4 * 3, 0xFFFFFFFF);
}
static void
p_dbi_short (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (directory (d) + 4 + 4 * 3, 63);
}
static void
p_dbi_signature (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 3, 0), 0);
}
static void
p_mod_info_size (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 3, 24), 0x10000);
}
static void
p_mod_info_negative (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 3, 24), 0xFFFFFFF0);
}
static void
p_mod_info_cut (guint8 *d, gsize *size, const EtlMsf *m)
{
  /* The first entry's names run past ModInfoSize: cut to 66 bytes; the
   * bytes left over go to the section contribution substream. */
  guint8 *p = stream_byte (d, m, 3, 24);
  guint32 n = GUINT32_FROM_LE (*(guint32 *)(void *)p);

  (void)size;
  etl_test_set_u32 (p, 66);
  etl_test_set_u32 (stream_byte (d, m, 3, 28), n - 66);
}
static void
p_no_sections (guint8 *d, gsize *size, const EtlMsf *m)
{
  guint32 at = 64;

  (void)size;
  /* Optional debug header entry 5, after the module info, section
   * contribution, section map, file info, type server map and EC substreams. */
  for (guint32 field = 24; field <= 40; field += 4)
    at += GUINT32_FROM_LE (*(guint32 *)(void *)stream_byte (d, m, 3, field));
  at += GUINT32_FROM_LE (*(guint32 *)(void *)stream_byte (d, m, 3, 52));
  etl_test_set_u16 (stream_byte (d, m, 3, at + 10), 0xFFFF);
}
static void
p_sections_size (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  (void)m;
  etl_test_set_u32 (directory (d) + 4 + 4 * 5, 41);
}
static void
p_sym_byte_size (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 3, 64 + 36), 0x100000);
}
static void
p_record_len (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u16 (stream_byte (d, m, 8, 4), 0xFFF0);
}
static void
p_record_len_small (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u16 (stream_byte (d, m, 8, 4), 1);
}
static void
p_proc_short (guint8 *d, gsize *size, const EtlMsf *m)
{
  /* The first procedure (alpha, 35 + "alpha\0" + pad = 2 + 42 bytes) cut
   * before its name's NUL; the rest of the record is a second record. */
  (void)size;
  etl_test_set_u16 (stream_byte (d, m, 8, 4), 2 + 35 + 2);
  etl_test_set_u16 (stream_byte (d, m, 8, 4 + 2 + 2 + 35 + 2), 0);
}
static void
p_sym_hash (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 7, 0), 0xFFFFFF00);
}
static void
p_addr_map (guint8 *d, gsize *size, const EtlMsf *m)
{
  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 7, 4), 7);
}
static void
p_addr_entry (guint8 *d, gsize *size, const EtlMsf *m)
{
  guint32 hash = GUINT32_FROM_LE (*(guint32 *)(void *)stream_byte (d, m, 7, 0));

  (void)size;
  etl_test_set_u32 (stream_byte (d, m, 7, 28 + hash), 0xFFFFFFFE);
}
static void
p_pub_name (guint8 *d, gsize *size, const EtlMsf *m)
{
  /* The first S_PUB32 ("_alpha", 2 + 10 + 7 + pad 1 = 20 bytes) cut to 10 + 2. */
  (void)size;
  etl_test_set_u16 (stream_byte (d, m, 6, 0), 12);
}

typedef struct
{
  const char *name;
  Poison poison;
  EtlPdbError code;
} BrokenCase;

static const BrokenCase broken_cases[] = {
  { "empty", p_empty, ETL_PDB_ERROR_NOT_PDB },
  { "short-superblock", p_short_superblock, ETL_PDB_ERROR_NOT_PDB },
  { "magic", p_magic, ETL_PDB_ERROR_NOT_PDB },
  { "msf-2.00", p_msf2, ETL_PDB_ERROR_UNSUPPORTED },
  { "block-size", p_block_size, ETL_PDB_ERROR_UNSUPPORTED },
  { "half-file", p_half_file, ETL_PDB_ERROR_TRUNCATED },
  { "no-blocks", p_no_blocks, ETL_PDB_ERROR_CORRUPT },
  { "block-map-addr", p_block_map, ETL_PDB_ERROR_CORRUPT },
  { "directory-bytes", p_dir_bytes, ETL_PDB_ERROR_CORRUPT },
  { "directory-block", p_dir_block, ETL_PDB_ERROR_CORRUPT },
  { "n-streams", p_n_streams, ETL_PDB_ERROR_CORRUPT },
  { "stream-size", p_stream_size, ETL_PDB_ERROR_CORRUPT },
  { "stream-blocks", p_stream_blocks, ETL_PDB_ERROR_CORRUPT },
  { "stream-block-index", p_stream_block_index, ETL_PDB_ERROR_CORRUPT },
  { "info-short", p_info_short, ETL_PDB_ERROR_TRUNCATED },
  { "info-version", p_info_version, ETL_PDB_ERROR_UNSUPPORTED },
  { "no-dbi", p_no_dbi, ETL_PDB_ERROR_MISSING_STREAM },
  { "dbi-short", p_dbi_short, ETL_PDB_ERROR_TRUNCATED },
  { "dbi-signature", p_dbi_signature, ETL_PDB_ERROR_UNSUPPORTED },
  { "mod-info-size", p_mod_info_size, ETL_PDB_ERROR_TRUNCATED },
  { "mod-info-negative", p_mod_info_negative, ETL_PDB_ERROR_CORRUPT },
  { "mod-info-cut", p_mod_info_cut, ETL_PDB_ERROR_CORRUPT },
  { "no-section-headers", p_no_sections, ETL_PDB_ERROR_MISSING_STREAM },
  { "section-headers-size", p_sections_size, ETL_PDB_ERROR_CORRUPT },
  { "sym-byte-size", p_sym_byte_size, ETL_PDB_ERROR_TRUNCATED },
  { "record-length", p_record_len, ETL_PDB_ERROR_CORRUPT },
  { "record-length-small", p_record_len_small, ETL_PDB_ERROR_CORRUPT },
  { "procedure-name", p_proc_short, ETL_PDB_ERROR_CORRUPT },
  { "publics-sym-hash", p_sym_hash, ETL_PDB_ERROR_CORRUPT },
  { "publics-addr-map", p_addr_map, ETL_PDB_ERROR_CORRUPT },
  { "publics-addr-entry", p_addr_entry, ETL_PDB_ERROR_CORRUPT },
  { "public-name", p_pub_name, ETL_PDB_ERROR_CORRUPT },
};

static void
test_broken (gconstpointer data)
{
  const BrokenCase *c = data;

  /* Contiguous and fragmented streams: the poison finds its bytes through
   * the directory of the good file. */
  for (int fragment = 0; fragment < 2; fragment++)
    {
      g_autoptr (GBytes) good = synth_pdb (512, fragment);
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlMsf) msf = etl_msf_new_from_bytes (good, "good.pdb", &error);
      gsize size = g_bytes_get_size (good);
      guint8 *copy = g_memdup2 (g_bytes_get_data (good, NULL), size);
      g_autoptr (GBytes) bad = NULL;
      g_autoptr (EtlPdb) pdb = NULL;

      g_assert_no_error (error);
      c->poison (copy, &size, msf);
      bad = g_bytes_new_take (copy, size);
      pdb = etl_pdb_new_from_bytes (bad, "bad.pdb", &error);
      g_assert_null (pdb);
      g_assert_error (error, ETL_PDB_ERROR, (gint)c->code);
      /* The message names the file and an offset. */
      g_assert_true (g_str_has_prefix (error->message, "bad.pdb: offset "));
      g_test_message ("%s: %s", c->name, error->message);
    }
}

/* Module entries that all name one module stream, address map entries
 * that all name one S_PUB32 record: each is read once (a hostile file
 * cannot multiply the work by repeating a big stream). */
static void
test_repeated_streams (void)
{
  g_autoptr (GBytes) good = synth_pdb (512, FALSE);
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlMsf) msf = etl_msf_new_from_bytes (good, "good.pdb", &error);
  gsize size = g_bytes_get_size (good);
  guint8 *copy = g_memdup2 (g_bytes_get_data (good, NULL), size);
  g_autoptr (GBytes) bad = NULL;
  g_autoptr (EtlPdb) pdb = NULL;
  guint32 mod = 64, hash, first;
  guint32 sym_bytes;

  g_assert_no_error (error);
  /* The three module entries (64 fixed bytes, "modN.obj" twice: 84 bytes)
   * all name stream 8 and its SymByteSize, module 0's. */
  sym_bytes = GUINT32_FROM_LE (*(guint32 *)(void *)stream_byte (copy, msf, 3, mod + 36));
  for (guint m = 0; m < 3; m++, mod += 84)
    {
      etl_test_set_u16 (stream_byte (copy, msf, 3, mod + 34), ETL_TEST_PDB_STREAM_MODULE0);
      etl_test_set_u32 (stream_byte (copy, msf, 3, mod + 36), sym_bytes);
    }
  hash = GUINT32_FROM_LE (*(guint32 *)(void *)stream_byte (copy, msf, 7, 0));
  first = GUINT32_FROM_LE (*(guint32 *)(void *)stream_byte (copy, msf, 7, 28 + hash));
  for (guint i = 1; i < G_N_ELEMENTS (synth_publics); i++)
    etl_test_set_u32 (stream_byte (copy, msf, 7, 28 + hash + 4 * i), first);
  bad = g_bytes_new_take (copy, size);
  pdb = etl_pdb_new_from_bytes (bad, "repeated.pdb", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_pdb_get_n_procedures (pdb), ==, 3); /* alpha, beta_static, gamma_id */
  g_assert_cmpuint (etl_pdb_get_n_publics (pdb), ==, 1);
  assert_table_sane (pdb);
}

/* Every prefix of the file fails cleanly (the file ends inside a block). */
static void
test_truncated_prefixes (void)
{
  g_autoptr (GBytes) good = synth_pdb (512, TRUE);
  gsize size = g_bytes_get_size (good);

  for (gsize cut = 0; cut < size; cut += (cut < 1024 ? 1 : 97))
    {
      g_autoptr (GBytes) bad = g_bytes_new_from_bytes (good, 0, cut);
      g_autoptr (GError) error = NULL;
      g_autoptr (EtlPdb) pdb = etl_pdb_new_from_bytes (bad, "cut.pdb", &error);

      g_assert_null (pdb);
      g_assert_nonnull (error);
      g_assert_true (g_error_matches (error, ETL_PDB_ERROR, ETL_PDB_ERROR_NOT_PDB)
                     || g_error_matches (error, ETL_PDB_ERROR, ETL_PDB_ERROR_TRUNCATED));
    }
}

/* Random byte flips in the synthetic and, when present, the real PDB: a
 * table or an error, never a crash (the sanitizer builds watch the reads). */
static void
test_random_flips (void)
{
  g_autofree char *path
      = g_build_filename (etl_test_corpus_dir (), "..", "symbols", "CppCon.pdb", NULL);
  g_autoptr (GPtrArray) inputs = g_ptr_array_new_with_free_func ((GDestroyNotify)g_bytes_unref);
  GRand *rand = g_rand_new_with_seed (22);
  guint n_ok = 0, n_error = 0;
  char *contents;
  gsize len;

  g_ptr_array_add (inputs, synth_pdb (512, TRUE));
  g_ptr_array_add (inputs, synth_pdb (4096, FALSE));
  if (g_file_get_contents (path, &contents, &len, NULL))
    g_ptr_array_add (inputs, g_bytes_new_take (contents, len));
  for (guint i = 0; i < inputs->len; i++)
    {
      GBytes *good = g_ptr_array_index (inputs, i);
      gsize size = g_bytes_get_size (good);

      for (guint round = 0; round < 300; round++)
        {
          guint8 *copy = g_memdup2 (g_bytes_get_data (good, NULL), size);
          g_autoptr (GBytes) bad = NULL;
          g_autoptr (GError) error = NULL;
          g_autoptr (EtlPdb) pdb = NULL;
          guint flips = 1 + g_rand_int_range (rand, 0, 8);

          for (guint k = 0; k < flips; k++)
            copy[g_rand_int_range (rand, 0, (gint32)size)]
                ^= (guint8)g_rand_int_range (rand, 1, 256);
          bad = g_bytes_new_take (copy, size);
          pdb = etl_pdb_new_from_bytes (bad, "flipped.pdb", &error);
          if (pdb)
            {
              assert_table_sane (pdb);
              n_ok++;
            }
          else
            {
              g_assert_true (error->domain == ETL_PDB_ERROR);
              n_error++;
            }
        }
    }
  g_rand_free (rand);
  g_test_message ("%u flipped files read, %u refused", n_ok, n_error);
  g_assert_cmpuint (n_ok + n_error, ==, inputs->len * 300);
}

static void
test_open_errors (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-pdb-XXXXXX", &error);
  g_autofree char *missing = g_build_filename (dir, "missing.pdb", NULL);

  g_assert_no_error (error);
  g_assert_null (etl_pdb_open (missing, &error));
  g_assert_error (error, ETL_PDB_ERROR, ETL_PDB_ERROR_OPEN);
  g_assert_nonnull (strstr (error->message, "missing.pdb"));
  g_clear_error (&error);
  g_assert_null (etl_pdb_open (dir, &error));
  g_assert_error (error, ETL_PDB_ERROR, ETL_PDB_ERROR_OPEN);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/pdb/cppcon", test_cppcon);
  g_test_add_func ("/etl/pdb/cppcon-msf", test_cppcon_msf);
  g_test_add_func ("/etl/pdb/clang-x64", test_clang_x64);
  g_test_add_func ("/etl/pdb/clang-x86", test_clang_x86);
  g_test_add_func ("/etl/pdb/synthetic", test_synthetic);
  g_test_add_func ("/etl/pdb/synthetic-llvm", test_synthetic_llvm);
  for (guint i = 0; i < G_N_ELEMENTS (broken_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/etl/pdb/broken/%s", broken_cases[i].name);

      g_test_add_data_func (name, &broken_cases[i], test_broken);
    }
  g_test_add_func ("/etl/pdb/repeated-streams", test_repeated_streams);
  g_test_add_func ("/etl/pdb/truncated-prefixes", test_truncated_prefixes);
  g_test_add_func ("/etl/pdb/random-flips", test_random_flips);
  g_test_add_func ("/etl/pdb/open-errors", test_open_errors);
  return g_test_run ();
}
