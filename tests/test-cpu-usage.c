/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * test-cpu-usage: CPU usage (sampled from SampledProfile, precise from
 * CSwitch) per process and thread, in total and per bucket:
 * - the synthetic schedule (etl_synth_write() with schedule) read back:
 *   process table, decoded CSwitch/ReadyThread/SampledProfile fields;
 * - exact totals and bucket values against hand-computed numbers (4
 *   processors, 100 ms) and against an independent model of the documented
 *   schedule for other shapes (processors, length, interval, bucket width);
 * - the `cpu` command's JSON, parsed with json-glib, against the same;
 * - net.4.5.2.x64.etl: the samples per process equal the SampledProfile
 *   records counted here through the decoder's ThreadId and the thread table.
 */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "etl-cpu-usage.h"
#include "etl-synth.h"
#include "etl-cpu-usage-private.h"
#include "etl-test-raw.h"
#include "etl-test-util.h"
#include "etl-trace.h"
#include "etl-writer.h"

#define MS G_GINT64_CONSTANT (10000) /* 100-ns ticks in a millisecond */

/* ------------------------------------------------------------------------ */
/* Helpers                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct
{
  char *dir;
  char *path;
} Tmp;

static void
tmp_clear (Tmp *t)
{
  if (t->path != NULL)
    g_unlink (t->path);
  if (t->dir != NULL)
    g_rmdir (t->dir);
  g_free (t->path);
  g_free (t->dir);
}

/* Writes a schedule trace; returns its path in @tmp. */
static const char *
write_schedule (Tmp *tmp, guint n_cpus, guint schedule_ms, guint interval, EtlClockType clock)
{
  g_autoptr (GError) error = NULL;
  EtlSynthParams params;

  tmp->dir = g_dir_make_tmp ("etlscope-cpu-XXXXXX", &error);
  g_assert_no_error (error);
  tmp->path = g_build_filename (tmp->dir, "schedule.etl", NULL);
  etl_synth_params_init (&params);
  params.n_cpus = n_cpus;
  params.schedule = TRUE;
  params.schedule_ms = schedule_ms;
  params.sample_interval = interval;
  params.clock = clock;
  g_assert_true (etl_synth_write (&params, tmp->path, &error));
  g_assert_no_error (error);
  return tmp->path;
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

static EtlCpuUsage *
compute (EtlTrace *trace, EtlCpuUsageMode mode, EtlCpuUsageGrouping grouping, gint64 width)
{
  g_autoptr (GError) error = NULL;
  EtlCpuUsage *u = etl_cpu_usage_compute (trace, mode, grouping, width, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (u);
  return u;
}

/* The entry of @pid (and @tid, by thread), or NULL. */
static const EtlCpuUsageEntry *
find_entry (EtlCpuUsage *u, guint32 pid, guint32 tid)
{
  guint n;
  const EtlCpuUsageEntry *e = etl_cpu_usage_get_entries (u, &n);

  for (guint i = 0; i < n; i++)
    if (e[i].pid == pid && (tid == G_MAXUINT32 || e[i].tid == tid))
      return &e[i];
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* An independent model of the schedule etl_synth_write() documents          */
/* ------------------------------------------------------------------------ */

static const guint32 model_tids[] = { 1004, 1008, 2004, 1004, 3004, 3008, 0, 2004, 4004, 3004 };
static const gint64 model_run[] = { 10000, 7000, 10000, 4000, 8000, 4000, 0, 6000, 9000, 10000 };
static const guint32 all_tids[] = { 1004, 1008, 2004, 3004, 3008, 4004, 0 };
#define N_TIDS G_N_ELEMENTS (all_tids)

static guint32
model_pid (guint32 tid)
{
  return tid / 1000 * 1000;
}

static guint
tid_slot (guint32 tid)
{
  for (guint i = 0; i < N_TIDS; i++)
    if (all_tids[i] == tid)
      return i;
  g_assert_not_reached ();
  return 0;
}

typedef struct
{
  guint n_buckets;
  gint64 time[N_TIDS][64];     /* precise, 100-ns, per bucket */
  guint64 samples[N_TIDS][64]; /* sampled */
} Model;

static guint32
model_thread_at (guint n_slots, guint cpu, gint64 t)
{
  guint64 slot = (guint64)t / 10000;
  guint e = (guint)((slot + cpu) % 10);
  guint32 tid = model_tids[e];

  if (slot >= n_slots)
    return 0; /* the end: everything switched to idle */

  if (tid == 4004 && (slot < n_slots / 5 || slot >= (guint64)n_slots * 7 / 10))
    return 0;
  return t % 10000 < model_run[e] ? tid : 0;
}

static void
model_build (Model *m, guint n_cpus, guint n_slots, guint interval, gint64 width)
{
  gint64 end = (gint64)n_slots * 10000;

  memset (m, 0, sizeof *m);
  m->n_buckets = (guint)((end + width - 1) / width);
  g_assert_cmpuint (m->n_buckets, <=, 64);
  /* Precise: tick by tick would be slow; walk 100-ns steps of 500 (every run
   * length and the phase are multiples of 500, bucket widths too). */
  for (guint c = 0; c < n_cpus; c++)
    for (gint64 t = 0; t < end; t += 500)
      m->time[tid_slot (model_thread_at (n_slots, c, t))][t / width] += 500;
  for (guint c = 0; c < n_cpus; c++)
    for (gint64 t = 1500; t < end; t += interval)
      m->samples[tid_slot (model_thread_at (n_slots, c, t))][t / width]++;
}

static gint64
model_total_time (const Model *m, guint32 pid, guint32 tid)
{
  gint64 sum = 0;

  for (guint i = 0; i < N_TIDS; i++)
    if (tid != G_MAXUINT32 ? all_tids[i] == tid
                           : model_pid (all_tids[i]) == pid && all_tids[i] != 0)
      for (guint k = 0; k < m->n_buckets; k++)
        sum += m->time[i][k];
  return sum;
}

/* Compares @u with the model for every process (or thread) and bucket. */
static void
check_against_model (EtlCpuUsage *u, const Model *m, guint interval)
{
  gboolean sampled = etl_cpu_usage_get_mode (u) == ETL_CPU_USAGE_SAMPLED;
  gboolean by_thread = etl_cpu_usage_get_grouping (u) == ETL_CPU_USAGE_BY_THREAD;
  guint n;
  const EtlCpuUsageEntry *entries = etl_cpu_usage_get_entries (u, &n);
  guint n_expected = 0;

  g_assert_cmpuint (etl_cpu_usage_get_n_buckets (u), ==, m->n_buckets);
  for (guint i = 0; i < N_TIDS; i++)
    {
      guint32 tid = all_tids[i];
      guint32 pid = model_pid (tid);
      const EtlCpuUsageEntry *e;
      gint64 total = 0;
      guint64 total_samples = 0;

      if (!by_thread && tid != 0 && i > 0 && model_pid (all_tids[i - 1]) == pid)
        continue; /* the process was checked with its first thread */
      e = tid == 0 ? etl_cpu_usage_get_idle (u)
                   : find_entry (u, pid, by_thread ? tid : G_MAXUINT32);
      for (guint k = 0; k < m->n_buckets; k++)
        {
          gint64 want_time = 0;
          guint64 want_samples = 0;

          for (guint j = 0; j < N_TIDS; j++)
            if (by_thread || tid == 0 ? j == i
                                      : (model_pid (all_tids[j]) == pid && all_tids[j] != 0))
              {
                want_time += m->time[j][k];
                want_samples += m->samples[j][k];
              }
          total += sampled ? (gint64)want_samples * interval : want_time;
          total_samples += want_samples;
          if (e == NULL)
            {
              g_assert_cmpint (sampled ? (gint64)want_samples : want_time, ==, 0);
              continue;
            }
          if (sampled)
            {
              g_assert_cmpuint (etl_cpu_usage_get_bucket_samples (u, e, k), ==, want_samples);
              g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, e, k), ==,
                               (gint64)want_samples * interval);
            }
          else
            g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, e, k), ==, want_time);
        }
      if (e == NULL)
        continue;
      if (tid != 0)
        n_expected++;
      g_assert_cmpint (e->cpu_time, ==, total);
      g_assert_cmpuint (e->samples, ==, sampled ? total_samples : 0);
      if (!sampled)
        g_assert_cmpint (e->cpu_time, ==,
                         model_total_time (m, pid, by_thread || tid == 0 ? tid : G_MAXUINT32));
      g_assert_cmpfloat_with_epsilon (
          e->percent, 100.0 * (double)total / (double)etl_cpu_usage_get_capacity (u), 1e-9);
    }
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 1; i < n; i++)
    g_assert_cmpint (entries[i - 1].cpu_time, >=, entries[i].cpu_time);
}

