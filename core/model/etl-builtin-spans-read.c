/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-builtin-spans-read.c: etl_builtin_spans_new(), the pass over a trace
 * that feeds the records of the classes it reads (Microsoft-Windows-
 * DotNETRuntime, kernel DiskIo, FileIo, Process and Thread) to the pairing
 * of etl-builtin-spans.c, in record order.
 *
 * The index gives each record's provider without touching the file: one
 * thread a processor lists, in windows of WINDOW records, the records of
 * those providers (etl_parallel_ranges()); the calling thread then reads
 * them in record order (etl_trace_peek_record(): header fields and the
 * payload in place; a Process record through the decoder, for its
 * variable-size UserSID) and feeds the builder.  The memory the pass holds
 * besides its result is the window's list, at most 8 bytes a record of it.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-builtin-spans-private.h"

#include <string.h>

#include "etl-kernel-groups.h"
#include "etl-parallel.h"
#include "etl-record.h"
#include "etl-span-payloads.h"

#define CANCEL_EVERY   65536
#define WINDOW         (G_GUINT64_CONSTANT (1) << 22) /* records scanned, then fed, at a time */
#define MIN_PER_WORKER 262144
#define MAX_WORKERS    16 /* etl_parallel_n_workers()'s most */

/* Microsoft-Windows-DotNETRuntime (ClrEtwAll.man). */
static const EtlGuid clr_provider = { 0xe13c0d23, 0xccbc, 0x4e12, { 0x93, 0x1b, 0xd9, 0xcc, 0x2e, 0xee, 0x27, 0xe4 } };

/* Kernel event types of Process (evntrace.h EVENT_TRACE_TYPE_START … _DC_END). */
enum
{
  TYPE_START = 1,
  TYPE_DC_END = 4,
};

/* Kernel HookId groups (ntwmi.h EVENT_TRACE_GROUP_* >> 8). */
enum
{
  GROUP_DISKIO = 0x01,
  GROUP_PROCESS = 0x03,
  GROUP_FILEIO = 0x04,
  GROUP_THREAD = 0x05,
};

static guint
pointer_size_of (guint8 header_type)
{
  switch (header_type)
    {
    case ETL_HEADER_TYPE_SYSTEM32:
    case ETL_HEADER_TYPE_COMPACT32:
    case ETL_HEADER_TYPE_PERFINFO32:
    case ETL_HEADER_TYPE_FULL_HEADER32:
    case ETL_HEADER_TYPE_INSTANCE32:
    case ETL_HEADER_TYPE_EVENT_HEADER32:
      return 4;
    default:
      return 8;
    }
}

static EtlSpanClass
class_of (const EtlGuid *g)
{
  static const struct
  {
    guint group;
    EtlSpanClass cls;
  } kernel[] = {
    { GROUP_DISKIO, ETL_SPAN_CLASS_DISKIO },
    { GROUP_FILEIO, ETL_SPAN_CLASS_FILEIO },
    { GROUP_PROCESS, ETL_SPAN_CLASS_PROCESS },
    { GROUP_THREAD, ETL_SPAN_CLASS_THREAD },
  };

  if (g == NULL)
    return ETL_SPAN_CLASS_NONE;
  if (etl_guid_equal (g, &clr_provider))
    return ETL_SPAN_CLASS_CLR;
  for (guint k = 0; k < G_N_ELEMENTS (kernel); k++)
    {
      const EtlGuid *c = etl_kernel_group_class (kernel[k].group);

      if (c != NULL && etl_guid_equal (g, c))
        return kernel[k].cls;
    }
  return ETL_SPAN_CLASS_NONE;
}

static gint64
clock_freq_of (const EtlFileInfo *info)
{
  switch (info->clock_type)
    {
    case ETL_CLOCK_QPC:
      return info->perf_freq;
    case ETL_CLOCK_SYSTEM_TIME:
      return 10000000;
    case ETL_CLOCK_CPU_CYCLE:
      return (gint64) info->cpu_speed_mhz * 1000000;
    default:
      return 0;
    }
}

static guint64
field_number (const EtlDecoded *d, const char *name, guint64 fallback)
{
  const EtlField *f = etl_decoded_find (d, name);

  return f != NULL && f->has_number ? f->number : fallback;
}

/* A Process record's ProcessId, ParentId, ExitStatus and ImageFileName,
 * through the decoder (the layouts' UserSID is of variable size). */
