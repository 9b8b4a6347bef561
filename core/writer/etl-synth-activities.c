/* SPDX-License-Identifier: GPL-3.0-or-later */

/* The activities traces (#EtlSynthParams.activities): TraceLogging Start
 * (opcode 1) and Stop (opcode 2) events of provider
 * "Etlscope.Synthetic.Activities" (GUID ETL_SYNTH_ACTIVITIES_PROVIDER), for
 * the pairing of etl-activities.c.  Every Start and Stop carries its
 * EVENT_SCHEMA_TL item: event "<Task>Start" / "<Task>Stop" (the pairing
 * names the activity after the event without "Start") with one field,
 * "Name", an ANSI string; the EVENT_DESCRIPTOR.Task is the task's number.
 *
 * With #EtlSynthParams.activity_pairs 0, the exact scenario (times in ms
 * after the header's time; processes 1000 (threads 1004 on processor 0,
 * 1008 on processor 1) and 2000 (thread 2004, processor 0); "aid" the
 * EVENT_HEADER ActivityId, 0 = none; P1 and P11 EventSource path IDs
 * //1/ and //1/300/, R and X plain GUIDs; "rel" a RelatedActivityId item):
 *
 *   #   t     tid   event                         aid  rel
 *   0   1.0   1004  RequestStart "alpha" (task 1)  0
 *   1   1.5   1004  StepStart "s1"      (task 3)   0
 *   2   1.7   1004  StepStart "s2"                 0         nested, same key
 *   3   1.9   1004  StepStop                       0         stops "s2"
 *   4   2.2   1004  StepStop                       0         stops "s1"
 *   5   2.6   1004  Info (opcode 0)                P1        ignored
 *   6   3.0   1004  RequestStop                    0         stops "alpha"
 *   7   4.0   1004  RequestStart "beta"            P1
 *   8   4.5   1008  QueryStart "q1"     (task 2)   P11  P1   child of "beta"
 *   9   5.0   1008  StepStart "inner"              0         child of "q1" (thread)
 *   10  5.5   1008  StepStop                       0
 *   11  6.0   1008  QueryStop                      P11
 *   12  6.5   1008  RequestStop                    P1        stops "beta" on another thread
 *   13  7.0   2004  JobStart "first"    (task 6)   R
 *   14  7.5   2004  JobStart "second"              R         reuse: "first" abandoned
 *   15  8.0   2004  JobStop                        R         stops "second"
 *   16  8.5   2004  LonelyStart "never" (task 4)   0         never stopped; its
 *                                                            string has no NUL
 *   17  9.0   1004  OrphanStop          (task 5)   0         no Start
 *   18  9.2   1008  QueryStop                      X         no Start of that ID
 *   19  9.5   1008  StepStart "bad"                0    8 B  RelatedActivityId
 *                                                            item of 8 bytes
 *   20  9.8   1008  StepStop                       0
 *   21  10.0  1004  Info (opcode 0)                0         the last record
 *
 * With activity_pairs N > 0 (the benchmark's trace): #EtlSynthParams.n_records
 * records on n_cpus processors, one thread a processor (pid 1000, tid
 * 2000 + processor), each thread repeating a unit: RequestStart (an
 * ActivityId of its own), infos, StepStart (ActivityId 0), infos,
 * StepStop, RequestStop — two pairs a unit, N / 2 units in all, the infos
 * (EVENT_HEADER records without metadata, opcode 0, 8 bytes of payload)
 * spread evenly to make up n_records; a record every 1 µs of the trace
 * (round-robin over the processors). */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-synth-activities-private.h"

#include <string.h>

#include "etl-format-private.h"
#include "etl-put-le.h"

#define TICKS_PER_MS 10000
#define MAX_RECORD   512
#define TL_CHANNEL   11

/* An extended data item: {u16 item size, u16 ExtType, u16 linkage, u16 data size}, 8-aligned. */
static gsize
ext_item (guint8 *out, guint16 ext_type, gboolean more, const guint8 *data, gsize data_len)
{
  gsize item = etl_align8 (ETL_EXT_ITEM_HEADER_SIZE + data_len);

  memset (out, 0, item);
  put_u16 (out, (guint16) item);
  put_u16 (out + 2, ext_type);
  put_u16 (out + 4, more ? 1 : 0);
  put_u16 (out + 6, (guint16) data_len);
  memcpy (out + ETL_EXT_ITEM_HEADER_SIZE, data, data_len);
  return item;
}

/* The 16 bytes of an EventSource path ID whose first 12 bytes are @head:
 * the last word is the check TraceEvent's IsActivityPath verifies. */
