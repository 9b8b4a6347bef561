/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-symbol-resolver.c: native frames named through PDBs
 * (etl-symbol-resolver.c), the KernelTraceControl DbgID records attached to
 * images (etl-module-id.c, etl-stacks.c) and `etlscope-cli stacks
 * --symbols`.
 *
 * A small C program is built here with clang and lld-link (x64, CodeView,
 * /pdb) twice: the real build and "another build" of a changed source under
 * the same name (another GUID).  A synthetic trace (etl_synth_write() with
 * symbol_modules) loads six images into process 1000 and samples stacks at
 * known RVAs: app.exe (its PDB in the symbol folder), lost.dll (no PDB
 * anywhere), mism.dll (a PDB of another build under its name), nodbg.dll
 * (no DbgID_RSDS record), bad.dll (a truncated copy of a PDB) and comp.dll
 * (only a compressed name.pd_ in the store).  Every frame's name is checked
 * against what llvm-pdbutil reports for the same RVA.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "etl-pdb.h"
#include "etl-stacks.h"
#include "etl-symbol-path.h"
#include "etl-symbol-resolver.h"
#include "etl-synth.h"
#include "etl-test-util.h"
#include "etl-trace.h"

#define APP_BASE G_GUINT64_CONSTANT (0x0000000140000000)
#define LOST_BASE G_GUINT64_CONSTANT (0x0000000180000000)
#define MISM_BASE G_GUINT64_CONSTANT (0x00000001A0000000)
#define NODBG_BASE G_GUINT64_CONSTANT (0x00000001C0000000)
#define BAD_BASE G_GUINT64_CONSTANT (0x00000001E0000000)
#define COMP_BASE G_GUINT64_CONSTANT (0x0000000200000000)
#define IMAGE_SIZE 0x100000
#define NET_RSDS 3534 /* the decoder counts as many ImageID/DbgID_RSDS records (etlscope-cli dump) */
#define NET_ILRSDS 44
#define NET_ATTACHED 3546 /* 3,564 Image DCStart/DCStop/Load records, of which 12 have ImageID/None and 6 none */

static const char program[]
    = "static __attribute__((noinline)) int scale (int x) { return x * 3 + 1; }\n"
      "int fib (int n) { return n < 2 ? n : fib (n - 1) + fib (n - 2); }\n"
      "volatile int counter;\n"
      "int use_it (int a) { counter += a; return counter + scale (a); }\n"
      "int start (void) { return fib (10) + use_it (3) + scale (counter); }\n";

static const char other_program[]
    = "int other (int n) { return n * 7; }\n"
      "int start (void) { return other (5); }\n";

typedef struct
{
  char *name;
  guint32 rva;
  guint32 length;
} Proc;

static void
proc_clear (gpointer p)
{
  g_free (((Proc *)p)->name);
}

static gboolean
run_tool (const char *const *argv, char **out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) proc
      = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDERR_MERGE | G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &text, NULL, &error);
  g_assert_no_error (error);
  if (g_subprocess_get_exit_status (proc) != 0)
    {
      g_test_message ("%s failed: %s", argv[0], text);
      return FALSE;
    }
  if (out != NULL)
    *out = g_steal_pointer (&text);
  return TRUE;
}

/* Builds @source as @dir/app.exe with @dir/app.pdb (x64); NULL and a skip
 * without clang and lld-link. */
static char *
build (const char *dir, const char *source)
{
  g_autofree char *clang = g_find_program_in_path ("clang");
  g_autofree char *lld = g_find_program_in_path ("lld-link");
  g_autofree char *src = g_build_filename (dir, "app.c", NULL);
  g_autofree char *obj = g_build_filename (dir, "app.obj", NULL);
  g_autofree char *exe = g_strdup_printf ("/out:%s/app.exe", dir);
  g_autofree char *pdb = g_build_filename (dir, "app.pdb", NULL);
  g_autofree char *pdb_arg = g_strconcat ("/pdb:", pdb, NULL);

  if (clang == NULL || lld == NULL)
    {
      g_test_skip ("clang or lld-link is not installed: no PDB built");
      return NULL;
    }
  g_assert_true (g_file_set_contents (src, source, -1, NULL));
  {
    const char *cc[] = { clang, "--target=x86_64-pc-windows-msvc", "-O1", "-g", "-gcodeview", "-c", src, "-o", obj,
                         NULL };
    const char *link[] = { lld,   "/debug", pdb_arg, exe, "/entry:start", "/nodefaultlib", "/subsystem:console",
                           obj,   NULL };

    if (!run_tool (cc, NULL) || !run_tool (link, NULL))
      {
        g_test_skip ("clang or lld-link could not build the test program");
        return NULL;
      }
  }
  return g_steal_pointer (&pdb);
}

/* The procedures llvm-pdbutil lists (S_GPROC32/S_LPROC32: name, RVA from
 * the section header's virtual address + the offset, code size); NULL
 * without llvm-pdbutil (the PDB's own table is used then). */
static GArray *
llvm_procs (const char *path)
{
  g_autofree char *tool = g_find_program_in_path ("llvm-pdbutil");
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GRegex) sym_re = g_regex_new ("\\| S_[GL]PROC32(_ID)? \\[size = \\d+\\] `(.*)`$", 0, 0, NULL);
  g_autoptr (GRegex) addr_re = g_regex_new ("addr = (\\d+):(\\d+), code size = (\\d+)", 0, 0, NULL);
  g_autoptr (GArray) vas = g_array_new (FALSE, TRUE, sizeof (guint32));
  GArray *procs;

  if (tool == NULL)
    tool = g_find_program_in_path ("llvm-pdbutil-14");
  if (tool == NULL)
    return NULL;
  {
    const char *argv[] = { tool, "dump", "--symbols", "--section-headers", path, NULL };

    g_assert_true (run_tool (argv, &out));
  }
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_suffix (lines[i], " virtual address"))
      {
        guint32 va = (guint32)g_ascii_strtoull (g_strchug (lines[i]), NULL, 16);

        g_array_append_val (vas, va);
      }
  procs = g_array_new (FALSE, TRUE, sizeof (Proc));
  g_array_set_clear_func (procs, proc_clear);
  for (guint i = 0; lines[i] != NULL && lines[i + 1] != NULL; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;
      g_autoptr (GMatchInfo) m2 = NULL;

      if (g_regex_match (sym_re, lines[i], 0, &m) && g_regex_match (addr_re, lines[i + 1], 0, &m2))
        {
          g_autofree char *seg = g_match_info_fetch (m2, 1);
          g_autofree char *off = g_match_info_fetch (m2, 2);
          g_autofree char *size = g_match_info_fetch (m2, 3);
          guint s = (guint)g_ascii_strtoull (seg, NULL, 10);
          Proc p = { g_match_info_fetch (m, 2), 0, (guint32)g_ascii_strtoull (size, NULL, 10) };

          g_assert_cmpuint (s, >=, 1);
          g_assert_cmpuint (s, <=, vas->len);
          p.rva = g_array_index (vas, guint32, s - 1) + (guint32)g_ascii_strtoull (off, NULL, 10);
          g_array_append_val (procs, p);
        }
    }
  g_assert_cmpuint (vas->len, >, 0);
  return procs;
}

