/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlThreadStateKind:
 * @ETL_THREAD_STATE_RUNNING: on a processor (switch-in to switch-out)
 * @ETL_THREAD_STATE_READY: ready to run, waiting for a processor
 *   (ReadyThread, or a switch-out in state Ready, to the switch-in)
 * @ETL_THREAD_STATE_WAITING: waiting (switch-out to the ReadyThread that
 *   readied it)
 * @ETL_THREAD_STATE_NOT_RUNNING: switched out, Ready and Waiting not told
 *   apart: the trace has no ReadyThread record
 *
 * A thread's state between two scheduler records.
 */
typedef enum
{
  ETL_THREAD_STATE_RUNNING,
  ETL_THREAD_STATE_READY,
  ETL_THREAD_STATE_WAITING,
  ETL_THREAD_STATE_NOT_RUNNING,
} EtlThreadStateKind;

/* "Unknown" values of the fields below. */
#define ETL_THREAD_STATES_NO_ID G_MAXUINT32
#define ETL_THREAD_STATES_UNKNOWN (-1)

/**
 * EtlThreadState:
 * @start: FILETIME the state began
 * @end: FILETIME it ended (the trace's last record's time when it lasted to
 *   the end); @end ≥ @start
 * @record: index of the record that began it (CSwitch or ReadyThread)
 * @kind: an #EtlThreadStateKind
 * @cpu: the processor when Running; for Ready, the processor of the
 *   ReadyThread record
 * @wait_reason: OldThreadWaitReason (KWAIT_REASON) of the CSwitch that
 *   switched the thread out, for every state after it until the next
 *   switch-in; -1 when unknown (Running, a truncated CSwitch, or an implied
 *   switch-out)
 * @wait_mode: OldThreadWaitMode of that CSwitch (0 KernelMode, 1 UserMode),
 *   -1 when unknown
 * @thread_state: OldThreadState of that CSwitch (KTHREAD_STATE), -1 when
 *   unknown
 * @readying_tid: for Waiting and Ready, the thread that readied it (the
 *   ReadyThread record's header ThreadId; 0 = from a DPC or the idle
 *   thread); %ETL_THREAD_STATES_NO_ID when not (yet) readied
 * @readying_pid: that thread's process, %ETL_THREAD_STATES_NO_ID when
 *   unknown
 *
 * One interval of a thread's life.
 */
typedef struct
{
  gint64 start;
  gint64 end;
  guint64 record;
  guint8 kind;
  gint8 wait_reason;
  gint8 wait_mode;
  gint8 thread_state;
  guint32 cpu;
  guint32 readying_tid;
  guint32 readying_pid;
} EtlThreadState;

/**
 * EtlSwitchIn:
 * @switch_in: FILETIME of the CSwitch (Switch-In Time)
 * @last_switch_out: FILETIME the new thread was last switched out (Last
 *   Switch-Out Time), 0 when the trace had not seen it run before
 * @ready_time: FILETIME of the ReadyThread that readied it since then, 0
 *   when none
 * @ready: Ready, 100-ns units: @switch_in − @ready_time; without a
 *   ReadyThread, @switch_in − @last_switch_out when the thread left in
 *   state Ready or DeferredReady (preempted), else 0
 * @waits: Waits, 100-ns units: @ready_time − @last_switch_out; without a
 *   ReadyThread, @switch_in − @last_switch_out when the thread left in
 *   another state (waiting), else 0; 0 when @last_switch_out is 0
 * @cpu_usage: CPU Usage, 100-ns units: from @switch_in to the thread's next
 *   switch-out (or the trace's end)
 * @record: the CSwitch record's index (its StackWalk, when the trace has
 *   one, is WPA's New Thread Stack: etl_stacks_dup_symbolized())
 * @ready_record: the index of the ReadyThread record that readied the new
 *   thread since its last switch-out (the one @ready_time is the time of;
 *   its StackWalk is WPA's Ready Thread Stack, the readying thread's), or
 *   %G_MAXUINT64 when none did (first sight, preempted, a trace without
 *   ReadyThread records, the idle thread)
 * @cpu: the processor
 * @new_tid: NewThreadId (0 = idle)
 * @new_pid: its process (%ETL_THREAD_STATES_NO_ID when unknown; 0 for idle)
 * @old_tid: OldThreadId
 * @old_pid: its process
 * @readying_tid: the readying thread (0 = DPC/idle),
 *   %ETL_THREAD_STATES_NO_ID when no ReadyThread readied it
 * @readying_pid: its process
 * @new_prev_wait_reason: OldThreadWaitReason when the new thread was last
 *   switched out (New Prev Wait Reason), -1 when unknown
 * @new_prev_wait_mode: its OldThreadWaitMode, -1 when unknown
 * @new_prev_state: its OldThreadState (New Prev State), -1 when unknown
 * @new_priority: NewThreadPriority
 * @old_priority: OldThreadPriority
 *
 * One row of WPA's CPU Usage (Precise) table: a CSwitch seen from the
 * thread it switched in.
 */
