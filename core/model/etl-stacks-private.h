/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-stacks.h"

G_BEGIN_DECLS

void etl_stacks_set_in_place_for_testing (gboolean in_place);
const char *etl_stacks_get_module_for_testing (EtlStacks *stacks, guint i, guint32 *pid, guint64 *base,
                                               guint64 *size, gint64 *start, gint64 *end);

G_END_DECLS
