/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-thread-states
 * @title: EtlThreadStates
 * @short_description: why a thread was not running: states from CSwitch and ReadyThread
 *
 * One pass over a trace's Thread CSwitch (type 36) and ReadyThread (type
 * 50) records, in the trace's merged time order, gives each thread a
 * sequence of states (#EtlThreadState) and each CSwitch a row of WPA's CPU
 * Usage (Precise) table (#EtlSwitchIn).  Terms are those of the CSwitch and
 * ReadyThread MOF pages:
 *
 * - A CSwitch on processor c switches NewThreadId in: it is Running on c
 *   until a CSwitch names it OldThreadId.  That switch-out starts Waiting
 *   (Ready when OldThreadState is Ready (1), Standby (3) or DeferredReady
 *   (7): it was preempted, not waiting) and carries OldThreadWaitReason,
 *   OldThreadWaitMode and OldThreadState.
 * - A ReadyThread for TThreadId ends its Waiting and starts Ready; the
 *   readying thread is the ReadyThread record's header ThreadId (0: a DPC
 *   or the idle thread readied it), its process resolved through the
 *   trace's process table at that time (the header ProcessId when the
 *   table does not know the thread).  Both the Waiting and the Ready
 *   state name it.
 * - When the trace has no ReadyThread record at all, every Ready and
 *   Waiting state is one %ETL_THREAD_STATE_NOT_RUNNING state.
 * - The idle thread (id 0; one per processor) has no states; its
 *   switch-ins are rows (New Thread Id 0).
 *
 * Bad input gets these defined results (#EtlThreadStatesCounts counts each):
 *
 * - A CSwitch or ReadyThread for a thread never seen before: its states
 *   begin there; nothing is assumed before (the row's Last Switch-Out Time
 *   is 0, its Waits 0).  A thread id is one thread for the whole trace:
 *   ids reused after a Thread End are not split (the rows' pids are looked
 *   up at each switch-in, so they follow the reuse).
 * - A payload too short for the thread ids is skipped (@missing); one that
 *   ends after them is used with its other fields unknown (-1) (@truncated).
 * - A switch-in of a thread already Running (a duplicate, or a lost
 *   switch-out on another processor), or a CSwitch on c whose OldThreadId is
 *   not the thread Running on c: that Running state ends at the CSwitch and
 *   a Waiting state with unknown reason (-1) follows (@implied_switch_outs).
 * - A switch-out of a thread that is not Running changes nothing
 *   (@ignored_switch_outs).
 * - A ReadyThread for a Running thread, or for one already Ready, changes
 *   nothing: the first readying counts (@ignored_ready).
 * - A ReadyThread without a following switch-in: Ready lasts to the
 *   trace's last record.  Every open state ends there.
 * - A record timed before the start of the state it ends (out of order):
 *   its time is taken as that start, so no interval is negative
 *   (@out_of_order).
 *
 * Cost is linear in the trace's records (a hash lookup per scheduler
 * record); etl_thread_states_new() runs in the calling thread, meant for a
 * worker, plus a reader thread of its own, and may be cancelled.  The
 * result is read-only and may be shared between threads.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-thread-states-private.h"

#include <stdlib.h>
#include <string.h>

#include "etl-cswitch.h"
#include "etl-names.h"
#include "etl-process-table-private.h"

#define HOOK_CSWITCH      0x0524
#define HOOK_READY_THREAD 0x0532
#define NO_ID             ETL_THREAD_STATES_NO_ID
#define NO_ROW            G_MAXUINT64
#define MAX_CPUS          4096 /* processor indexes tracked; higher ones make rows only */

/* KTHREAD_STATE values that mean "preempted, still ready" (CSwitch page). */
#define KSTATE_READY          1
#define KSTATE_STANDBY        3
#define KSTATE_DEFERRED_READY 7

struct _EtlThreadStates
{
  gatomicrefcount ref_count;
  EtlThreadStatesCounts counts;
  guint n_threads;
  guint32 *tids;    /* n_threads, ascending */
  GArray **states;  /* n_threads: each thread's EtlThreadState, in time order */
  /* n_threads: each thread's overview (ov_n[i] samples from ov_start[i],
   * ov_width[i] apart), NULL for a small thread */
  EtlThreadStateSample **overview;
  gint64 *ov_start, *ov_width;
  guint *ov_n;
  GArray *rows;     /* EtlSwitchIn, in record order */
};

typedef struct
{
  GArray *states;          /* EtlThreadState; the last one is open while open is TRUE */
  gboolean open;
  gint64 last_switch_out;  /* 0 = not seen */
  gint64 ready_time;       /* 0 = not readied since */
  guint64 ready_record;    /* that ReadyThread's index, NO_ROW = none */
  guint32 readying_tid, readying_pid;
  gint8 prev_reason, prev_mode, prev_state;
  /* The process table's answer for this tid over [pid_from, pid_to):
   * looked up again only when a record falls outside. */
  gboolean pid_known;
  guint32 pid;
  gint64 pid_from, pid_to;
} ThreadBuild;

