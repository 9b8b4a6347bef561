/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-cpu-usage
 * @title: EtlCpuUsage
 * @short_description: CPU use per process or thread, in total and per time bucket
 *
 * An #EtlCpuUsage answers "which process used the processors, and when", as
 * WPA's CPU Usage (Sampled) and CPU Usage (Precise) tables do:
 *
 * - sampled: each PerfInfo SampledProfile record (HookId 0x0F2E) is one
 *   sample of the thread in its ThreadId field, worth the sampling interval:
 *   the NewInterval of the last PerfInfo SampledProfileInterval record
 *   (SetInterval 72 or CollectionStart 73, SampleSource 0 = the timer) before
 *   it, the first such record's for samples before any, 1 ms in a trace
 *   without one;
 * - precise: a Thread CSwitch record (HookId 0x0524) on a processor starts
 *   its NewThreadId, which runs until the next CSwitch on that processor
 *   (or the trace's last record); time before a processor's first CSwitch
 *   is unknown and not counted.
 *
 * The thread is attributed to its process through the trace's process table
 * (etl_process_table_lookup_thread() at the record's time).  Thread id 0 and
 * process id 0 are the idle threads: their time is kept apart
 * (etl_cpu_usage_get_idle()).  Percentages are of all processors
 * (NumberOfProcessors) over the trace's span, or over a bucket.
 *
 * The three fields used (SampledProfile ThreadId after the pointer-sized
 * InstructionPointer, CSwitch NewThreadId at offset 0, SampledProfileInterval
 * SampleSource and NewInterval at 0 and 4; layouts of the MOF classes
 * PerfInfo_SampledProfile, CSwitch and PerfInfo_SampledProfileInterval in
 * etl-mof-kernel.c) are read straight from the payload, bounds-checked,
 * rather than through etl_decode_record(), which formats every field as a
 * string: a trace can hold tens of millions of samples.
 *
 * Only the records that can matter are read: kernel headers whose provider
 * in the trace's index is PerfInfo (sampled) or Thread (precise) — a kernel
 * record's provider follows from its HookId — up to the last record at or
 * before the range's end.  The work is split over one thread per processor
 * (etl_parallel_ranges(); the calling thread is one of them, meant to be a
 * worker: a #GTask or #GThreadPool): sampled by contiguous ranges of
 * records, each with its own accumulators, samples seen before a range's
 * first SampledProfileInterval taking the interval in force where the range
 * starts; precise by processor, each worker walking the CSwitch records of
 * its processors in time order.  Accumulators are merged by process or
 * thread, an entry's fields those of its earliest record, so the result is
 * the serial pass's to the tick.  Progress is reported, and cancellation
 * checked, every 65,536 records (cancellation once more at the end).  The
 * result is read-only and may be shared between threads.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-cpu-usage.h"
#include "etl-cpu-usage-private.h"
#include "etl-names.h"
#include "etl-parallel.h"
#include "etl-process-resolver.h"

#define HOOK_SAMPLED_PROFILE 0x0F2E
#define HOOK_SET_INTERVAL 0x0F48
#define HOOK_COLLECTION_START 0x0F49
#define HOOK_CSWITCH 0x0524
#define NO_ID G_MAXUINT32
#define MAX_INTERVAL 10000000 /* 1 s: larger NewInterval values are ignored */
#define PROGRESS_STEP 65536

typedef struct
{
  guint64 key;
  EtlCpuUsageEntry entry;
  guint64 samples_pre; /* samples before the first interval record */
  /* The buckets this entry touched, [b_lo, b_lo + b_n): a process that
   * lived for a moment holds one or two buckets, not the whole span (a
   * trace can hold 100,000 processes, the graph asks for 400 buckets). */
  guint b_lo;
  guint b_n;
  gint64 *bucket_time;     /* b_n, 100-ns units */
  guint64 *bucket_samples; /* b_n (sampled) */
  guint64 *bucket_pre;     /* b_n, or NULL */
  guint64 first_row; /* the record that created it: its entry's fields are that record's */
} Acc;

struct _EtlCpuUsage
{
  gint ref_count;
  EtlCpuUsageMode mode;
  EtlCpuUsageGrouping grouping;
  EtlProcessTable *table;
  gint64 start, end, width;
  guint n_buckets;
  guint n_cpus;
  guint64 n_records;
  guint64 n_unattributed;
  GPtrArray *accs;           /* Acc *, sorted by use after compute */
  EtlCpuUsageEntry *entries; /* copies of the non-idle entries, sorted */
  guint n_entries;
  Acc *idle;
};

static void
acc_free (gpointer data)
{
  Acc *a = data;

  g_free (a->entry.name);
  g_free (a->bucket_time);
  g_free (a->bucket_samples);
  g_free (a->bucket_pre);
  g_free (a);
}

/* @a's bucket arrays widened to hold bucket @k (of @n_buckets), zero-filled:
 * doubling at the end, where time order adds buckets. */
static void
acc_reserve (Acc *a, guint k, guint n_buckets, gboolean sampled)
{
  guint lo, n;

  if (a->b_n > 0 && k >= a->b_lo && k < a->b_lo + a->b_n)
    return;
  if (a->b_n == 0)
    {
      lo = k;
      n = MIN (2u, n_buckets - k);
    }
  else if (k >= a->b_lo + a->b_n)
    {
      lo = a->b_lo;
      n = MAX (k - lo + 1, MIN (a->b_n * 2, n_buckets - lo));
    }
  else
    {
      lo = k;
      n = a->b_lo + a->b_n - k;
    }
  {
    guint shift = a->b_lo - lo; /* 0 unless widened downwards (or new) */
    gint64 *time = g_new0 (gint64, n);
    guint64 *samples = sampled || a->bucket_samples != NULL ? g_new0 (guint64, n) : NULL;
    guint64 *pre = a->bucket_pre != NULL ? g_new0 (guint64, n) : NULL;

    if (a->b_n > 0)
      {
        memcpy (time + shift, a->bucket_time, a->b_n * sizeof *time);
        if (samples != NULL && a->bucket_samples != NULL)
          memcpy (samples + shift, a->bucket_samples, a->b_n * sizeof *samples);
        if (pre != NULL)
          memcpy (pre + shift, a->bucket_pre, a->b_n * sizeof *pre);
      }
    g_free (a->bucket_time);
    g_free (a->bucket_samples);
    g_free (a->bucket_pre);
    a->bucket_time = time;
    a->bucket_samples = samples;
    a->bucket_pre = pre;
    a->b_lo = lo;
    a->b_n = n;
  }
}

/* @a's CPU time in bucket @k (0 outside the buckets it touched). */
static inline gint64
acc_time (const Acc *a, guint k)
{
  return k >= a->b_lo && k - a->b_lo < a->b_n ? a->bucket_time[k - a->b_lo] : 0;
}

static inline guint32
read_u32 (const guint8 *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static gboolean
is_32bit_header (guint8 header_type)
{
  return header_type == ETL_HEADER_TYPE_SYSTEM32 || header_type == ETL_HEADER_TYPE_COMPACT32
         || header_type == ETL_HEADER_TYPE_PERFINFO32;
}

static gboolean
is_kernel_header (guint8 header_type)
{
  return header_type == ETL_HEADER_TYPE_SYSTEM32 || header_type == ETL_HEADER_TYPE_SYSTEM64
         || header_type == ETL_HEADER_TYPE_COMPACT32 || header_type == ETL_HEADER_TYPE_COMPACT64
         || header_type == ETL_HEADER_TYPE_PERFINFO32 || header_type == ETL_HEADER_TYPE_PERFINFO64;
}

/* The state of one worker: its own accumulators, merged at the end. */
typedef struct
{
  EtlCpuUsage *usage;
  GHashTable *by_key;  /* guint64 * → Acc * */
  GPtrArray *accs;     /* Acc *, owned */
  Acc *idle;
  const EtlThread *threads;
  EtlProcessResolver *resolver;
  guint64 n_records;
  guint64 n_unattributed;
  guint64 row;         /* the record being visited */
  /* sampled: the interval in force, and the first one seen in the range */
  gint64 interval;
  gint64 first_interval;
  gboolean cancelled;
} Walk;

static Acc *
acc_new (EtlCpuUsage *u, GPtrArray *accs, guint64 key)
{
  Acc *a = g_new0 (Acc, 1);

  a->key = key;
  a->entry.pid = NO_ID;
  a->entry.tid = NO_ID;
  (void)u;
  if (accs != NULL)
    g_ptr_array_add (accs, a);
  return a;
}

/* The accumulator of thread @tid at @filetime (idle for tid 0 or pid 0). */
static Acc *
resolve (Walk *w, guint32 tid, gint64 filetime)
{
  EtlCpuUsage *u = w->usage;
  const EtlThread *thread = NULL;
  const EtlProcess *process = NULL;
  guint32 pid = NO_ID;
  guint64 key;
  Acc *a;

  if (tid != 0)
    {
      thread = etl_process_resolver_lookup_thread (w->resolver, tid, filetime);
      if (thread != NULL)
        pid = thread->pid;
    }
  if (tid == 0 || pid == 0)
    return w->idle;
  if (pid != NO_ID)
    process = etl_process_resolver_lookup (w->resolver, pid, filetime);
  if (thread == NULL)
    w->n_unattributed++;

  if (u->grouping == ETL_CPU_USAGE_BY_THREAD)
    key = thread != NULL ? (G_GUINT64_CONSTANT (3) << 40) | (guint64)(thread - w->threads)
                         : (G_GUINT64_CONSTANT (4) << 40) | tid;
  else
    key = process != NULL ? (G_GUINT64_CONSTANT (1) << 40) | process->index
                          : (G_GUINT64_CONSTANT (2) << 40) | pid;

  a = g_hash_table_lookup (w->by_key, &key);
  if (a != NULL)
    return a;

  a = acc_new (u, w->accs, key);
  a->first_row = w->row;
  a->entry.pid = pid;
  a->entry.process = process;
  if (u->grouping == ETL_CPU_USAGE_BY_THREAD)
    {
      g_autofree char *pname
          = pid != NO_ID ? etl_process_format_name (process, pid) : g_strdup ("Unknown");

      a->entry.tid = tid;
      a->entry.thread = thread;
      if (thread != NULL && thread->name != NULL && thread->name[0] != '\0')
        a->entry.name = g_strdup_printf ("%s TID %u %s", pname, tid, thread->name);
      else
        a->entry.name = g_strdup_printf ("%s TID %u", pname, tid);
    }
  else if (process != NULL || pid != NO_ID)
    a->entry.name = etl_process_format_name (process, pid);
  else
    a->entry.name = g_strdup ("Unknown");
  g_hash_table_insert (w->by_key, &a->key, a);
  return a;
}

static guint
bucket_of (EtlCpuUsage *u, gint64 filetime)
{
  gint64 k;

  if (filetime <= u->start)
    return 0;
  k = (filetime - u->start) / u->width;
  return k >= (gint64)u->n_buckets ? u->n_buckets - 1 : (guint)k;
}

/* Adds the running interval [from, to) to @a, split over the buckets. */
static void
add_interval (EtlCpuUsage *u, Acc *a, gint64 from, gint64 to)
{
  from = MAX (from, u->start);
  to = MIN (to, u->end);
  if (to <= from)
    return;
  a->entry.cpu_time += to - from;
  for (guint k = bucket_of (u, from); k < u->n_buckets; k++)
    {
      gint64 b0 = u->start + (gint64)k * u->width;
      gint64 b1 = b0 + u->width;

      if (b0 >= to)
        break;
      acc_reserve (a, k, u->n_buckets, FALSE);
      a->bucket_time[k - a->b_lo] += MIN (to, b1) - MAX (from, b0);
    }
}

typedef struct
{
  guint32 tid; /* NO_ID until the processor's first CSwitch */
  gint64 since;
  Acc *acc;
} CpuState;

#define MIN_ROWS_PER_WORKER 65536

typedef struct
{
  EtlCpuUsage *usage;
  EtlTrace *trace;
  guint n_files;
  guint n_trace_cpus;
  gboolean end_is_open;
  guint n_providers;
  gboolean *wanted;  /* per provider index (+1 for the overflow index) */
  guint64 n_rows;    /* records at or before the end */
  guint n_workers;
  Walk *walks;
  EtlProgressFunc progress;
  gpointer progress_data;
  GCancellable *cancellable;
} Job;

static void
walk_clear (Walk *w, gboolean free_accs)
{
  for (guint i = 0; i < w->accs->len; i++)
    acc_free (g_ptr_array_index (w->accs, i));
  g_ptr_array_unref (w->accs);
  acc_free (w->idle);
  g_hash_table_unref (w->by_key);
  etl_process_resolver_free (w->resolver);
  (void)free_accs;
}

/* Adds @src's use to @dst; @src's samples before any interval record take
 * @incoming when it is known. */
static void
acc_merge (EtlCpuUsage *u, Acc *dst, const Acc *src, gint64 incoming)
{
  dst->entry.cpu_time += src->entry.cpu_time;
  dst->entry.samples += src->entry.samples;
  if (src->b_n == 0)
    return;
  {
    gboolean sampled = src->bucket_samples != NULL;

    /* Widening to both ends of @src's buckets covers every one between. */
    acc_reserve (dst, src->b_lo, u->n_buckets, sampled);
    acc_reserve (dst, src->b_lo + src->b_n - 1, u->n_buckets, sampled);
  }
  for (guint j = 0; j < src->b_n; j++)
    dst->bucket_time[src->b_lo + j - dst->b_lo] += src->bucket_time[j];
  if (src->bucket_samples != NULL && dst->bucket_samples != NULL)
    for (guint j = 0; j < src->b_n; j++)
      dst->bucket_samples[src->b_lo + j - dst->b_lo] += src->bucket_samples[j];
  if (src->bucket_pre == NULL)
    return;
  if (incoming > 0)
    {
      dst->entry.cpu_time += (gint64)src->samples_pre * incoming;
      for (guint j = 0; j < src->b_n; j++)
        dst->bucket_time[src->b_lo + j - dst->b_lo] += (gint64)src->bucket_pre[j] * incoming;
      return;
    }
  if (dst->bucket_pre == NULL)
    dst->bucket_pre = g_new0 (guint64, dst->b_n);
  dst->samples_pre += src->samples_pre;
  for (guint j = 0; j < src->b_n; j++)
    dst->bucket_pre[src->b_lo + j - dst->b_lo] += src->bucket_pre[j];
}

/* Whether record @i is to be read: a kernel header of a wanted provider. */
static inline gboolean
wanted_row (Job *job, guint64 i)
{
  guint p = etl_trace_get_provider_index (job->trace, i);

  return job->wanted[MIN (p, job->n_providers)] && is_kernel_header (etl_trace_get_header_type (job->trace, i));
}

static gboolean
walk_check (Job *job, Walk *w, guint worker, guint64 done, guint64 total)
{
  if (g_cancellable_is_cancelled (job->cancellable))
    {
      w->cancelled = TRUE;
      return FALSE;
    }
  if (worker == 0 && job->progress != NULL)
    job->progress ((double)done / (double)MAX (total, 1), job->progress_data);
  return TRUE;
}

/* Sampled: SampledProfile and SampledProfileInterval records of [first, last). */
static void
sampled_range (guint worker, guint64 first, guint64 last, gpointer data)
{
  Job *job = data;
  Walk *w = &job->walks[worker];
  EtlCpuUsage *u = job->usage;

  for (guint64 i = first; i < last; i++)
    {
      EtlRecordBrief rec;
      guint8 header_type;

      if ((i - first) % PROGRESS_STEP == 0 && !walk_check (job, w, worker, i - first, last - first))
        return;
      if (!wanted_row (job, i))
        continue;
      if (!etl_trace_peek_record (job->trace, i, &rec))
        continue;
      header_type = rec.header_type;
      w->row = i;
      if (rec.hook_id == HOOK_SAMPLED_PROFILE
          && (rec.filetime < u->start || (rec.filetime == u->end && !job->end_is_open)))
        ;
      else if (rec.hook_id == HOOK_SAMPLED_PROFILE)
        {
          gsize ptr = is_32bit_header (header_type) ? 4 : 8;

          if (rec.user_data != NULL && rec.user_data_len >= ptr + 4)
            {
              Acc *a = resolve (w, read_u32 (rec.user_data + ptr), rec.filetime);
              guint k = bucket_of (u, rec.filetime);

              a->entry.samples++;
              acc_reserve (a, k, u->n_buckets, TRUE);
              a->bucket_samples[k - a->b_lo]++;
              if (w->interval > 0)
                {
                  a->entry.cpu_time += w->interval;
                  a->bucket_time[k - a->b_lo] += w->interval;
                }
              else
                {
                  if (a->bucket_pre == NULL)
                    a->bucket_pre = g_new0 (guint64, a->b_n);
                  a->samples_pre++;
                  a->bucket_pre[k - a->b_lo]++;
                }
              w->n_records++;
            }
        }
      else if (rec.hook_id == HOOK_SET_INTERVAL || rec.hook_id == HOOK_COLLECTION_START)
        {
          if (rec.user_data != NULL && rec.user_data_len >= 8 && read_u32 (rec.user_data) == 0)
            {
              guint32 v = read_u32 (rec.user_data + 4);

              if (v > 0 && v <= MAX_INTERVAL)
                {
                  w->interval = v;
                  if (w->first_interval < 0)
                    w->first_interval = v;
                }
            }
        }
      etl_record_brief_clear (&rec);
    }
}

/* Precise: the CSwitch records of the processors (file × CPU) whose number
 * modulo the workers is @worker, in record order, so that each processor's
 * switches are walked in time order by one worker. */
static void
precise_cpus (guint worker, guint64 first, guint64 last, gpointer data)
{
  Job *job = data;
  Walk *w = &job->walks[worker];
  EtlCpuUsage *u = job->usage;
  EtlTrace *trace = job->trace;
  gsize n_states = (gsize)job->n_files * job->n_trace_cpus;
  g_autofree CpuState *cpus = g_new (CpuState, n_states);

  (void)first;
  (void)last;
  for (gsize i = 0; i < n_states; i++)
    cpus[i].tid = NO_ID;
  for (guint64 i = 0; i < job->n_rows; i++)
    {
      EtlRecord rec;
      guint file, cpu;

      if (i % PROGRESS_STEP == 0 && !walk_check (job, w, worker, i, job->n_rows))
        return;
      if (!wanted_row (job, i))
        continue;
      file = etl_trace_get_file (trace, i);
      cpu = etl_trace_get_cpu (trace, i);
      if (((gsize)file * job->n_trace_cpus + cpu) % job->n_workers != worker)
        continue;
      if (!etl_trace_get_record (trace, i, &rec, NULL))
        continue;
      w->row = i;
      if (rec.hook_id == HOOK_CSWITCH && rec.user_data != NULL && rec.user_data_len >= 4 && rec.file < job->n_files
          && rec.cpu < job->n_trace_cpus)
        {
          CpuState *c = &cpus[(gsize)rec.file * job->n_trace_cpus + rec.cpu];

          if (c->tid != NO_ID)
            add_interval (u, c->acc, c->since, rec.filetime);
          c->tid = read_u32 (rec.user_data);
          c->since = rec.filetime;
          c->acc = resolve (w, c->tid, rec.filetime);
          w->n_records++;
        }
      etl_record_clear (&rec);
    }
  for (gsize i = 0; i < n_states; i++)
    if (cpus[i].tid != NO_ID)
      add_interval (u, cpus[i].acc, cpus[i].since, u->end);
}

static gint
compare_accs (gconstpointer pa, gconstpointer pb)
{
  const Acc *a = *(Acc *const *)pa, *b = *(Acc *const *)pb;

  if (a->entry.cpu_time != b->entry.cpu_time)
    return a->entry.cpu_time > b->entry.cpu_time ? -1 : 1;
  if (a->entry.samples != b->entry.samples)
    return a->entry.samples > b->entry.samples ? -1 : 1;
  if (a->entry.pid != b->entry.pid)
    return a->entry.pid < b->entry.pid ? -1 : 1;
  if (a->entry.tid != b->entry.tid)
    return a->entry.tid < b->entry.tid ? -1 : 1;
  return a->key < b->key ? -1 : a->key > b->key;
}

/**
 * etl_cpu_usage_compute:
 * @trace: an open trace
 * @mode: sampled (SampledProfile) or precise (CSwitch)
 * @grouping: per process or per thread
 * @bucket_width: width of a time bucket in 100-ns units; 0 or less chooses
 *   one giving at most 100 buckets over the trace's span, a whole number of
 *   milliseconds
 * @progress: (nullable) (scope call): called with the fraction of records
 *   visited, from the calling thread
 * @progress_data: closure for @progress
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Reads the trace's SampledProfile and SampledProfileInterval records
 * (sampled) or CSwitch records (precise) and adds each thread's CPU time to
 * its process (or thread) in total and per time bucket (see the section
 * overview).  Buckets start at the trace's origin (etl_trace_get_origin(),
 * or its first record when earlier) and end with its last record.  Runs in
 * the calling thread and one more thread per further processor; never needs
 * a main loop.  Records that cannot be read
 * are skipped (the reader reported them when the trace was opened).
 *
 * Errors: %G_IO_ERROR_CANCELLED when @cancellable was cancelled;
 * %G_IO_ERROR_INVALID_ARGUMENT when @bucket_width would give more than
 * %ETL_CPU_USAGE_MAX_BUCKETS buckets.
 *
 * Returns: (transfer full) (nullable): the usage, %NULL on error
 */
EtlCpuUsage *
etl_cpu_usage_compute (EtlTrace *trace, EtlCpuUsageMode mode, EtlCpuUsageGrouping grouping,
                       gint64 bucket_width, EtlProgressFunc progress, gpointer progress_data,
                       GCancellable *cancellable, GError **error)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return etl_cpu_usage_compute_range (trace, mode, grouping, G_MININT64, G_MAXINT64, bucket_width,
                                      progress, progress_data, cancellable, error);
}

/**
 * etl_cpu_usage_compute_range:
 * @trace: an open trace
 * @mode: sampled (SampledProfile) or precise (CSwitch)
 * @grouping: per process or per thread
 * @begin: FILETIME where the range starts; clamped to the trace's start
 *   (%G_MININT64 for the whole trace)
 * @end: FILETIME where the range ends (exclusive); clamped to the trace's
 *   last record (%G_MAXINT64 for the whole trace)
 * @bucket_width: width of a time bucket in 100-ns units; 0 or less chooses
 *   one giving at most 100 buckets over the range, a whole number of
 *   milliseconds
 * @progress: (nullable) (scope call): called with the fraction of records
 *   visited, from the calling thread
 * @progress_data: closure for @progress
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * As etl_cpu_usage_compute() over [@begin, @end) only: buckets start at
 * @begin, percentages are of all processors over the range, and the entries
 * are sorted by their use within it.  Records before @begin are still read
 * (the CSwitch before the range says who runs at its start, and the
 * SampledProfileInterval in force); the walk stops at the first record
 * after @end (the merged records are in time order).  Used by the CPU usage
 * graph for its visible range.
 *
 * Errors: as etl_cpu_usage_compute().
 *
 * Returns: (transfer full) (nullable): the usage, %NULL on error
 */
EtlCpuUsage *
etl_cpu_usage_compute_range (EtlTrace *trace, EtlCpuUsageMode mode, EtlCpuUsageGrouping grouping,
                             gint64 begin, gint64 end, gint64 bucket_width,
                             EtlProgressFunc progress, gpointer progress_data,
                             GCancellable *cancellable, GError **error)
{
  return etl_cpu_usage_compute_with_workers (trace, mode, grouping, begin, end, bucket_width, 0, progress,
                                             progress_data, cancellable, error);
}

/* etl_cpu_usage_compute_range() with @n_workers workers (0: one per
 * processor); the result does not depend on @n_workers
 * (etl-cpu-usage-private.h). */
EtlCpuUsage *
etl_cpu_usage_compute_with_workers (EtlTrace *trace, EtlCpuUsageMode mode, EtlCpuUsageGrouping grouping,
                                    gint64 begin, gint64 end, gint64 bucket_width, guint n_workers,
                                    EtlProgressFunc progress, gpointer progress_data,
                                    GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlCpuUsage) u = NULL;
  guint64 n_records;
  gint64 span, first_interval = -1;
  guint n_trace_cpus, n_files;
  Job job;
  gboolean cancelled;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (mode == ETL_CPU_USAGE_SAMPLED || mode == ETL_CPU_USAGE_PRECISE, NULL);
  g_return_val_if_fail (grouping == ETL_CPU_USAGE_BY_PROCESS || grouping == ETL_CPU_USAGE_BY_THREAD,
                        NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  u = g_new0 (EtlCpuUsage, 1);
  u->ref_count = 1;
  u->mode = mode;
  u->grouping = grouping;
  u->table = etl_process_table_ref (etl_trace_get_process_table (trace));
  u->accs = g_ptr_array_new_with_free_func (acc_free);
  u->start = MIN (etl_trace_get_origin (trace), etl_trace_get_first_filetime (trace));
  u->end = MAX (etl_trace_get_last_filetime (trace), u->start);
  if (begin > u->start)
    u->start = MIN (begin, u->end);
  if (end < u->end)
    u->end = MAX (end, u->start);
  span = u->end - u->start;

  n_files = etl_trace_get_n_files (trace);
  n_trace_cpus = MAX (etl_trace_get_n_cpus (trace), 1);
  u->n_cpus = n_trace_cpus;
  for (guint f = 0; f < n_files; f++)
    u->n_cpus
        = MAX (u->n_cpus, MIN (etl_trace_get_file_info (trace, f)->number_of_processors, 4096));

  if (bucket_width <= 0)
    {
      gint64 ms = (span + 100 * 10000 - 1) / (100 * 10000);

      bucket_width = MAX (ms, 1) * 10000;
    }
  if (span / bucket_width + 1 > ETL_CPU_USAGE_MAX_BUCKETS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "CPU usage: %" G_GINT64_FORMAT " ms buckets over %" G_GINT64_FORMAT
                   " ms would make more than %u buckets",
                   bucket_width / 10000, span / 10000, ETL_CPU_USAGE_MAX_BUCKETS);
      return NULL;
    }
  u->width = bucket_width;
  u->n_buckets = (guint)MAX ((span + bucket_width - 1) / bucket_width, 1);

  u->idle = acc_new (u, NULL, 0);
  u->idle->entry.pid = 0;
  u->idle->entry.tid = grouping == ETL_CPU_USAGE_BY_THREAD ? 0 : NO_ID;
  u->idle->entry.process = etl_process_table_lookup (u->table, 0, u->start);
  u->idle->entry.name = g_strdup ("Idle (0)");

  /* The records to read: kernel headers of the PerfInfo (sampled) or
   * Thread (precise) provider, up to the last one at or before the end.
   * A kernel record's provider follows from its HookId, so the index's
   * provider rules the others out without reading them. */
  memset (&job, 0, sizeof job);
  job.usage = u;
  job.trace = trace;
  job.n_files = n_files;
  job.n_trace_cpus = n_trace_cpus;
  job.end_is_open = end >= G_MAXINT64;
  job.n_providers = etl_trace_get_n_providers (trace);
  job.wanted = g_new0 (gboolean, job.n_providers + 1);
  job.wanted[job.n_providers] = TRUE; /* past 65535 providers: read to see */
  {
    static const guint16 sampled_hooks[] = { HOOK_SAMPLED_PROFILE, HOOK_SET_INTERVAL, HOOK_COLLECTION_START };
    static const guint16 precise_hooks[] = { HOOK_CSWITCH };
    const guint16 *hooks = mode == ETL_CPU_USAGE_SAMPLED ? sampled_hooks : precise_hooks;
    guint n_hooks = mode == ETL_CPU_USAGE_SAMPLED ? G_N_ELEMENTS (sampled_hooks) : G_N_ELEMENTS (precise_hooks);

    for (guint h = 0; h < n_hooks; h++)
      {
        EtlKernelEventInfo info;

        if (!etl_names_kernel_event (hooks[h], &info) || info.provider == NULL)
          {
            /* Cannot tell the provider: read every kernel record. */
            for (guint p = 0; p <= job.n_providers; p++)
              job.wanted[p] = TRUE;
            break;
          }
        for (guint p = 0; p < job.n_providers; p++)
          if (etl_guid_equal (etl_trace_get_provider (trace, p), info.provider))
            job.wanted[p] = TRUE;
      }
  }
  n_records = etl_trace_get_n_records (trace);
  job.n_rows = u->end < G_MAXINT64 ? etl_trace_lower_bound (trace, u->end + 1) : n_records;
  job.progress = progress;
  job.progress_data = progress_data;
  job.cancellable = cancellable;
  job.n_workers = n_workers > 0 ? MIN (n_workers, 16) : etl_parallel_n_workers (job.n_rows, MIN_ROWS_PER_WORKER);
  job.walks = g_new0 (Walk, job.n_workers);
  for (guint i = 0; i < job.n_workers; i++)
    {
      Walk *w = &job.walks[i];
      guint n_threads;

      w->usage = u;
      w->by_key = g_hash_table_new (g_int64_hash, g_int64_equal);
      w->accs = g_ptr_array_new ();
      w->idle = acc_new (u, NULL, 0);
      w->threads = etl_process_table_get_threads (u->table, &n_threads);
      w->resolver = etl_process_resolver_new (u->table);
      w->interval = -1;
      w->first_interval = -1;
    }

  if (mode == ETL_CPU_USAGE_SAMPLED)
    etl_parallel_ranges (job.n_workers, 0, job.n_rows, sampled_range, &job);
  else
    etl_parallel_ranges (job.n_workers, 0, job.n_workers, precise_cpus, &job);

  /* Cancelled while the records were read: a worker may have finished
   * its share before it saw it. */
  cancelled = g_cancellable_is_cancelled (cancellable);
  for (guint i = 0; i < job.n_workers; i++)
    cancelled |= job.walks[i].cancelled;
  if (cancelled)
    {
      for (guint i = 0; i < job.n_workers; i++)
        walk_clear (&job.walks[i], TRUE);
      g_free (job.walks);
      g_free (job.wanted);
      if (!g_cancellable_set_error_if_cancelled (cancellable, error))
        g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");
      return NULL;
    }

  /* Merge in range order.  Sampled: samples a range saw before its first
   * interval record take the interval in force where it starts (the last
   * one of the ranges before), or stay "before the first interval". */
  {
    g_autoptr (GHashTable) by_key = g_hash_table_new (g_int64_hash, g_int64_equal);
    gint64 incoming = -1;

    for (guint i = 0; i < job.n_workers; i++)
      {
        Walk *w = &job.walks[i];

        u->n_records += w->n_records;
        u->n_unattributed += w->n_unattributed;
        acc_merge (u, u->idle, w->idle, incoming);
        for (guint j = 0; j < w->accs->len; j++)
          {
            Acc *src = g_ptr_array_index (w->accs, j);
            Acc *dst = g_hash_table_lookup (by_key, &src->key);

            if (dst == NULL)
              {
                dst = acc_new (u, u->accs, src->key);
                dst->first_row = src->first_row;
                dst->entry = src->entry;
                dst->entry.name = g_strdup (src->entry.name);
                dst->entry.cpu_time = 0;
                dst->entry.samples = 0;
                g_hash_table_insert (by_key, &dst->key, dst);
              }
            else if (src->first_row < dst->first_row)
              {
                gint64 cpu_time = dst->entry.cpu_time;
                guint64 samples = dst->entry.samples;

                g_free (dst->entry.name);
                dst->first_row = src->first_row;
                dst->entry = src->entry;
                dst->entry.name = g_strdup (src->entry.name);
                dst->entry.cpu_time = cpu_time;
                dst->entry.samples = samples;
              }
            acc_merge (u, dst, src, incoming);
          }
        if (first_interval < 0)
          first_interval = w->first_interval;
        if (w->interval > 0)
          incoming = w->interval;
        walk_clear (w, FALSE);
      }
    g_free (job.walks);
    g_free (job.wanted);
  }

  /* Samples before the first interval record take its interval. */
  if (mode == ETL_CPU_USAGE_SAMPLED)
    {
      gint64 pre = first_interval > 0 ? first_interval : ETL_CPU_USAGE_DEFAULT_INTERVAL;

      for (guint i = 0; i <= u->accs->len; i++)
        {
          Acc *a = i < u->accs->len ? g_ptr_array_index (u->accs, i) : u->idle;

          if (a->bucket_pre == NULL)
            continue;
          a->entry.cpu_time += (gint64)a->samples_pre * pre;
          for (guint k = 0; k < a->b_n; k++)
            a->bucket_time[k] += (gint64)a->bucket_pre[k] * pre;
        }
    }

  g_ptr_array_sort (u->accs, compare_accs);
  {
    gint64 capacity = etl_cpu_usage_get_capacity (u);

    u->n_entries = u->accs->len;
    u->entries = g_new0 (EtlCpuUsageEntry, MAX (u->n_entries, 1));
    for (guint i = 0; i < u->accs->len; i++)
      {
        Acc *a = g_ptr_array_index (u->accs, i);

        a->entry.index = i;
        a->entry.percent
            = capacity > 0 ? 100.0 * (double)a->entry.cpu_time / (double)capacity : 0.0;
        u->entries[i] = a->entry;
      }
    u->idle->entry.index = G_MAXUINT;
    u->idle->entry.percent
        = capacity > 0 ? 100.0 * (double)u->idle->entry.cpu_time / (double)capacity : 0.0;
  }
  if (progress != NULL)
    progress (1.0, progress_data);
  return g_steal_pointer (&u);
}

/**
 * etl_cpu_usage_ref:
 * @usage: a usage
 *
 * Returns: (transfer full): @usage
 */
EtlCpuUsage *
etl_cpu_usage_ref (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, NULL);
  g_atomic_int_inc (&usage->ref_count);
  return usage;
}

/**
 * etl_cpu_usage_unref:
 * @usage: (transfer full): a usage
 *
 * Drops a reference; the last frees it.
 */
void
etl_cpu_usage_unref (EtlCpuUsage *usage)
{
  g_return_if_fail (usage != NULL);
  if (!g_atomic_int_dec_and_test (&usage->ref_count))
    return;
  g_clear_pointer (&usage->accs, g_ptr_array_unref);
  if (usage->idle != NULL)
    acc_free (usage->idle);
  g_free (usage->entries);
  g_clear_pointer (&usage->table, etl_process_table_unref);
  g_free (usage);
}

/**
 * etl_cpu_usage_get_mode:
 * @usage: a usage
 *
 * Returns: where its CPU time came from
 */
EtlCpuUsageMode
etl_cpu_usage_get_mode (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, ETL_CPU_USAGE_SAMPLED);
  return usage->mode;
}

