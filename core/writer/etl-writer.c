/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-writer
 * @title: EtlWriter
 * @short_description: writes .etl files, and slices of an #EtlTrace
 *
 * An #EtlWriter writes an uncompressed .etl file as Windows does: a header
 * buffer (BufferType 4, SequenceNumber 0) whose first record is the
 * EventTrace header (a SYSTEM64 record, HookId 0x0000) carrying a complete
 * TRACE_LOGFILE_HEADER, then one stream of buffers per processor.  Each
 * processor fills its own buffer; a full buffer is flushed with the next
 * session-wide SequenceNumber, so buffers of different processors interleave
 * in file order as a real session flushes them.  Records are 8-byte aligned
 * (zero padding), SavedOffset counts the used bytes, and the unused tail of
 * every buffer is filled with 0xFF, as the corpus files show.  Every buffer
 * has BufferFlag PROC_INDEX and the processor index in ETW_BUFFER_CONTEXT;
 * those flushed when the file is closed also carry FLUSH_MARKER.
 *
 * The file is written atomically, as g_file_set_contents() does it but
 * streamed (a trace can be gigabytes): into a temporary file in the target's
 * folder, whose header buffer is rewritten with the final counts at
 * etl_writer_close(), then synced (g_fsync()) and renamed over the target.
 * A writer freed without being closed removes its temporary file.
 *
 * Windows: the temporary file is opened with O_BINARY (text mode would turn
 * every 0x0A byte into 0x0D 0x0A), positioned writes use _lseeki64() and
 * _write() where POSIX has pwrite(), and the mode is left as created
 * (Windows has no fchmod(); only the read-only bit would carry over).
 *
 * etl_writer_write_slice() copies a selection of an open #EtlTrace into a
 * new file, keeping each record's bytes.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#ifdef G_OS_WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

#include "etl-format-private.h"
#include "etl-record-private.h"
#include "etl-put-le.h"

#define MIN_BUFFER_SIZE   (4u * 1024)
#define MAX_BUFFER_SIZE   (16u * 1024 * 1024)
#define TLH_FIXED_SIZE    0x118 /* TRACE_LOGFILE_HEADER up to the names, PointerSize 8 */
#define WBH_STATE_FLUSH   3     /* what Windows leaves in WMI_BUFFER_HEADER.State */
#define LOG_FILE_MODE_COMPRESSED 0x04000000u /* EVENT_TRACE_COMPRESSED_MODE (evntrace.h) */

#ifndef O_BINARY
#define O_BINARY 0 /* POSIX has no text mode */
#endif

G_STATIC_ASSERT (ETL_TLH_LOGGER_NAME_PTR + 16 + ETL_TIME_ZONE_INFORMATION_SIZE + 4 + 32 == TLH_FIXED_SIZE);

typedef struct
{
  guint8 *data;          /* buffer_size bytes, or NULL before the first record */
  guint32 used;          /* bytes used, header included, 8-aligned */
  guint32 n_records;
  guint16 flags;         /* BufferFlag bits to set at flush */
} CpuBuffer;

struct _EtlWriter
{
  char *path;
  char *tmp_path;
  int fd;
  EtlWriterHeader header;
  char *logger_name;
  char *log_file_name;
  guint8 time_zone[ETL_TIME_ZONE_INFORMATION_SIZE];
  CpuBuffer *cpus;       /* ETL_WRITER_MAX_CPUS, allocated lazily per CPU */
  guint n_cpus;
  gint64 next_sequence;
  gint64 now_raw;        /* latest raw timestamp seen: the flush TimeStamp */
  gint64 max_raw;
  gboolean any_record;
  guint64 n_records;
  guint64 n_buffers;
  guint64 file_size;
  guint64 lost_events;
  guint64 lost_buffers;
  gboolean failed;
};

/* ------------------------------------------------------------------------ */
/* Little-endian writers                                                    */

/* pwrite() where there is one; a seek and a write on Windows (the writer
 * owns its descriptor and uses it from one thread, so nothing moves the file
 * position in between). */
static gssize
write_at (int fd, const guint8 *data, gsize len, guint64 offset)
{
#ifdef G_OS_WIN32
  if (_lseeki64 (fd, (__int64) offset, SEEK_SET) < 0)
    return -1;
  return _write (fd, data, (unsigned int) MIN (len, (gsize) 1 << 30));
#else
  return pwrite (fd, data, len, (off_t) offset);
#endif
}

