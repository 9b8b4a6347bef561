/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-record.c: decoding of one trace record (any trace header type) into the
 * normalised #EtlRecord view.
 *
 * Layouts: SYSTEM_TRACE_HEADER, PERFINFO_TRACE_HEADER and the compact form
 * from Geoff Chappell's pages and ntwmi.h; EVENT_TRACE_HEADER and
 * EVENT_INSTANCE_GUID_HEADER from evntrace.h; EVENT_HEADER and its extended
 * data items from evntcons.h; MESSAGE_TRACE_HEADER (WPP) from evntrace.h.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-record.h"
#include "etl-record-private.h"

#include <string.h>

#include "etl-error.h"
#include "etl-format-private.h"
#include "etl-kernel-groups.h"

/* 6a399ae0-4bc6-4de9-870b-3657f8947e7e */
const EtlGuid etl_rt_lost_event_guid = {
  0x6a399ae0, 0x4bc6, 0x4de9, { 0x87, 0x0b, 0x36, 0x57, 0xf8, 0x94, 0x7e, 0x7e }
};

/* MESSAGE_TRACE_HEADER option flags (TRACE_MESSAGE_* in evntrace.h). */
#define TRACE_MESSAGE_SEQUENCE     0x0001
#define TRACE_MESSAGE_GUID         0x0002
#define TRACE_MESSAGE_COMPONENTID  0x0004
#define TRACE_MESSAGE_TIMESTAMP    0x0008
#define TRACE_MESSAGE_SYSTEMINFO   0x0020
#define ETL_MESSAGE_HEADER_SIZE    8

static guint
min_header_size (guint header_type)
{
  switch (header_type)
    {
    case ETL_HEADER_TYPE_SYSTEM32:
    case ETL_HEADER_TYPE_SYSTEM64:
      return ETL_SYSTEM_HEADER_SIZE;
    case ETL_HEADER_TYPE_COMPACT32:
    case ETL_HEADER_TYPE_COMPACT64:
      return ETL_COMPACT_HEADER_SIZE;
    case ETL_HEADER_TYPE_PERFINFO32:
    case ETL_HEADER_TYPE_PERFINFO64:
      return ETL_PERFINFO_HEADER_SIZE;
    case ETL_HEADER_TYPE_FULL_HEADER32:
    case ETL_HEADER_TYPE_FULL_HEADER64:
      return ETL_FULL_HEADER_SIZE;
    case ETL_HEADER_TYPE_INSTANCE32:
    case ETL_HEADER_TYPE_INSTANCE64:
      return ETL_INSTANCE_HEADER_SIZE;
    case ETL_HEADER_TYPE_EVENT_HEADER32:
    case ETL_HEADER_TYPE_EVENT_HEADER64:
      return ETL_EVENT_HEADER_SIZE;
    case ETL_HEADER_TYPE_MESSAGE:
      return ETL_MESSAGE_HEADER_SIZE;
    default:
      return 4;
    }
}

/* A kernel record's provider is its HookId's class (etl_kernel_hook_class()). */
static inline void
set_kernel_provider (EtlRecord *r)
{
  const EtlGuid *guid = etl_kernel_hook_class (r->hook_id);

  if (guid != NULL)
    r->provider = *guid;
}

