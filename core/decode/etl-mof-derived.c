/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-mof-derived
 * @title: Fields TraceEvent derives from kernel payloads
 * @short_description: BuildTime, ElapsedTimeMSec, Priority … computed from a decoded record
 *
 * Microsoft TraceEvent (and so PerfView, whose output users compare with)
 * shows some kernel events with fields that are not in the payload but
 * computed from it and from the record's header: an image's BuildTime from
 * its TimeDateStamp, a disk I/O's ElapsedTimeMSec from HighResResponseTime
 * and the clock frequency, the I/O priority packed in IrpFlags, a CPU
 * sample's processor, priority and DPC/ISR state packed in its Reserved
 * word, a new thread's creator from the Thread/Start record's header, and
 * a disk I/O's or hard fault's FileName from its FileKey through the
 * trace's FileIo name records (#EtlMofFileNames).  The schemas
 * (etl-mof-kernel.c) describe the bytes; this module adds those derived
 * fields after decoding, for the consumers that show fields as TraceEvent
 * does.  Fields that need other state (thread names, disk service time,
 * which depends on the disk's queue) are not derived here.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-mof-derived.h"
#include "etl-trace-reader.h"

struct _EtlMofFileNames
{
  GHashTable *by_key; /* guint64* FileObject → char* name */
};

/**
 * etl_mof_file_names_new:
 *
 * Returns: (transfer full): an empty table; free with etl_mof_file_names_free()
 */
EtlMofFileNames *
etl_mof_file_names_new (void)
{
  EtlMofFileNames *names = g_new0 (EtlMofFileNames, 1);

  names->by_key = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  return names;
}

/**
 * etl_mof_file_names_free:
 * @names: (nullable): a table
 */
void
etl_mof_file_names_free (EtlMofFileNames *names)
{
  if (names == NULL)
    return;
  g_hash_table_unref (names->by_key);
  g_free (names);
}

/**
 * etl_mof_file_names_add:
 * @names: a table
 * @decoded: a decoded record
 *
 * Records the file name of a FileIo_Name record (types 0 Name, 32
 * FileCreate, 36 FileRundown; 35 FileDelete keeps the name, as later I/O
 * may still name the key) under its FileObject.  A later name for the same
 * key replaces the earlier one.  The name is the decoded FileName (a DOS
 * path when the record was decoded with the trace's volume map).
 *
 * Returns: %TRUE if @decoded was a FileIo name record with a name
 */
gboolean
etl_mof_file_names_add (EtlMofFileNames *names, const EtlDecoded *decoded)
{
  const EtlField *key, *name;
  guint64 *k;

  g_return_val_if_fail (names != NULL && decoded != NULL, FALSE);

  if (decoded->schema == NULL || decoded->schema->source != ETL_SCHEMA_SOURCE_MOF
      || decoded->schema->event_name == NULL
      || strcmp (decoded->schema->event_name, "FileIo_Name") != 0)
    return FALSE;
  key = etl_decoded_find (decoded, "FileObject");
  name = etl_decoded_find (decoded, "FileName");
  if (key == NULL || !key->has_number || name == NULL || name->value[0] == '\0')
    return FALSE;
  k = g_new (guint64, 1); /* g_memdup2 needs GLib 2.68; the project asks 2.66 */
  *k = key->number;
  g_hash_table_insert (names->by_key, k, g_strdup (name->value));
  return TRUE;
}

/**
 * etl_mof_file_names_lookup:
 * @names: a table
 * @file_key: a FileKey / FileObject
 *
 * Returns: (transfer none) (nullable): the file's name, or %NULL
 */
const char *
etl_mof_file_names_lookup (const EtlMofFileNames *names, guint64 file_key)
{
  g_return_val_if_fail (names != NULL, NULL);

  return g_hash_table_lookup (names->by_key, &file_key);
}

static void
field_clear (gpointer p)
{
  EtlField *f = p;

  g_free (f->name);
  g_free (f->value);
}

static void
add (GArray *out, const char *name, char *value, guint16 in_type, gboolean has_number,
     guint64 number)
{
  EtlField f = { g_strdup (name), value, in_type, ETL_OUT_NULL, has_number, number };

  g_array_append_val (out, f);
}

static gboolean
number_of (const EtlDecoded *decoded, const char *name, guint64 *v)
{
  const EtlField *f = etl_decoded_find (decoded, name);

  if (f == NULL || !f->has_number)
    return FALSE;
  *v = f->number;
  return TRUE;
}

static gboolean
is_class (const EtlDecoded *decoded, const char *class_name)
{
  return decoded->schema->event_name != NULL
         && strcmp (decoded->schema->event_name, class_name) == 0;
}

/* g_strdup_printf ("%u", v) without printf: dumps derive these for every
 * SampledProfile record. */
static char *
dup_uint (guint v)
{
  char buf[12];
  char *p = buf + sizeof buf;

  *--p = '\0';
  do
    {
      *--p = (char)('0' + v % 10);
      v /= 10;
    }
  while (v != 0);
  return g_strdup (p);
}

/* @ticks of a @freq Hz clock as milliseconds with three decimals, halves
 * rounded up, as TraceEvent prints them ("0.928").  Integer arithmetic, so
 * 1097765 ticks at 10 MHz is 109.777, not the binary double's 109.776. */
static char *
format_ms (gint64 ticks, gint64 freq)
{
  gboolean neg = ticks < 0;
  guint64 t = neg ? (guint64)-ticks : (guint64)ticks;
  guint64 us, f = (guint64)freq;

  /* Thousandths of a millisecond, without overflow for ticks < 2^44. */
  if (t < (G_GUINT64_CONSTANT (1) << 44))
    us = (t * 1000000u * 2 + f) / (2 * f);
  else
    us = (guint64)((double)t * 1e6 / (double)f + 0.5);
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT ".%03u", neg ? "-" : "", us / 1000,
                          (guint)(us % 1000));
}