static const Proc *
find_proc (GArray *procs, const char *name)
{
  for (guint i = 0; i < procs->len; i++)
    if (strcmp (g_array_index (procs, Proc, i).name, name) == 0)
      return &g_array_index (procs, Proc, i);
  g_error ("no procedure %s", name);
  return NULL;
}

static gboolean
copy_file (const char *from, const char *to, gsize max)
{
  g_autofree char *data = NULL;
  gsize len;

  if (!g_file_get_contents (from, &data, &len, NULL))
    return FALSE;
  return g_file_set_contents (to, data, MIN (len, max), NULL);
}

typedef struct
{
  char *dir;
  char *trace_path;
  char *sym_dir;
  char *pdb_path; /* the real build's */
  EtlGuid guid;
  guint32 age;
  GArray *procs;  /* Proc: llvm-pdbutil's, or the PDB's own table */
  GArray *stacks; /* guint64: what the trace's samples hold */
  GPtrArray *expected; /* char *: their names, "" between stacks */
} Fixture;

static const EtlGuid lost_guid = { 0x11111111, 0x2222, 0x3333, { 4, 4, 5, 5, 6, 6, 7, 7 } };
static const EtlGuid comp_guid = { 0xC0C0C0C0, 0x1234, 0x5678, { 9, 8, 7, 6, 5, 4, 3, 2 } };
static const EtlGuid bad_guid = { 0xBADBADBA, 0x0D0D, 0x0E0E, { 1, 2, 3, 4, 5, 6, 7, 8 } };

static void
add_frame (Fixture *f, guint64 address, const char *expected)
{
  g_array_append_val (f->stacks, address);
  g_ptr_array_add (f->expected, g_strdup (expected));
}

static void
end_stack (Fixture *f)
{
  guint64 zero = 0;

  g_array_append_val (f->stacks, zero);
  g_ptr_array_add (f->expected, g_strdup (""));
}

/* `app.exe!NAME+0xOFF` (or without +0x0) for RVA @rva of the build. */
static char *
expect_app (Fixture *f, guint32 rva)
{
  for (guint i = 0; i < f->procs->len; i++)
    {
      const Proc *p = &g_array_index (f->procs, Proc, i);

      if (rva >= p->rva && rva - p->rva < p->length)
        return rva == p->rva ? g_strdup_printf ("app.exe!%s", p->name)
                             : g_strdup_printf ("app.exe!%s+0x%x", p->name, rva - p->rva);
    }
  return g_strdup_printf ("app.exe+0x%x", rva);
}

