/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * SECTION:etl-session
 * @title: EtlSession
 * @short_description: ETW session settings (EVENT_TRACE_PROPERTIES)
 *
 * #EtlSession is a portable model of the settings one passes to StartTrace:
 * every member of EVENT_TRACE_PROPERTIES and its WNODE_HEADER, the session
 * name and the log file name.  etl_session_encode() writes the documented
 * allocation (zeroed structure, then the session name, then the log file
 * name, both NUL-terminated UTF-16LE; Wnode.BufferSize = the whole
 * allocation; Wnode.Flags with WNODE_FLAG_TRACED_GUID) in the x64 or x86
 * layout, and etl_session_decode() reads it back.
 *
 * etl_session_check() turns every documented rule of the
 * EVENT_TRACE_PROPERTIES and WNODE_HEADER reference pages (see
 * shared/reference/etw-facts.md and seeds 000, 002, 003) into a diagnostic.
 * Values and offsets are those of mingw-w64's evntrace.h and wmistr.h; the
 * tests in tests/mingw/ compile static asserts against those headers.
 */
#define G_LOG_DOMAIN "etl-session"

#include "config.h"

#include "etl-session.h"

#ifdef G_OS_WIN32
#include "etl-session-win32.h"
#endif

#include <errno.h>
#include <string.h>

G_DEFINE_QUARK (etl-session-error-quark, etl_session_error)
G_DEFINE_BOXED_TYPE (EtlSession, etl_session, etl_session_copy, etl_session_free)

/* SystemTraceControlGuid (evntrace.h) */
const EtlGuid etl_system_trace_control_guid =
  { 0x9e814aad, 0x3204, 0x11d2, { 0x9a, 0x82, 0x00, 0x60, 0x08, 0xa8, 0x69, 0x39 } };
/* GlobalLoggerGuid (Windows SDK evntrace.h; mingw-w64 does not define it) */
const EtlGuid etl_global_logger_guid =
  { 0xe8908abc, 0xaa84, 0x11d2, { 0x9a, 0x93, 0x00, 0x80, 0x5f, 0x85, 0xd7, 0xc6 } };

/* ------------------------------------------------------------------------ */
/* Tables                                                                   */

static const char *const windows_names[] = {
  [ETL_WINDOWS_2000] = "Windows 2000",
  [ETL_WINDOWS_XP] = "Windows XP",
  [ETL_WINDOWS_VISTA] = "Windows Vista",
  [ETL_WINDOWS_7] = "Windows 7",
  [ETL_WINDOWS_8] = "Windows 8",
  [ETL_WINDOWS_8_1] = "Windows 8.1",
  [ETL_WINDOWS_10] = "Windows 10",
};

/**
 * etl_windows_version_name:
 * @version: an #EtlWindowsVersion
 *
 * Returns: (transfer none): "Windows Vista", …
 */
const char *
etl_windows_version_name (EtlWindowsVersion version)
{
  g_return_val_if_fail (version <= ETL_WINDOWS_10, "?");
  return windows_names[version];
}

#define M(n, v, w, m) { "EVENT_TRACE_" #n, v, ETL_WINDOWS_##w, m, FALSE }
#define MR(n, v, w, m) { "EVENT_TRACE_" #n, v, ETL_WINDOWS_##w, m, TRUE }
/* Logging Mode Constants (evntrace.h); versions from Microsoft's page. */
static const EtlSessionFlagInfo log_file_modes[] = {
  M (FILE_MODE_NONE, 0x00000000, 2000, "No log file mode (same as sequential when a file name is given)"),
  M (FILE_MODE_SEQUENTIAL, 0x00000001, 2000, "Write events to the log file sequentially; stop at MaximumFileSize"),
  M (FILE_MODE_CIRCULAR, 0x00000002, 2000, "Circular log file: overwrite the oldest buffers at MaximumFileSize"),
  M (FILE_MODE_APPEND, 0x00000004, XP, "Append to an existing sequential log file"),
  M (FILE_MODE_NEWFILE, 0x00000008, XP, "Start a new numbered file (name contains %d) at MaximumFileSize"),
  M (FILE_MODE_PREALLOCATE, 0x00000020, XP, "Reserve MaximumFileSize on disk when the session starts"),
  M (NONSTOPPABLE_MODE, 0x00000040, VISTA, "AutoLogger session that cannot be stopped (AutoLogger only)"),
  M (SECURE_MODE, 0x00000080, VISTA, "Only the session's owner may log to it (private logger)"),
  M (REAL_TIME_MODE, 0x00000100, 2000, "Deliver events to a real-time consumer"),
  M (DELAY_OPEN_FILE_MODE, 0x00000200, 2000, "Open the log file when the first event arrives (obsolete)"),
  M (BUFFERING_MODE, 0x00000400, 2000, "In-memory circular buffers only; flush to a file on demand"),
  M (PRIVATE_LOGGER_MODE, 0x00000800, 2000, "Private (per-process) logger session"),
  M (ADD_HEADER_MODE, 0x00001000, 2000, "Add a logfile header (obsolete)"),
  M (USE_KBYTES_FOR_SIZE, 0x00002000, VISTA, "MaximumFileSize is in KB instead of MB"),
  M (USE_GLOBAL_SEQUENCE, 0x00004000, XP, "Sequence numbers unique across sessions"),
  M (USE_LOCAL_SEQUENCE, 0x00008000, XP, "Sequence numbers unique within the session"),
  M (RELOG_MODE, 0x00010000, XP, "Relogger session (for RelogEvent)"),
  M (PRIVATE_IN_PROC, 0x00020000, VISTA, "In-process private logger (with PRIVATE_LOGGER_MODE)"),
  MR (MODE_RESERVED, 0x00100000, VISTA, "Reserved"),
  M (STOP_ON_HYBRID_SHUTDOWN, 0x00400000, 8, "Stop the session on hybrid shutdown"),
  M (PERSIST_ON_HYBRID_SHUTDOWN, 0x00800000, 8, "Keep the session across hybrid shutdown"),
  M (USE_PAGED_MEMORY, 0x01000000, VISTA, "Use paged memory for buffers (user-mode providers only)"),
  M (SYSTEM_LOGGER_MODE, 0x02000000, 8, "System logger: receives SystemTraceProvider events (EnableFlags)"),
  M (COMPRESSED_MODE, 0x04000000, 10, "Compress the buffers written to the log file"),
  M (INDEPENDENT_SESSION_MODE, 0x08000000, 8_1, "Independent of other system loggers' errors"),
  M (NO_PER_PROCESSOR_BUFFERING, 0x10000000, 8, "One buffer set for all processors (events in order, more contention)"),
  M (ADDTO_TRIAGE_DUMP, 0x80000000, 10, "Include the session's buffers in triage dumps"),
};

#define F(n, v, w, m) { "EVENT_TRACE_FLAG_" #n, v, ETL_WINDOWS_##w, m, FALSE }
#define FR(n, v, w, m) { "EVENT_TRACE_FLAG_" #n, v, ETL_WINDOWS_##w, m, TRUE }
/* EnableFlags (evntrace.h; versions from the EVENT_TRACE_PROPERTIES page, seed 000) */
static const EtlSessionFlagInfo enable_flags[] = {
  F (PROCESS, 0x00000001, 2000, "Process start/end events"),
  F (THREAD, 0x00000002, 2000, "Thread start/end events"),
  F (IMAGE_LOAD, 0x00000004, 2000, "Image load/unload events"),
  F (PROCESS_COUNTERS, 0x00000008, VISTA, "Process_V2 performance counter events"),
  F (CSWITCH, 0x00000010, VISTA, "Thread context switch events"),
  F (DPC, 0x00000020, VISTA, "Deferred procedure call events"),
  F (INTERRUPT, 0x00000040, VISTA, "Interrupt service routine events"),
  F (SYSTEMCALL, 0x00000080, VISTA, "System call enter/exit events"),
  F (DISK_IO, 0x00000100, 2000, "Disk I/O completion events"),
  F (DISK_FILE_IO, 0x00000200, 2000, "File name events (needs EVENT_TRACE_FLAG_DISK_IO)"),
  F (DISK_IO_INIT, 0x00000400, VISTA, "Disk I/O initiation events"),
  F (DISPATCHER, 0x00000800, 7, "Thread ready (dispatcher) events"),
  F (MEMORY_PAGE_FAULTS, 0x00001000, 2000, "All page fault events"),
  F (MEMORY_HARD_FAULTS, 0x00002000, 2000, "Hard page fault events"),
  F (VIRTUAL_ALLOC, 0x00004000, 7, "Virtual memory allocation/free events"),
  F (VAMAP, 0x00008000, 8, "Map/unmap events (image files excluded)"),
  F (NETWORK_TCPIP, 0x00010000, 2000, "TCP/IP and UDP/IP events"),
  F (REGISTRY, 0x00020000, 2000, "Registry events"),
  F (DBGPRINT, 0x00040000, 2000, "DbgPrint/DbgPrintEx calls as events"),
  F (JOB, 0x00080000, 10, "Job object events"),
  F (ALPC, 0x00100000, VISTA, "ALPC events"),
  F (SPLIT_IO, 0x00200000, VISTA, "Split I/O events"),
  F (DEBUG_EVENTS, 0x00400000, VISTA, "Debugger events"),
  F (DRIVER, 0x00800000, VISTA, "Driver request/completion events"),
  F (PROFILE, 0x01000000, VISTA, "Sampled profile (CPU sampling) events"),
  F (FILE_IO, 0x02000000, VISTA, "File I/O completion events"),
  F (FILE_IO_INIT, 0x04000000, VISTA, "File I/O initiation events"),
  F (NO_SYSCONFIG, 0x10000000, 8, "Skip the system configuration rundown"),
  FR (ENABLE_RESERVE, 0x20000000, VISTA, "Reserved"),
  FR (FORWARD_WMI, 0x40000000, VISTA, "Reserved (forward WMI events)"),
  FR (EXTENSION, 0x80000000, VISTA, "Reserved (extension flags)"),
};

static const EtlSessionClockInfo clocks[] = {
  { 1, "QPC", "Query performance counter: high resolution, unaffected by system clock changes; the default since Windows Vista; use it when a consumer merges events from different buffers" },
  { 2, "System time", "System time (FILETIME, 100-ns units): follows system clock adjustments" },
  { 3, "CPU cycle", "CPU cycle counter: highest resolution and cheapest, but unreliable (frequency changes); not for production" },
};

/**
 * etl_session_log_file_modes:
 * @n_modes: (out): number of entries
 *
 * The LogFileMode constants of evntrace.h ("Logging Mode Constants"), in
 * value order, EVENT_TRACE_FILE_MODE_NONE (0) first.
 *
 * Returns: (transfer none) (array length=n_modes): the table
 */
const EtlSessionFlagInfo *
etl_session_log_file_modes (guint *n_modes)
{
  g_return_val_if_fail (n_modes != NULL, NULL);
  *n_modes = G_N_ELEMENTS (log_file_modes);
  return log_file_modes;
}

/**
 * etl_session_enable_flags:
 * @n_flags: (out): number of entries
 *
 * The EnableFlags (EVENT_TRACE_FLAG_*) constants of evntrace.h with the
 * minimum Windows version listed on the EVENT_TRACE_PROPERTIES page.
 *
 * Returns: (transfer none) (array length=n_flags): the table
 */
const EtlSessionFlagInfo *
etl_session_enable_flags (guint *n_flags)
{
  g_return_val_if_fail (n_flags != NULL, NULL);
  *n_flags = G_N_ELEMENTS (enable_flags);
  return enable_flags;
}

/**
 * etl_session_clocks:
 * @n_clocks: (out): number of entries (3)
 *
 * The three WNODE_HEADER.ClientContext clock types (wmistr.h page, seeds 002/003).
 *
 * Returns: (transfer none) (array length=n_clocks): the table
 */
const EtlSessionClockInfo *
etl_session_clocks (guint *n_clocks)
{
  g_return_val_if_fail (n_clocks != NULL, NULL);
  *n_clocks = G_N_ELEMENTS (clocks);
  return clocks;
}

#define U32 ETL_SESSION_FIELD_KIND_U32
#define I32 ETL_SESSION_FIELD_KIND_I32
#define U64 ETL_SESSION_FIELD_KIND_U64
#define HND ETL_SESSION_FIELD_KIND_HANDLE
#define GID ETL_SESSION_FIELD_KIND_GUID
#define STR ETL_SESSION_FIELD_KIND_STRING

