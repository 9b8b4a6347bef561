/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-error.h"
#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlClockType:
 * @ETL_CLOCK_QPC: QueryPerformanceCounter ticks (WNODE_HEADER.ClientContext 1)
 * @ETL_CLOCK_SYSTEM_TIME: FILETIME, 100-ns units (ClientContext 2)
 * @ETL_CLOCK_CPU_CYCLE: CPU cycle counter (ClientContext 3)
 *
 * The timestamp clock, TRACE_LOGFILE_HEADER.ReservedFlags.
 */
typedef enum
{
  ETL_CLOCK_QPC = 1,
  ETL_CLOCK_SYSTEM_TIME = 2,
  ETL_CLOCK_CPU_CYCLE = 3,
} EtlClockType;

/**
 * EtlFileInfo:
 * @path: the file's path as given
 * @file_size: size in bytes
 * @logger_name: session (logger) name from TRACE_LOGFILE_HEADER, UTF-8
 * @log_file_name: log file name from TRACE_LOGFILE_HEADER, UTF-8
 * @buffer_size: TRACE_LOGFILE_HEADER.BufferSize, bytes
 * @version: TRACE_LOGFILE_HEADER.Version
 * @provider_version: OS build number (ProviderVersion)
 * @number_of_processors: NumberOfProcessors
 * @end_time: EndTime, FILETIME
 * @timer_resolution: TimerResolution, 100-ns units
 * @maximum_file_size: MaximumFileSize, MB
 * @log_file_mode: LogFileMode (EVENT_TRACE_* flags)
 * @buffers_written: BuffersWritten
 * @start_buffers: StartBuffers
 * @pointer_size: PointerSize, 4 or 8 bytes
 * @events_lost: EventsLost
 * @cpu_speed_mhz: CpuSpeedInMHz
 * @tz_bias_minutes: TIME_ZONE_INFORMATION.Bias (UTC = local + bias)
 * @boot_time: BootTime, FILETIME
 * @perf_freq: PerfFreq, QPC ticks per second
 * @start_time: StartTime, FILETIME
 * @clock_type: ReservedFlags (#EtlClockType)
 * @buffers_lost: BuffersLost
 * @compressed: whether any buffer is compressed
 * @compression_format: first buffer's State & 0xFFFF (3 = XPRESS)
 * @n_buffers: buffers found in the file
 * @n_records: trace records found, the EventTrace header included, skipped ones included
 * @n_skipped: ERROR, WNODE and unknown records counted but not indexed
 * @records_by_header_type: records per trace header type (index = type, 0..31)
 * @header_ts_raw: raw timestamp of the EventTrace header record
 * @header_filetime: that record's FILETIME (equals @start_time)
 * @first_filetime: earliest record's FILETIME, or 0 with no records
 * @last_filetime: latest record's FILETIME, or 0 with no records
 * @n_cpus: highest processor index seen in a buffer, plus one
 * @problems: (element-type GError): what could not be read; each message
 *   names the file, the byte offset and the reason
 * @n_problems_dropped: problems beyond the first 1000, counted only
 *
 * What one file's TRACE_LOGFILE_HEADER says and what the reader found.
 */
typedef struct
{
  char *path;
  guint64 file_size;
  char *logger_name;
  char *log_file_name;
  guint32 buffer_size;
  guint32 version;
  guint32 provider_version;
  guint32 number_of_processors;
  gint64 end_time;
  guint32 timer_resolution;
  guint32 maximum_file_size;
  guint32 log_file_mode;
  guint32 buffers_written;
  guint32 start_buffers;
  guint32 pointer_size;
  guint32 events_lost;
  guint32 cpu_speed_mhz;
  gint32 tz_bias_minutes;
  gint64 boot_time;
  gint64 perf_freq;
  gint64 start_time;
  guint32 clock_type;
  guint32 buffers_lost;
  gboolean compressed;
  guint compression_format;
  guint64 n_buffers;
  guint64 n_records;
  guint64 n_skipped;
  guint64 records_by_header_type[ETL_N_HEADER_TYPES];
  gint64 header_ts_raw;
  gint64 header_filetime;
  gint64 first_filetime;
  gint64 last_filetime;
  guint n_cpus;
  GPtrArray *problems;
  guint64 n_problems_dropped;
} EtlFileInfo;

/**
 * EtlLossKind:
 * @ETL_LOSS_EVENTS_LOST_BUFFER: a buffer flagged EVENTS_LOST (events were dropped before it was flushed)
 * @ETL_LOSS_BUFFER_LOST_FLAG: a buffer flagged BUFFER_LOST
 * @ETL_LOSS_SEQUENCE_GAP: buffers missing from the file's SequenceNumber series
 * @ETL_LOSS_RT_LOST_EVENT: an RTLostEvent record (type 32)
 * @ETL_LOSS_RT_LOST_BUFFER: an RTLostBuffer record (type 33)
 * @ETL_LOSS_RT_LOST_FILE: an RTLostFile record (type 34)
 *
 * The evidence of loss an .etl file can hold.
 */
