/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-process-table.h"
#include "etl-stacks.h"
#include "etl-thread-states.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/**
 * EtlPreciseStack:
 * @ETL_PRECISE_STACK_NEW: WPA's New Thread Stack: the StackWalk of the
 *   CSwitch that switched the thread in (where it had blocked)
 * @ETL_PRECISE_STACK_READY: WPA's Ready Thread Stack: the StackWalk of the
 *   ReadyThread that readied it (the readying thread's, or a DPC's)
 *
 * The two stacks of a switch-in row.
 */
typedef enum
{
  ETL_PRECISE_STACK_NEW,
  ETL_PRECISE_STACK_READY,
} EtlPreciseStack;

/**
 * EtlPreciseDetailsFrameColumn:
 * @ETL_PRECISE_DETAILS_FRAME_INDEX: "#0", "#1", … innermost first (string)
 * @ETL_PRECISE_DETAILS_FRAME_NAME: the frame, etl_stacks_symbolize() (string)
 * @ETL_PRECISE_DETAILS_FRAME_N_COLUMNS: the number of columns
 *
 * The columns of a stack's #GtkListStore.
 */
typedef enum
{
  ETL_PRECISE_DETAILS_FRAME_INDEX,
  ETL_PRECISE_DETAILS_FRAME_NAME,
  ETL_PRECISE_DETAILS_FRAME_N_COLUMNS,
} EtlPreciseDetailsFrameColumn;

/**
 * ETL_PRECISE_DETAILS_ROWS:
 *
 * Fields per column of the details' grid: a switch-in's 16 make two.
 */
#define ETL_PRECISE_DETAILS_ROWS 8

#define ETL_TYPE_PRECISE_DETAILS (etl_precise_details_get_type ())
G_DECLARE_FINAL_TYPE (EtlPreciseDetails, etl_precise_details, ETL, PRECISE_DETAILS, GtkBox)

GtkWidget *etl_precise_details_new (void);
void etl_precise_details_clear (EtlPreciseDetails *self);
void etl_precise_details_show_row (EtlPreciseDetails *self, EtlTrace *trace, EtlStacks *stacks,
                                   const EtlSwitchIn *row);
void etl_precise_details_show_group (EtlPreciseDetails *self, const char *path, guint64 count, gint64 ready,
                                     gint64 waits, gint64 cpu_usage);
gboolean etl_precise_details_is_empty (EtlPreciseDetails *self);
int etl_precise_details_get_wanted_height (EtlPreciseDetails *self);
const char *etl_precise_details_get_title (EtlPreciseDetails *self);
const char *etl_precise_details_get_field (EtlPreciseDetails *self, const char *name);
const char *etl_precise_details_get_stack_caption (EtlPreciseDetails *self, EtlPreciseStack which);
const char *etl_precise_details_get_stack_message (EtlPreciseDetails *self, EtlPreciseStack which);
GtkTreeView *etl_precise_details_get_stack_view (EtlPreciseDetails *self, EtlPreciseStack which);

/**
 * ETL_PRECISE_FORMAT_SIZE:
 *
 * The room etl_precise_format_us_into() and etl_precise_format_count_into()
 * need: 20 digits, 19 separators of up to 8 bytes, sign, decimals and NUL.
 */
#define ETL_PRECISE_FORMAT_SIZE 192

char *etl_precise_format_us (gint64 ticks);
char *etl_precise_format_grouped_into (char *buf, gsize size, guint64 value, int tenths, gboolean negative,
                                       const char *sep, const char *grouping);
char *etl_precise_format_us_into (char *buf, gsize size, gint64 ticks);
char *etl_precise_format_count_into (char *buf, gsize size, guint64 count);
char *etl_precise_format_process (EtlProcessTable *table, guint32 pid, guint32 tid, gint64 filetime);

G_END_DECLS