/* The I/O priority hint in IrpFlags bits 17–19 (IO_PRIORITY_HINT + 1),
 * as TraceEvent names it. */
static const char *const io_priority[8] = {
  "NotSet", "Verylow", "Low", "Normal", "High", "Critical", "5", "6",
};

/**
 * etl_mof_derived_fields:
 * @decoded: a record decoded with a %ETL_SCHEMA_SOURCE_MOF schema
 * @record: the record
 * @clock_freq: ticks per second of the trace's clock (PerfFreq for QPC,
 *   10,000,000 for system time, the CPU speed in Hz for cycles); 0 when
 *   unknown (no elapsed times are derived then)
 * @file_names: (nullable): the trace's file names, for FileName
 *
 * The fields TraceEvent adds to kernel events, computed from @decoded and
 * @record:
 *
 * - Image_Load, KernelTraceControl ImageID and FileVersion: BuildTime, the
 *   TimeDateStamp (seconds since 1970, unsigned) as a date;
 * - DiskIo_TypeGroup1: Priority (IrpFlags bits 17–19) and ElapsedTimeMSec
 *   (HighResResponseTime / @clock_freq); DiskIo_TypeGroup3: ElapsedTimeMSec;
 * - PageFault_HardFault: ElapsedTimeMSec, from InitialTime to the record's
 *   timestamp;
 * - DiskIo_TypeGroup1 and PageFault_HardFault: FileName, the name
 *   @file_names knows for the FileKey;
 * - PerfInfo_SampledProfile: ProcessorNumber (the record's CPU), and from
 *   the Reserved word Priority (bits 3–7, checked against the TraceEvent
 *   baseline of net.4.5.2.x64), ExecutingDPC (bit 0), ExecutingISR (bit 1)
 *   and Rank (high byte) as TraceEvent reads them;
 * - Thread_V2/V3_TypeGroup1: ParentThreadID and ParentProcessID, the
 *   header's thread and process for Thread/Start (the creating thread logs
 *   it), -1 for the other types.
 *
 * Returns: (transfer full) (nullable) (element-type EtlField): the derived
 *   fields (their names and values are freed with the array), or %NULL when
 *   @decoded has no MOF schema or nothing is derived for it
 */