/* Builds the PDBs, the symbol folder and the trace; FALSE after a skip. */
static gboolean
fixture_setup (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *other_dir = NULL;
  g_autofree char *other_pdb = NULL;
  g_autoptr (EtlPdb) pdb = NULL;
  EtlSynthParams params;
  EtlSynthModule modules[6];
  const Proc *fib, *scale, *use_it, *start;

  memset (f, 0, sizeof *f);
  f->dir = g_dir_make_tmp ("etlscope-resolver-XXXXXX", &error);
  g_assert_no_error (error);
  f->pdb_path = build (f->dir, program);
  if (f->pdb_path == NULL)
    return FALSE;
  other_dir = g_build_filename (f->dir, "other", NULL);
  g_assert_cmpint (g_mkdir (other_dir, 0700), ==, 0);
  other_pdb = build (other_dir, other_program);
  if (other_pdb == NULL)
    return FALSE;

  pdb = etl_pdb_open (f->pdb_path, &error);
  g_assert_no_error (error);
  f->guid = *etl_pdb_get_guid (pdb);
  f->age = etl_pdb_get_age (pdb);
  f->procs = llvm_procs (f->pdb_path);
  if (f->procs == NULL)
    {
      guint n;
      const EtlPdbFunction *fn = etl_pdb_get_functions (pdb, &n);

      g_test_message ("llvm-pdbutil is not installed: names checked against the PDB's own table");
      f->procs = g_array_new (FALSE, TRUE, sizeof (Proc));
      g_array_set_clear_func (f->procs, proc_clear);
      for (guint i = 0; i < n; i++)
        {
          Proc p = { g_strdup (fn[i].name), fn[i].rva, fn[i].length };

          g_array_append_val (f->procs, p);
        }
    }

  /* The symbol folder: app.pdb (flat), mism.pdb (the other build), bad.pdb
   * (the real one cut to 3,000 bytes), comp.pdb/KEY/comp.pd_ (a store). */
  f->sym_dir = g_build_filename (f->dir, "sym", NULL);
  g_assert_cmpint (g_mkdir (f->sym_dir, 0700), ==, 0);
  {
    g_autofree char *app = g_build_filename (f->sym_dir, "app.pdb", NULL);
    g_autofree char *mism = g_build_filename (f->sym_dir, "mism.pdb", NULL);
    g_autofree char *bad = g_build_filename (f->sym_dir, "bad.pdb", NULL);
    g_autofree char *key = etl_symbol_store_key (&comp_guid, 1);
    g_autofree char *comp_dir = g_build_filename (f->sym_dir, "comp.pdb", key, NULL);
    g_autofree char *comp = g_build_filename (comp_dir, "comp.pd_", NULL);

    g_assert_true (copy_file (f->pdb_path, app, G_MAXSIZE));
    g_assert_true (copy_file (other_pdb, mism, G_MAXSIZE));
    g_assert_true (copy_file (f->pdb_path, bad, 3000));
    g_assert_cmpint (g_mkdir_with_parents (comp_dir, 0700), ==, 0);
    {
      static const char cab[] = "MSCF\0\0\0\0 not really a cabinet";

      g_assert_true (g_file_set_contents (comp, cab, sizeof cab - 1, NULL));
    }
  }

  fib = find_proc (f->procs, "fib");
  scale = find_proc (f->procs, "scale");
  use_it = find_proc (f->procs, "use_it");
  start = find_proc (f->procs, "start");
  g_assert_cmpuint (fib->length, >, 8);
  f->stacks = g_array_new (FALSE, FALSE, sizeof (guint64));
  f->expected = g_ptr_array_new_with_free_func (g_free);
  /* Sample 1: fib+3 (leaf), fib+0x10 (its recursion), start+5 (function starts
   * and offsets), a frame in lost.dll. */
  {
    guint32 rvas[] = { fib->rva + 3, fib->rva + 0x10, start->rva + 5 };

    for (guint i = 0; i < G_N_ELEMENTS (rvas); i++)
      {
        g_autofree char *e = expect_app (f, rvas[i]);

        add_frame (f, APP_BASE + rvas[i], e);
      }
  }
  add_frame (f, LOST_BASE + 0x1234, "lost.dll+0x1234");
  end_stack (f);
  /* Sample 2: scale at offset 0, use_it's last byte, then one frame in each
   * unresolvable image and one in app.exe's headers (no function). */
  {
    g_autofree char *e1 = expect_app (f, scale->rva);
    g_autofree char *e2 = expect_app (f, use_it->rva + use_it->length - 1);

    g_assert_cmpstr (e1, ==, "app.exe!scale");
    add_frame (f, APP_BASE + scale->rva, e1);
    add_frame (f, APP_BASE + use_it->rva + use_it->length - 1, e2);
  }
  add_frame (f, MISM_BASE + 0x10, "mism.dll+0x10");
  add_frame (f, NODBG_BASE + 0x20, "nodbg.dll+0x20");
  add_frame (f, BAD_BASE + 0x30, "bad.dll+0x30");
  add_frame (f, COMP_BASE + 0x40, "comp.dll+0x40");
  add_frame (f, APP_BASE + 0x5, "app.exe+0x5");
  end_stack (f);

  memset (modules, 0, sizeof modules);
  modules[0] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\Synth\\app.exe", APP_BASE, IMAGE_SIZE, TRUE, f->guid,
                                 f->age, "C:\\build\\out\\app.pdb" };
  modules[1] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\Synth\\lost.dll", LOST_BASE, IMAGE_SIZE, TRUE,
                                 lost_guid, 3, "lost.pdb" };
  /* mism.dll claims the real build's identity; its PDB is the other build. */
  modules[2] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\Synth\\mism.dll", MISM_BASE, IMAGE_SIZE, TRUE, f->guid,
                                 f->age, "mism.pdb" };
  modules[3] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\Synth\\nodbg.dll", NODBG_BASE, IMAGE_SIZE, FALSE,
                                 { 0 }, 0, NULL };
  modules[4] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\Synth\\bad.dll", BAD_BASE, IMAGE_SIZE, TRUE, bad_guid,
                                 1, "bad.pdb" };
  modules[5] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\Synth\\comp.dll", COMP_BASE, IMAGE_SIZE, TRUE,
                                 comp_guid, 1, "comp.pdb" };
  etl_synth_params_init (&params);
  params.n_cpus = 1;
  params.symbol_modules = modules;
  params.n_symbol_modules = G_N_ELEMENTS (modules);
  params.symbol_stacks = (const guint64 *)f->stacks->data;
  params.n_symbol_stacks = f->stacks->len;
  f->trace_path = g_build_filename (f->dir, "symbols.etl", NULL);
  g_assert_true (etl_synth_write (&params, f->trace_path, &error));
  g_assert_no_error (error);
  return TRUE;
}

static void
fixture_teardown (Fixture *f)
{
  if (f->dir != NULL)
    etl_test_rm_rf (f->dir);
  g_free (f->dir);
  g_free (f->trace_path);
  g_free (f->sym_dir);
  g_free (f->pdb_path);
  g_clear_pointer (&f->procs, g_array_unref);
  g_clear_pointer (&f->stacks, g_array_unref);
  g_clear_pointer (&f->expected, g_ptr_array_unref);
}

static EtlTrace *
open_one (const char *path)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static EtlStacks *
compute (EtlTrace *trace)
{
  g_autoptr (GError) error = NULL;
  EtlStacks *s = etl_stacks_compute (trace, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (s);
  return s;
}

static EtlSymbolPath *
parse_path (const char *text)
{
  g_autoptr (GError) error = NULL;
  EtlSymbolPath *path = etl_symbol_path_parse (text, &error);

  g_assert_no_error (error);
  return path;
}

/* Every stack of the trace's samples, named, against f->expected. */
static void
check_frames (Fixture *f, EtlStacks *stacks, EtlTrace *trace)
{
  guint next = 0, n_stacks = 0;

  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      g_auto (GStrv) names = etl_stacks_dup_symbolized (stacks, i);

      if (names == NULL)
        continue;
      n_stacks++;
      for (guint k = 0; names[k] != NULL; k++, next++)
        {
          g_assert_cmpuint (next, <, f->expected->len);
          g_assert_cmpstr (names[k], ==, g_ptr_array_index (f->expected, next));
        }
      g_assert_cmpstr ("", ==, g_ptr_array_index (f->expected, next));
      next++;
    }
  g_assert_cmpuint (n_stacks, ==, 2);
  g_assert_cmpuint (next, ==, f->expected->len);
}

static gint
module_named (EtlStacks *stacks, const char *name)
{
  for (guint m = 0; m < etl_stacks_get_n_modules (stacks); m++)
    {
      EtlStackModule mod;

      g_assert_true (etl_stacks_get_module (stacks, m, &mod));
      if (strcmp (mod.name, name) == 0)
        return (gint)m;
    }
  g_error ("no module %s", name);
  return -1;
}

static const EtlSymbolModuleStatus *
status_of (GArray *rows, const char *module)
{
  for (guint i = 0; i < rows->len; i++)
    if (strcmp (g_array_index (rows, EtlSymbolModuleStatus, i).module, module) == 0)
      return &g_array_index (rows, EtlSymbolModuleStatus, i);
  g_error ("no status row for %s", module);
  return NULL;
}

/* The DbgID_RSDS records are attached to their images, with the record's
 * GUID, age and PDB name. */
