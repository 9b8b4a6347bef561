/* SPDX-License-Identifier: GPL-3.0-or-later */

/* CPU segments (which thread ran on each processor, from CSwitch records)
 * of the synthetic schedule etl_synth_write() writes, against an
 * independent model of that schedule (the one tests/test-cpu-usage.c
 * documents): at every 50 µs of 100 ms on each of 4 processors the segment
 * names the modelled thread and its process, and idle is a gap. */

#include "config.h"

#include <glib/gstdio.h>

#include "etl-cpu-segments.h"
#include "etl-synth.h"
#include "etl-trace.h"

#define MS G_GINT64_CONSTANT (10000) /* 100-ns ticks in a millisecond */

/* Slot e of each 1-ms period on processor c is (slot + c) % 10: the thread
 * and how long it runs (100-ns) before the processor goes idle. */
static const guint32 model_tids[] = { 1004, 1008, 2004, 1004, 3004, 3008, 0, 2004, 4004, 3004 };
static const gint64 model_run[] = { 10000, 7000, 10000, 4000, 8000, 4000, 0, 6000, 9000, 10000 };

static guint32
model_thread_at (guint n_slots, guint cpu, gint64 t)
{
  guint64 slot = (guint64) t / 10000;
  guint e = (guint) ((slot + cpu) % 10);
  guint32 tid = model_tids[e];

  if (slot >= n_slots)
    return 0;
  /* delta.exe (4000) lives from 20 to 70 ms. */
  if (tid == 4004 && (slot < n_slots / 5 || slot >= (guint64) n_slots * 7 / 10))
    return 0;
  return t % 10000 < model_run[e] ? tid : 0;
}

static void
test_schedule (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-seg-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "schedule.etl", NULL);
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlCpuSegments) segments = NULL;
  const char *paths[] = { path, NULL };
  EtlSynthParams params;
  guint64 checked = 0, idle = 0;
  gint64 origin;

  g_assert_no_error (error);
  etl_synth_params_init (&params);
  params.n_cpus = 4;
  params.schedule = TRUE;
  params.schedule_ms = 100;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  origin = etl_trace_get_origin (trace);

  segments = etl_cpu_segments_new (trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_cpu_segments_get_n_cpus (segments), ==, 4);
  for (guint c = 0; c < 4; c++)
    {
      guint n;
      const EtlCpuSegment *seg = etl_cpu_segments_get (segments, c, &n);

      g_assert_cmpuint (n, >, 50);
      for (guint k = 1; k < n; k++)
        g_assert_cmpint (seg[k].start, >=, seg[k - 1].end);
      /* Sample at 250 ticks (25 µs) past each 500-tick step: never on an edge. */
      for (gint64 t = 250; t < 100 * MS; t += 500)
        {
          const EtlCpuSegment *at = etl_cpu_segments_lookup (segments, c, origin + t);
          guint32 want = model_thread_at (100, c, t);

          if (want == 0)
            {
              g_assert_null (at);
              idle++;
            }
          else
            {
              g_assert_nonnull (at);
              g_assert_cmpuint (at->tid, ==, want);
              g_assert_cmpuint (at->pid, ==, want / 1000 * 1000);
              g_assert_cmpint (at->start, <=, origin + t);
              g_assert_cmpint (at->end, >, origin + t);
            }
          checked++;
        }
    }
  g_assert_cmpuint (checked, ==, 4 * 2000);
  g_assert_cmpuint (idle, >, 0);
  /* A known instant: at 25.025 ms, CPU 1 runs slot (25 + 1) % 10 = 6 → idle,
   * CPU 3 runs slot 8 → delta.exe's thread 4004. */
  g_assert_null (etl_cpu_segments_lookup (segments, 1, origin + 25 * MS + 250));
  g_assert_cmpuint (etl_cpu_segments_lookup (segments, 3, origin + 25 * MS + 250)->tid, ==, 4004);

  {
    gint64 ov_start, ov_width;
    guint ov_n;

    g_assert_null (etl_cpu_segments_get_overview (segments, 0, &ov_start, &ov_width, &ov_n));
  }
  g_clear_pointer (&trace, etl_trace_unref);
  g_unlink (path);
  g_rmdir (dir);
}

/* The overview of a processor of many segments
 * (etl_cpu_segments_get_overview()) against a scan of its segments, bucket
 * by bucket; a schedule of 100 slots has none. */
static void
test_overview (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-seg-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "long.etl", NULL);
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlCpuSegments) segments = NULL;
  const char *paths[] = { path, NULL };
  EtlSynthParams params;
  const EtlCpuSegment *seg;
  const guint32 *ov;
  gint64 start = 0, width = 0;
  guint n = 0, nb = 0, k = 0, present = 0;

  g_assert_no_error (error);
  etl_synth_params_init (&params);
  params.n_cpus = 1;
  params.schedule = TRUE;
  params.schedule_ms = 80000; /* 80,000 slots: one processor, ~72,000 segments */
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  segments = etl_cpu_segments_new (trace, NULL, &error);
  g_assert_no_error (error);
  seg = etl_cpu_segments_get (segments, 0, &n);
  g_test_message ("%u segments", n);
  g_assert_cmpuint (n, >=, 65536);
  ov = etl_cpu_segments_get_overview (segments, 0, &start, &width, &nb);
  g_assert_nonnull (ov);
  g_assert_cmpuint (nb, ==, MAX (n / 8, 16384));
  g_assert_cmpint (start, ==, seg[0].start);
  g_assert_cmpint (width, ==, (seg[n - 1].end - seg[0].start + nb - 1) / nb);
  for (guint b = 0; b < nb; b++)
    {
      gint64 tb = start + (gint64) b * width;

      while (k < n && seg[k].end <= tb)
        k++;
      if (k < n && seg[k].start < tb + width)
        {
          g_assert_cmpuint (ov[b], ==, seg[k].pid);
          present++;
        }
      else
        g_assert_cmpuint (ov[b], ==, ETL_CPU_SEGMENTS_NONE);
    }
  /* Every bucket (~4.9 ms) holds a run: the schedule's idle stretches
   * are shorter. */
  g_assert_cmpuint (present, ==, nb);
  g_assert_null (etl_cpu_segments_get_overview (segments, 1, &start, &width, &nb));
  g_assert_cmpuint (nb, ==, 0);

  g_clear_pointer (&segments, etl_cpu_segments_unref);
  g_clear_pointer (&trace, etl_trace_unref);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/cpu-segments/schedule", test_schedule);
  g_test_add_func ("/etl/cpu-segments/overview", test_overview);
  return g_test_run ();
}
