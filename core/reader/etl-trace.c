/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-trace
 * @title: EtlTrace
 * @short_description: one or more .etl files as a single time-ordered sequence
 *
 * An #EtlTrace maps each file read-only, walks every buffer's
 * WMI_BUFFER_HEADER, decodes the TRACE_LOGFILE_HEADER, orders each
 * processor's buffers by SequenceNumber and merges the per-processor record
 * streams of all files by converted FILETIME (ties: file, processor,
 * position).  It keeps a compact index (#EtlIndexEntry, 20 bytes a record,
 * allocated at its exact size) and re-reads records from the mapping, or from
 * a small cache of decompressed buffers, on demand.  The open reads,
 * decompresses, indexes and merges on etl_trace_get_open_threads() threads
 * ("Parallel open" below); the result does not depend on their number.
 *
 * Nothing read from a file is trusted: every count is capped, every access
 * bounds-checked, and a problem is recorded with the file, the byte offset and
 * the reason while the valid records are kept.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace.h"
#include "etl-trace-private.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "etl-format-private.h"
#include "etl-manifest.h"
#include "etl-mof-derived.h"
#include "etl-mof-kernel.h"
#include "etl-names.h"
#include "etl-record-private.h"
#include "etl-tdh-system.h"
#include "etl-trace-feed-private.h"
#include "etl-xpress.h"

#define MAX_PROBLEMS_PER_FILE    1000
#define MAX_BUFFER_BYTES         (16u * 1024 * 1024 + ETL_WMI_BUFFER_HEADER_SIZE) /* BufferSize ≤ 16384 KB */
#define BUFFER_CACHE_SIZE        32
#define NO_PID                   G_MAXUINT32
#define CHUNK_ENTRIES            4096    /* temporary entries per chunk: 80 KiB */
#define MAX_OPEN_THREADS         64
#define PROVIDER_OVERFLOW        G_MAXUINT16

G_DEFINE_QUARK (etl-error-quark, etl_error)

/* One buffer of one file. */
typedef struct
{
  guint64 offset;        /* byte offset of the buffer in its file */
  guint32 disk_size;     /* BufferSize: bytes on disk */
  guint32 used;          /* bytes of header + records (buffer_filled_bytes()) */
  gint64 sequence;       /* SequenceNumber */
  gint64 timestamp;      /* TimeStamp, raw clock */
  guint16 flags;         /* BufferFlag */
  guint16 type;          /* BufferType */
  guint16 cpu;           /* processor index */
  guint16 file;
  guint8 compressed;
} EtlBuffer;

/*
 * One record in the merged index: 20 bytes.  The FILETIME is split in two
 * 32-bit halves (so the entry needs only 4-byte alignment); a record's offset
 * in its buffer is a multiple of 8 below MAX_BUFFER_BYTES, so offset / 8 fits
 * 22 bits, next to the header type (5 bits: an indexed record's type is one of
 * the known ones, all below ETL_N_HEADER_TYPES) and, while the trace is
 * opened, the record's EtlFeedKind (3 bits).  The process id is an index into the
 * trace's PID table (trace->pids), with two sentinels: PID16_NONE (the header
 * has none) and PID16_REREAD (the table was full: the accessor reads the
 * record header again), so no answer depends on the table's cap.
 */
typedef struct
{
  guint32 ft_lo;         /* FILETIME, low 32 bits */
  guint32 ft_hi;         /* FILETIME, high 32 bits */
  guint32 buffer;        /* index into trace->buffers */
  guint32 packed;        /* bits 0..21: record offset / 8; 22..26: header type; 27..29: EtlFeedKind (for the open; ignored after) */
  guint16 pid;           /* index into trace->pids, PID16_NONE or PID16_REREAD */
  guint16 provider;      /* index into trace->providers, PROVIDER_OVERFLOW past 65535 */
} EtlIndexEntry;

G_STATIC_ASSERT (sizeof (EtlIndexEntry) == 20);

#define ENTRY_OFFSET_BITS 22
#define ENTRY_TYPE_SHIFT  22
#define ENTRY_FEED_SHIFT  27
#define ENTRY_FEED_MASK   (7u << ENTRY_FEED_SHIFT)
#define PID16_NONE        0xFFFFu
#define PID16_REREAD      0xFFFEu
#define MAX_PIDS          0xFFFEu      /* table indexes 0..0xFFFD */

G_STATIC_ASSERT ((MAX_BUFFER_BYTES / 8) < (1u << ENTRY_OFFSET_BITS));
G_STATIC_ASSERT (ETL_N_HEADER_TYPES == 32);

static inline gint64
entry_filetime (const EtlIndexEntry *e)
{
  return (gint64) ((guint64) e->ft_hi << 32 | e->ft_lo);
}

static inline guint32
entry_offset (const EtlIndexEntry *e)
{
  return (e->packed & ((1u << ENTRY_OFFSET_BITS) - 1)) * 8;
}

static inline guint8
entry_header_type (const EtlIndexEntry *e)
{
  return (guint8) ((e->packed >> ENTRY_TYPE_SHIFT) & (ETL_N_HEADER_TYPES - 1));
}

/* The merge key of an entry: (FILETIME, buffer << 32 | offset). */
static inline guint64
entry_pos (const EtlIndexEntry *e)
{
  return (guint64) e->buffer << 32 | entry_offset (e);
}

static inline guint
entry_feed (const EtlIndexEntry *e)
{
  return (e->packed & ENTRY_FEED_MASK) >> ENTRY_FEED_SHIFT;
}

static inline void
entry_set (EtlIndexEntry *e, gint64 filetime, guint32 buffer, guint32 offset, guint8 header_type, guint feed,
           guint16 pid, guint16 provider)
{
  g_assert (offset % 8 == 0 && offset / 8 < (1u << ENTRY_OFFSET_BITS));
  g_assert (header_type < ETL_N_HEADER_TYPES && feed < 8);
  e->ft_lo = (guint32) (guint64) filetime;
  e->ft_hi = (guint32) ((guint64) filetime >> 32);
  e->buffer = buffer;
  e->packed = offset / 8 | (guint32) header_type << ENTRY_TYPE_SHIFT | (guint32) feed << ENTRY_FEED_SHIFT;
  e->pid = pid;
  e->provider = provider;
}

typedef struct
{
  EtlFileInfo info;
  GMappedFile *map;
  const guint8 *data;
  gsize size;
  guint32 pointer_size;
  /* Clock fast path (file_prepare_clock()): FILETIME = start + (raw − header) × ft_num
   * when ft_fast and |raw − header| < ft_limit, exactly what etl_filetime_from_raw() gives. */
  gboolean ft_fast;
  gint64 ft_num;
  gint64 ft_limit;
} EtlFile;

struct _EtlTrace
{
  gatomicrefcount ref_count;
  GPtrArray *files;               /* EtlFile */
  GArray *buffers;                /* EtlBuffer, sorted by (file, cpu, sequence, offset) */
  EtlIndexEntry *index;           /* exactly n_index entries */
  guint64 n_index;
  guint32 *pids;                  /* PID table: EtlIndexEntry.pid -> process id */
  guint n_pids;
  GArray *providers;              /* EtlGuid */
  GHashTable *provider_ids;       /* EtlGuid* (in a separate chunk) -> id + 1 */
  GArray *losses;                 /* EtlLoss, sorted by filetime */
  gint64 origin;                  /* earliest header record's FILETIME */
  guint n_cpus;

  GMutex cache_lock;
  GHashTable *cache;              /* buffer index -> GBytes (decompressed) */
  GQueue cache_order;

  /* What decoding needs, gathered during the same walk (etl-decode-feed.h). */
  GByteArray *provider_feed;      /* provider id -> EtlFeedClass */
  EtlTraceFeed *feed;            /* NULL once the open is finished */
  EtlSchemaRegistry *registry;
  EtlVolumeMap *volumes;
  EtlProcessTable *processes;
  GArray *lifetime_records;       /* kept Process/Thread records, until first used */
  GOnce processes_once;           /* builds the process table from them */
  GArray *file_name_records;      /* kept FileIo name records, until first used */
  GOnce file_names_once;          /* builds file_names from them */
  EtlMofFileNames *file_names;
};

/* ------------------------------------------------------------------------ */
/* Problems                                                                 */

static void
file_add_problem (EtlFile *f, gint code, guint64 offset, const char *format, ...) G_GNUC_PRINTF (4, 5);

static void
file_add_problem (EtlFile *f, gint code, guint64 offset, const char *format, ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  if (f->info.problems->len >= MAX_PROBLEMS_PER_FILE)
    {
      f->info.n_problems_dropped++;
      return;
    }
  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (f->info.problems,
                   g_error_new (ETL_ERROR, code, "%s: offset %" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x): %s",
                                f->info.path, offset, offset, reason));
}

/* ------------------------------------------------------------------------ */
/* Clock                                                                    */

/* a × num / den (num, den > 0) without overflow for the ranges a file can
 * hold; saturates far outside them.  Exact while |a % den| × num fits in 63
 * bits (every real clock); a hostile PerfFreq beyond that rounds the part
 * below one tick through a double instead of overflowing. */
static gint64
scale_ticks (gint64 a, gint64 num, gint64 den)
{
  gint64 q = a / den;
  gint64 r = a % den;
  gint64 frac;

  /* q × num plus a fraction whose size is below num must stay in range. */
  if (q > G_MAXINT64 / num - 1 || q < G_MININT64 / num + 1)
    return q > 0 ? G_MAXINT64 / 2 : G_MININT64 / 2;
  if (r <= G_MAXINT64 / num && r >= G_MININT64 / num)
    frac = (r * num) / den;
  else
    frac = (gint64) ((double) r * (double) num / (double) den);
  return q * num + frac;
}

/**
 * etl_filetime_from_raw:
 * @clock_type: TRACE_LOGFILE_HEADER.ReservedFlags: 1 QPC, 2 system time, 3 CPU cycles
 * @perf_freq: PerfFreq, QPC ticks per second (used with @clock_type 1)
 * @cpu_speed_mhz: CpuSpeedInMHz (used with @clock_type 3)
 * @start_time: StartTime, FILETIME (100-ns ticks since 1601-01-01 UTC)
 * @header_ts_raw: raw timestamp of the file's first record, the EventTrace header
 * @ts_raw: the raw timestamp to convert
 *
 * Converts a raw timestamp to FILETIME as the WNODE_HEADER reference page
 * says: scale = 10,000,000 / PerfFreq (QPC), 1 (system time) or
 * 10 / CpuSpeedInMHz (cycles); FILETIME = StartTime + scale × (raw −
 * header raw).  One FILETIME tick is 100 ns, so the QPC constant is 10^7 (one
 * translation of the page misprints it as 10^8).  The arithmetic is exact
 * integer arithmetic, truncating below one tick.  A zero PerfFreq or
 * CpuSpeedInMHz, or an unknown clock, falls back to treating raw values as
 * 100-ns ticks.
 *
 * Returns: the FILETIME
 */
gint64
etl_filetime_from_raw (guint32 clock_type, gint64 perf_freq, guint32 cpu_speed_mhz,
                       gint64 start_time, gint64 header_ts_raw, gint64 ts_raw)
{
  gint64 num = 1, den = 1;
  gint64 delta;

  switch (clock_type)
    {
    case ETL_CLOCK_QPC:
      if (perf_freq > 0)
        {
          num = 10000000;
          den = perf_freq;
        }
      break;
    case ETL_CLOCK_CPU_CYCLE:
      if (cpu_speed_mhz > 0)
        {
          num = 10;
          den = cpu_speed_mhz;
        }
      break;
    default:
      break;
    }

  /* Hostile values: keep the subtraction defined. */
  if ((header_ts_raw < 0 && ts_raw > G_MAXINT64 + header_ts_raw)
      || (header_ts_raw > 0 && ts_raw < G_MININT64 + header_ts_raw))
    return ts_raw > header_ts_raw ? G_MAXINT64 / 2 : G_MININT64 / 2;
  delta = ts_raw - header_ts_raw;
  delta = scale_ticks (delta, num, den);
  if ((delta > 0 && start_time > G_MAXINT64 / 2 - delta) || (delta < 0 && start_time < G_MININT64 / 2 - delta))
    return delta > 0 ? G_MAXINT64 / 2 : G_MININT64 / 2;
  return start_time + delta;
}

static inline gint64
file_filetime (const EtlFile *f, gint64 ts_raw)
{
  return etl_filetime_from_raw (f->info.clock_type, f->info.perf_freq, f->info.cpu_speed_mhz,
                                f->info.start_time, f->info.header_ts_raw, ts_raw);
}

#define FT_FAST_BOUND (G_GINT64_CONSTANT (1) << 60)

/*
 * Prepares file_filetime_fast(): when the clock's scale reduces to a whole
 * number (QPC at 10 MHz or any divisor of 10^7, system time), a record's
 * FILETIME is start + delta × num, without the divisions of scale_ticks().
 * Bounds keep every intermediate far from overflow and saturation, so the
 * result is identical to etl_filetime_from_raw(); other values take that path.
 */
static void
file_prepare_clock (EtlFile *f)
{
  gint64 num = 1, den = 1, a, b;

  f->ft_fast = FALSE;
  if (f->info.clock_type == ETL_CLOCK_QPC && f->info.perf_freq > 0)
    {
      num = 10000000;
      den = f->info.perf_freq;
    }
  else if (f->info.clock_type == ETL_CLOCK_CPU_CYCLE && f->info.cpu_speed_mhz > 0)
    {
      num = 10;
      den = f->info.cpu_speed_mhz;
    }
  for (a = num, b = den; b != 0;)
    {
      gint64 t = a % b;

      a = b;
      b = t;
    }
  num /= a;
  den /= a;
  if (den != 1 || f->info.start_time <= -2 * FT_FAST_BOUND || f->info.start_time >= 2 * FT_FAST_BOUND
      || f->info.header_ts_raw <= -FT_FAST_BOUND || f->info.header_ts_raw >= FT_FAST_BOUND)
    return;
  f->ft_fast = TRUE;
  f->ft_num = num;
  f->ft_limit = 2 * FT_FAST_BOUND / num;
}

static inline gint64
file_filetime_fast (const EtlFile *f, gint64 ts_raw)
{
  if (G_LIKELY (f->ft_fast && ts_raw > -FT_FAST_BOUND && ts_raw < FT_FAST_BOUND))
    {
      gint64 delta = ts_raw - f->info.header_ts_raw;

      if (delta > -f->ft_limit && delta < f->ft_limit)
        return f->info.start_time + delta * f->ft_num;
    }
  return file_filetime (f, ts_raw);
}

/**
 * etl_filetime_to_iso8601:
 * @filetime: FILETIME, 100-ns ticks since 1601-01-01 UTC
 *
 * Formats @filetime as ISO 8601 UTC with 7 fractional digits, e.g.
 * "2020-07-29T00:07:00.6271234Z".
 *
 * Returns: (transfer full) (nullable): the string, or %NULL when out of range
 */
char *
etl_filetime_to_iso8601 (gint64 filetime)
{
  /* 1601-01-01 to 1970-01-01 in 100-ns ticks. */
  const gint64 unix_epoch = G_GINT64_CONSTANT (116444736000000000);
  g_autoptr (GDateTime) dt = NULL;
  gint64 seconds, frac;
  g_autofree char *base = NULL;

  seconds = (filetime - unix_epoch) / 10000000;
  frac = (filetime - unix_epoch) % 10000000;
  if (frac < 0)
    {
      frac += 10000000;
      seconds--;
    }
  dt = g_date_time_new_from_unix_utc (seconds);
  if (dt == NULL)
    return NULL;
  base = g_date_time_format (dt, "%Y-%m-%dT%H:%M:%S");
  return g_strdup_printf ("%s.%07" G_GINT64_FORMAT "Z", base, frac);
}

/* ------------------------------------------------------------------------ */
/* Buffers                                                                  */

/*
 * Reads the bytes of buffer @b (header + records, uncompressed).  For an
 * uncompressed buffer the data points into the mapping and *hold is NULL;
 * a compressed one is decompressed into a new GBytes returned in *hold.
 */
static gboolean
buffer_load (EtlTrace *trace, const EtlBuffer *b, const guint8 **data, gsize *len, GBytes **hold,
             GError **error)
{
  EtlFile *f = g_ptr_array_index (trace->files, b->file);
  const guint8 *disk = f->data + b->offset;
  guint8 *out;
  GError *local_error = NULL;

  *hold = NULL;
  if (!b->compressed)
    {
      *data = disk;
      *len = b->used;
      return TRUE;
    }

  out = g_malloc (b->used);
  memcpy (out, disk, ETL_WMI_BUFFER_HEADER_SIZE);
  if (!etl_xpress_decompress (f->info.compression_format,
                              disk + ETL_WMI_BUFFER_HEADER_SIZE, b->disk_size - ETL_WMI_BUFFER_HEADER_SIZE,
                              out + ETL_WMI_BUFFER_HEADER_SIZE, b->used - ETL_WMI_BUFFER_HEADER_SIZE,
                              &local_error))
    {
      g_free (out);
      g_set_error (error, ETL_ERROR, local_error->code,
                   "%s: offset %" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x): compressed buffer: %s",
                   f->info.path, b->offset, b->offset, local_error->message);
      g_error_free (local_error);
      return FALSE;
    }
  *hold = g_bytes_new_take (out, b->used);
  *data = out;
  *len = b->used;
  return TRUE;
}