static void
path_id (guint8 out[16], const guint8 *head, gsize n)
{
  guint32 w[3];

  memset (out, 0, 16);
  memcpy (out, head, n);
  for (guint k = 0; k < 3; k++)
    w[k] = (guint32) out[4 * k] | (guint32) out[4 * k + 1] << 8 | (guint32) out[4 * k + 2] << 16
           | (guint32) out[4 * k + 3] << 24;
  put_u32 (out + 12, w[0] + w[1] + w[2] + 0x599D99ADu);
}

typedef enum
{
  AID_NONE,
  AID_P1,
  AID_P11,
  AID_R,
  AID_X,
} Aid;

static void
aid_bytes (Aid aid, guint8 out[16])
{
  static const guint8 p1[] = { 0x10 };             /* //1/ */
  static const guint8 p11[] = { 0x1D, 0x2C, 0x01 }; /* //1/300/: 1, then MultiByte2 300 */
  static const guint8 r[16] = { 0x52, 0x45, 0x55, 0x53, 0x45, 0x00, 0x00, 0x00,
                                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };
  static const guint8 x[16] = { 0x58, 0x58, 0x58, 0x58, 0x00, 0x00, 0x00, 0x00,
                                0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11 };

  switch (aid)
    {
    case AID_P1:
      path_id (out, p1, sizeof p1);
      break;
    case AID_P11:
      path_id (out, p11, sizeof p11);
      break;
    case AID_R:
      memcpy (out, r, 16);
      break;
    case AID_X:
      memcpy (out, x, 16);
      break;
    case AID_NONE:
    default:
      memset (out, 0, 16);
      break;
    }
}

/* Writes an EVENT_HEADER64 record: header, @n_items extended items, payload. */
static gsize
event_header (guint8 *p, guint32 pid, guint32 tid, gint64 ts, guint8 opcode, guint16 task, const guint8 aid[16],
              const guint8 *items, gsize items_len, const guint8 *payload, gsize payload_len)
{
  EtlGuid provider;
  gsize k = ETL_EVENT_HEADER_SIZE;

  g_assert (k + items_len + payload_len <= MAX_RECORD);
  etl_guid_parse (ETL_SYNTH_ACTIVITIES_PROVIDER, &provider);
  memset (p, 0, ETL_EVENT_HEADER_SIZE);
  p[2] = ETL_HEADER_TYPE_EVENT_HEADER64;
  p[3] = ETL_MARKER_TRACE_HEADER_FLAG | ETL_MARKER_EVENT_TRACE_FLAG;
  put_u16 (p + 4, items_len > 0 ? ETL_EVENT_HEADER_FLAG_EXTENDED_INFO : 0);
  put_u32 (p + 8, tid);
  put_u32 (p + 12, pid);
  put_u64 (p + 16, (guint64) ts);
  put_u32 (p + 24, provider.data1);
  put_u16 (p + 28, provider.data2);
  put_u16 (p + 30, provider.data3);
  memcpy (p + 32, provider.data4, 8);
  p[43] = items_len > 0 ? TL_CHANNEL : 0;
  p[44] = 4; /* Level: information */
  p[45] = opcode;
  put_u16 (p + 46, task);
  put_u64 (p + 48, G_GUINT64_CONSTANT (0x0000400000000000) | 1);
  memcpy (p + 64, aid, 16);
  if (items_len > 0)
    memcpy (p + k, items, items_len);
  k += items_len;
  if (payload_len > 0)
    memcpy (p + k, payload, payload_len);
  k += payload_len;
  put_u16 (p, (guint16) k);
  return k;
}

static const char *const task_names[] = { NULL, "Request", "Query", "Step", "Lonely", "Orphan", "Job" };

/* A Start or Stop of @task (TraceLogging: traits and metadata items; a
 * RelatedActivityId item first when @related is set, of @related_len bytes). */
static gsize
activity_record (guint8 *p, guint32 pid, guint32 tid, gint64 ts, guint8 opcode, guint16 task, const guint8 aid[16],
                 const guint8 *related, gsize related_len, const char *name, gboolean terminated)
{
  static const char provider_name[] = "Etlscope.Synthetic.Activities";
  guint8 items[256], blob[128], payload[160];
  gsize n_items = 0, n, payload_len = 0;
  g_autofree char *event = g_strconcat (task_names[task], opcode == 1 ? "Start" : "Stop", NULL);

  if (related != NULL)
    n_items += ext_item (items + n_items, ETL_EXT_TYPE_RELATED_ACTIVITYID, TRUE, related, related_len);
  n = 2 + sizeof provider_name;
  put_u16 (blob, (guint16) n);
  memcpy (blob + 2, provider_name, sizeof provider_name);
  n_items += ext_item (items + n_items, ETL_EXT_TYPE_PROV_TRAITS, TRUE, blob, n);
  /* Event metadata: u16 size, tag byte 0, event name, then "Name" ANSISTRING. */
  n = 2;
  blob[n++] = 0;
  memcpy (blob + n, event, strlen (event) + 1);
  n += strlen (event) + 1;
  memcpy (blob + n, "Name", 5);
  n += 5;
  blob[n++] = 2; /* TDH_INTYPE_ANSISTRING */
  put_u16 (blob, (guint16) n);
  n_items += ext_item (items + n_items, ETL_EXT_TYPE_EVENT_SCHEMA_TL, FALSE, blob, n);
  if (name != NULL)
    {
      payload_len = MIN (strlen (name), sizeof payload - 1);
      memcpy (payload, name, payload_len);
      if (terminated)
        payload[payload_len++] = 0;
    }
  else
    payload[payload_len++] = 0; /* Stops: an empty Name */
  return event_header (p, pid, tid, ts, opcode, task, aid, items, n_items, payload, payload_len);
}