/**
 * etl_cpu_usage_get_grouping:
 * @usage: a usage
 *
 * Returns: whether its entries are processes or threads
 */
EtlCpuUsageGrouping
etl_cpu_usage_get_grouping (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, ETL_CPU_USAGE_BY_PROCESS);
  return usage->grouping;
}

/**
 * etl_cpu_usage_get_entries:
 * @usage: a usage
 * @n_entries: (out): length of the returned array
 *
 * The processes (or threads) that used CPU time, idle excluded, sorted by
 * CPU time (then samples), most first.  Entries whose names the process
 * table lacks are named "Process(PID)"; samples of threads the table does
 * not know are one "Unknown" entry (pid G_MAXUINT32).
 *
 * Returns: (transfer none) (array length=n_entries): the entries
 */
const EtlCpuUsageEntry *
etl_cpu_usage_get_entries (EtlCpuUsage *usage, guint *n_entries)
{
  g_return_val_if_fail (usage != NULL && n_entries != NULL, NULL);
  *n_entries = usage->n_entries;
  return usage->entries;
}

/**
 * etl_cpu_usage_get_idle:
 * @usage: a usage
 *
 * The idle threads' use (thread id 0, process id 0), kept apart from the
 * entries; its @index is G_MAXUINT.
 *
 * Returns: (transfer none): the idle entry
 */
