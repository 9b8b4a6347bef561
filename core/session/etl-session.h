/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-session.h: a portable model of one ETW session's settings
 * (EVENT_TRACE_PROPERTIES, evntrace.h), its encoder/decoder for the x64 and
 * x86 layouts, the tables of logging-mode and kernel-flag constants, the
 * documented rules as diagnostics, and INI presets.
 *
 * No GTK here; the Win32 calls live in etl-session-win32.c.
 */
#pragma once

#include <glib.h>
#include <glib-object.h>

#include "etl-types.h"

G_BEGIN_DECLS

#define ETL_SESSION_ERROR (etl_session_error_quark ())

/**
 * EtlSessionError:
 * @ETL_SESSION_ERROR_UNKNOWN_FIELD: a field name is not an EVENT_TRACE_PROPERTIES member
 * @ETL_SESSION_ERROR_INVALID_VALUE: a value does not parse for its field (number, flag name, GUID)
 * @ETL_SESSION_ERROR_TRUNCATED: bytes to decode are shorter than the structure or the offsets they name
 * @ETL_SESSION_ERROR_INVALID_LAYOUT: a name offset points inside the structure or a string is not valid UTF-16
 * @ETL_SESSION_ERROR_PRESET: a preset name is unknown or a preset file lacks its group
 * @ETL_SESSION_ERROR_NOT_SUPPORTED: controlling sessions needs Windows
 * @ETL_SESSION_ERROR_WIN32: StartTraceW/ControlTraceW failed; the message carries the Win32 code
 *
 * Error codes in the %ETL_SESSION_ERROR domain.
 */
typedef enum
{
  ETL_SESSION_ERROR_UNKNOWN_FIELD,
  ETL_SESSION_ERROR_INVALID_VALUE,
  ETL_SESSION_ERROR_TRUNCATED,
  ETL_SESSION_ERROR_INVALID_LAYOUT,
  ETL_SESSION_ERROR_PRESET,
  ETL_SESSION_ERROR_NOT_SUPPORTED,
  ETL_SESSION_ERROR_WIN32,
} EtlSessionError;

GQuark etl_session_error_quark (void);

/**
 * EtlSessionArch:
 * @ETL_SESSION_ARCH_X64: 64-bit layout (HANDLE is 8 bytes)
 * @ETL_SESSION_ARCH_X86: 32-bit layout (HANDLE is 4 bytes)
 *
 * Pointer size of the process that passes the structure to StartTrace.
 * Both layouts are 120 bytes (the x86 one ends in 4 padding bytes, since
 * WNODE_HEADER's LARGE_INTEGER aligns the structure to 8).
 */
typedef enum
{
  ETL_SESSION_ARCH_X64,
  ETL_SESSION_ARCH_X86,
} EtlSessionArch;

/** ETL_SESSION_PROPERTIES_SIZE: sizeof (EVENT_TRACE_PROPERTIES) in both layouts. */
#define ETL_SESSION_PROPERTIES_SIZE 120
/** ETL_SESSION_MAX_NAME_CHARS: documented limit of either name, in characters. */
#define ETL_SESSION_MAX_NAME_CHARS 1024

/* wmistr.h */
#define ETL_WNODE_FLAG_TRACED_GUID 0x00020000u
/* evntrace.h */
#define ETL_KERNEL_LOGGER_NAME "NT Kernel Logger"
#define ETL_GLOBAL_LOGGER_NAME "GlobalLogger"