static gboolean
write_all (EtlWriter *w, const guint8 *data, gsize len, guint64 offset, GError **error)
{
  while (len > 0)
    {
      gssize n = write_at (w->fd, data, len, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int saved_errno = n < 0 ? errno : ENOSPC;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "%s: cannot write at offset %" G_GUINT64_FORMAT ": %s", w->path, offset,
                       g_strerror (saved_errno));
          w->failed = TRUE;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
      offset += (guint64) n;
    }
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Header                                                                   */

/**
 * etl_writer_header_init:
 * @header: (out caller-allocates): the header to fill
 *
 * Fills @header with what a Windows 10 session writes by default: 64 KiB
 * buffers, Version 0x0501000A, ProviderVersion 19041, one processor,
 * TimerResolution 156,250 (15.625 ms), the QPC clock at 10 MHz, StartTime
 * 2020-01-01T00:00:00Z and a header raw timestamp of 0.
 */
void
etl_writer_header_init (EtlWriterHeader *header)
{
  g_return_if_fail (header != NULL);

  memset (header, 0, sizeof *header);
  header->buffer_size = ETL_WRITER_DEFAULT_BUFFER_SIZE;
  header->version = 0x0501000A;
  header->provider_version = 19041;
  header->number_of_processors = 1;
  header->timer_resolution = 156250;
  header->start_buffers = 1;
  header->cpu_speed_mhz = 2995;
  header->perf_freq = 10000000;
  header->clock_type = ETL_CLOCK_QPC;
  header->start_time = G_GINT64_CONSTANT (132223104000000000); /* 2020-01-01T00:00:00Z */
  header->boot_time = header->start_time - G_GINT64_CONSTANT (36000000000); /* one hour before */
  header->logger_id = 0x20;
}

static void
put_utf16z (GByteArray *out, const char *utf8)
{
  g_autofree gunichar2 *s = NULL;
  glong n = 0;

  if (utf8 != NULL)
    s = g_utf8_to_utf16 (utf8, -1, NULL, &n, NULL);
  for (glong i = 0; s != NULL && i < n; i++)
    {
      guint8 c[2];

      put_u16 (c, s[i]);
      g_byte_array_append (out, c, 2);
    }
  {
    guint8 nul[2] = { 0, 0 };

    g_byte_array_append (out, nul, 2);
  }
}

/* The header buffer: the EventTrace header record with the final counts. */
static guint8 *
build_header_buffer (EtlWriter *w)
{
  const EtlWriterHeader *h = &w->header;
  g_autoptr (GByteArray) rec = g_byte_array_sized_new (512);
  guint8 *buf;
  guint8 *t;
  guint32 size, used;
  guint64 events_lost = h->events_lost + w->lost_events;
  guint64 buffers_lost = h->buffers_lost + w->lost_buffers;

  g_byte_array_set_size (rec, ETL_SYSTEM_HEADER_SIZE + TLH_FIXED_SIZE);
  memset (rec->data, 0, rec->len);

  /* SYSTEM_TRACE_HEADER: version 2, SYSTEM64, TRACE_HEADER_FLAG | EVENT_TRACE_FLAG. */
  put_u16 (rec->data, 2);
  rec->data[2] = ETL_HEADER_TYPE_SYSTEM64;
  rec->data[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (rec->data + 6, ETL_LOG_TYPE_HEADER);
  put_u32 (rec->data + 8, h->header_tid);
  put_u32 (rec->data + 12, h->header_pid);
  put_u64 (rec->data + 16, (guint64) h->header_ts_raw);

  t = rec->data + ETL_SYSTEM_HEADER_SIZE;
  put_u32 (t + ETL_TLH_BUFFER_SIZE, h->buffer_size);
  put_u32 (t + ETL_TLH_VERSION, h->version);
  put_u32 (t + ETL_TLH_PROVIDER_VERSION, h->provider_version);
  put_u32 (t + ETL_TLH_NUMBER_OF_PROCESSORS, MAX (h->number_of_processors, w->n_cpus));
  put_u64 (t + ETL_TLH_END_TIME, (guint64) (h->end_time != 0 ? h->end_time
                                             : w->any_record ? etl_writer_filetime (w, w->max_raw)
                                             : h->start_time));
  put_u32 (t + ETL_TLH_TIMER_RESOLUTION, h->timer_resolution);
  put_u32 (t + ETL_TLH_MAXIMUM_FILE_SIZE, h->maximum_file_size);
  put_u32 (t + ETL_TLH_LOG_FILE_MODE, h->log_file_mode);
  put_u32 (t + ETL_TLH_BUFFERS_WRITTEN, (guint32) MIN (w->n_buffers, G_MAXUINT32));
  put_u32 (t + ETL_TLH_START_BUFFERS, h->start_buffers);
  put_u32 (t + ETL_TLH_POINTER_SIZE, 8);
  put_u32 (t + ETL_TLH_EVENTS_LOST, (guint32) MIN (events_lost, G_MAXUINT32));
  put_u32 (t + ETL_TLH_CPU_SPEED_IN_MHZ, h->cpu_speed_mhz);
  /* LoggerName and LogFileName pointers (8 bytes each) stay 0. */
  memcpy (t + ETL_TLH_LOGGER_NAME_PTR + 16, w->time_zone, ETL_TIME_ZONE_INFORMATION_SIZE);
  put_u64 (t + 0xF8, (guint64) h->boot_time);
  put_u64 (t + 0x100, (guint64) h->perf_freq);
  put_u64 (t + 0x108, (guint64) h->start_time);
  put_u32 (t + 0x110, h->clock_type);
  put_u32 (t + 0x114, (guint32) MIN (buffers_lost, G_MAXUINT32));
  put_utf16z (rec, w->logger_name);
  put_utf16z (rec, w->log_file_name);

  size = rec->len;
  used = ETL_WMI_BUFFER_HEADER_SIZE + (guint32) etl_align8 (size);
  if (size > G_MAXUINT16 || used > h->buffer_size)
    return NULL;
  put_u16 (rec->data + 4, (guint16) size);

  buf = g_malloc (h->buffer_size);
  memset (buf, 0, used);
  memset (buf + used, 0xFF, h->buffer_size - used);
  put_u32 (buf + ETL_WBH_BUFFER_SIZE, h->buffer_size);
  put_u32 (buf + ETL_WBH_SAVED_OFFSET, used);
  put_u32 (buf + ETL_WBH_CURRENT_OFFSET, used);
  put_u16 (buf + ETL_WBH_CLIENT_CONTEXT + 2, h->logger_id);
  put_u32 (buf + ETL_WBH_STATE, WBH_STATE_FLUSH);
  put_u32 (buf + ETL_WBH_OFFSET, used);
  put_u16 (buf + ETL_WBH_BUFFER_FLAG, ETL_BUFFER_FLAG_FLUSH_MARKER | ETL_BUFFER_FLAG_PROC_INDEX);
  put_u16 (buf + ETL_WBH_BUFFER_TYPE, ETL_BUFFER_TYPE_HEADER);
  memcpy (buf + ETL_WMI_BUFFER_HEADER_SIZE, rec->data, size);
  return buf;
}

/* ------------------------------------------------------------------------ */
/* Writer                                                                   */

/**
 * etl_writer_new:
 * @path: (type filename): the file to write; replaced atomically by
 *   etl_writer_close(), untouched until then
 * @header: the TRACE_LOGFILE_HEADER values (see #EtlWriterHeader)
 * @error: return location for a #GError
 *
 * Starts writing an .etl file: creates a temporary file next to @path and
 * reserves its header buffer.
 *
 * Errors: %G_IO_ERROR_INVALID_ARGUMENT when @header->buffer_size is not a
 * multiple of 8 from 4 KiB to 16 MiB or the names do not fit in the header
 * buffer; a %G_FILE_ERROR code when the temporary file cannot be created.
 *
 * Returns: (transfer full) (nullable): the writer, or %NULL with @error set
 */
EtlWriter *
etl_writer_new (const char *path, const EtlWriterHeader *header, GError **error)
{
  g_autoptr (EtlWriter) w = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *base = NULL;
  g_autofree char *tmpl = NULL;
  g_autofree guint8 *hb = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (header != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (header->buffer_size < MIN_BUFFER_SIZE || header->buffer_size > MAX_BUFFER_SIZE
      || header->buffer_size % 8 != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: BufferSize %u is not a multiple of 8 from %u to %u bytes", path,
                   header->buffer_size, MIN_BUFFER_SIZE, MAX_BUFFER_SIZE);
      return NULL;
    }

  w = g_new0 (EtlWriter, 1);
  w->fd = -1;
  w->path = g_strdup (path);
  w->header = *header;
  w->logger_name = g_strdup (header->logger_name ? header->logger_name : "");
  w->log_file_name = g_strdup (header->log_file_name ? header->log_file_name : "");
  w->header.logger_name = NULL;
  w->header.log_file_name = NULL;
  w->header.time_zone = NULL;
  if (header->time_zone != NULL)
    memcpy (w->time_zone, header->time_zone, ETL_TIME_ZONE_INFORMATION_SIZE);
  w->cpus = g_new0 (CpuBuffer, ETL_WRITER_MAX_CPUS);
  w->next_sequence = 1;

  hb = build_header_buffer (w);
  if (hb == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "%s: the EventTrace header record does not fit in a %u-byte buffer (names too long)",
                   path, header->buffer_size);
      return NULL;
    }

  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  tmpl = g_strdup_printf ("%s%c.%s.XXXXXX", dir, G_DIR_SEPARATOR, base);
  w->fd = g_mkstemp_full (tmpl, O_RDWR | O_BINARY, 0666);
  if (w->fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                   "%s: cannot create a temporary file in %s: %s", path, dir, g_strerror (saved_errno));
      return NULL;
    }
  w->tmp_path = g_steal_pointer (&tmpl);
#ifndef G_OS_WIN32
  /* mkstemp creates 0600; give the result the usual mode, as a new file would get. */
  {
    mode_t mask = umask (0);

    umask (mask);
    if (fchmod (w->fd, 0666 & ~mask) != 0)
      { /* not fatal */ }
  }
#endif

  /* Reserve the header buffer; it is rewritten with the final counts at close. */
  if (!write_all (w, hb, header->buffer_size, 0, error))
    return NULL;
  w->file_size = header->buffer_size;
  w->n_buffers = 1;
  return g_steal_pointer (&w);
}