const EtlCpuUsageEntry *
etl_cpu_usage_get_idle (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, NULL);
  return &usage->idle->entry;
}

/**
 * etl_cpu_usage_get_n_cpus:
 * @usage: a usage
 *
 * Returns: the processors percentages are of: the largest NumberOfProcessors
 *   of the files, or the highest processor index seen plus one when larger
 */
guint
etl_cpu_usage_get_n_cpus (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 1);
  return usage->n_cpus;
}

/**
 * etl_cpu_usage_get_start:
 * @usage: a usage
 *
 * Returns: FILETIME of the first bucket's start
 */
gint64
etl_cpu_usage_get_start (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 0);
  return usage->start;
}

/**
 * etl_cpu_usage_get_end:
 * @usage: a usage
 *
 * Returns: FILETIME of the trace's last record: where the last bucket ends
 */
gint64
etl_cpu_usage_get_end (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 0);
  return usage->end;
}

/**
 * etl_cpu_usage_get_capacity:
 * @usage: a usage
 *
 * Returns: the processors' time over the trace's span, 100-ns units
 *   (span × etl_cpu_usage_get_n_cpus()): what 100% is
 */
gint64
etl_cpu_usage_get_capacity (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 0);
  return (usage->end - usage->start) * (gint64)usage->n_cpus;
}