static guint16
buffer_cpu (const guint8 *h)
{
  guint16 flags = etl_read_u16 (h + ETL_WBH_BUFFER_FLAG);

  if (flags & ETL_BUFFER_FLAG_PROC_INDEX)
    return etl_read_u16 (h + ETL_WBH_CLIENT_CONTEXT) & ETL_PROCESSOR_INDEX_MASK;
  return h[ETL_WBH_CLIENT_CONTEXT];
}

/*
 * The bytes of an uncompressed buffer that hold its header and records.
 *
 * Two WMI_BUFFER_HEADER fields say it: SavedOffset (0x04), set when the
 * buffer is flushed, and Offset (0x30), the logger's fill level.  In every
 * flushed buffer of the corpus they are equal.  The first buffer, which the
 * logger writes itself at the start of the session (BufferType 4, header),
 * differs by Windows version:
 *   - Windows 7 (real/Tx_Process.etl, 7600, PerfMon): SavedOffset is 0 and
 *     Offset (= CurrentOffset) covers the EventTrace header record;
 *   - Windows 8.1 to 11 relogged and PerfView files (net.4.5.2.x64.etl,
 *     real/sonde_test.etl, real/msbuild_PerfViewData.etl): SavedOffset covers
 *     the EventTrace header record and Offset is larger: the bytes after
 *     SavedOffset repeat records (PartitionInfoExtension, EventTrace 82) that
 *     the later buffers carry too, and the independent counts in the corpus
 *     README leave them out, as ETW's own consumer does.
 * So SavedOffset wins when it lies in 0x48..BufferSize; else Offset does when
 * it lies there (fox-it dissect.etl reads every buffer by Offset); else the
 * records are read up to BufferSize, where the record walk stops at the end
 * marker (ETW fills a buffer's unused bytes with 0xFF) or the first record
 * that does not fit.  Both fields 0 is a header buffer whose writer set
 * neither (reports of Windows 7 files): read to the end marker silently;
 * values out of range are damage, and the file notes it.
 */
static guint32
buffer_filled_bytes (EtlFile *f, const guint8 *h, guint64 off, guint32 buffer_size)
{
  guint32 saved = etl_read_u32 (h + ETL_WBH_SAVED_OFFSET);
  guint32 fill = etl_read_u32 (h + ETL_WBH_OFFSET);

  if (saved >= ETL_WMI_BUFFER_HEADER_SIZE && saved <= buffer_size)
    return saved;
  if (fill >= ETL_WMI_BUFFER_HEADER_SIZE && fill <= buffer_size)
    {
      if (saved != 0)
        file_add_problem (f, ETL_ERROR_CORRUPT, off,
                          "SavedOffset %u is outside 0x48..BufferSize %u; records read up to Offset %u",
                          saved, buffer_size, fill);
      return fill;
    }
  if (saved != 0 || fill != 0)
    file_add_problem (f, ETL_ERROR_CORRUPT, off,
                      "SavedOffset %u and Offset %u are outside 0x48..BufferSize %u; records read up to "
                      "the end marker", saved, fill, buffer_size);
  return buffer_size;
}

/* Walks the buffer headers of one file; appends to trace->buffers. */
static gboolean
file_walk_buffers (EtlTrace *trace, EtlFile *f, guint file_index, GCancellable *cancellable, GError **error)
{
  guint64 off = 0;

  while (off < f->size)
    {
      const guint8 *h = f->data + off;
      guint64 left = f->size - off;
      EtlBuffer b = { 0 };
      guint32 saved;

      if (left < ETL_WMI_BUFFER_HEADER_SIZE)
        {
          file_add_problem (f, ETL_ERROR_TRUNCATED, off,
                            "file ends %" G_GUINT64_FORMAT " bytes into a WMI_BUFFER_HEADER (0x48 bytes)", left);
          break;
        }
      b.offset = off;
      b.disk_size = etl_read_u32 (h + ETL_WBH_BUFFER_SIZE);
      saved = etl_read_u32 (h + ETL_WBH_SAVED_OFFSET);
      b.sequence = etl_read_i64 (h + ETL_WBH_SEQUENCE_NUMBER);
      b.timestamp = etl_read_i64 (h + ETL_WBH_TIMESTAMP);
      b.flags = etl_read_u16 (h + ETL_WBH_BUFFER_FLAG);
      b.type = etl_read_u16 (h + ETL_WBH_BUFFER_TYPE);
      b.cpu = buffer_cpu (h);
      b.file = (guint16) file_index;
      b.compressed = (b.flags & ETL_BUFFER_FLAG_COMPRESSED) != 0;

      if (b.disk_size < ETL_WMI_BUFFER_HEADER_SIZE || b.disk_size > MAX_BUFFER_BYTES)
        {
          file_add_problem (f, ETL_ERROR_CORRUPT, off,
                            "BufferSize %u is outside 0x48..%u; the buffers after it cannot be found",
                            b.disk_size, MAX_BUFFER_BYTES);
          break;
        }

      if (b.compressed)
        {
          if (saved < ETL_WMI_BUFFER_HEADER_SIZE || saved > MAX_BUFFER_BYTES)
            {
              file_add_problem (f, ETL_ERROR_CORRUPT, off,
                                "compressed buffer's SavedOffset %u is outside 0x48..%u; buffer skipped",
                                saved, MAX_BUFFER_BYTES);
              goto next;
            }
          if (b.disk_size > left)
            {
              file_add_problem (f, ETL_ERROR_TRUNCATED, off,
                                "file ends inside a compressed buffer of %u bytes (%" G_GUINT64_FORMAT
                                " present); buffer skipped", b.disk_size, left);
              break;
            }
          b.used = saved;
          f->info.compressed = TRUE;
        }
      else
        {
          guint32 limit = (guint32) MIN ((guint64) b.disk_size, left);

          saved = buffer_filled_bytes (f, h, off, b.disk_size);
          if (b.disk_size > left)
            file_add_problem (f, ETL_ERROR_TRUNCATED, off,
                              "file ends inside a buffer of %u bytes (%" G_GUINT64_FORMAT
                              " present); its complete records were kept", b.disk_size, left);
          b.used = MIN (saved, limit);
        }

      if (b.cpu + 1u > f->info.n_cpus)
        f->info.n_cpus = b.cpu + 1u;
      g_array_append_val (trace->buffers, b);
      f->info.n_buffers++;

    next:
      if (b.disk_size > left)
        break;
      off += b.disk_size;
      if ((f->info.n_buffers & 255) == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
    }
  return TRUE;
}

/*
 * Maps in, with one call per run of adjacent buffers, the pages the merge is
 * about to read: the buffers just found (never the gaps between them, so a
 * sparse or damaged file costs no more than before).  Faulting a gigabyte
 * mapping page by page is a large part of the open time; this is a hint and
 * its failure (an older kernel) changes nothing.
 */
static void
file_populate (EtlTrace *trace, EtlFile *f, guint first_buffer)
{
#if defined(G_OS_UNIX) && defined(MADV_POPULATE_READ)
  const guintptr page = 4096;
  guint64 run_start = 0, run_end = 0;

  for (guint i = first_buffer; i <= trace->buffers->len; i++)
    {
      const EtlBuffer *b = i < trace->buffers->len ? &g_array_index (trace->buffers, EtlBuffer, i) : NULL;

      if (b != NULL && b->offset == run_end && run_end > run_start)
        {
          run_end = b->offset + MIN ((guint64) b->disk_size, f->size - b->offset);
          continue;
        }
      if (run_end > run_start)
        {
          guintptr start = ((guintptr) (f->data + run_start)) & ~(page - 1);
          guintptr end = (guintptr) (f->data + run_end);

          (void) madvise ((void *) start, end - start, MADV_POPULATE_READ);
        }
      if (b != NULL)
        {
          run_start = b->offset;
          run_end = b->offset + MIN ((guint64) b->disk_size, f->size - b->offset);
        }
    }
#endif
}

/* ------------------------------------------------------------------------ */
/* TRACE_LOGFILE_HEADER                                                     */

static char *
read_utf16z (const guint8 *p, gsize avail, gsize *consumed)
{
  gsize n = 0;
  g_autofree gunichar2 *tmp = NULL;
  char *utf8;

  while (n + 1 < avail && (p[n] | p[n + 1]) != 0)
    n += 2;
  *consumed = MIN (n + 2, avail);
  tmp = g_new (gunichar2, n / 2 + 1);
  for (gsize i = 0; i < n / 2; i++)
    tmp[i] = etl_read_u16 (p + 2 * i);
  utf8 = g_utf16_to_utf8 (tmp, (glong) (n / 2), NULL, NULL, NULL);
  return utf8 ? utf8 : g_strdup ("");
}

/* Decodes the EventTrace header record (the first record of the file). */
static gboolean
file_read_header (EtlTrace *trace, EtlFile *f, guint first_buffer, GError **error)
{
  const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, first_buffer);
  const guint8 *data;
  gsize len, payload_len, off;
  g_autoptr (GBytes) hold = NULL;
  const guint8 *t;
  EtlRecord r;
  g_autoptr (GError) local_error = NULL;
  guint32 psize;

  f->info.compression_format = etl_read_u32 (f->data + ETL_WBH_STATE) & 0xFFFF;
  if (!buffer_load (trace, b, &data, &len, &hold, error))
    return FALSE;

  if (!etl_record_decode (data + ETL_WMI_BUFFER_HEADER_SIZE, len - ETL_WMI_BUFFER_HEADER_SIZE, &r, &local_error))
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_NOT_ETL,
                   "%s: offset %" G_GUINT64_FORMAT " (0x%" G_GINT64_MODIFIER "x): not an .etl file: first record: %s",
                   f->info.path, b->offset + ETL_WMI_BUFFER_HEADER_SIZE,
                   b->offset + ETL_WMI_BUFFER_HEADER_SIZE, local_error->message);
      return FALSE;
    }
  if ((r.header_type != ETL_HEADER_TYPE_SYSTEM32 && r.header_type != ETL_HEADER_TYPE_SYSTEM64)
      || r.hook_id != ETL_LOG_TYPE_HEADER)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_NOT_ETL,
                   "%s: offset %u (0x%x): not an .etl file: the first record is header type %u, HookId 0x%04x, "
                   "not the EventTrace header (SYSTEM32/64, HookId 0x0000)",
                   f->info.path, ETL_WMI_BUFFER_HEADER_SIZE, ETL_WMI_BUFFER_HEADER_SIZE, r.header_type, r.hook_id);
      return FALSE;
    }

  t = r.user_data;
  payload_len = r.user_data_len;
  if (payload_len < ETL_TLH_LOGGER_NAME_PTR)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_NOT_ETL,
                   "%s: offset %u (0x%x): TRACE_LOGFILE_HEADER is %" G_GSIZE_FORMAT " bytes, too short",
                   f->info.path, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE,
                   ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE, payload_len);
      return FALSE;
    }

  f->info.buffer_size = etl_read_u32 (t + ETL_TLH_BUFFER_SIZE);
  f->info.version = etl_read_u32 (t + ETL_TLH_VERSION);
  f->info.provider_version = etl_read_u32 (t + ETL_TLH_PROVIDER_VERSION);
  f->info.number_of_processors = etl_read_u32 (t + ETL_TLH_NUMBER_OF_PROCESSORS);
  f->info.end_time = etl_read_i64 (t + ETL_TLH_END_TIME);
  f->info.timer_resolution = etl_read_u32 (t + ETL_TLH_TIMER_RESOLUTION);
  f->info.maximum_file_size = etl_read_u32 (t + ETL_TLH_MAXIMUM_FILE_SIZE);
  f->info.log_file_mode = etl_read_u32 (t + ETL_TLH_LOG_FILE_MODE);
  f->info.buffers_written = etl_read_u32 (t + ETL_TLH_BUFFERS_WRITTEN);
  f->info.start_buffers = etl_read_u32 (t + ETL_TLH_START_BUFFERS);
  psize = etl_read_u32 (t + ETL_TLH_POINTER_SIZE);
  f->info.events_lost = etl_read_u32 (t + ETL_TLH_EVENTS_LOST);
  f->info.cpu_speed_mhz = etl_read_u32 (t + ETL_TLH_CPU_SPEED_IN_MHZ);

  if (psize != 4 && psize != 8)
    {
      guint32 guess = r.header_type == ETL_HEADER_TYPE_SYSTEM32 ? 4 : 8;

      file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + ETL_TLH_POINTER_SIZE,
                        "PointerSize %u is not 4 or 8; using %u from the header type %s",
                        psize, guess, etl_header_type_name (r.header_type));
      psize = guess;
    }
  f->pointer_size = f->info.pointer_size = psize;

  off = ETL_TLH_LOGGER_NAME_PTR + 2 * psize;
  f->info.tz_bias_minutes = payload_len >= off + 4 ? (gint32) etl_read_u32 (t + off) : 0;
  off = etl_align8 (off + ETL_TIME_ZONE_INFORMATION_SIZE);
  if (payload_len < off + 32)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_NOT_ETL,
                   "%s: offset %u (0x%x): TRACE_LOGFILE_HEADER is %" G_GSIZE_FORMAT " bytes, "
                   "too short for PointerSize %u (needs %" G_GSIZE_FORMAT ")",
                   f->info.path, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE,
                   ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE, payload_len, psize, off + 32);
      return FALSE;
    }
  f->info.boot_time = etl_read_i64 (t + off);
  f->info.perf_freq = etl_read_i64 (t + off + 8);
  f->info.start_time = etl_read_i64 (t + off + 16);
  f->info.clock_type = etl_read_u32 (t + off + 24);
  f->info.buffers_lost = etl_read_u32 (t + off + 28);
  off += 32;
  {
    gsize used;

    g_free (f->info.logger_name);
    f->info.logger_name = read_utf16z (t + off, payload_len - off, &used);
    off += used;
    g_free (f->info.log_file_name);
    f->info.log_file_name = read_utf16z (t + off, payload_len - off, &used);
  }

  f->info.header_ts_raw = r.ts_raw;
  if (f->info.clock_type < ETL_CLOCK_QPC || f->info.clock_type > ETL_CLOCK_CPU_CYCLE)
    file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + off - 32 + 24,
                      "ReservedFlags (clock type) %u is not 1, 2 or 3; timestamps are taken as 100-ns ticks",
                      f->info.clock_type);
  else if (f->info.clock_type == ETL_CLOCK_QPC && f->info.perf_freq <= 0)
    file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + off - 32 + 8,
                      "PerfFreq is %" G_GINT64_FORMAT " with the QPC clock; timestamps are taken as 100-ns ticks",
                      f->info.perf_freq);
  else if (f->info.clock_type == ETL_CLOCK_CPU_CYCLE && f->info.cpu_speed_mhz == 0)
    file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + ETL_TLH_CPU_SPEED_IN_MHZ,
                      "CpuSpeedInMHz is 0 with the CPU cycle clock; timestamps are taken as 100-ns ticks");
  if (f->info.end_time != 0 && f->info.end_time < f->info.start_time)
    file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + ETL_TLH_END_TIME,
                      "EndTime is before StartTime");
  f->info.header_filetime = file_filetime (f, r.ts_raw);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* PID tables                                                               */

/*
 * An open-addressing set of process ids, each with its index in insertion
 * order (at most MAX_PIDS; past that pid_set_intern() says PID16_REREAD).
 * Own code instead of GHashTable: it is probed once per record, and a slot
 * is one 64-bit word (pid << 32 | index + 1; 0 = empty).
 */
typedef struct
{
  guint64 *slots;
  guint32 mask;
  guint32 n;
  guint32 *pids;        /* index -> pid */
  guint32 last_pid;     /* one-entry cache: records of a stream repeat PIDs */
  guint16 last_index;
  gboolean has_last;
} PidSet;

static void
pid_set_init (PidSet *set)
{
  memset (set, 0, sizeof *set);
  set->mask = 63;
  set->slots = g_new0 (guint64, set->mask + 1);
  set->pids = g_new (guint32, (set->mask + 1) / 2);
}

static void
pid_set_clear (PidSet *set)
{
  g_clear_pointer (&set->slots, g_free);
  g_clear_pointer (&set->pids, g_free);
}

static inline guint32
pid_hash (guint32 pid)
{
  return (pid * 0x9E3779B1u) ^ (pid >> 16);
}