static gsize
info_record (guint8 *p, guint32 pid, guint32 tid, gint64 ts, const guint8 aid[16], guint64 value)
{
  guint8 payload[8];

  put_u64 (payload, value);
  return event_header (p, pid, tid, ts, 0, 0, aid, NULL, 0, payload, sizeof payload);
}

typedef struct
{
  guint t;       /* 0.1 ms */
  guint32 tid;
  guint8 opcode; /* 0 info, 1 Start, 2 Stop */
  guint16 task;
  Aid aid;
  Aid related;   /* AID_NONE: no item */
  gboolean bad_related;
  const char *name;
  gboolean unterminated;
} ScenarioEvent;

static const ScenarioEvent scenario[] = {
  { 10, 1004, 1, 1, AID_NONE, AID_NONE, FALSE, "alpha", FALSE },
  { 15, 1004, 1, 3, AID_NONE, AID_NONE, FALSE, "s1", FALSE },
  { 17, 1004, 1, 3, AID_NONE, AID_NONE, FALSE, "s2", FALSE },
  { 19, 1004, 2, 3, AID_NONE, AID_NONE, FALSE, NULL, FALSE },
  { 22, 1004, 2, 3, AID_NONE, AID_NONE, FALSE, NULL, FALSE },
  { 26, 1004, 0, 0, AID_P1, AID_NONE, FALSE, NULL, FALSE },
  { 30, 1004, 2, 1, AID_NONE, AID_NONE, FALSE, NULL, FALSE },
  { 40, 1004, 1, 1, AID_P1, AID_NONE, FALSE, "beta", FALSE },
  { 45, 1008, 1, 2, AID_P11, AID_P1, FALSE, "q1", FALSE },
  { 50, 1008, 1, 3, AID_NONE, AID_NONE, FALSE, "inner", FALSE },
  { 55, 1008, 2, 3, AID_NONE, AID_NONE, FALSE, NULL, FALSE },
  { 60, 1008, 2, 2, AID_P11, AID_NONE, FALSE, NULL, FALSE },
  { 65, 1008, 2, 1, AID_P1, AID_NONE, FALSE, NULL, FALSE },
  { 70, 2004, 1, 6, AID_R, AID_NONE, FALSE, "first", FALSE },
  { 75, 2004, 1, 6, AID_R, AID_NONE, FALSE, "second", FALSE },
  { 80, 2004, 2, 6, AID_R, AID_NONE, FALSE, NULL, FALSE },
  { 85, 2004, 1, 4, AID_NONE, AID_NONE, FALSE, "never", TRUE },
  { 90, 1004, 2, 5, AID_NONE, AID_NONE, FALSE, NULL, FALSE },
  { 92, 1008, 2, 2, AID_X, AID_NONE, FALSE, NULL, FALSE },
  { 95, 1008, 1, 3, AID_NONE, AID_NONE, TRUE, "bad", FALSE },
  { 98, 1008, 2, 3, AID_NONE, AID_NONE, FALSE, NULL, FALSE },
  { 100, 1004, 0, 0, AID_NONE, AID_NONE, FALSE, NULL, FALSE },
};

static gboolean
write_scenario (EtlWriter *w, gint64 header_ts_raw, gint64 ticks_per_second, GError **error)
{
  guint8 rec[MAX_RECORD];

  for (guint i = 0; i < G_N_ELEMENTS (scenario); i++)
    {
      const ScenarioEvent *ev = &scenario[i];
      gint64 ticks = (gint64) ev->t * (TICKS_PER_MS / 10);
      gint64 ts = header_ts_raw + (gint64) ((double) ticks * (double) ticks_per_second / 1e7 + 0.5);
      guint32 pid = ev->tid / 1000 * 1000;
      guint cpu = ev->tid == 1008 ? 1 : 0;
      guint8 aid[16], related[16];
      gsize size;

      aid_bytes (ev->aid, aid);
      aid_bytes (ev->related, related);
      if (ev->opcode == 0)
        size = info_record (rec, pid, ev->tid, ts, aid, i);
      else
        size = activity_record (rec, pid, ev->tid, ts, ev->opcode, ev->task, aid,
                                ev->bad_related ? related : ev->related != AID_NONE ? related : NULL,
                                ev->bad_related ? 8 : 16, ev->name, !ev->unterminated);
      if (!etl_writer_add_record (w, cpu, rec, size, ts, error))
        return FALSE;
    }
  return TRUE;
}