typedef struct
{
  guint32 tid;     /* running, NO_ID unknown */
  guint64 row;     /* its switch-in row, NO_ROW none */
  ThreadBuild *tb; /* tid's build (NULL for 0 and NO_ID): spares the hash lookup at its switch-out */
} CpuBuild;

struct _EtlThreadStatesBuilder
{
  EtlProcessTable *table; /* (nullable), borrowed */
  EtlThreadStatesCounts counts;
  GHashTable *threads;    /* tid → ThreadBuild */
  GArray *cpus;           /* CpuBuild */
  GArray *rows;           /* EtlSwitchIn */
};

static void
thread_build_free (gpointer p)
{
  ThreadBuild *tb = p;

  g_array_unref (tb->states);
  g_free (tb);
}

static ThreadBuild *
thread_get (EtlThreadStatesBuilder *b, guint32 tid)
{
  ThreadBuild *tb = g_hash_table_lookup (b->threads, GUINT_TO_POINTER (tid));

  if (tb == NULL)
    {
      tb = g_new0 (ThreadBuild, 1);
      tb->states = g_array_new (FALSE, FALSE, sizeof (EtlThreadState));
      tb->readying_tid = tb->readying_pid = NO_ID;
      tb->ready_record = NO_ROW;
      tb->prev_reason = tb->prev_mode = tb->prev_state = ETL_THREAD_STATES_UNKNOWN;
      tb->pid_from = 1;
      tb->pid_to = 0; /* empty: the first pid_of() looks up */
      g_hash_table_insert (b->threads, GUINT_TO_POINTER (tid), tb);
    }
  return tb;
}

static EtlThreadState *
current (ThreadBuild *tb)
{
  return tb->open ? &g_array_index (tb->states, EtlThreadState, tb->states->len - 1) : NULL;
}

static CpuBuild *
cpu_get (EtlThreadStatesBuilder *b, guint cpu)
{
  if (cpu >= MAX_CPUS)
    return NULL;
  while (b->cpus->len <= cpu)
    {
      CpuBuild c = { NO_ID, NO_ROW, NULL };

      g_array_append_val (b->cpus, c);
    }
  return &g_array_index (b->cpus, CpuBuild, cpu);
}

/* @tid's process at @t, else @fallback.  With @tb (@tid's build, nullable)
 * the answer is cached with the span of times the table gives it for, so a
 * thread's records cost one table lookup per process lifetime. */
static guint32
pid_of (EtlThreadStatesBuilder *b, ThreadBuild *tb, guint32 tid, gint64 t, guint32 fallback)
{
  const EtlThread *th;
  gint64 from, to;

  if (tid == 0)
    return 0;
  if (b->table == NULL)
    return fallback;
  if (tb == NULL)
    {
      th = etl_process_table_lookup_thread (b->table, tid, t);
      return th != NULL ? th->pid : fallback;
    }
  if (t < tb->pid_from || t >= tb->pid_to)
    {
      th = etl_process_table_lookup_thread_span (b->table, tid, t, &from, &to);
      tb->pid_known = th != NULL;
      tb->pid = th != NULL ? th->pid : 0;
      tb->pid_from = from;
      tb->pid_to = to;
    }
  return tb->pid_known ? tb->pid : fallback;
}

/* Clamps @t to the open state's start; closes it there. */
static gint64
close_current (EtlThreadStatesBuilder *b, ThreadBuild *tb, gint64 t)
{
  EtlThreadState *cur = current (tb);

  if (cur == NULL)
    return t;
  if (t < cur->start)
    {
      b->counts.out_of_order++;
      t = cur->start;
    }
  cur->end = t;
  tb->open = FALSE;
  return t;
}

static EtlThreadState *
open_state (ThreadBuild *tb, EtlThreadStateKind kind, gint64 t, guint64 record, guint cpu)
{
  EtlThreadState *s;

  g_array_set_size (tb->states, tb->states->len + 1); /* written in place: no copy a state */
  s = &g_array_index (tb->states, EtlThreadState, tb->states->len - 1);
  memset (s, 0, sizeof *s);
  s->start = t;
  s->end = t;
  s->record = record;
  s->kind = (guint8) kind;
  s->cpu = cpu;
  s->wait_reason = s->wait_mode = s->thread_state = ETL_THREAD_STATES_UNKNOWN;
  s->readying_tid = s->readying_pid = NO_ID;
  tb->open = TRUE;
  return s;
}

/* Ends @tid's Running state at @t, starting Ready or Waiting with @cs's
 * fields (@cs NULL: an implied switch-out, fields unknown).  Returns
 * @tid's build, %NULL when it has none. */
