/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bench-scale: etlscope on a trace of the size that makes other viewers crawl.
 *
 *   bench-scale [--records N] [--cpus N] [--iterations K] [--threads 1,2,4,8,16]
 *
 * Generates (once; reused afterwards) a synthetic trace of N records on N
 * processors (default 16,000,000 records, 8 CPUs, 64 KiB buffers, seed 1:
 * about 1 GiB) in $ETL_BENCH_DIR, or in the temporary folder, then measures,
 * warm cache:
 *
 *   open    etl_trace_open() (read + index + merge) in a fresh child process,
 *           once per thread count of --threads (etl_trace_set_open_threads()),
 *           against `cat FILE > /dev/null`; the ratio (target ≤ 3), and the
 *           child's CPU time (user + system, all threads) for the open
 *   memory  the child's peak resident memory (VmHWM) minus the file size, per
 *           record (target ≤ 24 bytes); the mapped file's pages are resident too,
 *           hence the subtraction
 *   list    etl_trace_get_record() of row 9,999,999, and of the 1,000-row page
 *           from there (target ≤ 1 ms)
 *
 * Prints "BENCH <name> <value> <unit>" lines and a Markdown table.  See
 * tests/bench/README.md.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#ifdef G_OS_WIN32
#include <windows.h>
#include <psapi.h>
#else
#include <sys/resource.h>
#endif

#include "bench-util.h"
#include "etl-synth.h"
#include "etl-trace.h"

#define TARGET_RATIO       3.0
#define TARGET_BYTES       24.0
#define MAX_THREAD_COUNTS  16
#define TARGET_LIST_MS     1.0
#define LIST_ROW           G_GUINT64_CONSTANT (9999999)
#define PAGE_ROWS          1000

/* Peak resident set (VmHWM; the peak working set on Windows) of this
 * process, in bytes. */
static guint64
peak_rss (void)
{
#ifdef G_OS_WIN32
  PROCESS_MEMORY_COUNTERS pmc = { 0 };

  pmc.cb = sizeof pmc;
  if (!GetProcessMemoryInfo (GetCurrentProcess (), &pmc, sizeof pmc))
    return 0;
  return (guint64) pmc.PeakWorkingSetSize;
#else
  g_autofree char *status = NULL;
  const char *line;

  if (g_file_get_contents ("/proc/self/status", &status, NULL, NULL)
      && (line = strstr (status, "VmHWM:")) != NULL)
    return g_ascii_strtoull (line + 6, NULL, 10) * 1024;
  {
    struct rusage ru;

    getrusage (RUSAGE_SELF, &ru);
    return (guint64) ru.ru_maxrss * 1024; /* Linux: KiB */
  }
#endif
}

/* CPU time (user + system) of all threads of this process so far, in ms. */
static double
cpu_ms (void)
{
#ifdef G_OS_WIN32
  FILETIME creation, exit_time, kernel, user;
  ULARGE_INTEGER k, u;

  if (!GetProcessTimes (GetCurrentProcess (), &creation, &exit_time, &kernel, &user))
    return 0.0;
  k.LowPart = kernel.dwLowDateTime;
  k.HighPart = kernel.dwHighDateTime;
  u.LowPart = user.dwLowDateTime;
  u.HighPart = user.dwHighDateTime;
  return (double) (k.QuadPart + u.QuadPart) / 10000.0;
#else
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return (double) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0
         + (double) (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
#endif
}

/* The child: open once with @threads threads, print
 * "CHILD <open ms> <VmHWM bytes> <records> <file bytes> <open CPU ms>". */
static int
child_open (const char *path, gint threads)
{
  const char *paths[] = { path, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  gint64 t0, t1;
  double c0, c1;

  etl_trace_set_open_threads ((guint) MAX (threads, 0));
  c0 = cpu_ms ();
  t0 = g_get_monotonic_time ();
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  t1 = g_get_monotonic_time ();
  c1 = cpu_ms ();
  if (trace == NULL)
    {
      fprintf (stderr, "bench-scale: %s\n", error->message);
      return 1;
    }
  printf ("CHILD %.3f %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %.3f\n",
          (double) (t1 - t0) / 1000.0, peak_rss (), etl_trace_get_n_records (trace),
          etl_trace_get_file_info (trace, 0)->file_size, c1 - c0);
  return 0;
}

static double
time_cat (const char *path)
{
  const char *argv[] = { "/bin/sh", "-c", "exec cat \"$0\" > /dev/null", path, NULL };
  g_autoptr (GError) error = NULL;
  gint status = 0;
  gint64 t0 = g_get_monotonic_time ();

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, NULL))
    {
      fprintf (stderr, "bench-scale: cat failed: %s\n", error ? error->message : "exit status");
      exit (1);
    }
  return (double) (g_get_monotonic_time () - t0) / 1000.0;
}

