/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-stack-walk: the walk over a trace's sampled stacks that the flame
 * graph (etl_stack_tree_new()) and the call-tree views
 * (etl_call_samples_new_cpu()) start from: every SampledProfile record with
 * a stack read, its frames named (etl_stacks_symbolize(), no PDB: module
 * names) outermost first and interned.
 *
 * The trace is synthetic (etl_synth_write() symbols mode, written to the
 * temporary folder each run): 8 images in process 1000 and 50,000 samples
 * of 24 frames each (1.2 M frames), drawn with a skew from 2,000 distinct
 * stacks whose return addresses are drawn with a skew from 4,000 distinct
 * ones (runs of 3 in one image).  Prints
 * "BENCH <name> <value> ms", wall-clock medians of 5.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "etl-call-samples.h"
#include "etl-stack-tree.h"
#include "etl-stacks.h"
#include "etl-trace.h"

#define N_MODULES 8
#define N_SAMPLES 50000
#define N_DEPTH 24
#define N_DISTINCT 4000
#define N_STACKS 2000
#define RUNS 5
#define BASE G_GUINT64_CONSTANT (0x00007ff800000000)
#define STEP G_GUINT64_CONSTANT (0x1000000)

static int
compare_double (const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;

  return x < y ? -1 : x > y;
}

static char *
write_trace (const char *dir, GError **error)
{
  char *path = g_build_filename (dir, "stack-walk.etl", NULL);
  EtlSynthModule modules[N_MODULES];
  EtlSynthParams params;
  char names[N_MODULES][64];
  guint64 distinct[N_DISTINCT];
  g_autofree guint64 *stacks = g_new (guint64, (gsize)N_SAMPLES * (N_DEPTH + 1));
  g_autofree guint64 *shapes = g_new (guint64, (gsize)N_STACKS * N_DEPTH);
  guint32 x = 2026;
  gsize w = 0;

  for (guint i = 0; i < N_MODULES; i++)
    {
      g_snprintf (names[i], sizeof names[i], "\\Device\\HarddiskVolume3\\Bench\\walk%u.dll", i);
      modules[i] = (EtlSynthModule){ names[i], BASE + i * STEP, STEP / 2, FALSE, { 0 }, 0, NULL };
    }
  /* Distinct addresses: runs of 1-4 in one image. */
  for (guint d = 0; d < N_DISTINCT; d++)
    {
      x = x * 1664525u + 1013904223u;
      distinct[d] = BASE + (d / 3 % N_MODULES) * STEP + 0x1000 + (x >> 12) % (STEP / 2 - 0x2000);
    }
  /* Distinct stacks of addresses drawn with a skew (low numbers up to 8
   * times as often). */
  for (guint k = 0; k < N_STACKS * N_DEPTH; k++)
    {
      x = x * 1664525u + 1013904223u;
      shapes[k] = distinct[((x >> 8) % N_DISTINCT) >> ((x >> 4) % 4)];
    }
  /* The samples draw the stacks with the same skew. */
  for (guint s = 0; s < N_SAMPLES; s++)
    {
      guint k;

      x = x * 1664525u + 1013904223u;
      k = ((x >> 8) % N_STACKS) >> ((x >> 4) % 4);
      memcpy (stacks + w, shapes + (gsize)k * N_DEPTH, N_DEPTH * sizeof *stacks);
      w += N_DEPTH;
      stacks[w++] = 0;
    }
  etl_synth_params_init (&params);
  params.n_cpus = 1;
  params.symbol_modules = modules;
  params.n_symbol_modules = N_MODULES;
  params.symbol_stacks = stacks;
  params.n_symbol_stacks = (guint)w;
  if (!etl_synth_write (&params, path, error))
    g_clear_pointer (&path, g_free);
  return path;
}

int
main (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-bench-walk-XXXXXX", &error);
  g_autofree char *path = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlStacks) stacks = NULL;
  double tree_ms[RUNS], samples_ms[RUNS];
  guint n_nodes = 0;
  guint64 n_samples = 0;

  if (dir == NULL || (path = write_trace (dir, &error)) == NULL)
    {
      fprintf (stderr, "bench-stack-walk: %s\n", error->message);
      return 1;
    }
  {
    const char *paths[] = { path, NULL };

    trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  }
  if (trace != NULL)
    stacks = etl_stacks_compute (trace, NULL, NULL, NULL, &error);
  if (stacks == NULL)
    {
      fprintf (stderr, "bench-stack-walk: %s\n", error->message);
      return 1;
    }
  for (guint k = 0; k < RUNS; k++)
    {
      gint64 t0 = g_get_monotonic_time ();
      EtlStackTree *tree = etl_stack_tree_new (stacks, G_MININT64, G_MAXINT64, NULL, NULL);
      EtlCallSamples *samples;

      tree_ms[k] = (double)(g_get_monotonic_time () - t0) / 1000.0;
      etl_stack_tree_get_nodes (tree, &n_nodes);
      etl_stack_tree_free (tree);
      t0 = g_get_monotonic_time ();
      samples = etl_call_samples_new_cpu (stacks, G_MININT64, G_MAXINT64, NULL, NULL);
      samples_ms[k] = (double)(g_get_monotonic_time () - t0) / 1000.0;
      n_samples = etl_call_samples_get_n_samples (samples);
      etl_call_samples_unref (samples);
    }
  qsort (tree_ms, RUNS, sizeof *tree_ms, compare_double);
  qsort (samples_ms, RUNS, sizeof *samples_ms, compare_double);
  printf ("bench-stack-walk: %d samples of %d frames; tree of %u nodes; %" G_GUINT64_FORMAT " call samples\n",
          N_SAMPLES, N_DEPTH, n_nodes, n_samples);
  printf ("BENCH stack_tree_new_ms %.1f ms\n", tree_ms[RUNS / 2]);
  printf ("BENCH call_samples_new_cpu_ms %.1f ms\n", samples_ms[RUNS / 2]);
  g_clear_pointer (&stacks, etl_stacks_unref);
  g_clear_pointer (&trace, etl_trace_unref);
  g_remove (path);
  g_rmdir (dir);
  return 0;
}