typedef enum
{
  ETL_LOSS_EVENTS_LOST_BUFFER,
  ETL_LOSS_BUFFER_LOST_FLAG,
  ETL_LOSS_SEQUENCE_GAP,
  ETL_LOSS_RT_LOST_EVENT,
  ETL_LOSS_RT_LOST_BUFFER,
  ETL_LOSS_RT_LOST_FILE,
  ETL_N_LOSS_KINDS
} EtlLossKind;

/**
 * EtlLoss:
 * @filetime: when, FILETIME (the buffer's flush TimeStamp or the record's time)
 * @file: file index
 * @cpu: processor index, or -1 when unknown (sequence gaps)
 * @kind: an #EtlLossKind
 * @count: buffers missing (gaps) or 1
 * @sequence: SequenceNumber of the buffer after the gap or of the flagged buffer
 *
 * One point of the loss time series.
 */
typedef struct
{
  gint64 filetime;
  guint file;
  gint cpu;
  EtlLossKind kind;
  guint64 count;
  gint64 sequence;
} EtlLoss;

/**
 * EtlProgressFunc:
 * @fraction: 0.0 to 1.0 of the bytes to read
 * @user_data: closure
 *
 * Called from the thread that runs etl_trace_open(), at most about 200 times.
 */
typedef void (*EtlProgressFunc) (double fraction, gpointer user_data);

typedef struct _EtlTrace EtlTrace;

/**
 * EtlRecordBrief:
 * @header_type: the trace header type (#EtlHeaderType)
 * @kind: the #EtlRecordKind
 * @has_pid: whether the header carries a ThreadId and ProcessId
 * @opcode: the opcode (event type; low byte of the HookId for kernel records)
 * @hook_id: the HookId of a SYSTEM, COMPACT or PERFINFO header, else 0
 * @event_id: the event id of an EVENT_HEADER record, else 0
 * @version: the event version
 * @pid: the header's ProcessId when @has_pid
 * @tid: the header's ThreadId when @has_pid
 * @filetime: the record's time, FILETIME
 * @user_data: (nullable): the payload (UserData), valid until
 *   etl_record_brief_clear()
 * @user_data_len: bytes of @user_data
 *
 * The few header fields of a record that the aggregate passes read
 * (etl_trace_peek_record()); each equals the field of the same name of the
 * #EtlRecord etl_trace_get_record() gives.
 */
typedef struct
{
  guint8 header_type;
  guint8 kind;
  guint8 has_pid;
  guint8 opcode;
  guint16 hook_id;
  guint16 event_id;
  guint8 version;
  guint32 pid;
  guint32 tid;
  gint64 filetime;
  const guint8 *user_data;
  gsize user_data_len;

  /*< private >*/
  GBytes *hold;
} EtlRecordBrief;


/**
 * EtlTraceHookClass:
 * @n_kinds: the kinds of record the hook marks, 1 to @n_kinds (all hooks of
 *   one open together: at most %ETL_TRACE_MAX_HOOK_KINDS)
 * @kept_kinds: bit k set: records of kind k are kept for the hook (by their
 *   index position, or a copy) instead of handed over during the open; the
 *   hook takes them with etl_trace_steal_kept_records() in @finish
 * @any_provider_opcode: EVENT_HEADER records (%ETL_RECORD_KIND_MANIFEST)
 *   with this opcode go to @classify_record with class 0 whatever their
 *   provider, before the hook that claims the provider; -1 for none (one
 *   hook of an open at most)
 * @classify_provider: (nullable): the hook's class of a provider or event
 *   class GUID, 1 to %ETL_TRACE_MAX_HOOK_CLASSES, or 0 when the hook does not
 *   want its records; the first hook that claims a provider has it.  Called
 *   once per provider, from any thread
 * @classify_hook: (nullable): the kind (0 = none) of a kernel record,
 *   from its HookId; once per HookId, from any thread
 * @classify_record: (nullable): the kind (0 = none) of a record of a
 *   provider the hook claimed (@cls its class) or of an
 *   @any_provider_opcode record (@cls 0), from the bytes etl_record_peek()
 *   validated (@size is the record's Size); from any thread
 * @add: (nullable): a record of a kind not kept, fully decoded (file, cpu,
 *   filetime and file_offset set; its bytes are borrowed), in merged order,
 *   on the thread that opens the trace
 * @finish: (nullable): the walk is over and every record was handed over or
 *   kept; @trace is complete but not yet returned to the caller
 * @free: (nullable): frees the hook's data, with the trace (or when the open
 *   fails)
 *
 * What a layer above the reader asks of the index walk (etl_trace_open_with_hooks()).
 * The walk reads every record's header only; a hook names the few records
 * it needs decoded (by provider class, HookId or opcode) and gets them in
 * the merged order, or kept for later, without the reader knowing what they
 * mean.  The functions are plain functions of their arguments (they run on
 * the scan's threads), so the classification is cached per provider and per
 * HookId.
 */
