/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-call-tree
 * @title: EtlCallTree
 * @short_description: PerfView's stack views over weighted samples: By Name, Call Tree, Callers/Callees
 *
 * From an #EtlCallSamples (CPU samples: etl_call_samples_new_cpu(); thread
 * time: etl_thread_time_samples_new()) and an #EtlCallTreeOptions, the
 * views PerfView's stack viewer offers (its UsersGuide.htm, "Stack Viewer"),
 * all over the same transformed stacks:
 *
 * - **By Name** (bottom-up): per frame name, the exclusive weight (samples
 *   that end in it) and the inclusive weight (samples that have it anywhere,
 *   once per sample however deep it recurses), first and last time.
 * - **Call Tree** (top-down): one node per distinct path from the root,
 *   inclusive and exclusive, first and last time; callees heaviest first.
 * - **Callers/Callees** of one name (etl_call_tree_butterfly()).  For a
 *   recursive function the sample's *deepest* instance decides the caller
 *   and the callee: PerfView's UsersGuide.htm, "Handling of Recursion in
 *   the Caller and Callees view" ("if A calls B calls C calls B calls D, and
 *   the focus node was B, then this sample would have a caller of C (not A)
 *   and a callee of D").  (PerfView's combined Caller-Callee tab,
 *   TraceEvent's CallerCalleeNode in Stacks/CallTree.cs, instead splits such
 *   a sample 1/N over the N instances; the deepest-instance rule keeps
 *   integer weights and the same sums: callers add up to the focus's
 *   inclusive weight, callees plus its exclusive weight too.)
 * - The flame graph's #EtlStackTree of the same stacks
 *   (etl_call_tree_to_stack_tree()).
 *
 * The transformations, in PerfView's order (UsersGuide.htm, "Folding away
 * small nodes", "Filtering Stacks with Particular Frames", "Filtering any
 * Stacks that do not Include a Particular Frame": "The patterns are matched
 * AFTER grouping and folding"):
 *
 * 1. Grouping by module: etl_call_tree_group_name(); consecutive frames of
 *    one group become one frame.
 * 2. Folding: every name whose By Name inclusive weight (after grouping) is
 *    below fold_percent % of the total is removed from the stacks, its
 *    weight going to its direct caller (a sample whose frames all fold
 *    away ends at the root).
 * 3. Exclude, then include (#EtlCallTreeOptions): whole samples leave the
 *    view; etl_call_tree_get_filtered() says how much weight.  Grouping and
 *    folding keep the total, filtering lowers it; the percentages of a view
 *    are of etl_call_tree_get_total(), the weight left.
 *
 * Cost: a pass per transformation and per view over the distinct stacks of
 * the samples, not over the samples.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-call-tree.h"
#include "etl-stack-tree-private.h"

#define CANCEL_STEP 4096
#define DROP G_MAXUINT32
#define READIED_BY_SUFFIX " (READIED_BY)"

struct _EtlCallTree
{
  EtlCallSamples *samples; /* the transformed stacks */
  GArray *nodes;           /* EtlCallNode; 0 is the root */
  GArray *by_name;         /* EtlCallFunction, sorted */
  GHashTable *by_name_index; /* name → index in by_name + 1 */
  guint64 filtered;
};

/* u64 → u32 map, open addressing (the call tree's (parent, name) → node). */
typedef struct
{
  guint64 *keys;
  guint32 *values; /* value + 1; 0 when free */
  guint size;
  guint used;
} Map;

static guint
map_slot (guint64 key, guint size)
{
  key ^= key >> 29;
  key *= G_GUINT64_CONSTANT (0xBF58476D1CE4E5B9);
  key ^= key >> 32;
  return (guint) key & (size - 1);
}

static void map_put (Map *m, guint64 key, guint32 value);

static void
map_grow (Map *m)
{
  Map old = *m;

  m->size = MAX (old.size * 2, 1024);
  m->keys = g_new (guint64, m->size);
  m->values = g_new0 (guint32, m->size);
  m->used = 0;
  for (guint i = 0; i < old.size; i++)
    if (old.values[i] != 0)
      map_put (m, old.keys[i], old.values[i] - 1);
  g_free (old.keys);
  g_free (old.values);
}

static void
map_put (Map *m, guint64 key, guint32 value)
{
  guint slot;

  if ((m->used + 1) * 2 > m->size)
    map_grow (m);
  slot = map_slot (key, m->size);
  while (m->values[slot] != 0 && m->keys[slot] != key)
    slot = (slot + 1) & (m->size - 1);
  if (m->values[slot] == 0)
    m->used++;
  m->keys[slot] = key;
  m->values[slot] = value + 1;
}

static guint32
map_get (const Map *m, guint64 key)
{
  if (m->size == 0)
    return DROP;
  for (guint slot = map_slot (key, m->size); m->values[slot] != 0; slot = (slot + 1) & (m->size - 1))
    if (m->keys[slot] == key)
      return m->values[slot] - 1;
  return DROP;
}

static void
map_clear (Map *m)
{
  g_free (m->keys);
  g_free (m->values);
  memset (m, 0, sizeof *m);
}

static gboolean
is_module_file (const char *name, gsize len)
{
  static const char *const extensions[] = { ".dll", ".exe", ".sys", ".drv" };

  for (guint k = 0; k < G_N_ELEMENTS (extensions); k++)
    if (len > 4 && g_ascii_strncasecmp (name + len - 4, extensions[k], 4) == 0)
      return TRUE;
  return FALSE;
}

/**
 * etl_call_tree_group_name:
 * @frame: a frame name
 *
 * The module group of a frame, for %EtlCallTreeOptions.group_by_module:
 * `ntdll.dll!RtlUserThreadStart` → `ntdll.dll!*`; a module without symbols
 * (`ntdll.dll`, or `ntdll.dll+0x455b` as the thread-time stacks name
 * frames) → `ntdll.dll!*`; a thread-time waker frame keeps its
 * ` (READIED_BY)` suffix after the group.  Other frames (a .NET JIT method,
 * "?", the thread-time `Process …`, `Thread (…)` and pseudo-frames) stay as
 * they are.
 *
 * Returns: (transfer full): the group name
 */
char *
etl_call_tree_group_name (const char *frame)
{
  gsize len, suffix = 0;
  const char *bang, *plus;

  g_return_val_if_fail (frame != NULL, NULL);
  len = strlen (frame);
  if (g_str_has_suffix (frame, READIED_BY_SUFFIX))
    {
      suffix = strlen (READIED_BY_SUFFIX);
      len -= suffix;
    }
  bang = memchr (frame, '!', len);
  if (bang != NULL && bang != frame)
    len = (gsize) (bang - frame);
  else
    {
      plus = g_strstr_len (frame, (gssize) len, "+0x");
      if (plus != NULL && plus != frame)
        len = (gsize) (plus - frame);
      if (!is_module_file (frame, len))
        return g_strdup (frame);
    }
  return g_strdup_printf ("%.*s!*%s", (int) len, frame, suffix > 0 ? READIED_BY_SUFFIX : "");
}

static gboolean
matches (const char *name, const char *const *patterns)
{
  for (guint k = 0; patterns[k] != NULL; k++)
    {
      if (strpbrk (patterns[k], "*?") != NULL ? g_pattern_match_simple (patterns[k], name)
                                              : strcmp (patterns[k], name) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Stage 1: @in's stacks with each frame grouped (or copied), into a new
 * set. */
static EtlCallSamples *
group_stacks (EtlCallSamples *in, gboolean group, GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlCallSamples) out = etl_call_samples_new (etl_call_samples_get_unit (in));
  guint n_names = etl_call_samples_get_n_names (in);
  g_autofree guint32 *map = g_new (guint32, MAX (n_names, 1));
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 id = 0; id < n_names; id++)
    {
      const char *name = etl_call_samples_get_name (in, id);
      g_autofree char *grouped = group ? etl_call_tree_group_name (name) : NULL;

      map[id] = etl_call_samples_intern (out, grouped != NULL ? grouped : name);
    }
  for (guint i = 0; i < etl_call_samples_get_n_stacks (in); i++)
    {
      const guint32 *frames;
      const EtlCallStack *st = etl_call_samples_get_stack (in, i, &frames);

      if (i % CANCEL_STEP == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_array_set_size (path, 0);
      for (guint k = 0; k < st->n_frames; k++)
        {
          guint32 id = map[frames[k]];

          if (group && path->len > 0 && g_array_index (path, guint32, path->len - 1) == id)
            continue;
          g_array_append_val (path, id);
        }
      etl_call_samples_add_stack (out, (const guint32 *) path->data, path->len, st);
    }
  return g_steal_pointer (&out);
}

/* Per name of @s, the summed weight of the stacks that have it (once a
 * stack), and the first and last time; exclusive for the leaf names. */
static EtlCallFunction *
sum_by_name (EtlCallSamples *s)
{
  guint n_names = etl_call_samples_get_n_names (s);
  EtlCallFunction *f = g_new0 (EtlCallFunction, MAX (n_names, 1));
  g_autofree guint *stamp = g_new (guint, MAX (n_names, 1));

  for (guint32 id = 0; id < n_names; id++)
    {
      f[id].name = etl_call_samples_get_name (s, id);
      f[id].first = G_MAXINT64;
      f[id].last = G_MININT64;
      stamp[id] = G_MAXUINT;
    }
  for (guint i = 0; i < etl_call_samples_get_n_stacks (s); i++)
    {
      const guint32 *frames;
      const EtlCallStack *st = etl_call_samples_get_stack (s, i, &frames);

      for (guint k = 0; k < st->n_frames; k++)
        {
          EtlCallFunction *fn = &f[frames[k]];

          if (stamp[frames[k]] == i)
            continue;
          stamp[frames[k]] = i;
          fn->inclusive += st->weight;
          fn->first = MIN (fn->first, st->first);
          fn->last = MAX (fn->last, st->last);
        }
      if (st->n_frames > 0)
        f[frames[st->n_frames - 1]].exclusive += st->weight;
    }
  return f;
}

/* Stage 2: @in's stacks without the folded names, then filtered. */
static EtlCallSamples *
fold_and_filter (EtlCallSamples *in, const EtlCallTreeOptions *options, guint64 *filtered,
                 GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlCallSamples) out = etl_call_samples_new (etl_call_samples_get_unit (in));
  guint n_names = etl_call_samples_get_n_names (in);
  g_autofree guint32 *map = g_new (guint32, MAX (n_names, 1));
  g_autofree guint8 *flags = g_new0 (guint8, MAX (n_names, 1));
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree EtlCallFunction *sums = NULL;
  gboolean has_include = options->include != NULL && options->include[0] != NULL;
  gboolean has_exclude = options->exclude != NULL && options->exclude[0] != NULL;
  double total = (double) etl_call_samples_get_total (in);

  if (options->fold_percent > 0)
    sums = sum_by_name (in);
  for (guint32 id = 0; id < n_names; id++)
    {
      const char *name = etl_call_samples_get_name (in, id);

      if (sums != NULL && (double) sums[id].inclusive * 100.0 < options->fold_percent * total)
        {
          map[id] = DROP;
          continue;
        }
      map[id] = etl_call_samples_intern (out, name);
      if (has_include && matches (name, options->include))
        flags[id] |= 1;
      if (has_exclude && matches (name, options->exclude))
        flags[id] |= 2;
    }
  *filtered = 0;
  for (guint i = 0; i < etl_call_samples_get_n_stacks (in); i++)
    {
      const guint32 *frames;
      const EtlCallStack *st = etl_call_samples_get_stack (in, i, &frames);
      guint8 seen = 0;

      if (i % CANCEL_STEP == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      g_array_set_size (path, 0);
      for (guint k = 0; k < st->n_frames; k++)
        {
          guint32 id = map[frames[k]];

          if (id == DROP)
            continue;
          seen |= flags[frames[k]];
          /* A group folded away between two frames of one module. */
          if (options->group_by_module && path->len > 0 && g_array_index (path, guint32, path->len - 1) == id)
            continue;
          g_array_append_val (path, id);
        }
      if ((seen & 2) != 0 || (has_include && (seen & 1) == 0))
        {
          *filtered += st->weight;
          continue;
        }
      etl_call_samples_add_stack (out, (const guint32 *) path->data, path->len, st);
    }
  return g_steal_pointer (&out);
}

static int
cmp_siblings (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlCallNode *nodes = user_data;
  const EtlCallNode *x = &nodes[*(const guint *) a], *y = &nodes[*(const guint *) b];

  if (x->parent != y->parent)
    return x->parent < y->parent ? -1 : 1;
  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
build_nodes (EtlCallTree *tree)
{
  EtlCallSamples *s = tree->samples;
  EtlCallNode root = { ETL_CALL_TREE_ROOT, 0, 0, G_MAXINT64, G_MININT64, ETL_STACK_TREE_NONE,
                       ETL_STACK_TREE_NONE, ETL_STACK_TREE_NONE, 0 };
  Map children = { 0 };
  EtlCallNode *nodes;
  guint n;
  g_autofree guint *order = NULL;

  tree->nodes = g_array_new (FALSE, FALSE, sizeof (EtlCallNode));
  g_array_append_val (tree->nodes, root);
  for (guint i = 0; i < etl_call_samples_get_n_stacks (s); i++)
    {
      const guint32 *frames;
      const EtlCallStack *st = etl_call_samples_get_stack (s, i, &frames);
      guint node = 0;
      EtlCallNode *nd = &g_array_index (tree->nodes, EtlCallNode, 0);

      nd->inclusive += st->weight;
      nd->first = MIN (nd->first, st->first);
      nd->last = MAX (nd->last, st->last);
      for (guint k = 0; k < st->n_frames; k++)
        {
          guint64 key = ((guint64) node << 32) | frames[k];
          guint32 child = map_get (&children, key);

          if (child == DROP)
            {
              EtlCallNode c = { etl_call_samples_get_name (s, frames[k]), 0, 0, G_MAXINT64, G_MININT64, node,
                                ETL_STACK_TREE_NONE, ETL_STACK_TREE_NONE, k + 1 };

              g_array_append_val (tree->nodes, c);
              child = tree->nodes->len - 1;
              map_put (&children, key, child);
            }
          node = child;
          nd = &g_array_index (tree->nodes, EtlCallNode, node);
          nd->inclusive += st->weight;
          nd->first = MIN (nd->first, st->first);
          nd->last = MAX (nd->last, st->last);
        }
      g_array_index (tree->nodes, EtlCallNode, node).exclusive += st->weight;
    }
  map_clear (&children);

  /* Link each node's callees, heaviest first. */
  nodes = (EtlCallNode *) tree->nodes->data;
  n = tree->nodes->len;
  order = g_new (guint, MAX (n, 1));
  for (guint i = 1; i < n; i++)
    order[i - 1] = i;
  g_qsort_with_data (order, (gint) (n - 1), sizeof (guint), cmp_siblings, nodes);
  for (guint k = n - 1; k > 0; k--)
    {
      EtlCallNode *child = &nodes[order[k - 1]];

      child->next_sibling = nodes[child->parent].first_child;
      nodes[child->parent].first_child = order[k - 1];
    }
}

static int
cmp_functions (gconstpointer a, gconstpointer b)
{
  const EtlCallFunction *x = a, *y = b;

  if (x->exclusive != y->exclusive)
    return x->exclusive > y->exclusive ? -1 : 1;
  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
build_by_name (EtlCallTree *tree)
{
  guint n = etl_call_samples_get_n_names (tree->samples);
  g_autofree EtlCallFunction *sums = sum_by_name (tree->samples);

  tree->by_name = g_array_sized_new (FALSE, FALSE, sizeof (EtlCallFunction), n);
  for (guint id = 0; id < n; id++)
    if (sums[id].inclusive > 0 || sums[id].first != G_MAXINT64)
      g_array_append_val (tree->by_name, sums[id]);
  g_array_sort (tree->by_name, cmp_functions);
  tree->by_name_index = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < tree->by_name->len; i++)
    g_hash_table_insert (tree->by_name_index, (gpointer) g_array_index (tree->by_name, EtlCallFunction, i).name,
                         GUINT_TO_POINTER (i + 1));
}

/**
 * etl_call_tree_new:
 * @samples: the samples (not kept: the tree copies what it needs)
 * @options: (nullable): grouping, folding and filters; %NULL for none
 * @cancellable: (nullable): checked every 4096 distinct stacks
 * @error: return location for %G_IO_ERROR_CANCELLED
 *
 * Transforms the samples as the section description says and computes the
 * By Name rows and the top-down tree.  Runs in the calling thread (meant for
 * a worker); the cost is a few passes over the distinct stacks.
 *
 * Returns: (transfer full) (nullable): the views, %NULL when cancelled
 */
EtlCallTree *
etl_call_tree_new (EtlCallSamples *samples, const EtlCallTreeOptions *options, GCancellable *cancellable,
                   GError **error)
{
  static const EtlCallTreeOptions none = { 0 };
  g_autoptr (EtlCallSamples) grouped = NULL;
  g_autoptr (EtlCallTree) tree = NULL;

  g_return_val_if_fail (samples != NULL, NULL);
  if (options == NULL)
    options = &none;

  tree = g_new0 (EtlCallTree, 1);
  grouped = group_stacks (samples, options->group_by_module, cancellable, error);
  if (grouped == NULL)
    return NULL;
  tree->samples = fold_and_filter (grouped, options, &tree->filtered, cancellable, error);
  if (tree->samples == NULL)
    return NULL;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  build_nodes (tree);
  build_by_name (tree);
  return g_steal_pointer (&tree);
}

/**
 * etl_call_tree_free:
 * @tree: (transfer full) (nullable): a call tree
 */
void
etl_call_tree_free (EtlCallTree *tree)
{
  if (tree == NULL)
    return;
  g_clear_pointer (&tree->by_name_index, g_hash_table_unref);
  g_clear_pointer (&tree->by_name, g_array_unref);
  g_clear_pointer (&tree->nodes, g_array_unref);
  g_clear_pointer (&tree->samples, etl_call_samples_unref);
  g_free (tree);
}

/**
 * etl_call_tree_get_unit:
 * @tree: a call tree
 *
 * Returns: what the weights count (the samples')
 */
EtlStackTreeUnit
etl_call_tree_get_unit (EtlCallTree *tree)
{
  g_return_val_if_fail (tree != NULL, ETL_STACK_TREE_UNIT_SAMPLES);
  return etl_call_samples_get_unit (tree->samples);
}

/**
 * etl_call_tree_get_total:
 * @tree: a call tree
 *
 * Returns: the weight of the samples in the views (after the filters): the
 *   root's inclusive weight, the 100 % of the percentages
 */
guint64
etl_call_tree_get_total (EtlCallTree *tree)
{
  g_return_val_if_fail (tree != NULL, 0);
  return etl_call_samples_get_total (tree->samples);
}

/**
 * etl_call_tree_get_filtered:
 * @tree: a call tree
 *
 * Returns: the weight of the samples the include and exclude patterns took
 *   out of the views
 */
guint64
etl_call_tree_get_filtered (EtlCallTree *tree)
{
  g_return_val_if_fail (tree != NULL, 0);
  return tree->filtered;
}

/**
 * etl_call_tree_get_nodes:
 * @tree: a call tree
 * @n_nodes: (out): the number of nodes, at least 1
 *
 * Returns: (transfer none) (array length=n_nodes): the top-down tree; node
 *   0 is the root (%ETL_CALL_TREE_ROOT)
 */
const EtlCallNode *
etl_call_tree_get_nodes (EtlCallTree *tree, guint *n_nodes)
{
  g_return_val_if_fail (tree != NULL && n_nodes != NULL, NULL);
  *n_nodes = tree->nodes->len;
  return (const EtlCallNode *) tree->nodes->data;
}

/**
 * etl_call_tree_get_by_name:
 * @tree: a call tree
 * @n_functions: (out): the number of rows
 *
 * Returns: (transfer none) (array length=n_functions): the By Name rows,
 *   by exclusive then inclusive weight descending, then name
 */
const EtlCallFunction *
etl_call_tree_get_by_name (EtlCallTree *tree, guint *n_functions)
{
  g_return_val_if_fail (tree != NULL && n_functions != NULL, NULL);
  *n_functions = tree->by_name->len;
  return (const EtlCallFunction *) tree->by_name->data;
}

/**
 * etl_call_tree_find_function:
 * @tree: a call tree
 * @name: a frame name (after grouping)
 *
 * Returns: (transfer none) (nullable): its By Name row, %NULL when no
 *   sample of the views has it
 */
const EtlCallFunction *
etl_call_tree_find_function (EtlCallTree *tree, const char *name)
{
  guint i;

  g_return_val_if_fail (tree != NULL && name != NULL, NULL);
  i = GPOINTER_TO_UINT (g_hash_table_lookup (tree->by_name_index, name));
  return i == 0 ? NULL : &g_array_index (tree->by_name, EtlCallFunction, i - 1);
}

static void
accumulate (GHashTable *rows, const char *name, const EtlCallStack *st, gboolean leaf)
{
  EtlCallFunction *row = g_hash_table_lookup (rows, name);

  if (row == NULL)
    {
      row = g_new0 (EtlCallFunction, 1);
      row->name = name;
      row->first = G_MAXINT64;
      row->last = G_MININT64;
      g_hash_table_insert (rows, (gpointer) name, row);
    }
  row->inclusive += st->weight;
  if (leaf)
    row->exclusive += st->weight;
  row->first = MIN (row->first, st->first);
  row->last = MAX (row->last, st->last);
}

static int
cmp_inclusive (gconstpointer a, gconstpointer b)
{
  const EtlCallFunction *x = a, *y = b;

  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return strcmp (x->name, y->name);
}

static GArray *
sorted_rows (GHashTable *rows)
{
  GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (EtlCallFunction), g_hash_table_size (rows));
  GHashTableIter it;
  gpointer value;

  g_hash_table_iter_init (&it, rows);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_array_append_vals (a, value, 1);
  g_array_sort (a, cmp_inclusive);
  return a;
}

/**
 * etl_call_tree_butterfly:
 * @tree: a call tree
 * @name: a frame name of the views (after grouping)
 *
 * The Callers/Callees view of @name: over the samples that have it, who
 * called and what was called by its deepest instance (the rule and its
 * source are in the section description).  One pass over the distinct
 * stacks.
 *
 * Returns: (transfer full) (nullable): the view, %NULL when no sample has
 *   @name
 */
EtlCallButterfly *
etl_call_tree_butterfly (EtlCallTree *tree, const char *name)
{
  const EtlCallFunction *focus;
  g_autoptr (GHashTable) callers = NULL, callees = NULL;
  EtlCallButterfly *b;

  g_return_val_if_fail (tree != NULL && name != NULL, NULL);
  focus = etl_call_tree_find_function (tree, name);
  if (focus == NULL)
    return NULL;
  callers = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  callees = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  for (guint i = 0; i < etl_call_samples_get_n_stacks (tree->samples); i++)
    {
      const guint32 *frames;
      const EtlCallStack *st = etl_call_samples_get_stack (tree->samples, i, &frames);
      guint k = st->n_frames;

      /* The deepest instance: the innermost frame of that name (names are
       * interned, so equal names are equal pointers). */
      while (k > 0 && etl_call_samples_get_name (tree->samples, frames[k - 1]) != focus->name)
        k--;
      if (k == 0)
        continue;
      k--;
      accumulate (callers, k > 0 ? etl_call_samples_get_name (tree->samples, frames[k - 1]) : ETL_CALL_TREE_ROOT,
                  st, FALSE);
      if (k + 1 < st->n_frames)
        accumulate (callees, etl_call_samples_get_name (tree->samples, frames[k + 1]), st, k + 2 == st->n_frames);
    }
  b = g_new0 (EtlCallButterfly, 1);
  b->focus = *focus;
  b->callers = sorted_rows (callers);
  b->callees = sorted_rows (callees);
  return b;
}

/**
 * etl_call_butterfly_free:
 * @butterfly: (transfer full) (nullable): a Callers/Callees view
 */
void
etl_call_butterfly_free (EtlCallButterfly *butterfly)
{
  if (butterfly == NULL)
    return;
  g_array_unref (butterfly->callers);
  g_array_unref (butterfly->callees);
  g_free (butterfly);
}

/**
 * etl_call_tree_to_stack_tree:
 * @tree: a call tree
 *
 * The flame graph's tree of the same transformed stacks (grouped, folded,
 * filtered), children by name as #EtlStackTree orders them, in the same
 * unit.
 *
 * Returns: (transfer full): the tree
 */
EtlStackTree *
etl_call_tree_to_stack_tree (EtlCallTree *tree)
{
  g_autoptr (EtlStackTreeBuilder) b = NULL;
  g_autoptr (GPtrArray) path = g_ptr_array_new ();
  EtlCallSamples *s;
  guint n_names;
  g_autofree const char **names = NULL;

  g_return_val_if_fail (tree != NULL, NULL);
  s = tree->samples;
  b = etl_stack_tree_builder_new (etl_call_samples_get_unit (s));
  n_names = etl_call_samples_get_n_names (s);
  names = g_new (const char *, MAX (n_names, 1));
  for (guint32 id = 0; id < n_names; id++)
    names[id] = etl_stack_tree_builder_intern (b, etl_call_samples_get_name (s, id));
  for (guint i = 0; i < etl_call_samples_get_n_stacks (s); i++)
    {
      const guint32 *frames;
      const EtlCallStack *st = etl_call_samples_get_stack (s, i, &frames);

      g_ptr_array_set_size (path, 0);
      for (guint k = 0; k < st->n_frames; k++)
        g_ptr_array_add (path, (gpointer) names[frames[k]]);
      etl_stack_tree_builder_add (b, (const char *const *) path->pdata, path->len, st->weight);
    }
  return etl_stack_tree_builder_finish (g_steal_pointer (&b));
}
