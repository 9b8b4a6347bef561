/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-flame-graph
 * @title: EtlFlameGraph
 * @short_description: a flame graph of an #EtlStackTree
 *
 * The call tree of the sampled stacks (etl_stack_tree_new()) as a flame
 * graph drawn top-down (an icicle graph, so that a deep tree scrolled to its
 * start shows the root): the root ("all samples") in the top row, each
 * callee below its caller, a box as wide as the share of samples that
 * passed through it, siblings ordered by name.  Boxes are coloured from their name (warm hues,
 * so that one module keeps its colour wherever it appears) and labelled
 * where wide enough; the tooltip gives the weight and share.  draw() maps
 * the tree's nodes to boxes, skipping those narrower than half a pixel with
 * everything above them: O(nodes drawn).
 *
 * Weights are shown in the tree's unit (etl_stack_tree_get_unit()):
 * samples, or for a thread-time tree (etl_thread_time_tree_new()) 100-ns
 * ticks shown as milliseconds (etl_flame_graph_format_weight()).  In a
 * thread-time tree the time off the processor takes cool hues, as in
 * Brendan Gregg's off-CPU flame graphs: the `BLOCKED_TIME` and
 * `READIED_TIME` pseudo-frames blue, the waker's `READIED BY` and
 * `(READIED_BY)` frames aqua; `CPU_TIME` and the stacks stay warm.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <math.h>

#include "etl-flame-graph.h"
#include "etl-thread-time.h"

#define ROW_HEIGHT 18
#define MIN_LABEL_WIDTH 28

struct _EtlFlameGraph
{
  GtkDrawingArea parent_instance;

  EtlStackTree *tree;
  double *x0; /* per node, fraction of the width, for the last layout */
  double *x1;
};

G_DEFINE_TYPE (EtlFlameGraph, etl_flame_graph, GTK_TYPE_DRAWING_AREA)

/* Each node's horizontal extent as fractions of the width: a child starts
 * where its previous sibling ended, and spans its share of the parent. */
static void
layout (EtlFlameGraph *self)
{
  const EtlStackTreeNode *nodes;
  guint n;
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));
  guint root = 0;

  g_clear_pointer (&self->x0, g_free);
  g_clear_pointer (&self->x1, g_free);
  if (self->tree == NULL)
    return;
  nodes = etl_stack_tree_get_nodes (self->tree, &n);
  self->x0 = g_new0 (double, n);
  self->x1 = g_new0 (double, n);
  self->x1[0] = nodes[0].total > 0 ? 1.0 : 0.0;
  g_array_append_val (todo, root);
  while (todo->len > 0)
    {
      guint p = g_array_index (todo, guint, todo->len - 1);
      double x = self->x0[p];
      double scale = nodes[0].total > 0 ? 1.0 / (double) nodes[0].total : 0.0;

      g_array_set_size (todo, todo->len - 1);
      for (guint c = nodes[p].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
        {
          self->x0[c] = x;
          x += (double) nodes[c].total * scale;
          self->x1[c] = x;
          g_array_append_val (todo, c);
        }
    }
}

static void
name_color (const char *name, GdkRGBA *rgba)
{
  guint h = g_str_hash (name);

  /* Thread time off the processor: blue for the pseudo-frames, aqua for the
   * waker's frames (see the section description). */
  if (g_str_equal (name, ETL_THREAD_TIME_BLOCKED) || g_str_equal (name, ETL_THREAD_TIME_READIED))
    {
      gdk_rgba_parse (rgba, g_str_equal (name, ETL_THREAD_TIME_BLOCKED) ? "#62a0ea" : "#99c1f1");
      return;
    }
  if (g_str_has_prefix (name, "READIED BY ") || g_str_has_suffix (name, ETL_THREAD_TIME_READIED_BY_SUFFIX))
    {
      rgba->red = 0.45 + (double) (h % 15) / 100.0;
      rgba->green = 0.80 + (double) ((h >> 4) % 15) / 100.0;
      rgba->blue = 0.80 + (double) ((h >> 10) % 15) / 100.0;
      rgba->alpha = 1.0;
      return;
    }
  /* Warm hues: red to yellow, a little varied in lightness. */
  rgba->red = 0.85 + (double) (h % 15) / 100.0;
  rgba->green = 0.35 + (double) ((h >> 4) % 50) / 100.0;
  rgba->blue = 0.20 + (double) ((h >> 10) % 15) / 100.0;
  rgba->alpha = 1.0;
}