/**
 * etl_writer_filetime:
 * @writer: a writer
 * @ts_raw: a raw timestamp in the writer's clock
 *
 * Returns: @ts_raw as FILETIME, as a reader of the file will compute it
 *   (etl_filetime_from_raw() with the header's clock fields)
 */
gint64
etl_writer_filetime (EtlWriter *writer, gint64 ts_raw)
{
  const EtlWriterHeader *h = &writer->header;

  return etl_filetime_from_raw (h->clock_type, h->perf_freq, h->cpu_speed_mhz, h->start_time,
                                h->header_ts_raw, ts_raw);
}

static gboolean
flush_cpu (EtlWriter *w, guint cpu, gboolean final, GError **error)
{
  CpuBuffer *c = &w->cpus[cpu];
  guint8 *b = c->data;
  guint32 size = w->header.buffer_size;
  guint16 flags = ETL_BUFFER_FLAG_PROC_INDEX | c->flags | (final ? ETL_BUFFER_FLAG_FLUSH_MARKER : 0);
  gboolean ok;

  /* An empty buffer is written only to carry a loss flag. */
  if (b == NULL || (c->n_records == 0 && c->flags == 0))
    return TRUE;

  memset (b, 0, ETL_WMI_BUFFER_HEADER_SIZE);
  memset (b + c->used, 0xFF, size - c->used);
  put_u32 (b + ETL_WBH_BUFFER_SIZE, size);
  put_u32 (b + ETL_WBH_SAVED_OFFSET, c->used);
  put_u32 (b + ETL_WBH_CURRENT_OFFSET, c->used);
  put_u64 (b + ETL_WBH_TIMESTAMP, (guint64) w->now_raw);
  put_u64 (b + ETL_WBH_SEQUENCE_NUMBER, (guint64) w->next_sequence++);
  put_u16 (b + ETL_WBH_CLIENT_CONTEXT, (guint16) cpu);
  put_u16 (b + ETL_WBH_CLIENT_CONTEXT + 2, w->header.logger_id);
  put_u32 (b + ETL_WBH_STATE, WBH_STATE_FLUSH);
  put_u32 (b + ETL_WBH_OFFSET, c->used);
  put_u16 (b + ETL_WBH_BUFFER_FLAG, flags);
  put_u16 (b + ETL_WBH_BUFFER_TYPE, ETL_BUFFER_TYPE_GENERIC);

  ok = write_all (w, b, size, w->file_size, error);
  w->file_size += size;
  w->n_buffers++;
  c->used = ETL_WMI_BUFFER_HEADER_SIZE;
  c->n_records = 0;
  c->flags = 0;
  return ok;
}