static ThreadBuild *
switch_out (EtlThreadStatesBuilder *b, ThreadBuild *hint, guint32 tid, gint64 t, guint64 record, guint cpu,
            const EtlCSwitch *cs)
{
  ThreadBuild *tb;
  EtlThreadState *cur, *next;
  gint8 state = cs != NULL ? cs->old_thread_state : ETL_THREAD_STATES_UNKNOWN;
  gboolean preempted = state == KSTATE_READY || state == KSTATE_STANDBY || state == KSTATE_DEFERRED_READY;

  if (tid == 0)
    return NULL;
  tb = hint != NULL ? hint : g_hash_table_lookup (b->threads, GUINT_TO_POINTER (tid));
  cur = tb != NULL ? current (tb) : NULL;
  if (cur == NULL || cur->kind != ETL_THREAD_STATE_RUNNING)
    {
      b->counts.ignored_switch_outs++;
      return tb;
    }
  t = close_current (b, tb, t);
  next = open_state (tb, preempted ? ETL_THREAD_STATE_READY : ETL_THREAD_STATE_WAITING, t, record, cpu);
  if (cs != NULL)
    {
      next->wait_reason = cs->old_thread_wait_reason;
      next->wait_mode = cs->old_thread_wait_mode;
      next->thread_state = cs->old_thread_state;
    }
  tb->last_switch_out = t;
  tb->ready_time = 0;
  tb->ready_record = NO_ROW;
  tb->readying_tid = tb->readying_pid = NO_ID;
  tb->prev_reason = next->wait_reason;
  tb->prev_mode = next->wait_mode;
  tb->prev_state = next->thread_state;
  return tb;
}

/* Returns @tid's build, %NULL for the idle thread. */
static ThreadBuild *
switch_in (EtlThreadStatesBuilder *b, guint32 tid, gint64 t, guint64 record, guint cpu, const EtlCSwitch *cs,
           EtlSwitchIn *row)
{
  ThreadBuild *tb;
  EtlThreadState *cur;

  if (tid == 0)
    {
      row->new_pid = 0;
      return NULL;
    }
  tb = thread_get (b, tid);
  row->new_pid = pid_of (b, tb, tid, t, NO_ID);
  cur = current (tb);
  if (cur != NULL && cur->kind == ETL_THREAD_STATE_RUNNING)
    {
      b->counts.implied_switch_outs++;
      switch_out (b, tb, tid, t, record, cpu, NULL);
    }
  t = close_current (b, tb, t);
  row->last_switch_out = tb->last_switch_out;
  row->ready_time = tb->ready_time;
  row->ready_record = tb->ready_record;
  row->readying_tid = tb->readying_tid;
  row->readying_pid = tb->readying_pid;
  row->new_prev_wait_reason = tb->prev_reason;
  row->new_prev_wait_mode = tb->prev_mode;
  row->new_prev_state = tb->prev_state;
  if (tb->ready_time != 0)
    {
      row->ready = t - tb->ready_time;
      row->waits = tb->last_switch_out != 0 ? tb->ready_time - tb->last_switch_out : 0;
    }
  else if (tb->last_switch_out != 0)
    {
      gboolean preempted = tb->prev_state == KSTATE_READY || tb->prev_state == KSTATE_STANDBY
                           || tb->prev_state == KSTATE_DEFERRED_READY;

      if (preempted)
        row->ready = t - tb->last_switch_out;
      else
        row->waits = t - tb->last_switch_out;
    }
  open_state (tb, ETL_THREAD_STATE_RUNNING, t, record, cpu);
  (void) cs;
  return tb;
}

/**
 * etl_thread_states_builder_new: (skip)
 * @table: (nullable): the process table that resolves thread ids
 *
 * Returns: (transfer full): a builder for etl_thread_states_builder_add_*()
 */
EtlThreadStatesBuilder *
etl_thread_states_builder_new (EtlProcessTable *table)
{
  EtlThreadStatesBuilder *b = g_new0 (EtlThreadStatesBuilder, 1);

  b->table = table;
  b->threads = g_hash_table_new_full (NULL, NULL, NULL, thread_build_free);
  b->cpus = g_array_new (FALSE, FALSE, sizeof (CpuBuild));
  b->rows = g_array_new (FALSE, FALSE, sizeof (EtlSwitchIn));
  return b;
}

/**
 * etl_thread_states_builder_add_cswitch: (skip)
 * @b: a builder
 * @record: the record's index
 * @filetime: its time, FILETIME
 * @cpu: its processor index
 * @payload: (array length=len) (nullable): its UserData (CSwitch layout)
 * @len: bytes of @payload
 *
 * Feeds one CSwitch record (see the section overview for what it does).
 */