/* EVENT_TRACE_PROPERTIES.LogFileMode (evntrace.h, "Logging Mode Constants") */
#define ETL_EVENT_TRACE_FILE_MODE_NONE              0x00000000u
#define ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL        0x00000001u
#define ETL_EVENT_TRACE_FILE_MODE_CIRCULAR          0x00000002u
#define ETL_EVENT_TRACE_FILE_MODE_APPEND            0x00000004u
#define ETL_EVENT_TRACE_FILE_MODE_NEWFILE           0x00000008u
#define ETL_EVENT_TRACE_FILE_MODE_PREALLOCATE       0x00000020u
#define ETL_EVENT_TRACE_NONSTOPPABLE_MODE           0x00000040u
#define ETL_EVENT_TRACE_SECURE_MODE                 0x00000080u
#define ETL_EVENT_TRACE_REAL_TIME_MODE              0x00000100u
#define ETL_EVENT_TRACE_DELAY_OPEN_FILE_MODE        0x00000200u
#define ETL_EVENT_TRACE_BUFFERING_MODE              0x00000400u
#define ETL_EVENT_TRACE_PRIVATE_LOGGER_MODE         0x00000800u
#define ETL_EVENT_TRACE_ADD_HEADER_MODE             0x00001000u
#define ETL_EVENT_TRACE_USE_KBYTES_FOR_SIZE         0x00002000u
#define ETL_EVENT_TRACE_USE_GLOBAL_SEQUENCE         0x00004000u
#define ETL_EVENT_TRACE_USE_LOCAL_SEQUENCE          0x00008000u
#define ETL_EVENT_TRACE_RELOG_MODE                  0x00010000u
#define ETL_EVENT_TRACE_PRIVATE_IN_PROC             0x00020000u
#define ETL_EVENT_TRACE_MODE_RESERVED               0x00100000u
#define ETL_EVENT_TRACE_STOP_ON_HYBRID_SHUTDOWN     0x00400000u
#define ETL_EVENT_TRACE_PERSIST_ON_HYBRID_SHUTDOWN  0x00800000u
#define ETL_EVENT_TRACE_USE_PAGED_MEMORY            0x01000000u
#define ETL_EVENT_TRACE_SYSTEM_LOGGER_MODE          0x02000000u
#define ETL_EVENT_TRACE_COMPRESSED_MODE             0x04000000u
#define ETL_EVENT_TRACE_INDEPENDENT_SESSION_MODE    0x08000000u
#define ETL_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING  0x10000000u
#define ETL_EVENT_TRACE_ADDTO_TRIAGE_DUMP           0x80000000u

/* EVENT_TRACE_PROPERTIES.EnableFlags (evntrace.h) */
#define ETL_EVENT_TRACE_FLAG_PROCESS             0x00000001u
#define ETL_EVENT_TRACE_FLAG_THREAD              0x00000002u
#define ETL_EVENT_TRACE_FLAG_IMAGE_LOAD          0x00000004u
#define ETL_EVENT_TRACE_FLAG_PROCESS_COUNTERS    0x00000008u
#define ETL_EVENT_TRACE_FLAG_CSWITCH             0x00000010u
#define ETL_EVENT_TRACE_FLAG_DPC                 0x00000020u
#define ETL_EVENT_TRACE_FLAG_INTERRUPT           0x00000040u
#define ETL_EVENT_TRACE_FLAG_SYSTEMCALL          0x00000080u
#define ETL_EVENT_TRACE_FLAG_DISK_IO             0x00000100u
#define ETL_EVENT_TRACE_FLAG_DISK_FILE_IO        0x00000200u
#define ETL_EVENT_TRACE_FLAG_DISK_IO_INIT        0x00000400u
#define ETL_EVENT_TRACE_FLAG_DISPATCHER          0x00000800u
#define ETL_EVENT_TRACE_FLAG_MEMORY_PAGE_FAULTS  0x00001000u
#define ETL_EVENT_TRACE_FLAG_MEMORY_HARD_FAULTS  0x00002000u
#define ETL_EVENT_TRACE_FLAG_VIRTUAL_ALLOC       0x00004000u
#define ETL_EVENT_TRACE_FLAG_VAMAP               0x00008000u
#define ETL_EVENT_TRACE_FLAG_NETWORK_TCPIP       0x00010000u
#define ETL_EVENT_TRACE_FLAG_REGISTRY            0x00020000u
#define ETL_EVENT_TRACE_FLAG_DBGPRINT            0x00040000u
#define ETL_EVENT_TRACE_FLAG_JOB                 0x00080000u
#define ETL_EVENT_TRACE_FLAG_ALPC                0x00100000u
#define ETL_EVENT_TRACE_FLAG_SPLIT_IO            0x00200000u
#define ETL_EVENT_TRACE_FLAG_DEBUG_EVENTS        0x00400000u
#define ETL_EVENT_TRACE_FLAG_DRIVER              0x00800000u
#define ETL_EVENT_TRACE_FLAG_PROFILE             0x01000000u
#define ETL_EVENT_TRACE_FLAG_FILE_IO             0x02000000u
#define ETL_EVENT_TRACE_FLAG_FILE_IO_INIT        0x04000000u
#define ETL_EVENT_TRACE_FLAG_NO_SYSCONFIG        0x10000000u
#define ETL_EVENT_TRACE_FLAG_ENABLE_RESERVE      0x20000000u
#define ETL_EVENT_TRACE_FLAG_FORWARD_WMI         0x40000000u
#define ETL_EVENT_TRACE_FLAG_EXTENSION           0x80000000u

