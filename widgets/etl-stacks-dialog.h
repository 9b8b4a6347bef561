/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-call-views.h"
#include "etl-flame-graph.h"
#include "etl-stacks.h"
#include "etl-symbol-resolver.h"

G_BEGIN_DECLS

/**
 * EtlStacksDialogColumn:
 * @ETL_STACKS_DIALOG_COLUMN_FRAME: the frame group (string)
 * @ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE: samples with it innermost (guint64)
 * @ETL_STACKS_DIALOG_COLUMN_INCLUSIVE: samples with it anywhere (guint64)
 * @ETL_STACKS_DIALOG_COLUMN_PERCENT: inclusive, % of the samples with a stack (double)
 *
 * The columns of etl_stacks_dialog_get_model().
 */
typedef enum
{
  ETL_STACKS_DIALOG_COLUMN_FRAME,
  ETL_STACKS_DIALOG_COLUMN_EXCLUSIVE,
  ETL_STACKS_DIALOG_COLUMN_INCLUSIVE,
  ETL_STACKS_DIALOG_COLUMN_PERCENT,
  ETL_STACKS_DIALOG_N_COLUMNS
} EtlStacksDialogColumn;

/**
 * EtlStacksDialogSource:
 * @ETL_STACKS_DIALOG_SOURCE_SAMPLES: "CPU samples": the PerfInfo
 *   SampledProfile stacks (etl_stack_tree_new(), etl_stacks_summarize())
 * @ETL_STACKS_DIALOG_SOURCE_THREAD_TIME: "Thread time": PerfView's Thread
 *   Time from the CSwitch and ReadyThread records (etl_thread_time_tree_new())
 *
 * What the dialog's flame graph shows.
 */
typedef enum
{
  ETL_STACKS_DIALOG_SOURCE_SAMPLES,
  ETL_STACKS_DIALOG_SOURCE_THREAD_TIME,
} EtlStacksDialogSource;

#define ETL_TYPE_STACKS_DIALOG (etl_stacks_dialog_get_type ())

G_DECLARE_FINAL_TYPE (EtlStacksDialog, etl_stacks_dialog, ETL, STACKS_DIALOG, GtkDialog)

GtkWidget *etl_stacks_dialog_new (GtkWindow *parent, EtlStacks *stacks, gint64 from_filetime,
                                  gint64 to_filetime, const char *range_text);
void etl_stacks_dialog_set_threads (EtlStacksDialog *self, const guint32 *tids, guint n_tids);
const guint32 *etl_stacks_dialog_get_threads (EtlStacksDialog *self, guint *n_tids);
void etl_stacks_dialog_set_source (EtlStacksDialog *self, EtlStacksDialogSource source);
EtlStacksDialogSource etl_stacks_dialog_get_source (EtlStacksDialog *self);
GtkWidget *etl_stacks_dialog_get_source_button (EtlStacksDialog *self, EtlStacksDialogSource source);
gboolean etl_stacks_dialog_get_busy (EtlStacksDialog *self);
GtkTreeModel *etl_stacks_dialog_get_model (EtlStacksDialog *self);
const char *etl_stacks_dialog_get_summary_text (EtlStacksDialog *self);
EtlFlameGraph *etl_stacks_dialog_get_flame_graph (EtlStacksDialog *self);
EtlCallViews *etl_stacks_dialog_get_call_views (EtlStacksDialog *self);
void etl_stacks_dialog_set_resolver (EtlStacksDialog *self, EtlSymbolResolver *resolver, const char *symbol_path_text,
                                     gboolean download);
GtkTreeModel *etl_stacks_dialog_get_symbols_model (EtlStacksDialog *self);

G_END_DECLS
