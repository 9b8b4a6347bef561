/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Thread states and CPU Usage (Precise) rows (etl-thread-states.c) of the
 * synthetic waits schedule (etl-synth-waits.c; its table is restated here
 * as the expected states, to the 100-ns tick), of the same schedule
 * without ReadyThread records, of hand-fed bad input, and of a corpus trace
 * against counts made independently from the raw records. */

#include "config.h"

#include <glib/gstdio.h>

#include "etl-synth.h"
#include "etl-test-cswitch.h"
#include "etl-test-raw.h"
#include "etl-thread-states-private.h"
#include "etl-trace.h"

#define MS  G_GINT64_CONSTANT (10000) /* 100-ns ticks in a millisecond */
#define S   (1 * MS)                  /* the schedule's start */
#define END (7 * MS)                  /* the trace's last record */
#define NO  ETL_THREAD_STATES_NO_ID
#define U   ETL_THREAD_STATES_UNKNOWN

enum
{
  RUN = ETL_THREAD_STATE_RUNNING,
  RDY = ETL_THREAD_STATE_READY,
  WAI = ETL_THREAD_STATE_WAITING,
  OFF = ETL_THREAD_STATE_NOT_RUNNING,
};

typedef struct
{
  guint32 tid;
  gint64 start, end; /* 100-ns after the schedule's start (end < 0: END) */
  gint kind;
  guint cpu;         /* for Running */
  gint reason, mode, state;
  guint32 readying_tid, readying_pid;
} Want;

/* Times in 0.1 ms (1000 ticks) after S. */
#define T(x) ((gint64) (x) * 1000)
static const Want want_ready[] = {
  { 1004, T (0), T (10), RUN, 0, U, U, U, NO, NO },
  { 1004, T (10), T (40), WAI, 0, 37, 1, 5, 3004, 3000 },
  { 1004, T (40), T (41), RDY, 0, 37, 1, 5, 3004, 3000 },
  { 1004, T (41), T (52), RUN, 1, U, U, U, NO, NO },
  { 1004, T (52), -1, WAI, 1, 16, 1, 5, NO, NO },
  { 1008, T (10), T (15), RUN, 0, U, U, U, NO, NO },
  { 1008, T (15), T (20), WAI, 0, 4, 1, 5, 0, 0 },
  { 1008, T (20), T (22), RDY, 0, 4, 1, 5, 0, 0 },
  { 1008, T (22), T (30), RUN, 0, U, U, U, NO, NO },
  { 1008, T (30), -1, WAI, 0, 0, 0, 5, NO, NO },
  { 2004, T (0), T (5), RUN, 1, U, U, U, NO, NO },
  { 2004, T (5), T (25), WAI, 1, 6, 1, 5, 1008, 1000 },
  { 2004, T (25), T (28), RDY, 0, 6, 1, 5, 1008, 1000 },
  { 2004, T (28), T (34), RUN, 1, U, U, U, NO, NO },
  { 2004, T (34), T (50), WAI, 1, 28, 0, 5, 1004, 1000 },
  { 2004, T (50), -1, RDY, 1, 28, 0, 5, 1004, 1000 },
  { 3004, T (6), T (10), RUN, 1, U, U, U, NO, NO },
  { 3004, T (10), T (32), WAI, 1, 15, 0, 5, 2004, 2000 },
  { 3004, T (32), T (35), RDY, 1, 15, 0, 5, 2004, 2000 },
  { 3004, T (35), T (45), RUN, 0, U, U, U, NO, NO },
  { 3004, T (45), T (48), RDY, 0, 32, 0, 1, NO, NO },
  { 3004, T (48), T (55), RUN, 0, U, U, U, NO, NO },
  { 3004, T (55), -1, WAI, 0, 5, 0, 5, NO, NO },
};

