/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-cswitch
 * @title: CSwitch and ReadyThread payloads
 * @short_description: the scheduler's two records, read in place
 *
 * The wait analysis reads every Thread CSwitch (HookId 0x0524, event type
 * 36) and ReadyThread (0x0532, type 50) record of a trace, millions of
 * them, so it reads their payloads in place rather than through the
 * generic decoder.  The layouts are the MOF pages' (classes CSwitch and
 * ReadyThread, both "Thread_V2" event types) and the rows of
 * etl-mof-kernel.c; TraceEvent's KernelTraceEventParser.cs (CSwitchTraceData,
 * DispatcherReadyThreadTraceData) reads the same offsets for versions 2 to
 * 4, where later versions only append.
 *
 * CSwitch, 24 bytes, no pointer-sized field (so one layout for 32- and
 * 64-bit headers):
 *
 *   off size field
 *     0   4  NewThreadId (uint32)
 *     4   4  OldThreadId (uint32)
 *     8   1  NewThreadPriority (sint8)
 *     9   1  OldThreadPriority (sint8)
 *    10   1  PreviousCState (uint8)
 *    11   1  SpareByte
 *    12   1  OldThreadWaitReason (sint8, KWAIT_REASON)
 *    13   1  OldThreadWaitMode (sint8, KPROCESSOR_MODE)
 *    14   1  OldThreadState (sint8, KTHREAD_STATE)
 *    15   1  OldThreadWaitIdealProcessor (sint8)
 *    16   4  NewThreadWaitTime (uint32)
 *    20   4  Reserved
 *
 * ReadyThread, 8 bytes, likewise the same for both pointer sizes:
 *
 *   off size field
 *     0   4  TThreadId (uint32)
 *     4   1  AdjustReason (sint8)
 *     5   1  AdjustIncrement (sint8)
 *     6   1  Flag (sint8)
 *     7   1  Reserved
 *
 * Longer payloads (a later version's appended fields) read the same; a
 * shorter one gives #ETL_SCHED_READ_TRUNCATED or #ETL_SCHED_READ_MISSING.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-cswitch.h"

#include <string.h>

static inline guint32
read_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/**
 * etl_cswitch_read:
 * @payload: (array length=len) (nullable): a CSwitch record's UserData
 * @len: bytes of @payload
 * @out: (out caller-allocates): the fields
 *
 * Reads a Thread CSwitch payload (MOF class CSwitch, event type 36; layout
 * in the section overview) from @len bytes, never beyond.
 *
 * Returns: #ETL_SCHED_READ_OK when all 24 bytes were there;
 *   #ETL_SCHED_READ_TRUNCATED when only the thread ids (8 bytes or more)
 *   were; #ETL_SCHED_READ_MISSING when fewer than 8 bytes were
 */
EtlSchedRead
etl_cswitch_read (const guint8 *payload, gsize len, EtlCSwitch *out)
{
  g_return_val_if_fail (out != NULL, ETL_SCHED_READ_MISSING);

  memset (out, 0, sizeof *out);
  if (payload == NULL || len < ETL_CSWITCH_IDS_SIZE)
    return ETL_SCHED_READ_MISSING;
  out->new_thread_id = read_u32 (payload);
  out->old_thread_id = read_u32 (payload + 4);
  if (len < ETL_CSWITCH_PAYLOAD_SIZE)
    {
      out->old_thread_wait_reason = -1;
      out->old_thread_wait_mode = -1;
      out->old_thread_state = -1;
      return ETL_SCHED_READ_TRUNCATED;
    }
  out->new_thread_priority = (gint8) payload[8];
  out->old_thread_priority = (gint8) payload[9];
  out->previous_c_state = payload[10];
  out->old_thread_wait_reason = (gint8) payload[12];
  out->old_thread_wait_mode = (gint8) payload[13];
  out->old_thread_state = (gint8) payload[14];
  out->old_thread_wait_ideal_processor = (gint8) payload[15];
  out->new_thread_wait_time = read_u32 (payload + 16);
  return ETL_SCHED_READ_OK;
}

/**
 * etl_ready_thread_read:
 * @payload: (array length=len) (nullable): a ReadyThread record's UserData
 * @len: bytes of @payload
 * @out: (out caller-allocates): the fields
 *
 * Reads a Thread ReadyThread payload (MOF class ReadyThread, event type 50;
 * layout in the section overview) from @len bytes, never beyond.
 *
 * Returns: #ETL_SCHED_READ_OK when all 8 bytes were there;
 *   #ETL_SCHED_READ_TRUNCATED when only TThreadId (4 bytes or more) was;
 *   #ETL_SCHED_READ_MISSING when fewer than 4 bytes were
 */
EtlSchedRead
etl_ready_thread_read (const guint8 *payload, gsize len, EtlReadyThread *out)
{
  g_return_val_if_fail (out != NULL, ETL_SCHED_READ_MISSING);

  memset (out, 0, sizeof *out);
  if (payload == NULL || len < ETL_READY_THREAD_IDS_SIZE)
    return ETL_SCHED_READ_MISSING;
  out->t_thread_id = read_u32 (payload);
  if (len < ETL_READY_THREAD_PAYLOAD_SIZE)
    return ETL_SCHED_READ_TRUNCATED;
  out->adjust_reason = (gint8) payload[4];
  out->adjust_increment = (gint8) payload[5];
  out->flag = (gint8) payload[6];
  return ETL_SCHED_READ_OK;
}

/* KWAIT_REASON (mingw-w64 ddk/wdm.h; the CSwitch MOF page's
 * OldThreadWaitReason table and TraceProcessor's KernelWaitReason give the
 * same values).  14 is wdm.h's WrSpare0, which the MOF page and
 * TraceProcessor name WrEventPair; this table uses the MOF page's name. */
static const char *const wait_reason_names[] = {
  "Executive", "FreePage", "PageIn", "PoolAllocation", "DelayExecution",
  "Suspended", "UserRequest", "WrExecutive", "WrFreePage", "WrPageIn",
  "WrPoolAllocation", "WrDelayExecution", "WrSuspended", "WrUserRequest", "WrEventPair",
  "WrQueue", "WrLpcReceive", "WrLpcReply", "WrVirtualMemory", "WrPageOut",
  "WrRendezvous", "WrKeyedEvent", "WrTerminated", "WrProcessInSwap", "WrCpuRateControl",
  "WrCalloutStack", "WrKernel", "WrResource", "WrPushLock", "WrMutex",
  "WrQuantumEnd", "WrDispatchInt", "WrPreempted", "WrYieldExecution", "WrFastMutex",
  "WrGuardedMutex", "WrRundown", "WrAlertByThreadId", "WrDeferredPreempt", "WrPhysicalFault",
};

/* KTHREAD_STATE: 0 to 7 as the CSwitch MOF page's OldThreadState table
 * gives them; 8 and 9 are the kernel's later values (GateWaitObsolete,
 * WaitingForProcessOutSwap) as the public symbols of ntoskrnl name them. */
static const char *const thread_state_names[] = {
  "Initialized", "Ready", "Running", "Standby", "Terminated",
  "Waiting", "Transition", "DeferredReady", "GateWaitObsolete", "WaitingForProcessOutSwap",
};

/**
 * etl_cswitch_wait_reason_name:
 * @wait_reason: an OldThreadWaitReason value (KWAIT_REASON)
 *
 * Names a wait reason as the CSwitch MOF page and wdm.h's KWAIT_REASON do
 * (0 "Executive" to 39 "WrPhysicalFault").
 *
 * Returns: (transfer none) (nullable): the static name, or %NULL for a
 *   value outside the table (including -1, "unknown" in a truncated
 *   payload); callers then show the number
 */
const char *
etl_cswitch_wait_reason_name (int wait_reason)
{
  if (wait_reason < 0 || wait_reason >= (int) G_N_ELEMENTS (wait_reason_names))
    return NULL;
  return wait_reason_names[wait_reason];
}

/**
 * etl_cswitch_thread_state_name:
 * @thread_state: an OldThreadState value (KTHREAD_STATE)
 *
 * Names a thread state as the CSwitch MOF page does (0 "Initialized" to 7
 * "DeferredReady"; 8 "GateWaitObsolete", 9 "WaitingForProcessOutSwap").
 *
 * Returns: (transfer none) (nullable): the static name, or %NULL for a
 *   value outside the table; callers then show the number
 */
const char *
etl_cswitch_thread_state_name (int thread_state)
{
  if (thread_state < 0 || thread_state >= (int) G_N_ELEMENTS (thread_state_names))
    return NULL;
  return thread_state_names[thread_state];
}

/**
 * etl_cswitch_wait_mode_name:
 * @wait_mode: an OldThreadWaitMode value (KPROCESSOR_MODE)
 *
 * Names a wait mode as the CSwitch MOF page does: 0 "KernelMode",
 * 1 "UserMode".
 *
 * Returns: (transfer none) (nullable): the static name, or %NULL for any
 *   other value; callers then show the number
 */
const char *
etl_cswitch_wait_mode_name (int wait_mode)
{
  switch (wait_mode)
    {
    case 0:
      return "KernelMode";
    case 1:
      return "UserMode";
    default:
      return NULL;
    }
}
