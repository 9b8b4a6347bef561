/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-decode.h"
#include "etl-dump.h"

G_BEGIN_DECLS

void etl_dump_append_json_fields (GString *out, const EtlDecoded *decoded, const GArray *derived);

G_END_DECLS