void
etl_thread_states_builder_add_cswitch (EtlThreadStatesBuilder *b, guint64 record, gint64 filetime, guint cpu,
                                       const guint8 *payload, gsize len)
{
  EtlCSwitch cs;
  EtlSwitchIn row = { 0 };
  EtlSchedRead got = etl_cswitch_read (payload, len, &cs);
  CpuBuild *c;
  ThreadBuild *old_tb, *new_tb;

  if (got == ETL_SCHED_READ_MISSING)
    {
      b->counts.missing++;
      return;
    }
  if (got == ETL_SCHED_READ_TRUNCATED)
    b->counts.truncated++;
  b->counts.cswitch++;

  c = cpu_get (b, cpu);
  if (c != NULL && c->row != NO_ROW)
    {
      EtlSwitchIn *prev = &g_array_index (b->rows, EtlSwitchIn, c->row);

      prev->cpu_usage = MAX (filetime - prev->switch_in, 0);
    }
  /* The thread this processor ran is not the one switched out: end it. */
  if (c != NULL && c->tid != NO_ID && c->tid != 0 && c->tid != cs.old_thread_id)
    {
      ThreadBuild *tb = c->tb != NULL ? c->tb : thread_get (b, c->tid);
      EtlThreadState *cur = current (tb);

      if (cur != NULL && cur->kind == ETL_THREAD_STATE_RUNNING && cur->cpu == cpu)
        {
          b->counts.implied_switch_outs++;
          switch_out (b, tb, c->tid, filetime, record, cpu, NULL);
        }
    }
  old_tb = switch_out (b, c != NULL && c->tid == cs.old_thread_id ? c->tb : NULL, cs.old_thread_id, filetime, record,
                       cpu, &cs);

  row.switch_in = filetime;
  row.record = record;
  row.ready_record = NO_ROW;
  row.cpu = cpu;
  row.new_tid = cs.new_thread_id;
  row.old_tid = cs.old_thread_id;
  row.old_pid = pid_of (b, old_tb, cs.old_thread_id, filetime, NO_ID);
  row.readying_tid = row.readying_pid = NO_ID;
  row.new_prev_wait_reason = row.new_prev_wait_mode = row.new_prev_state = ETL_THREAD_STATES_UNKNOWN;
  row.new_priority = cs.new_thread_priority;
  row.old_priority = cs.old_thread_priority;
  new_tb = switch_in (b, cs.new_thread_id, filetime, record, cpu, &cs, &row);
  g_array_set_size (b->rows, b->rows->len + 1); /* assigned in place: no memcpy() call a row */
  g_array_index (b->rows, EtlSwitchIn, b->rows->len - 1) = row;
  if (c != NULL)
    {
      c->tid = cs.new_thread_id;
      c->row = b->rows->len - 1;
      c->tb = new_tb;
    }
}

/**
 * etl_thread_states_builder_add_ready_thread: (skip)
 * @b: a builder
 * @record: the record's index
 * @filetime: its time, FILETIME
 * @cpu: its processor index
 * @header_tid: the header's ThreadId: the readying thread
 * @header_pid: the header's ProcessId
 * @payload: (array length=len) (nullable): its UserData (ReadyThread layout)
 * @len: bytes of @payload
 *
 * Feeds one ReadyThread record (see the section overview).
 */
void
etl_thread_states_builder_add_ready_thread (EtlThreadStatesBuilder *b, guint64 record, gint64 filetime, guint cpu,
                                            guint32 header_tid, guint32 header_pid, const guint8 *payload,
                                            gsize len)
{
  EtlReadyThread rt;
  EtlSchedRead got = etl_ready_thread_read (payload, len, &rt);
  ThreadBuild *tb;
  EtlThreadState *cur, *ready;
  guint32 readying_pid;

  if (got == ETL_SCHED_READ_MISSING)
    {
      b->counts.missing++;
      return;
    }
  if (got == ETL_SCHED_READ_TRUNCATED)
    b->counts.truncated++;
  b->counts.ready_thread++;
  if (rt.t_thread_id == 0)
    {
      b->counts.ignored_ready++;
      return;
    }
  tb = thread_get (b, rt.t_thread_id);
  cur = current (tb);
  if (cur != NULL && (cur->kind == ETL_THREAD_STATE_RUNNING || cur->kind == ETL_THREAD_STATE_READY))
    {
      b->counts.ignored_ready++;
      return;
    }
  readying_pid = pid_of (b, header_tid != 0 ? g_hash_table_lookup (b->threads, GUINT_TO_POINTER (header_tid)) : NULL,
                         header_tid, filetime, header_pid);
  if (cur != NULL)
    {
      cur->readying_tid = header_tid;
      cur->readying_pid = readying_pid;
    }
  filetime = close_current (b, tb, filetime);
  ready = open_state (tb, ETL_THREAD_STATE_READY, filetime, record, cpu);
  ready->readying_tid = header_tid;
  ready->readying_pid = readying_pid;
  if (cur != NULL)
    {
      /* Re-read: open_state() may have moved the array. */
      EtlThreadState *waited = &g_array_index (tb->states, EtlThreadState, tb->states->len - 2);

      ready->wait_reason = waited->wait_reason;
      ready->wait_mode = waited->wait_mode;
      ready->thread_state = waited->thread_state;
    }
  tb->ready_time = filetime;
  tb->ready_record = record;
  tb->readying_tid = header_tid;
  tb->readying_pid = readying_pid;
}

