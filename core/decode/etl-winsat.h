/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-winsat.h: KernelTraceControl WinSat records (the machine's WinSAT
 * assessment as compressed XML) as fields.
 */
#pragma once

#include <glib.h>

#include "etl-decode.h"
#include "etl-types.h"

G_BEGIN_DECLS

/* KernelTraceControl's WinSat event class (ed54dff8-c409-4cf6-bf83-05e1e61a09c4) and its opcodes. */
#define ETL_WINSAT_OPCODE_WINSPR 33
#define ETL_WINSAT_OPCODE_METRICS 35
#define ETL_WINSAT_OPCODE_SYSTEM_CONFIG 37

extern const EtlGuid etl_winsat_guid;

gboolean etl_winsat_is_record (const EtlRecord *record);
EtlDecoded *etl_winsat_decode_record (const EtlRecord *record);

G_END_DECLS
