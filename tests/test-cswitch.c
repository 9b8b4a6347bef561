/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The CSwitch and ReadyThread payload readers against hand-written records
 * of both pointer sizes.  Each record is a SYSTEM_TRACE_HEADER (32 bytes for
 * SYSTEM32 and SYSTEM64 alike: Version u16, HeaderType u8, Flags u8, Size
 * u16, HookId u16, ThreadId u32, ProcessId u32, SystemTime i64, KernelTime
 * u32, UserTime u32) followed by the payload laid out as the CSwitch and
 * ReadyThread MOF pages give it; neither class has a pointer-sized field, so
 * both pointer sizes carry the same offsets.  The test cuts the payload by
 * the header's Size, as a reader of the file does. */

#include "config.h"

#include <string.h>

#include "etl-cswitch.h"

/* SYSTEM32 (type 1), version 2, Size 56, HookId 0x0524 (Thread, type 36),
 * ThreadId 0x1F4 (500), ProcessId 0x64 (100), then CSwitch:
 * NewThreadId 0x1F4, OldThreadId 0x2BC (700), NewThreadPriority 9,
 * OldThreadPriority -2 (0xFE), PreviousCState 1, SpareByte 0,
 * OldThreadWaitReason 13 (WrUserRequest), OldThreadWaitMode 1 (UserMode),
 * OldThreadState 5 (Waiting), OldThreadWaitIdealProcessor 3,
 * NewThreadWaitTime 0x1234, Reserved 0. */