typedef struct
{
  guint n_kinds;
  guint32 kept_kinds;
  gint any_provider_opcode;
  guint (*classify_provider) (const EtlGuid *provider);
  guint (*classify_hook) (guint16 hook_id);
  guint (*classify_record) (guint cls, guint8 header_type, guint8 opcode, const guint8 *record, gsize size);
  void (*add) (gpointer data, guint kind, const EtlRecord *record);
  void (*finish) (gpointer data, EtlTrace *trace);
  GDestroyNotify free;
} EtlTraceHookClass;

#define ETL_TRACE_MAX_HOOKS 4
#define ETL_TRACE_MAX_HOOK_KINDS 7
#define ETL_TRACE_MAX_HOOK_CLASSES 31

/**
 * EtlTraceHook:
 * @klass: the hook's functions (static)
 * @data: the hook's state, passed to them; the trace owns it
 *
 * One hook of an open.
 */
typedef struct
{
  const EtlTraceHookClass *klass;
  gpointer data;
} EtlTraceHook;

typedef struct _EtlKeptRecords EtlKeptRecords;

EtlTrace *etl_trace_open_with_hooks (const char *const *paths,
                                     const EtlTraceHook *hooks,
                                     guint n_hooks,
                                     EtlProgressFunc progress,
                                     gpointer progress_data,
                                     GCancellable *cancellable,
                                     GError **error);
gpointer etl_trace_get_hook_data (EtlTrace *trace, const EtlTraceHookClass *klass);
EtlKeptRecords *etl_trace_steal_kept_records (EtlTrace *trace, const EtlTraceHookClass *klass, guint kind);
guint etl_kept_records_get_n (const EtlKeptRecords *kept);
gboolean etl_kept_records_read (const EtlKeptRecords *kept, EtlTrace *trace, guint i, EtlRecord *record);
void etl_kept_records_free (EtlKeptRecords *kept);

void etl_trace_set_open_threads (guint n_threads);
guint etl_trace_get_open_threads (void);
EtlTrace *etl_trace_ref (EtlTrace *trace);
void etl_trace_unref (EtlTrace *trace);

guint etl_trace_get_n_files (EtlTrace *trace);
const EtlFileInfo *etl_trace_get_file_info (EtlTrace *trace, guint file);
guint etl_trace_get_n_problems (EtlTrace *trace);

guint64 etl_trace_get_n_records (EtlTrace *trace);
gboolean etl_trace_get_record (EtlTrace *trace, guint64 index, EtlRecord *record, GError **error);
gboolean etl_trace_peek_record (EtlTrace *trace, guint64 index, EtlRecordBrief *brief);
void etl_record_brief_clear (EtlRecordBrief *brief);
gboolean etl_trace_get_opcode (EtlTrace *trace, guint64 index, guint8 *opcode);
gint64 etl_trace_get_filetime (EtlTrace *trace, guint64 index);
guint etl_trace_get_cpu (EtlTrace *trace, guint64 index);
guint etl_trace_get_file (EtlTrace *trace, guint64 index);
gboolean etl_trace_get_pid (EtlTrace *trace, guint64 index, guint32 *pid);
guint etl_trace_get_provider_index (EtlTrace *trace, guint64 index);
guint etl_trace_get_n_providers (EtlTrace *trace);
const EtlGuid *etl_trace_get_provider (EtlTrace *trace, guint provider_index);
guint8 etl_trace_get_header_type (EtlTrace *trace, guint64 index);
guint64 etl_trace_lower_bound (EtlTrace *trace, gint64 filetime);

guint etl_trace_get_n_cpus (EtlTrace *trace);
gint64 etl_trace_get_origin (EtlTrace *trace);
gint64 etl_trace_get_first_filetime (EtlTrace *trace);
gint64 etl_trace_get_last_filetime (EtlTrace *trace);
double etl_trace_filetime_to_ms (EtlTrace *trace, gint64 filetime);

const EtlLoss *etl_trace_get_losses (EtlTrace *trace, guint *n_losses);

gint64 etl_filetime_from_raw (guint32 clock_type, gint64 perf_freq, guint32 cpu_speed_mhz,
                              gint64 start_time, gint64 header_ts_raw, gint64 ts_raw);
char *etl_filetime_to_iso8601 (gint64 filetime);

/**
 * EtlTraceDeriveFunc:
 * @trace: the trace
 * @cancellable: (nullable): the requester's #GCancellable
 * @error: return location for a #GError
 *
 * Builds a result from @trace for etl_trace_get_derived().
 *
 * Returns: (transfer full) (nullable): the result, or %NULL with @error set
 */
typedef gpointer (*EtlTraceDeriveFunc) (EtlTrace *trace, GCancellable *cancellable, GError **error);

gpointer etl_trace_get_derived (EtlTrace *trace, const char *key, EtlTraceDeriveFunc build, GBoxedCopyFunc ref,
                                GDestroyNotify unref, GCancellable *cancellable, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlTrace, etl_trace_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlKeptRecords, etl_kept_records_free)

G_END_DECLS