/* ------------------------------------------------------------------------ */
/* The synthetic schedule read back                                          */
/* ------------------------------------------------------------------------ */

static void
test_synth_readback (void)
{
  Tmp tmp = { 0 };
  const char *path = write_schedule (&tmp, 4, 100, 5000, ETL_CLOCK_QPC);
  g_autoptr (EtlTrace) trace = open_one (path);
  EtlProcessTable *table = etl_trace_get_process_table (trace);
  guint n_processes, n_threads;
  const EtlProcess *procs = etl_process_table_get_processes (table, &n_processes);
  const EtlThread *threads = etl_process_table_get_threads (table, &n_threads);
  gint64 origin = etl_trace_get_origin (trace);
  guint64 n_cswitch = 0, n_ready = 0, n_samples = 0, n_interval = 0, n_idle_samples = 0;
  static const struct
  {
    guint32 pid;
    const char *image;
    gint64 start_ms, end_ms;
  } want[] = {
    { 0, "Idle", -1, -1 },         { 1000, "alpha.exe", 0, 100 }, { 2000, "beta.exe", 0, 100 },
    { 3000, "gamma.exe", 0, 100 }, { 4000, "delta.exe", 20, 70 },
  };

  g_assert_cmpuint (etl_trace_get_n_problems (trace), ==, 0);
  g_assert_cmpint (etl_trace_get_last_filetime (trace) - origin, ==, 100 * MS);
  g_assert_cmpuint (n_processes, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < G_N_ELEMENTS (want); i++)
    {
      const EtlProcess *p = etl_process_table_lookup (table, want[i].pid, origin + 50 * MS);

      g_assert_nonnull (p);
      g_assert_cmpuint (p->pid, ==, want[i].pid);
      g_assert_cmpstr (p->image_name, ==, want[i].image);
      if (want[i].start_ms >= 0)
        {
          g_assert_cmpint (p->start_time, ==, origin + want[i].start_ms * MS);
          g_assert_cmpint (p->end_time, ==, origin + want[i].end_ms * MS);
        }
      else
        g_assert_cmpint (p->start_time, ==, 0); /* DCStart: running when the trace began */
    }
  g_assert_cmpstr (procs[0].image_name, ==, "Idle");
  g_assert_cmpuint (n_threads, ==, 7);
  for (guint i = 0; i < N_TIDS; i++)
    {
      const EtlThread *t = etl_process_table_lookup_thread (table, all_tids[i], origin + 50 * MS);

      g_assert_nonnull (t);
      g_assert_cmpuint (t->pid, ==, model_pid (all_tids[i]));
    }
  g_assert_nonnull (threads);

  /* Every record decodes with its MOF layout; CSwitch/ReadyThread/samples follow the schedule. */
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord rec;
      g_autoptr (EtlDecoded) d = NULL;
      g_autofree char *name = NULL;

      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      d = etl_trace_decode_record (trace, &rec);
      g_assert_nonnull (d);
      g_assert_true (d->complete);
      name = etl_decode_dup_event_name (etl_trace_get_schema_registry (trace), &rec);
      if (strcmp (name, "Thread/CSwitch") == 0)
        {
          const EtlField *nt = etl_decoded_find (d, "NewThreadId");
          const EtlField *ot = etl_decoded_find (d, "OldThreadId");

          g_assert_nonnull (nt);
          g_assert_nonnull (ot);
          g_assert_cmpuint (nt->number, ==, model_thread_at (100, rec.cpu, rec.filetime - origin));
          g_assert_cmpuint (nt->number, !=, ot->number);
          n_cswitch++;
        }
      else if (strcmp (name, "Dispatcher/ReadyThread") == 0)
        {
          g_assert_cmpuint (etl_decoded_find (d, "TThreadId")->number, ==,
                            model_thread_at (100, rec.cpu, rec.filetime - origin));
          n_ready++;
        }
      else if (strcmp (name, "PerfInfo/Sample") == 0)
        {
          guint64 tid = etl_decoded_find (d, "ThreadId")->number;

          g_assert_cmpuint (tid, ==, model_thread_at (100, rec.cpu, rec.filetime - origin));
          n_samples++;
          n_idle_samples += tid == 0;
        }
      else if (strcmp (name, "PerfInfo/CollectionStart") == 0)
        {
          g_assert_cmpuint (etl_decoded_find (d, "NewInterval")->number, ==, 5000);
          g_assert_cmpuint (etl_decoded_find (d, "SampleSource")->number, ==, 0);
          n_interval++;
        }
      etl_record_clear (&rec);
    }
  /* 4 processors × 200 samples (0.15 ms + k × 0.5 ms below 100 ms). */
  g_assert_cmpuint (n_samples, ==, 800);
  g_assert_cmpuint (n_idle_samples, ==, 240);
  g_assert_cmpuint (n_interval, ==, 1);
  /* Per processor and 10 slots: 9 switch-ins (entry 8 then 9, both run) plus
   * switch-outs to idle after entries 1, 3, 4, 5, 7, 8; delta's absence
   * removes one switch-in per 10 slots outside its life, the final
   * switch to idle adds one where the last slot ran a thread. */
  g_assert_cmpuint (n_ready, >, 0);
  g_assert_cmpuint (n_cswitch, >, n_ready);
  {
    g_autoptr (EtlCpuUsage) precise
        = compute (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS, 10 * MS);

    g_assert_cmpuint (etl_cpu_usage_get_n_records (precise), ==, n_cswitch);
  }
  tmp_clear (&tmp);
}

