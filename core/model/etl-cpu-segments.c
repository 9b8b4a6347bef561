/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-cpu-segments
 * @title: EtlCpuSegments
 * @short_description: which thread ran on each processor, from CSwitch records
 *
 * The data of Perfetto's CPU tracks: for each processor, the stretches of
 * time a thread ran.  A Thread CSwitch record (HookId 0x0524, MOF class
 * CSwitch; NewThreadId at payload offset 0) on processor c switches in
 * NewThreadId, which runs until the next CSwitch on c or the trace's last
 * record.  The idle thread (id 0) makes no segment: idle is a gap.  Time
 * before a processor's first CSwitch is unknown and has no segment.  The
 * processor is the record's CPU index; in a merge of several files a
 * processor index of each file shares one lane (their CSwitch records then
 * interleave), so the segments are meant for one trace file.
 *
 * etl_cpu_segments_new() reads the records in the calling thread (meant for
 * a worker) and may be cancelled; the result is read-only and may be shared
 * between threads.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-cpu-segments.h"

#define HOOK_CSWITCH 0x0524
#define NO_ID G_MAXUINT32
#define CANCEL_CHECK_MASK 0xFFFF
/* Processors: at most this many lanes (NumberOfProcessors is capped alike). */
#define MAX_CPUS 2048

struct _EtlCpuSegments
{
  gatomicrefcount ref_count;
  guint n_cpus;
  GArray **cpus; /* n_cpus × GArray of EtlCpuSegment, by start */
  /* n_cpus: each processor's overview (ov_n[c] pids from ov_start[c],
   * ov_width[c] apart), NULL for a processor of few segments */
  guint32 **overview;
  gint64 *ov_start, *ov_width;
  guint *ov_n;
};

/* Processors with fewer segments have no overview: a search of theirs stays
 * in the cache. */
#define OVERVIEW_MIN_SEGMENTS 65536
#define OVERVIEW_MIN_BUCKETS 16384

static inline guint32
read_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

static gboolean
is_kernel_header (guint8 header_type)
{
  return header_type == ETL_HEADER_TYPE_SYSTEM32 || header_type == ETL_HEADER_TYPE_SYSTEM64 ||
         header_type == ETL_HEADER_TYPE_COMPACT32 || header_type == ETL_HEADER_TYPE_COMPACT64 ||
         header_type == ETL_HEADER_TYPE_PERFINFO32 || header_type == ETL_HEADER_TYPE_PERFINFO64;
}

static void
close_segment (EtlCpuSegments *s, guint cpu, EtlCpuSegment *open, gint64 end)
{
  if (open->tid != NO_ID && open->tid != 0 && end > open->start)
    {
      open->end = end;
      g_array_append_val (s->cpus[cpu], *open);
    }
  open->tid = NO_ID;
}

/* The pid of the segment at the starts of n / 8 buckets (at least
 * OVERVIEW_MIN_BUCKETS, at most 8 times that) over [first start, last end)
 * of @seg (n > 0, by start), ETL_CPU_SEGMENTS_NONE where none reaches into
 * the bucket; one pass. */
static guint32 *
make_overview (const EtlCpuSegment *seg, guint n, gint64 *start, gint64 *width, guint *n_buckets)
{
  guint nb = CLAMP (n / 8, OVERVIEW_MIN_BUCKETS, 8 * OVERVIEW_MIN_BUCKETS);
  guint32 *ov = g_new (guint32, nb);
  gint64 t0 = seg[0].start, span = MAX (seg[n - 1].end - t0, 1);
  gint64 w = (span + nb - 1) / nb;
  guint k = 0;

  *start = t0;
  *width = w;
  *n_buckets = nb;
  for (guint b = 0; b < nb; b++)
    {
      gint64 tb = t0 + (gint64) b * w;

      while (k < n && seg[k].end <= tb)
        k++;
      ov[b] = k < n && seg[k].start < tb + w ? seg[k].pid : ETL_CPU_SEGMENTS_NONE;
    }
  return ov;
}
/**
 * etl_cpu_segments_new:
 * @trace: a trace
 * @cancellable: (nullable): checked every 65536 records
 * @error: return location for a #GError
 *
 * Walks the CSwitch records of @trace and builds each processor's segments
 * (see the section overview).  Threads are attributed to processes through
 * etl_trace_get_process_table() at the segment's start.
 *
 * Returns: (transfer full) (nullable): the segments (empty when the trace
 *   has no CSwitch record), or %NULL with %G_IO_ERROR_CANCELLED
 */
