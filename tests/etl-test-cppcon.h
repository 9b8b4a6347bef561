/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * A synthetic symbols trace (etl_synth_write() with symbol_modules) whose
 * samples fall in CppCon.exe, the image of ../shared/symbols/CppCon.pdb
 * (GUID {12DC0A4F-BD7D-4F2A-A9BE-263BACAEB467}, age 5), at the RVAs of
 * functions test-pdb.c checks against llvm-pdbutil, below ntdll.dll (no
 * DbgID record).  Ten samples, 1 ms apart from 1 ms (outermost first):
 *
 *   ×3  ntdll.dll, main, std::operator<<, __get_entropy
 *   ×2  ntdll.dll, main, std::operator<<
 *   ×1  ntdll.dll, main, _get_startup_commit_mode
 *   ×4  ntdll.dll, main, std::operator<<, main, __get_entropy   (recursion)
 */

#include <glib.h>

#include "etl-synth.h"
#include "etl-test-util.h"

#define CPPCON_BASE G_GUINT64_CONSTANT (0x0000000000400000)
#define CPPCON_NTDLL_BASE G_GUINT64_CONSTANT (0x00007FF800000000)
#define CPPCON_MAIN "CppCon.exe!main"
#define CPPCON_OPERATOR "CppCon.exe!std::operator<<<std::char_traits<char> >"
#define CPPCON_ENTROPY "CppCon.exe!__get_entropy"
#define CPPCON_COMMIT "CppCon.exe!_get_startup_commit_mode"

/* The folder that holds CppCon.pdb, or NULL (skipped, or failed in CI). */
static inline char *
etl_test_cppcon_symbols_dir (void)
{
  char *dir = g_build_filename (etl_test_corpus_dir (), "..", "symbols", NULL);
  g_autofree char *pdb = g_build_filename (dir, "CppCon.pdb", NULL);

  if (!g_file_test (pdb, G_FILE_TEST_EXISTS))
    {
      etl_test_corpus_missing (pdb);
      g_free (dir);
      return NULL;
    }
  return dir;
}

/* Writes the trace described above to @path. */
static inline void
etl_test_write_cppcon_trace (const char *path)
{
  /* RVAs: main 0x1000 (14 bytes), std::operator<< 0x1010 (541),
   * __get_entropy 0x18BC (77), _get_startup_commit_mode 0x1954 (3). */
  const guint64 b = CPPCON_BASE, n = CPPCON_NTDLL_BASE + 0x1234;
  const guint64 s1[] = { b + 0x18CC, b + 0x1030, b + 0x1004, n, 0 };
  const guint64 s2[] = { b + 0x1050, b + 0x1004, n, 0 };
  const guint64 s3[] = { b + 0x1955, b + 0x1004, n, 0 };
  const guint64 s4[] = { b + 0x18CC, b + 0x1008, b + 0x1030, b + 0x1004, n, 0 };
  const struct
  {
    const guint64 *stack;
    guint n_words;
    guint times;
  } samples[] = { { s1, G_N_ELEMENTS (s1), 3 },
                  { s2, G_N_ELEMENTS (s2), 2 },
                  { s3, G_N_ELEMENTS (s3), 1 },
                  { s4, G_N_ELEMENTS (s4), 4 } };
  const EtlGuid guid = { 0x12DC0A4F, 0xBD7D, 0x4F2A, { 0xA9, 0xBE, 0x26, 0x3B, 0xAC, 0xAE, 0xB4, 0x67 } };
  EtlSynthModule modules[2];
  EtlSynthParams params;
  g_autoptr (GArray) words = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    for (guint t = 0; t < samples[i].times; t++)
      g_array_append_vals (words, samples[i].stack, samples[i].n_words);
  memset (modules, 0, sizeof modules);
  modules[0] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\Windows\\System32\\ntdll.dll", CPPCON_NTDLL_BASE,
                                 0x200000, FALSE, { 0 }, 0, NULL };
  modules[1] = (EtlSynthModule){ "\\Device\\HarddiskVolume3\\CppCon\\CppCon.exe", CPPCON_BASE, 0x100000, TRUE, guid,
                                 5, "C:\\CppCon\\Release\\CppCon.pdb" };
  etl_synth_params_init (&params);
  params.n_cpus = 1;
  params.symbol_modules = modules;
  params.n_symbol_modules = G_N_ELEMENTS (modules);
  params.symbol_stacks = (const guint64 *) words->data;
  params.n_symbol_stacks = words->len;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
}