/* The index of @pid, added when new; PID16_REREAD when the set is full. */
static guint16
pid_set_intern (PidSet *set, guint32 pid)
{
  guint32 i;

  if (set->has_last && set->last_pid == pid)
    return set->last_index;
  for (i = pid_hash (pid) & set->mask; set->slots[i] != 0; i = (i + 1) & set->mask)
    if ((guint32) (set->slots[i] >> 32) == pid)
      {
        set->last_pid = pid;
        set->last_index = (guint16) ((set->slots[i] & 0xFFFFFFFFu) - 1);
        set->has_last = TRUE;
        return set->last_index;
      }
  if (set->n >= MAX_PIDS)
    return PID16_REREAD;
  /* At most half full; the pids array has room for half the slots. */
  if (2 * (set->n + 1) > set->mask + 1)
    {
      guint32 old_size = set->mask + 1;
      guint64 *old = set->slots;

      set->mask = 2 * old_size - 1;
      set->slots = g_new0 (guint64, set->mask + 1);
      for (guint32 j = 0; j < old_size; j++)
        if (old[j] != 0)
          {
            guint32 k;

            for (k = pid_hash ((guint32) (old[j] >> 32)) & set->mask; set->slots[k] != 0; k = (k + 1) & set->mask)
              ;
            set->slots[k] = old[j];
          }
      g_free (old);
      set->pids = g_renew (guint32, set->pids, (set->mask + 1) / 2);
      for (i = pid_hash (pid) & set->mask; set->slots[i] != 0; i = (i + 1) & set->mask)
        ;
    }
  set->slots[i] = (guint64) pid << 32 | (set->n + 1);
  set->pids[set->n] = pid;
  set->last_pid = pid;
  set->last_index = (guint16) set->n;
  set->has_last = TRUE;
  set->n++;
  return set->last_index;
}

/* ------------------------------------------------------------------------ */
/* Merge                                                                    */

typedef struct
{
  guint buf;            /* current buffer (index into trace->buffers) */
  guint end_buf;        /* one past this stream's last buffer */
  const guint8 *data;   /* current buffer's bytes, or NULL before loading */
  gsize len;
  GBytes *hold;
  gsize pos;            /* offset of the next record to decode */
  /* the record at the head of this stream */
  gint64 filetime;
  guint32 rec_offset;
  guint32 pid;
  guint16 provider;
  guint8 header_type;
  guint8 feed;          /* EtlFeedKind of the head record: decoding state to hand over */
  guint16 file;
  guint16 cpu;
  /* the last provider GUID this stream interned (records of a stream repeat providers) */
  gboolean has_last_guid;
  guint16 last_provider;
  EtlGuid last_guid;
} Cursor;

/* Loser tree over k streams (Knuth, TAOCP 5.4.1): tree[0] is the winner,
 * tree[1..k-1] the loser of each match; k = leaves, a power of two.  The keys
 * sit together, away from the cursors: (FILETIME, buffer << 32 | offset). */
typedef struct
{
  guint *tree;
  guint k;
  gint64 *key_time;     /* G_MAXINT64 for an exhausted or padding leaf */
  guint64 *key_pos;
} LoserTree;

typedef struct
{
  EtlTrace *trace;
  Cursor *cursors;
  guint n_cursors;
  LoserTree lt;
  EtlIndexEntry *index;
  guint64 n_index;
  guint64 cap_index;
  PidSet pids;
  guint64 bytes_total;
  guint64 bytes_done;
  EtlProgressFunc progress;
  gpointer progress_data;
  double last_fraction;
  GCancellable *cancellable;
  gboolean cancelled;
  guint64 n_loaded;
  guint32 *hook_cache;  /* HookId -> provider id + 1, | HOOK_RT_LOST; 0 = not looked up yet */
} Merge;

#define HOOK_RT_LOST 0x80000000u
#define HOOK_FEED_SHIFT 24      /* bits 24..27 of a hook_cache value: the EtlFeedKind */
#define HOOK_FEED_MASK  0x0F000000u

static guint16
intern_provider (EtlTrace *trace, const EtlGuid *guid)
{
  gpointer value;
  EtlGuid *key;
  guint id;

  if (g_hash_table_lookup_extended (trace->provider_ids, guid, NULL, &value))
    return (guint16) (GPOINTER_TO_UINT (value) - 1);
  if (trace->providers->len >= PROVIDER_OVERFLOW)
    return PROVIDER_OVERFLOW;
  id = trace->providers->len;
  g_array_append_val (trace->providers, *guid);
  {
    guint8 cls = (guint8) etl_trace_feed_classify_provider (guid);

    g_byte_array_append (trace->provider_feed, &cls, 1);
  }
  key = g_memdup2 (guid, sizeof *guid);
  g_hash_table_insert (trace->provider_ids, key, GUINT_TO_POINTER (id + 1));
  return (guint16) id;
}

static void
add_loss (EtlTrace *trace, gint64 filetime, guint file, gint cpu, EtlLossKind kind, guint64 count, gint64 sequence)
{
  EtlLoss loss = { filetime, file, cpu, kind, count, sequence };

  g_array_append_val (trace->losses, loss);
}

static void
merge_report_progress (Merge *m)
{
  double fraction;

  if (m->progress == NULL || m->bytes_total == 0)
    return;
  fraction = (double) m->bytes_done / (double) m->bytes_total;
  if (fraction - m->last_fraction >= 0.005 || fraction >= 1.0)
    {
      m->last_fraction = fraction;
      m->progress (MIN (fraction, 1.0), m->progress_data);
    }
}

/* A real-time lost-event record (RTLostEvent/Buffer/File) at @c's head. */
static void
add_rt_loss (EtlTrace *trace, const Cursor *c, const EtlBuffer *b, guint opcode)
{
  add_loss (trace, c->filetime, b->file, b->cpu, ETL_LOSS_RT_LOST_EVENT + (opcode - ETL_RT_LOST_EVENT_OPCODE), 1,
            b->sequence);
}

/* What the index keeps, from a fully decoded record (the slow path). */
static void
peek_from_record (EtlRecordPeek *pk, const EtlRecord *r)
{
  memset (pk, 0, sizeof *pk);
  pk->size = r->size;
  pk->header_type = r->header_type;
  pk->kind = r->kind;
  pk->has_pid = r->has_pid;
  pk->by_hook = FALSE;  /* the decode already resolved the kernel group's GUID */
  pk->opcode = r->opcode;
  pk->hook_id = r->hook_id;
  pk->pid = r->pid;
  pk->ts_raw = r->ts_raw;
  pk->provider = r->provider;
}

/* Moves @c to its next indexable record.  Returns FALSE at the end of the stream. */
static gboolean
cursor_advance (Merge *m, Cursor *c)
{
  EtlTrace *trace = m->trace;

  while (c->buf < c->end_buf)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, c->buf);
      EtlFile *f = g_ptr_array_index (trace->files, b->file);
      EtlRecord r;
      EtlRecordPeek pk;
      GError *error = NULL;

      if (c->data == NULL)
        {
          if ((++m->n_loaded & 15) == 0 && g_cancellable_is_cancelled (m->cancellable))
            {
              m->cancelled = TRUE;
              return FALSE;
            }
          if (!buffer_load (trace, b, &c->data, &c->len, &c->hold, &error))
            {
              if (f->info.problems->len < MAX_PROBLEMS_PER_FILE)
                g_ptr_array_add (f->info.problems, error);
              else
                {
                  f->info.n_problems_dropped++;
                  g_error_free (error);
                }
              c->data = NULL;
              m->bytes_done += b->disk_size;
              c->buf++;
              continue;
            }
          c->pos = ETL_WMI_BUFFER_HEADER_SIZE;
          m->bytes_done += b->disk_size;
          merge_report_progress (m);
        }

      if (c->pos >= c->len || etl_record_is_end_marker (c->data + c->pos, c->len - c->pos))
        {
          g_clear_pointer (&c->hold, g_bytes_unref);
          c->data = NULL;
          c->buf++;
          continue;
        }

      /* Fast path: read only what the index keeps (same checks as the
       * decode); malformed or rare records go through the full decode. */
      if (etl_record_peek (c->data + c->pos, c->len - c->pos, &pk) != ETL_PEEK_OK)
        {
          if (!etl_record_decode (c->data + c->pos, c->len - c->pos, &r, &error))
            {
              file_add_problem (f, ETL_ERROR_CORRUPT, b->offset + c->pos,
                                "%s; the rest of this buffer (processor %u, SequenceNumber %" G_GINT64_FORMAT
                                ") was skipped",
                                error->message, b->cpu, b->sequence);
              g_error_free (error);
              c->pos = c->len;
              continue;
            }
          peek_from_record (&pk, &r);
        }

      f->info.n_records++;
      f->info.records_by_header_type[pk.header_type % ETL_N_HEADER_TYPES]++;
      c->rec_offset = (guint32) c->pos;
      c->pos += etl_align8 (pk.size);
      if (pk.kind == ETL_RECORD_KIND_OTHER)
        {
          f->info.n_skipped++;
          continue;
        }
      c->filetime = file_filetime_fast (f, pk.ts_raw);
      c->pid = pk.has_pid ? pk.pid : NO_PID;
      c->header_type = pk.header_type;
      c->file = b->file;
      c->cpu = b->cpu;
      if (pk.by_hook)
        {
          guint32 v = m->hook_cache[pk.hook_id];

          if (G_UNLIKELY (v == 0))
            {
              EtlKernelEventInfo info;
              EtlGuid guid = { 0 };

              if (etl_names_kernel_event (pk.hook_id, &info) && info.provider != NULL)
                guid = *info.provider;
              v = (guint32) intern_provider (trace, &guid) + 1;
              if (etl_is_rt_lost (&guid, pk.opcode))
                v |= HOOK_RT_LOST;
              v |= (guint32) etl_trace_feed_classify_hook (pk.hook_id) << HOOK_FEED_SHIFT;
              m->hook_cache[pk.hook_id] = v;
            }
          c->provider = (guint16) ((v & ~(HOOK_RT_LOST | HOOK_FEED_MASK)) - 1);
          c->feed = (guint8) ((v & HOOK_FEED_MASK) >> HOOK_FEED_SHIFT);
          if (G_UNLIKELY (v & HOOK_RT_LOST))
            add_rt_loss (trace, c, b, pk.opcode);
        }
      else
        {
          if (!c->has_last_guid || memcmp (&c->last_guid, &pk.provider, sizeof pk.provider) != 0)
            {
              c->last_guid = pk.provider;
              c->last_provider = intern_provider (trace, &pk.provider);
              c->has_last_guid = TRUE;
            }
          c->provider = c->last_provider;
          c->feed = ETL_FEED_NONE;
          if (G_UNLIKELY (c->provider < trace->provider_feed->len && trace->provider_feed->data[c->provider] != 0))
            c->feed = (guint8) etl_trace_feed_classify (trace->provider_feed->data[c->provider], pk.header_type,
                                                         pk.opcode, c->data + c->rec_offset, pk.size);
          else if (G_UNLIKELY (pk.opcode == ETL_EVENTSOURCE_MANIFEST_OPCODE && pk.kind == ETL_RECORD_KIND_MANIFEST))
            c->feed = (guint8) etl_trace_feed_classify (ETL_FEED_CLASS_NONE, pk.header_type, pk.opcode,
                                                         c->data + c->rec_offset, pk.size);
          if (G_UNLIKELY (etl_is_rt_lost (&pk.provider, pk.opcode)))
            add_rt_loss (trace, c, b, pk.opcode);
        }
      return TRUE;
    }
  return FALSE;
}

/*
 * Asks for transparent huge pages on the index:
 * for a gigabyte trace it is hundreds of MiB written once, front to back, and
 * faulting it in 4 KiB pages costs about a third of the open time.  Only the
 * pages written become resident, as before.
 */
static void
index_advise (void *p, gsize len)
{
#if defined(G_OS_UNIX) && defined(MADV_HUGEPAGE)
  /* The whole mapping, page-aligned both ends: splitting it would stop realloc
   * from growing it with mremap (it would copy instead). */
  const guintptr page = 4096;
  guintptr start = (guintptr) p & ~(page - 1);
  guintptr end = ((guintptr) p + len + page - 1) & ~(page - 1);

  if (end > start)
    (void) madvise ((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

/* Whether leaf a's record comes before leaf b's: FILETIME, then file, processor, position. */
static inline gboolean
leaf_less (const LoserTree *m, guint a, guint b)
{
  gint64 ta = m->key_time[a], tb = m->key_time[b];

  /* Branch-free: which stream comes next is unpredictable. */
  return (ta < tb) | ((ta == tb) & (m->key_pos[a] < m->key_pos[b]));
}

static void
leaf_set_key (Merge *m, guint leaf, gboolean live)
{
  const Cursor *c = &m->cursors[leaf];

  if (live)
    {
      m->lt.key_time[leaf] = c->filetime;
      m->lt.key_pos[leaf] = (guint64) c->buf << 32 | c->rec_offset;
    }
  else
    {
      m->lt.key_time[leaf] = G_MAXINT64;
      m->lt.key_pos[leaf] = G_MAXUINT64;
    }
}

/* Plays the matches of the subtree at @node; returns its winner. */
static guint
tree_build (LoserTree *m, guint node)
{
  guint l, r;

  if (node >= m->k)
    return node - m->k;
  l = tree_build (m, 2 * node);
  r = tree_build (m, 2 * node + 1);
  if (leaf_less (m, r, l))
    {
      m->tree[node] = l;
      return r;
    }
  m->tree[node] = r;
  return l;
}

/* Leaf @w's key changed: replays its path to the root. */
static inline void
tree_replay (LoserTree *m, guint w)
{
  for (guint node = (w + m->k) >> 1; node >= 1; node >>= 1)
    {
      guint t = m->tree[node];
      gboolean swap = leaf_less (m, t, w);

      m->tree[node] = swap ? w : t;
      w = swap ? t : w;
    }
  m->tree[0] = w;
}

static gint
compare_index_entries (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlIndexEntry *x = a, *y = b;
  gint64 tx = entry_filetime (x), ty = entry_filetime (y);
  guint64 px = entry_pos (x), py = entry_pos (y);

  if (tx != ty)
    return tx < ty ? -1 : 1;
  return px < py ? -1 : (px > py);
}

static gint
compare_buffers (gconstpointer a, gconstpointer b)
{
  const EtlBuffer *x = a, *y = b;

  if (x->file != y->file)
    return x->file < y->file ? -1 : 1;
  if (x->cpu != y->cpu)
    return x->cpu < y->cpu ? -1 : 1;
  if (x->sequence != y->sequence)
    return x->sequence < y->sequence ? -1 : 1;
  return x->offset < y->offset ? -1 : (x->offset > y->offset);
}

static gint
compare_losses (gconstpointer a, gconstpointer b)
{
  const EtlLoss *x = a, *y = b;

  if (x->filetime != y->filetime)
    return x->filetime < y->filetime ? -1 : 1;
  return (gint) x->file - (gint) y->file;
}

static gint
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : (x > y);
}

/* Flagged buffers and gaps in each file's SequenceNumber series. */
static void
collect_buffer_losses (EtlTrace *trace)
{
  for (guint fi = 0; fi < trace->files->len; fi++)
    {
      EtlFile *f = g_ptr_array_index (trace->files, fi);
      g_autoptr (GArray) seqs = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr (GHashTable) cpu_of = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

      for (guint i = 0; i < trace->buffers->len; i++)
        {
          const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, i);
          gint64 when;

          if (b->file != fi)
            continue;
          when = b->timestamp != 0 ? file_filetime (f, b->timestamp) : f->info.start_time;
          if (b->flags & ETL_BUFFER_FLAG_EVENTS_LOST)
            add_loss (trace, when, fi, b->cpu, ETL_LOSS_EVENTS_LOST_BUFFER, 1, b->sequence);
          if (b->flags & ETL_BUFFER_FLAG_BUFFER_LOST)
            add_loss (trace, when, fi, b->cpu, ETL_LOSS_BUFFER_LOST_FLAG, 1, b->sequence);
          if (b->type != ETL_BUFFER_TYPE_HEADER)
            {
              g_array_append_val (seqs, b->sequence);
              g_hash_table_insert (cpu_of, g_memdup2 (&b->sequence, sizeof (gint64)), (gpointer) b);
            }
        }
      g_array_sort (seqs, compare_gint64);
      for (guint i = 1; i < seqs->len; i++)
        {
          gint64 prev = g_array_index (seqs, gint64, i - 1);
          gint64 cur = g_array_index (seqs, gint64, i);
          /* Unsigned: hostile SequenceNumbers may span the whole 64-bit range. */
          guint64 step = (guint64) cur - (guint64) prev;

          if (step > 1)
            {
              const EtlBuffer *after = g_hash_table_lookup (cpu_of, &cur);
              gint64 when = after && after->timestamp ? file_filetime (f, after->timestamp) : f->info.start_time;

              add_loss (trace, when, fi, -1, ETL_LOSS_SEQUENCE_GAP, step - 1, cur);
            }
        }
    }
}

/* Decodes @c's head record in full and gives it to the decode feed. */
static void
merge_feed (Merge *m, Cursor *c)
{
  EtlTrace *trace = m->trace;
  const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, c->buf);
  EtlRecord r;

  if (trace->feed == NULL
      || !etl_record_decode (c->data + c->rec_offset, c->len - c->rec_offset, &r, NULL))
    return;
  r.file = c->file;
  r.cpu = c->cpu;
  r.filetime = c->filetime;
  r.file_offset = b->offset + c->rec_offset;
  etl_trace_feed_add (trace->feed, (EtlFeedKind) c->feed, &r);
}