static gboolean
read_process (EtlTrace *trace, guint64 i, EtlSpanRecord *r, char **image)
{
  g_auto (EtlRecord) rec = { 0 };
  g_autoptr (EtlDecoded) d = NULL;
  const EtlField *f;

  if (!etl_trace_get_record (trace, i, &rec, NULL))
    return FALSE;
  d = etl_trace_decode_record (trace, &rec);
  if (d == NULL || etl_decoded_find (d, "ProcessId") == NULL)
    return FALSE;
  r->process_id = (guint32) field_number (d, "ProcessId", 0);
  r->parent_id = (guint32) field_number (d, "ParentId", 0);
  r->exit_status = (guint32) field_number (d, "ExitStatus", 0);
  f = etl_decoded_find (d, "ImageFileName");
  *image = f != NULL && f->value != NULL ? g_strdup (f->value) : NULL;
  return TRUE;
}

/* What the pass shares with its scanning workers and its feeding. */
typedef struct
{
  EtlTrace *trace;
  EtlSpansBuilder *b;
  const guint8 *cls;
  guint n_providers;
  const gint64 *freq;
  guint n_files;
  EtlProcessTable *table;
  GArray *found[MAX_WORKERS]; /* guint64 record indexes, one list a worker */
} PassCtx;

static void
scan_range (guint worker, guint64 first, guint64 last, gpointer data)
{
  PassCtx *ctx = data;
  GArray *found = ctx->found[worker];

  for (guint64 i = first; i < last; i++)
    {
      guint p = etl_trace_get_provider_index (ctx->trace, i);

      if (p < ctx->n_providers && ctx->cls[p] != ETL_SPAN_CLASS_NONE)
        g_array_append_val (found, i);
    }
}

/* Reads record @i (of a class the pass reads) and feeds it to the builder. */
static void
feed_record (PassCtx *ctx, guint64 i)
{
  EtlTrace *trace = ctx->trace;
  EtlRecordBrief brief;
  EtlSpanRecord r;
  g_autofree char *image = NULL;
  guint p = etl_trace_get_provider_index (trace, i);

  if (!etl_trace_peek_record (trace, i, &brief))
    return;
  memset (&r, 0, sizeof r);
  r.record = i;
  r.filetime = brief.filetime;
  r.has_pid = brief.has_pid;
  r.pid = brief.pid;
  r.tid = brief.tid;
  r.cls = ctx->cls[p];
  r.opcode = brief.opcode;
  r.event_id = brief.event_id;
  r.version = brief.version;
  r.pointer_size = pointer_size_of (brief.header_type);
  r.payload = brief.user_data;
  r.len = brief.user_data_len;
  r.issuing_pid = ETL_BUILTIN_UNKNOWN;
  if (r.cls == ETL_SPAN_CLASS_CLR
      && (brief.header_type != ETL_HEADER_TYPE_EVENT_HEADER32 && brief.header_type != ETL_HEADER_TYPE_EVENT_HEADER64))
    {
      etl_record_brief_clear (&brief);
      return; /* the classic (pre-4.0) runtime's records are not read */
    }
  if (r.cls == ETL_SPAN_CLASS_DISKIO)
    {
      guint f = etl_trace_get_file (trace, i);
      EtlDiskIo d;

      r.clock_freq = f < ctx->n_files ? ctx->freq[f] : 0;
      if (ctx->table != NULL
          && etl_diskio_read (r.payload, r.len, r.opcode, r.version, r.pointer_size, &d) != ETL_SPAN_READ_MISSING
          && d.issuing_thread != ETL_BUILTIN_UNKNOWN)
        {
          const EtlThread *t = etl_process_table_lookup_thread (ctx->table, d.issuing_thread, r.filetime);

          if (t != NULL)
            r.issuing_pid = t->pid;
        }
    }
  if (r.cls == ETL_SPAN_CLASS_PROCESS)
    {
      if (r.opcode < TYPE_START || r.opcode > TYPE_DC_END || !read_process (trace, i, &r, &image))
        {
          etl_record_brief_clear (&brief);
          return;
        }
      r.image = image;
    }
  etl_spans_builder_add (ctx->b, &r);
  etl_record_brief_clear (&brief);
}