static gboolean
decode_event_header (const guint8 *p, EtlRecord *r, GError **error)
{
  gsize pos = ETL_EVENT_HEADER_SIZE;
  gsize end = r->size;

  r->flags = etl_read_u16 (p + 4);
  r->event_property = etl_read_u16 (p + 6);
  r->tid = etl_read_u32 (p + 8);
  r->pid = etl_read_u32 (p + 12);
  r->has_pid = TRUE;
  r->ts_raw = etl_read_i64 (p + 16);
  etl_guid_read (&r->provider, p + 24);
  r->event_id = etl_read_u16 (p + 40);
  r->version = p[42];
  r->channel = p[43];
  r->level = p[44];
  r->opcode = p[45];
  r->task = etl_read_u16 (p + 46);
  r->keyword = etl_read_u64 (p + 48);
  r->kernel_time = etl_read_u32 (p + 56);
  r->user_time = etl_read_u32 (p + 60);
  r->has_cpu_time = !(r->flags & (ETL_EVENT_HEADER_FLAG_NO_CPUTIME | ETL_EVENT_HEADER_FLAG_PRIVATE_SESSION));
  etl_guid_read (&r->activity_id, p + 64);
  r->has_activity_id = !etl_guid_is_zero (&r->activity_id);
  r->kind = ETL_RECORD_KIND_MANIFEST;

  if (r->flags & ETL_EVENT_HEADER_FLAG_EXTENDED_INFO)
    {
      gsize start = pos;

      /* Items of {u16 item size, u16 ExtType, u16 linkage, u16 data size}. */
      for (guint n = 0;; n++)
        {
          guint item_size, ext_type, linkage, data_size;

          if (end - pos < ETL_EXT_ITEM_HEADER_SIZE)
            {
              g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                           "extended data item %u at record offset %" G_GSIZE_FORMAT " is truncated", n, pos);
              return FALSE;
            }
          item_size = etl_read_u16 (p + pos);
          ext_type = etl_read_u16 (p + pos + 2);
          linkage = etl_read_u16 (p + pos + 4);
          data_size = etl_read_u16 (p + pos + 6);
          if (item_size < ETL_EXT_ITEM_HEADER_SIZE + data_size || item_size > end - pos)
            {
              g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                           "extended data item %u has size %u (data %u) but %" G_GSIZE_FORMAT " bytes remain",
                           n, item_size, data_size, end - pos);
              return FALSE;
            }
          if (ext_type == ETL_EXT_TYPE_EVENT_SCHEMA_TL)
            r->kind = ETL_RECORD_KIND_TRACELOGGING;
          pos += item_size;
          if (!(linkage & 1))
            break;
        }
      r->ext = p + start;
      r->ext_len = pos - start;
    }

  r->user_data_len = end - pos;
  r->user_data = r->user_data_len ? p + pos : NULL;
  return TRUE;
}

static void
decode_message (const guint8 *p, EtlRecord *r)
{
  guint options = etl_read_u16 (p + 6);
  gsize pos = ETL_MESSAGE_HEADER_SIZE;
  gsize end = r->size;

  r->event_id = etl_read_u16 (p + 4);
  r->kind = ETL_RECORD_KIND_WPP;
  if ((options & TRACE_MESSAGE_SEQUENCE) && end - pos >= 4)
    pos += 4;
  if ((options & TRACE_MESSAGE_GUID) && end - pos >= 16)
    {
      etl_guid_read (&r->provider, p + pos);
      pos += 16;
    }
  else if ((options & TRACE_MESSAGE_COMPONENTID) && end - pos >= 4)
    pos += 4;
  if ((options & TRACE_MESSAGE_TIMESTAMP) && end - pos >= 8)
    {
      r->ts_raw = etl_read_i64 (p + pos);
      pos += 8;
    }
  if ((options & TRACE_MESSAGE_SYSTEMINFO) && end - pos >= 8)
    {
      r->tid = etl_read_u32 (p + pos);
      r->pid = etl_read_u32 (p + pos + 4);
      r->has_pid = TRUE;
      pos += 8;
    }
  r->user_data_len = end - pos;
  r->user_data = r->user_data_len ? p + pos : NULL;
}

/**
 * etl_record_decode:
 * @data: the record's first byte
 * @avail: bytes from @data to the end of the buffer's used area
 * @record: (out caller-allocates): filled with the header fields, the
 *   extended items and the user data; @record->file, @record->cpu,
 *   @record->filetime and @record->file_offset are left for the caller
 * @error: return location for an %ETL_ERROR_CORRUPT error
 *
 * Decodes one record of any trace header type.  Every access is checked
 * against @avail and the record's own Size.  ERROR, WNODE and unknown header
 * types decode with kind %ETL_RECORD_KIND_OTHER and only their size, so the
 * caller can count and skip them.
 *
 * Returns: %TRUE on success; %FALSE if the record is malformed (its size is
 *   below its header or beyond @avail), in which case the rest of the buffer
 *   cannot be walked
 */