static CpuBuffer *
cpu_buffer (EtlWriter *w, guint cpu)
{
  CpuBuffer *c = &w->cpus[cpu];

  if (c->data == NULL)
    {
      c->data = g_malloc (w->header.buffer_size);
      c->used = ETL_WMI_BUFFER_HEADER_SIZE;
    }
  if (cpu + 1 > w->n_cpus)
    w->n_cpus = cpu + 1;
  return c;
}

/**
 * etl_writer_would_flush:
 * @writer: a writer
 * @cpu: processor index, below %ETL_WRITER_MAX_CPUS
 * @size: size in bytes of the next record
 *
 * Returns: %TRUE if adding a record of @size bytes on @cpu flushes that
 *   processor's current (non-empty) buffer first
 */
gboolean
etl_writer_would_flush (EtlWriter *writer, guint cpu, gsize size)
{
  const CpuBuffer *c;

  g_return_val_if_fail (writer != NULL && cpu < ETL_WRITER_MAX_CPUS, FALSE);
  c = &writer->cpus[cpu];
  return c->data != NULL && c->n_records > 0 && c->used + etl_align8 (size) > writer->header.buffer_size;
}

/**
 * etl_writer_add_record:
 * @writer: a writer
 * @cpu: processor index, below %ETL_WRITER_MAX_CPUS
 * @record: (array length=size): the whole record, trace header first
 * @size: the record's size in bytes (its header's Size field), unaligned
 * @ts_raw: the record's raw timestamp in the writer's clock (for EndTime
 *   and the buffers' flush TimeStamp; the record's own bytes are not changed)
 * @error: return location for a #GError
 *
 * Appends a record to @cpu's current buffer, padded with zeros to 8 bytes;
 * a full buffer is flushed first.  A reader orders each processor's records
 * as added, so add them in time order per processor.
 *
 * Errors: %ETL_ERROR_UNSUPPORTED when the record does not fit in a buffer;
 * a %G_FILE_ERROR code when writing fails.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_writer_add_record (EtlWriter *writer, guint cpu, const guint8 *record, gsize size, gint64 ts_raw,
                       GError **error)
{
  CpuBuffer *c;
  gsize aligned = etl_align8 (size);

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (cpu < ETL_WRITER_MAX_CPUS, FALSE);
  g_return_val_if_fail (record != NULL && size >= 8, FALSE);

  if (writer->failed)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: an earlier write failed", writer->path);
      return FALSE;
    }
  if (aligned > writer->header.buffer_size - ETL_WMI_BUFFER_HEADER_SIZE)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_UNSUPPORTED,
                   "%s: a record of %" G_GSIZE_FORMAT " bytes does not fit in a %u-byte buffer",
                   writer->path, size, writer->header.buffer_size);
      return FALSE;
    }

  c = cpu_buffer (writer, cpu);
  if (c->used + aligned > writer->header.buffer_size && !flush_cpu (writer, cpu, FALSE, error))
    return FALSE;

  memcpy (c->data + c->used, record, size);
  memset (c->data + c->used + size, 0, aligned - size);
  c->used += (guint32) aligned;
  c->n_records++;
  writer->n_records++;
  if (!writer->any_record || ts_raw > writer->max_raw)
    writer->max_raw = ts_raw;
  if (!writer->any_record || ts_raw > writer->now_raw)
    writer->now_raw = ts_raw;
  writer->any_record = TRUE;
  return TRUE;
}

/**
 * etl_writer_lose_buffer:
 * @writer: a writer
 * @cpu: processor index
 *
 * Simulates a buffer the session could not write: @cpu's current buffer is
 * discarded with its records, its SequenceNumber is used up (a gap),
 * BuffersLost grows by one and EventsLost by its records, and @cpu's next
 * buffer is flagged EVENTS_LOST.
 *
 * Returns: the number of records discarded
 */
guint64
etl_writer_lose_buffer (EtlWriter *writer, guint cpu)
{
  CpuBuffer *c;
  guint64 n;

  g_return_val_if_fail (writer != NULL && cpu < ETL_WRITER_MAX_CPUS, 0);
  c = cpu_buffer (writer, cpu);
  n = c->n_records;
  writer->n_records -= n;
  writer->lost_events += n;
  writer->lost_buffers++;
  writer->next_sequence++;
  c->used = ETL_WMI_BUFFER_HEADER_SIZE;
  c->n_records = 0;
  c->flags = ETL_BUFFER_FLAG_EVENTS_LOST;
  return n;
}

/**
 * etl_writer_flag_buffer:
 * @writer: a writer
 * @cpu: processor index
 * @buffer_flag: WMI_BUFFER_HEADER.BufferFlag bits (ETL_BUFFER_FLAG_EVENTS_LOST,
 *   ETL_BUFFER_FLAG_BUFFER_LOST)
 *
 * Sets @buffer_flag on the next buffer @cpu flushes.  The header counters are
 * not changed.
 */
void
etl_writer_flag_buffer (EtlWriter *writer, guint cpu, guint16 buffer_flag)
{
  g_return_if_fail (writer != NULL && cpu < ETL_WRITER_MAX_CPUS);
  cpu_buffer (writer, cpu)->flags |= buffer_flag
                                     & (ETL_BUFFER_FLAG_EVENTS_LOST | ETL_BUFFER_FLAG_BUFFER_LOST);
}