static EtlThreadStates *
states_of (const char *path, EtlTrace **trace_out)
{
  g_autoptr (GError) error = NULL;
  const char *paths[] = { path, NULL };
  EtlTrace *trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  EtlThreadStates *states;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  states = etl_thread_states_new (trace, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (states);
  *trace_out = trace;
  return states;
}

/* Every state of every thread; @merged: without ReadyThread records. */
static void
check_states (EtlThreadStates *states, gint64 origin, gboolean merged)
{
  guint n_threads, k = 0, n_want = 0;
  const guint32 *tids = etl_thread_states_get_threads (states, &n_threads);
  Want want[G_N_ELEMENTS (want_ready)];

  /* Without ReadyThread records a Waiting and the Ready a ReadyThread
   * began are one NotRunning state; a preemption's Ready stays alone. */
  for (guint i = 0; i < G_N_ELEMENTS (want_ready); i++)
    {
      if (merged && want_ready[i].kind == RDY && want_ready[i].readying_tid != NO)
        want[n_want - 1].end = want_ready[i].end;
      else
        want[n_want++] = want_ready[i];
    }

  g_assert_cmpuint (n_threads, ==, 4);
  g_assert_cmpuint (tids[0], ==, 1004);
  g_assert_cmpuint (tids[3], ==, 3004);
  for (guint i = 0; i < n_threads; i++)
    {
      guint n;
      const EtlThreadState *st = etl_thread_states_get (states, tids[i], &n);

      for (guint j = 0; j < n; j++, k++)
        {
          const Want *w;

          g_assert_cmpuint (k, <, n_want);
          w = &want[k];
          g_test_message ("thread %u state %u", tids[i], j);
          g_assert_cmpuint (tids[i], ==, w->tid);
          g_assert_cmpint (st[j].start - origin, ==, S + w->start);
          g_assert_cmpint (st[j].end - origin, ==, w->end < 0 ? END : S + w->end);
          g_assert_cmpint (st[j].kind, ==, merged && w->kind != RUN ? OFF : w->kind);
          if (w->kind == RUN)
            g_assert_cmpuint (st[j].cpu, ==, w->cpu);
          g_assert_cmpint (st[j].wait_reason, ==, w->reason);
          g_assert_cmpint (st[j].wait_mode, ==, w->mode);
          g_assert_cmpint (st[j].thread_state, ==, w->state);
          g_assert_cmpuint (st[j].readying_tid, ==, merged ? NO : w->readying_tid);
          g_assert_cmpuint (st[j].readying_pid, ==, merged ? NO : w->readying_pid);
        }
    }
  g_assert_cmpuint (k, ==, n_want);
}

typedef struct
{
  guint row;       /* index among the 17 CSwitch rows */
  guint32 tid, pid;
  gint64 last_out; /* after S, 0.1 ms; -1 none */
  gint64 ready, waits, usage;          /* with ReadyThread, 0.1 ms */
  gint64 ready_nort, waits_nort;       /* without */
  guint32 readying_tid, readying_pid;
  gint reason, state;
} WantRow;

/* The switch-ins of a thread (rows of idle and of first sights aside). */
static const WantRow want_rows[] = {
  { 7, 1008, 1000, 15, 2, 5, 8, 0, 7, 0, 0, 4, 5 },
  { 8, 2004, 2000, 5, 3, 20, 6, 0, 23, 1008, 1000, 6, 5 },
  { 11, 3004, 3000, 10, 3, 22, 10, 0, 25, 2004, 2000, 15, 5 },
  { 12, 1004, 1000, 10, 1, 30, 11, 0, 31, 3004, 3000, 37, 5 },
  { 14, 3004, 3000, 45, 3, 0, 7, 3, 0, NO, NO, 32, 1 },
};

/* @row's ready_record: the ReadyThread record (HookId 0x0532) timed at its
 * Ready Time whose header thread is the readying thread and whose TThreadId
 * is the new thread; G_MAXUINT64 when no ReadyThread readied it. */
static void
check_ready_record (EtlTrace *trace, const EtlSwitchIn *row)
{
  EtlRecordBrief rec;

  if (row->readying_tid == NO)
    {
      g_assert_cmpuint (row->ready_record, ==, G_MAXUINT64);
      return;
    }
  g_assert_cmpuint (row->ready_record, <, row->record);
  g_assert_true (etl_trace_peek_record (trace, row->ready_record, &rec));
  g_assert_cmphex (rec.hook_id, ==, 0x0532);
  g_assert_cmpint (rec.filetime, ==, row->ready_time);
  g_assert_cmpuint (rec.tid, ==, row->readying_tid);
  g_assert_cmpuint (rec.user_data_len, >=, 4);
  g_assert_cmpuint (etl_test_raw_u32 (rec.user_data), ==, row->new_tid);
  etl_record_brief_clear (&rec);
}

static void
check_rows (EtlThreadStates *states, EtlTrace *trace, gboolean merged)
{
  gint64 origin = etl_trace_get_origin (trace);
  guint n;
  const EtlSwitchIn *rows = etl_thread_states_get_switch_ins (states, &n);
  gint64 sum_ready = 0, sum_waits = 0, sum_usage = 0;

  g_assert_cmpuint (n, ==, 17);
  for (guint i = 0; i < n; i++)
    {
      sum_ready += rows[i].ready;
      sum_waits += rows[i].waits;
      if (rows[i].new_tid != 0)
        sum_usage += rows[i].cpu_usage;
      if (i > 0)
        g_assert_cmpint (rows[i].switch_in, >=, rows[i - 1].switch_in);
      g_test_message ("row %u: ready_record", i);
      check_ready_record (trace, &rows[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (want_rows); i++)
    {
      const WantRow *w = &want_rows[i];
      const EtlSwitchIn *r = &rows[w->row];

      g_test_message ("row %u", w->row);
      g_assert_cmpuint (r->new_tid, ==, w->tid);
      g_assert_cmpuint (r->new_pid, ==, w->pid);
      g_assert_cmpuint (r->old_tid, ==, 0);
      g_assert_cmpuint (r->old_pid, ==, 0);
      g_assert_cmpint (r->last_switch_out - origin, ==, S + T (w->last_out));
      g_assert_cmpint (r->ready, ==, T (merged ? w->ready_nort : w->ready));
      g_assert_cmpint (r->waits, ==, T (merged ? w->waits_nort : w->waits));
      g_assert_cmpint (r->cpu_usage, ==, T (w->usage));
      g_assert_cmpuint (r->readying_tid, ==, merged ? NO : w->readying_tid);
      g_assert_cmpuint (r->readying_pid, ==, merged ? NO : w->readying_pid);
      g_assert_cmpint (r->new_prev_wait_reason, ==, w->reason);
      g_assert_cmpint (r->new_prev_state, ==, w->state);
      g_assert_cmpint (r->new_priority, ==, 10 + w->tid % 7);
      if (merged || w->readying_tid == NO)
        g_assert_cmpuint (r->ready_record, ==, G_MAXUINT64);
      else
        g_assert_cmpuint (r->ready_record, !=, G_MAXUINT64);
    }
  /* Rows 7 (D readied by a DPC at 2.0 ms, the first ReadyThread) and 12
   * (A readied by C at 4.0 ms) name their ReadyThread records; row 14 (C
   * preempted at 4.5 ms, switched in again at 4.8 without a ReadyThread)
   * and every first sight name none.  Without ReadyThread, none does. */
  if (!merged)
    {
      EtlRecordBrief rec;

      g_assert_true (etl_trace_peek_record (trace, rows[7].ready_record, &rec));
      g_assert_cmpint (rec.filetime - origin, ==, S + T (20));
      g_assert_cmpuint (rec.tid, ==, 0);
      etl_record_brief_clear (&rec);
      g_assert_true (etl_trace_peek_record (trace, rows[12].ready_record, &rec));
      g_assert_cmpint (rec.filetime - origin, ==, S + T (40));
      g_assert_cmpuint (rec.tid, ==, 3004);
      etl_record_brief_clear (&rec);
    }
  g_assert_cmpuint (rows[14].ready_record, ==, G_MAXUINT64);
  g_assert_cmpuint (rows[0].ready_record, ==, G_MAXUINT64);
  /* Row 4: D switched in, A switched out, on processor 0 at 1.0 ms. */
  g_assert_cmpuint (rows[4].new_tid, ==, 1008);
  g_assert_cmpuint (rows[4].old_tid, ==, 1004);
  g_assert_cmpuint (rows[4].old_pid, ==, 1000);
  g_assert_cmpint (rows[4].old_priority, ==, 10 + 1004 % 7);
  g_assert_cmpint (rows[4].last_switch_out, ==, 0);
  g_assert_cmpint (rows[4].cpu_usage, ==, T (5));
  /* Sums to the tick: Ready 1.2 ms and Waits 7.7 ms with ReadyThread, 0.3
   * and 8.6 without; the threads ran 1.0 + 0.5 + 0.4 + 0.5 + 0.8 + 0.6 +
   * 1.0 + 1.1 + 0.7 = 6.6 ms, to the tick, either way. */
  g_assert_cmpint (sum_ready, ==, merged ? T (3) : T (12));
  g_assert_cmpint (sum_waits, ==, merged ? T (86) : T (77));
  g_assert_cmpint (sum_usage, ==, T (66));
}

static void
test_waits (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-waits-XXXXXX", &error);
  g_autofree char *path = etl_test_write_waits (dir, FALSE);
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlThreadStates) states = states_of (path, &trace);
  const EtlThreadStatesCounts *c = etl_thread_states_get_counts (states);

  g_assert_true (etl_thread_states_has_ready_thread (states));
  g_assert_cmpuint (c->cswitch, ==, 17);
  g_assert_cmpuint (c->ready_thread, ==, 5);
  g_assert_cmpuint (c->truncated + c->missing + c->implied_switch_outs + c->ignored_switch_outs + c->ignored_ready
                        + c->out_of_order,
                    ==, 0);
  check_states (states, etl_trace_get_origin (trace), FALSE);
  check_rows (states, trace, FALSE);
  g_clear_pointer (&trace, etl_trace_unref);
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_waits_no_ready_thread (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-waits-XXXXXX", &error);
  g_autofree char *path = etl_test_write_waits (dir, TRUE);
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlThreadStates) states = states_of (path, &trace);

  g_assert_false (etl_thread_states_has_ready_thread (states));
  g_assert_cmpuint (etl_thread_states_get_counts (states)->ready_thread, ==, 0);
  check_states (states, etl_trace_get_origin (trace), TRUE);
  check_rows (states, trace, TRUE);
  g_clear_pointer (&trace, etl_trace_unref);
  g_unlink (path);
  g_rmdir (dir);
}

/* The overview of a thread of many states (etl_thread_states_get_overview())
 * against a scan of its states, bucket by bucket; a small thread has none. */
static void
test_overview (void)
{
  EtlThreadStatesBuilder *b = etl_thread_states_builder_new (NULL);
  g_autoptr (EtlThreadStates) s = NULL;
  const EtlThreadStateSample *ov;
  const EtlThreadState *st;
  guint8 buf[24];
  gint64 t = 1000000, start = 0, width = 0;
  guint n = 0, present = 0, k = 0, nb = 0;
  guint64 rec = 0;

  /* Thread 7: 150,000 switch-ins (alternating processors, run and wait
   * lengths that vary) = 300,000 states; thread 8 runs once. */
  for (guint i = 0; i < 150000; i++)
    {
      etl_thread_states_builder_add_cswitch (b, rec++, t, i % 2, etl_test_cswitch (buf, 7, 0, 0, 0), 24);
      t += 300 + (i * 7919) % 5000;
      etl_thread_states_builder_add_cswitch (b, rec++, t, i % 2, etl_test_cswitch (buf, 0, 7, 6, 5), 24);
      t += (i % 97 == 0) ? 2000000 : 200 + (i * 104729) % 3000;
    }
  etl_thread_states_builder_add_cswitch (b, rec++, t, 0, etl_test_cswitch (buf, 8, 0, 0, 0), 24);
  s = etl_thread_states_builder_finish (b, t + 1000);

  st = etl_thread_states_get (s, 7, &n);
  g_assert_cmpuint (n, >=, ETL_THREAD_STATES_OVERVIEW_MIN_STATES);
  ov = etl_thread_states_get_overview (s, 7, &start, &width, &nb);
  g_assert_nonnull (ov);
  /* One bucket for 8 states. */
  g_assert_cmpuint (n, ==, 300000);
  g_assert_cmpuint (nb, ==, 300000 / 8);
  g_assert_cmpint (start, ==, st[0].start);
  g_assert_cmpint (width, ==, (st[n - 1].end - st[0].start + nb - 1) / nb);
  for (guint bkt = 0; bkt < nb; bkt++)
    {
      gint64 tb = start + (gint64) bkt * width;

      while (k < n && st[k].end <= tb)
        k++;
      if (k < n && st[k].start < tb + width)
        {
          g_assert_cmpuint (ov[bkt].present, ==, 1);
          g_assert_cmpuint (ov[bkt].kind, ==, st[k].kind);
          g_assert_cmpuint (ov[bkt].cpu, ==, st[k].cpu);
          present++;
        }
      else
        g_assert_cmpuint (ov[bkt].present, ==, 0);
    }
  /* Both kinds sampled, and the 2 s waits leave no bucket empty: each
   * bucket starts inside some state. */
  g_assert_cmpuint (present, ==, nb);
  g_assert_null (etl_thread_states_get_overview (s, 8, &start, &width, &nb));
  g_assert_cmpuint (nb, ==, 0);
  g_assert_null (etl_thread_states_get_overview (s, 9, &start, &width, &nb));
}

/* Each anomaly of the section overview, fed by hand. */
static void
test_bad_input (void)
{
  EtlThreadStatesBuilder *b = etl_thread_states_builder_new (NULL);
  g_autoptr (EtlThreadStates) s = NULL;
  const EtlThreadStatesCounts *c;
  const EtlThreadState *st;
  const EtlSwitchIn *rows;
  guint8 buf[24];
  guint n;

  /* 10 ms: an unknown thread 7 switched in on cpu 0 (old 0). */
  etl_thread_states_builder_add_cswitch (b, 0, 100000, 0, etl_test_cswitch (buf, 7, 0, 0, 0), 24);
  /* 11 ms: a ReadyThread for the running thread 7: ignored. */
  etl_thread_states_builder_add_ready_thread (b, 1, 110000, 1, 9, 90, etl_test_ready_thread (buf, 7), 8);
  /* 12 ms: 7 switched in again on cpu 1 (duplicate): implied switch-out. */
  etl_thread_states_builder_add_cswitch (b, 2, 120000, 1, etl_test_cswitch (buf, 7, 0, 0, 0), 24);
  /* 13 ms: cpu 0 switches in 8, naming 5 as old: 7 runs on cpu 1 now,
   * so only the ignored switch-out of the unknown 5 happens. */
  etl_thread_states_builder_add_cswitch (b, 3, 130000, 0, etl_test_cswitch (buf, 8, 5, 6, 5), 24);
  /* 12.5 ms (out of order): 8 switched out on cpu 0 before it began. */
  etl_thread_states_builder_add_cswitch (b, 4, 125000, 0, etl_test_cswitch (buf, 0, 8, 13, 5), 24);
  /* A payload without the ids, and one with only them. */
  etl_thread_states_builder_add_cswitch (b, 5, 140000, 1, etl_test_cswitch (buf, 0, 7, 6, 5), 7);
  etl_thread_states_builder_add_cswitch (b, 6, 150000, 1, etl_test_cswitch (buf, 0, 7, 6, 5), 8);
  /* 16 ms: a ReadyThread for 7 with no switch-in to follow; a second one
   * for the now Ready thread is ignored; one for thread 0 too; one too short. */
  etl_thread_states_builder_add_ready_thread (b, 7, 160000, 1, 9, 90, etl_test_ready_thread (buf, 7), 8);
  etl_thread_states_builder_add_ready_thread (b, 8, 165000, 1, 9, 90, etl_test_ready_thread (buf, 7), 8);
  etl_thread_states_builder_add_ready_thread (b, 9, 166000, 1, 9, 90, etl_test_ready_thread (buf, 0), 8);
  etl_thread_states_builder_add_ready_thread (b, 10, 167000, 1, 9, 90, etl_test_ready_thread (buf, 7), 3);
  s = etl_thread_states_builder_finish (b, 200000);

  c = etl_thread_states_get_counts (s);
  g_assert_cmpuint (c->cswitch, ==, 5);
  g_assert_cmpuint (c->ready_thread, ==, 4);
  g_assert_cmpuint (c->missing, ==, 2);
  g_assert_cmpuint (c->truncated, ==, 1);
  g_assert_cmpuint (c->implied_switch_outs, ==, 1);
  g_assert_cmpuint (c->ignored_switch_outs, ==, 1);
  g_assert_cmpuint (c->ignored_ready, ==, 3);
  g_assert_cmpuint (c->out_of_order, ==, 1);

  st = etl_thread_states_get (s, 7, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpint (st[0].kind, ==, RUN);
  g_assert_cmpint (st[0].start, ==, 100000);
  g_assert_cmpint (st[0].end, ==, 120000);
  g_assert_cmpint (st[1].kind, ==, WAI); /* the implied switch-out: empty, reason unknown */
  g_assert_cmpint (st[1].start, ==, 120000);
  g_assert_cmpint (st[1].end, ==, 120000);
  g_assert_cmpint (st[1].wait_reason, ==, U);
  g_assert_cmpint (st[2].kind, ==, RUN);
  g_assert_cmpuint (st[2].cpu, ==, 1);
  g_assert_cmpint (st[2].end, ==, 150000);
  g_assert_cmpint (st[3].kind, ==, WAI); /* the truncated CSwitch: fields unknown */
  g_assert_cmpint (st[3].wait_reason, ==, U);
  g_assert_cmpint (st[3].thread_state, ==, U);
  g_assert_cmpuint (st[3].readying_tid, ==, 9);
  g_assert_cmpint (st[4].kind, ==, RDY);
  g_assert_cmpint (st[4].start, ==, 160000);
  g_assert_cmpint (st[4].end, ==, 200000);
  g_assert_cmpuint (st[4].readying_pid, ==, 90); /* the header's pid: no process table */

  st = etl_thread_states_get (s, 8, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (st[0].start, ==, 130000);
  g_assert_cmpint (st[0].end, ==, 130000); /* clamped, not negative */
  g_assert_cmpint (st[1].wait_reason, ==, 13);
  g_assert_null (etl_thread_states_get (s, 5, &n));
  g_assert_cmpuint (n, ==, 0);

  rows = etl_thread_states_get_switch_ins (s, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpuint (rows[0].new_pid, ==, NO);
  g_assert_cmpint (rows[0].cpu_usage, ==, 30000); /* to cpu 0's next CSwitch */
  g_assert_cmpint (rows[1].last_switch_out, ==, 120000);
  g_assert_cmpint (rows[1].waits, ==, 0);
  g_assert_cmpint (rows[2].cpu_usage, ==, 0); /* ended out of order: clamped at 0 */
  g_assert_cmpint (rows[3].cpu_usage, ==, 75000); /* idle on cpu 0 to the end */
}

/* ready_record fed by hand: the first ReadyThread after a switch-out
 * counts (a second one is ignored), a switch-out forgets it, and a
 * preempted thread's next switch-in has none. */
static void
test_ready_record (void)
{
  EtlThreadStatesBuilder *b = etl_thread_states_builder_new (NULL);
  g_autoptr (EtlThreadStates) s = NULL;
  const EtlSwitchIn *rows;
  guint8 buf[24];
  guint n;

  etl_thread_states_builder_add_cswitch (b, 0, 100000, 0, etl_test_cswitch (buf, 7, 0, 0, 0), 24);
  etl_thread_states_builder_add_cswitch (b, 1, 110000, 0, etl_test_cswitch (buf, 0, 7, 6, 5), 24);
  etl_thread_states_builder_add_ready_thread (b, 2, 120000, 1, 9, 90, etl_test_ready_thread (buf, 7), 8);
  etl_thread_states_builder_add_ready_thread (b, 3, 125000, 1, 8, 80, etl_test_ready_thread (buf, 7), 8);
  etl_thread_states_builder_add_cswitch (b, 4, 130000, 0, etl_test_cswitch (buf, 7, 0, 0, 0), 24);
  /* Preempted (OldThreadState Ready), back without a ReadyThread. */
  etl_thread_states_builder_add_cswitch (b, 5, 140000, 0, etl_test_cswitch (buf, 0, 7, 32, 1), 24);
  etl_thread_states_builder_add_cswitch (b, 6, 150000, 0, etl_test_cswitch (buf, 7, 0, 0, 0), 24);
  s = etl_thread_states_builder_finish (b, 200000);

  rows = etl_thread_states_get_switch_ins (s, &n);
  g_assert_cmpuint (n, ==, 5);
  g_assert_cmpuint (rows[0].ready_record, ==, G_MAXUINT64); /* first sight */
  g_assert_cmpuint (rows[1].ready_record, ==, G_MAXUINT64); /* the idle thread */
  g_assert_cmpuint (rows[2].record, ==, 4);
  g_assert_cmpuint (rows[2].ready_record, ==, 2);
  g_assert_cmpuint (rows[2].readying_tid, ==, 9);
  g_assert_cmpint (rows[2].ready_time, ==, 120000);
  g_assert_cmpuint (rows[4].record, ==, 6);
  g_assert_cmpuint (rows[4].ready_record, ==, G_MAXUINT64);
  g_assert_cmpint (rows[4].ready, ==, 10000);
}

/* net.4.5.2.x64.etl: the rows equal the CSwitch records counted from the
 * raw bytes (SYSTEM header, HookId 0x0524), the ReadyThread count likewise,
 * and every thread's states are contiguous.  No corpus trace holds a
 * CSwitch record (checked with `etlscope-cli groups --by provider,event`
 * on every file of the corpus and real/): the figures are 0 and 0, while
 * the same raw count finds the trace's Thread records (group 0x05). */
static void
test_corpus (void)
{
  g_autoptr (GError) error = NULL;
  const char *dir = g_getenv ("ETL_CORPUS_DIR");
  g_autofree char *path = dir ? g_build_filename (dir, "net.4.5.2.x64.etl", NULL) : NULL;
  const char *paths[] = { path, NULL };
  g_autoptr (EtlTrace) trace = NULL;
  g_autoptr (EtlThreadStates) states = NULL;
  guint64 n_cswitch = 0, n_ready = 0, n_thread_group = 0, n;
  guint n_rows, n_threads;
  const guint32 *tids;

  if (path == NULL || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("corpus not found (ETL_CORPUS_DIR)");
      return;
    }
  trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  n = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < n; i++)
    {
      EtlRecord rec;
      gint hook;

      g_assert_true (etl_trace_get_record (trace, i, &rec, NULL));
      hook = etl_test_raw_hook (&rec);
      if (hook >= 0 && hook >> 8 == ETL_TEST_GROUP_THREAD)
        n_thread_group++;
      if (hook == 0x0524)
        n_cswitch++;
      else if (hook == 0x0532)
        n_ready++;
      etl_record_clear (&rec);
    }
  states = etl_thread_states_new (trace, NULL, &error);
  g_assert_no_error (error);
  etl_thread_states_get_switch_ins (states, &n_rows);
  g_test_message ("CSwitch %" G_GUINT64_FORMAT ", ReadyThread %" G_GUINT64_FORMAT, n_cswitch, n_ready);
  g_assert_cmpuint (n_thread_group, >, 0);
  g_assert_cmpuint (n_cswitch, ==, 0);
  g_assert_cmpuint (etl_thread_states_get_counts (states)->cswitch, ==, n_cswitch);
  g_assert_cmpuint (etl_thread_states_get_counts (states)->ready_thread, ==, n_ready);
  g_assert_cmpuint (n_rows, ==, n_cswitch);
  tids = etl_thread_states_get_threads (states, &n_threads);
  g_assert_cmpuint (n_threads, ==, 0);
  for (guint i = 0; i < n_threads; i++)
    {
      guint k;
      const EtlThreadState *st = etl_thread_states_get (states, tids[i], &k);

      g_assert_cmpuint (k, >, 0);
      for (guint j = 0; j < k; j++)
        {
          g_assert_cmpint (st[j].end, >=, st[j].start);
          if (j > 0)
            g_assert_cmpint (st[j].start, ==, st[j - 1].end);
        }
    }
}

static void
test_cancelled (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("etlscope-waits-XXXXXX", &error);
  g_autofree char *path = etl_test_write_waits (dir, FALSE);
  const char *paths[] = { path, NULL };
  g_autoptr (EtlTrace) trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_autoptr (GCancellable) cancel = g_cancellable_new ();
  EtlThreadStates *states;

  g_assert_no_error (error);
  g_cancellable_cancel (cancel);
  states = etl_thread_states_new (trace, cancel, &error);
  g_assert_null (states);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_pointer (&trace, etl_trace_unref);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/thread-states/waits", test_waits);
  g_test_add_func ("/etl/thread-states/waits-no-ready-thread", test_waits_no_ready_thread);
  g_test_add_func ("/etl/thread-states/bad-input", test_bad_input);
  g_test_add_func ("/etl/thread-states/ready-record", test_ready_record);
  g_test_add_func ("/etl/thread-states/overview", test_overview);
  g_test_add_func ("/etl/thread-states/corpus", test_corpus);
  g_test_add_func ("/etl/thread-states/cancelled", test_cancelled);
  return g_test_run ();
}