/**
 * etl_flame_graph_format_weight:
 * @unit: what @weight counts
 * @weight: a node's total or self (#EtlStackTreeNode), in @unit
 *
 * Formats a weight as the graph shows it: "1234 samples" (one "sample"), or
 * for %ETL_STACK_TREE_UNIT_TICKS (100-ns) milliseconds: "0 ms", to the tick
 * below 1 ms ("0.0300 ms"), to 10 µs up to 100 ms ("3.80 ms"), to 0.1 ms above
 * ("1234.5 ms").
 *
 * Returns: (transfer full): the text
 */
char *
etl_flame_graph_format_weight (EtlStackTreeUnit unit, guint64 weight)
{
  double ms = (double) weight / 1e4;

  if (unit == ETL_STACK_TREE_UNIT_SAMPLES)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " %s", weight, weight == 1 ? "sample" : "samples");
  if (weight == 0)
    return g_strdup ("0 ms");
  if (ms < 1.0)
    return g_strdup_printf ("%.4f ms", ms);
  if (ms < 100.0)
    return g_strdup_printf ("%.2f ms", ms);
  return g_strdup_printf ("%.1f ms", ms);
}

/**
 * etl_flame_graph_get_row_height:
 * @self: a flame graph
 *
 * Returns: the height of one level of calls, pixels
 */
int
etl_flame_graph_get_row_height (EtlFlameGraph *self)
{
  g_return_val_if_fail (ETL_IS_FLAME_GRAPH (self), ROW_HEIGHT);
  return ROW_HEIGHT;
}

/**
 * etl_flame_graph_render:
 * @self: a flame graph
 * @cr: a cairo context, for the widget or an image surface
 * @width: width in pixels
 * @height: height in pixels; the root's row is the top one
 *
 * Draws the boxes of the tree (see the section description).
 */