static gboolean
run_child (const char *self, const char *path, guint threads, double *ms, guint64 *hwm, guint64 *records,
           guint64 *bytes, double *cpu)
{
  g_autofree char *threads_arg = g_strdup_printf ("--child-threads=%u", threads);
  const char *argv[] = { self, "--child", path, threads_arg, NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  gint status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error)
      || !g_spawn_check_wait_status (status, NULL) || out == NULL
      || sscanf (out, "CHILD %lf %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %lf",
                 ms, hwm, records, bytes, cpu) != 5)
    {
      fprintf (stderr, "bench-scale: child failed: %s\n", error ? error->message : (out ? out : ""));
      return FALSE;
    }
  return TRUE;
}

static const char *
verdict (gboolean ok)
{
  return ok ? "met" : "MISSED";
}

int
main (int argc, char **argv)
{
  gint64 n_records = 16000000;
  gint n_cpus = 8, iterations = 3, child_threads = 0;
  g_autofree char *child = NULL;
  g_autofree char *threads_list = NULL;
  guint thread_counts[MAX_THREAD_COUNTS], n_counts = 0, main_count = 0;
  double t_open[MAX_THREAD_COUNTS], t_ratio[MAX_THREAD_COUNTS], t_cpu[MAX_THREAD_COUNTS], t_bytes[MAX_THREAD_COUNTS];
  GOptionEntry entries[] = {
    { "records", 0, 0, G_OPTION_ARG_INT64, &n_records, "Records in the synthetic trace (default 16,000,000)", "N" },
    { "cpus", 0, 0, G_OPTION_ARG_INT, &n_cpus, "Processors (default 8)", "N" },
    { "iterations", 0, 0, G_OPTION_ARG_INT, &iterations, "Timed runs of each measurement (default 3)", "K" },
    { "threads", 0, 0, G_OPTION_ARG_STRING, &threads_list,
      "Open with each of these thread counts (default 1,2,4,8,16)", "N,N,..." },
    { "child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, &child, NULL, NULL },
    { "child-threads", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_INT, &child_threads, NULL, NULL },
    { NULL }
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("- open/memory/list benchmark on a synthetic trace");
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;
  g_autofree char *self = NULL;
  g_autofree double *open_ms = NULL;
  g_autofree double *cat_ms = NULL;
  g_autofree double *open_cpu = NULL;
  guint64 records = 0, file_size = 0;
  double open_med, cat_med, ratio, bytes_per_record, row_ms, page_ms, synth_ms = -1.0;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "bench-scale: %s\n", error->message);
      return 2;
    }
  if (child != NULL)
    return child_open (child, child_threads);
  if (iterations < 1)
    iterations = 1;
  {
    g_auto (GStrv) parts = g_strsplit (threads_list ? threads_list : "1,2,4,8,16", ",", -1);

    for (guint i = 0; parts[i] != NULL && n_counts < MAX_THREAD_COUNTS; i++)
      {
        guint64 v;

        if (!g_ascii_string_to_unsigned (g_strstrip (parts[i]), 10, 1, 64, &v, NULL))
          {
            fprintf (stderr, "bench-scale: --threads: '%s' is not a number from 1 to 64\n", parts[i]);
            return 2;
          }
        thread_counts[n_counts++] = (guint) v;
      }
    if (n_counts == 0)
      {
        fprintf (stderr, "bench-scale: --threads: empty list\n");
        return 2;
      }
  }

  self = g_file_read_link ("/proc/self/exe", NULL);
  if (self == NULL)
    self = g_strdup (argv[0]);
  path = bench_synth_trace ((guint) n_cpus, (guint64) n_records, &synth_ms, &error);
  if (path == NULL)
    {
      fprintf (stderr, "bench-scale: %s\n", error->message);
      return 1;
    }

  /* Warm the page cache, then alternate the two measurements, for each thread count. */
  time_cat (path);
  time_cat (path);
  open_ms = g_new (double, iterations);
  cat_ms = g_new (double, (gsize) iterations * n_counts);
  open_cpu = g_new (double, iterations);
  for (guint t = 0; t < n_counts; t++)
    {
      guint64 hwm_min = G_MAXUINT64;

      for (int i = 0; i < iterations; i++)
        {
          guint64 hwm;

          cat_ms[t * iterations + i] = time_cat (path);
          if (!run_child (self, path, thread_counts[t], &open_ms[i], &hwm, &records, &file_size, &open_cpu[i]))
            return 1;
          hwm_min = MIN (hwm_min, hwm);
        }
      qsort (open_ms, iterations, sizeof (double), bench_compare_double);
      qsort (open_cpu, iterations, sizeof (double), bench_compare_double);
      t_open[t] = open_ms[iterations / 2];
      t_cpu[t] = open_cpu[iterations / 2];
      t_bytes[t] = records ? ((double) hwm_min - (double) file_size) / (double) records : 0.0;
      /* The summary rows: all processors, else the largest count measured. */
      if (thread_counts[t] == g_get_num_processors ()
          || (thread_counts[main_count] != g_get_num_processors () && thread_counts[t] > thread_counts[main_count]))
        main_count = t;
    }
  qsort (cat_ms, (gsize) iterations * n_counts, sizeof (double), bench_compare_double);
  cat_med = cat_ms[iterations * n_counts / 2];
  for (guint t = 0; t < n_counts; t++)
    t_ratio[t] = t_open[t] / cat_med;
  open_med = t_open[main_count];
  ratio = t_ratio[main_count];
  bytes_per_record = t_bytes[main_count];

  /* List: one far row, then a page from it, on a freshly opened trace. */
  {
    const char *paths[] = { path, NULL };
    g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
    guint64 row = MIN (LIST_ROW, records ? records - 1 : 0);
    guint64 end = MIN (row + PAGE_ROWS, records);
    gint64 t0, t1, t2;
    EtlRecord r;

    if (trace == NULL)
      {
        fprintf (stderr, "bench-scale: %s\n", error->message);
        return 1;
      }
    t0 = g_get_monotonic_time ();
    if (!etl_trace_get_record (trace, row, &r, &error))
      {
        fprintf (stderr, "bench-scale: %s\n", error->message);
        return 1;
      }
    etl_record_clear (&r);
    t1 = g_get_monotonic_time ();
    for (guint64 i = row; i < end; i++)
      {
        if (!etl_trace_get_record (trace, i, &r, NULL))
          return 1;
        etl_record_clear (&r);
      }
    t2 = g_get_monotonic_time ();
    row_ms = (double) (t1 - t0) / 1000.0;
    page_ms = (double) (t2 - t1) / 1000.0;
  }

  printf ("file: %s (%" G_GUINT64_FORMAT " bytes = %.2f GiB, %" G_GUINT64_FORMAT " records, %d CPUs)\n",
          path, file_size, (double) file_size / (1024.0 * 1024 * 1024), records, n_cpus);
  printf ("| measurement | value | target | |\n|---|---|---|---|\n");
  if (synth_ms >= 0)
    printf ("| synth (write the file) | %.0f ms | | |\n", synth_ms);
  printf ("| cat FILE > /dev/null (median of %d) | %.1f ms | | |\n", iterations * n_counts, cat_med);
  for (guint t = 0; t < n_counts; t++)
    printf ("| open, %u thread%s: wall / CPU (user+sys) / open÷cat / peak bytes per record | %.1f ms / %.1f ms / %.2f "
            "/ %.2f | | |\n", thread_counts[t], thread_counts[t] == 1 ? "" : "s", t_open[t], t_cpu[t], t_ratio[t],
            t_bytes[t]);
  printf ("| open: read + index + merge, %u threads (median of %d) | %.1f ms | | |\n", thread_counts[main_count],
          iterations, open_med);
  printf ("| open / cat | %.2f | ≤ %.0f | %s |\n", ratio, TARGET_RATIO, verdict (ratio <= TARGET_RATIO));
  printf ("| open throughput | %.1f M records/s, %.0f MB/s | | |\n", (double) records / open_med / 1000.0,
          (double) file_size / 1e6 / (open_med / 1000.0));
  printf ("| peak RSS − file size, per record | %.2f bytes | ≤ %.0f | %s |\n", bytes_per_record, TARGET_BYTES,
          verdict (bytes_per_record <= TARGET_BYTES));
  printf ("| get_record row %" G_GUINT64_FORMAT " | %.3f ms | ≤ %.0f | %s |\n", LIST_ROW, row_ms, TARGET_LIST_MS,
          verdict (row_ms <= TARGET_LIST_MS));
  printf ("| get_record %d-row page | %.3f ms | ≤ %.0f | %s |\n", PAGE_ROWS, page_ms, TARGET_LIST_MS,
          verdict (page_ms <= TARGET_LIST_MS));

  if (synth_ms >= 0)
    printf ("BENCH synth_write_ms %.1f ms\n", synth_ms);
  printf ("BENCH scale_file_bytes %" G_GUINT64_FORMAT " bytes\n", file_size);
  printf ("BENCH scale_records %" G_GUINT64_FORMAT " records\n", records);
  printf ("BENCH scale_cat_ms %.1f ms\n", cat_med);
  printf ("BENCH scale_open_ms %.1f ms\n", open_med);
  printf ("BENCH scale_open_threads %u threads\n", thread_counts[main_count]);
  for (guint t = 0; t < n_counts; t++)
    {
      printf ("BENCH scale_open_ms_t%u %.1f ms\n", thread_counts[t], t_open[t]);
      printf ("BENCH scale_open_cpu_ms_t%u %.1f ms\n", thread_counts[t], t_cpu[t]);
      printf ("BENCH scale_open_cat_ratio_t%u %.2f ratio\n", thread_counts[t], t_ratio[t]);
      printf ("BENCH scale_memory_bytes_per_record_t%u %.2f bytes\n", thread_counts[t], t_bytes[t]);
    }
  printf ("BENCH scale_open_cat_ratio %.2f ratio\n", ratio);
  printf ("BENCH scale_open_records_per_s %.0f records/s\n", (double) records / (open_med / 1000.0));
  printf ("BENCH scale_memory_bytes_per_record %.2f bytes\n", bytes_per_record);
  printf ("BENCH scale_list_row_ms %.3f ms\n", row_ms);
  printf ("BENCH scale_list_page_ms %.3f ms\n", page_ms);
  return 0;
}