/* The random mix stays as it was: --schedule off writes no CSwitch. */
static void
test_synth_default_unchanged (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cpu-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "mix.etl", NULL);
  EtlSynthParams params;

  etl_synth_params_init (&params);
  g_assert_false (params.schedule);
  g_assert_cmpuint (params.schedule_ms, ==, 100);
  g_assert_cmpuint (params.sample_interval, ==, 0);
  params.n_records = 5000;
  g_assert_true (etl_synth_write (&params, path, &error));
  {
    g_autoptr (EtlTrace) trace = open_one (path);
    g_autoptr (EtlCpuUsage) precise
        = compute (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS, 0);
    g_autoptr (EtlCpuUsage) sampled
        = compute (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_PROCESS, 0);

    g_assert_cmpuint (etl_trace_get_n_records (trace), ==, 5001);
    g_assert_cmpuint (etl_cpu_usage_get_n_records (precise), ==, 0);
    g_assert_cmpuint (etl_cpu_usage_get_n_records (sampled), >, 3000); /* 70% of the mix */
  }
  g_unlink (path);
  g_rmdir (dir);

  /* Out of range. */
  params.schedule = TRUE;
  params.sample_interval = 999;
  g_assert_false (etl_synth_write (&params, "/nonexistent/never.etl", &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* ------------------------------------------------------------------------ */
/* Exact numbers: 4 processors, 100 ms                                       */
/* ------------------------------------------------------------------------ */

static void
test_precise_by_process (void)
{
  Tmp tmp = { 0 };
  g_autoptr (EtlTrace) trace = open_one (write_schedule (&tmp, 4, 100, 0, ETL_CLOCK_QPC));
  g_autoptr (EtlCpuUsage) u
      = compute (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS, 10 * MS);
  guint n;
  const EtlCpuUsageEntry *e = etl_cpu_usage_get_entries (u, &n);
  const EtlCpuUsageEntry *idle = etl_cpu_usage_get_idle (u);
  const EtlCpuUsageEntry *delta;

  g_assert_cmpuint (etl_cpu_usage_get_n_cpus (u), ==, 4);
  g_assert_cmpint (etl_cpu_usage_get_capacity (u), ==, 400 * MS);
  g_assert_cmpuint (etl_cpu_usage_get_n_buckets (u), ==, 10);
  g_assert_cmpuint (n, ==, 4);
  /* Sorted by use: gamma 88 ms, alpha 84, beta 64, delta 18; idle 146 apart. */
  g_assert_cmpuint (e[0].pid, ==, 3000);
  g_assert_cmpstr (e[0].name, ==, "gamma.exe (3000)");
  g_assert_cmpint (e[0].cpu_time, ==, 88 * MS);
  g_assert_cmpfloat_with_epsilon (e[0].percent, 22.0, 1e-9);
  g_assert_cmpuint (e[1].pid, ==, 1000);
  g_assert_cmpint (e[1].cpu_time, ==, 84 * MS);
  g_assert_cmpuint (e[2].pid, ==, 2000);
  g_assert_cmpint (e[2].cpu_time, ==, 64 * MS);
  g_assert_cmpuint (e[3].pid, ==, 4000);
  g_assert_cmpint (e[3].cpu_time, ==, 18 * MS);
  g_assert_cmpfloat_with_epsilon (e[3].percent, 4.5, 1e-9);
  g_assert_cmpuint (e[3].samples, ==, 0);
  g_assert_cmpint (idle->cpu_time, ==, 146 * MS);
  g_assert_cmpstr (idle->name, ==, "Idle (0)");
  /* Every 10 ms bucket holds each pattern entry once per processor. */
  delta = &e[3];
  for (guint k = 0; k < 10; k++)
    {
      g_assert_cmpint (etl_cpu_usage_get_bucket_capacity (u, k), ==, 40 * MS);
      g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, &e[0], k), ==, 88000);
      g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, &e[1], k), ==, 84000);
      g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, delta, k), ==,
                       k >= 2 && k < 7 ? 36000 : 0);
      g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, idle, k), ==,
                       k >= 2 && k < 7 ? 128000 : 164000);
    }
  tmp_clear (&tmp);
}

/* A range of the schedule: [20 ms, 70 ms) is delta's whole run (buckets 2
 * to 6 of test_precise_by_process), so delta keeps its 18 ms; every other
 * process gets five of its 10 ms buckets; 100 % is 4 processors × 50 ms.
 * Sampled: the 200 samples of those 50 slots, none outside. */