GArray *
etl_mof_derived_fields (const EtlDecoded *decoded, const EtlRecord *record, gint64 clock_freq,
                        const EtlMofFileNames *file_names)
{
  GArray *out;
  guint64 v, t;

  g_return_val_if_fail (decoded != NULL && record != NULL, NULL);

  if (decoded->schema == NULL || decoded->schema->source != ETL_SCHEMA_SOURCE_MOF)
    return NULL;

  /* Room for the most fields a class derives (SampledProfile: 5) in one allocation. */
  out = g_array_sized_new (FALSE, TRUE, sizeof (EtlField), 6);
  g_array_set_clear_func (out, field_clear);

  if ((is_class (decoded, "Image_Load") || is_class (decoded, "KernelTraceControl_ImageID")
       || is_class (decoded, "KernelTraceControl_FileVersion"))
      && number_of (decoded, "TimeDateStamp", &v))
    {
      gint64 secs = (gint64)(v & 0xFFFFFFFFu);
      char *iso = etl_filetime_to_iso8601 ((secs + G_GINT64_CONSTANT (11644473600)) * 10000000);

      add (out, "BuildTime", iso, ETL_IN_FILETIME, FALSE, 0);
    }
  else if (is_class (decoded, "DiskIo_TypeGroup1") || is_class (decoded, "DiskIo_TypeGroup3"))
    {
      if (is_class (decoded, "DiskIo_TypeGroup1") && number_of (decoded, "IrpFlags", &v))
        add (out, "Priority", g_strdup (io_priority[(v >> 17) & 7]), ETL_IN_UINT32, TRUE,
             (v >> 17) & 7);
      if (clock_freq > 0 && number_of (decoded, "HighResResponseTime", &t))
        add (out, "ElapsedTimeMSec", format_ms ((gint64)t, clock_freq), ETL_IN_DOUBLE, FALSE, 0);
    }
  else if (is_class (decoded, "PageFault_HardFault"))
    {
      if (clock_freq > 0 && number_of (decoded, "InitialTime", &t))
        add (out, "ElapsedTimeMSec", format_ms (record->ts_raw - (gint64)t, clock_freq),
             ETL_IN_DOUBLE, FALSE, 0);
    }
  else if (is_class (decoded, "PerfInfo_SampledProfile"))
    {
      add (out, "ProcessorNumber", dup_uint (record->cpu), ETL_IN_UINT32, TRUE,
           record->cpu);
      if (number_of (decoded, "Reserved", &v))
        {
          add (out, "Priority", dup_uint ((guint)((v & 0xFF) >> 3)), ETL_IN_UINT8,
               TRUE, (v & 0xFF) >> 3);
          add (out, "ExecutingDPC", g_strdup ((v & 1) ? "True" : "False"), ETL_IN_BOOLEAN, TRUE,
               v & 1);
          add (out, "ExecutingISR", g_strdup ((v & 2) ? "True" : "False"), ETL_IN_BOOLEAN, TRUE,
               (v >> 1) & 1);
          add (out, "Rank", dup_uint ((guint)((v >> 8) & 0xFF)), ETL_IN_UINT8, TRUE,
               (v >> 8) & 0xFF);
        }
    }
  else if (is_class (decoded, "Thread_V2_TypeGroup1") || is_class (decoded, "Thread_V3_TypeGroup1"))
    {
      gboolean start = record->opcode == 1 && record->has_pid;

      add (out, "ParentThreadID", start ? dup_uint (record->tid) : g_strdup ("-1"),
           ETL_IN_INT32, TRUE, start ? record->tid : G_MAXUINT64);
      add (out, "ParentProcessID", start ? dup_uint (record->pid) : g_strdup ("-1"),
           ETL_IN_INT32, TRUE, start ? record->pid : G_MAXUINT64);
    }

  if (file_names != NULL
      && (is_class (decoded, "DiskIo_TypeGroup1") || is_class (decoded, "PageFault_HardFault"))
      && number_of (decoded, "FileKey", &v))
    {
      const char *name = etl_mof_file_names_lookup (file_names, v);

      if (name != NULL)
        add (out, "FileName", g_strdup (name), ETL_IN_UNICODESTRING, FALSE, 0);
    }

  if (out->len == 0)
    {
      g_array_unref (out);
      return NULL;
    }
  return out;
}