/* Offsets and sizes: mingw-w64 evntrace.h / wmistr.h, checked by tests/mingw. */
static const EtlSessionFieldInfo fields[ETL_SESSION_N_FIELDS] = {
  { ETL_SESSION_FIELD_WNODE_BUFFER_SIZE, "Wnode.BufferSize", U32, 0, 4, 0, 4, -1, FALSE, FALSE, "bytes",
    "Total size of the allocation in bytes: the structure plus the session name and log file name that follow it. Computed." },
  { ETL_SESSION_FIELD_WNODE_PROVIDER_ID, "Wnode.ProviderId", U32, 4, 4, 4, 4, -1, FALSE, FALSE, NULL,
    "Reserved for internal use." },
  { ETL_SESSION_FIELD_WNODE_HISTORICAL_CONTEXT, "Wnode.HistoricalContext", U64, 8, 8, 8, 8, -1, FALSE, TRUE, NULL,
    "On output, the handle of the event tracing session." },
  { ETL_SESSION_FIELD_WNODE_VERSION, "Wnode.Version", U32, 8, 4, 8, 4, ETL_SESSION_FIELD_WNODE_HISTORICAL_CONTEXT, FALSE, FALSE, NULL,
    "Reserved for internal use (shares HistoricalContext)." },
  { ETL_SESSION_FIELD_WNODE_LINKAGE, "Wnode.Linkage", U32, 12, 4, 12, 4, ETL_SESSION_FIELD_WNODE_HISTORICAL_CONTEXT, FALSE, FALSE, NULL,
    "Reserved for internal use (shares HistoricalContext)." },
  { ETL_SESSION_FIELD_WNODE_TIME_STAMP, "Wnode.TimeStamp", U64, 16, 8, 16, 8, -1, FALSE, FALSE, "100 ns",
    "Time the information in this structure was updated, in 100-ns intervals since 1601-01-01." },
  { ETL_SESSION_FIELD_WNODE_KERNEL_HANDLE, "Wnode.KernelHandle", HND, 16, 8, 16, 4, ETL_SESSION_FIELD_WNODE_TIME_STAMP, FALSE, FALSE, NULL,
    "Reserved for internal use (shares TimeStamp)." },
  { ETL_SESSION_FIELD_WNODE_GUID, "Wnode.Guid", GID, 24, 16, 24, 16, -1, TRUE, FALSE, NULL,
    "GUID of the session. NT Kernel Logger: SystemTraceControlGuid; a private logger: the provider's GUID; otherwise optional (ETW creates one). SystemTraceControlGuid or GlobalLoggerGuid make a system logger." },
  { ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT, "Wnode.ClientContext", U32, 40, 4, 40, 4, -1, TRUE, FALSE, NULL,
    "Clock for event timestamps: 1 QPC (default since Vista), 2 system time, 3 CPU cycle counter." },
  { ETL_SESSION_FIELD_WNODE_FLAGS, "Wnode.Flags", U32, 44, 4, 44, 4, -1, TRUE, FALSE, NULL,
    "Must contain WNODE_FLAG_TRACED_GUID (0x00020000)." },
  { ETL_SESSION_FIELD_BUFFER_SIZE, "BufferSize", U32, 48, 4, 48, 4, -1, TRUE, FALSE, "KB",
    "KB per buffer, 4 to 16384 (1024 before Windows 8). Most sessions: 64 KB or less; few KB/s: 4-16 KB, moderate: 16-32 KB, MB/s: 64-128 KB; 256 KB or more only for diagnostics. ETW never records an event larger than 64 KB." },
  { ETL_SESSION_FIELD_MINIMUM_BUFFERS, "MinimumBuffers", U32, 52, 4, 52, 4, -1, TRUE, FALSE, "buffers",
    "Buffers reserved at start. ETW raises it to 2 per logical processor (2 with NO_PER_PROCESSOR_BUFFERING). In buffering mode it is the whole memory budget: rate x seconds / BufferSize." },
  { ETL_SESSION_FIELD_MAXIMUM_BUFFERS, "MaximumBuffers", U32, 56, 4, 56, 4, -1, TRUE, FALSE, "buffers",
    "Most buffers ETW allocates. Raised to MinimumBuffers; ignored in buffering mode. Start with Minimum = Maximum, raise Maximum if events are lost at peaks." },
  { ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE, "MaximumFileSize", U32, 60, 4, 60, 4, -1, TRUE, FALSE, "MB",
    "Maximum log file size in MB (KB with USE_KBYTES_FOR_SIZE), 0 = no limit. Required with CIRCULAR, NEWFILE and PREALLOCATE. On the system drive ETW also wants 200 MB free beyond it." },
  { ETL_SESSION_FIELD_LOG_FILE_MODE, "LogFileMode", U32, 64, 4, 64, 4, -1, TRUE, FALSE, NULL,
    "Logging mode flags: log file, circular, real-time, in-memory buffering, private logger, …" },
  { ETL_SESSION_FIELD_FLUSH_TIMER, "FlushTimer", U32, 68, 4, 68, 4, -1, TRUE, FALSE, "s",
    "How often non-empty buffers are flushed, in seconds. File mode: 0 = only when full (recommended). Real time: 0 means 1 s; 5-10 s suggested. Buffering mode: unused." },
  { ETL_SESSION_FIELD_ENABLE_FLAGS, "EnableFlags", U32, 72, 4, 72, 4, -1, TRUE, FALSE, NULL,
    "SystemTraceProvider (kernel) event groups. Only for system loggers: SYSTEM_LOGGER_MODE, the session name \"NT Kernel Logger\", or the GUIDs SystemTraceControlGuid / GlobalLoggerGuid." },
  { ETL_SESSION_FIELD_AGE_LIMIT, "AgeLimit", I32, 76, 4, 76, 4, -1, TRUE, FALSE, "min",
    "Not used (Windows 2000: minutes before unused buffers are freed)." },
  { ETL_SESSION_FIELD_FLUSH_THRESHOLD, "FlushThreshold", I32, 76, 4, 76, 4, ETL_SESSION_FIELD_AGE_LIMIT, FALSE, FALSE, NULL,
    "Shares AgeLimit's slot." },
  { ETL_SESSION_FIELD_NUMBER_OF_BUFFERS, "NumberOfBuffers", U32, 80, 4, 80, 4, -1, FALSE, TRUE, "buffers",
    "On output, the number of buffers allocated for the session's buffer pool." },
  { ETL_SESSION_FIELD_FREE_BUFFERS, "FreeBuffers", U32, 84, 4, 84, 4, -1, FALSE, TRUE, "buffers",
    "On output, buffers allocated but unused." },
  { ETL_SESSION_FIELD_EVENTS_LOST, "EventsLost", U32, 88, 4, 88, 4, -1, FALSE, TRUE, "events",
    "On output, the number of events that were not recorded." },
  { ETL_SESSION_FIELD_BUFFERS_WRITTEN, "BuffersWritten", U32, 92, 4, 92, 4, -1, FALSE, TRUE, "buffers",
    "On output, the number of buffers written." },
  { ETL_SESSION_FIELD_LOG_BUFFERS_LOST, "LogBuffersLost", U32, 96, 4, 96, 4, -1, FALSE, TRUE, "buffers",
    "On output, buffers that could not be written to the log file." },
  { ETL_SESSION_FIELD_REAL_TIME_BUFFERS_LOST, "RealTimeBuffersLost", U32, 100, 4, 100, 4, -1, FALSE, TRUE, "buffers",
    "On output, buffers that could not be delivered to a real-time consumer." },
  { ETL_SESSION_FIELD_LOGGER_THREAD_ID, "LoggerThreadId", HND, 104, 8, 104, 4, -1, FALSE, TRUE, NULL,
    "On output, the thread identifier of the session." },
  { ETL_SESSION_FIELD_LOG_FILE_NAME_OFFSET, "LogFileNameOffset", U32, 112, 4, 108, 4, -1, FALSE, FALSE, "bytes",
    "Byte offset of the log file name from the start of the allocation; 0 = no log file. Computed." },
  { ETL_SESSION_FIELD_LOGGER_NAME_OFFSET, "LoggerNameOffset", U32, 116, 4, 112, 4, -1, FALSE, FALSE, "bytes",
    "Byte offset of the session name from the start of the allocation. Computed." },
  { ETL_SESSION_FIELD_LOGGER_NAME, "LoggerName", STR, 0, 0, 0, 0, -1, TRUE, FALSE, NULL,
    "Session name: at most 1024 characters, case-insensitive, descriptive; never a GUID or random digits. StartTrace copies it." },
  { ETL_SESSION_FIELD_LOG_FILE_NAME, "LogFileName", STR, 0, 0, 0, 0, -1, TRUE, FALSE, NULL,
    "Log file: at most 1024 characters, normally ending in .etl; its folders must exist; environment variables are not expanded. Empty = no file." },
};

/**
 * etl_session_field_info:
 * @field: an #EtlSessionField
 *
 * Returns: (transfer none): the field's row of the layout table
 */
const EtlSessionFieldInfo *
etl_session_field_info (EtlSessionField field)
{
  g_return_val_if_fail (field < ETL_SESSION_N_FIELDS, NULL);
  return &fields[field];
}

/**
 * etl_session_field_lookup:
 * @name: a Windows field name ("BufferSize", "Wnode.Guid"), any case;
 *   "Guid", "ClientContext" and "Flags" are accepted for the Wnode.* fields
 *   of the same name that EVENT_TRACE_PROPERTIES does not have itself
 *
 * Returns: (transfer none) (nullable): the row, or %NULL if unknown
 */
const EtlSessionFieldInfo *
etl_session_field_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < ETL_SESSION_N_FIELDS; i++)
    if (g_ascii_strcasecmp (fields[i].name, name) == 0)
      return &fields[i];
  for (guint i = 0; i < ETL_SESSION_N_FIELDS; i++)
    if (g_str_has_prefix (fields[i].name, "Wnode.") && g_ascii_strcasecmp (fields[i].name + 6, name) == 0
        && g_ascii_strcasecmp (name, "BufferSize") != 0)
      return &fields[i];
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The model                                                                */

/**
 * etl_session_new:
 *
 * Creates empty settings: everything 0, Wnode.Flags =
 * WNODE_FLAG_TRACED_GUID, empty names.  Use etl_session_new_preset() for
 * a sensible starting point.
 *
 * Returns: (transfer full): a new #EtlSession; free with etl_session_free()
 */
EtlSession *
etl_session_new (void)
{
  EtlSession *self = g_new0 (EtlSession, 1);

  self->wnode_flags = ETL_WNODE_FLAG_TRACED_GUID;
  self->logger_name = g_strdup ("");
  self->log_file_name = g_strdup ("");
  return self;
}

/**
 * etl_session_copy:
 * @session: an #EtlSession
 *
 * Returns: (transfer full): a deep copy
 */
EtlSession *
etl_session_copy (const EtlSession *session)
{
  EtlSession *copy;

  g_return_val_if_fail (session != NULL, NULL);
  copy = g_memdup2 (session, sizeof *session);
  copy->logger_name = g_strdup (session->logger_name);
  copy->log_file_name = g_strdup (session->log_file_name);
  return copy;
}

/**
 * etl_session_free:
 * @session: (nullable): an #EtlSession
 *
 * Frees @session and its strings.
 */
void
etl_session_free (EtlSession *session)
{
  if (session == NULL)
    return;
  g_free (session->logger_name);
  g_free (session->log_file_name);
  g_free (session);
}

/**
 * etl_session_equal:
 * @a: an #EtlSession
 * @b: another #EtlSession
 *
 * Returns: %TRUE when every field and both names are equal
 */