/*
 * The serial merge: one cursor per (file, processor) stream, a loser tree,
 * every record decoded as the tree asks for it.  The parallel open
 * (merge_parallel()) falls back to it when a stream is out of time order, whose
 * feed, provider and problem order only this walk defines; @n_hint is the number
 * of records the parallel pass counted (the index is allocated at that size).
 */
static gboolean
merge_serial (EtlTrace *trace, guint64 n_hint, EtlProgressFunc progress, gpointer progress_data,
              GCancellable *cancellable, GError **error)
{
  Merge m = { 0 };
  guint n_streams = 0;
  gboolean sorted = TRUE;
  g_autofree gint64 *first_time = NULL;
  g_autofree gint64 *last_time = NULL;

  m.trace = trace;
  m.progress = progress;
  m.progress_data = progress_data;
  m.cancellable = cancellable;
  m.last_fraction = -1.0;

  for (guint i = 0; i < trace->buffers->len; i++)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, i);

      const EtlBuffer *p = i ? b - 1 : NULL;

      m.bytes_total += b->disk_size;
      if (p == NULL || p->file != b->file || p->cpu != b->cpu)
        n_streams++;
    }

  for (m.lt.k = 1; m.lt.k < n_streams; m.lt.k *= 2)
    ;
  m.cursors = g_new0 (Cursor, m.lt.k);
  m.lt.tree = g_new0 (guint, m.lt.k);
  m.lt.key_time = g_new (gint64, m.lt.k);
  m.lt.key_pos = g_new (guint64, m.lt.k);
  for (guint i = 0; i < trace->buffers->len; i++)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, i);
      const EtlBuffer *p = i ? b - 1 : NULL;

      if (p == NULL || p->file != b->file || p->cpu != b->cpu)
        {
          if (m.n_cursors)
            m.cursors[m.n_cursors - 1].end_buf = i;
          m.cursors[m.n_cursors++].buf = i;
        }
    }
  if (m.n_cursors)
    m.cursors[m.n_cursors - 1].end_buf = trace->buffers->len;

  m.cap_index = MAX (n_hint, 1);
  m.index = g_new (EtlIndexEntry, m.cap_index);
  pid_set_init (&m.pids);
  m.hook_cache = g_new0 (guint32, 65536);
  first_time = g_new0 (gint64, trace->files->len);
  last_time = g_new0 (gint64, trace->files->len);

  for (guint i = 0; i < m.lt.k; i++)
    leaf_set_key (&m, i, i < m.n_cursors && cursor_advance (&m, &m.cursors[i]));
  m.lt.tree[0] = tree_build (&m.lt, 1);

  while (!m.cancelled)
    {
      guint w = m.lt.tree[0];
      Cursor *c = &m.cursors[w];
      EtlIndexEntry *e;

      if (m.lt.key_time[w] == G_MAXINT64)
        break; /* the smallest key is the end: every stream is done */
      if (G_UNLIKELY (m.n_index == m.cap_index))
        {
          m.cap_index *= 2;
          m.index = g_renew (EtlIndexEntry, m.index, m.cap_index);
          if (m.cap_index * sizeof (EtlIndexEntry) >= 8 * 1024 * 1024)
            index_advise (m.index, m.cap_index * sizeof (EtlIndexEntry));
        }
      e = &m.index[m.n_index];
      entry_set (e, c->filetime, c->buf, c->rec_offset, c->header_type, ETL_FEED_NONE,
                 c->pid == NO_PID ? PID16_NONE : pid_set_intern (&m.pids, c->pid), c->provider);
      if (m.n_index > 0 && entry_filetime (&e[-1]) > c->filetime)
        sorted = FALSE;
      if (first_time[c->file] == 0)
        first_time[c->file] = c->filetime;
      last_time[c->file] = c->filetime;
      m.n_index++;

      /* The record is still in the cursor's buffer: hand what decoding
       * needs (metadata, manifests, volumes, lifetimes) over now. */
      if (G_UNLIKELY (c->feed != ETL_FEED_NONE))
        merge_feed (&m, c);

      leaf_set_key (&m, w, cursor_advance (&m, c));
      tree_replay (&m.lt, w);
    }

  for (guint i = 0; i < m.n_cursors; i++)
    g_clear_pointer (&m.cursors[i].hold, g_bytes_unref);
  g_free (m.cursors);
  g_free (m.lt.tree);
  g_free (m.lt.key_time);
  g_free (m.lt.key_pos);
  g_free (m.hook_cache);

  trace->n_pids = m.pids.n;
  trace->pids = g_steal_pointer (&m.pids.pids);
  pid_set_clear (&m.pids);
  if (m.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_free (m.index);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return FALSE;
    }

  /* A processor's stream out of time order (clock skew, a hostile file):
   * the merged output must still be sorted. */
  if (!sorted)
    {
      GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (EtlIndexEntry), (guint) MIN (m.n_index, G_MAXUINT));

      g_array_append_vals (a, m.index, (guint) m.n_index);
      g_free (m.index);
      g_array_sort_with_data (a, compare_index_entries, NULL);
      m.index = (EtlIndexEntry *) (void *) g_array_free (a, FALSE);
    }
  else
    m.index = g_renew (EtlIndexEntry, m.index, MAX (m.n_index, 1));

  trace->n_index = m.n_index;
  trace->index = m.index;

  /* Each file's first and last record in the merged order. */
  for (guint fi = 0; fi < trace->files->len; fi++)
    {
      EtlFile *f = g_ptr_array_index (trace->files, fi);

      f->info.first_filetime = first_time[fi];
      f->info.last_filetime = last_time[fi];
    }
  if (!sorted)
    {
      /* The emit order was not the final order: walk the sorted index. */
      for (guint fi = 0; fi < trace->files->len; fi++)
        {
          EtlFile *f = g_ptr_array_index (trace->files, fi);

          f->info.first_filetime = f->info.last_filetime = 0;
        }
      for (guint64 i = 0; i < trace->n_index; i++)
        {
          const EtlIndexEntry *e = &trace->index[i];
          EtlFile *f = g_ptr_array_index (trace->files, g_array_index (trace->buffers, EtlBuffer, e->buffer).file);

          if (f->info.first_filetime == 0)
            f->info.first_filetime = entry_filetime (e);
          f->info.last_filetime = entry_filetime (e);
        }
    }

  collect_buffer_losses (trace);
  g_array_sort (trace->losses, compare_losses);
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Parallel open                                                            */

/*
 * The open runs in two parallel passes (GThread workers, the calling thread
 * one of them):
 *
 * 1. scan: each (file, processor) stream is cut into segments of adjacent
 *    buffers; a worker takes one segment at a time, loads (decompresses) its
 *    buffers and writes one temporary #EtlIndexEntry per record into chunks of
 *    CHUNK_ENTRIES, with segment-local PID and provider ids.  What the serial
 *    walk did in merge order is recorded with where it happened instead: feed
 *    records (a copy of their bytes, keyed by the record), provider first
 *    uses, real-time loss records and problems (keyed by the record the
 *    serial walk had merged last from that stream: a #OrderRef).
 * 2. merge: the calling thread turns the local ids into the trace's ids (in
 *    the serial walk's order), feeds the decode feed in merged order, then the
 *    merged sequence is cut at splitter keys sampled from all streams; each
 *    worker merges its key range of every stream into its slice of the final,
 *    exactly sized index with a loser tree, and releases each temporary chunk
 *    as soon as every range that reads it is past it.
 *
 * When a stream is out of time order the merged order of the serial walk
 * (feed order, provider ids, problem order) is not the key order; the open
 * then drops what the scan found and runs merge_serial().
 */

static gint open_threads = 0;   /* atomic; 0 = automatic */
static gint serial_open = 0;    /* atomic; tests only */

void
etl_trace_set_serial_open_for_testing (gboolean serial)
{
  g_atomic_int_set (&serial_open, serial ? 1 : 0);
}

/**
 * etl_trace_set_open_threads:
 * @n_threads: worker threads for etl_trace_open_full(), 1 to 64; 0 = automatic
 *
 * Sets, for the whole process, how many threads read, decompress, index and
 * merge a trace while it is opened.  Automatic (0, the default) means the
 * environment variable `ETLSCOPE_THREADS` when it holds a number from 1 to 64,
 * else g_get_num_processors().  Values above 64 are taken as 64.  The result
 * of an open does not depend on the number of threads.  Thread-safe; affects
 * the opens started afterwards.
 */
void
etl_trace_set_open_threads (guint n_threads)
{
  g_atomic_int_set (&open_threads, (gint) MIN (n_threads, MAX_OPEN_THREADS));
}

/**
 * etl_trace_get_open_threads:
 *
 * The number of threads the next etl_trace_open_full() uses: what
 * etl_trace_set_open_threads() set, or else `ETLSCOPE_THREADS`, or else
 * g_get_num_processors().
 *
 * Returns: 1 to 64
 */
guint
etl_trace_get_open_threads (void)
{
  guint n = (guint) g_atomic_int_get (&open_threads);

  if (n == 0)
    {
      const char *env = g_getenv ("ETLSCOPE_THREADS");
      guint64 v;

      if (env != NULL && g_ascii_string_to_unsigned (env, 10, 1, MAX_OPEN_THREADS, &v, NULL))
        n = (guint) v;
    }
  if (n == 0)
    n = g_get_num_processors ();
  return CLAMP (n, 1, MAX_OPEN_THREADS);
}

typedef struct
{
  gint64 ft;            /* FILETIME */
  guint64 pos;          /* buffer << 32 | record offset */
} MergeKey;

/* Where something happened in the serial walk's order (see merge_serial():
 * a stream advances right after its previous record was merged). */
enum
{
  ORDER_START,          /* before the stream's first record: key.pos = stream */
  ORDER_AFTER,          /* after the record with this key was merged */
  ORDER_SEGMENT,        /* before the segment's first record; resolved after the scan */
};

typedef struct
{
  guint8 cls;
  MergeKey key;
} OrderRef;

typedef struct
{
  EtlLoss loss;
  OrderRef ref;
} LossItem;

typedef struct
{
  GError *error;
  OrderRef ref;
} ProblemItem;

/* A run of adjacent buffers of one stream, scanned by one worker. */
typedef struct
{
  guint stream;
  guint file;
  guint first_buf;
  guint end_buf;
  /* what the scan found */
  GPtrArray *chunks;            /* EtlIndexEntry[CHUNK_ENTRIES], the last one partly filled */
  guint64 n;                    /* entries */
  MergeKey first_key;
  MergeKey last_key;
  gint64 first_nonzero;         /* first FILETIME that is not 0, or 0 */
  gboolean sorted;              /* FILETIMEs never decrease */
  guint64 n_records;
  guint64 n_skipped;
  guint64 by_type[ETL_N_HEADER_TYPES];
  gboolean tables;              /* the tables below exist */
  PidSet pids;
  GArray *providers;            /* EtlGuid by local id */
  GArray *provider_refs;        /* OrderRef of each local id's first record */
  GByteArray *provider_class;   /* EtlFeedClass by local id */
  GHashTable *provider_ids;     /* EtlGuid* -> local id + 1 */
  gboolean has_last_guid;
  guint16 last_provider;
  EtlGuid last_guid;
  GArray *losses;               /* LossItem */
  GArray *problems;             /* ProblemItem */
  guint64 n_problems_dropped;
  guint64 keep_bytes[2];        /* Size sum of its ETL_FEED_LIFETIME, ETL_FEED_FILE_NAME records */
  /* filled after the scan */
  OrderRef start_ref;
  guint16 *pid_map;             /* local PID index -> trace PID index */
  guint16 *provider_map;        /* local provider id -> trace provider id */
} Segment;

/* One chunk of a stream's temporary entries, as the merge reads it. */
typedef struct
{
  EtlIndexEntry *data;          /* NULL once released */
  guint32 n;
  guint32 seg;
  gint remaining;               /* atomic: entries no range has read yet */
} StreamChunk;

typedef struct
{
  StreamChunk *chunks;
  guint64 *base;                /* stream index of each chunk's first entry */
  guint n_chunks;
  guint64 n;
} Stream;

/* The hook cache of one scan worker: HookId -> local provider id + 1 | flags,
 * valid when its generation is the segment's. */
typedef struct
{
  guint32 *val;
  guint32 *gen;
  guint32 cur;
} HookCache;

typedef struct
{
  EtlTrace *trace;
  guint n_threads;
  Segment *segs;
  guint n_segs;
  Stream *streams;
  guint n_streams;
  gint next;                    /* atomic: the next segment or range to take */
  gint cancelled;               /* atomic */
  GCancellable *cancellable;
  /* progress, in units of 16 bytes (a gsize counts them atomically) */
  gsize units_total;
  gsize units_done;             /* atomic */
  gsize merge_total;            /* index entries to merge */
  gsize merge_done;             /* atomic */
  EtlProgressFunc progress;
  gpointer progress_data;
  double last_fraction;
  /* merge */
  EtlIndexEntry *index;
  guint n_ranges;
  guint64 *bounds;              /* (n_ranges + 1) × n_streams stream indexes */
  guint64 *range_out;           /* n_ranges + 1 output positions */
  GArray **range_feed;          /* per range and list (FEED_LISTS): index positions (guint64) of feed records */
} Open;

#define CHUNK_BYTES (CHUNK_ENTRIES * sizeof (EtlIndexEntry))

/* The merge's feed lists: decoded records, kept lifetime records, kept file name records. */
#define FEED_LISTS 3

static inline guint
feed_list (guint kind)
{
  return kind == ETL_FEED_LIFETIME ? 1 : kind == ETL_FEED_FILE_NAME ? 2 : 0;
}

/*
 * Temporary chunks come straight from mmap() where there is one, so that a
 * released chunk leaves the resident set at once (malloc() may keep blocks of
 * this size in its heap once its mmap threshold has grown).  Elsewhere
 * g_malloc().
 */
static EtlIndexEntry *
chunk_alloc (void)
{
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  void *p = mmap (NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (p == MAP_FAILED)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, (gsize) CHUNK_BYTES);
  return p;
#else
  return g_malloc (CHUNK_BYTES);
#endif
}

static void
chunk_free (EtlIndexEntry *chunk)
{
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  munmap (chunk, CHUNK_BYTES);
#else
  g_free (chunk);
#endif
}

#define SCAN_SHARE 0.5
#define MERGE_SHARE 0.45

static void
open_report_progress (Open *o)
{
  double fraction;

  if (o->progress == NULL || o->units_total == 0)
    return;
  /* The scan reads the buffers, the merge writes the index: about half the
   * time each (bench-scale); the feed after them is short. */
  fraction = SCAN_SHARE * (double) (gsize) g_atomic_pointer_get (&o->units_done) / (double) o->units_total;
  if (o->merge_total > 0)
    fraction += MERGE_SHARE * (double) (gsize) g_atomic_pointer_get (&o->merge_done) / (double) o->merge_total;
  if (fraction - o->last_fraction >= 0.005 || fraction >= 1.0)
    {
      o->last_fraction = fraction;
      o->progress (MIN (fraction, 1.0), o->progress_data);
    }
}

static void
segment_tables_init (Segment *sg)
{
  sg->tables = TRUE;
  pid_set_init (&sg->pids);
  sg->providers = g_array_new (FALSE, FALSE, sizeof (EtlGuid));
  sg->provider_refs = g_array_new (FALSE, FALSE, sizeof (OrderRef));
  sg->provider_class = g_byte_array_new ();
  sg->provider_ids = g_hash_table_new_full (etl_guid_hash, etl_guid_equal_func, g_free, NULL);
  sg->losses = g_array_new (FALSE, FALSE, sizeof (LossItem));
  sg->problems = g_array_new (FALSE, FALSE, sizeof (ProblemItem));
}

static void
segment_free_chunks (Segment *sg)
{
  for (guint i = 0; sg->chunks != NULL && i < sg->chunks->len; i++)
    chunk_free (g_ptr_array_index (sg->chunks, i));
  g_clear_pointer (&sg->chunks, g_ptr_array_unref);
}

static void
segment_clear (Segment *sg)
{
  segment_free_chunks (sg);
  if (!sg->tables)
    return;
  pid_set_clear (&sg->pids);
  g_array_unref (sg->providers);
  g_array_unref (sg->provider_refs);
  g_byte_array_unref (sg->provider_class);
  g_hash_table_unref (sg->provider_ids);
  g_array_unref (sg->losses);
  for (guint i = 0; i < sg->problems->len; i++)
    g_clear_error (&g_array_index (sg->problems, ProblemItem, i).error);
  g_array_unref (sg->problems);
  g_free (sg->pid_map);
  g_free (sg->provider_map);
  sg->tables = FALSE;
}

/* Where the serial walk would be now: right after this segment's last record. */
static inline OrderRef
segment_ref (const Segment *sg)
{
  OrderRef r = { ORDER_SEGMENT, { 0, 0 } };

  if (sg->n > 0)
    {
      r.cls = ORDER_AFTER;
      r.key = sg->last_key;
    }
  return r;
}

