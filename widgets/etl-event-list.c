/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-event-list
 * @title: EtlEventList
 * @short_description: the scrolling list of events
 *
 * A #GtkScrolledWindow holding a #GtkTreeView in fixed-height mode over an
 * #EtlEventModel: time (ms since the origin), CPU, PID, TID, provider, event
 * name, event id / opcode, level and payload size.  Only the rows on screen
 * are formatted, each from one record read, so the list scrolls through
 * millions of rows as through a hundred.  A new filter swaps in a new model;
 * the selected trace row stays selected when the filter keeps it.
 *
 * When the user selects a row, #EtlEventList::row-selected gives its row in
 * the trace's merged sequence.  etl_event_list_select_row() selects and
 * centres a row for a selection made elsewhere (the timeline) without
 * emitting the signal, so two views following each other do not loop.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-event-list.h"

struct _EtlEventList
{
  GtkScrolledWindow parent_instance;

  GtkTreeView *tree_view;
  EtlEventModel *model;
  guint64 selected_row;
  gboolean selecting;
  guint rescroll_source;
};

enum
{
  ROW_SELECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_TYPE (EtlEventList, etl_event_list, GTK_TYPE_SCROLLED_WINDOW)

static void
on_selection_changed (GtkTreeSelection *selection, EtlEventList *self)
{
  GtkTreeModel *model;
  GtkTreeIter iter;
  guint64 row = ETL_EVENT_LIST_NO_ROW;

  if (gtk_tree_selection_get_selected (selection, &model, &iter))
    gtk_tree_model_get (model, &iter, ETL_EVENT_MODEL_COLUMN_ROW, &row, -1);
  if (row == self->selected_row)
    return;
  self->selected_row = row;
  if (!self->selecting && row != ETL_EVENT_LIST_NO_ROW)
    g_signal_emit (self, signals[ROW_SELECTED], 0, row);
}

/* A row scrolled to before the tree view measured its rows lands a little
 * off (heights were estimates); scroll once more after the next layout. */
static gboolean
rescroll_cb (gpointer user_data)
{
  EtlEventList *self = user_data;
  g_autoptr (GtkTreePath) path = NULL;

  self->rescroll_source = 0;
  gtk_tree_view_get_cursor (self->tree_view, &path, NULL);
  if (path != NULL)
    {
      GtkAdjustment *adj = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (self->tree_view));
      GdkRectangle rect;
      double value, page;

      /* Rows have one height in fixed-height mode: the row's area is exact. */
      gtk_tree_view_get_background_area (self->tree_view, path, NULL, &rect);
      page = gtk_adjustment_get_page_size (adj);
      value = gtk_adjustment_get_value (adj);
      if (rect.height > 0 && (rect.y < 0 || rect.y + rect.height > page))
        gtk_adjustment_set_value (adj, value + rect.y - (page - rect.height) / 2);
    }
  return G_SOURCE_REMOVE;
}

static void
add_column (EtlEventList *self, const char *title, EtlEventModelColumn column, int width, gboolean numeric,
            gboolean expand)
{
  GtkCellRenderer *cell = gtk_cell_renderer_text_new ();
  GtkTreeViewColumn *col;

  g_object_set (cell, "ellipsize", numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END, "xalign", numeric ? 1.0 : 0.0,
                "single-paragraph-mode", TRUE, NULL);
  col = gtk_tree_view_column_new_with_attributes (title, cell, "text", column, NULL);
  gtk_tree_view_column_set_sizing (col, GTK_TREE_VIEW_COLUMN_FIXED);
  gtk_tree_view_column_set_fixed_width (col, width);
  gtk_tree_view_column_set_resizable (col, TRUE);
  gtk_tree_view_column_set_expand (col, expand);
  if (numeric)
    gtk_tree_view_column_set_alignment (col, 1.0);
  gtk_tree_view_append_column (self->tree_view, col);
}

static void
etl_event_list_dispose (GObject *object)
{
  EtlEventList *self = ETL_EVENT_LIST (object);

  g_clear_handle_id (&self->rescroll_source, g_source_remove);
  g_clear_object (&self->model);

  G_OBJECT_CLASS (etl_event_list_parent_class)->dispose (object);
}

static void
etl_event_list_class_init (EtlEventListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = etl_event_list_dispose;

  /**
   * EtlEventList::row-selected:
   * @self: the list
   * @row: the selected row, a position in the trace's merged sequence
   *
   * The user selected a row (click or keyboard).  Not emitted for
   * etl_event_list_select_row().
   */
  signals[ROW_SELECTED] = g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                        NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT64);

  gtk_widget_class_set_css_name (GTK_WIDGET_CLASS (klass), "etleventlist");
}