gboolean
etl_session_equal (const EtlSession *a, const EtlSession *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return a->wnode_provider_id == b->wnode_provider_id
         && a->wnode_historical_context == b->wnode_historical_context
         && a->wnode_time_stamp == b->wnode_time_stamp
         && etl_guid_equal (&a->wnode_guid, &b->wnode_guid)
         && a->wnode_client_context == b->wnode_client_context
         && a->wnode_flags == b->wnode_flags
         && a->buffer_size == b->buffer_size
         && a->minimum_buffers == b->minimum_buffers
         && a->maximum_buffers == b->maximum_buffers
         && a->maximum_file_size == b->maximum_file_size
         && a->log_file_mode == b->log_file_mode
         && a->flush_timer == b->flush_timer
         && a->enable_flags == b->enable_flags
         && a->age_limit == b->age_limit
         && a->number_of_buffers == b->number_of_buffers
         && a->free_buffers == b->free_buffers
         && a->events_lost == b->events_lost
         && a->buffers_written == b->buffers_written
         && a->log_buffers_lost == b->log_buffers_lost
         && a->real_time_buffers_lost == b->real_time_buffers_lost
         && a->logger_thread_id == b->logger_thread_id
         && g_strcmp0 (a->logger_name, b->logger_name) == 0
         && g_strcmp0 (a->log_file_name, b->log_file_name) == 0;
}

static char *
valid_utf8 (const char *s)
{
  if (s == NULL)
    return g_strdup ("");
  return g_utf8_make_valid (s, -1);
}

/**
 * etl_session_set_logger_name:
 * @session: an #EtlSession
 * @name: (nullable): the session name, UTF-8 (invalid sequences are replaced); %NULL = ""
 *
 * Sets LoggerName.
 */
void
etl_session_set_logger_name (EtlSession *session, const char *name)
{
  g_return_if_fail (session != NULL);
  g_free (session->logger_name);
  session->logger_name = valid_utf8 (name);
}

/**
 * etl_session_set_log_file_name:
 * @session: an #EtlSession
 * @name: (nullable): the log file path, UTF-8; %NULL or "" = no log file
 *
 * Sets LogFileName.
 */
void
etl_session_set_log_file_name (EtlSession *session, const char *name)
{
  g_return_if_fail (session != NULL);
  g_free (session->log_file_name);
  session->log_file_name = valid_utf8 (name);
}

/**
 * etl_session_is_system_logger:
 * @session: an #EtlSession
 *
 * Whether EnableFlags apply: EVENT_TRACE_SYSTEM_LOGGER_MODE, the session
 * name KERNEL_LOGGER_NAME ("NT Kernel Logger", case-insensitive), or the
 * session GUID SystemTraceControlGuid or GlobalLoggerGuid
 * (EVENT_TRACE_PROPERTIES page, EnableFlags).
 *
 * Returns: %TRUE for a system logger
 */
gboolean
etl_session_is_system_logger (const EtlSession *session)
{
  g_return_val_if_fail (session != NULL, FALSE);

  return (session->log_file_mode & ETL_EVENT_TRACE_SYSTEM_LOGGER_MODE) != 0
         || g_ascii_strcasecmp (session->logger_name, ETL_KERNEL_LOGGER_NAME) == 0
         || etl_guid_equal (&session->wnode_guid, &etl_system_trace_control_guid)
         || etl_guid_equal (&session->wnode_guid, &etl_global_logger_guid);
}

static gboolean
parse_u64 (const char *text, guint64 max, guint64 *out)
{
  const char *p = text;
  guint base = 10;
  char *end = NULL;
  guint64 v;

  while (g_ascii_isspace (*p))
    p++;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      base = 16;
      p += 2;
    }
  if (!g_ascii_isxdigit (*p) || *p == '-' || *p == '+')
    return FALSE;
  errno = 0;
  v = g_ascii_strtoull (p, &end, base);
  if (errno != 0 || end == p)
    return FALSE;
  while (g_ascii_isspace (*end))
    end++;
  if (*end != '\0' || v > max)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
parse_i32 (const char *text, gint32 *out)
{
  gint64 v;
  g_autofree char *t = g_strstrip (g_strdup (text));

  if (!g_ascii_string_to_signed (t, 10, G_MININT32, G_MAXINT32, &v, NULL))
    {
      guint64 u;

      if (!parse_u64 (text, G_MAXUINT32, &u))
        return FALSE;
      *out = (gint32) (guint32) u;
      return TRUE;
    }
  *out = (gint32) v;
  return TRUE;
}

static const EtlSessionFlagInfo *
flag_lookup (const char *name, gboolean enable)
{
  const EtlSessionFlagInfo *table = enable ? enable_flags : log_file_modes;
  guint n = enable ? G_N_ELEMENTS (enable_flags) : G_N_ELEMENTS (log_file_modes);
  const char *prefixes[] = { "", "EVENT_TRACE_", "EVENT_TRACE_FLAG_" };

  for (guint p = 0; p < G_N_ELEMENTS (prefixes); p++)
    for (guint i = 0; i < n; i++)
      {
        gsize plen = strlen (prefixes[p]);

        if (g_ascii_strncasecmp (table[i].name, prefixes[p], plen) == 0
            && g_ascii_strcasecmp (table[i].name + plen, name) == 0)
          return &table[i];
      }
  return NULL;
}

/**
 * etl_session_parse_flags:
 * @text: flags as "NAME|NAME|0x10", names as in evntrace.h (prefix
 *   EVENT_TRACE_ / EVENT_TRACE_FLAG_ optional, any case); '|', ',', '+' and
 *   spaces separate; numbers are decimal or 0x hex
 * @enable_flags: %TRUE to parse EnableFlags names, %FALSE for LogFileMode
 * @out: (out): the value
 * @error: return location for an %ETL_SESSION_ERROR_INVALID_VALUE error
 *
 * Returns: %TRUE on success
 */
gboolean
etl_session_parse_flags (const char *text, gboolean enable_flags_, guint32 *out, GError **error)
{
  g_auto (GStrv) parts = NULL;
  guint32 value = 0;

  g_return_val_if_fail (text != NULL && out != NULL, FALSE);

  parts = g_strsplit_set (text, "|,+ \t", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      const EtlSessionFlagInfo *info;
      guint64 v;

      if (parts[i][0] == '\0')
        continue;
      if (parse_u64 (parts[i], G_MAXUINT32, &v))
        {
          value |= (guint32) v;
          continue;
        }
      info = flag_lookup (parts[i], enable_flags_);
      if (info == NULL)
        {
          g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE,
                       "“%s” is not a %s constant (evntrace.h)", parts[i],
                       enable_flags_ ? "EnableFlags (EVENT_TRACE_FLAG_*)" : "LogFileMode (EVENT_TRACE_*)");
          return FALSE;
        }
      value |= info->value;
    }
  *out = value;
  return TRUE;
}

/**
 * etl_session_format_flags_full:
 * @value: a LogFileMode or EnableFlags value
 * @enable_flags_: %TRUE for EnableFlags, %FALSE for LogFileMode
 * @separator: what goes between names ("|", or " | " with a line break for C code)
 * @rest_format: printf format of the bits no name covers, e.g. "0x%08x"
 *
 * Formats @value as the evntrace.h names of its flags, joined by
 * @separator; unknown bits as one trailing number; 0 as "0".
 *
 * Returns: (transfer full): the text
 */
char *
etl_session_format_flags_full (guint32 value, gboolean enable_flags_, const char *separator,
                               const char *rest_format)
{
  const EtlSessionFlagInfo *table = enable_flags_ ? enable_flags : log_file_modes;
  guint n = enable_flags_ ? G_N_ELEMENTS (enable_flags) : G_N_ELEMENTS (log_file_modes);
  GString *s;
  guint32 rest = value;

  if (value == 0)
    return g_strdup ("0");
  s = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    if (table[i].value != 0 && (value & table[i].value) == table[i].value)
      {
        if (s->len)
          g_string_append (s, separator);
        g_string_append (s, table[i].name);
        rest &= ~table[i].value;
      }
  if (rest != 0)
    {
      if (s->len)
        g_string_append (s, separator);
      g_string_append_printf (s, rest_format, rest);
    }
  return g_string_free (s, FALSE);
}

/**
 * etl_session_format_flags:
 * @value: a LogFileMode or EnableFlags value
 * @enable_flags_: %TRUE for EnableFlags, %FALSE for LogFileMode
 *
 * Formats @value as "NAME|NAME", unknown bits as a trailing 0x number, 0 as "0".
 *
 * Returns: (transfer full): the text
 */
char *
etl_session_format_flags (guint32 value, gboolean enable_flags_)
{
  return etl_session_format_flags_full (value, enable_flags_, "|", "0x%08x");
}

static guint64
field_get_number (const EtlSession *s, EtlSessionField f)
{
  switch (f)
    {
    case ETL_SESSION_FIELD_WNODE_PROVIDER_ID: return s->wnode_provider_id;
    case ETL_SESSION_FIELD_WNODE_HISTORICAL_CONTEXT: return s->wnode_historical_context;
    case ETL_SESSION_FIELD_WNODE_VERSION: return (guint32) s->wnode_historical_context;
    case ETL_SESSION_FIELD_WNODE_LINKAGE: return (guint32) (s->wnode_historical_context >> 32);
    case ETL_SESSION_FIELD_WNODE_TIME_STAMP:
    case ETL_SESSION_FIELD_WNODE_KERNEL_HANDLE: return (guint64) s->wnode_time_stamp;
    case ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT: return s->wnode_client_context;
    case ETL_SESSION_FIELD_WNODE_FLAGS: return s->wnode_flags;
    case ETL_SESSION_FIELD_BUFFER_SIZE: return s->buffer_size;
    case ETL_SESSION_FIELD_MINIMUM_BUFFERS: return s->minimum_buffers;
    case ETL_SESSION_FIELD_MAXIMUM_BUFFERS: return s->maximum_buffers;
    case ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE: return s->maximum_file_size;
    case ETL_SESSION_FIELD_LOG_FILE_MODE: return s->log_file_mode;
    case ETL_SESSION_FIELD_FLUSH_TIMER: return s->flush_timer;
    case ETL_SESSION_FIELD_ENABLE_FLAGS: return s->enable_flags;
    case ETL_SESSION_FIELD_AGE_LIMIT:
    case ETL_SESSION_FIELD_FLUSH_THRESHOLD: return (guint32) s->age_limit;
    case ETL_SESSION_FIELD_NUMBER_OF_BUFFERS: return s->number_of_buffers;
    case ETL_SESSION_FIELD_FREE_BUFFERS: return s->free_buffers;
    case ETL_SESSION_FIELD_EVENTS_LOST: return s->events_lost;
    case ETL_SESSION_FIELD_BUFFERS_WRITTEN: return s->buffers_written;
    case ETL_SESSION_FIELD_LOG_BUFFERS_LOST: return s->log_buffers_lost;
    case ETL_SESSION_FIELD_REAL_TIME_BUFFERS_LOST: return s->real_time_buffers_lost;
    case ETL_SESSION_FIELD_LOGGER_THREAD_ID: return s->logger_thread_id;
    default: return 0;
    }
}

static void
field_set_number (EtlSession *s, EtlSessionField f, guint64 v)
{
  switch (f)
    {
    case ETL_SESSION_FIELD_WNODE_PROVIDER_ID: s->wnode_provider_id = (guint32) v; break;
    case ETL_SESSION_FIELD_WNODE_HISTORICAL_CONTEXT: s->wnode_historical_context = v; break;
    case ETL_SESSION_FIELD_WNODE_VERSION:
      s->wnode_historical_context = (s->wnode_historical_context & G_GUINT64_CONSTANT (0xffffffff00000000)) | (guint32) v;
      break;
    case ETL_SESSION_FIELD_WNODE_LINKAGE:
      s->wnode_historical_context = (s->wnode_historical_context & 0xffffffffu) | ((guint64) (guint32) v << 32);
      break;
    case ETL_SESSION_FIELD_WNODE_TIME_STAMP:
    case ETL_SESSION_FIELD_WNODE_KERNEL_HANDLE: s->wnode_time_stamp = (gint64) v; break;
    case ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT: s->wnode_client_context = (guint32) v; break;
    case ETL_SESSION_FIELD_WNODE_FLAGS: s->wnode_flags = (guint32) v; break;
    case ETL_SESSION_FIELD_BUFFER_SIZE: s->buffer_size = (guint32) v; break;
    case ETL_SESSION_FIELD_MINIMUM_BUFFERS: s->minimum_buffers = (guint32) v; break;
    case ETL_SESSION_FIELD_MAXIMUM_BUFFERS: s->maximum_buffers = (guint32) v; break;
    case ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE: s->maximum_file_size = (guint32) v; break;
    case ETL_SESSION_FIELD_LOG_FILE_MODE: s->log_file_mode = (guint32) v; break;
    case ETL_SESSION_FIELD_FLUSH_TIMER: s->flush_timer = (guint32) v; break;
    case ETL_SESSION_FIELD_ENABLE_FLAGS: s->enable_flags = (guint32) v; break;
    case ETL_SESSION_FIELD_AGE_LIMIT:
    case ETL_SESSION_FIELD_FLUSH_THRESHOLD: s->age_limit = (gint32) (guint32) v; break;
    case ETL_SESSION_FIELD_NUMBER_OF_BUFFERS: s->number_of_buffers = (guint32) v; break;
    case ETL_SESSION_FIELD_FREE_BUFFERS: s->free_buffers = (guint32) v; break;
    case ETL_SESSION_FIELD_EVENTS_LOST: s->events_lost = (guint32) v; break;
    case ETL_SESSION_FIELD_BUFFERS_WRITTEN: s->buffers_written = (guint32) v; break;
    case ETL_SESSION_FIELD_LOG_BUFFERS_LOST: s->log_buffers_lost = (guint32) v; break;
    case ETL_SESSION_FIELD_REAL_TIME_BUFFERS_LOST: s->real_time_buffers_lost = (guint32) v; break;
    case ETL_SESSION_FIELD_LOGGER_THREAD_ID: s->logger_thread_id = v; break;
    default: g_assert_not_reached ();
    }
}

