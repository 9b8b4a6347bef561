/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-records.c: record access on an opened #EtlTrace.
 *
 * The index keeps each record's FILETIME, buffer and offset, header type,
 * process id (through the PID table) and provider id; what it does not keep
 * is read again from the mapping, or from a small cache of decompressed
 * buffers: the full record (etl_trace_get_record()) or the few header fields
 * a per-record pass needs (etl_trace_peek_record()).
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-private.h"

#include <string.h>

/**
 * etl_trace_get_n_records:
 * @trace: a trace
 *
 * Returns: records in the merged sequence (skipped ERROR/WNODE/unknown records excluded)
 */
guint64
etl_trace_get_n_records (EtlTrace *trace)
{
  g_return_val_if_fail (trace != NULL, 0);
  return trace->n_index;
}

const guint8 *
etl_trace_cached_buffer (EtlTrace *trace, guint buffer, GBytes **hold, gsize *len, GError **error)
{
  const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, buffer);
  const guint8 *data;
  GBytes *bytes;

  if (!b->compressed)
    {
      EtlFile *f = g_ptr_array_index (trace->files, b->file);

      *hold = NULL;
      *len = b->used;
      return f->data + b->offset;
    }

  g_mutex_lock (&trace->cache_lock);
  bytes = g_hash_table_lookup (trace->cache, GUINT_TO_POINTER (buffer));
  if (bytes != NULL)
    {
      *hold = g_bytes_ref (bytes);
      g_mutex_unlock (&trace->cache_lock);
      *len = g_bytes_get_size (*hold);
      return g_bytes_get_data (*hold, NULL);
    }
  g_mutex_unlock (&trace->cache_lock);

  if (!etl_trace_buffer_load (trace, b, &data, len, &bytes, error))
    return NULL;

  g_mutex_lock (&trace->cache_lock);
  if (!g_hash_table_contains (trace->cache, GUINT_TO_POINTER (buffer)))
    {
      if (g_queue_get_length (&trace->cache_order) >= BUFFER_CACHE_SIZE)
        g_hash_table_remove (trace->cache, g_queue_pop_head (&trace->cache_order));
      g_hash_table_insert (trace->cache, GUINT_TO_POINTER (buffer), g_bytes_ref (bytes));
      g_queue_push_tail (&trace->cache_order, GUINT_TO_POINTER (buffer));
    }
  g_mutex_unlock (&trace->cache_lock);
  *hold = bytes;
  return data;
}

/**
 * etl_trace_get_record:
 * @trace: a trace
 * @index: position in the merged sequence, below etl_trace_get_n_records()
 * @record: (out caller-allocates): the decoded record; release with etl_record_clear()
 * @error: return location for %ETL_ERROR_DECOMPRESS or %ETL_ERROR_CORRUPT
 *
 * Re-reads one record from the mapping (or a cached decompressed buffer)
 * and decodes it.  Thread-safe.
 *
 * Returns: %TRUE on success
 */
gboolean
etl_trace_get_record (EtlTrace *trace, guint64 index, EtlRecord *record, GError **error)
{
  const EtlIndexEntry *e;
  const EtlBuffer *b;
  GBytes *hold = NULL;
  const guint8 *data;
  gsize len;

  g_return_val_if_fail (trace != NULL, FALSE);
  g_return_val_if_fail (index < trace->n_index, FALSE);
  g_return_val_if_fail (record != NULL, FALSE);

  e = &trace->index[index];
  b = &g_array_index (trace->buffers, EtlBuffer, e->buffer);
  data = etl_trace_cached_buffer (trace, e->buffer, &hold, &len, error);
  if (data == NULL)
    {
      memset (record, 0, sizeof *record);
      return FALSE;
    }
  if (!etl_record_decode (data + entry_offset (e), len - entry_offset (e), record, error))
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  record->hold = hold;
  record->file = b->file;
  record->cpu = b->cpu;
  record->filetime = entry_filetime (e);
  record->file_offset = b->offset + entry_offset (e);
  return TRUE;
}

/**
 * etl_trace_peek_record:
 * @trace: a trace
 * @index: position in the merged sequence, below etl_trace_get_n_records()
 * @brief: (out caller-allocates): the record's header type, kind, HookId,
 *   opcode, event id, version, ThreadId/ProcessId, FILETIME and payload;
 *   release with etl_record_brief_clear()
 *
 * The cheap read of what a per-record pass needs: for the kernel header
 * types (SYSTEM_TRACE_HEADER, its compact form and PERFINFO_TRACE_HEADER,
 * see etw-facts.md) it reads those fields in place without building an
 * #EtlRecord; other header types go through etl_record_decode().  Every
 * field equals that of the #EtlRecord etl_trace_get_record() gives, and the
 * same records fail: the record's Size is checked against its header and
 * the buffer's used bytes.  @brief->user_data points into the mapping or a
 * decompressed buffer that @brief holds a reference on.  Thread-safe.
 *
 * Returns: %TRUE on success; %FALSE (and @brief zeroed) for a record that
 *   cannot be read (a buffer that does not decompress, a malformed record)
 */
