/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-group-summary.h"
#include "etl-row-set.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlGroupViewColumn:
 * @ETL_GROUP_VIEW_COLUMN_LABEL: the group's label (string)
 * @ETL_GROUP_VIEW_COLUMN_COUNT: records (guint64)
 * @ETL_GROUP_VIEW_COLUMN_COUNT_TEXT: records, with thousands separators (string)
 * @ETL_GROUP_VIEW_COLUMN_SHARE: share in percent (double)
 * @ETL_GROUP_VIEW_COLUMN_SHARE_TEXT: share as shown (string)
 * @ETL_GROUP_VIEW_COLUMN_FIRST: first record's time since the origin, 100-ns ticks (gint64)
 * @ETL_GROUP_VIEW_COLUMN_FIRST_TEXT: it as shown (etl_time_format_span()) (string)
 * @ETL_GROUP_VIEW_COLUMN_LAST: last record's time since the origin (gint64)
 * @ETL_GROUP_VIEW_COLUMN_LAST_TEXT: it as shown (string)
 * @ETL_GROUP_VIEW_COLUMN_GROUP: the #EtlGroup, or %NULL for an "… N more" row (pointer)
 * @ETL_GROUP_VIEW_N_COLUMNS: the number of columns
 *
 * The columns of the view's #GtkTreeStore.
 */
typedef enum
{
  ETL_GROUP_VIEW_COLUMN_LABEL,
  ETL_GROUP_VIEW_COLUMN_COUNT,
  ETL_GROUP_VIEW_COLUMN_COUNT_TEXT,
  ETL_GROUP_VIEW_COLUMN_SHARE,
  ETL_GROUP_VIEW_COLUMN_SHARE_TEXT,
  ETL_GROUP_VIEW_COLUMN_FIRST,
  ETL_GROUP_VIEW_COLUMN_FIRST_TEXT,
  ETL_GROUP_VIEW_COLUMN_LAST,
  ETL_GROUP_VIEW_COLUMN_LAST_TEXT,
  ETL_GROUP_VIEW_COLUMN_GROUP,
  ETL_GROUP_VIEW_N_COLUMNS,
} EtlGroupViewColumn;

/**
 * ETL_GROUP_VIEW_MAX_CHILDREN:
 *
 * Groups shown per level; the rest are summed in one "… N more" row.
 */
#define ETL_GROUP_VIEW_MAX_CHILDREN 1000

#define ETL_TYPE_GROUP_VIEW (etl_group_view_get_type ())
G_DECLARE_FINAL_TYPE (EtlGroupView, etl_group_view, ETL, GROUP_VIEW, GtkBox)

GtkWidget *etl_group_view_new (void);
void etl_group_view_set_rows (EtlGroupView *self, EtlTrace *trace, EtlRowSet *rows);
void etl_group_view_set_range (EtlGroupView *self, gint64 begin, gint64 end);
void etl_group_view_show_rows (EtlGroupView *self, EtlRowSet *rows, const char *title);
void etl_group_view_show_all (EtlGroupView *self);
const char *etl_group_view_get_title (EtlGroupView *self);
GtkButton *etl_group_view_get_show_all_button (EtlGroupView *self);
gboolean etl_group_view_set_keys (EtlGroupView *self, const char *chain);
void etl_group_view_set_use_range (EtlGroupView *self, gboolean use_range);
EtlGroupSummary *etl_group_view_get_summary (EtlGroupView *self);
gboolean etl_group_view_is_busy (EtlGroupView *self);
GtkTreeView *etl_group_view_get_tree_view (EtlGroupView *self);

G_END_DECLS
