/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Critical paths (etl-critical-path.c) on the synthetic waits schedule
 * (etl-synth-waits.c: its table gives the expected segments below, to the
 * 100-ns tick), on the same schedule without ReadyThread records, and on
 * hand-fed inconsistent input (etl-thread-states-private.h's builder) for
 * the cycle and depth guards. */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "etl-critical-path.h"
#include "etl-synth.h"
#include "etl-test-cswitch.h"
#include "etl-thread-states-private.h"
#include "etl-trace.h"

#define MS  G_GINT64_CONSTANT (10000) /* 100-ns ticks in a millisecond */
#define S   (1 * MS)                  /* the schedule's start */
#define END (7 * MS)                  /* the trace's last record */
#define NO  ETL_THREAD_STATES_NO_ID
#define U   ETL_THREAD_STATES_UNKNOWN
#define A   1004
#define B   2004
#define C   3004
#define D   1008

enum
{
  RUN = ETL_THREAD_STATE_RUNNING,
  RDY = ETL_THREAD_STATE_READY,
  WAI = ETL_THREAD_STATE_WAITING,
  OFF = ETL_THREAD_STATE_NOT_RUNNING,
  UNK = ETL_CRITICAL_PATH_UNKNOWN,
};

/* Times in 0.1 ms (1000 ticks) after S. */
#define T(x) ((gint64) (x) * 1000)

typedef struct
{
  guint32 tid, pid;
  gint64 start, end; /* 0.1 ms after S */
  gint kind, reason;
  guint hop;
  guint32 woke_tid;
} Want;

/* A (1004) from the trace's start to its end: A's wait 1.0–4.0 was ended
 * by C, C's wait 1.0–3.2 by B, B's wait 1.0–2.5 by D (clipped to the
 * hops' intervals); D's own wait 1.5–2.0 was ended by a DPC, so it stays. */
static const Want want_a[] = {
  { A, 1000, -10, 0, UNK, U, 0, NO },
  { A, 1000, 0, 10, RUN, U, 0, NO },
  { D, 1000, 10, 15, RUN, U, 3, B },
  { D, 1000, 15, 20, WAI, 4, 3, B },
  { D, 1000, 20, 22, RDY, 4, 3, B },
  { D, 1000, 22, 25, RUN, U, 3, B },
  { B, 2000, 25, 28, RDY, 6, 2, C },
  { B, 2000, 28, 32, RUN, U, 2, C },
  { C, 3000, 32, 35, RDY, 15, 1, A },
  { C, 3000, 35, 40, RUN, U, 1, A },
  { A, 1000, 40, 41, RDY, 37, 0, NO },
  { A, 1000, 41, 52, RUN, U, 0, NO },
  { A, 1000, 52, 60, WAI, 16, 0, NO },
};

/* The same without ReadyThread records: A alone. */
static const Want want_a_nort[] = {
  { A, 1000, -10, 0, UNK, U, 0, NO },
  { A, 1000, 0, 10, RUN, U, 0, NO },
  { A, 1000, 10, 41, OFF, 37, 0, NO },
  { A, 1000, 41, 52, RUN, U, 0, NO },
  { A, 1000, 52, 60, OFF, 16, 0, NO },
};

typedef struct
{
  char *dir, *path;
  EtlTrace *trace;
  EtlThreadStates *states;
  gint64 origin;
} Fixture;

static void
fixture_open (Fixture *f, gboolean no_ready_thread)
{
  g_autoptr (GError) error = NULL;
  const char *paths[2] = { NULL, NULL };

  f->dir = g_dir_make_tmp ("etlscope-cp-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = etl_test_write_waits (f->dir, no_ready_thread);
  paths[0] = f->path;
  f->trace = etl_trace_open (paths, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  f->states = etl_thread_states_new (f->trace, NULL, &error);
  g_assert_no_error (error);
  f->origin = etl_trace_get_origin (f->trace);
}

static void
fixture_close (Fixture *f)
{
  g_clear_pointer (&f->states, etl_thread_states_unref);
  g_clear_pointer (&f->trace, etl_trace_unref);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* The path of @tid over [S + @from, S + @to] (0.1 ms) is @want. */
static void
check_path (Fixture *f, guint32 tid, gint64 from, gint64 to, const Want *want, guint n_want,
            EtlCriticalPathCounts *counts)
{
  g_autoptr (GArray) segs
      = etl_critical_path_compute (f->states, etl_trace_get_process_table (f->trace), tid,
                                   f->origin + S + T (from), f->origin + S + T (to), counts);

  g_assert_nonnull (segs);
  for (guint i = 0; i < MIN (segs->len, n_want); i++)
    {
      const EtlCriticalPathSegment *s = &g_array_index (segs, EtlCriticalPathSegment, i);
      const Want *w = &want[i];

      g_test_message ("segment %u: tid %u %s", i, s->tid, etl_critical_path_kind_name (s->kind));
      g_assert_cmpuint (s->tid, ==, w->tid);
      g_assert_cmpuint (s->pid, ==, w->pid);
      g_assert_cmpint (s->start - f->origin, ==, S + T (w->start));
      g_assert_cmpint (s->end - f->origin, ==, S + T (w->end));
      g_assert_cmpint (s->kind, ==, w->kind);
      g_assert_cmpint (s->wait_reason, ==, w->reason);
      g_assert_cmpuint (s->hop, ==, w->hop);
      g_assert_cmpuint (s->woke_tid, ==, w->woke_tid);
    }
  g_assert_cmpuint (segs->len, ==, n_want);
}

/* A over the whole trace goes through C, B and D; the DPC-woken wait of D
 * stays a wait. */
static void
test_chain (void)
{
  Fixture f = { 0 };
  EtlCriticalPathCounts counts;

  fixture_open (&f, FALSE);
  check_path (&f, A, -10, 60, want_a, G_N_ELEMENTS (want_a), &counts);
  g_assert_cmpuint (counts.max_hop, ==, 3);
  g_assert_cmpuint (counts.cycles, ==, 0);
  g_assert_cmpuint (counts.depth_limited, ==, 0);
  fixture_close (&f);
}

/* D over 1.0–3.0 ms: its wait 1.5–2.0 was ended by a DPC (readying tid 0). */
static void
test_dpc (void)
{
  static const Want want[] = {
    { D, 1000, 10, 15, RUN, U, 0, NO },
    { D, 1000, 15, 20, WAI, 4, 0, NO },
    { D, 1000, 20, 22, RDY, 4, 0, NO },
    { D, 1000, 22, 30, RUN, U, 0, NO },
  };
  Fixture f = { 0 };
  EtlCriticalPathCounts counts;

  fixture_open (&f, FALSE);
  check_path (&f, D, 10, 30, want, G_N_ELEMENTS (want), &counts);
  g_assert_cmpuint (counts.max_hop, ==, 0);
  fixture_close (&f);
}

/* Ranges: inside one wait that was not readied by the range's end (stays
 * a wait); the end of a wait readied at the range's end (C's running);
 * before A's first state (Unknown); empty. */
static void
test_ranges (void)
{
  static const Want inside[] = { { A, 1000, 12, 13, WAI, 37, 0, NO } };
  static const Want tail[] = { { C, 3000, 36, 40, RUN, U, 1, A } };
  static const Want before[] = { { A, 1000, -10, -5, UNK, U, 0, NO } };
  Fixture f = { 0 };
  g_autoptr (GArray) empty = NULL;

  fixture_open (&f, FALSE);
  check_path (&f, A, 12, 13, inside, 1, NULL);
  check_path (&f, A, 36, 40, tail, 1, NULL);
  check_path (&f, A, -10, -5, before, 1, NULL);
  empty = etl_critical_path_compute (f.states, NULL, A, f.origin + S, f.origin + S, NULL);
  g_assert_cmpuint (empty->len, ==, 0);
  fixture_close (&f);
}

static void
test_no_ready_thread (void)
{
  Fixture f = { 0 };

  fixture_open (&f, TRUE);
  g_assert_false (etl_thread_states_has_ready_thread (f.states));
  check_path (&f, A, -10, 60, want_a_nort, G_N_ELEMENTS (want_a_nort), NULL);
  fixture_close (&f);
}

/* A thread the states do not know: one Unknown segment. */
static void
test_unknown_thread (void)
{
  static const Want want[] = { { 4242, NO, 0, 60, UNK, U, 0, NO } };
  Fixture f = { 0 };

  fixture_open (&f, FALSE);
  check_path (&f, 4242, 0, 60, want, 1, NULL);
  fixture_close (&f);
}

/* A CSwitch payload: new, old, OldThreadWaitReason UserRequest (6),
 * OldThreadState Waiting (5). */
static const guint8 *
cs (guint8 *buf, guint32 new_tid, guint32 old_tid)
{
  return etl_test_cswitch (buf, new_tid, old_tid, 6, 5);
}

/* Inconsistent input: 7 and 8 both wait from 11 ms; "8 readied 7" at 13 ms
 * and "7 readied 8" at 12 ms (a waiting thread readies nobody in a real
 * trace).  7's path over 11–13 ms hops to 8, whose wait leads back to 7:
 * the cycle guard keeps it a wait of 8. */
static void
test_cycle (void)
{
  EtlThreadStatesBuilder *b = etl_thread_states_builder_new (NULL);
  g_autoptr (EtlThreadStates) s = NULL;
  g_autoptr (GArray) segs = NULL;
  EtlCriticalPathCounts counts;
  const EtlCriticalPathSegment *g;
  guint8 buf[24];

  etl_thread_states_builder_add_cswitch (b, 0, 100000, 0, cs (buf, 7, 0), 24);
  etl_thread_states_builder_add_cswitch (b, 1, 100000, 1, cs (buf, 8, 0), 24);
  etl_thread_states_builder_add_cswitch (b, 2, 110000, 0, cs (buf, 0, 7), 24);
  etl_thread_states_builder_add_cswitch (b, 3, 110000, 1, cs (buf, 0, 8), 24);
  etl_thread_states_builder_add_ready_thread (b, 4, 120000, 0, 7, 70, etl_test_ready_thread (buf, 8), 8);
  etl_thread_states_builder_add_ready_thread (b, 5, 130000, 1, 8, 80, etl_test_ready_thread (buf, 7), 8);
  s = etl_thread_states_builder_finish (b, 200000);

  segs = etl_critical_path_compute (s, NULL, 7, 110000, 130000, &counts);
  g_assert_cmpuint (segs->len, ==, 2);
  g = &g_array_index (segs, EtlCriticalPathSegment, 0);
  g_assert_cmpuint (g->tid, ==, 8);
  g_assert_cmpuint (g->pid, ==, 80); /* the ReadyThread's header pid: no table */
  g_assert_cmpint (g->kind, ==, WAI);
  g_assert_cmpint (g->start, ==, 110000);
  g_assert_cmpint (g->end, ==, 120000);
  g_assert_cmpuint (g->hop, ==, 1);
  g_assert_cmpuint (g->woke_tid, ==, 7);
  g = &g_array_index (segs, EtlCriticalPathSegment, 1);
  g_assert_cmpuint (g->tid, ==, 8);
  g_assert_cmpint (g->kind, ==, RDY);
  g_assert_cmpint (g->start, ==, 120000);
  g_assert_cmpint (g->end, ==, 130000);
  g_assert_cmpuint (counts.cycles, ==, 1);
  g_assert_cmpuint (counts.depth_limited, ==, 0);
  g_assert_cmpuint (counts.max_hop, ==, 1);
}

#define N_CHAIN 70
#define TID(k)  (100u + (guint32) (k))

/* A chain of 70 threads, each waiting from 2000 until the next one readies
 * it at 10000 − 10 k (the last is never readied): the path of thread 0
 * stops at hop 64, whose wait stays a wait, then climbs back through the
 * Ready states of hops 64 … 1. */
static void
test_depth (void)
{
  EtlThreadStatesBuilder *b = etl_thread_states_builder_new (NULL);
  g_autoptr (EtlThreadStates) s = NULL;
  g_autoptr (GArray) segs = NULL;
  EtlCriticalPathCounts counts;
  const EtlCriticalPathSegment *g;
  guint8 buf[24];
  guint64 rec = 0;

  for (guint k = 0; k < N_CHAIN; k++)
    etl_thread_states_builder_add_cswitch (b, rec++, 1000, k, cs (buf, TID (k), 0), 24);
  for (guint k = 0; k < N_CHAIN; k++)
    etl_thread_states_builder_add_cswitch (b, rec++, 2000, k, cs (buf, 0, TID (k)), 24);
  for (gint k = N_CHAIN - 2; k >= 0; k--)
    etl_thread_states_builder_add_ready_thread (b, rec++, 10000 - 10 * k, 0, TID (k + 1), 1,
                                                etl_test_ready_thread (buf, TID (k)), 8);
  s = etl_thread_states_builder_finish (b, 20000);

  segs = etl_critical_path_compute (s, NULL, TID (0), 2000, 10000, &counts);
  g_assert_cmpuint (counts.depth_limited, ==, 1);
  g_assert_cmpuint (counts.cycles, ==, 0);
  g_assert_cmpuint (counts.max_hop, ==, ETL_CRITICAL_PATH_MAX_DEPTH);
  g_assert_cmpuint (segs->len, ==, 1 + ETL_CRITICAL_PATH_MAX_DEPTH);
  g = &g_array_index (segs, EtlCriticalPathSegment, 0);
  g_assert_cmpuint (g->tid, ==, TID (ETL_CRITICAL_PATH_MAX_DEPTH));
  g_assert_cmpint (g->kind, ==, WAI);
  g_assert_cmpint (g->wait_reason, ==, 6);
  g_assert_cmpint (g->start, ==, 2000);
  g_assert_cmpint (g->end, ==, 10000 - 10 * ETL_CRITICAL_PATH_MAX_DEPTH);
  g_assert_cmpuint (g->hop, ==, ETL_CRITICAL_PATH_MAX_DEPTH);
  g_assert_cmpuint (g->woke_tid, ==, TID (ETL_CRITICAL_PATH_MAX_DEPTH - 1));
  for (guint j = 1; j < segs->len; j++)
    {
      guint hop = ETL_CRITICAL_PATH_MAX_DEPTH + 1 - j;

      g = &g_array_index (segs, EtlCriticalPathSegment, j);
      g_assert_cmpuint (g->tid, ==, TID (hop));
      g_assert_cmpint (g->kind, ==, RDY);
      g_assert_cmpint (g->start, ==, 10000 - 10 * (gint64) hop);
      g_assert_cmpint (g->end, ==, 10000 - 10 * ((gint64) hop - 1));
      g_assert_cmpuint (g->hop, ==, hop);
      g_assert_cmpuint (g->woke_tid, ==, TID (hop - 1));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/critical-path/chain", test_chain);
  g_test_add_func ("/etl/critical-path/dpc", test_dpc);
  g_test_add_func ("/etl/critical-path/ranges", test_ranges);
  g_test_add_func ("/etl/critical-path/no-ready-thread", test_no_ready_thread);
  g_test_add_func ("/etl/critical-path/unknown-thread", test_unknown_thread);
  g_test_add_func ("/etl/critical-path/cycle", test_cycle);
  g_test_add_func ("/etl/critical-path/depth", test_depth);
  return g_test_run ();
}
