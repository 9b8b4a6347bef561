/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "etl-call-samples.h"
#include "etl-stack-tree.h"

G_BEGIN_DECLS

/* The name of the root, and of the caller of an outermost frame in a
 * butterfly (PerfView's). */
#define ETL_CALL_TREE_ROOT "ROOT"

/**
 * EtlCallTreeOptions:
 * @group_by_module: name every frame `module!function` (and a module
 *   without symbols, `module.dll`) `module!*`, consecutive frames of one
 *   module then being one frame
 * @fold_percent: fold away every function whose By Name inclusive weight is
 *   below this % of the total (0 for none): its frames leave the stacks,
 *   their weight going to the caller
 * @include: (nullable) (array zero-terminated=1): keep only the samples
 *   that have a frame matching one of these patterns (%NULL or empty: all)
 * @exclude: (nullable) (array zero-terminated=1): drop the samples that
 *   have a frame matching one of these patterns
 *
 * How etl_call_tree_new() transforms the samples before adding them up,
 * in PerfView's order: grouping, then folding, then the include and
 * exclude filters over the grouped and folded frames.  A pattern with `*`
 * or `?` is a glob over the whole frame name (g_pattern_match_simple());
 * any other pattern is a frame name, matched exactly (PerfView's IncPats
 * and ExcPats are regular expressions matched anywhere in the name: the
 * simplification keeps "exclude this function" from a context menu from
 * also taking every name that contains it).
 */
typedef struct
{
  gboolean group_by_module;
  double fold_percent;
  const char *const *include;
  const char *const *exclude;
} EtlCallTreeOptions;

/**
 * EtlCallNode:
 * @name: the frame; %ETL_CALL_TREE_ROOT for the root
 * @inclusive: the weight of the samples through this node
 * @exclusive: the weight of those that end in it
 * @first: FILETIME of its first sample (G_MAXINT64 when it has none)
 * @last: FILETIME of its last sample (G_MININT64 when it has none)
 * @parent: the caller's node; %ETL_STACK_TREE_NONE for the root
 * @first_child: the heaviest callee; %ETL_STACK_TREE_NONE when none
 * @next_sibling: the parent's next callee, by @inclusive descending then
 *   name; %ETL_STACK_TREE_NONE when last
 * @depth: 0 for the root
 *
 * One node of the top-down call tree (PerfView's CallTree view).
 */
typedef struct
{
  const char *name;
  guint64 inclusive;
  guint64 exclusive;
  gint64 first;
  gint64 last;
  guint parent;
  guint first_child;
  guint next_sibling;
  guint depth;
} EtlCallNode;

/**
 * EtlCallFunction:
 * @name: a frame name
 * @inclusive: the weight of the samples with it anywhere in their stack,
 *   each sample counted once however often the frame recurs
 * @exclusive: the weight of the samples that end in it
 * @first: FILETIME of the first of those samples
 * @last: FILETIME of the last
 *
 * One row of the By Name view, or of a butterfly's callers or callees.
 */
typedef struct
{
  const char *name;
  guint64 inclusive;
  guint64 exclusive;
  gint64 first;
  gint64 last;
} EtlCallFunction;

/**
 * EtlCallButterfly:
 * @focus: the function's By Name row
 * @callers: (element-type EtlCallFunction): who called its deepest
 *   instance, by @inclusive descending; %ETL_CALL_TREE_ROOT when that
 *   instance is the outermost frame.  Their @inclusive values add up to
 *   @focus's; their @exclusive is 0.
 * @callees: (element-type EtlCallFunction): what its deepest instance
 *   called, by @inclusive descending; @exclusive is the weight that ended
 *   in the callee.  Their @inclusive values plus @focus's @exclusive add up
 *   to @focus's @inclusive.
 *
 * The Callers/Callees view of one function (etl_call_tree_butterfly()).
 */
typedef struct
{
  EtlCallFunction focus;
  GArray *callers;
  GArray *callees;
} EtlCallButterfly;

typedef struct _EtlCallTree EtlCallTree;

EtlCallTree *etl_call_tree_new (EtlCallSamples *samples, const EtlCallTreeOptions *options,
                                GCancellable *cancellable, GError **error);
void etl_call_tree_free (EtlCallTree *tree);
EtlStackTreeUnit etl_call_tree_get_unit (EtlCallTree *tree);
guint64 etl_call_tree_get_total (EtlCallTree *tree);
guint64 etl_call_tree_get_filtered (EtlCallTree *tree);
const EtlCallNode *etl_call_tree_get_nodes (EtlCallTree *tree, guint *n_nodes);
const EtlCallFunction *etl_call_tree_get_by_name (EtlCallTree *tree, guint *n_functions);
const EtlCallFunction *etl_call_tree_find_function (EtlCallTree *tree, const char *name);
EtlCallButterfly *etl_call_tree_butterfly (EtlCallTree *tree, const char *name);
void etl_call_butterfly_free (EtlCallButterfly *butterfly);
EtlStackTree *etl_call_tree_to_stack_tree (EtlCallTree *tree);
char *etl_call_tree_group_name (const char *frame);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlCallTree, etl_call_tree_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlCallButterfly, etl_call_butterfly_free)

G_END_DECLS
