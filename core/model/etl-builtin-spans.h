/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-interval-stats.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/* "None" values of the index fields below (the same as etl-activities.h's). */
#define ETL_BUILTIN_NONE      G_MAXUINT32
#define ETL_BUILTIN_NO_RECORD G_MAXUINT64

/**
 * EtlBuiltinKind:
 * @ETL_BUILTIN_GC: a .NET garbage collection, GCStart to GCEnd
 * @ETL_BUILTIN_GC_PAUSE: the runtime's suspension, GCSuspendEEBegin to
 *   GCRestartEEEnd
 * @ETL_BUILTIN_DISK_IO: a DiskIo read, write or flush
 * @ETL_BUILTIN_FILE_IO: a FileIo operation, to its OpEnd
 * @ETL_BUILTIN_PROCESS: a process's lifetime
 * @ETL_BUILTIN_THREAD: a thread's lifetime
 *
 * What a built-in span describes.
 */
typedef enum
{
  ETL_BUILTIN_GC,
  ETL_BUILTIN_GC_PAUSE,
  ETL_BUILTIN_DISK_IO,
  ETL_BUILTIN_FILE_IO,
  ETL_BUILTIN_PROCESS,
  ETL_BUILTIN_THREAD,
  ETL_N_BUILTIN_KINDS
} EtlBuiltinKind;

/* etl_builtin_spans_new()'s @kinds: bit (1 << kind) for each wanted kind. */
#define ETL_BUILTIN_KINDS_ALL ((1u << ETL_N_BUILTIN_KINDS) - 1)

/**
 * EtlBuiltinFlags:
 * @ETL_BUILTIN_OPEN: no end record: the span lasts to the trace's last record
 *   (@stop_record is %ETL_BUILTIN_NO_RECORD)
 * @ETL_BUILTIN_ABANDONED: (with @ETL_BUILTIN_OPEN) a later begin of the same key
 *   (process id, thread id, GC count, IRP) replaced it while it was open
 * @ETL_BUILTIN_FROM_ELAPSED: a disk I/O without its Init record: the start is
 *   the completion's time minus its HighResResponseTime and @start_record
 *   is the completion
 * @ETL_BUILTIN_RUNDOWN_START: a process or thread already running when the
 *   trace began (DCStart): the true start is earlier
 * @ETL_BUILTIN_RUNDOWN_END: (with @ETL_BUILTIN_OPEN) a DCEnd said it was still
 *   running when the trace ended
 * @ETL_BUILTIN_TRUNCATED: a payload was shorter than its version's layout: the
 *   detail fields it lacked are 0 or %ETL_BUILTIN_UNKNOWN
 *
 * What is known of a span.
 */
typedef enum
{
  ETL_BUILTIN_OPEN = 1 << 0,
  ETL_BUILTIN_ABANDONED = 1 << 1,
  ETL_BUILTIN_FROM_ELAPSED = 1 << 2,
  ETL_BUILTIN_RUNDOWN_START = 1 << 3,
  ETL_BUILTIN_RUNDOWN_END = 1 << 4,
  ETL_BUILTIN_TRUNCATED = 1 << 5,
} EtlBuiltinFlags;

/**
 * EtlBuiltinSpan:
 * @start: FILETIME of the begin
 * @stop: FILETIME of the end, or of the trace's last record when open;
 *   @stop ≥ @start
 * @start_record: the begin record's index (the completion's for
 *   %ETL_BUILTIN_FROM_ELAPSED)
 * @stop_record: the end record's index, %ETL_BUILTIN_NO_RECORD when open
 * @pid: the process (GC: the event's; disk I/O: the Init's, else the
 *   IssuingThreadId's process; process: ProcessId)
 * @tid: the thread (disk I/O: the Init's thread or IssuingThreadId; 0 for
 *   a process or when unknown)
 * @parent: index of the enclosing span, %ETL_BUILTIN_NONE at the top: a GC
 *   inside the pause open in its process when it starts, a pause inside
 *   the GC open then (background GCs), a thread inside its process
 * @depth: 0 at the top, the parent's depth + 1 below it
 * @name: the span's name (etl_builtin_spans_get_string()): "GC gen 0" …
 *   "GC gen 9" ("GC" when the version has no Depth or it is larger),
 *   "GC pause", "Disk Read", "Disk Write", "Disk Flush", "File Create",
 *   "File Read", … , the process's image name for processes and threads
 *   ("Process N" when no record named it)
 * @kind: an #EtlBuiltinKind
 * @op: the begin record's event type (opcode)
 * @flags: #EtlBuiltinFlags
 *
 * One built-in interval, in the order of the starts.  The first nine
 * members are those of #EtlActivity (etl-activities.h), in the same order
 * and of the same types.  The detail depends on @kind (string fields index
 * etl_builtin_spans_get_string(), %ETL_BUILTIN_NONE when unknown):
 *
 * - GC: @gc.count (Count), @gc.generation (Depth), @gc.reason
 *   (etl_gc_reason_name()), @gc.type (etl_gc_type_name()); %ETL_BUILTIN_UNKNOWN
 *   where the version lacks the field;
 * - GC pause: @gc.count (GCSuspendEEBegin's Count), @gc.reason (its
 *   etl_gc_suspend_reason_name()); generation and type unknown;
 * - disk I/O: @disk.disk_number, @disk.bytes (TransferSize; 0 for a
 *   flush), @disk.offset (ByteOffset), @disk.file_key, @disk.file (the name
 *   of the FileKey in the trace's FileIo name records);
 * - file I/O: @file.offset, @file.bytes (IoSize, reads and writes),
 *   @file.file_key (FileKey; FileObject for Create), @file.file (OpenPath
 *   for Create, else the FileKey's name), @file.status (OpEnd's NtStatus);
 * - process: @process.image, @process.parent_pid, @process.exit_status (of
 *   the End record, else 259 STILL_ACTIVE);
 * - thread: @thread.image (its process's image name).
 */