void
etl_flame_graph_render (EtlFlameGraph *self, cairo_t *cr, int width, int height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkStyleContext *style = gtk_widget_get_style_context (widget);
  g_autoptr (PangoLayout) layout_text = NULL;
  g_autoptr (GArray) todo = NULL;
  const EtlStackTreeNode *nodes;
  GdkRGBA fg;
  guint n, root = 0;
  EtlStackTreeUnit unit;

  g_return_if_fail (ETL_IS_FLAME_GRAPH (self));

  gtk_render_background (style, cr, 0, 0, width, height);
  gtk_style_context_get_color (style, gtk_style_context_get_state (style), &fg);
  layout_text = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_ellipsize (layout_text, PANGO_ELLIPSIZE_END);
  if (self->tree == NULL || self->x0 == NULL)
    return;
  nodes = etl_stack_tree_get_nodes (self->tree, &n);
  unit = etl_stack_tree_get_unit (self->tree);
  if (nodes[0].total == 0)
    {
      pango_layout_set_text (layout_text,
                             unit == ETL_STACK_TREE_UNIT_TICKS
                                 ? "No thread time in this range: no CSwitch or ReadyThread of these threads covers it"
                                 : "No sample in this range has a stack",
                             -1);
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha * 0.6);
      cairo_move_to (cr, 8, 8);
      pango_cairo_show_layout (cr, layout_text);
      return;
    }

  todo = g_array_new (FALSE, FALSE, sizeof (guint));
  g_array_append_val (todo, root);
  while (todo->len > 0)
    {
      guint k = g_array_index (todo, guint, todo->len - 1);
      double x0 = floor (self->x0[k] * width), x1 = floor (self->x1[k] * width);
      double y = (double) nodes[k].depth * ROW_HEIGHT;
      GdkRGBA color;

      g_array_set_size (todo, todo->len - 1);
      if ((self->x1[k] - self->x0[k]) * width < 0.5 || y >= height)
        continue; /* too narrow, or below the bottom: so is everything it calls */
      if (k == 0)
        gdk_rgba_parse (&color, "#c0bfbc");
      else
        name_color (nodes[k].name, &color);
      cairo_set_source_rgba (cr, color.red, color.green, color.blue, 1.0);
      cairo_rectangle (cr, x0, y, MAX (x1 - x0 - 1, 1), ROW_HEIGHT - 1);
      cairo_fill (cr);
      if (x1 - x0 >= MIN_LABEL_WIDTH)
        {
          g_autofree char *weight = k == 0 ? etl_flame_graph_format_weight (unit, nodes[0].total) : NULL;
          g_autofree char *text
              = k == 0 ? (unit == ETL_STACK_TREE_UNIT_TICKS ? g_strdup_printf ("all thread time (%s)", weight)
                                                            : g_strdup_printf ("all samples (%" G_GUINT64_FORMAT ")",
                                                                               nodes[0].total))
                       : g_strdup (nodes[k].name);
          int th;

          pango_layout_set_text (layout_text, text, -1);
          pango_layout_set_width (layout_text, (int) (x1 - x0 - 6) * PANGO_SCALE);
          pango_layout_get_pixel_size (layout_text, NULL, &th);
          cairo_set_source_rgba (cr, 0.1, 0.1, 0.1, 1.0); /* dark on the warm boxes, whatever the theme */
          cairo_move_to (cr, x0 + 3, y + (ROW_HEIGHT - 1 - th) / 2.0);
          pango_cairo_show_layout (cr, layout_text);
        }
      for (guint c = nodes[k].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
        g_array_append_val (todo, c);
    }
}

/**
 * etl_flame_graph_node_at:
 * @self: a flame graph
 * @x: x in the widget, pixels
 * @y: y in the widget, pixels
 * @width: the widget's width, pixels
 * @height: the widget's height, pixels
 *
 * Returns: the node whose box is under (@x, @y), or %ETL_STACK_TREE_NONE
 */
