/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-stack-tree.h"

G_BEGIN_DECLS

/* Building a tree from weighted paths (etl-stack-tree.c): new, add paths
 * (outermost frame first, names copied and interned), then finish (links
 * the children by name) before handing it out. */
typedef struct _EtlStackTreeBuilder EtlStackTreeBuilder;

EtlStackTreeBuilder *etl_stack_tree_builder_new (EtlStackTreeUnit unit);
const char *etl_stack_tree_builder_intern (EtlStackTreeBuilder *builder, const char *name);
void etl_stack_tree_builder_add (EtlStackTreeBuilder *builder, const char *const *path, guint n_frames,
                                 guint64 weight);
EtlStackTree *etl_stack_tree_builder_finish (EtlStackTreeBuilder *builder);
void etl_stack_tree_builder_free (EtlStackTreeBuilder *builder);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlStackTreeBuilder, etl_stack_tree_builder_free)

/* Which samples count for a set of threads' times (etl-stack-tree.c):
 * etl_stack_tree_new_for_threads() uses the three; etl_thread_rows_new()
 * reads a sample's thread and merges the spans with the first two, so that
 * "Summary of these" counts the samples the Regions view's flame graph
 * counts. */
gboolean etl_stack_tree_sample_thread (guint8 header_type, guint16 hook_id, const guint8 *user_data,
                                       gsize user_data_len, guint32 *tid);
guint etl_stack_tree_merge_spans (EtlStackTreeSpan *spans, guint n_spans, gint64 *from, gint64 *to);
gboolean etl_stack_tree_spans_contain (const EtlStackTreeSpan *spans, guint n_spans, guint32 tid, gint64 t);

G_END_DECLS