/**
 * etl_writer_skip_sequence:
 * @writer: a writer
 * @count: SequenceNumbers to leave out
 *
 * Leaves a gap of @count in the SequenceNumber series before the next flushed
 * buffer, as buffers lost by the session do.  The header counters are not
 * changed.
 */
void
etl_writer_skip_sequence (EtlWriter *writer, guint64 count)
{
  g_return_if_fail (writer != NULL);
  writer->next_sequence += (gint64) MIN (count, (guint64) G_MAXINT32);
}

/**
 * etl_writer_close:
 * @writer: a writer
 * @stats: (out caller-allocates) (optional): what was written
 * @error: return location for a #GError
 *
 * Flushes every processor's last buffer (BufferFlag FLUSH_MARKER), in
 * processor order, rewrites the header buffer with BuffersWritten, EndTime,
 * EventsLost, BuffersLost and NumberOfProcessors, syncs the file and renames
 * it over the target path.  The writer cannot be used afterwards except to be
 * freed.
 *
 * Errors: a %G_FILE_ERROR code when writing, syncing or renaming fails (the
 * temporary file is then removed and the target left as it was).
 *
 * Returns: %TRUE on success
 */
gboolean
etl_writer_close (EtlWriter *writer, EtlWriterStats *stats, GError **error)
{
  g_autofree guint8 *hb = NULL;

  g_return_val_if_fail (writer != NULL, FALSE);
  g_return_val_if_fail (writer->fd >= 0, FALSE);

  if (writer->failed)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: an earlier write failed", writer->path);
      return FALSE;
    }
  for (guint cpu = 0; cpu < writer->n_cpus; cpu++)
    if (!flush_cpu (writer, cpu, TRUE, error))
      return FALSE;

  hb = build_header_buffer (writer);
  g_assert (hb != NULL); /* checked in etl_writer_new(); only the counts changed */
  if (!write_all (writer, hb, writer->header.buffer_size, 0, error))
    return FALSE;
  if (g_fsync (writer->fd) != 0 || !g_close (writer->fd, NULL))
    {
      int saved_errno = errno;

      writer->fd = -1;
      writer->failed = TRUE;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s: cannot sync: %s",
                   writer->path, g_strerror (saved_errno));
      return FALSE;
    }
  writer->fd = -1;
  if (g_rename (writer->tmp_path, writer->path) != 0)
    {
      int saved_errno = errno;

      writer->failed = TRUE;
      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "%s: cannot rename %s to it: %s",
                   writer->path, writer->tmp_path, g_strerror (saved_errno));
      return FALSE;
    }
  g_clear_pointer (&writer->tmp_path, g_free);

  if (stats != NULL)
    {
      stats->n_records = writer->n_records;
      stats->n_buffers = writer->n_buffers;
      stats->file_size = writer->file_size;
      stats->events_lost = (guint32) MIN (writer->header.events_lost + writer->lost_events, G_MAXUINT32);
      stats->buffers_lost = (guint32) MIN (writer->header.buffers_lost + writer->lost_buffers, G_MAXUINT32);
      stats->end_time = writer->header.end_time != 0 ? writer->header.end_time
                        : writer->any_record ? etl_writer_filetime (writer, writer->max_raw)
                        : writer->header.start_time;
      stats->n_cpus = writer->n_cpus;
    }
  return TRUE;
}

/**
 * etl_writer_free:
 * @writer: (transfer full) (nullable): a writer
 *
 * Frees @writer.  If etl_writer_close() did not succeed, the temporary file
 * is removed and the target path is left untouched.
 */
void
etl_writer_free (EtlWriter *writer)
{
  if (writer == NULL)
    return;
  if (writer->fd >= 0 && !g_close (writer->fd, NULL))
    { /* nothing to report from a free; the temporary file is removed below */ }
  if (writer->tmp_path != NULL)
    g_unlink (writer->tmp_path);
  for (guint i = 0; writer->cpus != NULL && i < ETL_WRITER_MAX_CPUS; i++)
    g_free (writer->cpus[i].data);
  g_free (writer->cpus);
  g_free (writer->tmp_path);
  g_free (writer->path);
  g_free (writer->logger_name);
  g_free (writer->log_file_name);
  g_free (writer);
}

/* ------------------------------------------------------------------------ */
/* Slices                                                                   */

/**
 * etl_slice_options_init:
 * @options: (out caller-allocates): options to fill
 *
 * Sets @options to keep every record: no time bounds, no process or
 * provider filter, no predicate.
 */
void
etl_slice_options_init (EtlSliceOptions *options)
{
  g_return_if_fail (options != NULL);
  memset (options, 0, sizeof *options);
  options->from = G_MININT64;
  options->to = G_MAXINT64;
}

/* The FILETIME conversion of a file: FILETIME = start + (raw − hraw) × num / den. */
typedef struct
{
  guint32 clock_type;
  gint64 num, den;
  gint64 start, hraw;
} ClockMap;

static void
clock_map_init (ClockMap *m, const EtlFileInfo *info)
{
  m->clock_type = info->clock_type;
  m->num = m->den = 1;
  if (info->clock_type == ETL_CLOCK_QPC && info->perf_freq > 0)
    {
      m->num = 10000000;
      m->den = info->perf_freq;
    }
  else if (info->clock_type == ETL_CLOCK_CPU_CYCLE && info->cpu_speed_mhz > 0)
    {
      m->num = 10;
      m->den = info->cpu_speed_mhz;
    }
  m->start = info->start_time;
  m->hraw = info->header_ts_raw;
}

static gint64
gcd64 (gint64 a, gint64 b)
{
  while (b != 0)
    {
      gint64 t = a % b;

      a = b;
      b = t;
    }
  return a;
}