static void
test_module_ids (void)
{
  Fixture f;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  EtlStackModule mod;

  if (!fixture_setup (&f))
    {
      fixture_teardown (&f);
      return;
    }
  trace = open_one (f.trace_path);
  stacks = compute (trace);
  g_assert_cmpuint (etl_stacks_get_n_modules (stacks), ==, 6);
  g_assert_cmpuint (etl_stacks_get_n_module_ids (stacks), ==, 5);
  g_assert_true (etl_stacks_get_module (stacks, module_named (stacks, "app.exe"), &mod));
  g_assert_nonnull (mod.id);
  g_assert_cmpint (mod.id->kind, ==, ETL_MODULE_ID_RSDS);
  g_assert_cmpuint (mod.id->image_base, ==, APP_BASE);
  g_assert_cmpuint (mod.id->process_id, ==, 1000);
  g_assert_true (etl_guid_equal (&mod.id->guid, &f.guid));
  g_assert_cmpuint (mod.id->age, ==, f.age);
  g_assert_cmpstr (mod.id->pdb_name, ==, "C:\\build\\out\\app.pdb");
  g_assert_true (etl_stacks_get_module (stacks, module_named (stacks, "lost.dll"), &mod));
  g_assert_nonnull (mod.id);
  g_assert_true (etl_guid_equal (&mod.id->guid, &lost_guid));
  g_assert_cmpuint (mod.id->age, ==, 3);
  g_assert_cmpstr (mod.id->pdb_name, ==, "lost.pdb");
  g_assert_true (etl_stacks_get_module (stacks, module_named (stacks, "nodbg.dll"), &mod));
  g_assert_null (mod.id);
  fixture_teardown (&f);
}

/* A DbgID_RSDS payload built by hand, read with both pointer sizes, then
 * cut at every length: refused (never read past the end), whole: read. */
static void
test_module_id_record (void)
{
  static const EtlGuid guid = { 0x12DC0A4F, 0xBD7D, 0x4F2A, { 0xA9, 0xBE, 0x26, 0x3B, 0xAC, 0xAE, 0xB4, 0x67 } };
  const guint ptrs[] = { 4, 8 };

  for (guint k = 0; k < G_N_ELEMENTS (ptrs); k++)
    {
      guint ptr = ptrs[k];
      g_autoptr (GByteArray) a = g_byte_array_new ();
      guint8 word[8];
      EtlRecord rec;
      EtlModuleId id;
      char *name = NULL;

      /* ImageBase, ProcessId, GuidSig (little-endian fields), Age, PdbFileName. */
      for (guint i = 0; i < 8; i++)
        word[i] = (guint8)((G_GUINT64_CONSTANT (0x0000000077710000) >> (8 * i)) & 0xFF);
      g_byte_array_append (a, word, ptr);
      g_byte_array_append (a, (const guint8 *)"\x34\x12\x00\x00", 4);
      g_byte_array_append (a, (const guint8 *)"\x4F\x0A\xDC\x12\x7D\xBD\x2A\x4F", 8);
      g_byte_array_append (a, guid.data4, 8);
      g_byte_array_append (a, (const guint8 *)"\x05\x00\x00\x00", 4);
      g_byte_array_append (a, (const guint8 *)"CppCon.pdb", 11);

      memset (&rec, 0, sizeof rec);
      rec.kind = ETL_RECORD_KIND_CLASSIC;
      rec.header_type = ptr == 4 ? ETL_HEADER_TYPE_FULL_HEADER32 : ETL_HEADER_TYPE_FULL_HEADER64;
      rec.opcode = 36;
      g_assert_true (etl_guid_parse (ETL_MODULE_ID_PROVIDER, &rec.provider));
      for (guint len = 0; len < a->len; len++)
        {
          /* A copy of exactly @len bytes, so a read past it is caught by
           * valgrind / ASan. */
          g_autofree guint8 *cut = g_memdup2 (a->data, MAX (len, 1));

          rec.user_data = cut;
          rec.user_data_len = len;
          g_assert_false (etl_module_id_read (&rec, &id, &name));
          g_assert_null (name);
        }
      rec.user_data = a->data;
      rec.user_data_len = a->len;
      g_assert_true (etl_module_id_read (&rec, &id, &name));
      g_assert_cmpint (id.kind, ==, ETL_MODULE_ID_RSDS);
      g_assert_cmphex (id.image_base, ==, 0x77710000);
      g_assert_cmpuint (id.process_id, ==, 0x1234);
      g_assert_true (etl_guid_equal (&id.guid, &guid));
      g_assert_cmpuint (id.age, ==, 5);
      g_assert_cmpstr (name, ==, "CppCon.pdb");
      g_free (name);
      /* ILRSDS: the same layout, another kind; another provider: not one. */
      rec.opcode = 37;
      g_assert_true (etl_module_id_read (&rec, &id, NULL));
      g_assert_cmpint (id.kind, ==, ETL_MODULE_ID_ILRSDS);
      rec.opcode = 40; /* DbgDeterm: ImageBase and ProcessId only */
      rec.user_data_len = ptr + 4;
      g_assert_true (etl_module_id_read (&rec, &id, &name));
      g_assert_cmpint (id.kind, ==, ETL_MODULE_ID_DETERM);
      g_assert_null (name);
      rec.provider.data1 ^= 1;
      g_assert_false (etl_module_id_read (&rec, &id, NULL));
    }
}

/* On demand: every frame named as llvm-pdbutil says, every image's status
 * and reason. */