static const struct
{
  const char *name;
  guint32 value;
} clock_names[] = {
  { "default", 0 }, { "qpc", 1 }, { "perf", 1 }, { "perfcounter", 1 },
  { "system", 2 }, { "systemtime", 2 }, { "cycle", 3 }, { "cpucycle", 3 }, { "cyclecount", 3 },
};

/**
 * etl_session_set_field:
 * @session: an #EtlSession
 * @field: a Windows field name (see etl_session_field_lookup())
 * @value: the value: a number (decimal or 0x hex); for LogFileMode and
 *   EnableFlags also "NAME|NAME"; for Wnode.ClientContext also "QPC",
 *   "SystemTime", "CpuCycle"; for Wnode.Flags also "WNODE_FLAG_TRACED_GUID";
 *   for Wnode.Guid a registry-form GUID, "SystemTraceControlGuid",
 *   "GlobalLoggerGuid" or "" (zero); for the names any UTF-8 text
 * @error: return location for an %ETL_SESSION_ERROR_UNKNOWN_FIELD or
 *   %ETL_SESSION_ERROR_INVALID_VALUE error
 *
 * Sets one field from text, as `etlscope-cli session --set` and INI presets
 * do.  Wnode.BufferSize and the name offsets are computed by the encoder
 * and cannot be set.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_session_set_field (EtlSession *session, const char *field, const char *value, GError **error)
{
  const EtlSessionFieldInfo *info;
  guint64 v = 0;

  g_return_val_if_fail (session != NULL, FALSE);
  g_return_val_if_fail (field != NULL && value != NULL, FALSE);

  info = etl_session_field_lookup (field);
  if (info == NULL)
    {
      g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_UNKNOWN_FIELD,
                   "“%s” is not an EVENT_TRACE_PROPERTIES field", field);
      return FALSE;
    }

  switch (info->field)
    {
    case ETL_SESSION_FIELD_WNODE_BUFFER_SIZE:
    case ETL_SESSION_FIELD_LOG_FILE_NAME_OFFSET:
    case ETL_SESSION_FIELD_LOGGER_NAME_OFFSET:
      g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE,
                   "%s is computed from the names when the structure is encoded", info->name);
      return FALSE;
    case ETL_SESSION_FIELD_LOGGER_NAME:
      etl_session_set_logger_name (session, value);
      return TRUE;
    case ETL_SESSION_FIELD_LOG_FILE_NAME:
      etl_session_set_log_file_name (session, value);
      return TRUE;
    case ETL_SESSION_FIELD_WNODE_GUID:
      {
        g_autofree char *t = g_strstrip (g_strdup (value));

        if (t[0] == '\0' || g_strcmp0 (t, "0") == 0)
          memset (&session->wnode_guid, 0, sizeof session->wnode_guid);
        else if (g_ascii_strcasecmp (t, "SystemTraceControlGuid") == 0)
          session->wnode_guid = etl_system_trace_control_guid;
        else if (g_ascii_strcasecmp (t, "GlobalLoggerGuid") == 0)
          session->wnode_guid = etl_global_logger_guid;
        else if (!etl_guid_parse (t, &session->wnode_guid))
          {
            g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE,
                         "Wnode.Guid: “%s” is not a GUID", value);
            return FALSE;
          }
        return TRUE;
      }
    case ETL_SESSION_FIELD_LOG_FILE_MODE:
    case ETL_SESSION_FIELD_ENABLE_FLAGS:
      {
        guint32 flags;

        if (!etl_session_parse_flags (value, info->field == ETL_SESSION_FIELD_ENABLE_FLAGS, &flags, error))
          {
            g_prefix_error (error, "%s: ", info->name);
            return FALSE;
          }
        field_set_number (session, info->field, flags);
        return TRUE;
      }
    case ETL_SESSION_FIELD_AGE_LIMIT:
    case ETL_SESSION_FIELD_FLUSH_THRESHOLD:
      {
        gint32 i;

        if (!parse_i32 (value, &i))
          goto bad_number;
        session->age_limit = i;
        return TRUE;
      }
    case ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT:
      {
        g_autofree char *t = g_strdelimit (g_strstrip (g_strdup (value)), " _-", ' ');
        g_autofree char *squeezed = NULL;
        GString *sq = g_string_new (NULL);

        for (const char *p = t; *p; p++)
          if (*p != ' ')
            g_string_append_c (sq, *p);
        squeezed = g_string_free (sq, FALSE);
        for (guint i = 0; i < G_N_ELEMENTS (clock_names); i++)
          if (g_ascii_strcasecmp (squeezed, clock_names[i].name) == 0)
            {
              session->wnode_client_context = clock_names[i].value;
              return TRUE;
            }
        break;
      }
    case ETL_SESSION_FIELD_WNODE_FLAGS:
      if (g_strstr_len (value, -1, "WNODE_FLAG_TRACED_GUID") != NULL)
        {
          g_auto (GStrv) parts = g_strsplit_set (value, "|,+ ", -1);
          guint32 flags = 0;

          for (guint i = 0; parts[i]; i++)
            {
              if (parts[i][0] == '\0')
                continue;
              if (g_strcmp0 (parts[i], "WNODE_FLAG_TRACED_GUID") == 0)
                flags |= ETL_WNODE_FLAG_TRACED_GUID;
              else if (parse_u64 (parts[i], G_MAXUINT32, &v))
                flags |= (guint32) v;
              else
                goto bad_number;
            }
          session->wnode_flags = flags;
          return TRUE;
        }
      break;
    default:
      break;
    }

  {
    guint64 max = (info->kind == ETL_SESSION_FIELD_KIND_U32) ? G_MAXUINT32 : G_MAXUINT64;

    if (!parse_u64 (value, max, &v))
      goto bad_number;
    field_set_number (session, info->field, v);
    return TRUE;
  }

bad_number:
  g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_VALUE,
               "%s: “%s” is not a valid %s value", info->name, value,
               info->kind == ETL_SESSION_FIELD_KIND_U32 ? "ULONG (0 to 4294967295)"
               : info->kind == ETL_SESSION_FIELD_KIND_I32 ? "LONG" : "64-bit");
  return FALSE;
}

/**
 * etl_session_get_field:
 * @session: an #EtlSession
 * @field: a Windows field name
 *
 * Formats one field the way etl_session_set_field() reads it (flags as
 * names, GUIDs in registry form with braces, numbers in decimal, Wnode.Flags
 * in hex).  Computed fields (Wnode.BufferSize, offsets) are those of the x64
 * encoding.
 *
 * Returns: (transfer full) (nullable): the text, %NULL for an unknown field
 */
char *
etl_session_get_field (const EtlSession *session, const char *field)
{
  const EtlSessionFieldInfo *info;

  g_return_val_if_fail (session != NULL && field != NULL, NULL);

  info = etl_session_field_lookup (field);
  if (info == NULL)
    return NULL;

  switch (info->field)
    {
    case ETL_SESSION_FIELD_LOGGER_NAME:
      return g_strdup (session->logger_name);
    case ETL_SESSION_FIELD_LOG_FILE_NAME:
      return g_strdup (session->log_file_name);
    case ETL_SESSION_FIELD_WNODE_GUID:
      {
        char buf[ETL_GUID_STRING_LEN + 1];

        if (etl_guid_is_zero (&session->wnode_guid))
          return g_strdup ("");
        etl_guid_to_string (&session->wnode_guid, buf);
        return g_strdup_printf ("{%s}", buf);
      }
    case ETL_SESSION_FIELD_LOG_FILE_MODE:
      return etl_session_format_flags (session->log_file_mode, FALSE);
    case ETL_SESSION_FIELD_ENABLE_FLAGS:
      return etl_session_format_flags (session->enable_flags, TRUE);
    case ETL_SESSION_FIELD_WNODE_FLAGS:
      return g_strdup_printf ("0x%08x", session->wnode_flags);
    case ETL_SESSION_FIELD_AGE_LIMIT:
    case ETL_SESSION_FIELD_FLUSH_THRESHOLD:
      return g_strdup_printf ("%d", session->age_limit);
    case ETL_SESSION_FIELD_WNODE_BUFFER_SIZE:
    case ETL_SESSION_FIELD_LOG_FILE_NAME_OFFSET:
    case ETL_SESSION_FIELD_LOGGER_NAME_OFFSET:
      {
        g_autoptr (GBytes) bytes = etl_session_encode (session, ETL_SESSION_ARCH_X64);
        const guint8 *d = g_bytes_get_data (bytes, NULL);
        guint off = info->offset_x64;

        return g_strdup_printf ("%u", (guint) (d[off] | d[off + 1] << 8 | d[off + 2] << 16 | (guint) d[off + 3] << 24));
      }
    default:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, field_get_number (session, info->field));
    }
}

/* ------------------------------------------------------------------------ */
/* Encoder / decoder                                                        */

/**
 * etl_session_arch_parse:
 * @text: "x64", "amd64", "x86_64", "x86", "i686", "win32"
 * @arch: (out): the layout
 *
 * Returns: %TRUE if @text names a layout
 */
gboolean
etl_session_arch_parse (const char *text, EtlSessionArch *arch)
{
  g_return_val_if_fail (text != NULL && arch != NULL, FALSE);
  if (g_ascii_strcasecmp (text, "x64") == 0 || g_ascii_strcasecmp (text, "amd64") == 0
      || g_ascii_strcasecmp (text, "x86_64") == 0)
    *arch = ETL_SESSION_ARCH_X64;
  else if (g_ascii_strcasecmp (text, "x86") == 0 || g_ascii_strcasecmp (text, "i686") == 0
           || g_ascii_strcasecmp (text, "i386") == 0 || g_ascii_strcasecmp (text, "win32") == 0)
    *arch = ETL_SESSION_ARCH_X86;
  else
    return FALSE;
  return TRUE;
}

static void
put_le (guint8 *p, guint64 v, guint size)
{
  for (guint i = 0; i < size; i++)
    p[i] = (guint8) (v >> (8 * i));
}

static guint64
get_le (const guint8 *p, guint size)
{
  guint64 v = 0;

  for (guint i = 0; i < size; i++)
    v |= (guint64) p[i] << (8 * i);
  return v;
}

static void
put_guid (guint8 *p, const EtlGuid *g)
{
  put_le (p, g->data1, 4);
  put_le (p + 4, g->data2, 2);
  put_le (p + 6, g->data3, 2);
  memcpy (p + 8, g->data4, 8);
}

static gunichar2 *
to_utf16 (const char *s, glong *n_units)
{
  gunichar2 *u = g_utf8_to_utf16 (s, -1, NULL, n_units, NULL);

  if (u == NULL)
    {
      g_autofree char *v = g_utf8_make_valid (s, -1);

      u = g_utf8_to_utf16 (v, -1, NULL, n_units, NULL);
    }
  g_assert (u != NULL);
  return u;
}

static guint
field_offset (const EtlSessionFieldInfo *info, EtlSessionArch arch)
{
  return arch == ETL_SESSION_ARCH_X64 ? info->offset_x64 : info->offset_x86;
}

static guint
field_size (const EtlSessionFieldInfo *info, EtlSessionArch arch)
{
  return arch == ETL_SESSION_ARCH_X64 ? info->size_x64 : info->size_x86;
}

