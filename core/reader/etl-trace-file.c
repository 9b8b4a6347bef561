/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-file.c: the files of an #EtlTrace and their buffers.
 *
 * Maps a file read-only, walks its WMI_BUFFER_HEADERs, loads (decompresses)
 * a buffer, decodes the TRACE_LOGFILE_HEADER, converts the file's raw
 * timestamps to FILETIME, and lists the losses its buffers show (flags and
 * SequenceNumber gaps).  Problems are kept per file with the offset and the
 * reason.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-private.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "etl-xpress.h"

/* ------------------------------------------------------------------------ */
/* Problems                                                                 */

void
etl_file_add_problem (EtlFile *f, gint code, guint64 offset, const char *format, ...)
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

/*
 * Prepares file_filetime_fast(): when the clock's scale reduces to a whole
 * number (QPC at 10 MHz or any divisor of 10^7, system time), a record's
 * FILETIME is start + delta × num, without the divisions of scale_ticks().
 * Bounds keep every intermediate far from overflow and saturation, so the
 * result is identical to etl_filetime_from_raw(); other values take that path.
 */
void
etl_file_prepare_clock (EtlFile *f)
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
gboolean
etl_trace_buffer_load (EtlTrace *trace, const EtlBuffer *b, const guint8 **data, gsize *len, GBytes **hold,
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
        etl_file_add_problem (f, ETL_ERROR_CORRUPT, off,
                          "SavedOffset %u is outside 0x48..BufferSize %u; records read up to Offset %u",
                          saved, buffer_size, fill);
      return fill;
    }
  if (saved != 0 || fill != 0)
    etl_file_add_problem (f, ETL_ERROR_CORRUPT, off,
                      "SavedOffset %u and Offset %u are outside 0x48..BufferSize %u; records read up to "
                      "the end marker", saved, fill, buffer_size);
  return buffer_size;
}

/* Walks the buffer headers of one file; appends to trace->buffers. */
gboolean
etl_file_walk_buffers (EtlTrace *trace, EtlFile *f, guint file_index, GCancellable *cancellable, GError **error)
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
          etl_file_add_problem (f, ETL_ERROR_TRUNCATED, off,
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
          etl_file_add_problem (f, ETL_ERROR_CORRUPT, off,
                            "BufferSize %u is outside 0x48..%u; the buffers after it cannot be found",
                            b.disk_size, MAX_BUFFER_BYTES);
          break;
        }

      if (b.compressed)
        {
          if (saved < ETL_WMI_BUFFER_HEADER_SIZE || saved > MAX_BUFFER_BYTES)
            {
              etl_file_add_problem (f, ETL_ERROR_CORRUPT, off,
                                "compressed buffer's SavedOffset %u is outside 0x48..%u; buffer skipped",
                                saved, MAX_BUFFER_BYTES);
              goto next;
            }
          if (b.disk_size > left)
            {
              etl_file_add_problem (f, ETL_ERROR_TRUNCATED, off,
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
            etl_file_add_problem (f, ETL_ERROR_TRUNCATED, off,
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
void
etl_file_populate (EtlTrace *trace, EtlFile *f, guint first_buffer)
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
gboolean
etl_file_read_header (EtlTrace *trace, EtlFile *f, guint first_buffer, GError **error)
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
  if (!etl_trace_buffer_load (trace, b, &data, &len, &hold, error))
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

      etl_file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + ETL_TLH_POINTER_SIZE,
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
    etl_file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + off - 32 + 24,
                      "ReservedFlags (clock type) %u is not 1, 2 or 3; timestamps are taken as 100-ns ticks",
                      f->info.clock_type);
  else if (f->info.clock_type == ETL_CLOCK_QPC && f->info.perf_freq <= 0)
    etl_file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + off - 32 + 8,
                      "PerfFreq is %" G_GINT64_FORMAT " with the QPC clock; timestamps are taken as 100-ns ticks",
                      f->info.perf_freq);
  else if (f->info.clock_type == ETL_CLOCK_CPU_CYCLE && f->info.cpu_speed_mhz == 0)
    etl_file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + ETL_TLH_CPU_SPEED_IN_MHZ,
                      "CpuSpeedInMHz is 0 with the CPU cycle clock; timestamps are taken as 100-ns ticks");
  if (f->info.end_time != 0 && f->info.end_time < f->info.start_time)
    etl_file_add_problem (f, ETL_ERROR_CORRUPT, ETL_WMI_BUFFER_HEADER_SIZE + ETL_SYSTEM_HEADER_SIZE + ETL_TLH_END_TIME,
                      "EndTime is before StartTime");
  f->info.header_filetime = file_filetime (f, r.ts_raw);
  return TRUE;
}

void
etl_trace_add_loss (EtlTrace *trace, gint64 filetime, guint file, gint cpu, EtlLossKind kind, guint64 count, gint64 sequence)
{
  EtlLoss loss = { filetime, file, cpu, kind, count, sequence };

  g_array_append_val (trace->losses, loss);
}

static gint
compare_gint64 (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : (x > y);
}

/* Flagged buffers and gaps in each file's SequenceNumber series. */
void
etl_trace_collect_buffer_losses (EtlTrace *trace)
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
            etl_trace_add_loss (trace, when, fi, b->cpu, ETL_LOSS_EVENTS_LOST_BUFFER, 1, b->sequence);
          if (b->flags & ETL_BUFFER_FLAG_BUFFER_LOST)
            etl_trace_add_loss (trace, when, fi, b->cpu, ETL_LOSS_BUFFER_LOST_FLAG, 1, b->sequence);
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

              etl_trace_add_loss (trace, when, fi, -1, ETL_LOSS_SEQUENCE_GAP, step - 1, cur);
            }
        }
    }
}

void
etl_file_free (EtlFile *f)
{
  g_clear_pointer (&f->map, g_mapped_file_unref);
  g_free (f->info.path);
  g_free (f->info.logger_name);
  g_free (f->info.log_file_name);
  g_ptr_array_unref (f->info.problems);
  g_free (f);
}

EtlFile *
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