static void
test_resolve (void)
{
  Fixture f;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GArray) rows = NULL;
  const EtlSymbolModuleStatus *s;

  if (!fixture_setup (&f))
    {
      fixture_teardown (&f);
      return;
    }
  trace = open_one (f.trace_path);
  stacks = compute (trace);
  path = parse_path (f.sym_dir);
  r = etl_symbol_resolver_new (stacks, path, TRUE);

  /* Before any frame: all pending but nodbg.dll. */
  g_assert_cmpint (etl_symbol_resolver_get_module_status (r, module_named (stacks, "app.exe")), ==,
                   ETL_SYMBOL_STATUS_PENDING);
  g_assert_cmpint (etl_symbol_resolver_get_module_status (r, module_named (stacks, "nodbg.dll")), ==,
                   ETL_SYMBOL_STATUS_NO_DBGID);
  etl_symbol_resolver_attach (r);
  check_frames (&f, stacks, trace);
  /* Named twice: the cache gives the same. */
  check_frames (&f, stacks, trace);

  rows = etl_symbol_resolver_dup_statuses (r);
  g_assert_cmpuint (rows->len, ==, 6);
  s = status_of (rows, "app.exe");
  g_assert_cmpint (s->status, ==, ETL_SYMBOL_STATUS_RESOLVED);
  g_assert_null (s->reason);
  g_assert_true (g_str_has_suffix (s->file, "/sym/app.pdb"));
  g_assert_cmpstr (s->pdb, ==, "C:\\build\\out\\app.pdb");
  g_assert_cmpuint (s->age, ==, f.age);
  {
    char guid[ETL_PDB_GUID_STRING_LEN + 1];

    etl_pdb_format_guid (&f.guid, guid);
    g_assert_cmpstr (s->guid, ==, guid);
  }
  s = status_of (rows, "lost.dll");
  g_assert_cmpint (s->status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  g_assert_nonnull (strstr (s->reason, "tried: "));
  g_assert_nonnull (strstr (s->reason, "/sym/lost.pdb"));
  g_assert_null (s->file);
  s = status_of (rows, "mism.dll");
  g_assert_cmpint (s->status, ==, ETL_SYMBOL_STATUS_MISMATCH);
  g_assert_true (g_str_has_suffix (s->file, "/sym/mism.pdb"));
  g_assert_nonnull (strstr (s->reason, "another build"));
  g_assert_nonnull (strstr (s->reason, s->guid));
  s = status_of (rows, "nodbg.dll");
  g_assert_cmpint (s->status, ==, ETL_SYMBOL_STATUS_NO_DBGID);
  g_assert_nonnull (strstr (s->reason, "DbgID_RSDS"));
  g_assert_null (s->guid);
  s = status_of (rows, "bad.dll");
  g_assert_cmpint (s->status, ==, ETL_SYMBOL_STATUS_UNREADABLE);
  g_assert_true (g_str_has_suffix (s->file, "/sym/bad.pdb"));
  g_assert_nonnull (strstr (s->reason, "bad.pdb"));
  s = status_of (rows, "comp.dll");
  g_assert_cmpint (s->status, ==, ETL_SYMBOL_STATUS_COMPRESSED);
  g_assert_true (g_str_has_suffix (s->file, "comp.pd_"));

  /* Every RVA of the image, through the resolver's page index and cache,
   * gives what the PDB reader's own bisection gives. */
  {
    g_autoptr (GError) error = NULL;
    g_autoptr (EtlPdb) pdb = etl_pdb_open (f.pdb_path, &error);
    gint app = module_named (stacks, "app.exe");
    guint n, checked = 0;
    const EtlPdbFunction *fn;

    g_assert_no_error (error);
    fn = etl_pdb_get_functions (pdb, &n);
    for (guint32 rva = 0; rva < fn[n - 1].rva + fn[n - 1].length + 0x2100; rva++)
      {
        guint32 want_off = 0, got_off = 0;
        const EtlPdbFunction *want = etl_pdb_lookup (pdb, rva, &want_off);
        const char *got = etl_symbol_resolver_lookup (r, app, rva, &got_off);

        if (want == NULL)
          g_assert_null (got);
        else
          {
            g_autofree char *full = g_strconcat ("app.exe!", want->name, NULL);

            g_assert_cmpstr (got, ==, full);
            g_assert_cmpuint (got_off, ==, want_off);
            checked++;
          }
      }
    g_assert_cmpuint (checked, >, 100);
  }

  /* Detached: module+offset again. */
  etl_symbol_resolver_detach (r);
  {
    g_autofree char *name = etl_stacks_symbolize (stacks, 1000, 0, APP_BASE + find_proc (f.procs, "fib")->rva, NULL);
    g_autofree char *want = g_strdup_printf ("app.exe+0x%x", find_proc (f.procs, "fib")->rva);

    g_assert_cmpstr (name, ==, want);
  }
  fixture_teardown (&f);
}

/* A wrong folder: app.exe is not found either, its reason lists the files
 * tried, and nothing is looked for twice. */
static void
test_wrong_folder (void)
{
  Fixture f;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GArray) rows = NULL;
  g_autofree char *wrong = NULL;
  g_autofree char *nowhere = NULL;
  guint fib;

  if (!fixture_setup (&f))
    {
      fixture_teardown (&f);
      return;
    }
  trace = open_one (f.trace_path);
  stacks = compute (trace);
  wrong = g_build_filename (f.dir, "other", NULL); /* holds app.pdb of the other build: a mismatch */
  nowhere = g_build_filename (f.dir, "nowhere", NULL);
  g_assert_cmpint (g_mkdir (nowhere, 0700), ==, 0);
  path = parse_path (nowhere);
  r = etl_symbol_resolver_new (stacks, path, TRUE);
  etl_symbol_resolver_attach (r);
  fib = find_proc (f.procs, "fib")->rva;
  {
    g_autofree char *name = etl_stacks_symbolize (stacks, 1000, 0, APP_BASE + fib + 3, NULL);
    g_autofree char *want = g_strdup_printf ("app.exe+0x%x", fib + 3);

    g_assert_cmpstr (name, ==, want);
  }
  rows = etl_symbol_resolver_dup_statuses (r);
  g_assert_cmpint (status_of (rows, "app.exe")->status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  g_assert_nonnull (strstr (status_of (rows, "app.exe")->reason, "app.pdb"));
  /* Only what a frame asked for was looked up. */
  g_assert_cmpint (status_of (rows, "lost.dll")->status, ==, ETL_SYMBOL_STATUS_PENDING);
  /* The PDB appearing later in the folder is not seen: not asked again. */
  {
    g_autofree char *late = g_build_filename (nowhere, "app.pdb", NULL);
    g_autofree char *name = NULL;

    g_assert_true (copy_file (f.pdb_path, late, G_MAXSIZE));
    name = etl_stacks_symbolize (stacks, 1000, 0, APP_BASE + fib + 4, NULL);
    g_assert_true (g_str_has_prefix (name, "app.exe+0x"));
  }
  g_clear_pointer (&r, etl_symbol_resolver_unref);
  g_clear_pointer (&path, etl_symbol_path_free);

  /* The other build's folder: a mismatch. */
  path = parse_path (wrong);
  r = etl_symbol_resolver_new (stacks, path, TRUE);
  etl_symbol_resolver_request_all (r);
  g_clear_pointer (&rows, g_array_unref);
  rows = etl_symbol_resolver_dup_statuses (r);
  g_assert_cmpint (status_of (rows, "app.exe")->status, ==, ETL_SYMBOL_STATUS_MISMATCH);
  g_assert_cmpint (status_of (rows, "lost.dll")->status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  fixture_teardown (&f);
}

static gpointer
resolve_thread (gpointer data)
{
  return GUINT_TO_POINTER (etl_symbol_resolver_resolve_pending (data, NULL, NULL));
}

/* In a worker: module+offset first, the queued PDBs opened by the worker,
 * then function names; a cancelled worker leaves the queue. */
static void
test_worker (void)
{
  Fixture f;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  GThread *thread;
  guint32 fib;
  gint app;

  if (!fixture_setup (&f))
    {
      fixture_teardown (&f);
      return;
    }
  trace = open_one (f.trace_path);
  stacks = compute (trace);
  path = parse_path (f.sym_dir);
  r = etl_symbol_resolver_new (stacks, path, FALSE);
  etl_symbol_resolver_attach (r);
  fib = find_proc (f.procs, "fib")->rva;
  app = module_named (stacks, "app.exe");
  {
    g_autofree char *name = etl_stacks_symbolize (stacks, 1000, 0, APP_BASE + fib, NULL);
    g_autofree char *want = g_strdup_printf ("app.exe+0x%x", fib);

    g_assert_cmpstr (name, ==, want);
  }
  g_assert_cmpint (etl_symbol_resolver_get_module_status (r, app), ==, ETL_SYMBOL_STATUS_PENDING);
  g_cancellable_cancel (cancel);
  g_assert_cmpuint (etl_symbol_resolver_resolve_pending (r, cancel, &error), ==, 0);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (etl_symbol_resolver_get_module_status (r, app), ==, ETL_SYMBOL_STATUS_PENDING);

  thread = g_thread_new ("resolve", resolve_thread, r);
  /* Meanwhile this thread keeps naming frames (module+offset or a name). */
  for (guint i = 0; i < 1000; i++)
    {
      g_autofree char *name = etl_stacks_symbolize (stacks, 1000, 0, APP_BASE + fib + 3, NULL);

      g_assert_true (g_str_has_prefix (name, "app.exe"));
    }
  g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (thread)), ==, 1);
  g_assert_cmpint (etl_symbol_resolver_get_module_status (r, app), ==, ETL_SYMBOL_STATUS_RESOLVED);
  {
    g_autofree char *name = etl_stacks_symbolize (stacks, 1000, 0, APP_BASE + fib + 3, NULL);

    g_assert_cmpstr (name, ==, "app.exe!fib+0x3");
  }
  /* The rest, all at once. */
  etl_symbol_resolver_request_all (r);
  g_assert_cmpuint (etl_symbol_resolver_resolve_pending (r, NULL, NULL), ==, 4);
  g_assert_cmpuint (etl_symbol_resolver_resolve_pending (r, NULL, NULL), ==, 0);
  check_frames (&f, stacks, trace);
  fixture_teardown (&f);
}

