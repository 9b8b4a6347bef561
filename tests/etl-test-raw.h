/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* Counts made from a record's raw bytes with hand-written rules, a second
 * computation beside etlscope's names, decoder and process table, for the
 * tests' figures on net.4.5.2.x64.etl.  The layouts come from
 * ../shared/reference/etw-facts.md and the MOF class pages:
 *
 *   - SYSTEM32/64 (types 1, 2; 32-byte header) and PERFINFO32/64 (16, 17;
 *     16-byte header) carry HookId = group << 8 | opcode at byte 6;
 *     SYSTEM headers carry ThreadId at 8 and ProcessId at 12.
 *   - FULL_HEADER32/64 (10, 20; EVENT_TRACE_HEADER) and EVENT_HEADER32/64
 *     (18, 19; EVENT_HEADER) carry the provider or class GUID at byte 24.
 *   - PerfInfo (group 0x0F) SampledProfile (opcode 46, hook 0x0F2E):
 *     InstructionPointer (pointer), ThreadId u32; thread 0 is the idle
 *     thread.  StackWalk is group 0x18.
 *   - Thread (group 0x05) Start/End/DCStart/DCEnd (opcodes 1–4): payload
 *     ProcessId u32, TThreadId u32 (Thread_V2_TypeGroup1). */

#include <string.h>

#include "etl-trace.h"

G_BEGIN_DECLS

#define ETL_TEST_HOOK_SAMPLED_PROFILE 0x0F2E
#define ETL_TEST_GROUP_PERFINFO 0x0F
#define ETL_TEST_GROUP_STACKWALK 0x18
#define ETL_TEST_GROUP_THREAD 0x05

static inline guint32
etl_test_raw_u32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* The raw header type (byte 2 of the record). */
static inline guint
etl_test_raw_type (const EtlRecord *r)
{
  g_assert_cmpuint (r->raw_len, >=, 4);
  return r->raw[2];
}

/* HookId of a SYSTEM or PERFINFO record; -1 for other header types. */
static inline gint
etl_test_raw_hook (const EtlRecord *r)
{
  switch (etl_test_raw_type (r))
    {
    case 1: case 2: case 16: case 17:
      g_assert_cmpuint (r->raw_len, >=, 8);
      return r->raw[6] | r->raw[7] << 8;
    default:
      return -1;
    }
}

/* The payload of a SYSTEM or PERFINFO record, its length in @len. */
static inline const guint8 *
etl_test_raw_kernel_payload (const EtlRecord *r, gsize *len)
{
  guint header = etl_test_raw_type (r) <= 2 ? 32 : 16;
  guint size = r->raw[4] | r->raw[5] << 8;

  g_assert_cmpuint (size, >=, header);
  g_assert_cmpuint (r->raw_len, >=, size);
  *len = size - header;
  return r->raw + header;
}

/* The GUID of a FULL_HEADER or EVENT_HEADER record as text
 * (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx), or NULL for other header types. */
static inline char *
etl_test_raw_guid (const EtlRecord *r)
{
  const guint8 *g;

  switch (etl_test_raw_type (r))
    {
    case 10: case 18: case 19: case 20:
      break;
    default:
      return NULL;
    }
  g_assert_cmpuint (r->raw_len, >=, 40);
  g = r->raw + 24;
  return g_strdup_printf ("%08x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", etl_test_raw_u32 (g), g[5],
                          g[4], g[7], g[6], g[8], g[9], g[10], g[11], g[12], g[13], g[14], g[15]);
}

/* What the raw walk counts on one trace. */
typedef struct
{
  guint64 n_records;
  guint64 n_perfinfo;          /* group 0x0F */
  guint64 n_sampled_profile;   /* hook 0x0F2E */
  guint64 n_stackwalk;         /* group 0x18 */
  guint64 n_idle_samples;      /* SampledProfile of thread 0 */
  GHashTable *by_guid;         /* GUID text → count (FULL_HEADER, EVENT_HEADER) */
  GHashTable *by_event;        /* "GUID/Id" → count (EVENT_HEADER: EVENT_DESCRIPTOR.Id at byte 40) */
  GHashTable *by_hook;         /* HookId → count (SYSTEM, PERFINFO) */
  GHashTable *samples_by_pid;  /* pid → SampledProfile count, through the Thread events' TID → PID */
} EtlTestRawCounts;