/* ControlTrace control codes (evntrace.h) */
#define ETL_EVENT_TRACE_CONTROL_QUERY 0
#define ETL_EVENT_TRACE_CONTROL_STOP  1
#define ETL_EVENT_TRACE_CONTROL_FLUSH 3

/**
 * EtlSessionClock:
 * @ETL_SESSION_CLOCK_DEFAULT: 0, the default clock (QPC since Windows Vista)
 * @ETL_SESSION_CLOCK_QPC: 1, QueryPerformanceCounter
 * @ETL_SESSION_CLOCK_SYSTEM_TIME: 2, system time (FILETIME, 100-ns units)
 * @ETL_SESSION_CLOCK_CPU_CYCLE: 3, CPU cycle counter
 *
 * Values of WNODE_HEADER.ClientContext (wmistr.h reference page).
 */
typedef enum
{
  ETL_SESSION_CLOCK_DEFAULT = 0,
  ETL_SESSION_CLOCK_QPC = 1,
  ETL_SESSION_CLOCK_SYSTEM_TIME = 2,
  ETL_SESSION_CLOCK_CPU_CYCLE = 3,
} EtlSessionClock;

/**
 * EtlWindowsVersion:
 *
 * Minimum Windows versions named by the constants' documentation, in order.
 */
typedef enum
{
  ETL_WINDOWS_2000,
  ETL_WINDOWS_XP,
  ETL_WINDOWS_VISTA,
  ETL_WINDOWS_7,
  ETL_WINDOWS_8,
  ETL_WINDOWS_8_1,
  ETL_WINDOWS_10,
} EtlWindowsVersion;

const char *etl_windows_version_name (EtlWindowsVersion version);

/**
 * EtlSessionFlagInfo:
 * @name: the constant's name in evntrace.h
 * @value: its value
 * @min_windows: the first Windows version that supports it
 * @meaning: one line saying what it does
 * @reserved: %TRUE for internal/reserved constants that callers should not set
 *
 * One LogFileMode or EnableFlags constant.
 */
typedef struct
{
  const char *name;
  guint32 value;
  EtlWindowsVersion min_windows;
  const char *meaning;
  gboolean reserved;
} EtlSessionFlagInfo;

/**
 * EtlSessionClockInfo:
 * @value: WNODE_HEADER.ClientContext value
 * @name: short name ("QPC", "System time", "CPU cycle")
 * @meaning: one line from the WNODE_HEADER page
 */
typedef struct
{
  guint32 value;
  const char *name;
  const char *meaning;
} EtlSessionClockInfo;

const EtlSessionFlagInfo *etl_session_log_file_modes (guint *n_modes);
const EtlSessionFlagInfo *etl_session_enable_flags (guint *n_flags);
const EtlSessionClockInfo *etl_session_clocks (guint *n_clocks);

/**
 * EtlSessionFieldKind:
 * @ETL_SESSION_FIELD_KIND_U32: ULONG
 * @ETL_SESSION_FIELD_KIND_I32: LONG
 * @ETL_SESSION_FIELD_KIND_U64: ULONG64 / LARGE_INTEGER
 * @ETL_SESSION_FIELD_KIND_HANDLE: HANDLE (8 bytes on x64, 4 on x86)
 * @ETL_SESSION_FIELD_KIND_GUID: GUID (16 bytes)
 * @ETL_SESSION_FIELD_KIND_STRING: a NUL-terminated UTF-16LE string after the structure
 */