/* Holds a PDB's resolution (the unpacker of comp.dll's `.pd_`) until the
 * test lets it go. */
typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean entered;
  gboolean released;
} Gate;

static gboolean
gate_unpack (gpointer data, const char *cabinet, char **file, GError **error)
{
  Gate *g = data;

  g_mutex_lock (&g->lock);
  g->entered = TRUE;
  g_cond_broadcast (&g->cond);
  while (!g->released)
    g_cond_wait (&g->cond, &g->lock);
  g_mutex_unlock (&g->lock);
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "held by the test, then refused");
  return FALSE;
}

typedef struct
{
  gint queued;
  gint settled;
  gint destroyed;
} Counts;

static void
count_queued (gpointer resolver, gpointer data)
{
  g_atomic_int_inc (&((Counts *)data)->queued);
}

static void
count_settled (gpointer resolver, gpointer data)
{
  g_atomic_int_inc (&((Counts *)data)->settled);
}

static void
count_destroyed (gpointer data)
{
  g_atomic_int_inc (&((Counts *)data)->destroyed);
}

typedef struct
{
  EtlSymbolResolver *r;
  gint comp;
  gint done;
  EtlSymbolStatus status_at_return;
} Second;

static gpointer
second_thread (gpointer data)
{
  Second *s = data;
  guint n = etl_symbol_resolver_resolve_pending (s->r, NULL, NULL);

  s->status_at_return = etl_symbol_resolver_get_module_status (s->r, s->comp);
  g_atomic_int_set (&s->done, 1);
  return GUINT_TO_POINTER (n);
}

/* The window's use (issue 22): the queued callback wakes its worker once per
 * identity queued; a second resolve_pending() (the stacks dialog's) waits
 * for the identity the first is resolving, so its caller sees it settled;
 * etl_symbol_resolver_get_n_resolved() counts every thread's; the notify
 * data is freed with the resolver. */
static void
test_shared_queue (void)
{
  Fixture f;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  EtlSymbolResolver *r;
  Counts counts = { 0 };
  Gate gate;
  Second second = { 0 };
  GThread *first, *other;
  gint comp, app;
  guint32 fib;

  if (!fixture_setup (&f))
    {
      fixture_teardown (&f);
      return;
    }
  g_mutex_init (&gate.lock);
  g_cond_init (&gate.cond);
  gate.entered = gate.released = FALSE;
  trace = open_one (f.trace_path);
  stacks = compute (trace);
  path = parse_path (f.sym_dir);
  r = etl_symbol_resolver_new (stacks, path, FALSE);
  etl_symbol_resolver_set_notify_full (r, count_settled, count_queued, &counts, count_destroyed);
  etl_symbol_resolver_set_fetcher (r, NULL, gate_unpack, &gate, NULL);
  etl_symbol_resolver_attach (r);
  comp = module_named (stacks, "comp.dll");
  app = module_named (stacks, "app.exe");
  fib = find_proc (f.procs, "fib")->rva;

  /* Naming a frame of comp.dll queues it, once. */
  g_assert_null (etl_symbol_resolver_lookup (r, comp, 0x10, NULL));
  g_assert_null (etl_symbol_resolver_lookup (r, comp, 0x20, NULL));
  g_assert_cmpint (g_atomic_int_get (&counts.queued), ==, 1);
  g_assert_cmpint (g_atomic_int_get (&counts.settled), ==, 0);
  g_assert_cmpuint (etl_symbol_resolver_get_n_resolved (r), ==, 0);

  /* The first worker takes it and is held in the unpacker. */
  first = g_thread_new ("first", resolve_thread, r);
  g_mutex_lock (&gate.lock);
  while (!gate.entered)
    g_cond_wait (&gate.cond, &gate.lock);
  g_mutex_unlock (&gate.lock);
  /* The second finds the queue empty but one identity in flight: it waits. */
  second.r = r;
  second.comp = comp;
  other = g_thread_new ("second", second_thread, &second);
  g_usleep (200 * 1000);
  g_assert_cmpint (g_atomic_int_get (&second.done), ==, 0);
  g_mutex_lock (&gate.lock);
  gate.released = TRUE;
  g_cond_broadcast (&gate.cond);
  g_mutex_unlock (&gate.lock);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (first)), ==, 1);
  g_assert_cmpuint (GPOINTER_TO_UINT (g_thread_join (other)), ==, 0);
  g_assert_cmpint (second.status_at_return, ==, ETL_SYMBOL_STATUS_COMPRESSED);
  g_assert_cmpint (g_atomic_int_get (&counts.settled), ==, 1);
  g_assert_cmpuint (etl_symbol_resolver_get_n_resolved (r), ==, 0); /* failed, not resolved */

  /* app.exe: queued, resolved, counted. */
  g_assert_null (etl_symbol_resolver_lookup (r, app, fib + 3, NULL));
  g_assert_cmpint (g_atomic_int_get (&counts.queued), ==, 2);
  g_assert_cmpuint (etl_symbol_resolver_resolve_pending (r, NULL, NULL), ==, 1);
  g_assert_cmpuint (etl_symbol_resolver_get_n_resolved (r), ==, 1);
  g_assert_cmpstr (etl_symbol_resolver_lookup (r, app, fib + 3, NULL), ==, "app.exe!fib");

  /* request_all() queues the rest with one call of the callback. */
  etl_symbol_resolver_request_all (r);
  g_assert_cmpint (g_atomic_int_get (&counts.queued), ==, 3);
  g_assert_cmpuint (etl_symbol_resolver_resolve_pending (r, NULL, NULL), ==, 3);

  g_assert_cmpint (g_atomic_int_get (&counts.destroyed), ==, 0);
  etl_symbol_resolver_unref (r);
  g_assert_cmpint (g_atomic_int_get (&counts.destroyed), ==, 1);
  g_mutex_clear (&gate.lock);
  g_cond_clear (&gate.cond);
  fixture_teardown (&f);
}

