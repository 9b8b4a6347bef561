/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-format-private.h"
#include "etl-types.h"

G_BEGIN_DECLS

/* The RTLostEvent class (EventTrace lost-event records). */
#define ETL_RT_LOST_EVENT_OPCODE  32
#define ETL_RT_LOST_BUFFER_OPCODE 33
#define ETL_RT_LOST_FILE_OPCODE   34
extern const EtlGuid etl_rt_lost_event_guid;

gboolean etl_record_decode (const guint8 *data, gsize avail, EtlRecord *record, GError **error);

/* What the index needs of a record, read without a full decode (see etl_record_peek()). */
typedef struct
{
  guint32 size;          /* Size, unaligned */
  guint8 header_type;
  guint8 kind;           /* EtlRecordKind; OTHER records are counted and skipped */
  guint8 has_pid;
  guint8 by_hook;        /* provider follows from hook_id (kernel records) */
  guint8 opcode;
  guint16 hook_id;
  guint32 pid;
  gint64 ts_raw;
  EtlGuid provider;      /* when !by_hook */
} EtlRecordPeek;

typedef enum
{
  ETL_PEEK_OK,
  ETL_PEEK_DECODE,       /* malformed or a rare type: use etl_record_decode() */
} EtlPeekResult;

EtlPeekResult etl_record_peek (const guint8 *data, gsize avail, EtlRecordPeek *peek);

/**
 * etl_record_is_end_marker:
 * @data: bytes at a record position
 * @avail: bytes left in the buffer
 *
 * A buffer's records end at 0xFFFFFFFF, at a zero marker, or when fewer than
 * 4 bytes remain.  Inline: the index walk asks it once a record.
 *
 * Returns: %TRUE if no record starts at @data
 */
static inline gboolean
etl_record_is_end_marker (const guint8 *data, gsize avail)
{
  guint32 marker;

  if (avail < 4)
    return TRUE;
  marker = etl_read_u32 (data);
  return marker == 0xFFFFFFFFu || marker == 0;
}

gboolean etl_record_is_rt_lost (const EtlRecord *record);
gboolean etl_is_rt_lost (const EtlGuid *provider, guint opcode);

G_END_DECLS