typedef enum
{
  ETL_SESSION_FIELD_KIND_U32,
  ETL_SESSION_FIELD_KIND_I32,
  ETL_SESSION_FIELD_KIND_U64,
  ETL_SESSION_FIELD_KIND_HANDLE,
  ETL_SESSION_FIELD_KIND_GUID,
  ETL_SESSION_FIELD_KIND_STRING,
} EtlSessionFieldKind;

/**
 * EtlSessionField:
 *
 * Every member of EVENT_TRACE_PROPERTIES in memory order, then the two
 * strings that follow it.  Union members that share a slot with the one
 * before them (Wnode.Version/Linkage in HistoricalContext,
 * Wnode.KernelHandle in TimeStamp, FlushThreshold in AgeLimit) are listed
 * as aliases.
 */
typedef enum
{
  ETL_SESSION_FIELD_WNODE_BUFFER_SIZE,
  ETL_SESSION_FIELD_WNODE_PROVIDER_ID,
  ETL_SESSION_FIELD_WNODE_HISTORICAL_CONTEXT,
  ETL_SESSION_FIELD_WNODE_VERSION,
  ETL_SESSION_FIELD_WNODE_LINKAGE,
  ETL_SESSION_FIELD_WNODE_TIME_STAMP,
  ETL_SESSION_FIELD_WNODE_KERNEL_HANDLE,
  ETL_SESSION_FIELD_WNODE_GUID,
  ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT,
  ETL_SESSION_FIELD_WNODE_FLAGS,
  ETL_SESSION_FIELD_BUFFER_SIZE,
  ETL_SESSION_FIELD_MINIMUM_BUFFERS,
  ETL_SESSION_FIELD_MAXIMUM_BUFFERS,
  ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE,
  ETL_SESSION_FIELD_LOG_FILE_MODE,
  ETL_SESSION_FIELD_FLUSH_TIMER,
  ETL_SESSION_FIELD_ENABLE_FLAGS,
  ETL_SESSION_FIELD_AGE_LIMIT,
  ETL_SESSION_FIELD_FLUSH_THRESHOLD,
  ETL_SESSION_FIELD_NUMBER_OF_BUFFERS,
  ETL_SESSION_FIELD_FREE_BUFFERS,
  ETL_SESSION_FIELD_EVENTS_LOST,
  ETL_SESSION_FIELD_BUFFERS_WRITTEN,
  ETL_SESSION_FIELD_LOG_BUFFERS_LOST,
  ETL_SESSION_FIELD_REAL_TIME_BUFFERS_LOST,
  ETL_SESSION_FIELD_LOGGER_THREAD_ID,
  ETL_SESSION_FIELD_LOG_FILE_NAME_OFFSET,
  ETL_SESSION_FIELD_LOGGER_NAME_OFFSET,
  ETL_SESSION_FIELD_LOGGER_NAME,
  ETL_SESSION_FIELD_LOG_FILE_NAME,
  ETL_SESSION_N_FIELDS
} EtlSessionField;

/**
 * EtlSessionFieldInfo:
 * @field: the #EtlSessionField
 * @name: the Windows name ("BufferSize", "Wnode.Guid", …)
 * @kind: its C type
 * @offset_x64: byte offset in the x64 layout (strings: 0, see etl_session_field_span())
 * @size_x64: size in bytes in the x64 layout
 * @offset_x86: byte offset in the x86 layout
 * @size_x86: size in bytes in the x86 layout
 * @alias_of: for a union member sharing an earlier slot, that member; else -1
 * @settable: %TRUE when a user sets it (not computed by the encoder, not output-only)
 * @output_only: filled by ControlTrace(QUERY); callers leave it 0
 * @unit: unit shown next to the value ("KB", "s", …) or %NULL
 * @doc: the field's documentation, summarised from the EVENT_TRACE_PROPERTIES
 *   and WNODE_HEADER reference pages
 *
 * One row of the layout table, checked against mingw-w64's evntrace.h and
 * wmistr.h by tests/mingw/.
 */
typedef struct
{
  EtlSessionField field;
  const char *name;
  EtlSessionFieldKind kind;
  guint offset_x64;
  guint size_x64;
  guint offset_x86;
  guint size_x86;
  int alias_of;
  gboolean settable;
  gboolean output_only;
  const char *unit;
  const char *doc;
} EtlSessionFieldInfo;