/* net.4.5.2.x64.etl: its DbgID records, attached to their images (checked
 * against TraceEvent's baseline), and without any PDB the frames stay
 * module+offset and every image says why. */
static void
test_corpus_net (void)
{
  g_autofree char *file = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  g_autoptr (EtlSymbolResolver) r = NULL;
  g_autoptr (GArray) rows = NULL;
  g_autofree char *empty = NULL;
  guint counts[4] = { 0 }, attached = 0, rsds_attached = 0, compared = 0, n_rows_no_reason = 0;
  guint64 n = 0;

  if (file == NULL)
    return;
  trace = open_one (file);
  stacks = compute (trace);
  for (guint i = 0; i < etl_stacks_get_n_module_ids (stacks); i++)
    counts[etl_stacks_get_module_id (stacks, i)->kind]++;
  g_test_message ("net.4.5.2.x64.etl: %u DbgID_RSDS, %u DbgID_ILRSDS, %u DbgPPDB, %u DbgDeterm", counts[0],
                  counts[1], counts[2], counts[3]);
  g_assert_cmpuint (counts[ETL_MODULE_ID_RSDS], ==, NET_RSDS);
  g_assert_cmpuint (counts[ETL_MODULE_ID_ILRSDS], ==, NET_ILRSDS);
  for (guint m = 0; m < etl_stacks_get_n_modules (stacks); m++)
    {
      EtlStackModule mod;

      etl_stacks_get_module (stacks, m, &mod);
      if (mod.id == NULL)
        continue;
      attached++;
      rsds_attached += mod.id->kind == ETL_MODULE_ID_RSDS;
      g_assert_cmpuint (mod.id->image_base, ==, mod.base);
      /* TraceEvent's baseline (lines 17, 21, 25): ntdll.dll (WoW64) at
       * 0x77710000, GuidSig ec83d8df-5559-46e0-b…, Age 2, wntdll.pdb; the
       * kernel at 0xfffff80021489000, 72482100-1c1c-4a03-a…, 2,
       * ntkrnlmp.pdb; hal.dll at 0xfffff8002141d000, fb87ed86-21f6-42ba-8…,
       * hal.pdb. */
      if (mod.base == G_GUINT64_CONSTANT (0x77710000) && strcmp (mod.name, "ntdll.dll") == 0 && mod.pid == 4)
        {
          g_assert_cmphex (mod.id->guid.data1, ==, 0xec83d8df);
          g_assert_cmphex (mod.id->guid.data2, ==, 0x5559);
          g_assert_cmpuint (mod.id->age, ==, 2);
          g_assert_cmpstr (mod.id->pdb_name, ==, "wntdll.pdb");
          compared++;
        }
      else if (mod.base == G_GUINT64_CONSTANT (0xfffff80021489000))
        {
          g_assert_cmphex (mod.id->guid.data1, ==, 0x72482100);
          g_assert_cmphex (mod.id->guid.data2, ==, 0x1c1c);
          g_assert_cmpuint (mod.id->age, ==, 2);
          g_assert_cmpstr (mod.id->pdb_name, ==, "ntkrnlmp.pdb");
          compared++;
        }
      else if (mod.base == G_GUINT64_CONSTANT (0xfffff8002141d000))
        {
          g_assert_cmphex (mod.id->guid.data1, ==, 0xfb87ed86);
          g_assert_cmpstr (mod.id->pdb_name, ==, "hal.pdb");
          compared++;
        }
    }
  g_test_message ("%u of %u images have an identity, %u a DbgID_RSDS one", attached,
                  etl_stacks_get_n_modules (stacks), rsds_attached);
  g_assert_cmpuint (compared, >=, 3);
  /* Every DbgID_RSDS record went to one image, but the 32 right before an
   * Image/Unload record (which ends its image rather than adding one: the
   * image has its identity from its load); the 44 others have only an
   * ILRSDS one (IL assemblies). */
  g_assert_cmpuint (rsds_attached, ==, NET_RSDS - 32);
  g_assert_cmpuint (attached, ==, NET_ATTACHED);

  /* An empty folder: names as without a resolver, a reason for each. */
  empty = g_dir_make_tmp ("etlscope-nosym-XXXXXX", NULL);
  path = parse_path (empty);
  r = etl_symbol_resolver_new (stacks, path, TRUE);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace) && n < 2000; i++)
    {
      g_auto (GStrv) plain = NULL;
      g_auto (GStrv) named = NULL;

      if (!etl_stacks_has_stack (stacks, i))
        continue;
      plain = etl_stacks_dup_symbolized (stacks, i);
      etl_symbol_resolver_attach (r);
      named = etl_stacks_dup_symbolized (stacks, i);
      etl_symbol_resolver_detach (r);
      g_assert_cmpuint (g_strv_length (plain), ==, g_strv_length (named));
      for (guint k = 0; plain[k] != NULL; k++)
        g_assert_cmpstr (plain[k], ==, named[k]);
      n++;
    }
  g_assert_cmpuint (n, >, 100);
  etl_symbol_resolver_request_all (r);
  rows = etl_symbol_resolver_dup_statuses (r);
  g_assert_cmpuint (rows->len, >, 10);
  for (guint i = 0; i < rows->len; i++)
    {
      const EtlSymbolModuleStatus *s = &g_array_index (rows, EtlSymbolModuleStatus, i);

      g_assert_cmpint (s->status, !=, ETL_SYMBOL_STATUS_RESOLVED);
      g_assert_cmpint (s->status, !=, ETL_SYMBOL_STATUS_PENDING);
      if (s->reason == NULL)
        n_rows_no_reason++;
      if (s->status == ETL_SYMBOL_STATUS_NOT_FOUND)
        g_assert_nonnull (strstr (s->reason, empty));
    }
  g_assert_cmpuint (n_rows_no_reason, ==, 0);
  g_assert_cmpint (status_of (rows, "ntoskrnl.exe")->status, ==, ETL_SYMBOL_STATUS_NOT_FOUND);
  g_rmdir (empty);
}

