/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-resolve: naming 1,000,000 native frames through a PDB
 * (etl-symbol-resolver.c) — issue 22's target: resolving 1 M frames against
 * loaded modules ≤ 200 ms.
 *
 *   bench-resolve [--functions N]
 *
 * Writes once into $ETL_BENCH_DIR (or $TMPDIR/etlscope-bench/) a synthetic
 * PDB of N functions (default 50,000; tests/etl-test-pdb.h) as
 * resolve-sym/bench.pdb and a symbols trace (etl_synth_write():
 * symbol_modules) with four images in process 1000 whose DbgID_RSDS
 * records name that PDB.  Then, after the PDB is resolved (its open is
 * bench-pdb's figure), times 1 M frames three ways, each over two address
 * sets:
 *
 * - "sampled": 20,000 distinct addresses in the four images, drawn 1 M
 *   times with a skew (sampled stacks repeat their hot frames);
 * - "random": 1 M independent addresses (every one a cache miss).
 *
 * resolve = etl_stacks_find_module() + etl_symbol_resolver_lookup() (the
 * module and the function, no string); symbolize = etl_stacks_symbolize()
 * with the resolver attached (also formats `module!function+0xOFFSET`);
 * plain = etl_stacks_symbolize() without it (`module+0xOFFSET`), the
 * baseline.  Prints "BENCH <name> <value> ms" lines, medians of 5.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-symbols.h"
#include "bench-util.h"
#include "etl-pdb.h"
#include "etl-stacks.h"
#include "etl-symbol-resolver.h"
#include "etl-trace.h"

#define N_FRAMES 1000000
#define N_DISTINCT 20000
#define RUNS 5

static guint32
next (guint32 *x)
{
  *x = *x * 1664525u + 1013904223u;
  return *x >> 8;
}

typedef enum
{
  MODE_RESOLVE,
  MODE_SYMBOLIZE,
  MODE_PLAIN,
} Mode;

static double
run (EtlStacks *stacks, EtlSymbolResolver *r, const guint64 *frames, Mode mode, guint *named)
{
  double ms[RUNS];

  if (mode == MODE_PLAIN)
    etl_symbol_resolver_detach (r);
  else
    etl_symbol_resolver_attach (r);
  for (guint k = 0; k < RUNS; k++)
    {
      gint64 t0 = g_get_monotonic_time ();
      guint n = 0;

      for (guint i = 0; i < N_FRAMES; i++)
        {
          if (mode == MODE_RESOLVE)
            {
              gint m = etl_stacks_find_module (stacks, 1000, 0, frames[i]);
              EtlStackModule mod;
              guint32 off;

              if (m >= 0 && etl_stacks_get_module (stacks, (guint)m, &mod)
                  && etl_symbol_resolver_lookup (r, (guint)m, frames[i] - mod.base, &off) != NULL)
                n++;
            }
          else
            {
              char *name = etl_stacks_symbolize (stacks, 1000, 0, frames[i], NULL);

              n += strchr (name, '!') != NULL;
              g_free (name);
            }
        }
      ms[k] = (double)(g_get_monotonic_time () - t0) / 1000.0;
      *named = n;
    }
  qsort (ms, RUNS, sizeof *ms, bench_compare_double);
  return ms[RUNS / 2];
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GOptionContext) context = g_option_context_new ("");
  g_autofree char *dir = bench_dir ();
  g_autofree char *sym_dir = g_build_filename (dir, "resolve-sym", NULL);
  g_autofree char *pdb_path = NULL;
  g_autofree char *trace_path = NULL;
  g_autofree guint64 *sampled = g_new (guint64, N_FRAMES);
  g_autofree guint64 *random = g_new (guint64, N_FRAMES);
  guint64 distinct[N_DISTINCT];
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  g_autoptr (EtlSymbolPath) path = NULL;
  g_autoptr (EtlSymbolResolver) r = NULL;
  gint n_functions = 50000;
  guint32 code_end = 0, x = 2024;
  GOptionEntry entries[] = { { "functions", 0, 0, G_OPTION_ARG_INT, &n_functions,
                               "Functions of the synthetic PDB (default 50000)", "N" },
                             { NULL } };
  const char *set_names[] = { "sampled", "random" };
  const guint64 *sets[] = { sampled, random };
  double worst_resolve = 0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || n_functions < 1)
    {
      g_printerr ("bench-resolve: %s\n", error ? error->message : "--functions takes N >= 1");
      return 2;
    }
  g_mkdir_with_parents (sym_dir, 0700);
  pdb_path = bench_symbols_write_pdb (sym_dir, (guint)n_functions, &code_end, &error);
  trace_path = pdb_path != NULL ? bench_symbols_write_trace (dir, &error) : NULL;
  if (trace_path != NULL)
    {
      const char *paths[] = { trace_path, NULL };

      trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
    }
  if (trace != NULL)
    stacks = etl_stacks_compute (trace, NULL, NULL, NULL, &error);
  if (stacks != NULL)
    path = etl_symbol_path_parse (sym_dir, &error);
  if (path == NULL)
    {
      g_printerr ("bench-resolve: %s\n", error->message);
      return 1;
    }
  r = etl_symbol_resolver_new (stacks, path, TRUE);
  etl_symbol_resolver_request_all (r);
  for (guint m = 0; m < etl_stacks_get_n_modules (stacks); m++)
    if (etl_symbol_resolver_get_module_status (r, m) != ETL_SYMBOL_STATUS_RESOLVED)
      {
        g_printerr ("bench-resolve: module %u did not resolve\n", m);
        return 1;
      }

  for (guint i = 0; i < N_DISTINCT; i++)
    distinct[i] = BENCH_SYMBOLS_BASE + (next (&x) % BENCH_SYMBOLS_MODULES) * BENCH_SYMBOLS_STEP + 0x1000
                  + next (&x) % (code_end - 0x1000);
  for (guint i = 0; i < N_FRAMES; i++)
    {
      guint32 u = next (&x) % N_DISTINCT;

      sampled[i] = distinct[(guint64)u * u / N_DISTINCT]; /* skewed toward the first ones */
      random[i] = BENCH_SYMBOLS_BASE + (next (&x) % BENCH_SYMBOLS_MODULES) * BENCH_SYMBOLS_STEP + 0x1000
                  + next (&x) % (code_end - 0x1000);
    }

  printf ("bench-resolve: %d functions, %u images, %d frames, median of %d\n", n_functions, BENCH_SYMBOLS_MODULES, N_FRAMES,
          RUNS);
  for (guint s = 0; s < G_N_ELEMENTS (sets); s++)
    {
      guint named_resolve = 0, named_symbolize = 0, named_plain = 0;
      double resolve = run (stacks, r, sets[s], MODE_RESOLVE, &named_resolve);
      double symbolize = run (stacks, r, sets[s], MODE_SYMBOLIZE, &named_symbolize);
      double plain = run (stacks, r, sets[s], MODE_PLAIN, &named_plain);

      worst_resolve = MAX (worst_resolve, resolve);
      printf ("BENCH resolve_1m_%s_ms %.1f ms (%u named)\n", set_names[s], resolve, named_resolve);
      printf ("BENCH symbolize_1m_%s_ms %.1f ms (%u named)\n", set_names[s], symbolize, named_symbolize);
      printf ("BENCH plain_symbolize_1m_%s_ms %.1f ms\n", set_names[s], plain);
      g_assert (named_plain == 0);
    }
  printf ("target resolve <= 200 ms: %s\n", worst_resolve <= 200.0 ? "met" : "missed");
  return 0;
}
