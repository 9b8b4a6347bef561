/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-stacks.h"

G_BEGIN_DECLS

/**
 * ETL_STACK_TREE_NONE:
 *
 * "No node" in #EtlStackTreeNode links (G_MAXUINT).
 */
#define ETL_STACK_TREE_NONE G_MAXUINT

/**
 * EtlStackTreeNode:
 * @name: the frame group: a module file name ("ntdll.dll"), a JIT method
 *   ("Namespace.Method") or "?"; "" for the root
 * @total: the weight of the stacks that pass through this node (the root:
 *   of every stack); in the tree's unit (etl_stack_tree_get_unit()):
 *   samples, or 100-ns ticks
 * @self: the weight of the stacks whose innermost frame is this node
 * @parent: the caller's node, %ETL_STACK_TREE_NONE for the root
 * @first_child: the first callee, %ETL_STACK_TREE_NONE when none
 * @next_sibling: the parent's next callee, %ETL_STACK_TREE_NONE when last
 * @depth: 0 for the root, 1 for the outermost frame groups
 *
 * One node of an #EtlStackTree.  Children are ordered by name, as in a
 * flame graph.
 */
typedef struct
{
  const char *name;
  guint64 total;
  guint64 self;
  guint parent;
  guint first_child;
  guint next_sibling;
  guint depth;
} EtlStackTreeNode;

/**
 * EtlStackTreeUnit:
 * @ETL_STACK_TREE_UNIT_SAMPLES: node weights count samples
 *   (etl_stack_tree_new())
 * @ETL_STACK_TREE_UNIT_TICKS: node weights are durations in 100-ns ticks
 *   (etl_thread_time_tree_new())
 *
 * What the @total and @self of an #EtlStackTreeNode count.
 */
typedef enum
{
  ETL_STACK_TREE_UNIT_SAMPLES,
  ETL_STACK_TREE_UNIT_TICKS,
} EtlStackTreeUnit;

/**
 * EtlStackTreeSpan:
 * @tid: a ThreadId
 * @start: FILETIME, inclusive
 * @stop: FILETIME, exclusive
 *
 * A thread's time, for etl_stack_tree_new_for_threads().
 */
typedef struct
{
  guint32 tid;
  gint64 start;
  gint64 stop;
} EtlStackTreeSpan;

typedef struct _EtlStackTree EtlStackTree;

EtlStackTree *etl_stack_tree_new (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                                  GCancellable *cancellable, GError **error);
EtlStackTree *etl_stack_tree_new_for_threads (EtlStacks *stacks, const EtlStackTreeSpan *spans, guint n_spans,
                                              GCancellable *cancellable, GError **error);
void etl_stack_tree_free (EtlStackTree *tree);
const EtlStackTreeNode *etl_stack_tree_get_nodes (EtlStackTree *tree, guint *n_nodes);
guint etl_stack_tree_get_max_depth (EtlStackTree *tree);
EtlStackTreeUnit etl_stack_tree_get_unit (EtlStackTree *tree);
guint etl_stack_tree_find_child (EtlStackTree *tree, guint node, const char *name);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlStackTree, etl_stack_tree_free)

G_END_DECLS