EtlCpuSegments *
etl_cpu_segments_new (EtlTrace *trace, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlCpuSegments) s = NULL;
  g_autofree EtlCpuSegment *open = NULL;
  EtlProcessTable *table;
  guint64 n;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  s = g_new0 (EtlCpuSegments, 1);
  g_atomic_ref_count_init (&s->ref_count);
  s->n_cpus = CLAMP (etl_trace_get_n_cpus (trace), 1, MAX_CPUS);
  s->cpus = g_new0 (GArray *, s->n_cpus);
  open = g_new (EtlCpuSegment, s->n_cpus);
  for (guint c = 0; c < s->n_cpus; c++)
    {
      s->cpus[c] = g_array_new (FALSE, FALSE, sizeof (EtlCpuSegment));
      open[c].tid = NO_ID;
    }
  table = etl_trace_get_process_table (trace);

  n = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecordBrief rec; /* the header read in place: most records are not CSwitch */
      const EtlThread *thread;
      guint cpu;

      if ((i & CANCEL_CHECK_MASK) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (!is_kernel_header (etl_trace_get_header_type (trace, i)) || !etl_trace_peek_record (trace, i, &rec))
        continue;
      cpu = etl_trace_get_cpu (trace, i);
      if (rec.hook_id == HOOK_CSWITCH && rec.user_data != NULL && rec.user_data_len >= 4 && cpu < s->n_cpus)
        {
          close_segment (s, cpu, &open[cpu], rec.filetime);
          open[cpu].start = rec.filetime;
          open[cpu].tid = read_u32 (rec.user_data);
          open[cpu].row = i;
          thread = table != NULL && open[cpu].tid != 0
                       ? etl_process_table_lookup_thread (table, open[cpu].tid, rec.filetime)
                       : NULL;
          open[cpu].pid = thread != NULL ? thread->pid : NO_ID;
        }
      etl_record_brief_clear (&rec);
    }
  for (guint c = 0; c < s->n_cpus; c++)
    close_segment (s, c, &open[c], etl_trace_get_last_filetime (trace));
  s->overview = g_new0 (guint32 *, s->n_cpus);
  s->ov_start = g_new0 (gint64, s->n_cpus);
  s->ov_width = g_new0 (gint64, s->n_cpus);
  s->ov_n = g_new0 (guint, s->n_cpus);
  for (guint c = 0; c < s->n_cpus; c++)
    if (s->cpus[c]->len >= OVERVIEW_MIN_SEGMENTS)
      s->overview[c] = make_overview ((const EtlCpuSegment *) (gpointer) s->cpus[c]->data, s->cpus[c]->len,
                                      &s->ov_start[c], &s->ov_width[c], &s->ov_n[c]);
  return g_steal_pointer (&s);
}

/**
 * etl_cpu_segments_ref:
 * @segments: segments
 *
 * Returns: (transfer full): @segments
 */
EtlCpuSegments *
etl_cpu_segments_ref (EtlCpuSegments *segments)
{
  g_return_val_if_fail (segments != NULL, NULL);
  g_atomic_ref_count_inc (&segments->ref_count);
  return segments;
}

/**
 * etl_cpu_segments_unref:
 * @segments: (transfer full): segments
 */