static void
etl_event_list_init (EtlEventList *self)
{
  GtkTreeSelection *selection;

  self->selected_row = ETL_EVENT_LIST_NO_ROW;
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self), GTK_POLICY_AUTOMATIC, GTK_POLICY_ALWAYS);
  gtk_scrolled_window_set_shadow_type (GTK_SCROLLED_WINDOW (self), GTK_SHADOW_NONE);

  self->tree_view = GTK_TREE_VIEW (gtk_tree_view_new ());
  gtk_tree_view_set_fixed_height_mode (self->tree_view, TRUE);
  gtk_tree_view_set_enable_search (self->tree_view, FALSE);
  gtk_tree_view_set_headers_visible (self->tree_view, TRUE);
  gtk_tree_view_set_grid_lines (self->tree_view, GTK_TREE_VIEW_GRID_LINES_VERTICAL);
  gtk_style_context_add_class (gtk_widget_get_style_context (GTK_WIDGET (self->tree_view)), "event-list");

  add_column (self, "Time (ms)", ETL_EVENT_MODEL_COLUMN_TIME, 110, TRUE, FALSE);
  add_column (self, "CPU", ETL_EVENT_MODEL_COLUMN_CPU, 48, TRUE, FALSE);
  add_column (self, "PID", ETL_EVENT_MODEL_COLUMN_PID, 70, TRUE, FALSE);
  add_column (self, "TID", ETL_EVENT_MODEL_COLUMN_TID, 70, TRUE, FALSE);
  add_column (self, "Provider", ETL_EVENT_MODEL_COLUMN_PROVIDER, 280, FALSE, FALSE);
  add_column (self, "Event", ETL_EVENT_MODEL_COLUMN_NAME, 260, FALSE, TRUE);
  add_column (self, "Id / Opcode", ETL_EVENT_MODEL_COLUMN_OPCODE, 96, TRUE, FALSE);
  add_column (self, "Level", ETL_EVENT_MODEL_COLUMN_LEVEL, 100, FALSE, FALSE);
  add_column (self, "Size", ETL_EVENT_MODEL_COLUMN_SIZE, 64, TRUE, FALSE);

  selection = gtk_tree_view_get_selection (self->tree_view);
  gtk_tree_selection_set_mode (selection, GTK_SELECTION_BROWSE);
  g_signal_connect_object (selection, "changed", G_CALLBACK (on_selection_changed), self, 0);

  self->model = etl_event_model_new (NULL, NULL);
  gtk_tree_view_set_model (self->tree_view, GTK_TREE_MODEL (self->model));

  gtk_widget_show (GTK_WIDGET (self->tree_view));
  gtk_container_add (GTK_CONTAINER (self), GTK_WIDGET (self->tree_view));
}

/**
 * etl_event_list_new:
 *
 * Returns: (transfer floating): a new, empty event list
 */
GtkWidget *
etl_event_list_new (void)
{
  return g_object_new (ETL_TYPE_EVENT_LIST, NULL);
}

/**
 * etl_event_list_set_rows:
 * @self: a list
 * @trace: (nullable): the trace; %NULL empties the list
 * @rows: (nullable): the rows to show (a filter's result); %NULL for all
 *
 * Shows @rows of @trace.  The selected row stays selected (without
 * #EtlEventList::row-selected) when @rows keeps it.
 */
void
etl_event_list_set_rows (EtlEventList *self, EtlTrace *trace, EtlRowSet *rows)
{
  guint64 selected;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));

  selected = etl_event_model_get_trace (self->model) == trace ? self->selected_row : ETL_EVENT_LIST_NO_ROW;

  self->selecting = TRUE;
  g_clear_object (&self->model);
  self->model = etl_event_model_new (trace, rows);
  gtk_tree_view_set_model (self->tree_view, GTK_TREE_MODEL (self->model));
  self->selected_row = ETL_EVENT_LIST_NO_ROW;
  self->selecting = FALSE;

  if (selected != ETL_EVENT_LIST_NO_ROW)
    {
      guint64 position = etl_event_model_find_row (self->model, selected);

      if (position < etl_event_model_get_n_rows (self->model)
          && etl_event_model_get_row (self->model, position) == selected)
        etl_event_list_select_row (self, selected);
    }
}

/**
 * etl_event_list_get_model:
 * @self: a list
 *
 * Returns: (transfer none): the model shown
 */
EtlEventModel *
etl_event_list_get_model (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  return self->model;
}

/**
 * etl_event_list_get_tree_view:
 * @self: a list
 *
 * Returns: (transfer none): the tree view inside
 */
GtkTreeView *
etl_event_list_get_tree_view (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), NULL);
  return self->tree_view;
}

/**
 * etl_event_list_get_n_rows:
 * @self: a list
 *
 * Returns: rows in the list
 */
guint64
etl_event_list_get_n_rows (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), 0);
  return etl_event_model_get_n_rows (self->model);
}

/**
 * etl_event_list_select_row:
 * @self: a list
 * @row: a position in the trace's merged sequence
 *
 * Selects @row and scrolls it to the middle of the list.  When the filter
 * left @row out, the nearest following row shown is selected instead (the
 * last one past the end).  Does not emit #EtlEventList::row-selected.
 */
void
etl_event_list_select_row (EtlEventList *self, guint64 row)
{
  guint64 n, position;
  g_autoptr (GtkTreePath) path = NULL;

  g_return_if_fail (ETL_IS_EVENT_LIST (self));

  n = etl_event_model_get_n_rows (self->model);
  if (n == 0)
    return;
  position = MIN (etl_event_model_find_row (self->model, row), n - 1);
  if (position > (guint64) G_MAXINT)
    return;
  path = gtk_tree_path_new_from_indices ((int) position, -1);

  self->selecting = TRUE;
  gtk_tree_view_set_cursor (self->tree_view, path, NULL, FALSE);
  gtk_tree_view_scroll_to_cell (self->tree_view, path, NULL, TRUE, 0.5, 0.0);
  self->selecting = FALSE;
  if (self->rescroll_source == 0)
    self->rescroll_source = g_timeout_add (50, rescroll_cb, self);
}

/**
 * etl_event_list_get_selected_row:
 * @self: a list
 *
 * Returns: the selected row (a position in the trace's merged sequence), or
 *   %ETL_EVENT_LIST_NO_ROW
 */
guint64
etl_event_list_get_selected_row (EtlEventList *self)
{
  g_return_val_if_fail (ETL_IS_EVENT_LIST (self), ETL_EVENT_LIST_NO_ROW);
  return self->selected_row;
}
