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
 * position).  It keeps a compact index (#EtlIndexEntry, 24 bytes a record) and
 * re-reads records from the mapping, or from a small cache of decompressed
 * buffers, on demand.
 *
 * Nothing read from a file is trusted: every count is capped, every access
 * bounds-checked, and a problem is recorded with the file, the byte offset and
 * the reason while the valid records are kept.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace.h"

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
#include "etl-trace-feed-private.h"
#include "etl-xpress.h"

#define MAX_PROBLEMS_PER_FILE    1000
#define MAX_BUFFER_BYTES         (16u * 1024 * 1024 + ETL_WMI_BUFFER_HEADER_SIZE) /* BufferSize ≤ 16384 KB */
#define BUFFER_CACHE_SIZE        32
#define NO_PID                   G_MAXUINT32
#define PROVIDER_OVERFLOW        G_MAXUINT16

G_DEFINE_QUARK (etl-error-quark, etl_error)

/* One buffer of one file. */
typedef struct
{
  guint64 offset;        /* byte offset of the buffer in its file */
  guint32 disk_size;     /* BufferSize: bytes on disk */
  guint32 used;          /* SavedOffset, clamped: bytes of header + records */
  gint64 sequence;       /* SequenceNumber */
  gint64 timestamp;      /* TimeStamp, raw clock */
  guint16 flags;         /* BufferFlag */
  guint16 type;          /* BufferType */
  guint16 cpu;           /* processor index */
  guint16 file;
  guint8 compressed;
} EtlBuffer;

/* One record in the merged index: 24 bytes. */
typedef struct
{
  gint64 filetime;
  guint32 buffer;        /* index into trace->buffers */
  guint32 offset;        /* record offset within the (uncompressed) buffer */
  guint32 pid;           /* NO_PID when the header has none */
  guint16 provider;      /* index into trace->providers */
  guint8 header_type;
  guint8 reserved;
} EtlIndexEntry;

G_STATIC_ASSERT (sizeof (EtlIndexEntry) == 24);

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
  EtlIndexEntry *index;
  guint64 n_index;
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

          if (saved > b.disk_size)
            {
              file_add_problem (f, ETL_ERROR_CORRUPT, off,
                                "SavedOffset %u is beyond BufferSize %u; records read up to BufferSize",
                                saved, b.disk_size);
              saved = b.disk_size;
            }
          if (saved < ETL_WMI_BUFFER_HEADER_SIZE)
            saved = ETL_WMI_BUFFER_HEADER_SIZE;
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

typedef struct
{
  EtlTrace *trace;
  Cursor *cursors;
  guint n_cursors;
  /* Loser tree over the cursors (Knuth, TAOCP 5.4.1): tree[0] is the winner,
   * tree[1..k-1] the loser of each match; k = leaves, a power of two.  The keys
   * sit together, away from the cursors: (FILETIME, buffer << 32 | offset). */
  guint *tree;
  guint k;
  gint64 *key_time;     /* G_MAXINT64 for an exhausted or padding leaf */
  guint64 *key_pos;
  EtlIndexEntry *index;
  guint64 n_index;
  guint64 cap_index;
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
leaf_less (const Merge *m, guint a, guint b)
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
      m->key_time[leaf] = c->filetime;
      m->key_pos[leaf] = (guint64) c->buf << 32 | c->rec_offset;
    }
  else
    {
      m->key_time[leaf] = G_MAXINT64;
      m->key_pos[leaf] = G_MAXUINT64;
    }
}

/* Plays the matches of the subtree at @node; returns its winner. */
static guint
tree_build (Merge *m, guint node)
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
tree_replay (Merge *m, guint w)
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

  if (x->filetime != y->filetime)
    return x->filetime < y->filetime ? -1 : 1;
  if (x->buffer != y->buffer)
    return x->buffer < y->buffer ? -1 : 1;
  return x->offset < y->offset ? -1 : (x->offset > y->offset);
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