/**
 * etl_cpu_usage_get_bucket_width:
 * @usage: a usage
 *
 * Returns: a bucket's width, 100-ns units
 */
gint64
etl_cpu_usage_get_bucket_width (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 1);
  return usage->width;
}

/**
 * etl_cpu_usage_get_n_buckets:
 * @usage: a usage
 *
 * Returns: the number of buckets, at least 1
 */
guint
etl_cpu_usage_get_n_buckets (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 0);
  return usage->n_buckets;
}

/**
 * etl_cpu_usage_get_bucket_capacity:
 * @usage: a usage
 * @bucket: a bucket index
 *
 * Returns: the processors' time in the bucket (the last one is cut at the
 *   trace's end), 100-ns units: what 100% of the bucket is
 */
gint64
etl_cpu_usage_get_bucket_capacity (EtlCpuUsage *usage, guint bucket)
{
  gint64 b0, b1;

  g_return_val_if_fail (usage != NULL && bucket < usage->n_buckets, 0);
  b0 = usage->start + (gint64)bucket * usage->width;
  b1 = MIN (b0 + usage->width, usage->end);
  return b1 > b0 ? (b1 - b0) * (gint64)usage->n_cpus : 0;
}

static const Acc *
acc_of (EtlCpuUsage *usage, const EtlCpuUsageEntry *entry)
{
  if (entry == &usage->idle->entry)
    return usage->idle;
  if (entry->index < usage->accs->len)
    return g_ptr_array_index (usage->accs, entry->index);
  return NULL;
}