/**
 * etl_session_encode:
 * @session: an #EtlSession
 * @arch: the layout (pointer size of the process calling StartTrace)
 *
 * Writes the allocation StartTrace expects (EVENT_TRACE_PROPERTIES page,
 * Remarks): the zeroed 120-byte structure, then LoggerName, then
 * LogFileName (only when not empty), each NUL-terminated UTF-16LE;
 * LoggerNameOffset and LogFileNameOffset (0 without a file) are byte offsets
 * from the start; Wnode.BufferSize is the whole allocation; Wnode.Flags
 * gets WNODE_FLAG_TRACED_GUID added (WNODE_HEADER page).  Every other field
 * is written as stored, little-endian.
 *
 * Returns: (transfer full): the bytes
 */
GBytes *
etl_session_encode (const EtlSession *session, EtlSessionArch arch)
{
  g_autofree gunichar2 *logger = NULL;
  g_autofree gunichar2 *file = NULL;
  glong n_logger = 0, n_file = 0;
  gsize size, logger_off, file_off = 0;
  guint8 *buf;

  g_return_val_if_fail (session != NULL, NULL);

  logger = to_utf16 (session->logger_name, &n_logger);
  logger_off = ETL_SESSION_PROPERTIES_SIZE;
  size = logger_off + (gsize) (n_logger + 1) * 2;
  if (session->log_file_name[0] != '\0')
    {
      file = to_utf16 (session->log_file_name, &n_file);
      file_off = size;
      size += (gsize) (n_file + 1) * 2;
    }

  buf = g_malloc0 (size);
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    {
      const EtlSessionFieldInfo *info = &fields[f];
      guint8 *p = buf + field_offset (info, arch);

      if (info->alias_of >= 0 || info->kind == ETL_SESSION_FIELD_KIND_STRING)
        continue;
      switch (info->field)
        {
        case ETL_SESSION_FIELD_WNODE_BUFFER_SIZE:
          put_le (p, size, 4);
          break;
        case ETL_SESSION_FIELD_WNODE_FLAGS:
          put_le (p, session->wnode_flags | ETL_WNODE_FLAG_TRACED_GUID, 4);
          break;
        case ETL_SESSION_FIELD_WNODE_GUID:
          put_guid (p, &session->wnode_guid);
          break;
        case ETL_SESSION_FIELD_LOGGER_NAME_OFFSET:
          put_le (p, logger_off, 4);
          break;
        case ETL_SESSION_FIELD_LOG_FILE_NAME_OFFSET:
          put_le (p, file_off, 4);
          break;
        default:
          put_le (p, field_get_number (session, info->field), field_size (info, arch));
          break;
        }
    }
  for (glong i = 0; i < n_logger; i++)
    put_le (buf + logger_off + 2 * i, logger[i], 2);
  for (glong i = 0; i < n_file; i++)
    put_le (buf + file_off + 2 * i, file[i], 2);

  return g_bytes_new_take (buf, size);
}

static char *
read_utf16 (const guint8 *data, gsize limit, guint32 offset, const char *what, GError **error)
{
  g_autofree gunichar2 *units = NULL;
  gsize n = 0;
  char *utf8;

  if (offset == 0)
    return g_strdup ("");
  if (offset < ETL_SESSION_PROPERTIES_SIZE || offset >= limit)
    {
      g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_LAYOUT,
                   "%sOffset %u is outside the strings area (%u to %" G_GSIZE_FORMAT " bytes)",
                   what, offset, ETL_SESSION_PROPERTIES_SIZE, limit);
      return NULL;
    }
  while (TRUE)
    {
      gsize at = offset + 2 * n;

      if (at + 2 > limit)
        {
          g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_TRUNCATED,
                       "%s at offset %u has no NUL terminator before byte %" G_GSIZE_FORMAT,
                       what, offset, limit);
          return NULL;
        }
      if (data[at] == 0 && data[at + 1] == 0)
        break;
      n++;
    }
  units = g_new (gunichar2, n + 1);
  for (gsize i = 0; i < n; i++)
    units[i] = (gunichar2) get_le (data + offset + 2 * i, 2);
  units[n] = 0;
  utf8 = g_utf16_to_utf8 (units, (glong) n, NULL, NULL, NULL);
  if (utf8 == NULL)
    g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_LAYOUT,
                 "%s at offset %u is not valid UTF-16", what, offset);
  return utf8;
}

/**
 * etl_session_decode:
 * @data: (array length=len): an EVENT_TRACE_PROPERTIES allocation, as
 *   written by etl_session_encode() or returned by ControlTrace
 * @len: bytes available at @data
 * @arch: the layout
 * @error: return location for an %ETL_SESSION_ERROR_TRUNCATED error
 *   (shorter than 120 bytes or than Wnode.BufferSize, or a string without
 *   its NUL) or an %ETL_SESSION_ERROR_INVALID_LAYOUT error (Wnode.BufferSize
 *   smaller than the structure, an offset inside the structure, bad UTF-16)
 *
 * Reads every field and both names.  Bytes are treated as untrusted: every
 * access is bounds-checked against min(@len, Wnode.BufferSize).
 *
 * Returns: (transfer full) (nullable): the session, %NULL on error
 */
EtlSession *
etl_session_decode (const guint8 *data, gsize len, EtlSessionArch arch, GError **error)
{
  g_autoptr (EtlSession) s = NULL;
  gsize limit;
  g_autofree char *logger = NULL;
  g_autofree char *file = NULL;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  if (len < ETL_SESSION_PROPERTIES_SIZE)
    {
      g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_TRUNCATED,
                   "%" G_GSIZE_FORMAT " bytes is shorter than EVENT_TRACE_PROPERTIES (%u bytes)",
                   len, ETL_SESSION_PROPERTIES_SIZE);
      return NULL;
    }
  limit = (gsize) get_le (data, 4);
  if (limit < ETL_SESSION_PROPERTIES_SIZE)
    {
      g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_INVALID_LAYOUT,
                   "Wnode.BufferSize %" G_GSIZE_FORMAT " is smaller than the structure (%u bytes)",
                   limit, ETL_SESSION_PROPERTIES_SIZE);
      return NULL;
    }
  if (limit > len)
    {
      g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_TRUNCATED,
                   "Wnode.BufferSize says %" G_GSIZE_FORMAT " bytes but only %" G_GSIZE_FORMAT " are given",
                   limit, len);
      return NULL;
    }

  s = etl_session_new ();
  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    {
      const EtlSessionFieldInfo *info = &fields[f];
      const guint8 *p = data + field_offset (info, arch);

      if (info->alias_of >= 0 || info->kind == ETL_SESSION_FIELD_KIND_STRING)
        continue;
      switch (info->field)
        {
        case ETL_SESSION_FIELD_WNODE_BUFFER_SIZE:
        case ETL_SESSION_FIELD_LOGGER_NAME_OFFSET:
        case ETL_SESSION_FIELD_LOG_FILE_NAME_OFFSET:
          break;
        case ETL_SESSION_FIELD_WNODE_GUID:
          s->wnode_guid.data1 = (guint32) get_le (p, 4);
          s->wnode_guid.data2 = (guint16) get_le (p + 4, 2);
          s->wnode_guid.data3 = (guint16) get_le (p + 6, 2);
          memcpy (s->wnode_guid.data4, p + 8, 8);
          break;
        default:
          field_set_number (s, info->field, get_le (p, field_size (info, arch)));
          break;
        }
    }

  logger = read_utf16 (data, limit,
                       (guint32) get_le (data + field_offset (&fields[ETL_SESSION_FIELD_LOGGER_NAME_OFFSET], arch), 4),
                       "LoggerName", error);
  if (logger == NULL)
    return NULL;
  file = read_utf16 (data, limit,
                     (guint32) get_le (data + field_offset (&fields[ETL_SESSION_FIELD_LOG_FILE_NAME_OFFSET], arch), 4),
                     "LogFileName", error);
  if (file == NULL)
    return NULL;
  g_free (s->logger_name);
  s->logger_name = g_steal_pointer (&logger);
  g_free (s->log_file_name);
  s->log_file_name = g_steal_pointer (&file);
  return g_steal_pointer (&s);
}

/**
 * etl_session_field_span:
 * @session: an #EtlSession
 * @arch: the layout
 * @field: a field
 * @offset: (out) (optional): byte offset in etl_session_encode()'s output
 * @size: (out) (optional): size in bytes (strings: with their NUL)
 *
 * Where @field lies in the encoding of @session.
 *
 * Returns: %FALSE when @field is absent (LogFileName when there is no log file)
 */
gboolean
etl_session_field_span (const EtlSession *session, EtlSessionArch arch, EtlSessionField field,
                        guint *offset, guint *size)
{
  guint off, sz;

  g_return_val_if_fail (session != NULL, FALSE);
  g_return_val_if_fail (field < ETL_SESSION_N_FIELDS, FALSE);

  if (field == ETL_SESSION_FIELD_LOGGER_NAME || field == ETL_SESSION_FIELD_LOG_FILE_NAME)
    {
      glong n_logger = 0, n_file = 0;

      /* Only the UTF-16 length of the session name is needed. */
      g_free (to_utf16 (session->logger_name, &n_logger));

      if (field == ETL_SESSION_FIELD_LOGGER_NAME)
        {
          off = ETL_SESSION_PROPERTIES_SIZE;
          sz = (guint) (n_logger + 1) * 2;
        }
      else
        {
          g_autofree gunichar2 *b = NULL;

          if (session->log_file_name[0] == '\0')
            return FALSE;
          b = to_utf16 (session->log_file_name, &n_file);
          off = ETL_SESSION_PROPERTIES_SIZE + (guint) (n_logger + 1) * 2;
          sz = (guint) (n_file + 1) * 2;
        }
    }
  else
    {
      off = field_offset (&fields[field], arch);
      sz = field_size (&fields[field], arch);
    }
  if (offset)
    *offset = off;
  if (size)
    *size = sz;
  return TRUE;
}

/**
 * etl_session_field_at:
 * @session: an #EtlSession
 * @arch: the layout
 * @offset: a byte offset in the encoding
 *
 * The primary (non-alias) field covering @offset, for the byte-layout view.
 *
 * Returns: the field, or %ETL_SESSION_N_FIELDS for padding or out of range
 */
EtlSessionField
etl_session_field_at (const EtlSession *session, EtlSessionArch arch, guint offset)
{
  g_return_val_if_fail (session != NULL, ETL_SESSION_N_FIELDS);

  for (guint f = 0; f < ETL_SESSION_N_FIELDS; f++)
    {
      guint off, sz;

      if (fields[f].alias_of >= 0)
        continue;
      if (etl_session_field_span (session, arch, f, &off, &sz) && offset >= off && offset < off + sz)
        return f;
    }
  return ETL_SESSION_N_FIELDS;
}

/* ------------------------------------------------------------------------ */
/* Checker                                                                  */

static const char *const rules[] = {
  "buffer-size-range",
  "buffer-size-before-windows-8",
  "buffer-size-diagnostic-only",
  "buffer-size-large-events",
  "minimum-buffers-raised",
  "maximum-buffers-raised",
  "maximum-buffers-ignored",
  "buffering-memory-budget",
  "maximum-file-size-required",
  "maximum-file-size-kbytes",
  "system-drive-free-space",
  "enable-flags-system-logger-only",
  "disk-file-io-needs-disk-io",
  "enable-flags-reserved",
  "enable-flags-min-windows",
  "log-file-mode-reserved",
  "log-file-mode-min-windows",
  "file-modes-exclusive",
  "append-needs-sequential",
  "newfile-needs-pattern",
  "file-mode-needs-file",
  "no-destination",
  "real-time-needs-consumer",
  "real-time-and-file",
  "private-in-proc-needs-private-logger",
  "sequence-modes-exclusive",
  "private-logger-guid",
  "private-logger-file-name",
  "kernel-logger-guid",
  "flush-timer-file",
  "flush-timer-real-time",
  "flush-timer-buffering",
  "logger-name-empty",
  "logger-name-length",
  "logger-name-guid",
  "logger-name-digits",
  "log-file-name-length",
  "log-file-extension",
  "clock-range",
  "clock-cpu-cycle",
  "clock-system-time",
  "wnode-flags-traced-guid",
  "age-limit-unused",
  "output-fields-set",
  NULL
};

/**
 * etl_session_rules:
 * @n_rules: (out) (optional): number of rules
 *
 * Returns: (transfer none) (array zero-terminated=1): the ids of every rule
 *   etl_session_check() can report
 */