static inline void
etl_test_raw_counts_clear (EtlTestRawCounts *c)
{
  g_clear_pointer (&c->by_guid, g_hash_table_unref);
  g_clear_pointer (&c->by_event, g_hash_table_unref);
  g_clear_pointer (&c->by_hook, g_hash_table_unref);
  g_clear_pointer (&c->samples_by_pid, g_hash_table_unref);
}

static inline guint64
etl_test_raw_count_of (GHashTable *table, gconstpointer key)
{
  return GPOINTER_TO_SIZE (g_hash_table_lookup (table, key));
}

/* Walks every record of @trace and counts with the rules above.  Samples
 * are counted by thread id, then summed by the process that the Thread
 * events give that thread id (thread ids are not reused within this short
 * trace's processes, so the walk's last Thread event of each id is enough). */
static inline void
etl_test_raw_count (EtlTrace *trace, EtlTestRawCounts *c)
{
  g_autoptr (GHashTable) tid_pid = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr (GHashTable) samples_by_tid = g_hash_table_new (g_direct_hash, g_direct_equal);
  GHashTableIter it;
  gpointer tid, n;

  memset (c, 0, sizeof *c);
  c->by_guid = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->by_event = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  c->by_hook = g_hash_table_new (g_direct_hash, g_direct_equal);
  c->samples_by_pid = g_hash_table_new (g_direct_hash, g_direct_equal);
  c->n_records = etl_trace_get_n_records (trace);
  for (guint64 i = 0; i < c->n_records; i++)
    {
      EtlRecord r;
      gint hook;
      char *guid;

      g_assert_true (etl_trace_get_record (trace, i, &r, NULL));
      hook = etl_test_raw_hook (&r);
      guid = etl_test_raw_guid (&r);
      if (guid != NULL && (etl_test_raw_type (&r) == 18 || etl_test_raw_type (&r) == 19))
        {
          char *key = g_strdup_printf ("%s/%u", guid, r.raw[40] | r.raw[41] << 8);

          g_hash_table_insert (c->by_event, key, GSIZE_TO_POINTER (etl_test_raw_count_of (c->by_event, key) + 1));
        }
      if (guid != NULL)
        g_hash_table_insert (c->by_guid, guid, GSIZE_TO_POINTER (etl_test_raw_count_of (c->by_guid, guid) + 1));
      if (hook >= 0)
        {
          g_hash_table_insert (c->by_hook, GINT_TO_POINTER (hook),
                               GSIZE_TO_POINTER (etl_test_raw_count_of (c->by_hook, GINT_TO_POINTER (hook)) + 1));
          guint group = (guint) hook >> 8, opcode = (guint) hook & 0xFF;
          gsize len;
          const guint8 *p = etl_test_raw_kernel_payload (&r, &len);
          guint pointer = etl_test_raw_type (&r) == 1 || etl_test_raw_type (&r) == 16 ? 4 : 8;

          c->n_perfinfo += group == ETL_TEST_GROUP_PERFINFO;
          c->n_stackwalk += group == ETL_TEST_GROUP_STACKWALK;
          if (group == ETL_TEST_GROUP_THREAD && opcode >= 1 && opcode <= 4 && len >= 8)
            g_hash_table_insert (tid_pid, GUINT_TO_POINTER (etl_test_raw_u32 (p + 4)),
                                 GUINT_TO_POINTER (etl_test_raw_u32 (p)));
          if (hook == ETL_TEST_HOOK_SAMPLED_PROFILE)
            {
              guint32 t;

              g_assert_cmpuint (len, >=, pointer + 4);
              t = etl_test_raw_u32 (p + pointer);
              c->n_sampled_profile++;
              if (t == 0)
                c->n_idle_samples++;
              else
                g_hash_table_insert (samples_by_tid, GUINT_TO_POINTER (t),
                                     GSIZE_TO_POINTER (etl_test_raw_count_of (samples_by_tid, GUINT_TO_POINTER (t)) + 1));
            }
        }
      etl_record_clear (&r);
    }
  g_hash_table_iter_init (&it, samples_by_tid);
  while (g_hash_table_iter_next (&it, &tid, &n))
    if (g_hash_table_contains (tid_pid, tid))
      {
        gpointer pid = g_hash_table_lookup (tid_pid, tid);

        g_hash_table_insert (c->samples_by_pid, pid,
                             GSIZE_TO_POINTER (etl_test_raw_count_of (c->samples_by_pid, pid) + GPOINTER_TO_SIZE (n)));
      }
}

G_END_DECLS
