/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

gboolean etl_cab_available (void);
char *etl_cab_extract_pdb (const char *cabinet, const char *dest_dir, const char *pdb_name, guint64 max_size,
                           GError **error);

G_END_DECLS