const char *const *
etl_session_rules (guint *n_rules)
{
  if (n_rules)
    *n_rules = G_N_ELEMENTS (rules) - 1;
  return rules;
}

/**
 * etl_session_severity_name:
 * @severity: an #EtlSessionSeverity
 *
 * Returns: (transfer none): "info", "warning" or "error"
 */
const char *
etl_session_severity_name (EtlSessionSeverity severity)
{
  switch (severity)
    {
    case ETL_SESSION_SEVERITY_INFO: return "info";
    case ETL_SESSION_SEVERITY_WARNING: return "warning";
    case ETL_SESSION_SEVERITY_ERROR: return "error";
    default: return "?";
    }
}

static void
diagnostic_free (gpointer p)
{
  EtlSessionDiagnostic *d = p;

  g_free (d->message);
  g_free (d);
}

G_GNUC_PRINTF (5, 6) static void
add (GPtrArray *out, EtlSessionSeverity sev, EtlSessionField field, const char *rule, const char *fmt, ...)
{
  EtlSessionDiagnostic *d = g_new0 (EtlSessionDiagnostic, 1);
  va_list ap;

  g_assert (g_strv_contains (rules, rule));
  d->severity = sev;
  d->field = field;
  d->rule = rule;
  va_start (ap, fmt);
  d->message = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_ptr_array_add (out, d);
}

static gboolean
contains_guid (const char *s)
{
  gsize len = strlen (s);

  for (gsize i = 0; i + ETL_GUID_STRING_LEN <= len; i++)
    {
      char buf[ETL_GUID_STRING_LEN + 1];
      EtlGuid g;

      memcpy (buf, s + i, ETL_GUID_STRING_LEN);
      buf[ETL_GUID_STRING_LEN] = '\0';
      if (etl_guid_parse (buf, &g))
        return TRUE;
    }
  return FALSE;
}

static guint
longest_digit_run (const char *s)
{
  guint best = 0, run = 0;

  for (; *s; s++)
    {
      run = g_ascii_isdigit (*s) ? run + 1 : 0;
      best = MAX (best, run);
    }
  return best;
}

static char *
flags_needing (guint32 value, gboolean enable, EtlWindowsVersion at_least, EtlWindowsVersion *highest)
{
  const EtlSessionFlagInfo *table = enable ? enable_flags : log_file_modes;
  guint n = enable ? G_N_ELEMENTS (enable_flags) : G_N_ELEMENTS (log_file_modes);
  GString *s = g_string_new (NULL);

  *highest = ETL_WINDOWS_2000;
  for (guint i = 0; i < n; i++)
    if (table[i].value != 0 && (value & table[i].value) && table[i].min_windows >= at_least)
      {
        g_string_append_printf (s, "%s%s (%s)", s->len ? ", " : "", table[i].name,
                                windows_names[table[i].min_windows]);
        *highest = MAX (*highest, table[i].min_windows);
      }
  if (s->len == 0)
    return g_string_free (s, TRUE), NULL;
  return g_string_free (s, FALSE);
}

static guint32
reserved_bits (guint32 value, gboolean enable)
{
  const EtlSessionFlagInfo *table = enable ? enable_flags : log_file_modes;
  guint n = enable ? G_N_ELEMENTS (enable_flags) : G_N_ELEMENTS (log_file_modes);
  guint32 known = 0;

  for (guint i = 0; i < n; i++)
    if (!table[i].reserved)
      known |= table[i].value;
  return value & ~known;
}

#define FILE_MODES (ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL | ETL_EVENT_TRACE_FILE_MODE_CIRCULAR \
                    | ETL_EVENT_TRACE_FILE_MODE_APPEND | ETL_EVENT_TRACE_FILE_MODE_NEWFILE \
                    | ETL_EVENT_TRACE_FILE_MODE_PREALLOCATE)

/**
 * etl_session_check:
 * @session: an #EtlSession
 * @n_cpus: logical processors of the machine that will run the session (≥ 1)
 *
 * Applies every documented rule (the ids are listed by etl_session_rules())
 * of the EVENT_TRACE_PROPERTIES page (seed 000), the WNODE_HEADER page
 * (seeds 002/003) and Microsoft's "Logging Mode Constants" page.  Each
 * diagnostic names the field and gives the documented reason.
 *
 * Returns: (transfer full) (element-type EtlSessionDiagnostic): the
 *   diagnostics, errors first, then warnings, then infos
 */
