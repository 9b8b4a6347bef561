/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-decode.h"

G_BEGIN_DECLS

GArray *etl_mof_derived_fields (const EtlDecoded *decoded, const EtlRecord *record,
                                gint64 clock_freq);

G_END_DECLS