static int
compare_tid (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Samples @states (n > 0, in time order) at the starts of n / 8 buckets
 * (at least ETL_THREAD_STATES_OVERVIEW_BUCKETS, at most 8 times that) over
 * [first start, last end), in one pass: about one sample for 8 states, 4
 * bytes for their 320. */
static EtlThreadStateSample *
make_overview (const EtlThreadState *states, guint n, gint64 *start, gint64 *width, guint *n_buckets)
{
  guint nb = CLAMP (n / 8, ETL_THREAD_STATES_OVERVIEW_BUCKETS, 8 * ETL_THREAD_STATES_OVERVIEW_BUCKETS);
  EtlThreadStateSample *ov = g_new0 (EtlThreadStateSample, nb);
  gint64 t0 = states[0].start, span = MAX (states[n - 1].end - t0, 1);
  gint64 w = (span + nb - 1) / nb;
  guint k = 0;

  *start = t0;
  *width = w;
  *n_buckets = nb;
  for (guint b = 0; b < nb; b++)
    {
      gint64 tb = t0 + (gint64) b * w;

      while (k < n && states[k].end <= tb)
        k++;
      if (k == n)
        break;
      if (states[k].start < tb + w)
        {
          ov[b].present = 1;
          ov[b].kind = states[k].kind;
          ov[b].cpu = (guint16) MIN (states[k].cpu, G_MAXUINT16);
        }
    }
  return ov;
}

/**
 * etl_thread_states_builder_finish: (skip)
 * @b: (transfer full): a builder
 * @last_filetime: the trace's last record's time: open states end there
 *
 * Returns: (transfer full): the states
 */
EtlThreadStates *
etl_thread_states_builder_finish (EtlThreadStatesBuilder *b, gint64 last_filetime)
{
  EtlThreadStates *s = g_new0 (EtlThreadStates, 1);
  gboolean merge = FALSE;
  GHashTableIter it;
  gpointer key, value;
  guint i = 0;

  g_atomic_ref_count_init (&s->ref_count);
  for (guint c = 0; c < b->cpus->len; c++)
    {
      CpuBuild *cpu = &g_array_index (b->cpus, CpuBuild, c);

      if (cpu->row != NO_ROW)
        {
          EtlSwitchIn *row = &g_array_index (b->rows, EtlSwitchIn, cpu->row);

          row->cpu_usage = MAX (last_filetime - row->switch_in, 0);
        }
    }
  merge = b->counts.ready_thread == 0;
  s->n_threads = g_hash_table_size (b->threads);
  s->tids = g_new (guint32, s->n_threads);
  s->states = g_new (GArray *, s->n_threads);
  g_hash_table_iter_init (&it, b->threads);
  while (g_hash_table_iter_next (&it, &key, NULL))
    s->tids[i++] = GPOINTER_TO_UINT (key);
  if (s->n_threads > 1) /* (qsort of NULL, 0 is undefined) */
    qsort (s->tids, s->n_threads, sizeof (guint32), compare_tid);
  for (i = 0; i < s->n_threads; i++)
    {
      ThreadBuild *tb;

      value = g_hash_table_lookup (b->threads, GUINT_TO_POINTER (s->tids[i]));
      tb = value;
      close_current (b, tb, last_filetime);
      if (merge)
        for (guint k = 0; k < tb->states->len; k++)
          {
            EtlThreadState *st = &g_array_index (tb->states, EtlThreadState, k);

            if (st->kind != ETL_THREAD_STATE_RUNNING)
              st->kind = ETL_THREAD_STATE_NOT_RUNNING;
          }
      /* Handed over, not copied: no second copy of every state at the peak. */
      s->states[i] = g_array_ref (tb->states);
    }
  s->overview = g_new0 (EtlThreadStateSample *, MAX (s->n_threads, 1));
  s->ov_start = g_new0 (gint64, MAX (s->n_threads, 1));
  s->ov_width = g_new0 (gint64, MAX (s->n_threads, 1));
  s->ov_n = g_new0 (guint, MAX (s->n_threads, 1));
  for (i = 0; i < s->n_threads; i++)
    if (s->states[i]->len >= ETL_THREAD_STATES_OVERVIEW_MIN_STATES)
      s->overview[i] = make_overview ((const EtlThreadState *) (gpointer) s->states[i]->data, s->states[i]->len,
                                      &s->ov_start[i], &s->ov_width[i], &s->ov_n[i]);
  s->counts = b->counts;
  s->rows = b->rows;
  g_array_unref (b->cpus);
  g_hash_table_unref (b->threads);
  g_free (b);
  return s;
}

static gboolean
is_kernel_header (guint8 header_type)
{
  return header_type == ETL_HEADER_TYPE_SYSTEM32 || header_type == ETL_HEADER_TYPE_SYSTEM64
         || header_type == ETL_HEADER_TYPE_COMPACT32 || header_type == ETL_HEADER_TYPE_COMPACT64
         || header_type == ETL_HEADER_TYPE_PERFINFO32 || header_type == ETL_HEADER_TYPE_PERFINFO64;
}

/* The pass is two threads: a reader finds the CSwitch and ReadyThread
 * records and copies what the state machine needs into chunks; the calling
 * thread feeds them to the builder in record order.  Reading the records
 * (cache misses over the mapped file) and building the states (new memory)
 * cost about the same, so on two processors they overlap. */
#define ITEM_PAYLOAD 32   /* ≥ the CSwitch payload read (24 bytes): a longer one reads the same */
#define CHUNK_ITEMS  8192
#define N_CHUNKS     4    /* in flight: bounds the reader's memory (4 × 0.4 MiB) */

typedef struct
{
  guint64 record;
  gint64 filetime;
  guint32 cpu;
  guint32 tid, pid; /* ReadyThread: the header's ThreadId and ProcessId (NO_ID without) */
  gboolean cswitch;
  guint8 len;
  guint8 payload[ITEM_PAYLOAD];
} Item;

typedef struct
{
  guint n;
  gboolean last; /* the reader's final chunk */
  Item items[CHUNK_ITEMS];
} Chunk;

typedef struct
{
  EtlTrace *trace;
  const gboolean *wanted;  /* by provider index, n_providers + 1 */
  guint n_providers;
  GAsyncQueue *full;       /* Chunk, in record order */
  GAsyncQueue *empty;      /* Chunk, to refill */
  GCancellable *cancellable;
  gint stop;               /* atomic: cancelled, stop reading */
} Reader;

#define CANCEL_CHECK_MASK 0xFFFF

static gpointer
reader_run (gpointer data)
{
  Reader *r = data;
  guint64 n = etl_trace_get_n_records (r->trace);
  Chunk *chunk = g_async_queue_pop (r->empty);

  chunk->n = 0;
  chunk->last = FALSE;
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecordBrief rec; /* the header read in place: most records are neither */
      Item *it;

      if ((i & CANCEL_CHECK_MASK) == 0 && g_cancellable_is_cancelled (r->cancellable))
        g_atomic_int_set (&r->stop, TRUE);
      if (g_atomic_int_get (&r->stop))
        break;
      if (!r->wanted[MIN (etl_trace_get_provider_index (r->trace, i), r->n_providers)]
          || !is_kernel_header (etl_trace_get_header_type (r->trace, i)) || !etl_trace_peek_record (r->trace, i, &rec))
        continue;
      if (rec.hook_id == HOOK_CSWITCH || rec.hook_id == HOOK_READY_THREAD)
        {
          it = &chunk->items[chunk->n++];
          it->record = i;
          it->filetime = rec.filetime;
          it->cpu = etl_trace_get_cpu (r->trace, i);
          it->cswitch = rec.hook_id == HOOK_CSWITCH;
          it->tid = rec.has_pid ? rec.tid : NO_ID;
          it->pid = rec.has_pid ? rec.pid : NO_ID;
          it->len = (guint8) MIN (rec.user_data_len, ITEM_PAYLOAD);
          if (rec.user_data != NULL)
            memcpy (it->payload, rec.user_data, it->len);
          else
            it->len = 0;
        }
      etl_record_brief_clear (&rec);
      if (chunk->n == CHUNK_ITEMS)
        {
          g_async_queue_push (r->full, chunk);
          chunk = g_async_queue_pop (r->empty);
          chunk->n = 0;
          chunk->last = FALSE;
        }
    }
  chunk->n = g_atomic_int_get (&r->stop) ? 0 : chunk->n;
  chunk->last = TRUE;
  g_async_queue_push (r->full, chunk);
  return NULL;
}