guint
etl_flame_graph_node_at (EtlFlameGraph *self, double x, double y, int width, int height)
{
  const EtlStackTreeNode *nodes;
  guint n, depth, k = 0;
  double fx;

  g_return_val_if_fail (ETL_IS_FLAME_GRAPH (self), ETL_STACK_TREE_NONE);
  if (self->tree == NULL || self->x0 == NULL || width <= 0 || y >= height || y < 0 || x < 0 || x >= width)
    return ETL_STACK_TREE_NONE;
  nodes = etl_stack_tree_get_nodes (self->tree, &n);
  depth = (guint) (y / ROW_HEIGHT);
  fx = x / width;
  if (nodes[0].total == 0 || fx >= self->x1[0])
    return ETL_STACK_TREE_NONE;
  /* Down the tree from the root: the child that holds x at each level. */
  for (guint d = 0; d < depth; d++)
    {
      guint next = ETL_STACK_TREE_NONE;

      for (guint c = nodes[k].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
        if (fx >= self->x0[c] && fx < self->x1[c])
          {
            next = c;
            break;
          }
      if (next == ETL_STACK_TREE_NONE)
        return ETL_STACK_TREE_NONE;
      k = next;
    }
  return k;
}

static gboolean
etl_flame_graph_draw (GtkWidget *widget, cairo_t *cr)
{
  etl_flame_graph_render (ETL_FLAME_GRAPH (widget), cr, gtk_widget_get_allocated_width (widget),
                          gtk_widget_get_allocated_height (widget));
  return GDK_EVENT_PROPAGATE;
}

static gboolean
etl_flame_graph_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  EtlFlameGraph *self = ETL_FLAME_GRAPH (widget);
  const EtlStackTreeNode *nodes;
  g_autofree char *markup = NULL;
  g_autofree char *total = NULL;
  g_autofree char *innermost = NULL;
  EtlStackTreeUnit unit;
  guint n, k;

  if (keyboard)
    return FALSE;
  k = etl_flame_graph_node_at (self, x, y, gtk_widget_get_allocated_width (widget),
                               gtk_widget_get_allocated_height (widget));
  if (k == ETL_STACK_TREE_NONE)
    return FALSE;
  nodes = etl_stack_tree_get_nodes (self->tree, &n);
  unit = etl_stack_tree_get_unit (self->tree);
  total = etl_flame_graph_format_weight (unit, nodes[k].total);
  innermost = etl_flame_graph_format_weight (unit, nodes[k].self);
  markup = g_markup_printf_escaped ("<b>%s</b>\n%s (%.1f %%), %s with it innermost",
                                    k == 0 ? (unit == ETL_STACK_TREE_UNIT_TICKS ? "All thread time" : "All samples")
                                           : nodes[k].name,
                                    total, 100.0 * (double) nodes[k].total / (double) MAX (nodes[0].total, 1),
                                    innermost);
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
etl_flame_graph_get_preferred_height (GtkWidget *widget, int *min, int *nat)
{
  EtlFlameGraph *self = ETL_FLAME_GRAPH (widget);
  guint rows = self->tree != NULL ? etl_stack_tree_get_max_depth (self->tree) + 1 : 1;

  *min = *nat = (int) MIN (rows, 4096) * ROW_HEIGHT;
}

static void
etl_flame_graph_finalize (GObject *object)
{
  EtlFlameGraph *self = ETL_FLAME_GRAPH (object);

  g_clear_pointer (&self->tree, etl_stack_tree_free);
  g_free (self->x0);
  g_free (self->x1);
  G_OBJECT_CLASS (etl_flame_graph_parent_class)->finalize (object);
}

static void
etl_flame_graph_class_init (EtlFlameGraphClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = etl_flame_graph_finalize;
  widget_class->draw = etl_flame_graph_draw;
  widget_class->query_tooltip = etl_flame_graph_query_tooltip;
  widget_class->get_preferred_height = etl_flame_graph_get_preferred_height;
  gtk_widget_class_set_css_name (widget_class, "etlflamegraph");
}

static void
etl_flame_graph_init (EtlFlameGraph *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

/**
 * etl_flame_graph_new:
 *
 * Returns: (transfer floating): a flame graph without a tree
 */
GtkWidget *
etl_flame_graph_new (void)
{
  return g_object_new (ETL_TYPE_FLAME_GRAPH, NULL);
}

/**
 * etl_flame_graph_set_tree:
 * @self: a flame graph
 * @tree: (transfer full) (nullable): the tree to draw
 *
 * Shows @tree, which the graph then owns.
 */
void
etl_flame_graph_set_tree (EtlFlameGraph *self, EtlStackTree *tree)
{
  g_return_if_fail (ETL_IS_FLAME_GRAPH (self));

  if (tree == self->tree)
    return;
  g_clear_pointer (&self->tree, etl_stack_tree_free);
  self->tree = tree;
  layout (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

/**
 * etl_flame_graph_get_tree:
 * @self: a flame graph
 *
 * Returns: (transfer none) (nullable): the tree drawn
 */
EtlStackTree *
etl_flame_graph_get_tree (EtlFlameGraph *self)
{
  g_return_val_if_fail (ETL_IS_FLAME_GRAPH (self), NULL);
  return self->tree;
}