static void
segment_add_problem_error (Segment *sg, GError *error)
{
  ProblemItem p;

  /* A segment's problems beyond MAX_PROBLEMS_PER_FILE come after that many
   * of its file's, so they could never be kept. */
  if (sg->problems->len >= MAX_PROBLEMS_PER_FILE)
    {
      sg->n_problems_dropped++;
      g_error_free (error);
      return;
    }
  p.error = error;
  p.ref = segment_ref (sg);
  g_array_append_val (sg->problems, p);
}

static void
segment_add_problem (Segment *sg, const EtlFile *f, gint code, guint64 offset, const char *format, ...)
  G_GNUC_PRINTF (5, 6);

/* file_add_problem()'s message, kept with its place in the serial order. */
static void
segment_add_problem (Segment *sg, const EtlFile *f, gint code, guint64 offset, const char *format, ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  if (sg->problems->len >= MAX_PROBLEMS_PER_FILE)
    {
      sg->n_problems_dropped++;
      return;
    }
  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  segment_add_problem_error (sg, g_error_new (ETL_ERROR, code, "%s: offset %" G_GUINT64_FORMAT " (0x%"
                                              G_GINT64_MODIFIER "x): %s", f->info.path, offset, offset, reason));
}

/* intern_provider() for one segment: local ids, with the place of first use. */
static guint16
segment_intern_provider (Segment *sg, const EtlGuid *guid)
{
  gpointer value;
  guint id;
  guint8 cls;
  OrderRef ref;

  if (g_hash_table_lookup_extended (sg->provider_ids, guid, NULL, &value))
    return (guint16) (GPOINTER_TO_UINT (value) - 1);
  if (sg->providers->len >= PROVIDER_OVERFLOW)
    return PROVIDER_OVERFLOW;
  id = sg->providers->len;
  g_array_append_val (sg->providers, *guid);
  ref = segment_ref (sg);
  g_array_append_val (sg->provider_refs, ref);
  cls = (guint8) etl_trace_feed_classify_provider (guid);
  g_byte_array_append (sg->provider_class, &cls, 1);
  g_hash_table_insert (sg->provider_ids, g_memdup2 (guid, sizeof *guid), GUINT_TO_POINTER (id + 1));
  return (guint16) id;
}

static void
segment_add_rt_loss (Segment *sg, gint64 filetime, const EtlBuffer *b, guint opcode)
{
  LossItem l;

  l.loss.filetime = filetime;
  l.loss.file = b->file;
  l.loss.cpu = b->cpu;
  l.loss.kind = ETL_LOSS_RT_LOST_EVENT + (opcode - ETL_RT_LOST_EVENT_OPCODE);
  l.loss.count = 1;
  l.loss.sequence = b->sequence;
  l.ref = segment_ref (sg);
  g_array_append_val (sg->losses, l);
}

/* The scan of one segment: cursor_advance() over its buffers, every record kept. */
static void
segment_scan (Open *o, Segment *sg, HookCache *hc, gboolean caller)
{
  EtlTrace *trace = o->trace;
  EtlIndexEntry *chunk = NULL;
  guint32 in_chunk = CHUNK_ENTRIES;

  segment_tables_init (sg);
  sg->chunks = g_ptr_array_new ();
  sg->sorted = TRUE;
  hc->cur++;
  for (guint bi = sg->first_buf; bi < sg->end_buf; bi++)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, bi);
      EtlFile *f = g_ptr_array_index (trace->files, b->file);
      const guint8 *data;
      gsize len, pos;
      GBytes *hold = NULL;
      GError *error = NULL;

      if (((bi - sg->first_buf) & 7) == 0
          && (g_atomic_int_get (&o->cancelled) || g_cancellable_is_cancelled (o->cancellable)))
        {
          g_atomic_int_set (&o->cancelled, 1);
          return;
        }
      g_atomic_pointer_add (&o->units_done, b->disk_size / 16);
      if (caller)
        open_report_progress (o);
      if (!buffer_load (trace, b, &data, &len, &hold, &error))
        {
          segment_add_problem_error (sg, error);
          continue;
        }
      for (pos = ETL_WMI_BUFFER_HEADER_SIZE; pos < len && !etl_record_is_end_marker (data + pos, len - pos);)
        {
          EtlRecordPeek pk;
          EtlRecord r;
          guint32 rec_offset;
          gint64 ft;
          guint16 pid16, provider;
          guint8 feed = ETL_FEED_NONE;

          if (etl_record_peek (data + pos, len - pos, &pk) != ETL_PEEK_OK)
            {
              if (!etl_record_decode (data + pos, len - pos, &r, &error))
                {
                  segment_add_problem (sg, f, ETL_ERROR_CORRUPT, b->offset + pos,
                                       "%s; the rest of this buffer (processor %u, SequenceNumber %" G_GINT64_FORMAT
                                       ") was skipped", error->message, b->cpu, b->sequence);
                  g_clear_error (&error);
                  break;
                }
              peek_from_record (&pk, &r);
            }
          sg->n_records++;
          sg->by_type[pk.header_type % ETL_N_HEADER_TYPES]++;
          rec_offset = (guint32) pos;
          pos += etl_align8 (pk.size);
          if (pk.kind == ETL_RECORD_KIND_OTHER)
            {
              sg->n_skipped++;
              continue;
            }
          ft = file_filetime_fast (f, pk.ts_raw);
          pid16 = pk.has_pid && pk.pid != NO_PID ? pid_set_intern (&sg->pids, pk.pid) : PID16_NONE;
          if (pk.by_hook)
            {
              guint32 v = hc->val[pk.hook_id];

              if (G_UNLIKELY (hc->gen[pk.hook_id] != hc->cur))
                {
                  EtlKernelEventInfo info;
                  EtlGuid guid = { 0 };

                  if (etl_names_kernel_event (pk.hook_id, &info) && info.provider != NULL)
                    guid = *info.provider;
                  v = (guint32) segment_intern_provider (sg, &guid) + 1;
                  if (etl_is_rt_lost (&guid, pk.opcode))
                    v |= HOOK_RT_LOST;
                  v |= (guint32) etl_trace_feed_classify_hook (pk.hook_id) << HOOK_FEED_SHIFT;
                  hc->val[pk.hook_id] = v;
                  hc->gen[pk.hook_id] = hc->cur;
                }
              provider = (guint16) ((v & ~(HOOK_RT_LOST | HOOK_FEED_MASK)) - 1);
              feed = (guint8) ((v & HOOK_FEED_MASK) >> HOOK_FEED_SHIFT);
              if (G_UNLIKELY (v & HOOK_RT_LOST))
                segment_add_rt_loss (sg, ft, b, pk.opcode);
            }
          else
            {
              if (!sg->has_last_guid || memcmp (&sg->last_guid, &pk.provider, sizeof pk.provider) != 0)
                {
                  sg->last_guid = pk.provider;
                  sg->last_provider = segment_intern_provider (sg, &pk.provider);
                  sg->has_last_guid = TRUE;
                }
              provider = sg->last_provider;
              /* An overflowed provider has no class, as in the serial walk. */
              if (G_UNLIKELY (provider < sg->provider_class->len && sg->provider_class->data[provider] != 0))
                feed = (guint8) etl_trace_feed_classify (sg->provider_class->data[provider], pk.header_type,
                                                         pk.opcode, data + rec_offset, pk.size);
              else if (G_UNLIKELY (pk.opcode == ETL_EVENTSOURCE_MANIFEST_OPCODE
                                   && pk.kind == ETL_RECORD_KIND_MANIFEST))
                feed = (guint8) etl_trace_feed_classify (ETL_FEED_CLASS_NONE, pk.header_type, pk.opcode,
                                                         data + rec_offset, pk.size);
              if (G_UNLIKELY (etl_is_rt_lost (&pk.provider, pk.opcode)))
                segment_add_rt_loss (sg, ft, b, pk.opcode);
            }

          if (G_UNLIKELY (in_chunk == CHUNK_ENTRIES))
            {
              chunk = chunk_alloc ();
              g_ptr_array_add (sg->chunks, chunk);
              in_chunk = 0;
            }
          entry_set (&chunk[in_chunk++], ft, bi, rec_offset, pk.header_type, feed, pid16, provider);
          if (G_UNLIKELY (feed == ETL_FEED_LIFETIME || feed == ETL_FEED_FILE_NAME))
            sg->keep_bytes[feed == ETL_FEED_FILE_NAME] += pk.size;
          if (sg->n == 0)
            {
              sg->first_key.ft = ft;
              sg->first_key.pos = (guint64) bi << 32 | rec_offset;
            }
          else if (ft < sg->last_key.ft)
            sg->sorted = FALSE;
          if (sg->first_nonzero == 0)
            sg->first_nonzero = ft;
          sg->last_key.ft = ft;
          sg->last_key.pos = (guint64) bi << 32 | rec_offset;
          sg->n++;
        }
      g_clear_pointer (&hold, g_bytes_unref);
    }
}

typedef void (*OpenJob) (Open *o, gboolean caller);

typedef struct
{
  Open *o;
  OpenJob job;
  GMutex lock;
  GCond done;
  guint running; /* helper threads still in @job, under @lock */
} OpenThread;

static gpointer
open_thread_main (gpointer data)
{
  OpenThread *t = data;

  t->job (t->o, FALSE);
  g_mutex_lock (&t->lock);
  t->running--;
  g_cond_signal (&t->done);
  g_mutex_unlock (&t->lock);
  return NULL;
}

#define OPEN_PROGRESS_INTERVAL_US 20000

/* Runs @job on up to @n_threads threads, the calling thread one of them
 * (caller = TRUE: only it reports progress); the jobs take their work items
 * from o->next.  A thread that cannot be created leaves its share to the
 * others.  When the caller runs out of items first it keeps reporting the
 * others' progress every 20 ms until they finish, so the bar moves however
 * the items fell between the threads. */
static void
open_run (Open *o, OpenJob job, guint n_threads)
{
  GThread *threads[MAX_OPEN_THREADS];
  OpenThread t = { o, job };
  guint n = 0;

  g_mutex_init (&t.lock);
  g_cond_init (&t.done);
  g_atomic_int_set (&o->next, 0);
  for (guint i = 1; i < MIN (n_threads, MAX_OPEN_THREADS); i++)
    {
      GThread *th;

      g_mutex_lock (&t.lock);
      t.running++;
      g_mutex_unlock (&t.lock);
      th = g_thread_try_new ("etl-open", open_thread_main, &t, NULL);
      if (th != NULL)
        threads[n++] = th;
      else
        {
          g_mutex_lock (&t.lock);
          t.running--;
          g_mutex_unlock (&t.lock);
        }
    }
  job (o, TRUE);
  g_mutex_lock (&t.lock);
  while (t.running > 0)
    {
      gint64 until = g_get_monotonic_time () + OPEN_PROGRESS_INTERVAL_US;

      if (!g_cond_wait_until (&t.done, &t.lock, until) && t.running > 0)
        {
          g_mutex_unlock (&t.lock);
          open_report_progress (o);
          g_mutex_lock (&t.lock);
        }
    }
  g_mutex_unlock (&t.lock);
  for (guint i = 0; i < n; i++)
    g_thread_join (threads[i]);
  g_cond_clear (&t.done);
  g_mutex_clear (&t.lock);
}

static void
scan_job (Open *o, gboolean caller)
{
  HookCache hc;
  gint i;

  hc.val = g_new0 (guint32, 65536);
  hc.gen = g_new0 (guint32, 65536);
  hc.cur = 0;
  while (!g_atomic_int_get (&o->cancelled) && (i = g_atomic_int_add (&o->next, 1)) < (gint) o->n_segs)
    segment_scan (o, &o->segs[i], &hc, caller);
  g_free (hc.val);
  g_free (hc.gen);
}

/* The serial walk's order of what segment @seg recorded as its @seq-th item. */
typedef struct
{
  OrderRef ref;
  guint seg;
  guint seq;
  gpointer item;
} Ordered;

static inline gint
compare_merge_keys (const MergeKey *x, const MergeKey *y)
{
  if (x->ft != y->ft)
    return x->ft < y->ft ? -1 : 1;
  return x->pos < y->pos ? -1 : (x->pos > y->pos);
}

static gint
compare_merge_keys_func (gconstpointer a, gconstpointer b)
{
  return compare_merge_keys (a, b);
}

static gint
compare_ordered (gconstpointer a, gconstpointer b)
{
  const Ordered *x = a, *y = b;
  gint c;

  if (x->ref.cls != y->ref.cls)
    return x->ref.cls < y->ref.cls ? -1 : 1;
  c = compare_merge_keys (&x->ref.key, &y->ref.key);
  if (c != 0)
    return c;
  if (x->seg != y->seg)
    return x->seg < y->seg ? -1 : 1;
  return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static void
ordered_add (GArray *ordered, const Open *o, guint seg, guint seq, OrderRef ref, gpointer item)
{
  Ordered x;

  x.ref = ref.cls == ORDER_SEGMENT ? o->segs[seg].start_ref : ref;
  x.seg = seg;
  x.seq = seq;
  x.item = item;
  g_array_append_val (ordered, x);
}

static const guint8 *cached_buffer (EtlTrace *trace, guint buffer, GBytes **hold, gsize *len, GError **error);

/* The provider of a record whose segment had more than 65535: from its header. */
static guint16
provider_reread (Open *o, const EtlIndexEntry *e)
{
  EtlTrace *trace = o->trace;
  GBytes *hold = NULL;
  const guint8 *data;
  gsize len;
  EtlRecord r;
  gpointer value;
  guint16 id = PROVIDER_OVERFLOW;

  data = cached_buffer (trace, e->buffer, &hold, &len, NULL);
  if (data != NULL && entry_offset (e) < len
      && etl_record_decode (data + entry_offset (e), len - entry_offset (e), &r, NULL)
      && g_hash_table_lookup_extended (trace->provider_ids, &r.provider, NULL, &value))
    id = (guint16) (GPOINTER_TO_UINT (value) - 1);
  g_clear_pointer (&hold, g_bytes_unref);
  return id;
}

/* The entry at stream index @q. */
static const EtlIndexEntry *
stream_entry (const Stream *st, guint64 q, guint *chunk)
{
  guint lo = 0, hi = st->n_chunks;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (st->base[mid] <= q)
        lo = mid;
      else
        hi = mid;
    }
  if (chunk != NULL)
    *chunk = lo;
  return &st->chunks[lo].data[q - st->base[lo]];
}