/**
 * etl_thread_states_new:
 * @trace: a trace
 * @cancellable: (nullable): checked every 65,536 records
 * @error: return location for a #GError
 *
 * Reads the Thread CSwitch (HookId 0x0524) and ReadyThread (0x0532) records
 * of @trace in its merged order and builds every thread's states and the
 * switch-in rows (see the section overview; the layouts are those of the
 * CSwitch and ReadyThread MOF pages, read by etl_cswitch_read() and
 * etl_ready_thread_read()).  Thread ids are resolved to processes through
 * etl_trace_get_process_table().  Runs in the calling thread (meant for a
 * worker) plus one reader thread of its own, joined before it returns.
 *
 * Returns: (transfer full) (nullable): the states (empty when the trace has
 *   no scheduler record), or %NULL with %G_IO_ERROR_CANCELLED
 */
EtlThreadStates *
etl_thread_states_new (EtlTrace *trace, GCancellable *cancellable, GError **error)
{
  static const guint16 hooks[] = { HOOK_CSWITCH, HOOK_READY_THREAD };
  EtlThreadStatesBuilder *b;
  g_autofree gboolean *wanted = NULL;
  g_autofree Chunk *chunks = NULL;
  Reader r = { 0 };
  GThread *thread;
  gboolean cancelled = FALSE;

  g_return_val_if_fail (trace != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* Only records of the providers (kernel event classes) CSwitch and
   * ReadyThread come under are read: the index says a record's provider
   * without touching it.  Past the index's 65535 providers, read to see. */
  r.n_providers = etl_trace_get_n_providers (trace);
  wanted = g_new0 (gboolean, r.n_providers + 1);
  wanted[r.n_providers] = TRUE;
  for (guint h = 0; h < G_N_ELEMENTS (hooks); h++)
    {
      EtlKernelEventInfo info;

      if (!etl_names_kernel_event (hooks[h], &info) || info.provider == NULL)
        {
          for (guint p = 0; p < r.n_providers; p++)
            wanted[p] = TRUE;
          break;
        }
      for (guint p = 0; p < r.n_providers; p++)
        if (etl_guid_equal (etl_trace_get_provider (trace, p), info.provider))
          wanted[p] = TRUE;
    }

  b = etl_thread_states_builder_new (etl_trace_get_process_table (trace));
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      etl_thread_states_unref (etl_thread_states_builder_finish (b, 0));
      return NULL;
    }
  r.trace = trace;
  r.cancellable = cancellable;
  r.wanted = wanted;
  r.full = g_async_queue_new ();
  r.empty = g_async_queue_new ();
  chunks = g_new (Chunk, N_CHUNKS);
  for (guint k = 0; k < N_CHUNKS; k++)
    g_async_queue_push (r.empty, &chunks[k]);
  thread = g_thread_new ("etl-thread-states-reader", reader_run, &r);
  for (;;)
    {
      Chunk *chunk = g_async_queue_pop (r.full);
      gboolean last = chunk->last;

      if (!cancelled && g_cancellable_is_cancelled (cancellable))
        {
          cancelled = TRUE; /* the rest is drained unread */
          g_atomic_int_set (&r.stop, TRUE);
        }
      for (guint k = 0; !cancelled && k < chunk->n; k++)
        {
          const Item *it = &chunk->items[k];

          if (it->cswitch)
            etl_thread_states_builder_add_cswitch (b, it->record, it->filetime, it->cpu, it->payload, it->len);
          else
            etl_thread_states_builder_add_ready_thread (b, it->record, it->filetime, it->cpu, it->tid, it->pid,
                                                        it->payload, it->len);
        }
      g_async_queue_push (r.empty, chunk);
      if (last)
        break;
    }
  g_thread_join (thread);
  g_async_queue_unref (r.full);
  g_async_queue_unref (r.empty);
  if (cancelled)
    {
      g_cancellable_set_error_if_cancelled (cancellable, error);
      etl_thread_states_unref (etl_thread_states_builder_finish (b, 0));
      return NULL;
    }
  return etl_thread_states_builder_finish (b, etl_trace_get_last_filetime (trace));
}