/**
 * etl_cpu_usage_get_bucket_time:
 * @usage: a usage
 * @entry: an entry of @usage, or its idle entry
 * @bucket: a bucket index
 *
 * Returns: the CPU time @entry used in @bucket, 100-ns units
 */
gint64
etl_cpu_usage_get_bucket_time (EtlCpuUsage *usage, const EtlCpuUsageEntry *entry, guint bucket)
{
  const Acc *a;

  g_return_val_if_fail (usage != NULL && entry != NULL && bucket < usage->n_buckets, 0);
  a = acc_of (usage, entry);
  return a != NULL ? acc_time (a, bucket) : 0;
}

/**
 * etl_cpu_usage_get_bucket_samples:
 * @usage: a sampled usage
 * @entry: an entry of @usage, or its idle entry
 * @bucket: a bucket index
 *
 * Returns: the SampledProfile records of @entry in @bucket; 0 for a
 *   precise usage
 */
guint64
etl_cpu_usage_get_bucket_samples (EtlCpuUsage *usage, const EtlCpuUsageEntry *entry, guint bucket)
{
  const Acc *a;

  g_return_val_if_fail (usage != NULL && entry != NULL && bucket < usage->n_buckets, 0);
  a = acc_of (usage, entry);
  return a != NULL && a->bucket_samples != NULL && bucket >= a->b_lo && bucket - a->b_lo < a->b_n
             ? a->bucket_samples[bucket - a->b_lo]
             : 0;
}

