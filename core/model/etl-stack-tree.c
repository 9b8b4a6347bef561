/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-stack-tree
 * @title: EtlStackTree
 * @short_description: the call tree of the sample stacks in a time range
 *
 * The PerfInfo SampledProfile records of a range that have a stack
 * (etl_stacks_compute()), merged into one tree from the outermost frame
 * (the thread's start) to the innermost (where the sample hit), as a flame
 * graph draws it.  Without symbol files a frame is named by its group, as
 * etl_stacks_summarize() counts them: the module it lies in (the offset
 * dropped, so that the return addresses of one module merge), the .NET JIT
 * method, or "?"; consecutive frames of one group are one node (a module
 * calling itself).  Each node counts the samples that pass through it
 * (total) and those that end in it (self).
 *
 * The same tree carries weights other than sample counts: built from
 * weighted paths (etl-stack-tree-private.h), a node's total and self are the
 * sums of the weights of the paths through it and ending in it, in the unit
 * etl_stack_tree_get_unit() tells (100-ns ticks for the thread time of
 * etl_thread_time_tree_new()).
 *
 * Memory: one node per distinct path, names interned once.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <stdlib.h>
#include <string.h>

#include "etl-stack-tree-private.h"

#define HOOK_SAMPLED_PROFILE 0x0F2E
#define CANCEL_STEP 4096

struct _EtlStackTree
{
  GArray *nodes; /* EtlStackTreeNode; 0 is the root */
  GStringChunk *names;
  guint max_depth;
  EtlStackTreeUnit unit;
};

static EtlStackTree *build_tree (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                                 const EtlStackTreeSpan *spans, guint n_spans, GCancellable *cancellable,
                                 GError **error);

struct _EtlStackTreeBuilder
{
  EtlStackTree *tree;
  GHashTable *children; /* ChildKey → node index + 1 */
};

typedef struct
{
  guint parent;
  const char *name; /* interned: compared by pointer */
} ChildKey;

static guint
child_key_hash (gconstpointer p)
{
  const ChildKey *k = p;

  return k->parent * 2654435761u ^ g_direct_hash (k->name);
}

static gboolean
child_key_equal (gconstpointer a, gconstpointer b)
{
  const ChildKey *x = a, *y = b;

  return x->parent == y->parent && x->name == y->name;
}

/* The group of a symbolized frame: etl_stacks_symbolize() without the
 * offset: "ntdll.dll+0x455b" → "ntdll.dll", "ntdll.dll!RtlUserThreadStart"
 * when a namer knows it; a JIT method as it is; an address no image or
 * method holds → "?". */
static char *
frame_group (EtlStacks *stacks, guint32 pid, gint64 filetime, guint64 address)
{
  gboolean resolved = FALSE;
  char *name = etl_stacks_symbolize (stacks, pid, filetime, address, &resolved);
  char *plus;

  if (!resolved)
    {
      g_free (name);
      return g_strdup ("?");
    }
  plus = strstr (name, "+0x");
  if (plus != NULL && plus != name)
    *plus = '\0';
  return name;
}

static guint
add_child (EtlStackTree *tree, GHashTable *children, guint parent, const char *name)
{
  ChildKey key = { parent, name };
  gpointer found = g_hash_table_lookup (children, &key);
  EtlStackTreeNode node = { 0 };
  ChildKey *stored;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  node.name = name;
  node.parent = parent;
  node.first_child = ETL_STACK_TREE_NONE;
  node.next_sibling = ETL_STACK_TREE_NONE;
  node.depth = g_array_index (tree->nodes, EtlStackTreeNode, parent).depth + 1;
  tree->max_depth = MAX (tree->max_depth, node.depth);
  g_array_append_val (tree->nodes, node);
  stored = g_new (ChildKey, 1);
  *stored = key;
  g_hash_table_insert (children, stored, GUINT_TO_POINTER (tree->nodes->len));
  return tree->nodes->len - 1;
}

static int
cmp_by_parent_name (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlStackTreeNode *nodes = user_data;
  const EtlStackTreeNode *x = &nodes[*(const guint *) a], *y = &nodes[*(const guint *) b];
  int c;

  if (x->parent != y->parent)
    return x->parent < y->parent ? -1 : 1;
  c = strcmp (x->name, y->name);
  if (c != 0)
    return c;
  return *(const guint *) a < *(const guint *) b ? -1 : 1;
}

/* Links each node's children, ordered by name. */
static void
link_children (EtlStackTree *tree)
{
  EtlStackTreeNode *nodes = (EtlStackTreeNode *) tree->nodes->data;
  guint n = tree->nodes->len;
  g_autofree guint *order = g_new (guint, MAX (n, 1));

  for (guint i = 1; i < n; i++)
    order[i - 1] = i;
  g_qsort_with_data (order, (gint) (n - 1), sizeof (guint), cmp_by_parent_name, nodes);
  for (guint k = n - 1; k > 0; k--)
    {
      EtlStackTreeNode *child = &nodes[order[k - 1]];
      EtlStackTreeNode *parent = &nodes[child->parent];

      child->next_sibling = parent->first_child;
      parent->first_child = order[k - 1];
    }
}

/* Internal: a tree to fill with weighted paths, in @unit. */
EtlStackTreeBuilder *
etl_stack_tree_builder_new (EtlStackTreeUnit unit)
{
  EtlStackTreeBuilder *b = g_new0 (EtlStackTreeBuilder, 1);
  EtlStackTreeNode root = { "", 0, 0, ETL_STACK_TREE_NONE, ETL_STACK_TREE_NONE, ETL_STACK_TREE_NONE, 0 };

  b->tree = g_new0 (EtlStackTree, 1);
  b->tree->nodes = g_array_new (FALSE, FALSE, sizeof (EtlStackTreeNode));
  b->tree->names = g_string_chunk_new (4096);
  b->tree->unit = unit;
  g_array_append_val (b->tree->nodes, root);
  b->children = g_hash_table_new_full (child_key_hash, child_key_equal, g_free, NULL);
  return b;
}

/* Internal: @name's copy in the tree, the same pointer for equal names:
 * the names etl_stack_tree_builder_add() takes. */
const char *
etl_stack_tree_builder_intern (EtlStackTreeBuilder *builder, const char *name)
{
  return g_string_chunk_insert_const (builder->tree->names, name);
}

/* Internal: adds @weight to the root and to every node of @path
 * (@n_frames names from etl_stack_tree_builder_intern(), outermost first,
 * the nodes made when missing), and to the self of its last node. */
void
etl_stack_tree_builder_add (EtlStackTreeBuilder *builder, const char *const *path, guint n_frames, guint64 weight)
{
  EtlStackTree *tree = builder->tree;
  guint node = 0;

  g_array_index (tree->nodes, EtlStackTreeNode, 0).total += weight;
  for (guint k = 0; k < n_frames; k++)
    {
      node = add_child (tree, builder->children, node, path[k]);
      g_array_index (tree->nodes, EtlStackTreeNode, node).total += weight;
    }
  g_array_index (tree->nodes, EtlStackTreeNode, node).self += weight;
}

/* Internal: links the children and returns the tree (transfer full); frees
 * @builder. */
EtlStackTree *
etl_stack_tree_builder_finish (EtlStackTreeBuilder *builder)
{
  EtlStackTree *tree = g_steal_pointer (&builder->tree);

  link_children (tree);
  etl_stack_tree_builder_free (builder);
  return tree;
}

void
etl_stack_tree_builder_free (EtlStackTreeBuilder *builder)
{
  if (builder == NULL)
    return;
  etl_stack_tree_free (builder->tree);
  if (builder->children != NULL)
    g_hash_table_unref (builder->children);
  g_free (builder);
}

/**
 * etl_stack_tree_new:
 * @stacks: the trace's stacks
 * @from_filetime: start of the range, FILETIME, inclusive
 * @to_filetime: end of the range, FILETIME, exclusive
 * @cancellable: (nullable): checked every 4096 records
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * Builds the call tree of the SampledProfile stacks in the range (see the
 * section description), reading each sample and its stack records once, in
 * the calling thread (meant for a worker).  Frames are named with
 * etl_stacks_symbolize() (Image_Load records and the CLR method records),
 * innermost first in the StackWalk_Event record, so the tree is built from
 * the last frame to the first.  Its unit is %ETL_STACK_TREE_UNIT_SAMPLES.
 *
 * Returns: (transfer full) (nullable): the tree, %NULL when cancelled
 */
EtlStackTree *
etl_stack_tree_new (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime, GCancellable *cancellable,
                    GError **error)
{
  g_return_val_if_fail (stacks != NULL, NULL);
  return build_tree (stacks, from_filetime, to_filetime, NULL, 0, cancellable, error);
}

/* Internal (etl-stack-tree-private.h): the thread a PERFINFO
 * SampledProfile record ran on, its ThreadId (PerfInfo_SampledProfile: the
 * pointer-sized InstructionPointer, then ThreadId, 32 bits).  FALSE for
 * other records and for a payload too short to hold it. */
gboolean
etl_stack_tree_sample_thread (guint8 header_type, guint16 hook_id, const guint8 *user_data, gsize user_data_len,
                              guint32 *tid)
{
  gsize ptr;
  guint32 v;

  if (hook_id != HOOK_SAMPLED_PROFILE
      || (header_type != ETL_HEADER_TYPE_PERFINFO64 && header_type != ETL_HEADER_TYPE_PERFINFO32))
    return FALSE;
  ptr = header_type == ETL_HEADER_TYPE_PERFINFO32 ? 4 : 8;
  if (user_data == NULL || user_data_len < ptr + 4)
    return FALSE;
  memcpy (&v, user_data + ptr, 4);
  *tid = GUINT32_FROM_LE (v);
  return TRUE;
}

/* Internal: whether time @t of thread @tid lies in one of @spans (as
 * etl_stack_tree_merge_spans() leaves them: sorted by @tid, then @start;
 * those of one thread disjoint).  O(log n_spans). */
gboolean
etl_stack_tree_spans_contain (const EtlStackTreeSpan *spans, guint n_spans, guint32 tid, gint64 t)
{
  guint lo = 0, hi = n_spans;

  /* The last span with (tid, start) ≤ (@tid, @t). */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (spans[mid].tid < tid || (spans[mid].tid == tid && spans[mid].start <= t))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 && spans[lo - 1].tid == tid && t < spans[lo - 1].stop;
}

static int
cmp_span (gconstpointer a, gconstpointer b)
{
  const EtlStackTreeSpan *x = a, *y = b;

  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* Internal: sorts @spans by thread, then start, and merges in place those
 * of one thread that overlap or touch, so that a time of a thread lies in
 * at most one.  Empty spans (@stop ≤ @start) are dropped.  @from and @to
 * (optional) get the earliest start and the latest stop (G_MAXINT64 and
 * G_MININT64 when none is left).  Returns the number left. */
guint
etl_stack_tree_merge_spans (EtlStackTreeSpan *spans, guint n_spans, gint64 *from, gint64 *to)
{
  gint64 lo = G_MAXINT64, hi = G_MININT64;
  guint n = 0;

  if (n_spans > 0)
    qsort (spans, n_spans, sizeof *spans, cmp_span);
  for (guint i = 0; i < n_spans; i++)
    {
      if (spans[i].stop <= spans[i].start)
        continue;
      if (n > 0 && spans[n - 1].tid == spans[i].tid && spans[i].start <= spans[n - 1].stop)
        spans[n - 1].stop = MAX (spans[n - 1].stop, spans[i].stop);
      else
        spans[n++] = spans[i];
      lo = MIN (lo, spans[i].start);
      hi = MAX (hi, spans[i].stop);
    }
  if (from != NULL)
    *from = lo;
  if (to != NULL)
    *to = hi;
  return n;
}

/* Internal (etl-stack-tree-private.h): the sample walk shared with
 * etl_call_samples_new_cpu(); see there. */
gboolean
etl_stack_tree_walk_samples (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                             const EtlStackTreeSpan *spans, guint n_spans, const EtlStackWalkFuncs *funcs,
                             gpointer data, GCancellable *cancellable, GError **error)
{
  EtlTrace *trace = etl_stacks_get_trace (stacks);
  guint64 first = etl_trace_lower_bound (trace, from_filetime);
  guint64 last = etl_trace_lower_bound (trace, to_filetime);

  for (guint64 i = first; i < last; i++)
    {
      g_auto (EtlRecord) rec = { 0 };
      g_autoptr (GArray) frames = NULL;
      guint32 pid = 0;

      if ((i - first) % CANCEL_STEP == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!etl_stacks_has_stack (stacks, i))
        continue;
      if (!etl_trace_get_record (trace, i, &rec, NULL) || rec.hook_id != HOOK_SAMPLED_PROFILE
          || (rec.header_type != ETL_HEADER_TYPE_PERFINFO64 && rec.header_type != ETL_HEADER_TYPE_PERFINFO32))
        continue;
      if (spans != NULL)
        {
          guint32 tid;

          if (!etl_stack_tree_sample_thread (rec.header_type, rec.hook_id, rec.user_data, rec.user_data_len, &tid)
              || !etl_stack_tree_spans_contain (spans, n_spans, tid, rec.filetime))
            continue;
        }
      frames = etl_stacks_get_frames (stacks, i, &pid);
      if (frames == NULL || frames->len == 0)
        continue;

      /* StackWalk_Event's Stack[] is innermost first: named outermost first. */
      for (guint f = MIN (frames->len, ETL_STACKS_MAX_FRAMES); f > 0; f--)
        {
          g_autofree char *name = frame_group (stacks, pid, rec.filetime, g_array_index (frames, guint64, f - 1));

          funcs->frame (data, name);
        }
      funcs->sample (data, rec.filetime);
    }
  return TRUE;
}

typedef struct
{
  EtlStackTreeBuilder *builder;
  GPtrArray *path;
} TreeWalk;

/* One node per run of frames of one group. */
static void
add_tree_frame (gpointer data, const char *group)
{
  TreeWalk *w = data;
  const char *name = etl_stack_tree_builder_intern (w->builder, group);

  if (w->path->len == 0 || g_ptr_array_index (w->path, w->path->len - 1) != name)
    g_ptr_array_add (w->path, (gpointer) name);
}

static void
add_tree_sample (gpointer data, gint64 filetime)
{
  TreeWalk *w = data;

  etl_stack_tree_builder_add (w->builder, (const char *const *) w->path->pdata, w->path->len, 1);
  g_ptr_array_set_size (w->path, 0);
}

static EtlStackTree *
build_tree (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime, const EtlStackTreeSpan *spans,
            guint n_spans, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlStackTreeBuilder) b = etl_stack_tree_builder_new (ETL_STACK_TREE_UNIT_SAMPLES);
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  TreeWalk walk = { b, path };
  const EtlStackWalkFuncs funcs = { add_tree_frame, add_tree_sample };

  if (!etl_stack_tree_walk_samples (stacks, from_filetime, to_filetime, spans, n_spans, &funcs, &walk, cancellable,
                                    error))
    return NULL;
  return etl_stack_tree_builder_finish (g_steal_pointer (&b));
}

/**
 * etl_stack_tree_new_for_threads:
 * @stacks: the trace's stacks
 * @spans: (array length=n_spans): threads and times: a sample counts when
 *   its SampledProfile ThreadId is a span's @tid and its time lies in
 *   [@start, @stop) of that span (spans may overlap; they are merged)
 * @n_spans: their number
 * @cancellable: (nullable): checked every 4096 records
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * The call tree (as etl_stack_tree_new()) of the samples that ran on the
 * spans' threads within their times: the CPU work of a set of activities
 * or regions (the Regions view's selected instances).  The records from
 * the earliest @start to the latest @stop are read once.
 *
 * Returns: (transfer full) (nullable): the tree, %NULL when cancelled
 */
EtlStackTree *
etl_stack_tree_new_for_threads (EtlStacks *stacks, const EtlStackTreeSpan *spans, guint n_spans,
                                GCancellable *cancellable, GError **error)
{
  g_autofree EtlStackTreeSpan *merged = NULL;
  guint n;
  gint64 from, to;

  g_return_val_if_fail (stacks != NULL, NULL);
  g_return_val_if_fail (spans != NULL || n_spans == 0, NULL);
  if (n_spans == 0)
    return build_tree (stacks, 0, 0, NULL, 0, cancellable, error);
  merged = g_memdup2 (spans, (gsize) n_spans * sizeof *spans);
  n = etl_stack_tree_merge_spans (merged, n_spans, &from, &to);
  if (n == 0)
    return build_tree (stacks, 0, 0, NULL, 0, cancellable, error);
  return build_tree (stacks, from, to, merged, n, cancellable, error);
}

/**
 * etl_stack_tree_free:
 * @tree: (transfer full) (nullable): a tree
 *
 * Frees @tree and its names.
 */
void
etl_stack_tree_free (EtlStackTree *tree)
{
  if (tree == NULL)
    return;
  if (tree->nodes != NULL)
    g_array_unref (tree->nodes);
  if (tree->names != NULL)
    g_string_chunk_free (tree->names);
  g_free (tree);
}

/**
 * etl_stack_tree_get_nodes:
 * @tree: a tree
 * @n_nodes: (out): the number of nodes, at least 1 (the root)
 *
 * Returns: (transfer none) (array length=n_nodes): the nodes; node 0 is the
 *   root
 */
const EtlStackTreeNode *
etl_stack_tree_get_nodes (EtlStackTree *tree, guint *n_nodes)
{
  g_return_val_if_fail (tree != NULL && n_nodes != NULL, NULL);
  *n_nodes = tree->nodes->len;
  return (const EtlStackTreeNode *) tree->nodes->data;
}

/**
 * etl_stack_tree_get_max_depth:
 * @tree: a tree
 *
 * Returns: the depth of the deepest node (0 when no sample had a stack)
 */
guint
etl_stack_tree_get_max_depth (EtlStackTree *tree)
{
  g_return_val_if_fail (tree != NULL, 0);
  return tree->max_depth;
}

/**
 * etl_stack_tree_get_unit:
 * @tree: a tree
 *
 * What the weights of @tree's nodes count: samples (etl_stack_tree_new()) or
 * 100-ns ticks (etl_thread_time_tree_new()), for a view to label them.
 *
 * Returns: the unit of #EtlStackTreeNode's @total and @self
 */
EtlStackTreeUnit
etl_stack_tree_get_unit (EtlStackTree *tree)
{
  g_return_val_if_fail (tree != NULL, ETL_STACK_TREE_UNIT_SAMPLES);
  return tree->unit;
}

/**
 * etl_stack_tree_find_child:
 * @tree: a tree
 * @node: a node index
 * @name: a frame group
 *
 * Returns: the child of @node named @name, or %ETL_STACK_TREE_NONE
 */
guint
etl_stack_tree_find_child (EtlStackTree *tree, guint node, const char *name)
{
  const EtlStackTreeNode *nodes;

  g_return_val_if_fail (tree != NULL && name != NULL, ETL_STACK_TREE_NONE);
  if (node >= tree->nodes->len)
    return ETL_STACK_TREE_NONE;
  nodes = (const EtlStackTreeNode *) tree->nodes->data;
  for (guint c = nodes[node].first_child; c != ETL_STACK_TREE_NONE; c = nodes[c].next_sibling)
    if (strcmp (nodes[c].name, name) == 0)
      return c;
  return ETL_STACK_TREE_NONE;
}
