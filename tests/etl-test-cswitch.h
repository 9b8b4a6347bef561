/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* CSwitch and ReadyThread payloads written by hand for the thread-states
 * builder (etl-thread-states-private.h), in the layouts of Microsoft's
 * CSwitch (24 bytes read) and ReadyThread (8 bytes read) MOF classes. */

#include <string.h>

#include <glib.h>

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
