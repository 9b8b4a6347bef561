/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * ETL_WRITER_DEFAULT_BUFFER_SIZE:
 *
 * 64 KiB, the BufferSize most sessions use (EVENT_TRACE_PROPERTIES).
 */
#define ETL_WRITER_DEFAULT_BUFFER_SIZE (64u * 1024)

/**
 * ETL_WRITER_MAX_CPUS:
 *
 * Processor indexes a writer accepts: the PROC_INDEX form of
 * ETW_BUFFER_CONTEXT holds 11 bits.
 */
#define ETL_WRITER_MAX_CPUS 2048

/**
 * EtlWriterHeader:
 * @buffer_size: bytes per buffer on disk, header included; a multiple of
 *   8 from 4 KiB to 16 MiB (TRACE_LOGFILE_HEADER.BufferSize)
 * @version: TRACE_LOGFILE_HEADER.Version
 * @provider_version: ProviderVersion, the OS build number
 * @number_of_processors: NumberOfProcessors; raised to the highest
 *   processor index written plus one
 * @timer_resolution: TimerResolution, 100-ns units
 * @maximum_file_size: MaximumFileSize, MB
 * @log_file_mode: LogFileMode (EVENT_TRACE_* flags)
 * @start_buffers: StartBuffers
 * @cpu_speed_mhz: CpuSpeedInMHz
 * @time_zone: (nullable): the 172 bytes of TIME_ZONE_INFORMATION as they
 *   appear in a file, or %NULL for UTC
 * @boot_time: BootTime, FILETIME
 * @perf_freq: PerfFreq, QPC ticks per second
 * @start_time: StartTime, FILETIME: the FILETIME of @header_ts_raw
 * @clock_type: ReservedFlags, an #EtlClockType
 * @header_ts_raw: raw timestamp of the EventTrace header record; record
 *   FILETIMEs are @start_time + scale × (raw − @header_ts_raw)
 * @end_time: EndTime, FILETIME; 0 to use the latest record's FILETIME
 * @events_lost: EventsLost to report besides those of etl_writer_lose_buffer()
 * @buffers_lost: BuffersLost to report besides those of etl_writer_lose_buffer()
 * @logger_name: (nullable): the session name, UTF-8
 * @log_file_name: (nullable): the log file name, UTF-8
 * @logger_id: LoggerId written in every buffer's ETW_BUFFER_CONTEXT
 * @header_pid: process id in the EventTrace header record
 * @header_tid: thread id in the EventTrace header record
 *
 * What a writer puts in the EventTrace header record's
 * TRACE_LOGFILE_HEADER.  BuffersWritten, PointerSize (8) and the counters
 * are filled in by the writer.  Initialise with etl_writer_header_init().
 */
typedef struct
{
  guint32 buffer_size;
  guint32 version;
  guint32 provider_version;
  guint32 number_of_processors;
  guint32 timer_resolution;
  guint32 maximum_file_size;
  guint32 log_file_mode;
  guint32 start_buffers;
  guint32 cpu_speed_mhz;
  const guint8 *time_zone;
  gint64 boot_time;
  gint64 perf_freq;
  gint64 start_time;
  guint32 clock_type;
  gint64 header_ts_raw;
  gint64 end_time;
  guint32 events_lost;
  guint32 buffers_lost;
  const char *logger_name;
  const char *log_file_name;
  guint16 logger_id;
  guint32 header_pid;
  guint32 header_tid;
} EtlWriterHeader;

/**
 * EtlWriterStats:
 * @n_records: records written, the EventTrace header record excluded
 * @n_buffers: buffers written, the header buffer included (BuffersWritten)
 * @file_size: bytes of the file
 * @events_lost: EventsLost written in the header
 * @buffers_lost: BuffersLost written in the header
 * @end_time: EndTime written in the header, FILETIME
 * @n_cpus: highest processor index written, plus one
 *
 * What etl_writer_close() wrote.
 */
typedef struct
{
  guint64 n_records;
  guint64 n_buffers;
  guint64 file_size;
  guint32 events_lost;
  guint32 buffers_lost;
  gint64 end_time;
  guint n_cpus;
} EtlWriterStats;

typedef struct _EtlWriter EtlWriter;

void etl_writer_header_init (EtlWriterHeader *header);

EtlWriter *etl_writer_new (const char *path, const EtlWriterHeader *header, GError **error);
gboolean etl_writer_add_record (EtlWriter *writer, guint cpu, const guint8 *record, gsize size,
                                gint64 ts_raw, GError **error);
gboolean etl_writer_would_flush (EtlWriter *writer, guint cpu, gsize size);
guint64 etl_writer_lose_buffer (EtlWriter *writer, guint cpu);
void etl_writer_flag_buffer (EtlWriter *writer, guint cpu, guint16 buffer_flag);
void etl_writer_skip_sequence (EtlWriter *writer, guint64 count);
gint64 etl_writer_filetime (EtlWriter *writer, gint64 ts_raw);
gboolean etl_writer_close (EtlWriter *writer, EtlWriterStats *stats, GError **error);
void etl_writer_free (EtlWriter *writer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlWriter, etl_writer_free)

/**
 * EtlSliceFilterFunc:
 * @trace: the trace being sliced
 * @index: a position in @trace's merged sequence
 * @user_data: closure
 *
 * Decides whether a record goes into a slice.  Use the index accessors
 * (etl_trace_get_pid(), etl_trace_get_provider_index(), …) where they
 * suffice: they do not touch the file.
 *
 * Returns: %TRUE to keep the record
 */
typedef gboolean (*EtlSliceFilterFunc) (EtlTrace *trace, guint64 index, gpointer user_data);

/**
 * EtlSliceOptions:
 * @from: first FILETIME kept (inclusive), or %G_MININT64
 * @to: FILETIME where the slice ends (exclusive), or %G_MAXINT64
 * @has_pid: whether to keep only records of process @pid
 * @pid: the process id (records without one are dropped when @has_pid)
 * @n_providers: number of GUIDs at @providers; 0 keeps every provider
 * @providers: (array length=n_providers) (nullable): keep only records of these providers
 * @filter: (nullable): a further predicate, called for records that pass the others
 * @filter_data: closure for @filter
 *
 * Which records of a trace a slice keeps.  Initialise with
 * etl_slice_options_init(), which keeps everything.
 */
typedef struct
{
  gint64 from;
  gint64 to;
  gboolean has_pid;
  guint32 pid;
  guint n_providers;
  const EtlGuid *providers;
  EtlSliceFilterFunc filter;
  gpointer filter_data;
} EtlSliceOptions;

void etl_slice_options_init (EtlSliceOptions *options);

gboolean etl_writer_write_slice (EtlTrace *trace,
                                 const EtlSliceOptions *options,
                                 const char *path,
                                 EtlProgressFunc progress,
                                 gpointer progress_data,
                                 GCancellable *cancellable,
                                 EtlWriterStats *stats,
                                 GError **error);

G_END_DECLS