/*
 * Moves the header of @m forward to the latest raw value ≤ @first_raw at
 * which the conversion stays exact: (new hraw − hraw) × num / den must be
 * whole, so every FILETIME the new file yields equals the original one.
 */
static void
clock_map_advance (ClockMap *m, gint64 first_raw)
{
  gint64 step = m->den / gcd64 (m->num, m->den);
  gint64 k;

  if (first_raw <= m->hraw || step <= 0)
    return;
  k = (first_raw - m->hraw) / step;
  if (k <= 0 || k > G_MAXINT64 / step || (k * step) > G_MAXINT64 / m->num)
    return;
  m->start += k * step / m->den * m->num + (k * step % m->den) * m->num / m->den;
  m->hraw += k * step;
}

/* Whether @b converts every raw value exactly as @a does. */
static gboolean
clock_map_same (const ClockMap *a, const ClockMap *b)
{
  gint64 d;

  if (a->clock_type != b->clock_type || a->num != b->num || a->den != b->den)
    return FALSE;
  d = b->hraw - a->hraw;
  if (d > G_MAXINT64 / a->num || d < G_MININT64 / a->num || (d * a->num) % a->den != 0)
    return FALSE;
  return b->start - a->start == d * a->num / a->den;
}

/* The raw value whose FILETIME under @m is @filetime (the first one, when several are). */
static gint64
clock_map_raw (const ClockMap *m, gint64 filetime)
{
  gint64 d = filetime - m->start;
  gint64 q = d / m->num, r = d % m->num;
  gint64 raw;

  if (r < 0)
    {
      r += m->num;
      q--;
    }
  /* ceil (d × den / num) without overflow for realistic values */
  raw = q * m->den + (r * m->den + m->num - 1) / m->num;
  return m->hraw + raw;
}

/* Byte offset of the raw timestamp in a record, or 0 when it has none at a fixed place. */
static guint
record_ts_offset (guint header_type)
{
  switch (header_type)
    {
    case ETL_HEADER_TYPE_PERFINFO32:
    case ETL_HEADER_TYPE_PERFINFO64:
      return 8;
    case ETL_HEADER_TYPE_SYSTEM32:
    case ETL_HEADER_TYPE_SYSTEM64:
    case ETL_HEADER_TYPE_COMPACT32:
    case ETL_HEADER_TYPE_COMPACT64:
    case ETL_HEADER_TYPE_FULL_HEADER32:
    case ETL_HEADER_TYPE_FULL_HEADER64:
    case ETL_HEADER_TYPE_INSTANCE32:
    case ETL_HEADER_TYPE_INSTANCE64:
    case ETL_HEADER_TYPE_EVENT_HEADER32:
    case ETL_HEADER_TYPE_EVENT_HEADER64:
      return 16;
    default:
      return 0;
    }
}

typedef struct
{
  EtlTrace *trace;
  const EtlSliceOptions *options;
  guint16 *providers;     /* provider indexes kept, sorted */
  guint n_providers;
} Slice;

static gboolean
slice_keeps (const Slice *s, guint64 i)
{
  const EtlSliceOptions *o = s->options;

  if (o->has_pid)
    {
      guint32 pid;

      if (!etl_trace_get_pid (s->trace, i, &pid) || pid != o->pid)
        return FALSE;
    }
  if (o->n_providers > 0)
    {
      guint p = etl_trace_get_provider_index (s->trace, i);
      gboolean found = FALSE;

      for (guint k = 0; k < s->n_providers && !found; k++)
        found = s->providers[k] == p;
      if (!found)
        return FALSE;
    }
  if (o->filter != NULL && !o->filter (s->trace, i, o->filter_data))
    return FALSE;
  return TRUE;
}

/* The EventTrace header record of an input file: replaced by the new file's own. */
static gboolean
is_input_header (const EtlRecord *r)
{
  return r->file_offset == ETL_WMI_BUFFER_HEADER_SIZE
         && (r->header_type == ETL_HEADER_TYPE_SYSTEM32 || r->header_type == ETL_HEADER_TYPE_SYSTEM64)
         && r->hook_id == ETL_LOG_TYPE_HEADER;
}

/* Copies the TIME_ZONE_INFORMATION of @file's EventTrace header record. */
static gboolean
find_time_zone (EtlTrace *trace, guint file, guint8 out[ETL_TIME_ZONE_INFORMATION_SIZE])
{
  const EtlFileInfo *info = etl_trace_get_file_info (trace, file);
  guint64 n = etl_trace_get_n_records (trace);

  for (guint64 i = etl_trace_lower_bound (trace, info->header_filetime);
       i < n && etl_trace_get_filetime (trace, i) == info->header_filetime; i++)
    {
      EtlRecord r;
      gboolean found = FALSE;
      gsize off = ETL_TLH_LOGGER_NAME_PTR + 2 * info->pointer_size;

      if (etl_trace_get_file (trace, i) != file || !etl_trace_get_record (trace, i, &r, NULL))
        continue;
      if (is_input_header (&r) && r.user_data_len >= off + ETL_TIME_ZONE_INFORMATION_SIZE)
        {
          memcpy (out, r.user_data + off, ETL_TIME_ZONE_INFORMATION_SIZE);
          found = TRUE;
        }
      etl_record_clear (&r);
      if (found)
        return TRUE;
    }
  return FALSE;
}

