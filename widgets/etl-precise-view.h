/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "etl-precise-details.h"
#include "etl-precise-groups.h"
#include "etl-precise-model.h"
#include "etl-stacks.h"
#include "etl-thread-states.h"
#include "etl-trace.h"
#include "etl-zoom-manager.h"

G_BEGIN_DECLS

/**
 * EtlPreciseViewRange:
 * @ETL_PRECISE_VIEW_RANGE_WHOLE: every switch-in of the trace
 * @ETL_PRECISE_VIEW_RANGE_VISIBLE: the switch-ins of the timeline's visible
 *   (zoomed) range, followed as it zooms and scrolls (WPA's table)
 * @ETL_PRECISE_VIEW_RANGE_SELECTED: those of the range selected in the
 *   timeline (etl_precise_view_set_range()); the whole trace when none is
 *
 * Which switch-ins the table counts, by Switch-In Time.
 */
typedef enum
{
  ETL_PRECISE_VIEW_RANGE_WHOLE,
  ETL_PRECISE_VIEW_RANGE_VISIBLE,
  ETL_PRECISE_VIEW_RANGE_SELECTED,
} EtlPreciseViewRange;

/**
 * ETL_PRECISE_VIEW_RANGE_DELAY_MS:
 *
 * How long the visible range must stay still before the view regroups
 * once, for the latest range (a drag-zoom makes dozens of changes).
 */
#define ETL_PRECISE_VIEW_RANGE_DELAY_MS 150

/**
 * ETL_PRECISE_VIEW_RANGE_MAX_WAIT_MS:
 *
 * The longest a burst of visible-range changes defers the regrouping: a
 * drag that goes on longer regroups this often.
 */
#define ETL_PRECISE_VIEW_RANGE_MAX_WAIT_MS 1000

#define ETL_TYPE_PRECISE_VIEW (etl_precise_view_get_type ())
G_DECLARE_FINAL_TYPE (EtlPreciseView, etl_precise_view, ETL, PRECISE_VIEW, GtkBox)

GtkWidget *etl_precise_view_new (EtlZoomManager *zoom_manager);
void etl_precise_view_set_zoom_manager (EtlPreciseView *self, EtlZoomManager *zoom_manager);
void etl_precise_view_set_trace (EtlPreciseView *self, EtlTrace *trace, EtlStacks *stacks);
void etl_precise_view_set_range (EtlPreciseView *self, gint64 begin, gint64 end);
void etl_precise_view_set_range_mode (EtlPreciseView *self, EtlPreciseViewRange mode);
EtlPreciseViewRange etl_precise_view_get_range_mode (EtlPreciseView *self);
void etl_precise_view_get_counted_range (EtlPreciseView *self, gint64 *begin, gint64 *end);
guint etl_precise_view_get_n_groupings (EtlPreciseView *self);
void etl_precise_view_get_last_fill (EtlPreciseView *self, guint *n_rows, gint64 *usec);
EtlThreadStates *etl_precise_view_get_states (EtlPreciseView *self);
const char *etl_precise_view_get_message (EtlPreciseView *self);
gboolean etl_precise_view_is_busy (EtlPreciseView *self);
GtkTreeView *etl_precise_view_get_tree_view (EtlPreciseView *self);
EtlPreciseDetails *etl_precise_view_get_details (EtlPreciseView *self);
char *etl_precise_view_dup_cell_text (GtkTreeModel *model, GtkTreeIter *iter, EtlPreciseViewColumn column);

G_END_DECLS