/**
 * etl_thread_states_ref:
 * @states: states
 *
 * Returns: (transfer full): @states
 */
EtlThreadStates *
etl_thread_states_ref (EtlThreadStates *states)
{
  g_return_val_if_fail (states != NULL, NULL);
  g_atomic_ref_count_inc (&states->ref_count);
  return states;
}

/**
 * etl_thread_states_unref:
 * @states: (transfer full): states
 */
void
etl_thread_states_unref (EtlThreadStates *states)
{
  g_return_if_fail (states != NULL);
  if (!g_atomic_ref_count_dec (&states->ref_count))
    return;
  g_free (states->tids);
  for (guint i = 0; i < states->n_threads; i++)
    {
      g_array_unref (states->states[i]);
      g_free (states->overview[i]);
    }
  g_free (states->states);
  g_free (states->overview);
  g_free (states->ov_start);
  g_free (states->ov_width);
  g_free (states->ov_n);
  g_array_unref (states->rows);
  g_free (states);
}

/**
 * etl_thread_states_get_counts:
 * @states: states
 *
 * Returns: (transfer none): the records read and the anomalies absorbed
 */
const EtlThreadStatesCounts *
etl_thread_states_get_counts (EtlThreadStates *states)
{
  g_return_val_if_fail (states != NULL, NULL);
  return &states->counts;
}