const EtlSessionFieldInfo *etl_session_field_info (EtlSessionField field);
const EtlSessionFieldInfo *etl_session_field_lookup (const char *name);

/**
 * EtlSession:
 * @wnode_provider_id: Wnode.ProviderId (reserved)
 * @wnode_historical_context: Wnode.HistoricalContext (on output, the session handle)
 * @wnode_time_stamp: Wnode.TimeStamp (100-ns units since 1601)
 * @wnode_guid: Wnode.Guid, the session GUID (zero: ETW makes one)
 * @wnode_client_context: Wnode.ClientContext, the clock (#EtlSessionClock)
 * @wnode_flags: Wnode.Flags; the encoder always adds %ETL_WNODE_FLAG_TRACED_GUID
 * @buffer_size: BufferSize, KB per buffer
 * @minimum_buffers: MinimumBuffers
 * @maximum_buffers: MaximumBuffers
 * @maximum_file_size: MaximumFileSize, MB (KB with USE_KBYTES_FOR_SIZE); 0 = no limit
 * @log_file_mode: LogFileMode, ETL_EVENT_TRACE_* mode bits
 * @flush_timer: FlushTimer, seconds
 * @enable_flags: EnableFlags, ETL_EVENT_TRACE_FLAG_* bits (system loggers only)
 * @age_limit: AgeLimit / FlushThreshold (shared slot)
 * @number_of_buffers: output: buffers allocated
 * @free_buffers: output: buffers allocated but unused
 * @events_lost: output: events not recorded
 * @buffers_written: output: buffers written
 * @log_buffers_lost: output: buffers not written to the log file
 * @real_time_buffers_lost: output: buffers not delivered to a real-time consumer
 * @logger_thread_id: output: the session's thread id (low 32 bits on x86)
 * @logger_name: session name, UTF-8, never %NULL
 * @log_file_name: log file name, UTF-8, never %NULL; "" = no log file
 *   (LogFileNameOffset 0)
 *
 * A session's settings.  Wnode.BufferSize and the two name offsets are not
 * stored: the encoder computes them.  A boxed type: etl_session_copy(),
 * etl_session_free().
 */
typedef struct
{
  guint32 wnode_provider_id;
  guint64 wnode_historical_context;
  gint64 wnode_time_stamp;
  EtlGuid wnode_guid;
  guint32 wnode_client_context;
  guint32 wnode_flags;
  guint32 buffer_size;
  guint32 minimum_buffers;
  guint32 maximum_buffers;
  guint32 maximum_file_size;
  guint32 log_file_mode;
  guint32 flush_timer;
  guint32 enable_flags;
  gint32 age_limit;
  guint32 number_of_buffers;
  guint32 free_buffers;
  guint32 events_lost;
  guint32 buffers_written;
  guint32 log_buffers_lost;
  guint32 real_time_buffers_lost;
  guint64 logger_thread_id;
  char *logger_name;
  char *log_file_name;
} EtlSession;

#define ETL_TYPE_SESSION (etl_session_get_type ())
GType etl_session_get_type (void) G_GNUC_CONST;

EtlSession *etl_session_new (void);
EtlSession *etl_session_copy (const EtlSession *session);
void etl_session_free (EtlSession *session);
gboolean etl_session_equal (const EtlSession *a, const EtlSession *b);
void etl_session_set_logger_name (EtlSession *session, const char *name);
void etl_session_set_log_file_name (EtlSession *session, const char *name);

gboolean etl_session_set_field (EtlSession *session, const char *field, const char *value, GError **error);
char *etl_session_get_field (const EtlSession *session, const char *field);
gboolean etl_session_is_system_logger (const EtlSession *session);

gboolean etl_session_parse_flags (const char *text, gboolean enable_flags, guint32 *out, GError **error);
char *etl_session_format_flags (guint32 value, gboolean enable_flags);
char *etl_session_format_flags_full (guint32 value, gboolean enable_flags, const char *separator,
                                     const char *rest_format);

extern const EtlGuid etl_system_trace_control_guid;
extern const EtlGuid etl_global_logger_guid;

