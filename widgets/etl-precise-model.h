/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-precise-groups.h"
#include "etl-thread-states.h"

G_BEGIN_DECLS

/**
 * EtlPreciseViewColumn:
 * @ETL_PRECISE_VIEW_COLUMN_LABEL: the group's label, or a switch-in's
 *   "CPU n · Readying Thread Id n" (string)
 * @ETL_PRECISE_VIEW_COLUMN_COUNT: switch-ins (guint64)
 * @ETL_PRECISE_VIEW_COLUMN_READY: Ready, summed, 100-ns ticks (gint64)
 * @ETL_PRECISE_VIEW_COLUMN_WAITS: Waits, summed, 100-ns ticks (gint64)
 * @ETL_PRECISE_VIEW_COLUMN_CPU_USAGE: CPU Usage, summed, 100-ns ticks (gint64)
 * @ETL_PRECISE_VIEW_COLUMN_SWITCH_IN: a switch-in row's Switch-In Time since
 *   the origin, 100-ns ticks; -1 on group rows (gint64)
 * @ETL_PRECISE_VIEW_COLUMN_INDEX: a switch-in row's index into
 *   etl_thread_states_get_switch_ins(); %G_MAXUINT on group rows (guint)
 * @ETL_PRECISE_VIEW_N_COLUMNS: the number of columns
 *
 * The columns of an #EtlPreciseModel.  They hold numbers: the table makes
 * their text when a row is drawn (etl_precise_view_dup_cell_text()).
 */
typedef enum
{
  ETL_PRECISE_VIEW_COLUMN_LABEL,
  ETL_PRECISE_VIEW_COLUMN_COUNT,
  ETL_PRECISE_VIEW_COLUMN_READY,
  ETL_PRECISE_VIEW_COLUMN_WAITS,
  ETL_PRECISE_VIEW_COLUMN_CPU_USAGE,
  ETL_PRECISE_VIEW_COLUMN_SWITCH_IN,
  ETL_PRECISE_VIEW_COLUMN_INDEX,
  ETL_PRECISE_VIEW_N_COLUMNS,
} EtlPreciseViewColumn;

/**
 * EtlPreciseRow:
 * @label: (nullable): a group's label; NULL on the other rows
 * @count: %ETL_PRECISE_VIEW_COLUMN_COUNT
 * @ready: %ETL_PRECISE_VIEW_COLUMN_READY, 100-ns ticks
 * @waits: %ETL_PRECISE_VIEW_COLUMN_WAITS, 100-ns ticks
 * @cpu_usage: %ETL_PRECISE_VIEW_COLUMN_CPU_USAGE, 100-ns ticks
 * @switch_in: %ETL_PRECISE_VIEW_COLUMN_SWITCH_IN, 100-ns ticks, -1 on groups
 * @index: %ETL_PRECISE_VIEW_COLUMN_INDEX, %G_MAXUINT but on switch-ins
 *
 * One row's values (etl_precise_model_get_row()).
 */
typedef struct
{
  const char *label;
  guint64 count;
  gint64 ready;
  gint64 waits;
  gint64 cpu_usage;
  gint64 switch_in;
  guint index;
} EtlPreciseRow;

#define ETL_TYPE_PRECISE_MODEL (etl_precise_model_get_type ())
G_DECLARE_FINAL_TYPE (EtlPreciseModel, etl_precise_model, ETL, PRECISE_MODEL, GObject)

EtlPreciseModel *etl_precise_model_new (EtlPreciseGroup *root, EtlThreadStates *states, gint64 origin);
guint64 etl_precise_model_get_n_rows (EtlPreciseModel *self);
gboolean etl_precise_model_get_row (EtlPreciseModel *self, GtkTreeIter *iter, EtlPreciseRow *row);

G_END_DECLS