/**
 * etl_thread_states_has_ready_thread:
 * @states: states
 *
 * Returns: whether the trace had ReadyThread records, so that Ready and
 *   Waiting are told apart (else both are %ETL_THREAD_STATE_NOT_RUNNING)
 */
gboolean
etl_thread_states_has_ready_thread (EtlThreadStates *states)
{
  g_return_val_if_fail (states != NULL, FALSE);
  return states->counts.ready_thread > 0;
}

/**
 * etl_thread_states_get_threads:
 * @states: states
 * @n_threads: (out): number of threads
 *
 * Returns: (transfer none) (array length=n_threads): the thread ids that
 *   have states, ascending (never 0)
 */
const guint32 *
etl_thread_states_get_threads (EtlThreadStates *states, guint *n_threads)
{
  g_return_val_if_fail (states != NULL && n_threads != NULL, NULL);
  *n_threads = states->n_threads;
  return states->tids;
}

/**
 * etl_thread_states_get:
 * @states: states
 * @tid: a thread id
 * @n_states: (out): number of states, 0 when @tid has none
 *
 * Returns: (transfer none) (array length=n_states) (nullable): @tid's
 *   states in time order, each starting where the previous ended
 */
const EtlThreadState *
etl_thread_states_get (EtlThreadStates *states, guint32 tid, guint *n_states)
{
  const guint32 *hit;
  guint i;

  g_return_val_if_fail (states != NULL && n_states != NULL, NULL);
  *n_states = 0;
  hit = states->n_threads ? bsearch (&tid, states->tids, states->n_threads, sizeof (guint32), compare_tid) : NULL;
  if (hit == NULL)
    return NULL;
  i = (guint) (hit - states->tids);
  *n_states = states->states[i]->len;
  return *n_states != 0 ? &g_array_index (states->states[i], EtlThreadState, 0) : NULL;
}

/**
 * etl_thread_states_get_overview:
 * @states: states
 * @tid: a thread id
 * @start: (out): FILETIME of bucket 0's start (the thread's first state's)
 * @bucket_width: (out): a bucket's width, 100-ns units (≥ 1)
 * @n_buckets: (out): the number of buckets: one for about 8 states, at
 *   least %ETL_THREAD_STATES_OVERVIEW_BUCKETS, at most 8 times that
 *
 * The thread's states sampled at @n_buckets evenly spaced times over its
 * span (see #EtlThreadStateSample), built with the
 * states for threads of at least %ETL_THREAD_STATES_OVERVIEW_MIN_STATES
 * states: a zoomed-out timeline lane reads it instead of searching millions
 * of states, one cache miss each, for every pixel column.
 *
 * Returns: (transfer none) (array length=n_buckets) (nullable): the
 *   samples, %NULL for an unknown or small thread
 */
const EtlThreadStateSample *
etl_thread_states_get_overview (EtlThreadStates *states, guint32 tid, gint64 *start, gint64 *bucket_width,
                                guint *n_buckets)
{
  const guint32 *hit;
  guint i;

  g_return_val_if_fail (states != NULL && start != NULL && bucket_width != NULL && n_buckets != NULL, NULL);
  *n_buckets = 0;
  hit = states->n_threads ? bsearch (&tid, states->tids, states->n_threads, sizeof (guint32), compare_tid) : NULL;
  if (hit == NULL)
    return NULL;
  i = (guint) (hit - states->tids);
  *start = states->ov_start[i];
  *bucket_width = states->ov_width[i];
  *n_buckets = states->ov_n[i];
  return states->overview[i];
}

/**
 * etl_thread_states_get_switch_ins:
 * @states: states
 * @n_rows: (out): number of rows (one per CSwitch record read)
 *
 * Returns: (transfer none) (array length=n_rows): the CPU Usage (Precise)
 *   rows in record order
 */
const EtlSwitchIn *
etl_thread_states_get_switch_ins (EtlThreadStates *states, guint *n_rows)
{
  g_return_val_if_fail (states != NULL && n_rows != NULL, NULL);
  *n_rows = states->rows->len;
  return (const EtlSwitchIn *) (gpointer) states->rows->data;
}

/**
 * etl_thread_state_kind_name:
 * @kind: an #EtlThreadStateKind
 *
 * Returns: (transfer none): "Running", "Ready", "Waiting" or "NotRunning"
 */
const char *
etl_thread_state_kind_name (EtlThreadStateKind kind)
{
  static const char *const names[] = { "Running", "Ready", "Waiting", "NotRunning" };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "Unknown";
}