/* How many entries of @st come before @key. */
static guint64
stream_lower_bound (const Stream *st, const MergeKey *key)
{
  guint64 lo = 0, hi = st->n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      const EtlIndexEntry *e = stream_entry (st, mid, NULL);
      MergeKey k = { entry_filetime (e), entry_pos (e) };

      if (compare_merge_keys (&k, key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

typedef struct
{
  StreamChunk *chunks;
  guint ci;
  const EtlIndexEntry *p;
  const EtlIndexEntry *start;   /* where this range began reading chunk ci */
  const EtlIndexEntry *end;
  guint64 left;
  const guint16 *pid_map;
  const guint16 *provider_map;
} RangeCursor;

static void
range_cursor_set_chunk (Open *o, RangeCursor *c, guint64 offset)
{
  StreamChunk *ch = &c->chunks[c->ci];
  const Segment *sg = &o->segs[ch->seg];

  c->start = c->p = ch->data + offset;
  c->end = ch->data + ch->n;
  c->pid_map = sg->pid_map;
  c->provider_map = sg->provider_map;
}

/* Moves on; a chunk every range is done with is released. */
static inline void
range_cursor_next (Open *o, RangeCursor *c)
{
  c->p++;
  c->left--;
  if (G_UNLIKELY (c->left == 0 || c->p == c->end))
    {
      StreamChunk *ch = &c->chunks[c->ci];
      gint used = (gint) (c->p - c->start);

      if (g_atomic_int_add (&ch->remaining, -used) == used)
        {
          chunk_free (ch->data);
          ch->data = NULL;
        }
      if (c->left > 0)
        {
          c->ci++;
          range_cursor_set_chunk (o, c, 0);
        }
    }
}

/* Merges key ranges into their slices of the index. */
static void
merge_job (Open *o, gboolean caller)
{
  guint ns = o->n_streams;
  LoserTree lt;
  RangeCursor *cur;
  gint r;

  for (lt.k = 1; lt.k < ns; lt.k *= 2)
    ;
  lt.tree = g_new0 (guint, lt.k);
  lt.key_time = g_new (gint64, lt.k);
  lt.key_pos = g_new (guint64, lt.k);
  cur = g_new0 (RangeCursor, lt.k);

  while (!g_atomic_int_get (&o->cancelled) && (r = g_atomic_int_add (&o->next, 1)) < (gint) o->n_ranges)
    {
      EtlIndexEntry *out = o->index + o->range_out[r];
      guint64 n_out = o->range_out[r + 1] - o->range_out[r];
      guint64 out_pos = o->range_out[r];

      for (guint s = 0; s < lt.k; s++)
        {
          RangeCursor *c = &cur[s];

          memset (c, 0, sizeof *c);
          if (s < ns && o->bounds[(r + 1) * ns + s] > o->bounds[r * ns + s])
            {
              const Stream *st = &o->streams[s];
              guint64 lo = o->bounds[r * ns + s];

              c->chunks = st->chunks;
              c->left = o->bounds[(r + 1) * ns + s] - lo;
              stream_entry (st, lo, &c->ci);
              range_cursor_set_chunk (o, c, lo - st->base[c->ci]);
              lt.key_time[s] = entry_filetime (c->p);
              lt.key_pos[s] = entry_pos (c->p);
            }
          else
            {
              lt.key_time[s] = G_MAXINT64;
              lt.key_pos[s] = G_MAXUINT64;
            }
        }
      lt.tree[0] = tree_build (&lt, 1);

      for (guint64 i = 0; i < n_out; i++)
        {
          guint w = lt.tree[0];
          RangeCursor *c = &cur[w];
          EtlIndexEntry e = *c->p;

          if (G_UNLIKELY (e.packed & ENTRY_FEED_MASK))
            g_array_append_val (o->range_feed[r * FEED_LISTS + feed_list (entry_feed (&e))], out_pos);
          out_pos++;
          if (e.pid < PID16_REREAD)
            e.pid = c->pid_map[e.pid];
          if (G_LIKELY (e.provider != PROVIDER_OVERFLOW))
            e.provider = c->provider_map[e.provider];
          else
            e.provider = provider_reread (o, &e);
          out[i] = e;
          range_cursor_next (o, c);
          if (c->left > 0)
            {
              lt.key_time[w] = entry_filetime (c->p);
              lt.key_pos[w] = entry_pos (c->p);
            }
          else
            {
              lt.key_time[w] = G_MAXINT64;
              lt.key_pos[w] = G_MAXUINT64;
            }
          tree_replay (&lt, w);
          if (G_UNLIKELY ((i & 0xFFFF) == 0xFFFF))
            {
              g_atomic_pointer_add (&o->merge_done, 0x10000);
              if (caller)
                open_report_progress (o);
            }
          if (G_UNLIKELY ((i & 0xFFFF) == 0xFFFF)
              && (g_atomic_int_get (&o->cancelled) || g_cancellable_is_cancelled (o->cancellable)))
            {
              g_atomic_int_set (&o->cancelled, 1);
              break;
            }
        }
    }
  (void) caller;
  g_free (lt.tree);
  g_free (lt.key_time);
  g_free (lt.key_pos);
  g_free (cur);
}

/* Splits the merged sequence into o->n_ranges key ranges of about equal size. */
static void
open_split (Open *o)
{
  guint ns = o->n_streams, nr = o->n_ranges;
  g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (MergeKey));

  o->bounds = g_new0 (guint64, (gsize) (nr + 1) * ns);
  o->range_out = g_new0 (guint64, nr + 1);
  o->range_feed = g_new0 (GArray *, nr * FEED_LISTS);
  for (guint r = 0; r < nr * FEED_LISTS; r++)
    o->range_feed[r] = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint s = 0; s < ns; s++)
    o->bounds[(gsize) nr * ns + s] = o->streams[s].n;
  if (nr > 1)
    {
      /* At most about 65,536 samples in all (a hostile file may have that many streams). */
      guint per_stream = CLAMP (65536 / MAX (ns, 1), 1, 16 * nr);

      for (guint s = 0; s < ns; s++)
        for (guint i = 0; o->streams[s].n > 0 && i < per_stream; i++)
          {
            const EtlIndexEntry *e = stream_entry (&o->streams[s], o->streams[s].n * i / per_stream, NULL);
            MergeKey k = { entry_filetime (e), entry_pos (e) };

            g_array_append_val (samples, k);
          }
      g_array_sort (samples, compare_merge_keys_func);
      for (guint r = 1; r < nr; r++)
        {
          const MergeKey *split = &g_array_index (samples, MergeKey, (gsize) samples->len * r / nr);

          for (guint s = 0; s < ns; s++)
            o->bounds[(gsize) r * ns + s] = stream_lower_bound (&o->streams[s], split);
        }
    }
  for (guint r = 0; r <= nr; r++)
    for (guint s = 0; s < ns; s++)
      o->range_out[r] += o->bounds[(gsize) r * ns + s];
}

static void
open_clear (Open *o)
{
  for (guint s = 0; o->streams != NULL && s < o->n_streams; s++)
    {
      for (guint c = 0; c < o->streams[s].n_chunks; c++)
        if (o->streams[s].chunks[c].data != NULL)
          chunk_free (o->streams[s].chunks[c].data);
      g_free (o->streams[s].chunks);
      g_free (o->streams[s].base);
    }
  g_clear_pointer (&o->streams, g_free);
  for (guint i = 0; o->segs != NULL && i < o->n_segs; i++)
    segment_clear (&o->segs[i]);
  g_clear_pointer (&o->segs, g_free);
  g_clear_pointer (&o->bounds, g_free);
  g_clear_pointer (&o->range_out, g_free);
  for (guint r = 0; o->range_feed != NULL && r < o->n_ranges * FEED_LISTS; r++)
    g_array_unref (o->range_feed[r]);
  g_clear_pointer (&o->range_feed, g_free);
}

/* After the scan: per-file counts, the trace's PID table and provider ids,
 * losses, problems and the decode feed, all in the serial walk's order. */
static void
open_gather (Open *o)
{
  EtlTrace *trace = o->trace;
  guint n_files = trace->files->len;
  g_autofree MergeKey *last_key = g_new0 (MergeKey, n_files);
  g_autofree gboolean *has_last = g_new0 (gboolean, n_files);
  g_autoptr (GArray) ordered = g_array_new (FALSE, FALSE, sizeof (Ordered));
  PidSet pids;

  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];
      EtlFile *f = g_ptr_array_index (trace->files, sg->file);

      f->info.n_records += sg->n_records;
      f->info.n_skipped += sg->n_skipped;
      for (guint t = 0; t < ETL_N_HEADER_TYPES; t++)
        f->info.records_by_header_type[t] += sg->by_type[t];
      if (sg->n == 0)
        continue;
      /* The merged order is the key order: the file's first non-zero
       * FILETIME (merge_serial()'s rule) and the FILETIME of its last key. */
      if (sg->first_nonzero != 0 && (f->info.first_filetime == 0 || sg->first_nonzero < f->info.first_filetime))
        f->info.first_filetime = sg->first_nonzero;
      if (!has_last[sg->file] || compare_merge_keys (&sg->last_key, &last_key[sg->file]) > 0)
        {
          last_key[sg->file] = sg->last_key;
          has_last[sg->file] = TRUE;
          f->info.last_filetime = sg->last_key.ft;
        }
    }

  /* PIDs: any order gives the same answers; segment order. */
  pid_set_init (&pids);
  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];

      sg->pid_map = g_new (guint16, MAX (sg->pids.n, 1));
      for (guint j = 0; j < sg->pids.n; j++)
        sg->pid_map[j] = pid_set_intern (&pids, sg->pids.pids[j]);
    }
  trace->n_pids = pids.n;
  trace->pids = g_steal_pointer (&pids.pids);
  pid_set_clear (&pids);

  /* Providers: ids in the order the serial walk first met them. */
  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];

      sg->provider_map = g_new (guint16, MAX (sg->providers->len, 1));
      for (guint j = 0; j < sg->providers->len; j++)
        ordered_add (ordered, o, i, j, g_array_index (sg->provider_refs, OrderRef, j), NULL);
    }
  g_array_sort (ordered, compare_ordered);
  for (guint i = 0; i < ordered->len; i++)
    {
      const Ordered *x = &g_array_index (ordered, Ordered, i);
      Segment *sg = &o->segs[x->seg];

      sg->provider_map[x->seq] = intern_provider (trace, &g_array_index (sg->providers, EtlGuid, x->seq));
    }

  /* Real-time loss records. */
  g_array_set_size (ordered, 0);
  for (guint i = 0; i < o->n_segs; i++)
    for (guint j = 0; j < o->segs[i].losses->len; j++)
      {
        LossItem *l = &g_array_index (o->segs[i].losses, LossItem, j);

        ordered_add (ordered, o, i, j, l->ref, l);
      }
  g_array_sort (ordered, compare_ordered);
  for (guint i = 0; i < ordered->len; i++)
    g_array_append_val (trace->losses, ((LossItem *) g_array_index (ordered, Ordered, i).item)->loss);

  /* Problems, within each file's cap. */
  g_array_set_size (ordered, 0);
  for (guint i = 0; i < o->n_segs; i++)
    {
      EtlFile *f = g_ptr_array_index (trace->files, o->segs[i].file);

      f->info.n_problems_dropped += o->segs[i].n_problems_dropped;
      for (guint j = 0; j < o->segs[i].problems->len; j++)
        ordered_add (ordered, o, i, j, g_array_index (o->segs[i].problems, ProblemItem, j).ref,
                     &g_array_index (o->segs[i].problems, ProblemItem, j));
    }
  g_array_sort (ordered, compare_ordered);
  for (guint i = 0; i < ordered->len; i++)
    {
      const Ordered *x = &g_array_index (ordered, Ordered, i);
      ProblemItem *p = x->item;
      EtlFile *f = g_ptr_array_index (trace->files, o->segs[x->seg].file);

      if (f->info.problems->len < MAX_PROBLEMS_PER_FILE)
        g_ptr_array_add (f->info.problems, g_steal_pointer (&p->error));
      else
        {
          f->info.n_problems_dropped++;
          g_clear_error (&p->error);
        }
    }
}

/*
 * The decode feed, in merged order: the records the merge found flagged, read
 * again (merge_feed() does the same from the cursor).  Compressed buffers are
 * decompressed again, through a small cache: each stream's feed records come
 * in its own order, so a buffer is rarely decompressed twice here.
 */
static void
open_feed (Open *o)
{
  EtlTrace *trace = o->trace;
  struct
  {
    guint buffer;
    GBytes *hold;
  } cache[64];

  memset (cache, 0, sizeof cache);
  if (trace->feed == NULL)
    return;
  etl_trace_feed_keep_by_index (trace->feed);
  /* Kept records (lists 1 and 2) in one piece when the feed's caps cannot
   * stop any: no need to read them.  Each list keeps its own order; the
   * lists do not depend on one another. */
  for (guint list = 1; list < FEED_LISTS; list++)
    {
      g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (guint64));
      guint64 bytes = 0;

      for (guint i = 0; i < o->n_segs; i++)
        bytes += o->segs[i].keep_bytes[list - 1];
      for (guint r = 0; r < o->n_ranges; r++)
        g_array_append_vals (all, o->range_feed[r * FEED_LISTS + list]->data,
                             o->range_feed[r * FEED_LISTS + list]->len);
      if (etl_trace_feed_keep_indexes (trace->feed, list == 1 ? ETL_FEED_LIFETIME : ETL_FEED_FILE_NAME, all, bytes))
        for (guint r = 0; r < o->n_ranges; r++)
          g_array_set_size (o->range_feed[r * FEED_LISTS + list], 0);
    }
  for (guint q = 0; q < o->n_ranges * FEED_LISTS; q++)
    for (guint i = 0; i < o->range_feed[q]->len; i++)
      {
        EtlIndexEntry *e = &o->index[g_array_index (o->range_feed[q], guint64, i)];
        const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, e->buffer);
        EtlFile *f = g_ptr_array_index (trace->files, b->file);
        guint kind = entry_feed (e);
        guint32 off = entry_offset (e);
        const guint8 *data;
        gsize len;
        EtlRecord rec;

        if (!b->compressed)
          {
            data = f->data + b->offset;
            len = b->used;
          }
        else
          {
            guint slot = ((guint) b->file * 131u + b->cpu) % G_N_ELEMENTS (cache);

            if (cache[slot].hold == NULL || cache[slot].buffer != e->buffer)
              {
                g_clear_pointer (&cache[slot].hold, g_bytes_unref);
                if (!buffer_load (trace, b, &data, &len, &cache[slot].hold, NULL))
                  continue;
                cache[slot].buffer = e->buffer;
              }
            data = g_bytes_get_data (cache[slot].hold, &len);
          }
        if (trace->feed == NULL || off >= len)
          continue;
        if (kind == ETL_FEED_LIFETIME || kind == ETL_FEED_FILE_NAME)
          {
            EtlRecordPeek pk;

            /* Kept by index: the feed needs only the record's size (a record
             * that peeks decodes, etl_record_peek()). */
            if (etl_record_peek (data + off, len - off, &pk) == ETL_PEEK_OK)
              {
                memset (&rec, 0, sizeof rec);
                rec.raw = data + off;
                rec.raw_len = len - off;
                rec.size = pk.size;
                etl_trace_feed_add_at (trace->feed, (EtlFeedKind) kind, &rec, (guint64) (e - o->index));
                continue;
              }
          }
        if (!etl_record_decode (data + off, len - off, &rec, NULL))
          continue;
        rec.file = b->file;
        rec.cpu = b->cpu;
        rec.filetime = entry_filetime (e);
        rec.file_offset = b->offset + off;
        etl_trace_feed_add_at (trace->feed, (EtlFeedKind) kind, &rec, (guint64) (e - o->index));
      }
  for (guint i = 0; i < G_N_ELEMENTS (cache); i++)
    g_clear_pointer (&cache[i].hold, g_bytes_unref);
}

/* Moves the segments' chunks into per-stream lists for the merge. */
static void
open_build_streams (Open *o)
{
  o->streams = g_new0 (Stream, o->n_streams);
  for (guint i = 0; i < o->n_segs; i++)
    o->streams[o->segs[i].stream].n_chunks += o->segs[i].chunks->len;
  for (guint s = 0; s < o->n_streams; s++)
    {
      o->streams[s].chunks = g_new0 (StreamChunk, MAX (o->streams[s].n_chunks, 1));
      o->streams[s].base = g_new0 (guint64, MAX (o->streams[s].n_chunks, 1));
      o->streams[s].n_chunks = 0;
    }
  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];
      Stream *st = &o->streams[sg->stream];

      for (guint c = 0; c < sg->chunks->len; c++)
        {
          StreamChunk *ch = &st->chunks[st->n_chunks];

          ch->data = g_ptr_array_index (sg->chunks, c);
          ch->n = (guint32) MIN ((guint64) CHUNK_ENTRIES, sg->n - (guint64) c * CHUNK_ENTRIES);
          ch->seg = i;
          ch->remaining = (gint) ch->n;
          st->base[st->n_chunks++] = st->n;
          st->n += ch->n;
        }
      g_ptr_array_set_size (sg->chunks, 0);
    }
}

/*
 * The open's read, index and merge, on etl_trace_get_open_threads() threads
 * (see "Parallel open" above).  Same results as merge_serial() whatever the
 * number of threads.
 */