gboolean
etl_record_decode (const guint8 *data, gsize avail, EtlRecord *record, GError **error)
{
  const guint8 *p = data;
  EtlRecord *r = record;
  guint8 type, mflags;
  gsize size;

  memset (r, 0, sizeof *r);
  if (avail < 8)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "record header truncated: %" G_GSIZE_FORMAT " bytes left in the buffer", avail);
      return FALSE;
    }

  mflags = p[3];
  if (!(mflags & ETL_MARKER_TRACE_HEADER_FLAG))
    {
      /* A WNODE_HEADER: its first field is the u32 BufferSize. */
      type = ETL_HEADER_TYPE_WNODE_HEADER;
      size = etl_read_u32 (p);
    }
  else if ((mflags & 0xD0) == 0x90)
    {
      /* MESSAGE_TRACE_HEADER (WPP): TRACE_HEADER_FLAG | TRACE_MESSAGE. */
      type = ETL_HEADER_TYPE_MESSAGE;
      size = etl_read_u16 (p);
    }
  else
    {
      type = p[2];
      switch (type)
        {
        case ETL_HEADER_TYPE_SYSTEM32:
        case ETL_HEADER_TYPE_SYSTEM64:
        case ETL_HEADER_TYPE_COMPACT32:
        case ETL_HEADER_TYPE_COMPACT64:
        case ETL_HEADER_TYPE_PERFINFO32:
        case ETL_HEADER_TYPE_PERFINFO64:
          size = etl_read_u16 (p + 4);
          break;
        default:
          size = etl_read_u16 (p);
          break;
        }
    }

  r->header_type = type;
  r->marker_flags = mflags;
  r->kind = ETL_RECORD_KIND_OTHER;
  r->raw = p;
  r->raw_len = avail;

  if (size < min_header_size (type) || size < 8)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "record of header type %u (%s) has size %" G_GSIZE_FORMAT ", below its %u-byte header",
                   type, etl_header_type_name (type), size, min_header_size (type));
      return FALSE;
    }
  if (size > avail)
    {
      g_set_error (error, ETL_ERROR, ETL_ERROR_CORRUPT,
                   "record of header type %u (%s) has size %" G_GSIZE_FORMAT " but only %" G_GSIZE_FORMAT
                   " bytes remain in the buffer",
                   type, etl_header_type_name (type), size, avail);
      return FALSE;
    }
  r->size = (guint32) size;

  switch (type)
    {
    case ETL_HEADER_TYPE_SYSTEM32:
    case ETL_HEADER_TYPE_SYSTEM64:
    case ETL_HEADER_TYPE_COMPACT32:
    case ETL_HEADER_TYPE_COMPACT64:
      {
        gsize hdr = (type <= ETL_HEADER_TYPE_SYSTEM64) ? ETL_SYSTEM_HEADER_SIZE : ETL_COMPACT_HEADER_SIZE;

        r->version = (guint8) etl_read_u16 (p);
        r->hook_id = etl_read_u16 (p + 6);
        r->opcode = r->hook_id & 0xFF;
        r->tid = etl_read_u32 (p + 8);
        r->pid = etl_read_u32 (p + 12);
        r->has_pid = TRUE;
        r->ts_raw = etl_read_i64 (p + 16);
        if (hdr == ETL_SYSTEM_HEADER_SIZE)
          {
            r->kernel_time = etl_read_u32 (p + 24);
            r->user_time = etl_read_u32 (p + 28);
            r->has_cpu_time = TRUE;
          }
        r->kind = ETL_RECORD_KIND_KERNEL;
        set_kernel_provider (r);
        r->user_data_len = size - hdr;
        r->user_data = r->user_data_len ? p + hdr : NULL;
      }
      break;

    case ETL_HEADER_TYPE_PERFINFO32:
    case ETL_HEADER_TYPE_PERFINFO64:
      r->version = (guint8) etl_read_u16 (p);
      r->hook_id = etl_read_u16 (p + 6);
      r->opcode = r->hook_id & 0xFF;
      r->ts_raw = etl_read_i64 (p + 8);
      r->kind = ETL_RECORD_KIND_PERFINFO;
      set_kernel_provider (r);
      r->user_data_len = size - ETL_PERFINFO_HEADER_SIZE;
      r->user_data = r->user_data_len ? p + ETL_PERFINFO_HEADER_SIZE : NULL;
      break;

    case ETL_HEADER_TYPE_FULL_HEADER32:
    case ETL_HEADER_TYPE_FULL_HEADER64:
    case ETL_HEADER_TYPE_INSTANCE32:
    case ETL_HEADER_TYPE_INSTANCE64:
      {
        gsize hdr = (type == ETL_HEADER_TYPE_FULL_HEADER32 || type == ETL_HEADER_TYPE_FULL_HEADER64)
                      ? ETL_FULL_HEADER_SIZE : ETL_INSTANCE_HEADER_SIZE;

        /* EVENT_TRACE_HEADER; the file form of the instance header
         * (EVENT_INSTANCE_GUID_HEADER) shares its first 48 bytes. */
        r->opcode = p[4];
        r->level = p[5];
        r->version = (guint8) etl_read_u16 (p + 6);
        r->tid = etl_read_u32 (p + 8);
        r->pid = etl_read_u32 (p + 12);
        r->has_pid = TRUE;
        r->ts_raw = etl_read_i64 (p + 16);
        etl_guid_read (&r->provider, p + 24);
        r->kernel_time = etl_read_u32 (p + 40);
        r->user_time = etl_read_u32 (p + 44);
        r->has_cpu_time = TRUE;
        r->kind = ETL_RECORD_KIND_CLASSIC;
        r->user_data_len = size - hdr;
        r->user_data = r->user_data_len ? p + hdr : NULL;
      }
      break;

    case ETL_HEADER_TYPE_EVENT_HEADER32:
    case ETL_HEADER_TYPE_EVENT_HEADER64:
      if (!decode_event_header (p, r, error))
        return FALSE;
      break;

    case ETL_HEADER_TYPE_MESSAGE:
      decode_message (p, r);
      break;

    default:
      /* ERROR, WNODE, TIMED and unknown types: counted and skipped. */
      r->kind = ETL_RECORD_KIND_OTHER;
      break;
    }

  return TRUE;
}

