/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _EtlRowSet EtlRowSet;

EtlRowSet *etl_row_set_new_all (guint64 n_rows);
EtlRowSet *etl_row_set_new_take (guint64 *rows, guint64 n_rows);
EtlRowSet *etl_row_set_ref (EtlRowSet *set);
void etl_row_set_unref (EtlRowSet *set);

gboolean etl_row_set_is_all (const EtlRowSet *set);
guint64 etl_row_set_get_n (const EtlRowSet *set);
guint64 etl_row_set_get (const EtlRowSet *set, guint64 position);
guint64 etl_row_set_find (const EtlRowSet *set, guint64 row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlRowSet, etl_row_set_unref)

G_END_DECLS