gboolean
etl_trace_peek_record (EtlTrace *trace, guint64 index, EtlRecordBrief *brief)
{
  const EtlIndexEntry *e;
  GBytes *hold = NULL;
  const guint8 *data, *p;
  gsize len, avail, size, hdr;
  guint8 type;

  g_return_val_if_fail (trace != NULL, FALSE);
  g_return_val_if_fail (index < trace->n_index, FALSE);
  g_return_val_if_fail (brief != NULL, FALSE);

  memset (brief, 0, sizeof *brief);
  e = &trace->index[index];
  data = etl_trace_cached_buffer (trace, e->buffer, &hold, &len, NULL);
  if (data == NULL || entry_offset (e) > len)
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  p = data + entry_offset (e);
  avail = len - entry_offset (e);
  type = avail >= 8 ? p[2] : 0;
  if (avail >= 8 && (p[3] & ETL_MARKER_TRACE_HEADER_FLAG) && (p[3] & 0xD0) != 0x90
      && type >= ETL_HEADER_TYPE_SYSTEM32 && type <= ETL_HEADER_TYPE_COMPACT64)
    hdr = type <= ETL_HEADER_TYPE_SYSTEM64 ? ETL_SYSTEM_HEADER_SIZE : ETL_COMPACT_HEADER_SIZE;
  else if (avail >= 8 && (p[3] & ETL_MARKER_TRACE_HEADER_FLAG) && (p[3] & 0xD0) != 0x90
           && (type == ETL_HEADER_TYPE_PERFINFO32 || type == ETL_HEADER_TYPE_PERFINFO64))
    hdr = ETL_PERFINFO_HEADER_SIZE;
  else
    {
      /* Every other header type: the full decode, then its fields. */
      EtlRecord r;

      if (!etl_record_decode (p, avail, &r, NULL))
        {
          g_clear_pointer (&hold, g_bytes_unref);
          return FALSE;
        }
      brief->header_type = r.header_type;
      brief->kind = r.kind;
      brief->has_pid = r.has_pid;
      brief->opcode = r.opcode;
      brief->hook_id = r.hook_id;
      brief->event_id = r.event_id;
      brief->version = r.version;
      brief->pid = r.pid;
      brief->tid = r.tid;
      brief->user_data = r.user_data;
      brief->user_data_len = r.user_data_len;
      brief->filetime = entry_filetime (e);
      brief->hold = hold;
      return TRUE;
    }

  /* SYSTEM, COMPACT, PERFINFO: a u16 Size at byte 4, the HookId at 6. */
  size = etl_read_u16 (p + 4);
  if (size < hdr || size > avail)
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  brief->header_type = type;
  brief->version = (guint8)etl_read_u16 (p);
  brief->hook_id = etl_read_u16 (p + 6);
  brief->opcode = brief->hook_id & 0xFF;
  if (hdr == ETL_PERFINFO_HEADER_SIZE)
    brief->kind = ETL_RECORD_KIND_PERFINFO;
  else
    {
      brief->kind = ETL_RECORD_KIND_KERNEL;
      brief->tid = etl_read_u32 (p + 8);
      brief->pid = etl_read_u32 (p + 12);
      brief->has_pid = TRUE;
    }
  brief->user_data_len = size - hdr;
  brief->user_data = brief->user_data_len > 0 ? p + hdr : NULL;
  brief->filetime = entry_filetime (e);
  brief->hold = hold;
  return TRUE;
}

/**
 * etl_trace_get_opcode:
 * @trace: a trace
 * @index: position in the merged sequence, below etl_trace_get_n_records()
 * @opcode: (out): the record's opcode, as #EtlRecord.opcode gives it
 *
 * The one byte a pass that wants a few opcodes needs, read in place: the
 * EVENT_DESCRIPTOR.Opcode of an EVENT_HEADER (byte 45), the Class.Type of
 * an EVENT_TRACE_HEADER (byte 4), the low byte of a kernel HookId (byte 6),
 * without decoding the record.  Only the header's first bytes are checked
 * (its Size is not): a record this reads may still fail
 * etl_trace_get_record().  Thread-safe.
 *
 * Returns: %FALSE for a header type without an opcode (WPP MESSAGE, WNODE),
 *   a record cut short or a buffer that does not decompress
 */