/**
 * etl_builtin_spans_new:
 * @trace: a trace
 * @kinds: the wanted kinds: bit (1 << #EtlBuiltinKind) each, e.g.
 *   %ETL_BUILTIN_KINDS_ALL
 * @cancellable: (nullable): checked every window of 4 Mi records and
 *   every 65,536 records read
 * @error: return location for a #GError
 *
 * Builds the built-in intervals of @trace (rules in the section overview:
 * ClrEtwAll.man's GC events, the kernel's DiskIo, FileIo, Process and
 * Thread MOF classes) in one pass in record order in the calling thread
 * (meant for a worker).  The index's provider of each record selects the
 * few records read, windows of 4 Mi records at a time scanned by one thread
 * a processor (etl_parallel_ranges()); their payloads are read in place
 * (etl-span-payloads.c), a Process record's through the decoder.  Disk
 * and file spans get the name of their FileKey from the trace's FileIo
 * name records (etl_trace_lookup_file_name()).
 *
 * Returns: (transfer full) (nullable): the spans (none when the trace has
 *   no such records), or %NULL with %G_IO_ERROR_CANCELLED
 */
EtlBuiltinSpans *
etl_builtin_spans_new (EtlTrace *trace, guint kinds, GCancellable *cancellable, GError **error)
{
  EtlSpansBuilder *b;
  EtlBuiltinSpans *spans;
  EtlProcessTable *table;
  guint n_providers, n_files, n_workers;
  guint64 n_records;
  g_autofree guint8 *cls = NULL;
  g_autofree gint64 *freq = NULL;
  guint8 wanted[ETL_SPAN_CLASS_THREAD + 1] = { 0 };
  PassCtx ctx = { 0 };
  gboolean cancelled = FALSE;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  wanted[ETL_SPAN_CLASS_CLR] = (kinds & (1u << ETL_BUILTIN_GC | 1u << ETL_BUILTIN_GC_PAUSE)) != 0;
  wanted[ETL_SPAN_CLASS_DISKIO] = (kinds & 1u << ETL_BUILTIN_DISK_IO) != 0;
  wanted[ETL_SPAN_CLASS_FILEIO] = (kinds & 1u << ETL_BUILTIN_FILE_IO) != 0;
  wanted[ETL_SPAN_CLASS_PROCESS] = (kinds & (1u << ETL_BUILTIN_PROCESS | 1u << ETL_BUILTIN_THREAD)) != 0;
  wanted[ETL_SPAN_CLASS_THREAD] = (kinds & 1u << ETL_BUILTIN_THREAD) != 0;
  n_providers = etl_trace_get_n_providers (trace);
  cls = g_new0 (guint8, n_providers + 1);
  for (guint p = 0; p < n_providers; p++)
    {
      EtlSpanClass c = class_of (etl_trace_get_provider (trace, p));

      cls[p] = wanted[c] ? (guint8) c : ETL_SPAN_CLASS_NONE;
    }
  n_files = etl_trace_get_n_files (trace);
  freq = g_new0 (gint64, MAX (n_files, 1));
  for (guint f = 0; f < n_files; f++)
    freq[f] = clock_freq_of (etl_trace_get_file_info (trace, f));
  table = etl_trace_get_process_table (trace);

  b = etl_spans_builder_new (kinds);
  n_records = etl_trace_get_n_records (trace);
  ctx.trace = trace;
  ctx.b = b;
  ctx.cls = cls;
  ctx.n_providers = n_providers;
  ctx.freq = freq;
  ctx.n_files = n_files;
  ctx.table = table;
  n_workers = etl_parallel_n_workers (MIN (n_records, WINDOW), MIN_PER_WORKER);
  for (guint w = 0; w < n_workers; w++)
    ctx.found[w] = g_array_new (FALSE, FALSE, sizeof (guint64));
  /* Windows of records: the workers list the records of the classes read
   * (the index's provider of each), then they are fed in record order. */
  for (guint64 first = 0; first < n_records && !cancelled; first += WINDOW)
    {
      guint64 last = MIN (n_records, first + WINDOW);

      etl_parallel_ranges (n_workers, first, last, scan_range, &ctx);
      for (guint w = 0; w < n_workers && !cancelled; w++)
        {
          for (guint k = 0; k < ctx.found[w]->len; k++)
            {
              if (k % CANCEL_EVERY == CANCEL_EVERY - 1 && g_cancellable_is_cancelled (cancellable))
                {
                  cancelled = TRUE;
                  break;
                }
              feed_record (&ctx, g_array_index (ctx.found[w], guint64, k));
            }
          g_array_set_size (ctx.found[w], 0);
        }
      if (g_cancellable_is_cancelled (cancellable))
        cancelled = TRUE;
    }
  for (guint w = 0; w < n_workers; w++)
    g_array_unref (ctx.found[w]);
  if (cancelled)
    {
      etl_builtin_spans_unref (etl_spans_builder_finish (b, 0));
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return NULL;
    }
  spans = etl_spans_builder_finish (b, etl_trace_get_last_filetime (trace));
  etl_builtin_spans_name_files (spans, trace);
  return spans;
}
