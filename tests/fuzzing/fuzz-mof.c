/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz-mof: one classic or kernel record of a tabled layout → the reader's
 * record parser and the decoder.  Input: u16 selector (LE), u8 mode, then
 * the payload.  The selector picks a (class, opcode) of the built-in MOF
 * tables (etl-mof-kernel.c, etl-mof-io.c, etl-mof-config.c), or, past them,
 * one of the KernelTraceControl classes decoded outside the tables
 * (MetaData EventInfo/EventMapInfo, WinSat); mode bit 0 chooses the pointer
 * size (the SYSTEM/PERFINFO/FULL_HEADER 32- or 64-bit header), bits 1–7 are
 * added to the class's version (0: the tabled version; others reach the
 * version fallbacks and unknown versions).  The record's raw bytes are
 * built and parsed back with etl_record_decode(), decoded with
 * etl_decode_record() against the kernel tables with a volume map, and its
 * name and payload preview formatted: no fault, no overread (the payload is
 * an exact-size copy), and the decoder never claims more bytes than given.
 * Every payload, whatever the selector, is also read in place as a Thread
 * CSwitch and a ReadyThread (etl_cswitch_read(), etl_ready_thread_read():
 * the wait analysis's readers), which must stay within it and report
 * MISSING / TRUNCATED / OK by its length alone.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "etl-cswitch.h"
#include "etl-decode.h"
#include "etl-mof-kernel-private.h"
#include "etl-mof-kernel.h"
#include "etl-record-private.h"

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Classic classes decoded outside the tables (etl-names.c's class GUIDs). */
static const struct
{
  const char *guid;
  guint8 opcode, version;
} extra[] = {
  { "bbccf6c1-6cd1-48c4-80ff-839482e37671", 32, 0 }, /* MetaData/EventInfo */
  { "bbccf6c1-6cd1-48c4-80ff-839482e37671", 33, 0 }, /* MetaData/EventMapInfo */
  { "ed54dff8-c409-4cf6-bf83-05e1e61a09c4", 33, 0 }, /* WinSat/WinSPR */
  { "ed54dff8-c409-4cf6-bf83-05e1e61a09c4", 35, 0 }, /* WinSat/Metrics */
  { "ed54dff8-c409-4cf6-bf83-05e1e61a09c4", 37, 0 }, /* WinSat/SystemConfig */
};

static EtlSchemaRegistry *registry;
static EtlVolumeMap *volumes;

/* The n-th (class, opcode) of the three tables; FALSE past their end. */
static gboolean
pick (guint n, const EtlMofClass **cls, guint8 *opcode)
{
  const EtlMofClass *lists[3] = { etl_mof_core_classes, etl_mof_io_classes, etl_mof_config_classes };
  const guint counts[3] = { etl_mof_n_core_classes, etl_mof_n_io_classes, etl_mof_n_config_classes };

  for (guint l = 0; l < 3; l++)
    for (guint c = 0; c < counts[l]; c++)
      {
        if (n < lists[l][c].n_opcodes)
          {
            *cls = &lists[l][c];
            *opcode = lists[l][c].opcodes[n];
            return TRUE;
          }
        n -= lists[l][c].n_opcodes;
      }
  return FALSE;
}

static guint
n_keys (void)
{
  static guint n;

  if (n == 0)
    {
      const EtlMofClass *cls;
      guint8 opcode;

      while (pick (n, &cls, &opcode))
        n++;
    }
  return n;
}

static guint32
get32 (const guint8 *p)
{
  return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24;
}

/* The payload (exact size, in the record's buffer) through the scheduler
 * readers: the status follows the length, the ids are the first bytes. */
static void
read_sched (const guint8 *payload, gsize len)
{
  EtlCSwitch c;
  EtlReadyThread t;
  EtlSchedRead got = etl_cswitch_read (payload, len, &c);

  if (len < ETL_CSWITCH_IDS_SIZE)
    g_assert (got == ETL_SCHED_READ_MISSING && c.new_thread_id == 0 && c.old_thread_wait_reason == 0);
  else
    {
      g_assert (got == (len < ETL_CSWITCH_PAYLOAD_SIZE ? ETL_SCHED_READ_TRUNCATED : ETL_SCHED_READ_OK));
      g_assert (c.new_thread_id == get32 (payload) && c.old_thread_id == get32 (payload + 4));
      if (got == ETL_SCHED_READ_OK)
        g_assert (c.old_thread_wait_reason == (gint8) payload[12]
                  && c.new_thread_wait_time == get32 (payload + 16));
      else
        g_assert (c.old_thread_wait_reason == -1 && c.old_thread_state == -1);
    }
  (void) etl_cswitch_wait_reason_name (c.old_thread_wait_reason);
  (void) etl_cswitch_wait_mode_name (c.old_thread_wait_mode);
  (void) etl_cswitch_thread_state_name (c.old_thread_state);

  got = etl_ready_thread_read (payload, len, &t);
  if (len < ETL_READY_THREAD_IDS_SIZE)
    g_assert (got == ETL_SCHED_READ_MISSING && t.t_thread_id == 0);
  else
    {
      g_assert (got == (len < ETL_READY_THREAD_PAYLOAD_SIZE ? ETL_SCHED_READ_TRUNCATED : ETL_SCHED_READ_OK));
      g_assert (t.t_thread_id == get32 (payload));
      g_assert (got != ETL_SCHED_READ_OK || t.flag == (gint8) payload[6]);
    }
}

static void
put16 (guint8 *p, guint v)
{
  p[0] = (guint8) v;
  p[1] = (guint8) (v >> 8);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  const EtlMofClass *cls = NULL;
  const char *guid = NULL;
  guint8 opcode = 0, version, mode, header_type;
  gint group = -1;
  gboolean is64;
  guint selector, hdr;
  gsize payload_len;
  g_autofree guint8 *raw = NULL;
  g_autoptr (EtlDecoded) decoded = NULL;
  EtlRecord r;

  if (size < 3)
    return 0;
  if (registry == NULL)
    {
      registry = etl_schema_registry_new ();
      etl_mof_register_kernel (registry);
      volumes = etl_volume_map_new ();
      etl_volume_map_add (volumes, "\\Device\\HarddiskVolume2\\", "C:\\");
      etl_volume_map_add (volumes, "\\??\\", "");
    }
  selector = (data[0] | (data[1] << 8)) % (n_keys () + G_N_ELEMENTS (extra));
  mode = data[2];
  is64 = (mode & 1) != 0;
  payload_len = MIN (size - 3, 0xFFFFu - 48);

  if (pick (selector, &cls, &opcode))
    {
      group = cls->group;
      guid = cls->guid;
      version = (guint8) (cls->version + (mode >> 1));
    }
  else
    {
      guint e = selector - n_keys ();

      guid = extra[e].guid;
      opcode = extra[e].opcode;
      version = (guint8) (extra[e].version + (mode >> 1));
    }

  if (group >= 0)
    {
      gboolean perfinfo = group == ETL_MOF_GROUP_PERFINFO || group == ETL_MOF_GROUP_STACKWALK;

      header_type = perfinfo ? (is64 ? ETL_HEADER_TYPE_PERFINFO64 : ETL_HEADER_TYPE_PERFINFO32)
                             : (is64 ? ETL_HEADER_TYPE_SYSTEM64 : ETL_HEADER_TYPE_SYSTEM32);
      hdr = perfinfo ? 16 : 32;
    }
  else
    {
      header_type = is64 ? ETL_HEADER_TYPE_FULL_HEADER64 : ETL_HEADER_TYPE_FULL_HEADER32;
      hdr = 48;
    }

  /* The record, exactly sized: header then payload. */
  raw = g_malloc0 (hdr + payload_len);
  raw[2] = header_type;
  raw[3] = 0xC0;
  if (hdr == 48)
    {
      EtlGuid g;

      g_assert (etl_guid_parse (guid, &g));
      put16 (raw, (guint) (hdr + payload_len));
      raw[4] = opcode;
      raw[6] = version;
      raw[8] = 8;   /* TID */
      raw[12] = 4;  /* PID */
      raw[16] = 1;  /* timestamp */
      memcpy (raw + 24, &g.data1, 4);
      memcpy (raw + 28, &g.data2, 2);
      memcpy (raw + 30, &g.data3, 2);
      memcpy (raw + 32, g.data4, 8);
    }
  else
    {
      raw[0] = version;
      put16 (raw + 4, (guint) (hdr + payload_len));
      put16 (raw + 6, (guint) (group << 8 | opcode));
      if (hdr == 32)
        {
          raw[8] = 8;
          raw[12] = 4;
        }
    }
  if (payload_len > 0)
    memcpy (raw + hdr, data + 3, payload_len);

  read_sched (raw + hdr, payload_len);
  if (!etl_record_decode (raw, hdr + payload_len, &r, NULL))
    return 0;
  g_assert (r.user_data_len == payload_len);
  decoded = etl_decode_record (registry, volumes, &r);
  g_assert (decoded->n_bytes <= payload_len);
  g_free (etl_decoded_format_payload (decoded, 200));
  g_free (etl_decode_dup_event_name (registry, &r));
  return 0;
}