/**
 * etl_record_peek:
 * @data: the record's first byte
 * @avail: bytes from @data to the end of the buffer's used area
 * @peek: (out caller-allocates): size, header type, kind, timestamp, process
 *   id and provider of the record
 *
 * The indexing fast path: reads only what the merged index keeps, with the
 * same checks as etl_record_decode() (header size, Size within @avail,
 * extended data items of an EVENT_HEADER), so a record that peeks
 * %ETL_PEEK_OK decodes and one that decodes peeks alike.  Kernel records
 * leave their provider to the caller (@peek->by_hook: it follows from the
 * HookId, see etl_kernel_hook_class()).
 *
 * Returns: %ETL_PEEK_OK, or %ETL_PEEK_DECODE for a malformed record, a WPP
 *   MESSAGE or a WNODE header: call etl_record_decode() for those
 */
EtlPeekResult
etl_record_peek (const guint8 *data, gsize avail, EtlRecordPeek *peek)
{
  const guint8 *p = data;
  guint8 type, mflags;
  gsize size;

  if (avail < 8)
    return ETL_PEEK_DECODE;
  mflags = p[3];
  type = p[2];
  if (!(mflags & ETL_MARKER_TRACE_HEADER_FLAG) || (mflags & 0xD0) == 0x90 || type == ETL_HEADER_TYPE_MESSAGE)
    return ETL_PEEK_DECODE; /* WNODE_HEADER or MESSAGE_TRACE_HEADER */
  peek->header_type = type;
  peek->has_pid = FALSE;
  peek->by_hook = FALSE;

  switch (type)
    {
    case ETL_HEADER_TYPE_SYSTEM32:
    case ETL_HEADER_TYPE_SYSTEM64:
    case ETL_HEADER_TYPE_COMPACT32:
    case ETL_HEADER_TYPE_COMPACT64:
      size = etl_read_u16 (p + 4);
      if (size < (type <= ETL_HEADER_TYPE_SYSTEM64 ? ETL_SYSTEM_HEADER_SIZE : ETL_COMPACT_HEADER_SIZE) || size > avail)
        return ETL_PEEK_DECODE;
      peek->hook_id = etl_read_u16 (p + 6);
      peek->opcode = peek->hook_id & 0xFF;
      peek->pid = etl_read_u32 (p + 12);
      peek->has_pid = TRUE;
      peek->ts_raw = etl_read_i64 (p + 16);
      peek->by_hook = TRUE;
      peek->kind = ETL_RECORD_KIND_KERNEL;
      break;

    case ETL_HEADER_TYPE_PERFINFO32:
    case ETL_HEADER_TYPE_PERFINFO64:
      size = etl_read_u16 (p + 4);
      if (size < ETL_PERFINFO_HEADER_SIZE || size > avail)
        return ETL_PEEK_DECODE;
      peek->hook_id = etl_read_u16 (p + 6);
      peek->opcode = peek->hook_id & 0xFF;
      peek->ts_raw = etl_read_i64 (p + 8);
      peek->by_hook = TRUE;
      peek->kind = ETL_RECORD_KIND_PERFINFO;
      break;

    case ETL_HEADER_TYPE_FULL_HEADER32:
    case ETL_HEADER_TYPE_FULL_HEADER64:
    case ETL_HEADER_TYPE_INSTANCE32:
    case ETL_HEADER_TYPE_INSTANCE64:
      size = etl_read_u16 (p);
      if (size < min_header_size (type) || size > avail)
        return ETL_PEEK_DECODE;
      peek->opcode = p[4];
      peek->pid = etl_read_u32 (p + 12);
      peek->has_pid = TRUE;
      peek->ts_raw = etl_read_i64 (p + 16);
      etl_guid_read (&peek->provider, p + 24);
      peek->kind = ETL_RECORD_KIND_CLASSIC;
      break;

    case ETL_HEADER_TYPE_EVENT_HEADER32:
    case ETL_HEADER_TYPE_EVENT_HEADER64:
      size = etl_read_u16 (p);
      if (size < ETL_EVENT_HEADER_SIZE || size > avail)
        return ETL_PEEK_DECODE;
      peek->kind = ETL_RECORD_KIND_MANIFEST;
      if (etl_read_u16 (p + 4) & ETL_EVENT_HEADER_FLAG_EXTENDED_INFO)
        {
          gsize pos = ETL_EVENT_HEADER_SIZE;

          /* The same walk as decode_event_header(): a bad item fails both. */
          for (;;)
            {
              guint item_size, linkage, data_size;

              if (size - pos < ETL_EXT_ITEM_HEADER_SIZE)
                return ETL_PEEK_DECODE;
              item_size = etl_read_u16 (p + pos);
              linkage = etl_read_u16 (p + pos + 4);
              data_size = etl_read_u16 (p + pos + 6);
              if (item_size < ETL_EXT_ITEM_HEADER_SIZE + data_size || item_size > size - pos)
                return ETL_PEEK_DECODE;
              if (etl_read_u16 (p + pos + 2) == ETL_EXT_TYPE_EVENT_SCHEMA_TL)
                peek->kind = ETL_RECORD_KIND_TRACELOGGING;
              pos += item_size;
              if (!(linkage & 1))
                break;
            }
        }
      peek->opcode = p[45];
      peek->pid = etl_read_u32 (p + 12);
      peek->has_pid = TRUE;
      peek->ts_raw = etl_read_i64 (p + 16);
      etl_guid_read (&peek->provider, p + 24);
      break;

    default:
      /* ERROR, TIMED and unknown types: only their u16 size at byte 0. */
      size = etl_read_u16 (p);
      if (size < 8 || size > avail)
        return ETL_PEEK_DECODE;
      peek->kind = ETL_RECORD_KIND_OTHER;
      peek->ts_raw = 0;
      break;
    }
  peek->size = (guint32) size;
  return ETL_PEEK_OK;
}