gboolean
etl_trace_get_opcode (EtlTrace *trace, guint64 index, guint8 *opcode)
{
  const EtlIndexEntry *e;
  GBytes *hold = NULL;
  const guint8 *data, *p;
  gsize len, avail, at;
  gboolean ok = TRUE;

  g_return_val_if_fail (trace != NULL, FALSE);
  g_return_val_if_fail (index < trace->n_index, FALSE);
  g_return_val_if_fail (opcode != NULL, FALSE);

  e = &trace->index[index];
  data = etl_trace_cached_buffer (trace, e->buffer, &hold, &len, NULL);
  if (data == NULL || entry_offset (e) > len)
    {
      g_clear_pointer (&hold, g_bytes_unref);
      return FALSE;
    }
  p = data + entry_offset (e);
  avail = len - entry_offset (e);
  switch (entry_header_type (e))
    {
    case ETL_HEADER_TYPE_EVENT_HEADER32:
    case ETL_HEADER_TYPE_EVENT_HEADER64:
      at = 45;
      ok = avail >= ETL_EVENT_HEADER_SIZE;
      break;
    case ETL_HEADER_TYPE_FULL_HEADER32:
    case ETL_HEADER_TYPE_FULL_HEADER64:
    case ETL_HEADER_TYPE_INSTANCE32:
    case ETL_HEADER_TYPE_INSTANCE64:
      at = 4;
      ok = avail >= 8;
      break;
    case ETL_HEADER_TYPE_SYSTEM32:
    case ETL_HEADER_TYPE_SYSTEM64:
    case ETL_HEADER_TYPE_COMPACT32:
    case ETL_HEADER_TYPE_COMPACT64:
    case ETL_HEADER_TYPE_PERFINFO32:
    case ETL_HEADER_TYPE_PERFINFO64:
      at = 6;
      ok = avail >= 8;
      break;
    default:
      at = 0;
      ok = FALSE;
      break;
    }
  if (ok)
    *opcode = p[at];
  g_clear_pointer (&hold, g_bytes_unref);
  return ok;
}

/**
 * etl_record_brief_clear:
 * @brief: a brief filled by etl_trace_peek_record(), or zeroed
 *
 * Drops the reference on the buffer @brief->user_data points into.
 */
void
etl_record_brief_clear (EtlRecordBrief *brief)
{
  g_return_if_fail (brief != NULL);
  g_clear_pointer (&brief->hold, g_bytes_unref);
  brief->user_data = NULL;
  brief->user_data_len = 0;
}

/**
 * etl_trace_get_filetime:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's FILETIME (from the index, no file access)
 */
gint64
etl_trace_get_filetime (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return entry_filetime (&trace->index[index]);
}

/**
 * etl_trace_get_cpu:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's processor index
 */
guint
etl_trace_get_cpu (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return g_array_index (trace->buffers, EtlBuffer, trace->index[index].buffer).cpu;
}

/**
 * etl_trace_get_file:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the index of the file the record comes from
 */
guint
etl_trace_get_file (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return g_array_index (trace->buffers, EtlBuffer, trace->index[index].buffer).file;
}

/**
 * etl_trace_get_pid:
 * @trace: a trace
 * @index: position in the merged sequence
 * @pid: (out) (optional): the process id
 *
 * Returns: %FALSE when the record's header has no process id (PERFINFO)
 */
gboolean
etl_trace_get_pid (EtlTrace *trace, guint64 index, guint32 *pid)
{
  guint16 p;
  EtlRecord r;
  gboolean has_pid;

  g_return_val_if_fail (index < trace->n_index, FALSE);
  p = trace->index[index].pid;
  if (G_LIKELY (p < PID16_REREAD))
    {
      if (pid)
        *pid = trace->pids[p];
      return TRUE;
    }
  if (p == PID16_NONE)
    {
      if (pid)
        *pid = NO_PID;
      return FALSE;
    }
  /* The PID table was full: the record's header says it. */
  if (!etl_trace_get_record (trace, index, &r, NULL))
    {
      if (pid)
        *pid = NO_PID;
      return FALSE;
    }
  has_pid = r.has_pid && r.pid != NO_PID;
  if (pid)
    *pid = has_pid ? r.pid : NO_PID;
  etl_record_clear (&r);
  return has_pid;
}

/**
 * etl_trace_get_provider_index:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's provider as an index for etl_trace_get_provider()
 *   (G_MAXUINT16 past 65535 distinct providers)
 */
guint
etl_trace_get_provider_index (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return trace->index[index].provider;
}

/**
 * etl_trace_get_header_type:
 * @trace: a trace
 * @index: position in the merged sequence
 *
 * Returns: the record's trace header type
 */
guint8
etl_trace_get_header_type (EtlTrace *trace, guint64 index)
{
  g_return_val_if_fail (index < trace->n_index, 0);
  return entry_header_type (&trace->index[index]);
}

/**
 * etl_trace_lower_bound:
 * @trace: a trace
 * @filetime: a FILETIME
 *
 * Binary search in the merged index.
 *
 * Returns: the first position whose FILETIME is ≥ @filetime (n_records if none)
 */
guint64
etl_trace_lower_bound (EtlTrace *trace, gint64 filetime)
{
  guint64 lo = 0, hi = trace->n_index;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (entry_filetime (&trace->index[mid]) < filetime)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
