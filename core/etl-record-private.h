/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-types.h"

G_BEGIN_DECLS

/* The RTLostEvent class (EventTrace lost-event records). */
#define ETL_RT_LOST_EVENT_OPCODE  32
#define ETL_RT_LOST_BUFFER_OPCODE 33
#define ETL_RT_LOST_FILE_OPCODE   34
extern const EtlGuid etl_rt_lost_event_guid;

gboolean etl_record_decode (const guint8 *data, gsize avail, EtlRecord *record, GError **error);
gboolean etl_record_is_end_marker (const guint8 *data, gsize avail);
gboolean etl_record_is_rt_lost (const EtlRecord *record);

G_END_DECLS