/* Encoder / decoder */
GBytes *etl_session_encode (const EtlSession *session, EtlSessionArch arch);
EtlSession *etl_session_decode (const guint8 *data, gsize len, EtlSessionArch arch, GError **error);
gboolean etl_session_field_span (const EtlSession *session, EtlSessionArch arch, EtlSessionField field,
                                 guint *offset, guint *size);
EtlSessionField etl_session_field_at (const EtlSession *session, EtlSessionArch arch, guint offset);
gboolean etl_session_arch_parse (const char *text, EtlSessionArch *arch);

/* Checker */

/**
 * EtlSessionSeverity:
 * @ETL_SESSION_SEVERITY_INFO: what ETW will do with the value; nothing to fix
 * @ETL_SESSION_SEVERITY_WARNING: allowed, but against the documented advice
 * @ETL_SESSION_SEVERITY_ERROR: StartTrace would reject or misuse it
 */
typedef enum
{
  ETL_SESSION_SEVERITY_INFO,
  ETL_SESSION_SEVERITY_WARNING,
  ETL_SESSION_SEVERITY_ERROR,
} EtlSessionSeverity;

const char *etl_session_severity_name (EtlSessionSeverity severity);

/**
 * EtlSessionDiagnostic:
 * @severity: how serious
 * @field: the offending field
 * @rule: stable rule id ("buffer-size-range", …)
 * @message: the documented reason, in English
 */
typedef struct
{
  EtlSessionSeverity severity;
  EtlSessionField field;
  const char *rule;
  char *message;
} EtlSessionDiagnostic;

const char *const *etl_session_rules (guint *n_rules);
GPtrArray *etl_session_check (const EtlSession *session, guint n_cpus);
gboolean etl_session_diagnostics_have_errors (GPtrArray *diagnostics);

/**
 * EtlSessionEffective:
 * @buffer_size_kb: buffer size in KB as requested (ETW may round it up to the disk's block size)
 * @minimum_buffers: MinimumBuffers after ETW's raise to 2 per processor (2 in total without per-processor buffering)
 * @maximum_buffers: MaximumBuffers after ETW's raise to MinimumBuffers (= minimum in buffering mode)
 * @reserved_bytes: memory reserved at start: @minimum_buffers × @buffer_size_kb KB
 * @maximum_bytes: memory the session may grow to: @maximum_buffers × @buffer_size_kb KB
 * @flush_timer_s: effective flush period in seconds, 0 = only when a buffer is full / never
 * @max_file_bytes: MaximumFileSize in bytes (0 = no limit)
 * @clock: effective clock (0 resolves to QPC)
 * @system_logger: whether EnableFlags apply
 * @n_cpus: the processor count used
 *
 * What ETW will use for the settings on a machine with @n_cpus logical processors.
 */
typedef struct
{
  guint32 buffer_size_kb;
  guint32 minimum_buffers;
  guint32 maximum_buffers;
  guint64 reserved_bytes;
  guint64 maximum_bytes;
  guint32 flush_timer_s;
  guint64 max_file_bytes;
  guint32 clock;
  gboolean system_logger;
  guint n_cpus;
} EtlSessionEffective;

void etl_session_effective (const EtlSession *session, guint n_cpus, EtlSessionEffective *out);
guint32 etl_session_buffers_for_rate (double kb_per_second, double seconds, guint32 buffer_size_kb);

/* Presets */
const char *const *etl_session_preset_names (void);
const char *etl_session_preset_description (const char *name);
EtlSession *etl_session_new_preset (const char *name, GError **error);
GKeyFile *etl_session_to_key_file (const EtlSession *session);
char *etl_session_to_ini (const EtlSession *session);
EtlSession *etl_session_new_from_key_file (GKeyFile *key_file, GError **error);
gboolean etl_session_save_ini (const EtlSession *session, const char *path, GError **error);
EtlSession *etl_session_load_ini (const char *path, GError **error);

/* Control (Windows only; elsewhere these fail with ETL_SESSION_ERROR_NOT_SUPPORTED) */
gboolean etl_session_control_supported (void);
gboolean etl_session_start (const EtlSession *session, guint64 *handle, GError **error);
EtlSession *etl_session_control (guint64 handle, const char *logger_name, guint code, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlSession, etl_session_free)

G_END_DECLS
