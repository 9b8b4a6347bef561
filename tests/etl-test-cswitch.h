/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* CSwitch and ReadyThread payloads written by hand for the thread-states
 * builder (etl-thread-states-private.h), in the layouts of Microsoft's
 * CSwitch (24 bytes read) and ReadyThread (8 bytes read) MOF classes; and
 * the synthetic waits schedule (etl-synth-waits.c) as a file. */

#include <string.h>

#include <glib.h>

#include "etl-synth.h"

/* Writes the waits schedule on 2 processors (without its ReadyThread
 * records when @no_ready_thread) into @dir; returns its path. */
static inline char *
etl_test_write_waits (const char *dir, gboolean no_ready_thread)
{
  g_autoptr (GError) error = NULL;
  char *path = g_build_filename (dir, no_ready_thread ? "waits-nort.etl" : "waits.etl", NULL);
  EtlSynthParams params;

  etl_synth_params_init (&params);
  params.n_cpus = 2;
  params.waits = TRUE;
  params.no_ready_thread = no_ready_thread;
  g_assert_true (etl_synth_write (&params, path, &error));
  g_assert_no_error (error);
  return path;
}

static inline void
etl_test_put32 (guint8 *p, guint32 v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
  p[2] = (guint8) (v >> 16);
  p[3] = (guint8) (v >> 24);
}

/* A CSwitch payload into @buf (24 bytes): NewThreadId, OldThreadId,
 * priorities 0, OldThreadWaitReason @reason and OldThreadState @state. */
static inline const guint8 *
etl_test_cswitch (guint8 *buf, guint32 new_tid, guint32 old_tid, gint8 reason, gint8 state)
{
  memset (buf, 0, 24);
  etl_test_put32 (buf, new_tid);
  etl_test_put32 (buf + 4, old_tid);
  buf[12] = (guint8) reason;
  buf[14] = (guint8) state;
  return buf;
}

/* A ReadyThread payload into @buf (8 bytes): TThreadId @tid, the rest 0. */
static inline const guint8 *
etl_test_ready_thread (guint8 *buf, guint32 tid)
{
  memset (buf, 0, 8);
  etl_test_put32 (buf, tid);
  return buf;
}
