/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-schema.h"

G_BEGIN_DECLS

void etl_mof_register_kernel (EtlSchemaRegistry *registry);
guint etl_mof_kernel_n_classes (void);

G_END_DECLS