GPtrArray *
etl_session_check (const EtlSession *s, guint n_cpus)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (diagnostic_free);
  guint32 mode;
  gboolean has_file, real_time, buffering, system;
  EtlSessionEffective eff;
  EtlWindowsVersion highest;
  g_autofree char *needing = NULL;
  glong name_len, file_len;

  g_return_val_if_fail (s != NULL, out);

  n_cpus = MAX (n_cpus, 1);
  mode = s->log_file_mode;
  has_file = s->log_file_name[0] != '\0';
  real_time = (mode & ETL_EVENT_TRACE_REAL_TIME_MODE) != 0;
  buffering = (mode & ETL_EVENT_TRACE_BUFFERING_MODE) != 0;
  system = etl_session_is_system_logger (s);
  etl_session_effective (s, n_cpus, &eff);

  /* BufferSize */
  if (s->buffer_size < 4 || s->buffer_size > 16384)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_BUFFER_SIZE, "buffer-size-range",
         "BufferSize is %u KB: it must be 4 KB to 16384 KB (16 MB; 1024 KB before Windows 8)", s->buffer_size);
  else
    {
      if (s->buffer_size > 1024)
        add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_BUFFER_SIZE, "buffer-size-before-windows-8",
             "BufferSize above 1024 KB needs Windows 8 or later (the maximum was 1 MB before)");
      if (s->buffer_size >= 256)
        add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_BUFFER_SIZE, "buffer-size-diagnostic-only",
             "Buffers of 256 KB or more waste memory and disk space: use them only for diagnostic investigations "
             "with hundreds of MB/s, not for production tracing; most sessions should use 64 KB or less");
      else if (s->buffer_size > 64)
        add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_BUFFER_SIZE, "buffer-size-large-events",
             "64–128 KB buffers suit large events or rates of several MB/s; most sessions should use 64 KB or less "
             "(ETW never records an event larger than 64 KB)");
    }

  /* MinimumBuffers / MaximumBuffers */
  if (s->minimum_buffers < eff.minimum_buffers)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_MINIMUM_BUFFERS, "minimum-buffers-raised",
         (mode & ETL_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING)
           ? "ETW raises MinimumBuffers to at least 2 (no per-processor buffering): %u"
           : "ETW raises MinimumBuffers to at least 2 per logical processor: %u with %u processors",
         eff.minimum_buffers, n_cpus);
  if (!buffering && s->maximum_buffers < eff.minimum_buffers)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_MAXIMUM_BUFFERS, "maximum-buffers-raised",
         "ETW raises MaximumBuffers to MinimumBuffers: %u", eff.minimum_buffers);
  if (buffering && s->maximum_buffers != 0 && s->maximum_buffers != s->minimum_buffers)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_MAXIMUM_BUFFERS, "maximum-buffers-ignored",
         "ETW ignores MaximumBuffers in buffering mode: it allocates MinimumBuffers (%u) at start and never more",
         eff.minimum_buffers);
  if (buffering && s->minimum_buffers == 0)
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_MINIMUM_BUFFERS, "buffering-memory-budget",
         "In buffering (in-memory circular) mode MinimumBuffers is the whole memory budget: set it to "
         "rate × seconds ÷ BufferSize (16 KB/s × 60 s ÷ 32 KB = 30 buffers)");

  /* MaximumFileSize */
  if (s->maximum_file_size == 0
      && (mode & (ETL_EVENT_TRACE_FILE_MODE_CIRCULAR | ETL_EVENT_TRACE_FILE_MODE_NEWFILE
                  | ETL_EVENT_TRACE_FILE_MODE_PREALLOCATE)))
    {
      g_autofree char *names = etl_session_format_flags (mode & (ETL_EVENT_TRACE_FILE_MODE_CIRCULAR
                                                                 | ETL_EVENT_TRACE_FILE_MODE_NEWFILE
                                                                 | ETL_EVENT_TRACE_FILE_MODE_PREALLOCATE), FALSE);
      add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE, "maximum-file-size-required",
           "MaximumFileSize must be non-zero with %s", names);
    }
  if (mode & ETL_EVENT_TRACE_USE_KBYTES_FOR_SIZE)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE, "maximum-file-size-kbytes",
         "MaximumFileSize is in KB (EVENT_TRACE_USE_KBYTES_FOR_SIZE): %u KB", s->maximum_file_size);
  if (has_file && !buffering)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_LOG_FILE_NAME, "system-drive-free-space",
         s->maximum_file_size
           ? "On the system drive ETW checks for 200 MB of free space beyond MaximumFileSize: %" G_GUINT64_FORMAT " MB in all"
           : "On the system drive ETW checks for 200 MB of free space (no size limit set; %" G_GUINT64_FORMAT " MB)",
         (eff.max_file_bytes + (1 << 20) - 1) / (1 << 20) + 200);

  /* EnableFlags */
  if (s->enable_flags != 0 && !system)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_ENABLE_FLAGS, "enable-flags-system-logger-only",
         "EnableFlags is only valid for system loggers: set EVENT_TRACE_SYSTEM_LOGGER_MODE, name the session "
         "\"NT Kernel Logger\", or use SystemTraceControlGuid or GlobalLoggerGuid");
  if ((s->enable_flags & ETL_EVENT_TRACE_FLAG_DISK_FILE_IO) && !(s->enable_flags & ETL_EVENT_TRACE_FLAG_DISK_IO))
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_ENABLE_FLAGS, "disk-file-io-needs-disk-io",
         "EVENT_TRACE_FLAG_DISK_FILE_IO also needs EVENT_TRACE_FLAG_DISK_IO");
  if (reserved_bits (s->enable_flags, TRUE))
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_ENABLE_FLAGS, "enable-flags-reserved",
         "EnableFlags has reserved or undocumented bits 0x%08x", reserved_bits (s->enable_flags, TRUE));
  needing = flags_needing (s->enable_flags, TRUE, ETL_WINDOWS_7, &highest);
  if (needing)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_ENABLE_FLAGS, "enable-flags-min-windows",
         "Needs %s or later: %s", windows_names[highest], needing);
  g_clear_pointer (&needing, g_free);

  /* LogFileMode */
  if (reserved_bits (mode, FALSE))
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_LOG_FILE_MODE, "log-file-mode-reserved",
         "LogFileMode has reserved or undocumented bits 0x%08x", reserved_bits (mode, FALSE));
  needing = flags_needing (mode, FALSE, ETL_WINDOWS_8, &highest);
  if (needing)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_LOG_FILE_MODE, "log-file-mode-min-windows",
         "Needs %s or later: %s", windows_names[highest], needing);
  {
    guint n_excl = !!(mode & ETL_EVENT_TRACE_FILE_MODE_SEQUENTIAL) + !!(mode & ETL_EVENT_TRACE_FILE_MODE_CIRCULAR)
                   + !!(mode & ETL_EVENT_TRACE_FILE_MODE_NEWFILE);
    if (n_excl > 1)
      add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_MODE, "file-modes-exclusive",
           "EVENT_TRACE_FILE_MODE_SEQUENTIAL, _CIRCULAR and _NEWFILE exclude each other");
  }
  if ((mode & ETL_EVENT_TRACE_FILE_MODE_APPEND)
      && (mode & (ETL_EVENT_TRACE_FILE_MODE_CIRCULAR | ETL_EVENT_TRACE_FILE_MODE_NEWFILE
                  | ETL_EVENT_TRACE_PRIVATE_LOGGER_MODE)))
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_MODE, "append-needs-sequential",
         "EVENT_TRACE_FILE_MODE_APPEND appends to a sequential file: it cannot be combined with CIRCULAR, "
         "NEWFILE or PRIVATE_LOGGER_MODE");
  if ((mode & ETL_EVENT_TRACE_FILE_MODE_NEWFILE) && has_file && strstr (s->log_file_name, "%d") == NULL)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_NAME, "newfile-needs-pattern",
         "With EVENT_TRACE_FILE_MODE_NEWFILE the file name must contain %%d, where ETW puts the file's number "
         "(e.g. trace%%d.etl)");
  if ((mode & FILE_MODES) && !has_file)
    {
      g_autofree char *names = etl_session_format_flags (mode & FILE_MODES, FALSE);

      add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_NAME, "file-mode-needs-file",
           "A file mode (%s) is set but LogFileName is empty", names);
    }
  if (!has_file && !real_time && !buffering)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_MODE, "no-destination",
         "The session has nowhere to put events: give a LogFileName, or set EVENT_TRACE_REAL_TIME_MODE or "
         "EVENT_TRACE_BUFFERING_MODE");
  if (real_time)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_LOG_FILE_MODE, "real-time-needs-consumer",
         "A real-time session with no consumer wastes CPU, memory and disk buffering events; start it only when "
         "a consumer will read it");
  if (real_time && has_file)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_LOG_FILE_NAME, "real-time-and-file",
         "With a log file name and EVENT_TRACE_REAL_TIME_MODE, ETW writes the file and also delivers events "
         "to the real-time consumer");
  if ((mode & ETL_EVENT_TRACE_PRIVATE_IN_PROC) && !(mode & ETL_EVENT_TRACE_PRIVATE_LOGGER_MODE))
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_MODE, "private-in-proc-needs-private-logger",
         "EVENT_TRACE_PRIVATE_IN_PROC must be used with EVENT_TRACE_PRIVATE_LOGGER_MODE");
  if ((mode & ETL_EVENT_TRACE_USE_GLOBAL_SEQUENCE) && (mode & ETL_EVENT_TRACE_USE_LOCAL_SEQUENCE))
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_MODE, "sequence-modes-exclusive",
         "EVENT_TRACE_USE_GLOBAL_SEQUENCE and EVENT_TRACE_USE_LOCAL_SEQUENCE exclude each other");
  if ((mode & ETL_EVENT_TRACE_PRIVATE_LOGGER_MODE) && etl_guid_is_zero (&s->wnode_guid))
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_WNODE_GUID, "private-logger-guid",
         "For a private logger session set Wnode.Guid to the GUID of the provider you will enable");
  if ((mode & ETL_EVENT_TRACE_PRIVATE_LOGGER_MODE) && has_file)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_LOG_FILE_NAME, "private-logger-file-name",
         "ETW appends the process identifier to a private logger's file name; leave room for it within "
         "the 1024-character limit");
  if (g_ascii_strcasecmp (s->logger_name, ETL_KERNEL_LOGGER_NAME) == 0
      && !etl_guid_equal (&s->wnode_guid, &etl_system_trace_control_guid))
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_WNODE_GUID, "kernel-logger-guid",
         "For an NT Kernel Logger session set Wnode.Guid to SystemTraceControlGuid "
         "{9e814aad-3204-11d2-9a82-006008a86939}");

  /* FlushTimer */
  if (buffering)
    {
      if (s->flush_timer != 0)
        add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_FLUSH_TIMER, "flush-timer-buffering",
             "FlushTimer is unused in buffering (in-memory circular) mode: buffers are flushed only on demand "
             "(ControlTrace)");
    }
  else if (real_time)
    {
      if (s->flush_timer == 0)
        add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_FLUSH_TIMER, "flush-timer-real-time",
             "For a real-time session FlushTimer 0 means 1 second; most real-time sessions should start with "
             "5 or 10 seconds (higher values cost less CPU)");
    }
  else if (has_file && s->flush_timer != 0)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_FLUSH_TIMER, "flush-timer-file",
         "File sessions should usually set FlushTimer to 0 (flush only when a buffer is full) to avoid "
         "mostly empty buffers in the file; a timer helps only if the trace might not be closed");

  /* Names */
  name_len = g_utf8_strlen (s->logger_name, -1);
  file_len = g_utf8_strlen (s->log_file_name, -1);
  if (name_len == 0)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOGGER_NAME, "logger-name-empty",
         "The session needs a name (descriptive, at most 1024 characters)");
  if (name_len > ETL_SESSION_MAX_NAME_CHARS)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOGGER_NAME, "logger-name-length",
         "The session name has %ld characters: at most 1024 are allowed", name_len);
  if (contains_guid (s->logger_name))
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_LOGGER_NAME, "logger-name-guid",
         "Use a descriptive session name that tells who owns the session, not a GUID");
  if (longest_digit_run (s->logger_name) >= 6)
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_LOGGER_NAME, "logger-name-digits",
         "Do not add random digits to make a session name unique: sessions are a limited resource; clean up "
         "an orphaned session instead of starting a second one");
  if (file_len > ETL_SESSION_MAX_NAME_CHARS)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_LOG_FILE_NAME, "log-file-name-length",
         "The log file name has %ld characters: at most 1024 are allowed", file_len);
  if (has_file && !g_str_has_suffix (s->log_file_name, ".etl") && !g_str_has_suffix (s->log_file_name, ".ETL")
      && !(strlen (s->log_file_name) >= 4
           && g_ascii_strcasecmp (s->log_file_name + strlen (s->log_file_name) - 4, ".etl") == 0))
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_LOG_FILE_NAME, "log-file-extension",
         "Log files normally end in .etl (tools look for that extension); the folders must already exist");

  /* Clock */
  if (s->wnode_client_context > 3)
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT, "clock-range",
         "Wnode.ClientContext %u is not a clock: use 1 (QPC), 2 (system time) or 3 (CPU cycle counter)",
         s->wnode_client_context);
  else if (s->wnode_client_context == ETL_SESSION_CLOCK_CPU_CYCLE)
    add (out, ETL_SESSION_SEVERITY_WARNING, ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT, "clock-cpu-cycle",
         "The CPU cycle counter is not reliable (its frequency changes with power and thermal states) and should "
         "not be used in production; ETW falls back to system time where it is missing");
  else if (s->wnode_client_context == ETL_SESSION_CLOCK_SYSTEM_TIME)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT, "clock-system-time",
         "Use QPC when a consumer merges events from different buffers: system time follows clock adjustments "
         "and, before Windows 10, ties at high event rates");

  if (!(s->wnode_flags & ETL_WNODE_FLAG_TRACED_GUID))
    add (out, ETL_SESSION_SEVERITY_ERROR, ETL_SESSION_FIELD_WNODE_FLAGS, "wnode-flags-traced-guid",
         "Wnode.Flags must contain WNODE_FLAG_TRACED_GUID (0x00020000); the encoder adds it");
  if (s->age_limit != 0)
    add (out, ETL_SESSION_SEVERITY_INFO, ETL_SESSION_FIELD_AGE_LIMIT, "age-limit-unused",
         "AgeLimit is not used (it was the buffer age limit on Windows 2000); FlushThreshold shares its slot");
  {
    static const EtlSessionField outputs[] = {
      ETL_SESSION_FIELD_NUMBER_OF_BUFFERS, ETL_SESSION_FIELD_FREE_BUFFERS, ETL_SESSION_FIELD_EVENTS_LOST,
      ETL_SESSION_FIELD_BUFFERS_WRITTEN, ETL_SESSION_FIELD_LOG_BUFFERS_LOST,
      ETL_SESSION_FIELD_REAL_TIME_BUFFERS_LOST, ETL_SESSION_FIELD_LOGGER_THREAD_ID,
    };
    for (guint i = 0; i < G_N_ELEMENTS (outputs); i++)
      if (field_get_number (s, outputs[i]) != 0)
        {
          add (out, ETL_SESSION_SEVERITY_INFO, outputs[i], "output-fields-set",
               "%s is output-only (filled by ControlTrace QUERY); StartTrace ignores it", fields[outputs[i]].name);
          break;
        }
  }

  /* errors first */
  {
    GPtrArray *sorted = g_ptr_array_new_with_free_func (diagnostic_free);

    for (int sev = ETL_SESSION_SEVERITY_ERROR; sev >= ETL_SESSION_SEVERITY_INFO; sev--)
      for (guint i = 0; i < out->len; i++)
        {
          EtlSessionDiagnostic *d = g_ptr_array_index (out, i);

          if ((int) d->severity == sev)
            g_ptr_array_add (sorted, d);
        }
    g_ptr_array_set_free_func (out, NULL);
    g_ptr_array_unref (out);
    return sorted;
  }
}

/**
 * etl_session_diagnostics_have_errors:
 * @diagnostics: (element-type EtlSessionDiagnostic): from etl_session_check()
 *
 * Returns: %TRUE when one of them is an error
 */
gboolean
etl_session_diagnostics_have_errors (GPtrArray *diagnostics)
{
  g_return_val_if_fail (diagnostics != NULL, FALSE);
  for (guint i = 0; i < diagnostics->len; i++)
    if (((EtlSessionDiagnostic *) g_ptr_array_index (diagnostics, i))->severity == ETL_SESSION_SEVERITY_ERROR)
      return TRUE;
  return FALSE;
}

/**
 * etl_session_effective:
 * @session: an #EtlSession
 * @n_cpus: logical processors (≥ 1)
 * @out: (out caller-allocates): the values ETW will use
 *
 * Applies ETW's documented adjustments: MinimumBuffers raised to 2 per
 * logical processor (2 in total with NO_PER_PROCESSOR_BUFFERING);
 * MaximumBuffers raised to MinimumBuffers and ignored (= MinimumBuffers) in
 * buffering mode; FlushTimer 0 = 1 s in real time, unused when buffering.
 * ETW may also lower values above its own limits and round BufferSize up
 * to the disk block size; those limits are not documented and not modelled.
 */
void
etl_session_effective (const EtlSession *s, guint n_cpus, EtlSessionEffective *out)
{
  guint32 mode, min_required;

  g_return_if_fail (s != NULL && out != NULL);

  n_cpus = MAX (n_cpus, 1);
  mode = s->log_file_mode;
  memset (out, 0, sizeof *out);
  out->n_cpus = n_cpus;
  out->buffer_size_kb = s->buffer_size;
  min_required = (mode & ETL_EVENT_TRACE_NO_PER_PROCESSOR_BUFFERING) ? 2 : 2 * n_cpus;
  out->minimum_buffers = MAX (s->minimum_buffers, min_required);
  if (mode & ETL_EVENT_TRACE_BUFFERING_MODE)
    out->maximum_buffers = out->minimum_buffers;
  else
    out->maximum_buffers = MAX (s->maximum_buffers, out->minimum_buffers);
  out->reserved_bytes = (guint64) out->minimum_buffers * s->buffer_size * 1024;
  out->maximum_bytes = (guint64) out->maximum_buffers * s->buffer_size * 1024;
  if (mode & ETL_EVENT_TRACE_BUFFERING_MODE)
    out->flush_timer_s = 0;
  else if ((mode & ETL_EVENT_TRACE_REAL_TIME_MODE) && s->flush_timer == 0)
    out->flush_timer_s = 1;
  else
    out->flush_timer_s = s->flush_timer;
  out->max_file_bytes = (guint64) s->maximum_file_size
                        * ((mode & ETL_EVENT_TRACE_USE_KBYTES_FOR_SIZE) ? 1024 : 1024 * 1024);
  out->clock = s->wnode_client_context == 0 ? ETL_SESSION_CLOCK_QPC : s->wnode_client_context;
  out->system_logger = etl_session_is_system_logger (s);
}

/**
 * etl_session_buffers_for_rate:
 * @kb_per_second: expected data rate in KB per second
 * @seconds: how many seconds the in-memory buffers should cover
 * @buffer_size_kb: BufferSize in KB (≥ 1)
 *
 * MinimumBuffers for a buffering-mode (in-memory circular) session:
 * ⌈rate × seconds ÷ BufferSize⌉ (EVENT_TRACE_PROPERTIES page:
 * 16 KB/s × 60 s ÷ 32 KB = 30).
 *
 * Returns: the number of buffers, at most G_MAXUINT32
 */
guint32
etl_session_buffers_for_rate (double kb_per_second, double seconds, guint32 buffer_size_kb)
{
  double n;

  g_return_val_if_fail (buffer_size_kb > 0, 0);
  if (!(kb_per_second > 0) || !(seconds > 0))
    return 0;
  n = kb_per_second * seconds / buffer_size_kb;
  if (n >= (double) G_MAXUINT32)
    return G_MAXUINT32;
  {
    guint32 whole = (guint32) n;

    /* round up, tolerating floating-point noise so 30.0000001 stays 30 */
    if (n - whole > 1e-9)
      whole++;
    return whole;
  }
}