static gboolean
merge_parallel (EtlTrace *trace, EtlProgressFunc progress, gpointer progress_data, GCancellable *cancellable,
                GError **error)
{
  Open o = { 0 };
  guint n_threads = etl_trace_get_open_threads ();
  guint64 total = 0, seg_bytes = 0, target, n_total = 0;
  gboolean sorted = TRUE;
  const Segment *prev = NULL;

  if (g_atomic_int_get (&serial_open))
    return merge_serial (trace, 0, progress, progress_data, cancellable, error);
  o.trace = trace;
  o.cancellable = cancellable;
  o.progress = progress;
  o.progress_data = progress_data;
  o.last_fraction = -1.0;

  /* Segments: each stream cut every `target` bytes, ~4 per thread in all. */
  for (guint i = 0; i < trace->buffers->len; i++)
    {
      total += g_array_index (trace->buffers, EtlBuffer, i).disk_size;
      o.units_total += g_array_index (trace->buffers, EtlBuffer, i).disk_size / 16;
    }
  target = MAX (total / (4 * n_threads), (guint64) 1024 * 1024);
  for (guint pass = 0; pass < 2; pass++)
    {
      o.n_segs = o.n_streams = 0;
      for (guint i = 0; i < trace->buffers->len; i++)
        {
          const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, i);
          const EtlBuffer *p = i ? b - 1 : NULL;
          gboolean new_stream = p == NULL || p->file != b->file || p->cpu != b->cpu;

          if (new_stream || seg_bytes >= target)
            {
              if (pass == 1)
                {
                  o.segs[o.n_segs].stream = new_stream ? o.n_streams : o.n_streams - 1;
                  o.segs[o.n_segs].file = b->file;
                  o.segs[o.n_segs].first_buf = i;
                }
              o.n_segs++;
              o.n_streams += new_stream;
              seg_bytes = 0;
            }
          if (pass == 1)
            o.segs[o.n_segs - 1].end_buf = i + 1;
          seg_bytes += b->disk_size;
        }
      if (pass == 0)
        o.segs = g_new0 (Segment, MAX (o.n_segs, 1));
    }

  open_run (&o, scan_job, MIN (n_threads, MAX (o.n_segs, 1)));
  if (g_atomic_int_get (&o.cancelled) || g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  /* Where each segment starts in the serial order; whether every stream is in time order. */
  for (guint i = 0; i < o.n_segs; i++)
    {
      Segment *sg = &o.segs[i];

      /* prev: the last segment of this stream with records */
      if (i == 0 || o.segs[i - 1].stream != sg->stream)
        prev = NULL;
      if (prev != NULL)
        {
          sg->start_ref.cls = ORDER_AFTER;
          sg->start_ref.key = prev->last_key;
          if (sg->n > 0 && sg->first_key.ft < prev->last_key.ft)
            sorted = FALSE;
        }
      else
        {
          sg->start_ref.cls = ORDER_START;
          sg->start_ref.key.ft = 0;
          sg->start_ref.key.pos = sg->stream;
        }
      if (!sg->sorted)
        sorted = FALSE;
      if (sg->n > 0)
        prev = sg;
      n_total += sg->n;
    }
  if (!sorted)
    {
      open_clear (&o);
      return merge_serial (trace, n_total, progress, progress_data, cancellable, error);
    }

  open_gather (&o);
  open_build_streams (&o);
  o.n_ranges = n_total >= 65536 ? n_threads : 1;
  open_split (&o);
  o.index = g_new (EtlIndexEntry, MAX (n_total, 1));
  if (n_total * sizeof (EtlIndexEntry) >= 8 * 1024 * 1024)
    index_advise (o.index, n_total * sizeof (EtlIndexEntry));
  o.merge_total = n_total;
  open_run (&o, merge_job, o.n_ranges);
  if (g_atomic_int_get (&o.cancelled) || g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  open_feed (&o);
  trace->index = g_steal_pointer (&o.index);
  trace->n_index = n_total;
  open_clear (&o);
  collect_buffer_losses (trace);
  g_array_sort (trace->losses, compare_losses);
  if (progress)
    progress (1.0, progress_data);
  return TRUE;

cancelled:
  g_free (o.index);
  open_clear (&o);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Opening                                                                  */

static void
etl_file_free (EtlFile *f)
{
  g_clear_pointer (&f->map, g_mapped_file_unref);
  g_free (f->info.path);
  g_free (f->info.logger_name);
  g_free (f->info.log_file_name);
  g_ptr_array_unref (f->info.problems);
  g_free (f);
}

static EtlFile *
etl_file_open (const char *path, GError **error)
{
  EtlFile *f = g_new0 (EtlFile, 1);
  GStatBuf st;

  f->info.path = g_strdup (path);
  f->info.problems = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  f->info.logger_name = g_strdup ("");
  f->info.log_file_name = g_strdup ("");

  if (g_stat (path, &st) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: offset 0 (0x0): cannot open: %s", path,
                   g_strerror (saved_errno));
      etl_file_free (f);
      return NULL;
    }
  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: offset 0 (0x0): not a regular file%s", path,
                   S_ISDIR (st.st_mode) ? " (a directory)" : "");
      etl_file_free (f);
      return NULL;
    }
  if (st.st_size < ETL_WMI_BUFFER_HEADER_SIZE)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_EMPTY,
                   "%s: offset 0 (0x0): the file is %" G_GINT64_FORMAT " bytes, smaller than one WMI_BUFFER_HEADER (72 bytes)",
                   path, (gint64) st.st_size);
      etl_file_free (f);
      return NULL;
    }

  {
    GError *map_error = NULL;

    /* Read-only: writable = FALSE maps the file PROT_READ, MAP_PRIVATE. */
    f->map = g_mapped_file_new (path, FALSE, &map_error);
    if (f->map == NULL)
      {
        g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: offset 0 (0x0): cannot map: %s", path, map_error->message);
        g_error_free (map_error);
        etl_file_free (f);
        return NULL;
      }
  }
  f->data = (const guint8 *) g_mapped_file_get_contents (f->map);
  f->size = g_mapped_file_get_length (f->map);
  f->info.file_size = f->size;
  if (f->data == NULL || f->size < ETL_WMI_BUFFER_HEADER_SIZE)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_EMPTY, "%s: offset 0 (0x0): the file is empty", path);
      etl_file_free (f);
      return NULL;
    }
  return f;
}

/* The schemas every trace starts with, registered once per process: the
 * kernel's MOF classes and the manifests in the user's folder
 * ($XDG_DATA_HOME/etlscope/manifests/, read at the first open).
 * (TraceLogging events describe themselves.) */
static gpointer
build_base_registry (gpointer data)
{
  EtlSchemaRegistry *base = etl_schema_registry_new ();

  etl_mof_register_kernel (base);
  etl_manifest_load_user_dir (base, NULL, NULL);
  return base;
}

static void
trace_register_schemas (EtlTrace *trace)
{
  static GOnce base_once = G_ONCE_INIT;
  EtlSchemaRegistry *base = g_once (&base_once, build_base_registry, NULL);

  etl_schema_registry_add_all (trace->registry, base);
}

/**
 * etl_trace_open_full:
 * @paths: (array zero-terminated=1): the .etl files to open together
 * @manifests: (array zero-terminated=1) (nullable): instrumentation manifest
 *   files (XML) to describe events with, as etl_trace_load_manifest()
 * @progress: (scope call) (nullable): called as buffers are read
 * @progress_data: closure for @progress
 * @cancellable: (nullable): a #GCancellable; checked between buffers
 * @error: return location for a #GError
 *
 * Opens the files read-only, walks every buffer, decompresses compressed ones,
 * decodes each TRACE_LOGFILE_HEADER, and merges the per-processor streams of
 * all files into one sequence ordered by FILETIME.  Files are never written.
 * The reading, decompression, indexing and merging run on
 * etl_trace_get_open_threads() threads (etl_trace_set_open_threads(),
 * `ETLSCOPE_THREADS`); @progress is still called from the calling thread only,
 * and the result is the same with any number of threads.  When a processor's
 * records are out of time order (clock skew, a hostile file) the files are
 * read a second time by a serial walk, whose order defines the result, and
 * @progress starts again from 0.
 *
 * A file that cannot be read at all (missing, empty, not an .etl file) fails
 * the whole open with %ETL_ERROR_OPEN, %ETL_ERROR_EMPTY or %ETL_ERROR_NOT_ETL.
 * Damage inside a file does not: the valid records are kept and each problem
 * (%ETL_ERROR_TRUNCATED, %ETL_ERROR_CORRUPT, %ETL_ERROR_DECOMPRESS) is listed
 * in #EtlFileInfo.problems.  Cancellation returns %NULL with
 * %G_IO_ERROR_CANCELLED.
 *
 * During the same walk it gathers what decoding needs (see
 * etl_trace_get_schema_registry()): the kernel's MOF layouts and the user's
 * manifests ($XDG_DATA_HOME/etlscope/manifests/, read once per process, at
 * the first open), then the KernelTraceControl MetaData (TDH) records and
 * EventSource manifests of every file opened together, the SysConfig volume
 * mapping and the process table (etl-trace-feed.c: only those records are
 * decoded in full; the rest keep the fast path).  A manifest in @manifests
 * that cannot be read fails the open with the manifest parser's error
 * (etl_manifest_load_file()).  On Windows the registry also asks the
 * machine's TDH about events the trace's own metadata does not describe
 * (etl_tdh_system_attach()).
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
EtlTrace *
etl_trace_open_full (const char *const *paths, const char *const *manifests, EtlProgressFunc progress,
                     gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlTrace) trace = NULL;

  g_return_val_if_fail (paths != NULL && paths[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  trace = g_new0 (EtlTrace, 1);
  g_atomic_ref_count_init (&trace->ref_count);
  trace->files = g_ptr_array_new_with_free_func ((GDestroyNotify) etl_file_free);
  trace->buffers = g_array_new (FALSE, FALSE, sizeof (EtlBuffer));
  trace->providers = g_array_new (FALSE, FALSE, sizeof (EtlGuid));
  trace->provider_ids = g_hash_table_new_full (etl_guid_hash, etl_guid_equal_func, g_free, NULL);
  trace->losses = g_array_new (FALSE, FALSE, sizeof (EtlLoss));
  trace->cache = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, (GDestroyNotify) g_bytes_unref);
  g_queue_init (&trace->cache_order);
  g_mutex_init (&trace->cache_lock);
  trace->origin = G_MAXINT64;
  trace->file_names_once = (GOnce) G_ONCE_INIT;
  trace->processes_once = (GOnce) G_ONCE_INIT;
  trace->provider_feed = g_byte_array_new ();
  trace->registry = etl_schema_registry_new ();
  /* On Windows, events the trace does not describe ask the machine's TDH. */
  etl_tdh_system_attach (trace->registry);
  trace->volumes = etl_volume_map_new ();
  trace_register_schemas (trace);
  for (guint i = 0; manifests != NULL && manifests[i] != NULL; i++)
    if (!etl_manifest_load_file (trace->registry, manifests[i], NULL, error))
      return NULL;
  trace->processes = etl_process_table_new (trace->registry);
  trace->feed = etl_trace_feed_new (trace->registry, trace->volumes, trace->processes);

  for (guint i = 0; paths[i] != NULL; i++)
    {
      EtlFile *f;
      guint first_buffer = trace->buffers->len;

      if (i >= G_MAXUINT16)
        {
          g_set_error (error, ETL_ERROR, ETL_ERROR_OPEN, "%s: offset 0 (0x0): too many files (at most 65535)", paths[i]);
          return NULL;
        }
      f = etl_file_open (paths[i], error);
      if (f == NULL)
        return NULL;
      g_ptr_array_add (trace->files, f);
      if (!file_walk_buffers (trace, f, i, cancellable, error))
        return NULL;
      file_populate (trace, f, first_buffer);
      if (trace->buffers->len == first_buffer)
        {
          g_set_error (error, ETL_ERROR, ETL_ERROR_NOT_ETL,
                       "%s: offset 0 (0x0): not an .etl file: no valid WMI_BUFFER_HEADER", f->info.path);
          return NULL;
        }
      if (!file_read_header (trace, f, first_buffer, error))
        return NULL;
      file_prepare_clock (f);
      trace->origin = MIN (trace->origin, f->info.header_filetime);
      trace->n_cpus = MAX (trace->n_cpus, f->info.n_cpus);
    }

  g_array_sort (trace->buffers, compare_buffers);
  if (!merge_parallel (trace, progress, progress_data, cancellable, error))
    return NULL;
  etl_trace_feed_finish (trace->feed);
  trace->lifetime_records = etl_trace_feed_steal_lifetimes (trace->feed);
  trace->file_name_records = etl_trace_feed_steal_file_names (trace->feed);
  g_clear_pointer (&trace->feed, etl_trace_feed_free);

  return g_steal_pointer (&trace);
}

/**
 * etl_trace_open:
 * @paths: (array zero-terminated=1): the .etl files to open together
 * @progress: (scope call) (nullable): called as buffers are read
 * @progress_data: closure for @progress
 * @cancellable: (nullable): a #GCancellable; checked between buffers
 * @error: return location for a #GError
 *
 * etl_trace_open_full() without manifest files.
 *
 * Returns: (transfer full) (nullable): the trace, or %NULL with @error set
 */
EtlTrace *
etl_trace_open (const char *const *paths, EtlProgressFunc progress, gpointer progress_data,
                GCancellable *cancellable, GError **error)
{
  return etl_trace_open_full (paths, NULL, progress, progress_data, cancellable, error);
}

/**
 * etl_trace_ref:
 * @trace: a trace
 *
 * Returns: (transfer full): @trace with one more reference
 */
EtlTrace *
etl_trace_ref (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_atomic_ref_count_inc (&trace->ref_count);
  return trace;
}

/**
 * etl_trace_unref:
 * @trace: (transfer full): a trace
 *
 * Drops a reference; the last one unmaps the files.
 */
void
etl_trace_unref (EtlTrace *trace)
{
  g_return_if_fail (trace != NULL);
  if (!g_atomic_ref_count_dec (&trace->ref_count))
    return;
  g_ptr_array_unref (trace->files);
  g_array_unref (trace->buffers);
  g_free (trace->index);
  g_free (trace->pids);
  g_array_unref (trace->providers);
  g_hash_table_unref (trace->provider_ids);
  g_array_unref (trace->losses);
  g_hash_table_unref (trace->cache);
  g_queue_clear (&trace->cache_order);
  g_mutex_clear (&trace->cache_lock);
  g_clear_pointer (&trace->feed, etl_trace_feed_free);
  g_clear_pointer (&trace->provider_feed, g_byte_array_unref);
  if (trace->lifetime_records != NULL)
    etl_trace_feed_build_process_table (g_steal_pointer (&trace->lifetime_records), NULL, NULL, NULL);
  g_clear_pointer (&trace->processes, etl_process_table_unref);
  g_clear_pointer (&trace->file_names, etl_mof_file_names_free);
  if (trace->file_name_records != NULL)
    etl_mof_file_names_free (etl_trace_feed_build_file_names (g_steal_pointer (&trace->file_name_records),
                                                              NULL, NULL, NULL, NULL));
  g_clear_pointer (&trace->volumes, etl_volume_map_free);
  g_clear_pointer (&trace->registry, etl_schema_registry_unref);
  g_free (trace);
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                */

/**
 * etl_trace_get_n_files:
 * @trace: a trace
 *
 * Returns: the number of files opened together
 */
guint
etl_trace_get_n_files (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, 0);
  return trace->files->len;
}

/**
 * etl_trace_get_file_info:
 * @trace: a trace
 * @file: file index, below etl_trace_get_n_files()
 *
 * Returns: (transfer none): the file's header fields and what the reader found
 */
const EtlFileInfo *
etl_trace_get_file_info (EtlTrace *trace, guint file)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (file < trace->files->len, NULL);
  return &((EtlFile *) g_ptr_array_index (trace->files, file))->info;
}

/**
 * etl_trace_get_n_problems:
 * @trace: a trace
 *
 * Returns: problems recorded over all files (damaged buffers, truncation, …)
 */
guint
etl_trace_get_n_problems (EtlTrace *trace)
{
  guint n = 0;

  g_return_val_if_fail (trace != NULL, 0);
  for (guint i = 0; i < trace->files->len; i++)
    n += ((EtlFile *) g_ptr_array_index (trace->files, i))->info.problems->len;
  return n;
}

/**
 * etl_trace_get_n_records:
 * @trace: a trace
 *
 * Returns: records in the merged sequence (skipped ERROR/WNODE/unknown records excluded)
 */
guint64
etl_trace_get_n_records (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, 0);
  return trace->n_index;
}

static const guint8 *
cached_buffer (EtlTrace *trace, guint buffer, GBytes **hold, gsize *len, GError **error)
{
  const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, buffer);
  const guint8 *data;
  GBytes *bytes;

  if (!b->compressed)
    {
      EtlFile *f = g_ptr_array_index (trace->files, b->file);

      *hold = NULL;
      *len = b->used;
      return f->data + b->offset;
    }

  g_mutex_lock (&trace->cache_lock);
  bytes = g_hash_table_lookup (trace->cache, GUINT_TO_POINTER (buffer));
  if (bytes != NULL)
    {
      *hold = g_bytes_ref (bytes);
      g_mutex_unlock (&trace->cache_lock);
      *len = g_bytes_get_size (*hold);
      return g_bytes_get_data (*hold, NULL);
    }
  g_mutex_unlock (&trace->cache_lock);

  if (!buffer_load (trace, b, &data, len, &bytes, error))
    return NULL;

  g_mutex_lock (&trace->cache_lock);
  if (!g_hash_table_contains (trace->cache, GUINT_TO_POINTER (buffer)))
    {
      if (g_queue_get_length (&trace->cache_order) >= BUFFER_CACHE_SIZE)
        g_hash_table_remove (trace->cache, g_queue_pop_head (&trace->cache_order));
      g_hash_table_insert (trace->cache, GUINT_TO_POINTER (buffer), g_bytes_ref (bytes));
      g_queue_push_tail (&trace->cache_order, GUINT_TO_POINTER (buffer));
    }
  g_mutex_unlock (&trace->cache_lock);
  *hold = bytes;
  return data;
}