static gboolean
merge_all (EtlTrace *trace, EtlProgressFunc progress, gpointer progress_data, GCancellable *cancellable,
           GError **error)
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

  for (m.k = 1; m.k < n_streams; m.k *= 2)
    ;
  m.cursors = g_new0 (Cursor, m.k);
  m.tree = g_new0 (guint, m.k);
  m.key_time = g_new (gint64, m.k);
  m.key_pos = g_new (guint64, m.k);
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

  m.cap_index = 4096;
  m.index = g_new (EtlIndexEntry, m.cap_index);
  m.hook_cache = g_new0 (guint32, 65536);
  first_time = g_new0 (gint64, trace->files->len);
  last_time = g_new0 (gint64, trace->files->len);

  for (guint i = 0; i < m.k; i++)
    leaf_set_key (&m, i, i < m.n_cursors && cursor_advance (&m, &m.cursors[i]));
  m.tree[0] = tree_build (&m, 1);

  while (!m.cancelled)
    {
      guint w = m.tree[0];
      Cursor *c = &m.cursors[w];
      EtlIndexEntry *e;

      if (m.key_time[w] == G_MAXINT64)
        break; /* the smallest key is the end: every stream is done */
      if (G_UNLIKELY (m.n_index == m.cap_index))
        {
          m.cap_index *= 2;
          m.index = g_renew (EtlIndexEntry, m.index, m.cap_index);
          if (m.cap_index * sizeof (EtlIndexEntry) >= 8 * 1024 * 1024)
            index_advise (m.index, m.cap_index * sizeof (EtlIndexEntry));
        }
      e = &m.index[m.n_index];
      e->filetime = c->filetime;
      e->buffer = c->buf;
      e->offset = c->rec_offset;
      e->pid = c->pid;
      e->provider = c->provider;
      e->header_type = c->header_type;
      e->reserved = 0;
      if (m.n_index > 0 && e[-1].filetime > e->filetime)
        sorted = FALSE;
      if (first_time[c->file] == 0)
        first_time[c->file] = e->filetime;
      last_time[c->file] = e->filetime;
      m.n_index++;

      /* The record is still in the cursor's buffer: hand what decoding
       * needs (metadata, manifests, volumes, lifetimes) over now. */
      if (G_UNLIKELY (c->feed != ETL_FEED_NONE))
        merge_feed (&m, c);

      leaf_set_key (&m, w, cursor_advance (&m, c));
      tree_replay (&m, w);
    }

  for (guint i = 0; i < m.n_cursors; i++)
    g_clear_pointer (&m.cursors[i].hold, g_bytes_unref);
  g_free (m.cursors);
  g_free (m.tree);
  g_free (m.key_time);
  g_free (m.key_pos);
  g_free (m.hook_cache);

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
            f->info.first_filetime = e->filetime;
          f->info.last_filetime = e->filetime;
        }
    }

  collect_buffer_losses (trace);
  g_array_sort (trace->losses, compare_losses);
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
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
 * (etl_manifest_load_file()).
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
  if (!merge_all (trace, progress, progress_data, cancellable, error))
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
  g_array_unref (trace->providers);
  g_hash_table_unref (trace->provider_ids);
  g_array_unref (trace->losses);
  g_hash_table_unref (trace->cache);
  g_queue_clear (&trace->cache_order);
  g_mutex_clear (&trace->cache_lock);
  g_clear_pointer (&trace->feed, etl_trace_feed_free);
  g_clear_pointer (&trace->provider_feed, g_byte_array_unref);
  if (trace->lifetime_records != NULL)
    etl_trace_feed_build_process_table (g_steal_pointer (&trace->lifetime_records), NULL);
  g_clear_pointer (&trace->processes, etl_process_table_unref);
  g_clear_pointer (&trace->file_names, etl_mof_file_names_free);
  if (trace->file_name_records != NULL)
    etl_mof_file_names_free (etl_trace_feed_build_file_names (g_steal_pointer (&trace->file_name_records),
                                                              NULL, NULL));
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
  if (!etl_record_decode (data + e->offset, len - e->offset, record, error))
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  record->hold = hold;
  record->file = b->file;
  record->cpu = b->cpu;
  record->filetime = e->filetime;
  record->file_offset = b->offset + e->offset;
  return TRUE;
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
  return trace->index[index].filetime;
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
  g_return_val_if_fail (index < trace->n_index, FALSE);
  if (pid)
    *pid = trace->index[index].pid;
  return trace->index[index].pid != NO_PID;
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
  return trace->index[index].header_type;
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

      if (trace->index[mid].filetime < filetime)
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
  return trace->n_index ? trace->index[0].filetime : trace->origin;
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
  return trace->n_index ? trace->index[trace->n_index - 1].filetime : trace->origin;
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

/* The process table from the Process/Thread records the walk kept, on first use. */
static gpointer
build_processes (gpointer data)
{
  EtlTrace *trace = data;

  etl_trace_feed_build_process_table (g_steal_pointer (&trace->lifetime_records), trace->processes);
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
                                                       trace->volumes);
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