static const guint8 cswitch32[] = {
  0x02, 0x00, 0x01, 0xC0, 0x38, 0x00, 0x24, 0x05, 0xF4, 0x01, 0x00, 0x00, 0x64, 0x00, 0x00, 0x00,
  0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
  0xF4, 0x01, 0x00, 0x00, 0xBC, 0x02, 0x00, 0x00, 0x09, 0xFE, 0x01, 0x00, 0x0D, 0x01, 0x05, 0x03,
  0x34, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* SYSTEM64 (type 2), version 4 (two bytes appended past the documented 24,
 * Size 58), ThreadId 0x80000004, then CSwitch: NewThreadId 0x80000004 (ids
 * are unsigned), OldThreadId 0 (idle), priorities 15 and 0,
 * PreviousCState 2, OldThreadWaitReason 0 (Executive), OldThreadWaitMode 0
 * (KernelMode), OldThreadState 2 (Running), ideal processor 0x7F,
 * NewThreadWaitTime 0xFFFFFFFF. */
static const guint8 cswitch64[] = {
  0x04, 0x00, 0x02, 0xC0, 0x3A, 0x00, 0x24, 0x05, 0x04, 0x00, 0x00, 0x80, 0x04, 0x00, 0x00, 0x00,
  0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
  0x04, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x0F, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x7F,
  0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xAA, 0xBB,
};

/* SYSTEM32, version 2, Size 40, HookId 0x0532 (Thread, type 50), then
 * ReadyThread: TThreadId 0x2BC, AdjustReason 2, AdjustIncrement -1,
 * Flag 0x1 (readied from a DPC), Reserved 0. */
static const guint8 ready32[] = {
  0x02, 0x00, 0x01, 0xC0, 0x28, 0x00, 0x32, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
  0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
  0xBC, 0x02, 0x00, 0x00, 0x02, 0xFF, 0x01, 0x00,
};

/* SYSTEM64, version 2, Size 40: ReadyThread TThreadId 0x00012345,
 * AdjustReason 1, AdjustIncrement 4, Flag 0x6 (stack and process swapped). */
static const guint8 ready64[] = {
  0x02, 0x00, 0x02, 0xC0, 0x28, 0x00, 0x32, 0x05, 0x08, 0x10, 0x00, 0x00, 0xA0, 0x0F, 0x00, 0x00,
  0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
  0x45, 0x23, 0x01, 0x00, 0x01, 0x04, 0x06, 0x00,
};

/* The payload of a SYSTEM record: from byte 32 to the header's Size. */
static const guint8 *
payload_of (const guint8 *rec, gsize rec_len, gsize *len)
{
  guint size = rec[4] | rec[5] << 8;

  g_assert_cmpuint (rec_len, ==, size);
  g_assert_cmpuint (size, >=, 32);
  *len = size - 32;
  return rec + 32;
}

static void
test_cswitch_32 (void)
{
  EtlCSwitch c;
  gsize len;
  const guint8 *p = payload_of (cswitch32, sizeof cswitch32, &len);

  g_assert_cmpuint (cswitch32[2], ==, 1);
  g_assert_cmpint (etl_cswitch_read (p, len, &c), ==, ETL_SCHED_READ_OK);
  g_assert_cmpuint (c.new_thread_id, ==, 500);
  g_assert_cmpuint (c.old_thread_id, ==, 700);
  g_assert_cmpint (c.new_thread_priority, ==, 9);
  g_assert_cmpint (c.old_thread_priority, ==, -2);
  g_assert_cmpuint (c.previous_c_state, ==, 1);
  g_assert_cmpint (c.old_thread_wait_reason, ==, 13);
  g_assert_cmpint (c.old_thread_wait_mode, ==, 1);
  g_assert_cmpint (c.old_thread_state, ==, 5);
  g_assert_cmpint (c.old_thread_wait_ideal_processor, ==, 3);
  g_assert_cmpuint (c.new_thread_wait_time, ==, 0x1234);
}

static void
test_cswitch_64 (void)
{
  EtlCSwitch c;
  gsize len;
  const guint8 *p = payload_of (cswitch64, sizeof cswitch64, &len);

  g_assert_cmpuint (cswitch64[2], ==, 2);
  g_assert_cmpuint (len, ==, 26);
  g_assert_cmpint (etl_cswitch_read (p, len, &c), ==, ETL_SCHED_READ_OK);
  g_assert_cmpuint (c.new_thread_id, ==, 0x80000004u);
  g_assert_cmpuint (c.old_thread_id, ==, 0);
  g_assert_cmpint (c.new_thread_priority, ==, 15);
  g_assert_cmpint (c.old_thread_priority, ==, 0);
  g_assert_cmpuint (c.previous_c_state, ==, 2);
  g_assert_cmpint (c.old_thread_wait_reason, ==, 0);
  g_assert_cmpint (c.old_thread_wait_mode, ==, 0);
  g_assert_cmpint (c.old_thread_state, ==, 2);
  g_assert_cmpint (c.old_thread_wait_ideal_processor, ==, 0x7F);
  g_assert_cmpuint (c.new_thread_wait_time, ==, 0xFFFFFFFFu);
}

static void
test_ready_32 (void)
{
  EtlReadyThread r;
  gsize len;
  const guint8 *p = payload_of (ready32, sizeof ready32, &len);

  g_assert_cmpuint (ready32[2], ==, 1);
  g_assert_cmpint (etl_ready_thread_read (p, len, &r), ==, ETL_SCHED_READ_OK);
  g_assert_cmpuint (r.t_thread_id, ==, 700);
  g_assert_cmpint (r.adjust_reason, ==, 2);
  g_assert_cmpint (r.adjust_increment, ==, -1);
  g_assert_cmpint (r.flag, ==, ETL_READY_THREAD_FLAG_DPC);
}

static void
test_ready_64 (void)
{
  EtlReadyThread r;
  gsize len;
  const guint8 *p = payload_of (ready64, sizeof ready64, &len);

  g_assert_cmpuint (ready64[2], ==, 2);
  g_assert_cmpint (etl_ready_thread_read (p, len, &r), ==, ETL_SCHED_READ_OK);
  g_assert_cmpuint (r.t_thread_id, ==, 0x12345);
  g_assert_cmpint (r.adjust_reason, ==, 1);
  g_assert_cmpint (r.adjust_increment, ==, 4);
  g_assert_cmpint (r.flag, ==, ETL_READY_THREAD_FLAG_STACK_SWAPPED | ETL_READY_THREAD_FLAG_PROCESS_SWAPPED);
}

/* A heap copy exactly @n bytes long (NULL for 0). */
static guint8 *
cut_copy (const guint8 *p, gsize n)
{
  guint8 *c = n ? g_malloc (n) : NULL;

  if (n)
    memcpy (c, p, n);
  return c;
}

/* Every shorter length: ids read from 8 (4) bytes on, the rest defined. */
static void
test_truncated (void)
{
  gsize len;
  const guint8 *p = payload_of (cswitch32, sizeof cswitch32, &len);
  const guint8 *q = payload_of (ready32, sizeof ready32, &len);

  for (gsize n = 0; n < ETL_CSWITCH_PAYLOAD_SIZE; n++)
    {
      /* A copy exactly n bytes long, so a read past it shows under ASan/valgrind. */
      g_autofree guint8 *cut = cut_copy (p, n);
      EtlCSwitch c;
      EtlSchedRead got = etl_cswitch_read (n ? cut : NULL, n, &c);

      if (n < ETL_CSWITCH_IDS_SIZE)
        {
          g_assert_cmpint (got, ==, ETL_SCHED_READ_MISSING);
          g_assert_cmpuint (c.new_thread_id, ==, 0);
          g_assert_cmpuint (c.old_thread_id, ==, 0);
        }
      else
        {
          g_assert_cmpint (got, ==, ETL_SCHED_READ_TRUNCATED);
          g_assert_cmpuint (c.new_thread_id, ==, 500);
          g_assert_cmpuint (c.old_thread_id, ==, 700);
          g_assert_cmpint (c.old_thread_wait_reason, ==, -1);
          g_assert_cmpint (c.old_thread_state, ==, -1);
          g_assert_cmpint (c.new_thread_priority, ==, 0);
          g_assert_cmpuint (c.new_thread_wait_time, ==, 0);
        }
    }
  for (gsize n = 0; n < ETL_READY_THREAD_PAYLOAD_SIZE; n++)
    {
      g_autofree guint8 *cut = cut_copy (q, n);
      EtlReadyThread r;
      EtlSchedRead got = etl_ready_thread_read (n ? cut : NULL, n, &r);

      g_assert_cmpint (got, ==, n < ETL_READY_THREAD_IDS_SIZE ? ETL_SCHED_READ_MISSING : ETL_SCHED_READ_TRUNCATED);
      g_assert_cmpuint (r.t_thread_id, ==, n < ETL_READY_THREAD_IDS_SIZE ? 0 : 700);
      g_assert_cmpint (r.flag, ==, 0);
    }
}

/* The name tables against the CSwitch MOF page's values and wdm.h's
 * KWAIT_REASON, both ends and just past them. */
static void
test_names (void)
{
  g_assert_cmpstr (etl_cswitch_wait_reason_name (0), ==, "Executive");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (4), ==, "DelayExecution");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (6), ==, "UserRequest");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (13), ==, "WrUserRequest");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (14), ==, "WrEventPair");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (15), ==, "WrQueue");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (21), ==, "WrKeyedEvent");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (32), ==, "WrPreempted");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (37), ==, "WrAlertByThreadId");
  g_assert_cmpstr (etl_cswitch_wait_reason_name (39), ==, "WrPhysicalFault");
  g_assert_null (etl_cswitch_wait_reason_name (40));
  g_assert_null (etl_cswitch_wait_reason_name (-1));
  g_assert_null (etl_cswitch_wait_reason_name (127));

  g_assert_cmpstr (etl_cswitch_thread_state_name (0), ==, "Initialized");
  g_assert_cmpstr (etl_cswitch_thread_state_name (1), ==, "Ready");
  g_assert_cmpstr (etl_cswitch_thread_state_name (2), ==, "Running");
  g_assert_cmpstr (etl_cswitch_thread_state_name (5), ==, "Waiting");
  g_assert_cmpstr (etl_cswitch_thread_state_name (7), ==, "DeferredReady");
  g_assert_cmpstr (etl_cswitch_thread_state_name (9), ==, "WaitingForProcessOutSwap");
  g_assert_null (etl_cswitch_thread_state_name (10));
  g_assert_null (etl_cswitch_thread_state_name (-1));

  g_assert_cmpstr (etl_cswitch_wait_mode_name (0), ==, "KernelMode");
  g_assert_cmpstr (etl_cswitch_wait_mode_name (1), ==, "UserMode");
  g_assert_null (etl_cswitch_wait_mode_name (2));
  g_assert_null (etl_cswitch_wait_mode_name (-1));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/etl/cswitch/system32", test_cswitch_32);
  g_test_add_func ("/etl/cswitch/system64-v4", test_cswitch_64);
  g_test_add_func ("/etl/cswitch/ready-thread-system32", test_ready_32);
  g_test_add_func ("/etl/cswitch/ready-thread-system64", test_ready_64);
  g_test_add_func ("/etl/cswitch/truncated", test_truncated);
  g_test_add_func ("/etl/cswitch/names", test_names);
  return g_test_run ();
}
