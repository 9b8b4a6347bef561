/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-trace.h"

G_BEGIN_DECLS

/* Tests only: open with the serial walk (merge_serial()) instead of the
 * parallel scan and merge, to compare the two. */
void etl_trace_set_serial_open_for_testing (gboolean serial);

G_END_DECLS