/**
 * etl_trace_get_record:
 * @trace: a trace
 * @index: position in the merged sequence, below etl_trace_get_n_records()
 * @record: (out caller-allocates): the decoded record; release with etl_record_clear()
 * @error: return location for %ETL_ERROR_DECOMPRESS or %ETL_ERROR_CORRUPT
 *
 * Re-reads one record from the mapping (or a cached decompressed buffer)
 * and decodes it.  Thread-safe.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_trace_get_record (EtlTrace *trace, guint64 index, EtlRecord *record, GError **error)
{
  const EtlIndexEntry *e;
  const EtlBuffer *b;
  GBytes *hold = NULL;
  const guint8 *data;
  gsize len;

  g_return_val_if_fail (trace != NULL, FALSE);
  g_return_val_if_fail (index < trace->n_index, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);

  e = &trace->index[index];
  b = &g_array_index (trace->buffers, EtlBuffer, e->buffer);
  data = cached_buffer (trace, e->buffer, &hold, &len, error);
  if (data == NULL)
    {
      memset (record, 0, sizeof *record);
      return FALSE;
    }
  if (!etl_record_decode (data + entry_offset (e), len - entry_offset (e), record, error))
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  record->hold = hold;
  record->file = b->file;
  record->cpu = b->cpu;
  record->filetime = entry_filetime (e);
  record->file_offset = b->offset + entry_offset (e);
  return TRUE;
}

/**
 * etl_trace_peek_record:
 * @trace: a trace
 * @index: position in the merged sequence, below etl_trace_get_n_records()
 * @brief: (out caller-allocates): the record's header type, kind, HookId,
 *   opcode, event id, version, ThreadId/ProcessId, FILETIME and payload;
 *   release with etl_record_brief_clear()
 *
 * The cheap read of what a per-record pass needs: for the kernel header
 * types (SYSTEM_TRACE_HEADER, its compact form and PERFINFO_TRACE_HEADER,
 * see etw-facts.md) it reads those fields in place without building an
 * #EtlRecord; other header types go through etl_record_decode().  Every
 * field equals that of the #EtlRecord etl_trace_get_record() gives, and the
 * same records fail: the record's Size is checked against its header and
 * the buffer's used bytes.  @brief->user_data points into the mapping or a
 * decompressed buffer that @brief holds a reference on.  Thread-safe.
 *
 * Returns: %TRUE on success; %FALSE (and @brief zeroed) for a record that
 *   cannot be read (a buffer that does not decompress, a malformed record)
 */
gboolean
etl_trace_peek_record (EtlTrace *trace, guint64 index, EtlRecordBrief *brief)
{
  const EtlIndexEntry *e;
  GBytes *hold = NULL;
  const guint8 *data, *p;
  gsize len, avail, size, hdr;
  guint8 type;

  g_return_val_if_fail (trace != NULL, FALSE);
  g_return_val_if_fail (index < trace->n_index, FALSE);
  g_return_val_if_fail (brief != NULL, FALSE);

  memset (brief, 0, sizeof *brief);
  e = &trace->index[index];
  data = cached_buffer (trace, e->buffer, &hold, &len, NULL);
  if (data == NULL || entry_offset (e) > len)
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  p = data + entry_offset (e);
  avail = len - entry_offset (e);
  type = avail >= 8 ? p[2] : 0;
  if (avail >= 8 && (p[3] & ETL_MARKER_TRACE_HEADER_FLAG) && (p[3] & 0xD0) != 0x90
      && type >= ETL_HEADER_TYPE_SYSTEM32 && type <= ETL_HEADER_TYPE_COMPACT64)
    hdr = type <= ETL_HEADER_TYPE_SYSTEM64 ? ETL_SYSTEM_HEADER_SIZE : ETL_COMPACT_HEADER_SIZE;
  else if (avail >= 8 && (p[3] & ETL_MARKER_TRACE_HEADER_FLAG) && (p[3] & 0xD0) != 0x90
           && (type == ETL_HEADER_TYPE_PERFINFO32 || type == ETL_HEADER_TYPE_PERFINFO64))
    hdr = ETL_PERFINFO_HEADER_SIZE;
  else
    {
      /* Every other header type: the full decode, then its fields. */
      EtlRecord r;

      if (!etl_record_decode (p, avail, &r, NULL))
        {
          g_clear_pointer (&hold, g_bytes_unref);
          return FALSE;
        }
      brief->header_type = r.header_type;
      brief->kind = r.kind;
      brief->has_pid = r.has_pid;
      brief->opcode = r.opcode;
      brief->hook_id = r.hook_id;
      brief->event_id = r.event_id;
      brief->version = r.version;
      brief->pid = r.pid;
      brief->tid = r.tid;
      brief->user_data = r.user_data;
      brief->user_data_len = r.user_data_len;
      brief->filetime = entry_filetime (e);
      brief->hold = hold;
      return TRUE;
    }

  /* SYSTEM, COMPACT, PERFINFO: a u16 Size at byte 4, the HookId at 6. */
  size = etl_read_u16 (p + 4);
  if (size < hdr || size > avail)
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  brief->header_type = type;
  brief->version = (guint8)etl_read_u16 (p);
  brief->hook_id = etl_read_u16 (p + 6);
  brief->opcode = brief->hook_id & 0xFF;
  if (hdr == ETL_PERFINFO_HEADER_SIZE)
    brief->kind = ETL_RECORD_KIND_PERFINFO;
  else
    {
      brief->kind = ETL_RECORD_KIND_KERNEL;
      brief->tid = etl_read_u32 (p + 8);
      brief->pid = etl_read_u32 (p + 12);
      brief->has_pid = TRUE;
    }
  brief->user_data_len = size - hdr;
  brief->user_data = brief->user_data_len > 0 ? p + hdr : NULL;
  brief->filetime = entry_filetime (e);
  brief->hold = hold;
  return TRUE;
}

/**
 * etl_record_brief_clear:
 * @brief: a brief filled by etl_trace_peek_record(), or zeroed
 *
 * Drops the reference on the buffer @brief->user_data points into.
 */
void
etl_record_brief_clear (EtlRecordBrief *brief)
{
  g_return_if_fail (brief != NULL);
  g_clear_pointer (&brief->hold, g_bytes_unref);
  brief->user_data = NULL;
  brief->user_data_len = 0;
}

/**
 * etl_trace_get_filetime:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's FILETIME (from the index, no file access)
 */
gint64
etl_trace_get_filetime (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return entry_filetime (&trace->index[index]);
}

/**
 * etl_trace_get_cpu:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's processor index
 */
guint
etl_trace_get_cpu (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return g_array_index (trace->buffers, EtlBuffer, trace->index[index].buffer).cpu;
}

/**
 * etl_trace_get_file:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the index of the file the record comes from
 */
guint
etl_trace_get_file (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return g_array_index (trace->buffers, EtlBuffer, trace->index[index].buffer).file;
}

/**
 * etl_trace_get_pid:
 * @trace: a trace
 * @index: position in the merged sequence
 * @pid: (out) (optional): the process id
 *
 * Returns: %FALSE when the record's header has no process id (PERFINFO)
 */
gboolean
etl_trace_get_pid (EtlTrace *trace, guint64 index, guint32 *pid)
{
  guint16 p;
  EtlRecord r;
  gboolean has_pid;

  g_return_val_if_fail (index < trace->n_index, FALSE);
  p = trace->index[index].pid;
  if (G_LIKELY (p < PID16_REREAD))
    {
      if (pid)
        *pid = trace->pids[p];
      return TRUE;
    }
  if (p == PID16_NONE)
    {
      if (pid)
        *pid = NO_PID;
      return FALSE;
    }
  /* The PID table was full: the record's header says it. */
  if (!etl_trace_get_record (trace, index, &r, NULL))
    {
      if (pid)
        *pid = NO_PID;
      return FALSE;
    }
  has_pid = r.has_pid && r.pid != NO_PID;
  if (pid)
    *pid = has_pid ? r.pid : NO_PID;
  etl_record_clear (&r);
  return has_pid;
}

/**
 * etl_trace_get_provider_index:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's provider as an index for etl_trace_get_provider()
 *   (G_MAXUINT16 past 65535 distinct providers)
 */
guint
etl_trace_get_provider_index (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return trace->index[index].provider;
}

/**
 * etl_trace_get_n_providers:
 * @trace: a trace
 *
 * Returns: distinct provider GUIDs seen
 */
guint
etl_trace_get_n_providers (EtlTrace *trace)
{
  return trace->providers->len;
}

/**
 * etl_trace_get_provider:
 * @trace: a trace
 * @provider_index: from etl_trace_get_provider_index()
 *
 * Returns: (transfer none) (nullable): the provider GUID
 */
const EtlGuid *
etl_trace_get_provider (EtlTrace *trace, guint provider_index)
{
  if (provider_index >= trace->providers->len)
    return NULL;
  return &g_array_index (trace->providers, EtlGuid, provider_index);
}

/**
 * etl_trace_get_header_type:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's trace header type
 */
guint8
etl_trace_get_header_type (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return entry_header_type (&trace->index[index]);
}

/**
 * etl_trace_lower_bound:
 * @trace: a trace
 * @filetime: a FILETIME
 *
 * Binary search in the merged index.
 *
 * Returns: the first position whose FILETIME is ≥ @filetime (n_records if none)
 */
guint64
etl_trace_lower_bound (EtlTrace *trace, gint64 filetime)
{
  guint64 lo = 0, hi = trace->n_index;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (entry_filetime (&trace->index[mid]) < filetime)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * etl_trace_get_n_cpus:
 * @trace: a trace
 *
 * Returns: highest processor index in any buffer of any file, plus one
 */
guint
etl_trace_get_n_cpus (EtlTrace *trace)
{
  return trace->n_cpus;
}

/**
 * etl_trace_get_origin:
 * @trace: a trace
 *
 * Returns: FILETIME of the earliest EventTrace header record among the files:
 *   relative times are measured from it
 */
gint64
etl_trace_get_origin (EtlTrace *trace)
{
  return trace->origin;
}

/**
 * etl_trace_get_first_filetime:
 * @trace: a trace
 *
 * Returns: FILETIME of the first merged record, or the origin with none
 */
gint64
etl_trace_get_first_filetime (EtlTrace *trace)
{
  return trace->n_index ? entry_filetime (&trace->index[0]) : trace->origin;
}

/**
 * etl_trace_get_last_filetime:
 * @trace: a trace
 *
 * Returns: FILETIME of the last merged record, or the origin with none
 */
gint64
etl_trace_get_last_filetime (EtlTrace *trace)
{
  return trace->n_index ? entry_filetime (&trace->index[trace->n_index - 1]) : trace->origin;
}

/**
 * etl_trace_filetime_to_ms:
 * @trace: a trace
 * @filetime: a FILETIME
 *
 * Returns: milliseconds from etl_trace_get_origin() to @filetime
 */
double
etl_trace_filetime_to_ms (EtlTrace *trace, gint64 filetime)
{
  return (double) (filetime - trace->origin) / 10000.0;
}

/**
 * etl_trace_get_losses:
 * @trace: a trace
 * @n_losses: (out): length of the returned array
 *
 * The loss time series of all files, sorted by time: buffers flagged
 * EVENTS_LOST or BUFFER_LOST, gaps in each file's SequenceNumber series, and
 * real-time lost-event records.  The header totals (EventsLost, BuffersLost)
 * are in #EtlFileInfo.
 *
 * Returns: (transfer none) (array length=n_losses): the losses
 */
const EtlLoss *
etl_trace_get_losses (EtlTrace *trace, guint *n_losses)
{
  *n_losses = trace->losses->len;
  return (const EtlLoss *) (void *) trace->losses->data;
}

/* ------------------------------------------------------------------------ */
/* Decoding                                                                 */

/**
 * etl_trace_get_schema_registry:
 * @trace: a trace
 *
 * The schemas that describe this trace's events: the kernel's MOF layouts,
 * the user's manifests, every file's KernelTraceControl MetaData and
 * EventSource manifests, and manifests loaded with etl_trace_load_manifest().
 *
 * Returns: (transfer none): the registry (thread-safe)
 */
EtlSchemaRegistry *
etl_trace_get_schema_registry (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->registry;
}

/**
 * etl_trace_get_volume_map:
 * @trace: a trace
 *
 * Returns: (transfer none): NT device paths to DOS paths, from the trace's
 *   SysConfig VolumeMapping records (read-only)
 */
const EtlVolumeMap *
etl_trace_get_volume_map (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return trace->volumes;
}

/* EtlTraceFeedReader: the kept records of a parallel open are index positions. */
static gboolean
feed_read_record (gpointer data, guint64 index, EtlRecord *record)
{
  EtlTrace *trace = data;

  return index < trace->n_index && etl_trace_get_record (trace, index, record, NULL);
}

/* The process table from the Process/Thread records the walk kept, on first use. */
static gpointer
build_processes (gpointer data)
{
  EtlTrace *trace = data;

  etl_trace_feed_build_process_table (g_steal_pointer (&trace->lifetime_records), trace->processes,
                                      feed_read_record, trace);
  return trace->processes;
}

/**
 * etl_trace_get_process_table:
 * @trace: a trace
 *
 * The processes and threads of all files.  Their Process and Thread
 * records (kernel, Microsoft-Windows-Kernel-Process) are gathered during
 * the open's walk and decoded at the first call, with every schema the
 * trace knows by then (thread-safe).
 *
 * Returns: (transfer none): the table (read-only, thread-safe)
 */
EtlProcessTable *
etl_trace_get_process_table (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  return g_once (&trace->processes_once, build_processes, trace);
}

/**
 * etl_trace_load_manifest:
 * @trace: a trace
 * @path: an instrumentation manifest (.man / .xml) file
 * @info: (out caller-allocates) (optional): what was registered; see
 *   etl_manifest_load_file()
 * @error: return location for the manifest parser's #GError (file, line,
 *   reason)
 *
 * Registers the events a manifest describes, for File ▸ Load Manifest… after
 * the trace is open.  Decoding done afterwards uses them; the process table
 * built at open is kept.  Thread-safe against decoding in other threads.
 *
 * Returns: %TRUE when the manifest was read
 */
gboolean
etl_trace_load_manifest (EtlTrace *trace, const char *path, EtlManifestInfo *info, GError **error)
{
  g_return_val_if_fail (trace != NULL && path != NULL, FALSE);
  return etl_manifest_load_file (trace->registry, path, info, error);
}

/**
 * etl_trace_decode_record:
 * @trace: a trace
 * @record: one of its records (etl_trace_get_record())
 *
 * etl_decode_record() with the trace's schemas and volume map.
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_trace_decode_record (EtlTrace *trace, const EtlRecord *record)
{
  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  return etl_decode_record (trace->registry, trace->volumes, record);
}

/**
 * etl_trace_decode_record_prefix:
 * @trace: a trace
 * @record: one of its records (etl_trace_get_record())
 * @max_fields: decode at most this many fields
 *
 * etl_decode_record_prefix() with the trace's schemas and volume map: the
 * first @max_fields fields, for previews (the event list's Payload column).
 *
 * Returns: (transfer full): the decoded fields; free with etl_decoded_free()
 */
EtlDecoded *
etl_trace_decode_record_prefix (EtlTrace *trace, const EtlRecord *record, guint max_fields)
{
  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  return etl_decode_record_prefix (trace->registry, trace->volumes, record, max_fields);
}

/**
 * etl_trace_get_record_process:
 * @trace: a trace
 * @record: one of its records
 * @decoded: (nullable): @record's fields when the caller has them (a kernel
 *   record names its process in its payload)
 *
 * etl_process_table_lookup_record() on the trace's process table.
 *
 * Returns: (transfer none) (nullable): the process the record belongs to
 */
const EtlProcess *
etl_trace_get_record_process (EtlTrace *trace, const EtlRecord *record, const EtlDecoded *decoded)
{
  g_return_val_if_fail (trace != NULL && record != NULL, NULL);
  return etl_process_table_lookup_record (etl_trace_get_process_table (trace), record, decoded);
}

/* The FileObject → name table for derived FileName fields, built on first use. */
static gpointer
build_file_names (gpointer data)
{
  EtlTrace *trace = data;

  trace->file_names = etl_trace_feed_build_file_names (g_steal_pointer (&trace->file_name_records), trace->registry,
                                                       trace->volumes, feed_read_record, trace);
  return trace->file_names;
}

/**
 * etl_trace_get_derived_fields:
 * @trace: a trace
 * @record: one of its records
 * @decoded: @record's fields (etl_trace_decode_record())
 *
 * The fields TraceEvent computes for kernel events from their payload and
 * header (etl_mof_derived_fields(): BuildTime, ElapsedTimeMSec, a sample's
 * processor and priority, a thread's creator, the FileName of a FileKey
 * from the trace's FileIo name records — decoded at the first call — …),
 * with the clock of
 * @record's file: PerfFreq for QPC, 10,000,000 for system time,
 * CpuSpeedInMHz × 10^6 for CPU cycles.
 *
 * Returns: (transfer full) (nullable) (element-type EtlField): the derived
 *   fields, or %NULL when none apply; free with g_array_unref()
 */
GArray *
etl_trace_get_derived_fields (EtlTrace *trace, const EtlRecord *record, const EtlDecoded *decoded)
{
  const EtlFileInfo *info;
  gint64 freq = 0;

  g_return_val_if_fail (trace != NULL && record != NULL && decoded != NULL, NULL);
  if (decoded->schema == NULL || decoded->schema->source != ETL_SCHEMA_SOURCE_MOF || record->file >= trace->files->len)
    return NULL;
  info = &((EtlFile *) g_ptr_array_index (trace->files, record->file))->info;
  switch (info->clock_type)
    {
    case ETL_CLOCK_QPC: freq = info->perf_freq; break;
    case ETL_CLOCK_SYSTEM_TIME: freq = 10000000; break;
    case ETL_CLOCK_CPU_CYCLE: freq = (gint64) info->cpu_speed_mhz * 1000000; break;
    default: break;
    }
  return etl_mof_derived_fields (decoded, record, freq, g_once (&trace->file_names_once, build_file_names, trace));
}