void
etl_cpu_segments_unref (EtlCpuSegments *segments)
{
  g_return_if_fail (segments != NULL);
  if (!g_atomic_ref_count_dec (&segments->ref_count))
    return;
  for (guint c = 0; c < segments->n_cpus; c++)
    {
      if (segments->cpus[c] != NULL)
        g_array_unref (segments->cpus[c]);
      if (segments->overview != NULL)
        g_free (segments->overview[c]);
    }
  g_free (segments->cpus);
  g_free (segments->overview);
  g_free (segments->ov_start);
  g_free (segments->ov_width);
  g_free (segments->ov_n);
  g_free (segments);
}

/**
 * etl_cpu_segments_get_n_cpus:
 * @segments: segments
 *
 * Returns: the number of processors (lanes)
 */
guint
etl_cpu_segments_get_n_cpus (EtlCpuSegments *segments)
{
  g_return_val_if_fail (segments != NULL, 0);
  return segments->n_cpus;
}

/**
 * etl_cpu_segments_get:
 * @segments: segments
 * @cpu: a processor index below etl_cpu_segments_get_n_cpus()
 * @n_segments: (out): number of segments
 *
 * Returns: (transfer none) (array length=n_segments): @cpu's segments in
 *   time order, disjoint
 */
const EtlCpuSegment *
etl_cpu_segments_get (EtlCpuSegments *segments, guint cpu, guint *n_segments)
{
  g_return_val_if_fail (segments != NULL && n_segments != NULL, NULL);
  g_return_val_if_fail (cpu < segments->n_cpus, NULL);
  *n_segments = segments->cpus[cpu]->len;
  return (const EtlCpuSegment *) (gpointer) segments->cpus[cpu]->data;
}

/**
 * etl_cpu_segments_lookup:
 * @segments: segments
 * @cpu: a processor index
 * @filetime: a FILETIME
 *
 * Returns: (transfer none) (nullable): the segment of @cpu that holds
 *   @filetime (start ≤ @filetime < end), %NULL when the processor was idle
 *   or unknown then
 */
const EtlCpuSegment *
etl_cpu_segments_lookup (EtlCpuSegments *segments, guint cpu, gint64 filetime)
{
  const EtlCpuSegment *seg;
  guint n, lo = 0, hi;

  g_return_val_if_fail (segments != NULL, NULL);
  if (cpu >= segments->n_cpus)
    return NULL;
  seg = etl_cpu_segments_get (segments, cpu, &n);
  hi = n;
  /* The first segment that ends after @filetime. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (seg[mid].end <= filetime)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < n && seg[lo].start <= filetime ? &seg[lo] : NULL;
}

/**
 * etl_cpu_segments_get_overview:
 * @segments: segments
 * @cpu: a processor index
 * @start: (out): FILETIME of bucket 0's start (the processor's first
 *   segment's)
 * @bucket_width: (out): a bucket's width, 100-ns units (≥ 1)
 * @n_buckets: (out): the number of buckets: one for about 8 segments, at
 *   least 16,384, at most 131,072
 *
 * The pid of the segment at each of @n_buckets evenly spaced times of the
 * processor's span (the first segment that ends after the bucket's start, if
 * it starts before the bucket's end; %ETL_CPU_SEGMENTS_NONE when none),
 * built with the segments for processors of at least 65,536 of them: a
 * zoomed-out CPU lane reads it instead of searching the segments, one cache
 * miss each, for every pixel column.
 *
 * Returns: (transfer none) (array length=n_buckets) (nullable): the pids,
 *   %NULL for an unknown processor or one of few segments
 */
const guint32 *
etl_cpu_segments_get_overview (EtlCpuSegments *segments, guint cpu, gint64 *start, gint64 *bucket_width,
                               guint *n_buckets)
{
  g_return_val_if_fail (segments != NULL && start != NULL && bucket_width != NULL && n_buckets != NULL, NULL);
  *n_buckets = 0;
  if (cpu >= segments->n_cpus || segments->overview[cpu] == NULL)
    return NULL;
  *start = segments->ov_start[cpu];
  *bucket_width = segments->ov_width[cpu];
  *n_buckets = segments->ov_n[cpu];
  return segments->overview[cpu];
}