typedef struct
{
  gint64 switch_in;
  gint64 last_switch_out;
  gint64 ready_time;
  gint64 ready;
  gint64 waits;
  gint64 cpu_usage;
  guint64 record;
  guint64 ready_record;
  guint32 cpu;
  guint32 new_tid;
  guint32 new_pid;
  guint32 old_tid;
  guint32 old_pid;
  guint32 readying_tid;
  guint32 readying_pid;
  gint8 new_prev_wait_reason;
  gint8 new_prev_wait_mode;
  gint8 new_prev_state;
  gint8 new_priority;
  gint8 old_priority;
} EtlSwitchIn;

/**
 * EtlThreadStatesCounts:
 * @cswitch: CSwitch records read (one switch-in row each)
 * @ready_thread: ReadyThread records read
 * @truncated: CSwitch or ReadyThread payloads that ended after the thread
 *   ids (used, their other fields unknown)
 * @missing: payloads too short for the thread ids (skipped)
 * @implied_switch_outs: Running states closed without a CSwitch naming
 *   the thread as OldThreadId (see the section overview)
 * @ignored_switch_outs: switch-outs of a thread that was not Running
 * @ignored_ready: ReadyThread records for a Running or already Ready thread
 * @out_of_order: records timed before the state they end began (clamped)
 *
 * What the pass met; the anomalies are input errors it absorbed.
 */
typedef struct
{
  guint64 cswitch;
  guint64 ready_thread;
  guint64 truncated;
  guint64 missing;
  guint64 implied_switch_outs;
  guint64 ignored_switch_outs;
  guint64 ignored_ready;
  guint64 out_of_order;
} EtlThreadStatesCounts;

/**
 * ETL_THREAD_STATES_OVERVIEW_BUCKETS:
 *
 * The fewest buckets of a thread's overview (etl_thread_states_get_overview()):
 * a thread of n states has MIN (MAX (n / 8, this), 8 × this) buckets.
 */
#define ETL_THREAD_STATES_OVERVIEW_BUCKETS 16384

/**
 * ETL_THREAD_STATES_OVERVIEW_MIN_STATES:
 *
 * Threads with fewer states have no overview: a search of their states
 * stays in the cache.
 */
#define ETL_THREAD_STATES_OVERVIEW_MIN_STATES 65536

/**
 * EtlThreadStateSample:
 * @present: 1 when a state reaches into the bucket, 0 when none does
 * @kind: that state's #EtlThreadStateKind
 * @cpu: its processor (EtlThreadState.cpu, at most 65535)
 *
 * One bucket of a thread's overview: the state at the bucket's start (the
 * first that ends after it, if it starts before the bucket's end).
 */
typedef struct
{
  guint8 present;
  guint8 kind;
  guint16 cpu;
} EtlThreadStateSample;

typedef struct _EtlThreadStates EtlThreadStates;

EtlThreadStates *etl_thread_states_new (EtlTrace *trace, GCancellable *cancellable, GError **error);
EtlThreadStates *etl_thread_states_ref (EtlThreadStates *states);
void etl_thread_states_unref (EtlThreadStates *states);
const EtlThreadStatesCounts *etl_thread_states_get_counts (EtlThreadStates *states);
gboolean etl_thread_states_has_ready_thread (EtlThreadStates *states);
const guint32 *etl_thread_states_get_threads (EtlThreadStates *states, guint *n_threads);
const EtlThreadState *etl_thread_states_get (EtlThreadStates *states, guint32 tid, guint *n_states);
const EtlSwitchIn *etl_thread_states_get_switch_ins (EtlThreadStates *states, guint *n_rows);
const EtlThreadStateSample *etl_thread_states_get_overview (EtlThreadStates *states, guint32 tid, gint64 *start,
                                                            gint64 *bucket_width, guint *n_buckets);
const char *etl_thread_state_kind_name (EtlThreadStateKind kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlThreadStates, etl_thread_states_unref)

G_END_DECLS
