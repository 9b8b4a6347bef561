/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-types.h"

G_BEGIN_DECLS

gboolean etl_record_find_ext_item (const EtlRecord *record, guint16 ext_type,
                                   const guint8 **data, gsize *data_len);

G_END_DECLS
