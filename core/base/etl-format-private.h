/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-format-private.h: on-disk layout of an .etl file.
 *
 * Offsets come from Geoff Chappell's pages on WMI_BUFFER_HEADER, the trace
 * headers and TRACE_LOGFILE_HEADER, System Informer's ntwmi.h, and the
 * EVENT_TRACE_HEADER / EVENT_HEADER reference pages (see
 * ../shared/reference/etw-facts.md).  Everything is little-endian and read
 * with the etl_read_* helpers below, never by casting file bytes to structs.
 */
#pragma once

#include <glib.h>
#include <string.h>

G_BEGIN_DECLS

/* WMI_BUFFER_HEADER: 0x48 bytes at the start of every buffer. */
#define ETL_WMI_BUFFER_HEADER_SIZE        0x48
#define ETL_WBH_BUFFER_SIZE               0x00 /* u32: bytes of this buffer on disk */
#define ETL_WBH_SAVED_OFFSET              0x04 /* u32: bytes used, header included */
#define ETL_WBH_CURRENT_OFFSET            0x08 /* u32 */
#define ETL_WBH_TIMESTAMP                 0x10 /* i64: raw clock at flush */
#define ETL_WBH_SEQUENCE_NUMBER           0x18 /* i64: session-wide flush order */
#define ETL_WBH_CLOCK                     0x20 /* u64: ClockType:3, Frequency:61 */
#define ETL_WBH_CLIENT_CONTEXT            0x28 /* ETW_BUFFER_CONTEXT */
#define ETL_WBH_STATE                     0x2C /* u32 */
#define ETL_WBH_OFFSET                    0x30 /* u32 */
#define ETL_WBH_BUFFER_FLAG               0x34 /* u16 */
#define ETL_WBH_BUFFER_TYPE               0x36 /* u16 */

/* WMI_BUFFER_HEADER.BufferFlag */
#define ETL_BUFFER_FLAG_FLUSH_MARKER      0x0001
#define ETL_BUFFER_FLAG_EVENTS_LOST       0x0002
#define ETL_BUFFER_FLAG_BUFFER_LOST       0x0004
#define ETL_BUFFER_FLAG_RTBACKUP_CORRUPT  0x0008
#define ETL_BUFFER_FLAG_RTBACKUP          0x0010
#define ETL_BUFFER_FLAG_PROC_INDEX        0x0020
#define ETL_BUFFER_FLAG_COMPRESSED        0x0040

/* WMI_BUFFER_HEADER.BufferType */
#define ETL_BUFFER_TYPE_GENERIC           0
#define ETL_BUFFER_TYPE_RUNDOWN           1
#define ETL_BUFFER_TYPE_CTX_SWAP          2
#define ETL_BUFFER_TYPE_REFTIME           3
#define ETL_BUFFER_TYPE_HEADER            4
#define ETL_BUFFER_TYPE_BATCHED           5
#define ETL_BUFFER_TYPE_EMPTY_MARKER      6
#define ETL_BUFFER_TYPE_DBG_INFO          7

/* Processor index in ETW_BUFFER_CONTEXT when PROC_INDEX is set. */
#define ETL_PROCESSOR_INDEX_MASK          0x07FF

/* Compression format in the first buffer's State & 0xFFFF. */
#define ETL_COMPRESSION_FORMAT_XPRESS     3
#define ETL_COMPRESSION_FORMAT_XPRESS_HUFF 4

/* Marker byte 3 flags. */
#define ETL_MARKER_TRACE_HEADER_FLAG      0x80
#define ETL_MARKER_EVENT_TRACE_FLAG       0x40

/* Sizes of the fixed trace headers. */
#define ETL_SYSTEM_HEADER_SIZE            32
#define ETL_COMPACT_HEADER_SIZE           24
#define ETL_PERFINFO_HEADER_SIZE          16
#define ETL_FULL_HEADER_SIZE              48
#define ETL_INSTANCE_HEADER_SIZE          56
#define ETL_EVENT_HEADER_SIZE             80

/* EVENT_HEADER_EXTENDED_DATA_ITEM as stored in a file: 8 bytes + data. */
#define ETL_EXT_ITEM_HEADER_SIZE          8

/* TRACE_LOGFILE_HEADER field offsets (same for both pointer sizes up to
 * CpuSpeedInMHz; the rest depends on PointerSize). */
#define ETL_TLH_BUFFER_SIZE               0x00
#define ETL_TLH_VERSION                   0x04
#define ETL_TLH_PROVIDER_VERSION          0x08
#define ETL_TLH_NUMBER_OF_PROCESSORS      0x0C
#define ETL_TLH_END_TIME                  0x10
#define ETL_TLH_TIMER_RESOLUTION          0x18
#define ETL_TLH_MAXIMUM_FILE_SIZE         0x1C
#define ETL_TLH_LOG_FILE_MODE             0x20
#define ETL_TLH_BUFFERS_WRITTEN           0x24
#define ETL_TLH_START_BUFFERS             0x28
#define ETL_TLH_POINTER_SIZE              0x2C
#define ETL_TLH_EVENTS_LOST               0x30
#define ETL_TLH_CPU_SPEED_IN_MHZ          0x34
#define ETL_TLH_LOGGER_NAME_PTR           0x38
#define ETL_TIME_ZONE_INFORMATION_SIZE    172

/* Kernel HookId groups used by the reader itself. */
#define ETL_GROUP_HEADER                  0x00
#define ETL_LOG_TYPE_HEADER               0x0000 /* the EventTrace header */

/* Little-endian readers.  Callers have bounds-checked the access. */
static inline guint16
etl_read_u16 (const guint8 *p)
{
  return (guint16) (p[0] | (p[1] << 8));
}

static inline guint32
etl_read_u32 (const guint8 *p)
{
  return (guint32) p[0] | ((guint32) p[1] << 8) | ((guint32) p[2] << 16) | ((guint32) p[3] << 24);
}

static inline guint64
etl_read_u64 (const guint8 *p)
{
  return (guint64) etl_read_u32 (p) | ((guint64) etl_read_u32 (p + 4) << 32);
}

static inline gint64
etl_read_i64 (const guint8 *p)
{
  return (gint64) etl_read_u64 (p);
}

static inline gsize
etl_align8 (gsize n)
{
  return (n + 7) & ~(gsize) 7;
}

G_END_DECLS