/**
 * etl_cpu_usage_get_n_records:
 * @usage: a usage
 *
 * Returns: the SampledProfile (sampled) or CSwitch (precise) records used
 */
guint64
etl_cpu_usage_get_n_records (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 0);
  return usage->n_records;
}

/**
 * etl_cpu_usage_get_n_unattributed:
 * @usage: a usage
 *
 * Returns: the records whose thread the process table does not know (their
 *   time is under "Unknown", or their thread id by thread)
 */
guint64
etl_cpu_usage_get_n_unattributed (EtlCpuUsage *usage)
{
  g_return_val_if_fail (usage != NULL, 0);
  return usage->n_unattributed;
}

/**
 * etl_cpu_usage_dup_series:
 * @usage: a usage
 * @top_n: how many entries get a row of their own
 *
 * The series of a stacked-area graph: the first @top_n entries (the most
 * used), then "Other" (the sum of the rest, when there is any), each with
 * its percentage of all processors per bucket.  Idle is not a row.
 *
 * Returns: (transfer full): the series; free with etl_cpu_usage_series_free()
 */
EtlCpuUsageSeries *
etl_cpu_usage_dup_series (EtlCpuUsage *usage, guint top_n)
{
  EtlCpuUsageSeries *s;
  g_autofree gint64 *other = NULL;
  guint n_top;

  g_return_val_if_fail (usage != NULL, NULL);
  n_top = MIN (top_n, usage->n_entries);
  s = g_new0 (EtlCpuUsageSeries, 1);
  s->n_rows = n_top + (usage->n_entries > n_top ? 1 : 0);
  s->n_buckets = usage->n_buckets;
  s->names = g_new0 (char *, s->n_rows + 1);
  s->entries = g_new0 (const EtlCpuUsageEntry *, MAX (s->n_rows, 1));
  s->percent = g_new0 (double, MAX ((gsize)s->n_rows * s->n_buckets, 1));
  other = g_new0 (gint64, MAX (usage->n_buckets, 1));
  /* Each entry's own buckets only: the rest are zero. */
  for (guint i = 0; i < usage->n_entries; i++)
    {
      const Acc *a = g_ptr_array_index (usage->accs, i);

      for (guint j = 0; j < a->b_n; j++)
        {
          guint k = a->b_lo + j;

          if (i < n_top)
            {
              gint64 cap = etl_cpu_usage_get_bucket_capacity (usage, k);

              s->percent[(gsize)i * s->n_buckets + k]
                  = cap > 0 ? 100.0 * (double)a->bucket_time[j] / (double)cap : 0.0;
            }
          else
            other[k] += a->bucket_time[j];
        }
    }
  if (s->n_rows > n_top)
    for (guint k = 0; k < usage->n_buckets; k++)
      {
        gint64 cap = etl_cpu_usage_get_bucket_capacity (usage, k);

        s->percent[(gsize)n_top * s->n_buckets + k] = cap > 0 ? 100.0 * (double)other[k] / (double)cap : 0.0;
      }
  for (guint i = 0; i < n_top; i++)
    {
      s->names[i] = g_strdup (usage->entries[i].name);
      s->entries[i] = &usage->entries[i];
    }
  if (s->n_rows > n_top)
    s->names[n_top] = g_strdup ("Other");
  return s;
}

/**
 * etl_cpu_usage_series_free:
 * @series: (transfer full): a series
 *
 * Frees @series.
 */
void
etl_cpu_usage_series_free (EtlCpuUsageSeries *series)
{
  if (series == NULL)
    return;
  g_strfreev (series->names);
  g_free (series->entries);
  g_free (series->percent);
  g_free (series);
}
