/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-decode.h"
#include "etl-schema.h"
#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlProcess:
 * @pid: the process id (ProcessId)
 * @parent_pid: ParentId, or 0 when no record gave it
 * @session_id: SessionId, or G_MAXUINT32 when unknown
 * @exit_status: ExitStatus from the End record (259 = STILL_ACTIVE)
 * @start_time: FILETIME of its creation: the Start record, or the
 *   Microsoft-Windows-Kernel-Process CreateTime; 0 when it was already
 *   running when the trace began (known from a DCStart rundown record only)
 * @end_time: FILETIME of its End record; 0 when it was still running when the
 *   trace ended
 * @first_seen: FILETIME of the first record that described it
 * @last_seen: FILETIME of the last record that described it
 * @unique_process_key: UniqueProcessKey (the kernel's EPROCESS address), or 0
 * @image_name: (nullable): the image file name, e.g. "Test.x64.exe"
 *   (ImageFileName of the kernel's Process class; the file part of
 *   Microsoft-Windows-Kernel-Process ImageName)
 * @command_line: (nullable): CommandLine
 * @index: position in etl_process_table_get_processes()
 *
 * One process lifetime.  Process ids are reused, so a pid may have several
 * #EtlProcess entries with disjoint lifetimes.  Read-only.
 */
typedef struct
{
  guint32 pid;
  guint32 parent_pid;
  guint32 session_id;
  guint32 exit_status;
  gint64 start_time;
  gint64 end_time;
  gint64 first_seen;
  gint64 last_seen;
  guint64 unique_process_key;
  char *image_name;
  char *command_line;
  guint index;
} EtlProcess;

/**
 * EtlThread:
 * @tid: the thread id (TThreadId)
 * @pid: the id of the process that owns it
 * @start_time: FILETIME of its Start record; 0 when it was running when the
 *   trace began (DCStart)
 * @end_time: FILETIME of its End record; 0 when still running at the end
 * @name: (nullable): its name (Thread SetName records, ThreadName fields)
 * @process: (nullable): the owning process at @start_time or first sight
 *
 * One thread lifetime.  Read-only.
 */
typedef struct
{
  guint32 tid;
  guint32 pid;
  gint64 start_time;
  gint64 end_time;
  char *name;
  const EtlProcess *process;
} EtlThread;

/**
 * EtlLifetimeEvent:
 * @ETL_LIFETIME_START: created during the trace (Start)
 * @ETL_LIFETIME_END: ended during the trace (End, "Stop")
 * @ETL_LIFETIME_RUNDOWN_START: running when the trace began (DCStart)
 * @ETL_LIFETIME_RUNDOWN_END: still running when the trace ended (DCEnd, "DCStop")
 * @ETL_LIFETIME_INFO: a record that only names it (thread SetName)
 *
 * What a Process or Thread record says about a lifetime; the opcodes 1–4 of
 * the kernel's Process and Thread classes (EVENT_TRACE_TYPE_START, _END,
 * _DC_START, _DC_END in evntrace.h).
 */
typedef enum
{
  ETL_LIFETIME_START,
  ETL_LIFETIME_END,
  ETL_LIFETIME_RUNDOWN_START,
  ETL_LIFETIME_RUNDOWN_END,
  ETL_LIFETIME_INFO,
} EtlLifetimeEvent;

/**
 * EtlProcessInfo:
 * @pid: ProcessId
 * @parent_pid: ParentId (0 when unknown)
 * @session_id: SessionId (G_MAXUINT32 when unknown)
 * @exit_status: ExitStatus (0 when unknown)
 * @create_time: a creation FILETIME carried by the record (CreateTime), or 0
 * @unique_process_key: UniqueProcessKey, or 0
 * @image_name: (nullable): image file name or path (the file part is kept)
 * @command_line: (nullable): CommandLine
 *
 * The fields a Process record gives, for etl_process_table_add_process().
 */
typedef struct
{
  guint32 pid;
  guint32 parent_pid;
  guint32 session_id;
  guint32 exit_status;
  gint64 create_time;
  guint64 unique_process_key;
  const char *image_name;
  const char *command_line;
} EtlProcessInfo;

typedef struct _EtlProcessTable EtlProcessTable;

EtlProcessTable *etl_process_table_new (EtlSchemaRegistry *registry);
EtlProcessTable *etl_process_table_ref (EtlProcessTable *table);
void etl_process_table_unref (EtlProcessTable *table);

gboolean etl_process_table_is_lifetime_record (const EtlRecord *record);
gboolean etl_process_table_add_record (EtlProcessTable *table, const EtlRecord *record);
void etl_process_table_add_process (EtlProcessTable *table, EtlLifetimeEvent event, gint64 filetime,
                                    const EtlProcessInfo *info);
void etl_process_table_add_thread (EtlProcessTable *table, EtlLifetimeEvent event, gint64 filetime,
                                   guint32 pid, guint32 tid, const char *name);
void etl_process_table_finish (EtlProcessTable *table);

const EtlProcess *etl_process_table_get_processes (EtlProcessTable *table, guint *n_processes);
const EtlThread *etl_process_table_get_threads (EtlProcessTable *table, guint *n_threads);
const EtlProcess *etl_process_table_lookup (EtlProcessTable *table, guint32 pid, gint64 filetime);
const EtlThread *etl_process_table_lookup_thread (EtlProcessTable *table, guint32 tid,
                                                  gint64 filetime);
gboolean etl_process_table_resolve_record (EtlProcessTable *table, const EtlRecord *record,
                                           const EtlDecoded *decoded, guint32 *pid, guint32 *tid);
const EtlProcess *etl_process_table_lookup_record (EtlProcessTable *table, const EtlRecord *record,
                                                   const EtlDecoded *decoded);

char *etl_process_format_name (const EtlProcess *process, guint32 pid);
char *etl_process_dup_short_name (const EtlProcess *process);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlProcessTable, etl_process_table_unref)

G_END_DECLS