static void
test_range (void)
{
  Tmp tmp = { 0 };
  g_autoptr (EtlTrace) trace = open_one (write_schedule (&tmp, 4, 100, 0, ETL_CLOCK_QPC));
  g_autoptr (EtlCpuUsage) whole
      = compute (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS, 10 * MS);
  g_autoptr (EtlCpuUsage) u = NULL;
  g_autoptr (EtlCpuUsage) sampled = NULL;
  g_autoptr (EtlCpuUsage) all = NULL;
  g_autoptr (GError) error = NULL;
  gint64 start = etl_cpu_usage_get_start (whole);
  const EtlCpuUsageEntry *e;
  guint n;

  u = etl_cpu_usage_compute_range (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS,
                                   start + 20 * MS, start + 70 * MS, 10 * MS, NULL, NULL, NULL,
                                   &error);
  g_assert_no_error (error);
  g_assert_cmpint (etl_cpu_usage_get_start (u), ==, start + 20 * MS);
  g_assert_cmpint (etl_cpu_usage_get_end (u), ==, start + 70 * MS);
  g_assert_cmpuint (etl_cpu_usage_get_n_buckets (u), ==, 5);
  g_assert_cmpint (etl_cpu_usage_get_capacity (u), ==, 200 * MS);
  e = etl_cpu_usage_get_entries (u, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (e[0].pid, ==, 3000);
  g_assert_cmpint (e[0].cpu_time, ==, 44 * MS);
  g_assert_cmpfloat_with_epsilon (e[0].percent, 22.0, 1e-9);
  g_assert_cmpuint (e[1].pid, ==, 1000);
  g_assert_cmpint (e[1].cpu_time, ==, 42 * MS);
  g_assert_cmpuint (e[2].pid, ==, 2000);
  g_assert_cmpint (e[2].cpu_time, ==, 32 * MS);
  g_assert_cmpuint (e[3].pid, ==, 4000);
  g_assert_cmpint (e[3].cpu_time, ==, 18 * MS);
  g_assert_cmpfloat_with_epsilon (e[3].percent, 9.0, 1e-9);
  for (guint k = 0; k < 5; k++)
    {
      g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, &e[0], k), ==, 88000);
      g_assert_cmpint (etl_cpu_usage_get_bucket_time (u, &e[3], k), ==, 36000);
    }
  g_assert_cmpint (etl_cpu_usage_get_idle (u)->cpu_time, ==, 64 * MS);

  sampled = etl_cpu_usage_compute_range (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_PROCESS,
                                         start + 20 * MS, start + 70 * MS, 10 * MS, NULL, NULL,
                                         NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (etl_cpu_usage_get_n_records (sampled), ==, 200);

  /* The whole range is etl_cpu_usage_compute(). */
  all = etl_cpu_usage_compute_range (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS,
                                     G_MININT64, G_MAXINT64, 10 * MS, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  e = etl_cpu_usage_get_entries (all, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpint (e[0].cpu_time, ==, 88 * MS);
  g_assert_cmpint (etl_cpu_usage_get_capacity (all), ==, etl_cpu_usage_get_capacity (whole));
  tmp_clear (&tmp);
}

static void
test_sampled_by_process (void)
{
  Tmp tmp = { 0 };
  g_autoptr (EtlTrace) trace = open_one (write_schedule (&tmp, 4, 100, 0, ETL_CLOCK_QPC));
  g_autoptr (EtlCpuUsage) u
      = compute (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_PROCESS, 10 * MS);
  g_autoptr (EtlCpuUsageSeries) s = NULL;
  guint n;
  const EtlCpuUsageEntry *e = etl_cpu_usage_get_entries (u, &n);
  const EtlCpuUsageEntry *idle = etl_cpu_usage_get_idle (u);

  /* One sample a processor a slot, 0.15 ms in: the slot's thread. */
  g_assert_cmpuint (etl_cpu_usage_get_n_records (u), ==, 400);
  g_assert_cmpuint (etl_cpu_usage_get_n_unattributed (u), ==, 0);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (e[0].pid, ==, 1000); /* alpha and gamma tie at 120: pid order */
  g_assert_cmpuint (e[0].samples, ==, 120);
  g_assert_cmpint (e[0].cpu_time, ==, 120 * MS);
  g_assert_cmpfloat_with_epsilon (e[0].percent, 30.0, 1e-9);
  g_assert_cmpuint (e[1].pid, ==, 3000);
  g_assert_cmpuint (e[1].samples, ==, 120);
  g_assert_cmpuint (e[2].pid, ==, 2000);
  g_assert_cmpuint (e[2].samples, ==, 80);
  g_assert_cmpuint (e[3].pid, ==, 4000);
  g_assert_cmpuint (e[3].samples, ==, 20);
  g_assert_cmpuint (idle->samples, ==, 60);
  for (guint k = 0; k < 10; k++)
    {
      g_assert_cmpuint (etl_cpu_usage_get_bucket_samples (u, &e[0], k), ==, 12);
      g_assert_cmpuint (etl_cpu_usage_get_bucket_samples (u, &e[3], k), ==,
                        k >= 2 && k < 7 ? 4 : 0);
      g_assert_cmpuint (etl_cpu_usage_get_bucket_samples (u, idle, k), ==, k >= 2 && k < 7 ? 4 : 8);
    }

  /* The stacked series: top 2, then Other (beta + delta). */
  s = etl_cpu_usage_dup_series (u, 2);
  g_assert_cmpuint (s->n_rows, ==, 3);
  g_assert_cmpuint (s->n_buckets, ==, 10);
  g_assert_cmpstr (s->names[0], ==, "alpha.exe (1000)");
  g_assert_cmpstr (s->names[1], ==, "gamma.exe (3000)");
  g_assert_cmpstr (s->names[2], ==, "Other");
  g_assert_null (s->entries[2]);
  for (guint k = 0; k < 10; k++)
    {
      g_assert_cmpfloat_with_epsilon (s->percent[k], 30.0, 1e-9);
      g_assert_cmpfloat_with_epsilon (s->percent[2 * 10 + k], k >= 2 && k < 7 ? 30.0 : 20.0, 1e-9);
    }
  g_clear_pointer (&s, etl_cpu_usage_series_free);
  s = etl_cpu_usage_dup_series (u, 10);
  g_assert_cmpuint (s->n_rows, ==, 4); /* no Other when every entry has its row */
  tmp_clear (&tmp);
}

static void
test_sampled_by_thread_interval (void)
{
  Tmp tmp = { 0 };
  g_autoptr (EtlTrace) trace = open_one (write_schedule (&tmp, 4, 100, 5000, ETL_CLOCK_QPC));
  g_autoptr (EtlCpuUsage) u
      = compute (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_THREAD, 10 * MS);
  static const struct
  {
    guint32 tid;
    guint64 samples;
  } want[]
      = { { 3004, 160 }, { 1004, 120 }, { 2004, 120 }, { 1008, 80 }, { 3008, 40 }, { 4004, 40 } };
  guint n;
  const EtlCpuUsageEntry *e = etl_cpu_usage_get_entries (u, &n);

  g_assert_cmpuint (n, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpuint (e[i].tid, ==, want[i].tid);
      g_assert_cmpuint (e[i].pid, ==, model_pid (want[i].tid));
      g_assert_cmpuint (e[i].samples, ==, want[i].samples);
      /* Each sample is worth the 0.5 ms of the SampledProfileInterval record. */
      g_assert_cmpint (e[i].cpu_time, ==, (gint64)want[i].samples * 5000);
      g_assert_nonnull (e[i].thread);
      g_assert_cmpuint (e[i].thread->tid, ==, want[i].tid);
    }
  g_assert_cmpstr (e[0].name, ==, "gamma.exe (3000) TID 3004");
  g_assert_cmpuint (etl_cpu_usage_get_idle (u)->samples, ==, 240);
  g_assert_cmpuint (etl_cpu_usage_get_idle (u)->tid, ==, 0);
  tmp_clear (&tmp);
}

/* Other shapes against the model: processors, length, interval, bucket width. */
static void
test_model_shapes (void)
{
  static const struct
  {
    guint n_cpus, ms, interval;
    gint64 width;
    EtlClockType clock;
  } shapes[] = {
    { 4, 100, 0, 10 * MS, ETL_CLOCK_QPC },
    { 3, 37, 3000, 7 * MS, ETL_CLOCK_QPC },
    { 16, 50, 5000, 3 * MS, ETL_CLOCK_SYSTEM_TIME },
    { 1, 9, 1000, 1 * MS + 5000, ETL_CLOCK_QPC },
    { 7, 61, 20000, 20 * MS, ETL_CLOCK_SYSTEM_TIME },
    { 5, 43, 2500, 4 * MS, ETL_CLOCK_CPU_CYCLE },
  };

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      Tmp tmp = { 0 };
      g_autoptr (EtlTrace) trace = open_one (write_schedule (&tmp, shapes[s].n_cpus, shapes[s].ms,
                                                             shapes[s].interval, shapes[s].clock));
      guint interval = shapes[s].interval ? shapes[s].interval : 10000;
      Model *m = g_new (Model, 1);

      g_test_message ("%u processors, %u ms, interval %u, buckets %" G_GINT64_FORMAT,
                      shapes[s].n_cpus, shapes[s].ms, interval, shapes[s].width);
      model_build (m, shapes[s].n_cpus, shapes[s].ms, interval, shapes[s].width);
      for (guint mode = 0; mode < 2; mode++)
        for (guint grouping = 0; grouping < 2; grouping++)
          {
            g_autoptr (EtlCpuUsage) u = compute (trace, mode, grouping, shapes[s].width);

            check_against_model (u, m, interval);
          }
      g_free (m);
      tmp_clear (&tmp);
    }
}

/* ------------------------------------------------------------------------ */
/* Worker contract: progress, cancellation, bucket cap                       */
/* ------------------------------------------------------------------------ */

static void
on_progress (double fraction, gpointer data)
{
  double *last = data;

  g_assert_cmpfloat (fraction, >=, *last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  *last = fraction;
}

static void
test_progress_cancel (void)
{
  Tmp tmp = { 0 };
  g_autoptr (EtlTrace) trace = open_one (write_schedule (&tmp, 8, 2000, 0, ETL_CLOCK_QPC));
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (EtlCpuUsage) u = NULL;
  double last = 0.0;

  u = etl_cpu_usage_compute (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS, 0, on_progress,
                             &last, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (last, ==, 1.0);
  /* Automatic buckets: 2000 ms / 100 = 20 ms. */
  g_assert_cmpint (etl_cpu_usage_get_bucket_width (u), ==, 20 * MS);
  g_assert_cmpuint (etl_cpu_usage_get_n_buckets (u), ==, 100);

  g_cancellable_cancel (cancellable);
  g_assert_null (etl_cpu_usage_compute (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_PROCESS, 0,
                                        NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  /* 2 s in 1-µs buckets: 2,000,000 > the cap. */
  g_assert_null (etl_cpu_usage_compute (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_PROCESS, 10,
                                        NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
  tmp_clear (&tmp);
}

/* ------------------------------------------------------------------------ */
/* etlscope-cli cpu                                                          */
/* ------------------------------------------------------------------------ */

static JsonNode *
run_cpu (int expect_status, const char *first, ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GSubprocess) proc = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *cli = g_getenv ("ETLSCOPE_CLI");
  va_list args;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer)cli);
  g_ptr_array_add (argv, (gpointer) "cpu");
  va_start (args, first);
  for (const char *a = first; a != NULL; a = va_arg (args, const char *))
    g_ptr_array_add (argv, (gpointer)a);
  va_end (args);
  g_ptr_array_add (argv, NULL);
  proc
      = etl_test_subprocess_newv ((const char *const *)argv->pdata,
                           G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (proc, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (proc));
  g_assert_cmpint (g_subprocess_get_exit_status (proc), ==, expect_status);
  if (expect_status != 0)
    {
      g_assert_cmpstr (out, ==, "");
      g_assert_true (strstr (err, "cpu") != NULL);
      return NULL;
    }
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

static void
test_cli (void)
{
  Tmp tmp = { 0 };
  const char *path = write_schedule (&tmp, 4, 100, 0, ETL_CLOCK_QPC);
  g_autoptr (JsonNode) sampled = run_cpu (0, "--bucket-ms", "10", path, NULL);
  g_autoptr (JsonNode) precise
      = run_cpu (0, "--precise", "--bucket-ms", "10", "--top", "2", path, NULL);
  g_autoptr (JsonNode) threads
      = run_cpu (0, "--precise", "--by", "thread", "--bucket-ms", "10", path, NULL);
  JsonObject *o = json_node_get_object (sampled);
  JsonArray *totals = json_object_get_array_member (o, "totals");
  JsonObject *t, *series, *row;
  JsonArray *rows;

  g_assert_cmpstr (json_object_get_string_member (o, "mode"), ==, "sampled");
  g_assert_cmpstr (json_object_get_string_member (o, "by"), ==, "process");
  g_assert_cmpint (json_object_get_int_member (o, "n_cpus"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (o, "n_samples"), ==, 400);
  g_assert_cmpint (json_object_get_int_member (o, "n_buckets"), ==, 10);
  g_assert_cmpfloat (json_object_get_double_member (o, "span_ms"), ==, 100.0);
  g_assert_cmpuint (json_array_get_length (totals), ==, 4);
  t = json_array_get_object_element (totals, 0);
  g_assert_cmpint (json_object_get_int_member (t, "pid"), ==, 1000);
  g_assert_cmpstr (json_object_get_string_member (t, "name"), ==, "alpha.exe (1000)");
  g_assert_cmpint (json_object_get_int_member (t, "samples"), ==, 120);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (t, "percent"), 30.0, 1e-9);
  t = json_array_get_object_element (totals, 3);
  g_assert_cmpint (json_object_get_int_member (t, "pid"), ==, 4000);
  g_assert_cmpint (json_object_get_int_member (t, "samples"), ==, 20);
  t = json_object_get_object_member (o, "idle");
  g_assert_cmpint (json_object_get_int_member (t, "samples"), ==, 60);
  series = json_object_get_object_member (o, "series");
  g_assert_cmpuint (
      json_array_get_length (json_object_get_array_member (series, "bucket_start_ms")), ==, 10);
  rows = json_object_get_array_member (series, "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 5); /* 4 processes + idle */
  row = json_array_get_object_element (rows, 3);
  g_assert_cmpstr (json_object_get_string_member (row, "name"), ==, "delta.exe (4000)");
  for (guint k = 0; k < 10; k++)
    {
      g_assert_cmpint (
          json_array_get_int_element (json_object_get_array_member (row, "samples"), k), ==,
          k >= 2 && k < 7 ? 4 : 0);
      g_assert_cmpfloat_with_epsilon (
          json_array_get_double_element (json_object_get_array_member (row, "percent"), k),
          k >= 2 && k < 7 ? 10.0 : 0.0, 1e-9);
    }

  o = json_node_get_object (precise);
  g_assert_cmpstr (json_object_get_string_member (o, "mode"), ==, "precise");
  totals = json_object_get_array_member (o, "totals");
  g_assert_cmpuint (json_array_get_length (totals), ==, 4);
  {
    static const gint64 pids[] = { 3000, 1000, 2000, 4000 };
    static const double ms[] = { 88.0, 84.0, 64.0, 18.0 };

    for (guint i = 0; i < 4; i++)
      {
        t = json_array_get_object_element (totals, i);
        g_assert_cmpint (json_object_get_int_member (t, "pid"), ==, pids[i]);
        g_assert_cmpfloat_with_epsilon (json_object_get_double_member (t, "cpu_ms"), ms[i], 1e-9);
        g_assert_false (json_object_has_member (t, "samples"));
      }
  }
  g_assert_cmpfloat_with_epsilon (
      json_object_get_double_member (json_object_get_object_member (o, "idle"), "cpu_ms"), 146.0,
      1e-9);
  rows = json_object_get_array_member (json_object_get_object_member (o, "series"), "rows");
  g_assert_cmpuint (json_array_get_length (rows), ==, 4); /* top 2, Other, idle */
  row = json_array_get_object_element (rows, 2);
  g_assert_cmpstr (json_object_get_string_member (row, "name"), ==, "Other");
  /* Other = beta 6.4 ms a bucket + delta 3.6 in buckets 2–6. */
  for (guint k = 0; k < 10; k++)
    g_assert_cmpfloat_with_epsilon (
        json_array_get_double_element (json_object_get_array_member (row, "cpu_ms"), k),
        k >= 2 && k < 7 ? 10.0 : 6.4, 1e-9);

  o = json_node_get_object (threads);
  g_assert_cmpstr (json_object_get_string_member (o, "by"), ==, "thread");
  totals = json_object_get_array_member (o, "totals");
  g_assert_cmpuint (json_array_get_length (totals), ==, 6);
  t = json_array_get_object_element (totals, 0);
  g_assert_cmpint (json_object_get_int_member (t, "tid"), ==, 3004);
  g_assert_cmpint (json_object_get_int_member (t, "pid"), ==, 3000);
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (t, "cpu_ms"), 72.0, 1e-9);

  /* Usage errors. */
  g_assert_null (run_cpu (2, "--by", "cpu", path, NULL));
  g_assert_null (run_cpu (2, NULL));
  g_assert_null (run_cpu (2, "--bucket-ms", "-3", path, NULL));
  tmp_clear (&tmp);
}

/* ------------------------------------------------------------------------ */
/* The corpus                                                                */
/* ------------------------------------------------------------------------ */

/* net.4.5.2.x64.etl: SampledProfile records and no CSwitch.  The samples
 * per process must equal a count made here through the decoder's ThreadId
 * field and the thread table, and the sample, idle and test-program counts
 * a count made from the raw records (etl-test-raw.h). */
static void
test_corpus_net (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlCpuUsage) u = NULL;
  g_autoptr (EtlCpuUsage) precise = NULL;
  g_autoptr (GHashTable) by_pid = NULL;
  EtlProcessTable *table;
  guint64 n_samples = 0, n_sum = 0;
  guint n;
  const EtlCpuUsageEntry *e;
  EtlTestRawCounts raw;

  if (path == NULL)
    return;
  trace = open_one (path);
  table = etl_trace_get_process_table (trace);
  by_pid = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (guint64 i = 0; i < etl_trace_get_n_records (trace); i++)
    {
      EtlRecord rec;
      g_autoptr (EtlDecoded) d = NULL;
      g_autofree char *name = NULL;
      const EtlField *f;
      const EtlThread *th;
      guint32 pid;

      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      name = etl_decode_dup_event_name (etl_trace_get_schema_registry (trace), &rec);
      if (name == NULL || strcmp (name, "PerfInfo/Sample") != 0)
        {
          etl_record_clear (&rec);
          continue;
        }
      d = etl_trace_decode_record (trace, &rec);
      f = etl_decoded_find (d, "ThreadId");
      g_assert_nonnull (f);
      th = f->number == 0
               ? NULL
               : etl_process_table_lookup_thread (table, (guint32)f->number, rec.filetime);
      pid = f->number == 0 ? 0 : th != NULL ? th->pid : G_MAXUINT32;
      g_hash_table_insert (
          by_pid, GUINT_TO_POINTER (pid),
          GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (by_pid, GUINT_TO_POINTER (pid)))
                            + 1));
      n_samples++;
      etl_record_clear (&rec);
    }
  /* The raw walk's count of SampledProfile records (HookId 0x0F2E,
   * etl-test-raw.h), made without the decoder's names. */
  etl_test_raw_count (trace, &raw);
  g_assert_cmpuint (raw.n_sampled_profile, >, 0);
  g_assert_cmpuint (n_samples, ==, raw.n_sampled_profile);

  u = compute (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_PROCESS, 0);
  g_assert_cmpuint (etl_cpu_usage_get_n_records (u), ==, n_samples);
  g_assert_cmpuint (
      etl_cpu_usage_get_n_unattributed (u), ==,
      GPOINTER_TO_SIZE (g_hash_table_lookup (by_pid, GUINT_TO_POINTER (G_MAXUINT32))));
  g_assert_cmpuint (etl_cpu_usage_get_n_cpus (u), ==, 8);
  e = etl_cpu_usage_get_entries (u, &n);
  {
    g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

    for (guint i = 0; i < n; i++)
      {
        guint64 sum = 0;

        if (g_hash_table_contains (seen, GUINT_TO_POINTER (e[i].pid)))
          continue; /* a reused pid: its lifetimes summed below */
        g_hash_table_add (seen, GUINT_TO_POINTER (e[i].pid));
        for (guint j = i; j < n; j++)
          if (e[j].pid == e[i].pid)
            sum += e[j].samples;
        g_assert_cmpuint (
            sum, ==, GPOINTER_TO_SIZE (g_hash_table_lookup (by_pid, GUINT_TO_POINTER (e[i].pid))));
        n_sum += sum;
      }
  }
  g_assert_cmpuint (etl_cpu_usage_get_idle (u)->samples, ==,
                    GPOINTER_TO_SIZE (g_hash_table_lookup (by_pid, GUINT_TO_POINTER (0))));
  n_sum += etl_cpu_usage_get_idle (u)->samples;
  g_assert_cmpuint (n_sum, ==, n_samples);
  /* The raw walk's figures (ThreadId 0 is idle; other threads to their
   * process through the Thread events' payload): the test program leads. */
  g_assert_cmpstr (e[0].name, ==, "Test.x64.exe (3676)");
  g_assert_cmpuint (raw.n_idle_samples, >, 0);
  g_assert_cmpuint (e[0].samples, ==, etl_test_raw_count_of (raw.samples_by_pid, GUINT_TO_POINTER (3676)));
  g_assert_cmpuint (etl_cpu_usage_get_idle (u)->samples, ==, raw.n_idle_samples);
  /* CollectionStart says NewInterval 10,000: 1 ms a sample. */
  g_assert_cmpint (e[0].cpu_time, ==, (gint64) e[0].samples * MS);
  etl_test_raw_counts_clear (&raw);
  g_assert_cmpfloat (e[0].percent, >, 0.0);
  g_assert_cmpfloat (e[0].percent + etl_cpu_usage_get_idle (u)->percent, <, 100.0);

  /* No CSwitch in this trace: precise usage is empty. */
  precise = compute (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_PROCESS, 0);
  g_assert_cmpuint (etl_cpu_usage_get_n_records (precise), ==, 0);
  etl_cpu_usage_get_entries (precise, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpint (etl_cpu_usage_get_idle (precise)->cpu_time, ==, 0);
}

/* ------------------------------------------------------------------------ */
/* Hostile records                                                           */
/* ------------------------------------------------------------------------ */

/* A SYSTEM64 (or PERFINFO64) record with @payload_len bytes of @payload. */
static gsize
hostile_record (guint8 *p, gboolean perfinfo, guint16 hook, guint32 tid, gint64 ts,
                const guint8 *payload, gsize payload_len)
{
  gsize header = perfinfo ? 16 : 32;

  memset (p, 0, header);
  p[0] = 2;
  p[2] = perfinfo ? ETL_HEADER_TYPE_PERFINFO64 : ETL_HEADER_TYPE_SYSTEM64;
  p[3] = 0xC0; /* TRACE_HEADER_FLAG | EVENT_TRACE_FLAG */
  p[4] = (guint8)(header + payload_len);
  p[6] = (guint8)hook;
  p[7] = (guint8)(hook >> 8);
  if (!perfinfo)
    {
      p[8] = (guint8)tid;
      p[9] = (guint8)(tid >> 8);
    }
  for (guint i = 0; i < 8; i++)
    p[(perfinfo ? 8 : 16) + i] = (guint8)(ts >> (8 * i)); /* TimeStamp */
  memcpy (p + header, payload, payload_len);
  return header + payload_len;
}

/* Short payloads are skipped, an interval beyond 1 s is ignored, a thread the
 * table does not know is "Unknown": no crash, the valid records counted. */
static void
test_hostile (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-cpu-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "hostile.etl", NULL);
  g_autoptr (EtlWriter) w = NULL;
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlCpuUsage) sampled = NULL;
  g_autoptr (EtlCpuUsage) precise = NULL;
  EtlWriterHeader h;
  guint8 rec[128], pl[32];
  const EtlCpuUsageEntry *e;
  guint n;

  etl_writer_header_init (&h);
  h.number_of_processors = 2;
  h.log_file_name = path;
  w = etl_writer_new (path, &h, &error);
  g_assert_no_error (error);
  memset (pl, 0, sizeof pl);
  /* SampledProfileInterval: NewInterval 0xFFFFFFFF (ignored), then a 6-byte one (short). */
  pl[4] = pl[5] = pl[6] = pl[7] = 0xFF;
  g_assert_true (etl_writer_add_record (
      w, 0, rec, hostile_record (rec, FALSE, 0x0F49, 0, 1000, pl, 12), 1000, &error));
  g_assert_true (etl_writer_add_record (
      w, 0, rec, hostile_record (rec, FALSE, 0x0F48, 0, 1001, pl, 6), 1001, &error));
  memset (pl, 0, sizeof pl);
  /* Samples: one of 11 bytes (no room for ThreadId), one for unknown thread 777. */
  g_assert_true (etl_writer_add_record (
      w, 0, rec, hostile_record (rec, TRUE, 0x0F2E, 0, 1002, pl, 11), 1002, &error));
  pl[8] = 0x09;
  pl[9] = 0x03; /* ThreadId 777 */
  g_assert_true (etl_writer_add_record (
      w, 0, rec, hostile_record (rec, TRUE, 0x0F2E, 0, 1003, pl, 16), 1003, &error));
  /* CSwitch: one of 3 bytes (skipped), then 777 on processor 1 for 10,000 ticks, then idle. */
  memset (pl, 0, sizeof pl);
  g_assert_true (etl_writer_add_record (
      w, 1, rec, hostile_record (rec, FALSE, 0x0524, 0, 1004, pl, 3), 1004, &error));
  pl[0] = 0x09;
  pl[1] = 0x03;
  g_assert_true (etl_writer_add_record (
      w, 1, rec, hostile_record (rec, FALSE, 0x0524, 777, 2000, pl, 24), 2000, &error));
  memset (pl, 0, sizeof pl);
  g_assert_true (etl_writer_add_record (
      w, 1, rec, hostile_record (rec, FALSE, 0x0524, 0, 12000, pl, 24), 12000, &error));
  g_assert_true (etl_writer_close (w, NULL, &error));
  g_assert_no_error (error);

  trace = open_one (path);
  sampled = compute (trace, ETL_CPU_USAGE_SAMPLED, ETL_CPU_USAGE_BY_PROCESS, 0);
  g_assert_cmpuint (etl_cpu_usage_get_n_records (sampled), ==, 1);
  g_assert_cmpuint (etl_cpu_usage_get_n_unattributed (sampled), ==, 1);
  e = etl_cpu_usage_get_entries (sampled, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (e[0].name, ==, "Unknown");
  g_assert_cmpuint (e[0].pid, ==, G_MAXUINT32);
  g_assert_cmpint (e[0].cpu_time, ==,
                   10000); /* the default 1 ms: both interval records were rejected */

  precise = compute (trace, ETL_CPU_USAGE_PRECISE, ETL_CPU_USAGE_BY_THREAD, 0);
  g_assert_cmpuint (etl_cpu_usage_get_n_records (precise), ==, 2);
  e = etl_cpu_usage_get_entries (precise, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (e[0].tid, ==, 777);
  g_assert_cmpstr (e[0].name, ==, "Unknown TID 777");
  g_assert_cmpint (e[0].cpu_time, ==, 10000);
  g_unlink (path);
  g_rmdir (dir);
}

/* Two usages are the same: entries, idle, counts and every bucket. */
static void
assert_usage_equal (EtlCpuUsage *a, EtlCpuUsage *b)
{
  guint na, nb;
  const EtlCpuUsageEntry *ea = etl_cpu_usage_get_entries (a, &na);
  const EtlCpuUsageEntry *eb = etl_cpu_usage_get_entries (b, &nb);
  guint n_buckets = etl_cpu_usage_get_n_buckets (a);

  g_assert_cmpuint (na, ==, nb);
  g_assert_cmpuint (n_buckets, ==, etl_cpu_usage_get_n_buckets (b));
  g_assert_cmpuint (etl_cpu_usage_get_n_records (a), ==, etl_cpu_usage_get_n_records (b));
  g_assert_cmpuint (etl_cpu_usage_get_n_unattributed (a), ==, etl_cpu_usage_get_n_unattributed (b));
  for (guint i = 0; i <= na; i++)
    {
      const EtlCpuUsageEntry *x = i < na ? &ea[i] : etl_cpu_usage_get_idle (a);
      const EtlCpuUsageEntry *y = i < na ? &eb[i] : etl_cpu_usage_get_idle (b);

      g_assert_cmpstr (x->name, ==, y->name);
      g_assert_cmpuint (x->pid, ==, y->pid);
      g_assert_cmpuint (x->tid, ==, y->tid);
      g_assert_true (x->process == y->process);
      g_assert_true (x->thread == y->thread);
      g_assert_cmpint (x->cpu_time, ==, y->cpu_time);
      g_assert_cmpuint (x->samples, ==, y->samples);
      g_assert_cmpfloat (x->percent, ==, y->percent);
      for (guint k = 0; k < n_buckets; k++)
        {
          g_assert_cmpint (etl_cpu_usage_get_bucket_time (a, x, k), ==, etl_cpu_usage_get_bucket_time (b, y, k));
          g_assert_cmpuint (etl_cpu_usage_get_bucket_samples (a, x, k), ==,
                            etl_cpu_usage_get_bucket_samples (b, y, k));
        }
    }
}

/* 2, 3 and 7 workers give what one gives, to the tick, in both modes, by
 * process and by thread, over the whole trace and a range. */
static void
check_workers_equal (EtlTrace *trace)
{
  gint64 first = etl_trace_get_first_filetime (trace), last = etl_trace_get_last_filetime (trace);
  static const guint workers[] = { 2, 3, 7 };
  guint64 used = 0;

  for (guint m = 0; m < 2; m++)
    for (guint g = 0; g < 2; g++)
      for (guint r = 0; r < 2; r++)
        {
          EtlCpuUsageMode mode = m == 0 ? ETL_CPU_USAGE_SAMPLED : ETL_CPU_USAGE_PRECISE;
          EtlCpuUsageGrouping grouping = g == 0 ? ETL_CPU_USAGE_BY_PROCESS : ETL_CPU_USAGE_BY_THREAD;
          gint64 begin = r == 0 ? G_MININT64 : first + (last - first) / 3;
          gint64 end = r == 0 ? G_MAXINT64 : last - (last - first) / 5;
          g_autoptr (GError) error = NULL;
          g_autoptr (EtlCpuUsage) one
              = etl_cpu_usage_compute_with_workers (trace, mode, grouping, begin, end, 0, 1, NULL, NULL, NULL, &error);

          g_assert_no_error (error);
          used += etl_cpu_usage_get_n_records (one);
          for (guint w = 0; w < G_N_ELEMENTS (workers); w++)
            {
              g_autoptr (EtlCpuUsage) many = etl_cpu_usage_compute_with_workers (
                  trace, mode, grouping, begin, end, 0, workers[w], NULL, NULL, NULL, &error);

              g_assert_no_error (error);
              assert_usage_equal (one, many);
            }
        }
  g_assert_cmpuint (used, >, 0);
}

static void
test_workers_schedule (void)
{
  Tmp tmp = { 0 };
  const char *path = write_schedule (&tmp, 4, 300, 5000, ETL_CLOCK_QPC);
  g_autoptr (EtlTrace) trace = open_one (path);

  check_workers_equal (trace);
  tmp_clear (&tmp);
}

static void
test_workers_corpus (void)
{
  g_autofree char *path = etl_test_corpus_path ("net.4.5.2.x64.etl");
  g_autoptr (EtlTrace) trace = NULL;

  if (path == NULL)
    return;
  trace = open_one (path);
  check_workers_equal (trace);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/etl/cpu-usage/synth/readback", test_synth_readback);
  g_test_add_func ("/etl/cpu-usage/synth/default-unchanged", test_synth_default_unchanged);
  g_test_add_func ("/etl/cpu-usage/precise/by-process", test_precise_by_process);
  g_test_add_func ("/etl/cpu-usage/precise/range", test_range);
  g_test_add_func ("/etl/cpu-usage/sampled/by-process", test_sampled_by_process);
  g_test_add_func ("/etl/cpu-usage/sampled/by-thread-interval", test_sampled_by_thread_interval);
  g_test_add_func ("/etl/cpu-usage/model-shapes", test_model_shapes);
  g_test_add_func ("/etl/cpu-usage/progress-cancel", test_progress_cancel);
  g_test_add_func ("/etl/cpu-usage/cli", test_cli);
  g_test_add_func ("/etl/cpu-usage/hostile", test_hostile);
  g_test_add_func ("/etl/cpu-usage/corpus/net", test_corpus_net);
  g_test_add_func ("/etl/cpu-usage/workers/schedule", test_workers_schedule);
  g_test_add_func ("/etl/cpu-usage/workers/corpus", test_workers_corpus);

  return g_test_run ();
}