typedef struct
{
  gint64 start;
  gint64 stop;
  guint64 start_record;
  guint64 stop_record;
  guint32 pid;
  guint32 tid;
  guint32 parent;
  guint32 depth;
  guint32 name;
  guint8 kind;
  guint8 op;
  guint16 flags;
  union
  {
    struct
    {
      guint32 count;
      guint32 generation;
      guint32 reason;
      guint32 type;
    } gc;
    struct
    {
      guint64 offset;
      guint64 file_key;
      guint32 bytes;
      guint32 disk_number;
      guint32 file;
    } disk;
    struct
    {
      guint64 offset;
      guint64 file_key;
      guint32 bytes;
      guint32 file;
      guint32 status;
    } file;
    struct
    {
      guint32 image;
      guint32 parent_pid;
      guint32 exit_status;
    } process;
    struct
    {
      guint32 image;
    } thread;
  } detail;
} EtlBuiltinSpan;

/**
 * EtlBuiltinStop:
 * @time: FILETIME of the end record
 * @record: its index
 * @pid: its process (as #EtlBuiltinSpan.pid)
 * @tid: its thread
 * @name: the name a span it ended would have had
 * @kind: an #EtlBuiltinKind
 *
 * An end no open begin matched (GCEnd, GCRestartEEEnd, OpEnd, a process or
 * thread End).  Disk completions without Init are spans (their elapsed
 * time gives the start), never unmatched.
 */
typedef struct
{
  gint64 time;
  guint64 record;
  guint32 pid;
  guint32 tid;
  guint32 name;
  guint32 kind;
} EtlBuiltinStop;

/**
 * EtlBuiltinSpansCounts:
 * @records: records of the classes read (GC task, DiskIo, FileIo,
 *   Process, Thread)
 * @begins: begin records per kind (GCStart, GCSuspendEEBegin, Inits and
 *   completions without Init, FileIo operations, Start and DCStart)
 * @ends: end records per kind
 * @paired: spans per kind that found their end
 * @open: spans per kind without an end
 * @abandoned: open spans per kind that a later begin of the same key replaced
 * @unmatched_ends: end records per kind without an open begin
 * @duplicate_gc_starts: GCStart records of a GC already open in the same
 *   process with the same Count (the runtime logs versions 1 and 2 of
 *   GCStart back to back): not a new GC
 * @missing: records too short for their key field, or of an unread version
 *   (ignored)
 * @truncated: records read with fields cut (their spans flagged
 *   %ETL_BUILTIN_TRUNCATED)
 * @dropped: begins not kept: past %ETL_BUILTIN_SPANS_MAX_PENDING open spans
 *   of one kind, or past %G_MAXUINT32 − 1 spans
 * @out_of_order: ends timed before their begin (@stop clamped to @start)
 * @unmatched_listed_dropped: unmatched ends counted but not listed (past
 *   %ETL_BUILTIN_SPANS_MAX_PENDING)
 *
 * What the pass met.
 */
typedef struct
{
  guint64 records;
  guint64 begins[ETL_N_BUILTIN_KINDS];
  guint64 ends[ETL_N_BUILTIN_KINDS];
  guint64 paired[ETL_N_BUILTIN_KINDS];
  guint64 open[ETL_N_BUILTIN_KINDS];
  guint64 abandoned[ETL_N_BUILTIN_KINDS];
  guint64 unmatched_ends[ETL_N_BUILTIN_KINDS];
  guint64 duplicate_gc_starts;
  guint64 missing;
  guint64 truncated;
  guint64 dropped;
  guint64 out_of_order;
  guint64 unmatched_listed_dropped;
} EtlBuiltinSpansCounts;

/* The most spans of one kind open at once (and unmatched ends listed). */
#define ETL_BUILTIN_SPANS_MAX_PENDING (1u << 20)

/**
 * EtlBuiltinSpanStats:
 * @kind: the group's #EtlBuiltinKind
 * @name: its name (etl_builtin_spans_get_string())
 * @stats: the durations of its closed spans, its open spans and unmatched
 *   ends (#EtlIntervalStats)
 *
 * One row of etl_builtin_spans_compute_stats(): the spans of one kind and
 * name.
 */
typedef struct
{
  guint32 kind;
  guint32 name;
  EtlIntervalStats stats;
} EtlBuiltinSpanStats;

typedef struct _EtlBuiltinSpans EtlBuiltinSpans;

EtlBuiltinSpans *etl_builtin_spans_new (EtlTrace *trace, guint kinds, GCancellable *cancellable, GError **error);
EtlBuiltinSpans *etl_builtin_spans_ref (EtlBuiltinSpans *spans);
void etl_builtin_spans_unref (EtlBuiltinSpans *spans);
const EtlBuiltinSpan *etl_builtin_spans_get (EtlBuiltinSpans *spans, guint *n_spans);
const EtlBuiltinStop *etl_builtin_spans_get_unmatched (EtlBuiltinSpans *spans, guint *n_stops);
const EtlBuiltinSpansCounts *etl_builtin_spans_get_counts (EtlBuiltinSpans *spans);
const char *etl_builtin_spans_get_string (EtlBuiltinSpans *spans, guint32 string);
GArray *etl_builtin_spans_compute_stats (EtlBuiltinSpans *spans);
const char *etl_builtin_kind_name (EtlBuiltinKind kind);
gboolean etl_builtin_kinds_parse (const char *list, guint *kinds);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlBuiltinSpans, etl_builtin_spans_unref)

G_END_DECLS
