/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-decode-private.h: building an EtlDecoded field by field, for records
 * whose layout code reads rather than a schema walk (etl-tdh.c and etl-winsat.c: the
 * KernelTraceControl MetaData and WinSat records).
 */
#pragma once

#include <glib.h>

#include "etl-decode.h"

G_BEGIN_DECLS

EtlDecoded *etl_decoded_begin (EtlSchema *schema);
void etl_decoded_add_field (EtlDecoded *decoded, const char *name, const char *value, guint16 in_type,
                            guint16 out_type, gboolean has_number, guint64 number);
void etl_decoded_end (EtlDecoded *decoded, gboolean complete, gsize n_bytes);

G_END_DECLS