/* etlscope-cli stacks --symbols: rows per function and the "symbols" array;
 * without it, no "symbols" member. */
static void
test_cli (void)
{
  Fixture f;
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *want_fib = NULL;
  JsonObject *root;
  JsonArray *symbols, *frames;
  gboolean seen_fib = FALSE;
  guint n_status = 0;

  if (!fixture_setup (&f))
    {
      fixture_teardown (&f);
      return;
    }
  g_assert_nonnull (cli);
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
      g_autoptr (GSubprocess) proc = NULL;
      g_autofree char *out = NULL;

      g_subprocess_launcher_unsetenv (launcher, "_NT_SYMBOL_PATH");
      proc = pass == 0 ? g_subprocess_launcher_spawn (launcher, &error, cli, "stacks", "--symbols", f.sym_dir,
                                                      f.trace_path, NULL)
                       : g_subprocess_launcher_spawn (launcher, &error, cli, "stacks", f.trace_path, NULL);
      g_assert_no_error (error);
      g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
      g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
      g_assert_no_error (error);
      root = json_node_get_object (json_parser_get_root (parser));
      frames = json_object_get_array_member (root, "frames");
      if (pass == 1)
        {
          g_assert_false (json_object_has_member (root, "symbols"));
          for (guint i = 0; i < json_array_get_length (frames); i++)
            g_assert_null (strchr (json_object_get_string_member (json_array_get_object_element (frames, i), "frame"),
                                   '!'));
          break;
        }
      g_assert_true (json_object_has_member (root, "symbols"));
      symbols = json_object_get_array_member (root, "symbols");
      g_assert_cmpuint (json_array_get_length (symbols), ==, 6);
      for (guint i = 0; i < json_array_get_length (symbols); i++)
        {
          JsonObject *o = json_array_get_object_element (symbols, i);
          const char *module = json_object_get_string_member (o, "module");
          const char *status = json_object_get_string_member (o, "status");

          g_assert_true (json_object_has_member (o, "pdb") && json_object_has_member (o, "guid")
                         && json_object_has_member (o, "age") && json_object_has_member (o, "reason")
                         && json_object_has_member (o, "file"));
          if (strcmp (module, "app.exe") == 0)
            g_assert_cmpstr (status, ==, "resolved");
          else if (strcmp (module, "lost.dll") == 0)
            g_assert_cmpstr (status, ==, "not-found");
          else if (strcmp (module, "mism.dll") == 0)
            g_assert_cmpstr (status, ==, "mismatch");
          else if (strcmp (module, "nodbg.dll") == 0)
            g_assert_cmpstr (status, ==, "no-dbgid");
          else if (strcmp (module, "bad.dll") == 0)
            g_assert_cmpstr (status, ==, "unreadable");
          else
            {
              g_assert_cmpstr (module, ==, "comp.dll");
              g_assert_cmpstr (status, ==, "compressed");
            }
          n_status++;
        }
      g_assert_cmpuint (n_status, ==, 6);
      /* The leaf of sample 1 is in fib: its row is per function. */
      for (guint i = 0; i < json_array_get_length (frames); i++)
        {
          JsonObject *o = json_array_get_object_element (frames, i);

          if (strcmp (json_object_get_string_member (o, "frame"), "app.exe!fib") == 0)
            {
              g_assert_cmpint (json_object_get_int_member (o, "exclusive"), ==, 1);
              g_assert_cmpint (json_object_get_int_member (o, "inclusive"), ==, 1);
              seen_fib = TRUE;
            }
        }
      g_assert_true (seen_fib);
    }
  /* dump --stacks --symbols: the records' "stack" arrays name the frames. */
  {
    g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
    g_autoptr (GSubprocess) proc = NULL;
    g_autofree char *out = NULL;
    g_autofree char *want = NULL;

    g_subprocess_launcher_unsetenv (launcher, "_NT_SYMBOL_PATH");
    proc = g_subprocess_launcher_spawn (launcher, &error, cli, "dump", "--stacks", "--symbols", f.sym_dir,
                                        f.trace_path, NULL);
    g_assert_no_error (error);
    g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, 0);
    want = g_strdup_printf ("\"stack\":[\"%s\",\"%s\",\"%s\",\"lost.dll+0x1234\"]",
                            (const char *)g_ptr_array_index (f.expected, 0),
                            (const char *)g_ptr_array_index (f.expected, 1),
                            (const char *)g_ptr_array_index (f.expected, 2));
    g_assert_nonnull (strstr (out, want));
  }
  fixture_teardown (&f);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/symbol-resolver/module-id-record", test_module_id_record);
  g_test_add_func ("/etl/symbol-resolver/module-ids", test_module_ids);
  g_test_add_func ("/etl/symbol-resolver/resolve", test_resolve);
  g_test_add_func ("/etl/symbol-resolver/wrong-folder", test_wrong_folder);
  g_test_add_func ("/etl/symbol-resolver/worker", test_worker);
  g_test_add_func ("/etl/symbol-resolver/shared-queue", test_shared_queue);
  g_test_add_func ("/etl/symbol-resolver/corpus/net", test_corpus_net);
  g_test_add_func ("/etl/symbol-resolver/cli", test_cli);
  return g_test_run ();
}