/* Reproduces one point of the input's loss series in the new file. */
static void
reproduce_loss (EtlWriter *w, const EtlLoss *loss, const EtlSliceOptions *options)
{
  if (loss->filetime < options->from || loss->filetime >= options->to)
    return;
  if (loss->kind == ETL_LOSS_EVENTS_LOST_BUFFER && loss->cpu >= 0)
    etl_writer_flag_buffer (w, MIN ((guint) loss->cpu, ETL_WRITER_MAX_CPUS - 1), ETL_BUFFER_FLAG_EVENTS_LOST);
  else if (loss->kind == ETL_LOSS_BUFFER_LOST_FLAG && loss->cpu >= 0)
    etl_writer_flag_buffer (w, MIN ((guint) loss->cpu, ETL_WRITER_MAX_CPUS - 1), ETL_BUFFER_FLAG_BUFFER_LOST);
  else if (loss->kind == ETL_LOSS_SEQUENCE_GAP)
    etl_writer_skip_sequence (w, loss->count);
}

/* GIO's file identity (id::file): device and inode on POSIX, volume and
 * file index on Windows, where stat()'s st_ino is always 0. */
static char *
file_identity (const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GFileInfo) info = g_file_query_info (file, G_FILE_ATTRIBUTE_ID_FILE, G_FILE_QUERY_INFO_NONE,
                                                  NULL, NULL);
  const char *id = info != NULL ? g_file_info_get_attribute_string (info, G_FILE_ATTRIBUTE_ID_FILE) : NULL;

  return id != NULL && id[0] != '\0' ? g_strdup (id) : NULL;
}

static gboolean
same_file (const char *a, const char *b)
{
  g_autofree char *ida = file_identity (a);
  g_autofree char *idb = file_identity (b);

  return ida != NULL && idb != NULL && strcmp (ida, idb) == 0;
}