/**
 * etl_is_rt_lost:
 * @provider: a record's provider GUID
 * @opcode: its opcode (event type)
 *
 * Whether a record is one of the EventTrace lost-event records a real-time
 * session writes (class 6a399ae0-4bc6-4de9-870b-3657f8947e7e, types 32 lost
 * events, 33 lost buffers, 34 lost file).
 *
 * Returns: %TRUE for RTLostEvent, RTLostBuffer and RTLostFile records
 */
gboolean
etl_is_rt_lost (const EtlGuid *provider, guint opcode)
{
  return opcode >= ETL_RT_LOST_EVENT_OPCODE && opcode <= ETL_RT_LOST_FILE_OPCODE
         && etl_guid_equal (provider, &etl_rt_lost_event_guid);
}

/**
 * etl_record_is_rt_lost:
 * @record: a decoded record
 *
 * etl_is_rt_lost() for a decoded record.
 *
 * Returns: %TRUE for RTLostEvent, RTLostBuffer and RTLostFile records
 */
gboolean
etl_record_is_rt_lost (const EtlRecord *record)
{
  return etl_is_rt_lost (&record->provider, record->opcode);
}

/**
 * etl_record_find_ext_item:
 * @record: an EVENT_HEADER record
 * @ext_type: the ExtType to look for (ETL_EXT_TYPE_*, from evntcons.h)
 * @data: (out) (transfer none) (optional): the item's data
 * @data_len: (out) (optional): the item's data size in bytes
 *
 * Finds the first extended data item of type @ext_type.  The items were
 * bounds-checked when the record was decoded.
 *
 * Returns: %TRUE if found
 */
gboolean
etl_record_find_ext_item (const EtlRecord *record, guint16 ext_type, const guint8 **data, gsize *data_len)
{
  gsize pos = 0;

  g_return_val_if_fail (record != NULL, FALSE);

  while (record->ext != NULL && record->ext_len - pos >= ETL_EXT_ITEM_HEADER_SIZE)
    {
      const guint8 *item = record->ext + pos;
      guint item_size = etl_read_u16 (item);
      guint data_size = etl_read_u16 (item + 6);

      if (item_size < ETL_EXT_ITEM_HEADER_SIZE + data_size || item_size > record->ext_len - pos)
        break;
      if (etl_read_u16 (item + 2) == ext_type)
        {
          if (data)
            *data = item + ETL_EXT_ITEM_HEADER_SIZE;
          if (data_len)
            *data_len = data_size;
          return TRUE;
        }
      pos += item_size;
    }
  return FALSE;
}
