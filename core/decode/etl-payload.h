/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-types.h"

G_BEGIN_DECLS

/**
 * EtlPayloadField:
 * @name: the field's name, UTF-8
 * @value: its value formatted for display, UTF-8
 *
 * One decoded payload field.
 */
typedef struct
{
  char *name;
  char *value;
} EtlPayloadField;

GPtrArray *etl_payload_decode_tracelogging (const EtlRecord *record, gboolean *complete);

G_END_DECLS