/**
 * etl_writer_write_slice:
 * @trace: an open trace (one or more files)
 * @options: (nullable): which records to keep; %NULL keeps all
 * @path: (type filename): the .etl file to write; written atomically, and
 *   never one of @trace's own files
 * @progress: (scope call) (nullable): called with the fraction of the
 *   selected index range done
 * @progress_data: closure for @progress
 * @cancellable: (nullable): a #GCancellable
 * @stats: (out caller-allocates) (optional): what was written
 * @error: return location for a #GError
 *
 * Writes the records of @trace that @options selects, in merged time order,
 * to a new uncompressed .etl file.  Each record keeps its bytes and its
 * processor.  The inputs' EventTrace header records are replaced by the new
 * file's own, whose TRACE_LOGFILE_HEADER comes from the file of the first
 * kept record: same clock, PerfFreq, session name and time zone, BufferSize
 * the largest of the inputs', COMPRESSED_MODE cleared, StartTime moved to
 * just before the first kept record (by a whole number of clock periods, so
 * every record's FILETIME is exactly what it was), EndTime the last kept
 * record's FILETIME, BuffersWritten the new count.
 *
 * Records of another file whose clock converts differently get their
 * timestamp field rewritten so that their FILETIME is kept (the only bytes
 * ever changed).
 *
 * Losses: a file whose records all lie in the time window passes on its
 * header's EventsLost and BuffersLost; otherwise the window's share is
 * counted from the evidence in it (buffers flagged EVENTS_LOST count one
 * event each, gaps and BUFFER_LOST buffers their buffers).  The evidence is
 * also reproduced: flagged buffers as flags on the same processor's buffer,
 * gaps as gaps in the new SequenceNumber series.
 *
 * Errors: %G_IO_ERROR_INVALID_ARGUMENT when @path is one of the inputs;
 * %G_IO_ERROR_CANCELLED; %ETL_ERROR_DECOMPRESS or %ETL_ERROR_CORRUPT when a
 * record cannot be re-read; %ETL_ERROR_UNSUPPORTED when a record does not
 * fit a buffer; a %G_FILE_ERROR code when writing fails.  On error @path is
 * left as it was.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_writer_write_slice (EtlTrace *trace, const EtlSliceOptions *options, const char *path,
                        EtlProgressFunc progress, gpointer progress_data, GCancellable *cancellable,
                        EtlWriterStats *stats, GError **error)
{
  EtlSliceOptions all;
  Slice s = { 0 };
  g_autoptr (EtlWriter) w = NULL;
  g_autofree guint16 *provider_ids = NULL;
  g_autofree ClockMap *maps = NULL;
  g_autofree gboolean *same_clock = NULL;
  g_autofree gboolean *covered = NULL;
  g_autofree guint8 *scratch = NULL;
  guint8 time_zone[ETL_TIME_ZONE_INFORMATION_SIZE] = { 0 };
  gboolean have_time_zone;
  EtlWriterHeader h;
  const EtlFileInfo *base;
  guint n_files, base_file = 0;
  guint64 n, lo, hi, first = G_MAXUINT64;
  guint n_losses, li = 0;
  const EtlLoss *losses;
  guint32 buffer_size = 0;
  guint64 events_lost = 0, buffers_lost = 0;
  ClockMap out_map;

  g_return_val_if_fail (trace != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options == NULL)
    {
      etl_slice_options_init (&all);
      options = &all;
    }
  n_files = etl_trace_get_n_files (trace);
  for (guint f = 0; f < n_files; f++)
    if (same_file (path, etl_trace_get_file_info (trace, f)->path))
      {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                     "%s: the output is one of the input files", path);
        return FALSE;
      }

  s.trace = trace;
  s.options = options;
  if (options->n_providers > 0)
    {
      provider_ids = g_new (guint16, options->n_providers);
      for (guint k = 0; k < options->n_providers; k++)
        for (guint p = 0; p < etl_trace_get_n_providers (trace); p++)
          if (etl_guid_equal (etl_trace_get_provider (trace, p), &options->providers[k]))
            provider_ids[s.n_providers++] = (guint16) p;
      s.providers = provider_ids;
    }

  n = etl_trace_get_n_records (trace);
  lo = options->from == G_MININT64 ? 0 : etl_trace_lower_bound (trace, options->from);
  hi = options->to == G_MAXINT64 ? n : etl_trace_lower_bound (trace, options->to);

  /* The first kept record chooses the file whose header the new one copies. */
  for (guint64 i = lo; i < hi; i++)
    {
      EtlRecord r;
      gboolean header;

      if (!slice_keeps (&s, i))
        continue;
      if (!etl_trace_get_record (trace, i, &r, error))
        return FALSE;
      header = is_input_header (&r);
      etl_record_clear (&r);
      if (!header)
        {
          first = i;
          break;
        }
    }
  if (first != G_MAXUINT64)
    base_file = etl_trace_get_file (trace, first);
  base = etl_trace_get_file_info (trace, base_file);

  maps = g_new0 (ClockMap, n_files);
  same_clock = g_new0 (gboolean, n_files);
  covered = g_new0 (gboolean, n_files);
  for (guint f = 0; f < n_files; f++)
    {
      const EtlFileInfo *info = etl_trace_get_file_info (trace, f);
      guint32 bs = info->buffer_size;

      clock_map_init (&maps[f], info);
      if (bs >= MIN_BUFFER_SIZE && bs <= MAX_BUFFER_SIZE && bs % 8 == 0)
        buffer_size = MAX (buffer_size, bs);
      covered[f] = options->from <= info->first_filetime && options->to > info->last_filetime;
      if (covered[f])
        {
          events_lost += info->events_lost;
          buffers_lost += info->buffers_lost;
        }
    }
  if (buffer_size == 0)
    buffer_size = ETL_WRITER_DEFAULT_BUFFER_SIZE;

  out_map = maps[base_file];
  if (first != G_MAXUINT64)
    {
      EtlRecord r;

      if (!etl_trace_get_record (trace, first, &r, error))
        return FALSE;
      clock_map_advance (&out_map, r.ts_raw);
      etl_record_clear (&r);
    }
  for (guint f = 0; f < n_files; f++)
    same_clock[f] = clock_map_same (&out_map, &maps[f]);

  losses = etl_trace_get_losses (trace, &n_losses);
  for (guint l = 0; l < n_losses; l++)
    {
      const EtlLoss *loss = &losses[l];

      if (covered[loss->file] || loss->filetime < options->from || loss->filetime >= options->to)
        continue;
      if (loss->kind == ETL_LOSS_EVENTS_LOST_BUFFER)
        events_lost++;
      else if (loss->kind == ETL_LOSS_BUFFER_LOST_FLAG || loss->kind == ETL_LOSS_SEQUENCE_GAP)
        buffers_lost += loss->count;
    }

  have_time_zone = find_time_zone (trace, base_file, time_zone);
  etl_writer_header_init (&h);
  h.buffer_size = buffer_size;
  h.version = base->version;
  h.provider_version = base->provider_version;
  for (guint f = 0; f < n_files; f++)
    h.number_of_processors = MAX (h.number_of_processors, etl_trace_get_file_info (trace, f)->number_of_processors);
  h.timer_resolution = base->timer_resolution;
  h.maximum_file_size = base->maximum_file_size;
  h.log_file_mode = base->log_file_mode & ~LOG_FILE_MODE_COMPRESSED;
  h.start_buffers = base->start_buffers;
  h.cpu_speed_mhz = base->cpu_speed_mhz;
  h.time_zone = have_time_zone ? time_zone : NULL;
  h.boot_time = base->boot_time;
  h.perf_freq = base->perf_freq;
  h.clock_type = base->clock_type;
  h.start_time = out_map.start;
  h.header_ts_raw = out_map.hraw;
  h.events_lost = (guint32) MIN (events_lost, G_MAXUINT32);
  h.buffers_lost = (guint32) MIN (buffers_lost, G_MAXUINT32);
  h.logger_name = base->logger_name;
  h.log_file_name = path;

  w = etl_writer_new (path, &h, error);
  if (w == NULL)
    return FALSE;
  scratch = g_malloc (G_MAXUINT16 + 1);

  for (guint64 i = first == G_MAXUINT64 ? hi : first; i < hi; i++)
    {
      EtlRecord r;
      const guint8 *bytes;
      guint file;
      gint64 ts;

      if (((i - lo) & 4095) == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return FALSE;
          if (progress != NULL)
            progress ((double) (i - lo) / (double) (hi - lo), progress_data);
        }
      if (!slice_keeps (&s, i))
        continue;
      if (!etl_trace_get_record (trace, i, &r, error))
        return FALSE;
      if (is_input_header (&r))
        {
          etl_record_clear (&r);
          continue;
        }

      /* Loss evidence up to this record's time. */
      for (; li < n_losses && losses[li].filetime <= r.filetime; li++)
        reproduce_loss (w, &losses[li], options);

      file = r.file;
      bytes = r.raw;
      ts = r.ts_raw;
      if (!same_clock[file])
        {
          guint off = record_ts_offset (r.header_type);

          if (off != 0 && r.size >= off + 8)
            {
              memcpy (scratch, r.raw, r.size);
              ts = clock_map_raw (&out_map, r.filetime);
              put_u64 (scratch + off, (guint64) ts);
              bytes = scratch;
            }
        }
      if (!etl_writer_add_record (w, MIN (r.cpu, ETL_WRITER_MAX_CPUS - 1), bytes, r.size, ts, error))
        {
          etl_record_clear (&r);
          return FALSE;
        }
      etl_record_clear (&r);
    }

  for (; li < n_losses && losses[li].filetime < options->to; li++)
    reproduce_loss (w, &losses[li], options);

  if (progress != NULL)
    progress (1.0, progress_data);
  return etl_writer_close (w, stats, error);
}