/* ------------------------------------------------------------------------ */
/* Presets                                                                  */

#define INI_GROUP "EVENT_TRACE_PROPERTIES"
#define INI_PRESET_GROUP "Preset"

static const struct
{
  const char *name;
  const char *description;
  const char *settings;
} presets[] = {
  { "kernel-basics", "NT Kernel Logger: processes, threads and image loads to a file",
    "LoggerName=NT Kernel Logger\nWnode.Guid=SystemTraceControlGuid\nLogFileName=kernel.etl\n"
    "LogFileMode=EVENT_TRACE_FILE_MODE_SEQUENTIAL\nEnableFlags=EVENT_TRACE_FLAG_PROCESS|EVENT_TRACE_FLAG_THREAD|EVENT_TRACE_FLAG_IMAGE_LOAD\n"
    "BufferSize=64\nMinimumBuffers=64\nMaximumBuffers=64\nFlushTimer=0\nWnode.ClientContext=1" },
  { "low-overhead-file", "A user-mode file session with small buffers and no flush timer",
    "LoggerName=Etlscope File Session\nLogFileName=etlscope.etl\nLogFileMode=EVENT_TRACE_FILE_MODE_SEQUENTIAL\n"
    "BufferSize=16\nMinimumBuffers=16\nMaximumBuffers=16\nFlushTimer=0\nWnode.ClientContext=1" },
  { "real-time", "A real-time session for a live consumer, flushed every 5 seconds",
    "LoggerName=Etlscope Real-Time Session\nLogFileName=\nLogFileMode=EVENT_TRACE_REAL_TIME_MODE\n"
    "BufferSize=32\nMinimumBuffers=32\nMaximumBuffers=64\nFlushTimer=5\nWnode.ClientContext=1" },
  { "in-memory-circular", "Flight recorder: 60 s at 16 KB/s in memory (30 × 32 KB), flushed on demand",
    "LoggerName=Etlscope Flight Recorder\nLogFileName=\nLogFileMode=EVENT_TRACE_BUFFERING_MODE\n"
    "BufferSize=32\nMinimumBuffers=30\nMaximumBuffers=30\nFlushTimer=0\nWnode.ClientContext=1" },
};

/**
 * etl_session_preset_names:
 *
 * Returns: (transfer none) (array zero-terminated=1): the built-in preset
 *   names: "kernel-basics", "low-overhead-file", "real-time", "in-memory-circular"
 */
const char *const *
etl_session_preset_names (void)
{
  static const char *names[G_N_ELEMENTS (presets) + 1];

  if (names[0] == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
      names[i] = presets[i].name;
  return names;
}

/**
 * etl_session_preset_description:
 * @name: a preset name
 *
 * Returns: (transfer none) (nullable): a one-line description, %NULL if unknown
 */
const char *
etl_session_preset_description (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (g_strcmp0 (presets[i].name, name) == 0)
      return presets[i].description;
  return NULL;
}

/**
 * etl_session_new_preset:
 * @name: a built-in preset name (see etl_session_preset_names())
 * @error: return location for an %ETL_SESSION_ERROR_PRESET error
 *
 * Returns: (transfer full) (nullable): the preset's settings
 */
EtlSession *
etl_session_new_preset (const char *name, GError **error)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (g_strcmp0 (presets[i].name, name) == 0)
      {
        g_autoptr (EtlSession) s = etl_session_new ();
        g_auto (GStrv) lines = g_strsplit (presets[i].settings, "\n", -1);

        for (guint l = 0; lines[l]; l++)
          {
            char *eq = strchr (lines[l], '=');
            gboolean ok;

            g_assert (eq != NULL);
            *eq = '\0';
            ok = etl_session_set_field (s, lines[l], eq + 1, NULL);
            g_assert (ok);
          }
        return g_steal_pointer (&s);
      }

  {
    g_autofree char *list = g_strjoinv (", ", (char **) etl_session_preset_names ());

    g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_PRESET,
                 "No preset “%s” (built-in presets: %s)", name, list);
  }
  return NULL;
}

static const EtlSessionField ini_fields[] = {
  ETL_SESSION_FIELD_LOGGER_NAME, ETL_SESSION_FIELD_LOG_FILE_NAME, ETL_SESSION_FIELD_WNODE_GUID,
  ETL_SESSION_FIELD_WNODE_CLIENT_CONTEXT, ETL_SESSION_FIELD_WNODE_FLAGS, ETL_SESSION_FIELD_BUFFER_SIZE,
  ETL_SESSION_FIELD_MINIMUM_BUFFERS, ETL_SESSION_FIELD_MAXIMUM_BUFFERS, ETL_SESSION_FIELD_MAXIMUM_FILE_SIZE,
  ETL_SESSION_FIELD_LOG_FILE_MODE, ETL_SESSION_FIELD_FLUSH_TIMER, ETL_SESSION_FIELD_ENABLE_FLAGS,
  ETL_SESSION_FIELD_AGE_LIMIT,
};

/**
 * etl_session_to_key_file:
 * @session: an #EtlSession
 *
 * Writes the settable fields to the group [EVENT_TRACE_PROPERTIES], keys
 * named as the Windows fields, flags as names.  Output-only counters are
 * not saved.
 *
 * Returns: (transfer full): a new #GKeyFile
 */
GKeyFile *
etl_session_to_key_file (const EtlSession *session)
{
  GKeyFile *kf = g_key_file_new ();

  g_return_val_if_fail (session != NULL, kf);

  g_key_file_set_comment (kf, NULL, NULL,
                          " etlscope session preset: EVENT_TRACE_PROPERTIES fields by their Windows names", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (ini_fields); i++)
    {
      const char *name = fields[ini_fields[i]].name;
      g_autofree char *value = etl_session_get_field (session, name);

      g_key_file_set_string (kf, INI_GROUP, name, value);
    }
  return kf;
}

/**
 * etl_session_to_ini:
 * @session: an #EtlSession
 *
 * Returns: (transfer full): the INI text of etl_session_to_key_file()
 */
char *
etl_session_to_ini (const EtlSession *session)
{
  g_autoptr (GKeyFile) kf = etl_session_to_key_file (session);

  return g_key_file_to_data (kf, NULL, NULL);
}

/**
 * etl_session_new_from_key_file:
 * @key_file: a key file with an [EVENT_TRACE_PROPERTIES] group
 * @error: return location for an %ETL_SESSION_ERROR_PRESET error (no such
 *   group), or the errors of etl_session_set_field() for a bad key
 *
 * Starts from etl_session_new() and applies every key of the group in order.
 *
 * Returns: (transfer full) (nullable): the session
 */
EtlSession *
etl_session_new_from_key_file (GKeyFile *key_file, GError **error)
{
  g_autoptr (EtlSession) s = NULL;
  g_auto (GStrv) keys = NULL;

  g_return_val_if_fail (key_file != NULL, NULL);

  keys = g_key_file_get_keys (key_file, INI_GROUP, NULL, NULL);
  if (keys == NULL)
    {
      g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_PRESET,
                   "The preset has no [" INI_GROUP "] group");
      return NULL;
    }
  s = etl_session_new ();
  for (guint i = 0; keys[i]; i++)
    {
      g_autofree char *value = g_key_file_get_string (key_file, INI_GROUP, keys[i], error);

      if (value == NULL || !etl_session_set_field (s, keys[i], value, error))
        return NULL;
    }
  return g_steal_pointer (&s);
}

/**
 * etl_session_save_ini:
 * @session: an #EtlSession
 * @path: file to write (replaced atomically with g_file_set_contents())
 * @error: return location for a #GFileError
 *
 * Returns: %TRUE on success
 */
gboolean
etl_session_save_ini (const EtlSession *session, const char *path, GError **error)
{
  g_autofree char *data = NULL;

  g_return_val_if_fail (session != NULL && path != NULL, FALSE);
  data = etl_session_to_ini (session);
  return g_file_set_contents (path, data, -1, error);
}

/**
 * etl_session_load_ini:
 * @path: an INI preset written by etl_session_save_ini()
 * @error: return location for a #GFileError, #GKeyFileError or
 *   %ETL_SESSION_ERROR error
 *
 * Returns: (transfer full) (nullable): the session
 */
EtlSession *
etl_session_load_ini (const char *path, GError **error)
{
  g_autoptr (GKeyFile) kf = g_key_file_new ();

  g_return_val_if_fail (path != NULL, NULL);
  if (!g_key_file_load_from_file (kf, path, G_KEY_FILE_KEEP_COMMENTS, error))
    return NULL;
  return etl_session_new_from_key_file (kf, error);
}

/* ------------------------------------------------------------------------ */
/* Control                                                                  */

/**
 * etl_session_control_supported:
 *
 * Returns: %TRUE when this build can start and stop sessions (Windows)
 */
gboolean
etl_session_control_supported (void)
{
#ifdef G_OS_WIN32
  return TRUE;
#else
  return FALSE;
#endif
}

#ifdef G_OS_WIN32
static EtlSessionArch
native_arch (void)
{
  return GLIB_SIZEOF_VOID_P == 8 ? ETL_SESSION_ARCH_X64 : ETL_SESSION_ARCH_X86;
}

static void
set_win32_error (GError **error, const char *what, unsigned long code)
{
  g_autofree char *msg = g_win32_error_message ((gint) code);

  g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_WIN32, "%s failed: %s (Win32 error %lu)", what, msg, code);
}
#endif

/**
 * etl_session_start:
 * @session: the settings
 * @handle: (out): the TRACEHANDLE StartTraceW returns
 * @error: return location for an %ETL_SESSION_ERROR_WIN32 error (e.g.
 *   ERROR_ALREADY_EXISTS 183, ERROR_ACCESS_DENIED 5) or, off Windows,
 *   %ETL_SESSION_ERROR_NOT_SUPPORTED
 *
 * Starts the session with StartTraceW from etl_session_encode()'s bytes
 * in this process's layout.
 *
 * Returns: %TRUE when the session runs
 */
gboolean
etl_session_start (const EtlSession *session, guint64 *handle, GError **error)
{
  g_return_val_if_fail (session != NULL && handle != NULL, FALSE);
#ifdef G_OS_WIN32
  {
    g_autoptr (GBytes) bytes = etl_session_encode (session, native_arch ());
    gsize len;
    const guint8 *data = g_bytes_get_data (bytes, &len);
    uint64_t h = 0;
    unsigned long rc = etl_session_win32_start (data, len, &h);

    if (rc != 0)
      {
        set_win32_error (error, "StartTraceW", rc);
        return FALSE;
      }
    *handle = h;
    return TRUE;
  }
#else
  g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_NOT_SUPPORTED,
               "Starting an ETW session needs Windows (StartTraceW)");
  return FALSE;
#endif
}

/**
 * etl_session_control:
 * @handle: the session handle, or 0 to name the session by @logger_name
 * @logger_name: (nullable): the session name
 * @code: %ETL_EVENT_TRACE_CONTROL_QUERY, %ETL_EVENT_TRACE_CONTROL_STOP or
 *   %ETL_EVENT_TRACE_CONTROL_FLUSH
 * @error: return location for an %ETL_SESSION_ERROR_WIN32 error (e.g.
 *   ERROR_WMI_INSTANCE_NOT_FOUND 4201) or, off Windows,
 *   %ETL_SESSION_ERROR_NOT_SUPPORTED
 *
 * Calls ControlTraceW and decodes the properties it returns: the loss
 * counters (EventsLost, LogBuffersLost, RealTimeBuffersLost,
 * BuffersWritten, FreeBuffers, NumberOfBuffers) and the log file name.
 *
 * Returns: (transfer full) (nullable): the session as ETW reports it
 */
EtlSession *
etl_session_control (guint64 handle, const char *logger_name, guint code, GError **error)
{
#ifdef G_OS_WIN32
  unsigned char *props = NULL;
  size_t len = 0;
  unsigned long rc = etl_session_win32_control (handle, logger_name, code, &props, &len);
  EtlSession *s;

  if (rc != 0)
    {
      set_win32_error (error, "ControlTraceW", rc);
      return NULL;
    }
  s = etl_session_decode (props, len, native_arch (), error);
  etl_session_win32_free (props);
  return s;
#else
  g_set_error (error, ETL_SESSION_ERROR, ETL_SESSION_ERROR_NOT_SUPPORTED,
               "Controlling an ETW session needs Windows (ControlTraceW)");
  return NULL;
#endif
}
