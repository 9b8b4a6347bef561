/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Payload sizes of the documented layouts (CSwitch and ReadyThread MOF
 * pages): the full record and the part that carries the thread ids. */
#define ETL_CSWITCH_PAYLOAD_SIZE       24
#define ETL_CSWITCH_IDS_SIZE           8
#define ETL_READY_THREAD_PAYLOAD_SIZE  8
#define ETL_READY_THREAD_IDS_SIZE      4

/**
 * EtlSchedRead:
 * @ETL_SCHED_READ_OK: every documented field was read
 * @ETL_SCHED_READ_TRUNCATED: the payload holds the thread id(s) but ends
 *   before the other fields; those read as 0 (and, for CSwitch,
 *   @old_thread_wait_reason, @old_thread_wait_mode and @old_thread_state
 *   as -1: unknown)
 * @ETL_SCHED_READ_MISSING: the payload is too short (or absent) for the
 *   thread id(s); nothing was read and every field is 0
 *
 * What etl_cswitch_read() and etl_ready_thread_read() found.
 */
typedef enum
{
  ETL_SCHED_READ_OK,
  ETL_SCHED_READ_TRUNCATED,
  ETL_SCHED_READ_MISSING,
} EtlSchedRead;

/**
 * EtlCSwitch:
 * @new_thread_id: NewThreadId, the thread switched in (0 = idle)
 * @old_thread_id: OldThreadId, the thread switched out
 * @new_thread_priority: NewThreadPriority
 * @old_thread_priority: OldThreadPriority
 * @previous_c_state: PreviousCState, the C-state the processor left
 * @old_thread_wait_reason: OldThreadWaitReason (KWAIT_REASON, wdm.h)
 * @old_thread_wait_mode: OldThreadWaitMode (KPROCESSOR_MODE: 0 KernelMode,
 *   1 UserMode)
 * @old_thread_state: OldThreadState (KTHREAD_STATE: 1 Ready, 2 Running,
 *   5 Waiting, 7 DeferredReady, …)
 * @old_thread_wait_ideal_processor: OldThreadWaitIdealProcessor
 * @new_thread_wait_time: NewThreadWaitTime, clock ticks (the MOF page's
 *   "wait time for the new thread")
 *
 * The fields of a Thread CSwitch record (MOF class CSwitch, event type 36).
 */
typedef struct
{
  guint32 new_thread_id;
  guint32 old_thread_id;
  gint8 new_thread_priority;
  gint8 old_thread_priority;
  guint8 previous_c_state;
  gint8 old_thread_wait_reason;
  gint8 old_thread_wait_mode;
  gint8 old_thread_state;
  gint8 old_thread_wait_ideal_processor;
  guint32 new_thread_wait_time;
} EtlCSwitch;

/**
 * EtlReadyThread:
 * @t_thread_id: TThreadId, the thread made ready
 * @adjust_reason: AdjustReason (0 ignore the increment, 1 decaying
 *   increment, 2 boost that decays at quantum end)
 * @adjust_increment: AdjustIncrement, the priority adjustment
 * @flag: Flag (0x1 readied from a DPC, 0x2 kernel stack swapped out, 0x4
 *   process address space swapped out)
 *
 * The fields of a Thread ReadyThread record (MOF class ReadyThread, event
 * type 50).
 */
typedef struct
{
  guint32 t_thread_id;
  gint8 adjust_reason;
  gint8 adjust_increment;
  gint8 flag;
} EtlReadyThread;

/* ReadyThread Flag bits (ReadyThread MOF page). */
#define ETL_READY_THREAD_FLAG_DPC           0x1
#define ETL_READY_THREAD_FLAG_STACK_SWAPPED 0x2
#define ETL_READY_THREAD_FLAG_PROCESS_SWAPPED 0x4

EtlSchedRead etl_cswitch_read (const guint8 *payload, gsize len, EtlCSwitch *out);
EtlSchedRead etl_ready_thread_read (const guint8 *payload, gsize len, EtlReadyThread *out);

const char *etl_cswitch_wait_reason_name (int wait_reason);
const char *etl_cswitch_thread_state_name (int thread_state);
const char *etl_cswitch_wait_mode_name (int wait_mode);

G_END_DECLS