typedef struct
{
  guint64 left;       /* records still to write */
  guint64 units_left; /* units still to start */
  guint64 infos;      /* infos still to spread over those units */
  guint64 unit;       /* the thread's current unit */
  guint64 step;       /* record within it */
  guint64 len;        /* its records: 4 + its infos; 0 when the thread only writes infos */
} BulkThread;

/* The next unit's length: its share of the infos left, plus its 4 Start/Stop. */
static void
bulk_next_unit (BulkThread *t)
{
  guint64 infos;

  t->step = 0;
  if (t->units_left == 0)
    {
      t->len = 0;
      return;
    }
  infos = t->infos / t->units_left;
  t->infos -= infos;
  t->units_left--;
  t->len = 4 + infos;
}

/* The benchmark's trace (see the file's comment). */
static gboolean
write_bulk (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw, gint64 ticks_per_second,
            GError **error)
{
  guint n_cpus = params->n_cpus;
  guint64 n_units = MAX (params->activity_pairs / 2, 1);
  guint64 n_events = MAX (params->n_records, 4 * n_units + 4 * (guint64) n_cpus);
  g_autofree BulkThread *th = g_new0 (BulkThread, n_cpus);
  guint8 rec[MAX_RECORD];
  guint8 zero[16] = { 0 };
  gint64 ticks_per_us = MAX (ticks_per_second / 1000000, 1);
  guint64 r = 0;
  gboolean any = TRUE;

  for (guint c = 0; c < n_cpus; c++)
    {
      guint64 units = n_units / n_cpus + (c < n_units % n_cpus ? 1 : 0);

      th[c].left = n_events / n_cpus + (c < n_events % n_cpus ? 1 : 0);
      th[c].units_left = units;
      th[c].infos = th[c].left - 4 * units;
      bulk_next_unit (&th[c]);
    }
  while (any)
    {
      any = FALSE;
      for (guint c = 0; c < n_cpus; c++)
        {
          BulkThread *t = &th[c];
          guint32 tid = 2000 + c, pid = 1000;
          gint64 ts = header_ts_raw + (gint64) ++r * ticks_per_us;
          guint8 aid[16];
          gsize size;

          if (t->left == 0)
            continue;
          any = TRUE;
          /* The unit's Request ActivityId: the path //N/, N a 4-byte number (MultiByte4). */
          {
            guint64 id = t->unit * n_cpus + c + 1;
            guint8 head[5] = { 0xF0, (guint8) id, (guint8) (id >> 8), (guint8) (id >> 16), (guint8) (id >> 24) };

            path_id (aid, head, sizeof head);
          }
          if (t->len == 0)
            size = info_record (rec, pid, tid, ts, zero, r);
          else if (t->step == 0)
            size = activity_record (rec, pid, tid, ts, 1, 1, aid, NULL, 0, "request", TRUE);
          else if (t->step == 1 + (t->len - 4) / 2)
            size = activity_record (rec, pid, tid, ts, 1, 3, zero, NULL, 0, "step", TRUE);
          else if (t->step == t->len - 2)
            size = activity_record (rec, pid, tid, ts, 2, 3, zero, NULL, 0, NULL, TRUE);
          else if (t->step == t->len - 1)
            size = activity_record (rec, pid, tid, ts, 2, 1, aid, NULL, 0, NULL, TRUE);
          else
            size = info_record (rec, pid, tid, ts, aid, r);
          if (!etl_writer_add_record (w, c, rec, size, ts, error))
            return FALSE;
          t->left--;
          if (t->len > 0 && ++t->step == t->len)
            {
              t->unit++;
              bulk_next_unit (t);
            }
        }
    }
  return TRUE;
}

/*
 * etl_synth_activities_write: (private, etl-synth-activities-private.h)
 * @params: the parameters (activity_pairs, n_records, n_cpus)
 * @w: the writer, after its header
 * @header_ts_raw: the header record's raw timestamp
 * @ticks_per_second: the clock's rate
 * @error: return location for the writer's errors
 *
 * Writes the activities trace described at the top of this file.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_synth_activities_write (const EtlSynthParams *params, EtlWriter *w, gint64 header_ts_raw,
                            gint64 ticks_per_second, GError **error)
{
  if (params->activity_pairs == 0)
    return write_scenario (w, header_ts_raw, ticks_per_second, error);
  return write_bulk (params, w, header_ts_raw, ticks_per_second, error);
}
