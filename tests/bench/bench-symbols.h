/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What the benchmarks over native symbols share: a synthetic PDB of N
 * functions and a trace whose images name it (bench-resolve, bench-gui
 * --symbols).
 */
#pragma once

#include <glib.h>

#include "etl-synth.h"
#include "etl-test-pdb.h"

#define BENCH_SYMBOLS_MODULES 4
#define BENCH_SYMBOLS_BASE G_GUINT64_CONSTANT (0x00007FF800000000)
#define BENCH_SYMBOLS_STEP G_GUINT64_CONSTANT (0x0000000010000000)
#define BENCH_SYMBOLS_GUID "0badc0de-0000-4000-8000-0000000000a2"

/* The PDB SYM_DIR/bench.pdb: N functions of 16 to 415 bytes from RVA
 * 0x1000, in module streams of 500 (tests/etl-test-pdb.h); @code_end gets
 * the RVA after the last.  Returns: (transfer full): its path, or %NULL with
 * @error set. */
static inline char *
bench_symbols_write_pdb (const char *sym_dir, guint n_functions, guint32 *code_end, GError **error)
{
  char *path = g_build_filename (sym_dir, "bench.pdb", NULL);
  EtlTestPdbSection section = { 0x1000, 0, 0x60000020 };
  g_autofree EtlTestPdbProc *procs = g_new0 (EtlTestPdbProc, n_functions);
  GStringChunk *names = g_string_chunk_new (1 << 20);
  EtlTestPdbSpec spec = { 0 };
  g_autoptr (GBytes) bytes = NULL;
  guint32 offset = 0;
  gboolean ok;

  for (guint i = 0; i < n_functions; i++)
    {
      char buf[96];
      guint32 length = 16 + (i * 7919) % 400;

      g_snprintf (buf, sizeof buf, "Namespace%u::Class%u::Method%u", i / 5000, i / 50, i);
      procs[i].kind = 0x1110;
      procs[i].segment = 1;
      procs[i].offset = offset;
      procs[i].length = length;
      procs[i].name = g_string_chunk_insert (names, buf);
      offset += (length + 15) & ~15u;
    }
  *code_end = 0x1000 + offset;
  section.virtual_size = offset;
  spec.block_size = 4096;
  etl_guid_parse (BENCH_SYMBOLS_GUID, &spec.guid);
  spec.age = 1;
  spec.machine = 0x8664;
  spec.sections = &section;
  spec.n_sections = 1;
  spec.procs = procs;
  spec.n_procs = n_functions;
  spec.procs_per_module = 500;
  bytes = etl_test_pdb_build (&spec);
  g_string_chunk_free (names);
  ok = g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize)g_bytes_get_size (bytes), error);
  if (!ok)
    g_clear_pointer (&path, g_free);
  return path;
}

/* DIR/resolve-symbols-v1.etl: BENCH_SYMBOLS_MODULES images in process 1000,
 * BENCH_SYMBOLS_STEP apart from BENCH_SYMBOLS_BASE, whose DbgID_RSDS records
 * name bench.pdb, and one stack into the first two (etl_synth_write()).
 * Returns: (transfer full): its path, or %NULL with @error set. */
static inline char *
bench_symbols_write_trace (const char *dir, GError **error)
{
  char *path = g_build_filename (dir, "resolve-symbols-v1.etl", NULL);
  EtlSynthModule modules[BENCH_SYMBOLS_MODULES];
  EtlSynthParams params;
  guint64 stack[] = { BENCH_SYMBOLS_BASE + 0x1000, BENCH_SYMBOLS_BASE + BENCH_SYMBOLS_STEP + 0x1000, 0 };
  char names[BENCH_SYMBOLS_MODULES][64];

  for (guint i = 0; i < BENCH_SYMBOLS_MODULES; i++)
    {
      g_snprintf (names[i], sizeof names[i], "\\Device\\HarddiskVolume3\\Bench\\bench%u.dll", i);
      modules[i] = (EtlSynthModule){ names[i], BENCH_SYMBOLS_BASE + i * BENCH_SYMBOLS_STEP, BENCH_SYMBOLS_STEP / 2, TRUE, { 0 }, 1, "bench.pdb" };
      etl_guid_parse (BENCH_SYMBOLS_GUID, &modules[i].guid);
    }
  etl_synth_params_init (&params);
  params.n_cpus = 1;
  params.symbol_modules = modules;
  params.n_symbol_modules = BENCH_SYMBOLS_MODULES;
  params.symbol_stacks = stack;
  params.n_symbol_stacks = G_N_ELEMENTS (stack);
  if (!etl_synth_write (&params, path, error))
    g_clear_pointer (&path, g_free);
  return path;
}
