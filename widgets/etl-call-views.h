/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-call-tree.h"

G_BEGIN_DECLS

/**
 * EtlCallViewsColumn:
 * @ETL_CALL_VIEWS_COLUMN_NAME: the frame name (string)
 * @ETL_CALL_VIEWS_COLUMN_INCLUSIVE: Inc, in the samples' unit (guint64)
 * @ETL_CALL_VIEWS_COLUMN_INCLUSIVE_PERCENT: Inc % of the view's total (double)
 * @ETL_CALL_VIEWS_COLUMN_EXCLUSIVE: Exc (guint64)
 * @ETL_CALL_VIEWS_COLUMN_EXCLUSIVE_PERCENT: Exc % (double)
 * @ETL_CALL_VIEWS_COLUMN_FIRST: First, ms after the trace's start (double)
 * @ETL_CALL_VIEWS_COLUMN_LAST: Last, ms after the trace's start (double)
 * @ETL_CALL_VIEWS_COLUMN_NODE: the Call Tree's node index (guint), or
 *   G_MAXUINT (the other views, and a Call Tree row not filled yet)
 *
 * The columns of every view's model (PerfView's and WPA's names).
 */
typedef enum
{
  ETL_CALL_VIEWS_COLUMN_NAME,
  ETL_CALL_VIEWS_COLUMN_INCLUSIVE,
  ETL_CALL_VIEWS_COLUMN_INCLUSIVE_PERCENT,
  ETL_CALL_VIEWS_COLUMN_EXCLUSIVE,
  ETL_CALL_VIEWS_COLUMN_EXCLUSIVE_PERCENT,
  ETL_CALL_VIEWS_COLUMN_FIRST,
  ETL_CALL_VIEWS_COLUMN_LAST,
  ETL_CALL_VIEWS_COLUMN_NODE,
  ETL_CALL_VIEWS_N_COLUMNS
} EtlCallViewsColumn;

/**
 * EtlCallViewsPage:
 * @ETL_CALL_VIEWS_PAGE_BY_NAME: By Name
 * @ETL_CALL_VIEWS_PAGE_CALLERS_CALLEES: Callers/Callees of the focus
 * @ETL_CALL_VIEWS_PAGE_CALL_TREE: Call Tree
 *
 * The pages etl_call_views_get_page() gives, in PerfView's tab order.
 */
typedef enum
{
  ETL_CALL_VIEWS_PAGE_BY_NAME,
  ETL_CALL_VIEWS_PAGE_CALLERS_CALLEES,
  ETL_CALL_VIEWS_PAGE_CALL_TREE,
  ETL_CALL_VIEWS_N_PAGES
} EtlCallViewsPage;

/**
 * EtlCallViewsModel:
 * @ETL_CALL_VIEWS_MODEL_BY_NAME: the By Name rows (a list)
 * @ETL_CALL_VIEWS_MODEL_CALLERS: the callers of the focus (a list)
 * @ETL_CALL_VIEWS_MODEL_FOCUS: the focus's own row (a list of one)
 * @ETL_CALL_VIEWS_MODEL_CALLEES: its callees (a list)
 * @ETL_CALL_VIEWS_MODEL_CALL_TREE: the Call Tree (a tree, filled as rows
 *   are expanded)
 *
 * The models etl_call_views_get_model() gives.
 */
typedef enum
{
  ETL_CALL_VIEWS_MODEL_BY_NAME,
  ETL_CALL_VIEWS_MODEL_CALLERS,
  ETL_CALL_VIEWS_MODEL_FOCUS,
  ETL_CALL_VIEWS_MODEL_CALLEES,
  ETL_CALL_VIEWS_MODEL_CALL_TREE,
  ETL_CALL_VIEWS_N_MODELS
} EtlCallViewsModel;

#define ETL_TYPE_CALL_VIEWS (etl_call_views_get_type ())

G_DECLARE_FINAL_TYPE (EtlCallViews, etl_call_views, ETL, CALL_VIEWS, GtkBox)

GtkWidget *etl_call_views_new (void);
GtkWidget *etl_call_views_get_page (EtlCallViews *self, EtlCallViewsPage page);
void etl_call_views_set_samples (EtlCallViews *self, EtlCallSamples *samples, gint64 origin_filetime);
void etl_call_views_set_group_by_module (EtlCallViews *self, gboolean group);
void etl_call_views_set_fold_percent (EtlCallViews *self, double percent);
void etl_call_views_add_include (EtlCallViews *self, const char *pattern);
void etl_call_views_add_exclude (EtlCallViews *self, const char *pattern);
void etl_call_views_clear_filters (EtlCallViews *self);
void etl_call_views_set_focus (EtlCallViews *self, const char *name);
const char *etl_call_views_get_focus (EtlCallViews *self);
gboolean etl_call_views_get_busy (EtlCallViews *self);
EtlCallTree *etl_call_views_get_tree (EtlCallViews *self);
EtlStackTree *etl_call_views_take_stack_tree (EtlCallViews *self);
GtkTreeModel *etl_call_views_get_model (EtlCallViews *self, EtlCallViewsModel model);
GtkWidget *etl_call_views_get_tree_view (EtlCallViews *self, EtlCallViewsModel model);

G_END_DECLS
