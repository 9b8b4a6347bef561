/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-stacks.h"
#include "etl-trace.h"

G_BEGIN_DECLS

#define ETL_TYPE_DETAILS (etl_details_get_type ())

G_DECLARE_FINAL_TYPE (EtlDetails, etl_details, ETL, DETAILS, GtkScrolledWindow)

GtkWidget *etl_details_new (void);
void etl_details_show_row (EtlDetails *self, EtlTrace *trace, guint64 row);
void etl_details_clear (EtlDetails *self);
gboolean etl_details_get_has_event (EtlDetails *self);
void etl_details_set_stacks (EtlDetails *self, EtlStacks *stacks);
gboolean etl_details_refresh_stack (EtlDetails *self);
char *etl_details_dup_text (EtlDetails *self);
char *etl_details_format (EtlTrace *trace, guint64 row);
GtkTreeModel *etl_details_get_fields (EtlDetails *self);
char *etl_details_dup_source (EtlDetails *self);
void etl_details_add_manifest (EtlDetails *self, const char *path, GPtrArray *provider_names);

G_END_DECLS
