/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-merge.c: the k-way merge of an #EtlTrace's record streams.
 *
 * Each (file, processor) stream is in time order; a loser tree merges them
 * by (FILETIME, buffer, offset) into the trace's index.  The serial walk
 * (merge_serial()) merges record by record as the scan's cursors advance;
 * the parallel open (etl_trace_merge_parallel()) runs the scan on worker
 * threads, cuts the merged sequence into key ranges and merges each range
 * into its slice of the index on its own thread.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-open-private.h"

#include <string.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

/* ------------------------------------------------------------------------ */
/* Merge                                                                    */

/*
 * Asks for transparent huge pages on the index:
 * for a gigabyte trace it is hundreds of MiB written once, front to back, and
 * faulting it in 4 KiB pages costs about a third of the open time.  Only the
 * pages written become resident, as before.
 */
static void
index_advise (void *p, gsize len)
{
#if defined(G_OS_UNIX) && defined(MADV_HUGEPAGE)
  /* The whole mapping, page-aligned both ends: splitting it would stop realloc
   * from growing it with mremap (it would copy instead). */
  const guintptr page = 4096;
  guintptr start = (guintptr) p & ~(page - 1);
  guintptr end = ((guintptr) p + len + page - 1) & ~(page - 1);

  if (end > start)
    (void) madvise ((void *) start, end - start, MADV_HUGEPAGE);
#endif
}

/* Whether leaf a's record comes before leaf b's: FILETIME, then file, processor, position. */
static inline gboolean
leaf_less (const LoserTree *m, guint a, guint b)
{
  gint64 ta = m->key_time[a], tb = m->key_time[b];

  /* Branch-free: which stream comes next is unpredictable. */
  return (ta < tb) | ((ta == tb) & (m->key_pos[a] < m->key_pos[b]));
}

static void
leaf_set_key (Merge *m, guint leaf, gboolean live)
{
  const Cursor *c = &m->cursors[leaf];

  if (live)
    {
      m->lt.key_time[leaf] = c->filetime;
      m->lt.key_pos[leaf] = (guint64) c->buf << 32 | c->rec_offset;
    }
  else
    {
      m->lt.key_time[leaf] = G_MAXINT64;
      m->lt.key_pos[leaf] = G_MAXUINT64;
    }
}

/* Plays the matches of the subtree at @node; returns its winner. */
static guint
tree_build (LoserTree *m, guint node)
{
  guint l, r;

  if (node >= m->k)
    return node - m->k;
  l = tree_build (m, 2 * node);
  r = tree_build (m, 2 * node + 1);
  if (leaf_less (m, r, l))
    {
      m->tree[node] = l;
      return r;
    }
  m->tree[node] = r;
  return l;
}

/* Leaf @w's key changed: replays its path to the root. */
static inline void
tree_replay (LoserTree *m, guint w)
{
  for (guint node = (w + m->k) >> 1; node >= 1; node >>= 1)
    {
      guint t = m->tree[node];
      gboolean swap = leaf_less (m, t, w);

      m->tree[node] = swap ? w : t;
      w = swap ? t : w;
    }
  m->tree[0] = w;
}

static gint
compare_index_entries (gconstpointer a, gconstpointer b, gpointer user_data)
{
  const EtlIndexEntry *x = a, *y = b;
  gint64 tx = entry_filetime (x), ty = entry_filetime (y);
  guint64 px = entry_pos (x), py = entry_pos (y);

  if (tx != ty)
    return tx < ty ? -1 : 1;
  return px < py ? -1 : (px > py);
}

static gint
compare_losses (gconstpointer a, gconstpointer b)
{
  const EtlLoss *x = a, *y = b;

  if (x->filetime != y->filetime)
    return x->filetime < y->filetime ? -1 : 1;
  return (gint) x->file - (gint) y->file;
}

/* Decodes @c's head record in full and hands it to the hooks (etl-trace-hooks.c). */
static void
merge_feed (Merge *m, Cursor *c)
{
  EtlTrace *trace = m->trace;
  const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, c->buf);
  EtlRecord r;

  if (!etl_record_decode (c->data + c->rec_offset, c->len - c->rec_offset, &r, NULL))
    return;
  r.file = c->file;
  r.cpu = c->cpu;
  r.filetime = c->filetime;
  r.file_offset = b->offset + c->rec_offset;
  etl_trace_hooks_add (trace, c->feed, &r, 0);
}

/*
 * The serial merge: one cursor per (file, processor) stream, a loser tree,
 * every record decoded as the tree asks for it.  The parallel open
 * (etl_trace_merge_parallel()) falls back to it when a stream is out of time order, whose
 * feed, provider and problem order only this walk defines; @n_hint is the number
 * of records the parallel pass counted (the index is allocated at that size).
 */
static gboolean
merge_serial (EtlTrace *trace, guint64 n_hint, EtlProgressFunc progress, gpointer progress_data,
              GCancellable *cancellable, GError **error)
{
  Merge m = { 0 };
  guint n_streams = 0;
  gboolean sorted = TRUE;
  g_autofree gint64 *first_time = NULL;
  g_autofree gint64 *last_time = NULL;

  m.trace = trace;
  m.progress = progress;
  m.progress_data = progress_data;
  m.cancellable = cancellable;
  m.last_fraction = -1.0;

  for (guint i = 0; i < trace->buffers->len; i++)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, i);

      const EtlBuffer *p = i ? b - 1 : NULL;

      m.bytes_total += b->disk_size;
      if (p == NULL || p->file != b->file || p->cpu != b->cpu)
        n_streams++;
    }

  for (m.lt.k = 1; m.lt.k < n_streams; m.lt.k *= 2)
    ;
  m.cursors = g_new0 (Cursor, m.lt.k);
  m.lt.tree = g_new0 (guint, m.lt.k);
  m.lt.key_time = g_new (gint64, m.lt.k);
  m.lt.key_pos = g_new (guint64, m.lt.k);
  for (guint i = 0; i < trace->buffers->len; i++)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, i);
      const EtlBuffer *p = i ? b - 1 : NULL;

      if (p == NULL || p->file != b->file || p->cpu != b->cpu)
        {
          if (m.n_cursors)
            m.cursors[m.n_cursors - 1].end_buf = i;
          m.cursors[m.n_cursors++].buf = i;
        }
    }
  if (m.n_cursors)
    m.cursors[m.n_cursors - 1].end_buf = trace->buffers->len;

  m.cap_index = MAX (n_hint, 1);
  m.index = g_new (EtlIndexEntry, m.cap_index);
  etl_pid_set_init (&m.pids);
  m.hook_cache = g_new0 (guint32, 65536);
  first_time = g_new0 (gint64, trace->files->len);
  last_time = g_new0 (gint64, trace->files->len);

  for (guint i = 0; i < m.lt.k; i++)
    leaf_set_key (&m, i, i < m.n_cursors && etl_trace_cursor_advance (&m, &m.cursors[i]));
  m.lt.tree[0] = tree_build (&m.lt, 1);

  while (!m.cancelled)
    {
      guint w = m.lt.tree[0];
      Cursor *c = &m.cursors[w];
      EtlIndexEntry *e;

      if (m.lt.key_time[w] == G_MAXINT64)
        break; /* the smallest key is the end: every stream is done */
      if (G_UNLIKELY (m.n_index == m.cap_index))
        {
          m.cap_index *= 2;
          m.index = g_renew (EtlIndexEntry, m.index, m.cap_index);
          if (m.cap_index * sizeof (EtlIndexEntry) >= 8 * 1024 * 1024)
            index_advise (m.index, m.cap_index * sizeof (EtlIndexEntry));
        }
      e = &m.index[m.n_index];
      entry_set (e, c->filetime, c->buf, c->rec_offset, c->header_type, 0,
                 c->pid == NO_PID ? PID16_NONE : etl_pid_set_intern (&m.pids, c->pid), c->provider);
      if (m.n_index > 0 && entry_filetime (&e[-1]) > c->filetime)
        sorted = FALSE;
      if (first_time[c->file] == 0)
        first_time[c->file] = c->filetime;
      last_time[c->file] = c->filetime;
      m.n_index++;

      /* The record is still in the cursor's buffer: hand what a hook asked
       * for (metadata, manifests, volumes, lifetimes) over now. */
      if (G_UNLIKELY (c->feed != 0))
        merge_feed (&m, c);

      leaf_set_key (&m, w, etl_trace_cursor_advance (&m, c));
      tree_replay (&m.lt, w);
    }

  for (guint i = 0; i < m.n_cursors; i++)
    g_clear_pointer (&m.cursors[i].hold, g_bytes_unref);
  g_free (m.cursors);
  g_free (m.lt.tree);
  g_free (m.lt.key_time);
  g_free (m.lt.key_pos);
  g_free (m.hook_cache);

  trace->n_pids = m.pids.n;
  trace->pids = g_steal_pointer (&m.pids.pids);
  etl_pid_set_clear (&m.pids);
  if (m.cancelled || g_cancellable_is_cancelled (cancellable))
    {
      g_free (m.index);
      g_cancellable_set_error_if_cancelled (cancellable, error);
      return FALSE;
    }

  /* A processor's stream out of time order (clock skew, a hostile file):
   * the merged output must still be sorted. */
  if (!sorted)
    {
      GArray *a = g_array_sized_new (FALSE, FALSE, sizeof (EtlIndexEntry), (guint) MIN (m.n_index, G_MAXUINT));

      g_array_append_vals (a, m.index, (guint) m.n_index);
      g_free (m.index);
      g_array_sort_with_data (a, compare_index_entries, NULL);
      m.index = (EtlIndexEntry *) (void *) g_array_free (a, FALSE);
    }
  else
    m.index = g_renew (EtlIndexEntry, m.index, MAX (m.n_index, 1));

  trace->n_index = m.n_index;
  trace->index = m.index;

  /* Each file's first and last record in the merged order. */
  for (guint fi = 0; fi < trace->files->len; fi++)
    {
      EtlFile *f = g_ptr_array_index (trace->files, fi);

      f->info.first_filetime = first_time[fi];
      f->info.last_filetime = last_time[fi];
    }
  if (!sorted)
    {
      /* The emit order was not the final order: walk the sorted index. */
      for (guint fi = 0; fi < trace->files->len; fi++)
        {
          EtlFile *f = g_ptr_array_index (trace->files, fi);

          f->info.first_filetime = f->info.last_filetime = 0;
        }
      for (guint64 i = 0; i < trace->n_index; i++)
        {
          const EtlIndexEntry *e = &trace->index[i];
          EtlFile *f = g_ptr_array_index (trace->files, g_array_index (trace->buffers, EtlBuffer, e->buffer).file);

          if (f->info.first_filetime == 0)
            f->info.first_filetime = entry_filetime (e);
          f->info.last_filetime = entry_filetime (e);
        }
    }

  etl_trace_collect_buffer_losses (trace);
  g_array_sort (trace->losses, compare_losses);
  if (progress)
    progress (1.0, progress_data);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Parallel open                                                            */

/*
 * The open runs in two parallel passes (GThread workers, the calling thread
 * one of them):
 *
 * 1. scan: each (file, processor) stream is cut into segments of adjacent
 *    buffers; a worker takes one segment at a time, loads (decompresses) its
 *    buffers and writes one temporary #EtlIndexEntry per record into chunks of
 *    CHUNK_ENTRIES, with segment-local PID and provider ids and the feed kind
 *    of the records a hook asked for (etl-trace-hooks.c).  What the serial
 *    walk did in merge order is recorded with where it happened instead:
 *    provider first uses, real-time loss records and problems (keyed by the
 *    record the serial walk had merged last from that stream: a #OrderRef).
 * 2. merge: the calling thread turns the local ids into the trace's ids (in
 *    the serial walk's order), then the merged sequence is cut at splitter
 *    keys sampled from all streams; each worker merges its key range of every
 *    stream into its slice of the final, exactly sized index with a loser
 *    tree, notes the positions of the records with a feed kind, and releases
 *    each temporary chunk as soon as every range that reads it is past it.
 *    Last, the calling thread hands those records to the hooks in merged
 *    order (open_feed()).
 *
 * When a stream is out of time order the merged order of the serial walk
 * (feed order, provider ids, problem order) is not the key order; the open
 * then drops what the scan found and runs merge_serial().
 */

static gint serial_open = 0;    /* atomic; tests only */

void
etl_trace_set_serial_open_for_testing (gboolean serial)
{
  g_atomic_int_set (&serial_open, serial ? 1 : 0);
}

#define SCAN_SHARE 0.5
#define MERGE_SHARE 0.45

void
etl_trace_open_report_progress (Open *o)
{
  double fraction;

  if (o->progress == NULL || o->units_total == 0)
    return;
  /* The scan reads the buffers, the merge writes the index: about half the
   * time each (bench-scale); the feed after them is short. */
  fraction = SCAN_SHARE * (double) (gsize) g_atomic_pointer_get (&o->units_done) / (double) o->units_total;
  if (o->merge_total > 0)
    fraction += MERGE_SHARE * (double) (gsize) g_atomic_pointer_get (&o->merge_done) / (double) o->merge_total;
  if (fraction - o->last_fraction >= 0.005 || fraction >= 1.0)
    {
      o->last_fraction = fraction;
      o->progress (MIN (fraction, 1.0), o->progress_data);
    }
}

typedef void (*OpenJob) (Open *o, gboolean caller);

typedef struct
{
  Open *o;
  OpenJob job;
  GMutex lock;
  GCond done;
  guint running; /* helper threads still in @job, under @lock */
} OpenThread;

static gpointer
open_thread_main (gpointer data)
{
  OpenThread *t = data;

  t->job (t->o, FALSE);
  g_mutex_lock (&t->lock);
  t->running--;
  g_cond_signal (&t->done);
  g_mutex_unlock (&t->lock);
  return NULL;
}

#define OPEN_PROGRESS_INTERVAL_US 20000

/* Runs @job on up to @n_threads threads, the calling thread one of them
 * (caller = TRUE: only it reports progress); the jobs take their work items
 * from o->next.  A thread that cannot be created leaves its share to the
 * others.  When the caller runs out of items first it keeps reporting the
 * others' progress every 20 ms until they finish, so the bar moves however
 * the items fell between the threads. */
static void
open_run (Open *o, OpenJob job, guint n_threads)
{
  GThread *threads[MAX_OPEN_THREADS];
  OpenThread t = { o, job };
  guint n = 0;

  g_mutex_init (&t.lock);
  g_cond_init (&t.done);
  g_atomic_int_set (&o->next, 0);
  for (guint i = 1; i < MIN (n_threads, MAX_OPEN_THREADS); i++)
    {
      GThread *th;

      g_mutex_lock (&t.lock);
      t.running++;
      g_mutex_unlock (&t.lock);
      th = g_thread_try_new ("etl-open", open_thread_main, &t, NULL);
      if (th != NULL)
        threads[n++] = th;
      else
        {
          g_mutex_lock (&t.lock);
          t.running--;
          g_mutex_unlock (&t.lock);
        }
    }
  job (o, TRUE);
  g_mutex_lock (&t.lock);
  while (t.running > 0)
    {
      gint64 until = g_get_monotonic_time () + OPEN_PROGRESS_INTERVAL_US;

      if (!g_cond_wait_until (&t.done, &t.lock, until) && t.running > 0)
        {
          g_mutex_unlock (&t.lock);
          etl_trace_open_report_progress (o);
          g_mutex_lock (&t.lock);
        }
    }
  g_mutex_unlock (&t.lock);
  for (guint i = 0; i < n; i++)
    g_thread_join (threads[i]);
  g_cond_clear (&t.done);
  g_mutex_clear (&t.lock);
}

static gint
compare_merge_keys_func (gconstpointer a, gconstpointer b)
{
  return compare_merge_keys (a, b);
}

/* The provider of a record whose segment had more than 65535: from its header. */
static guint16
provider_reread (Open *o, const EtlIndexEntry *e)
{
  EtlTrace *trace = o->trace;
  GBytes *hold = NULL;
  const guint8 *data;
  gsize len;
  EtlRecord r;
  gpointer value;
  guint16 id = PROVIDER_OVERFLOW;

  data = etl_trace_cached_buffer (trace, e->buffer, &hold, &len, NULL);
  if (data != NULL && entry_offset (e) < len
      && etl_record_decode (data + entry_offset (e), len - entry_offset (e), &r, NULL)
      && g_hash_table_lookup_extended (trace->provider_ids, &r.provider, NULL, &value))
    id = (guint16) (GPOINTER_TO_UINT (value) - 1);
  g_clear_pointer (&hold, g_bytes_unref);
  return id;
}

/* The entry at stream index @q. */
static const EtlIndexEntry *
stream_entry (const Stream *st, guint64 q, guint *chunk)
{
  guint lo = 0, hi = st->n_chunks;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (st->base[mid] <= q)
        lo = mid;
      else
        hi = mid;
    }
  if (chunk != NULL)
    *chunk = lo;
  return &st->chunks[lo].data[q - st->base[lo]];
}

/* How many entries of @st come before @key. */
static guint64
stream_lower_bound (const Stream *st, const MergeKey *key)
{
  guint64 lo = 0, hi = st->n;

  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;
      const EtlIndexEntry *e = stream_entry (st, mid, NULL);
      MergeKey k = { entry_filetime (e), entry_pos (e) };

      if (compare_merge_keys (&k, key) < 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

typedef struct
{
  StreamChunk *chunks;
  guint ci;
  const EtlIndexEntry *p;
  const EtlIndexEntry *start;   /* where this range began reading chunk ci */
  const EtlIndexEntry *end;
  guint64 left;
  const guint16 *pid_map;
  const guint16 *provider_map;
} RangeCursor;

static void
range_cursor_set_chunk (Open *o, RangeCursor *c, guint64 offset)
{
  StreamChunk *ch = &c->chunks[c->ci];
  const Segment *sg = &o->segs[ch->seg];

  c->start = c->p = ch->data + offset;
  c->end = ch->data + ch->n;
  c->pid_map = sg->pid_map;
  c->provider_map = sg->provider_map;
}

/* Moves on; a chunk every range is done with is released. */
static inline void
range_cursor_next (Open *o, RangeCursor *c)
{
  c->p++;
  c->left--;
  if (G_UNLIKELY (c->left == 0 || c->p == c->end))
    {
      StreamChunk *ch = &c->chunks[c->ci];
      gint used = (gint) (c->p - c->start);

      if (g_atomic_int_add (&ch->remaining, -used) == used)
        {
          etl_trace_chunk_free (ch->data);
          ch->data = NULL;
        }
      if (c->left > 0)
        {
          c->ci++;
          range_cursor_set_chunk (o, c, 0);
        }
    }
}

/* Merges key ranges into their slices of the index. */
static void
merge_job (Open *o, gboolean caller)
{
  guint ns = o->n_streams;
  guint n_lists = o->trace->n_lists;
  const guint8 *kind_list = o->trace->kind_list;
  LoserTree lt;
  RangeCursor *cur;
  gint r;

  for (lt.k = 1; lt.k < ns; lt.k *= 2)
    ;
  lt.tree = g_new0 (guint, lt.k);
  lt.key_time = g_new (gint64, lt.k);
  lt.key_pos = g_new (guint64, lt.k);
  cur = g_new0 (RangeCursor, lt.k);

  while (!g_atomic_int_get (&o->cancelled) && (r = g_atomic_int_add (&o->next, 1)) < (gint) o->n_ranges)
    {
      EtlIndexEntry *out = o->index + o->range_out[r];
      guint64 n_out = o->range_out[r + 1] - o->range_out[r];
      guint64 out_pos = o->range_out[r];

      for (guint s = 0; s < lt.k; s++)
        {
          RangeCursor *c = &cur[s];

          memset (c, 0, sizeof *c);
          if (s < ns && o->bounds[(r + 1) * ns + s] > o->bounds[r * ns + s])
            {
              const Stream *st = &o->streams[s];
              guint64 lo = o->bounds[r * ns + s];

              c->chunks = st->chunks;
              c->left = o->bounds[(r + 1) * ns + s] - lo;
              stream_entry (st, lo, &c->ci);
              range_cursor_set_chunk (o, c, lo - st->base[c->ci]);
              lt.key_time[s] = entry_filetime (c->p);
              lt.key_pos[s] = entry_pos (c->p);
            }
          else
            {
              lt.key_time[s] = G_MAXINT64;
              lt.key_pos[s] = G_MAXUINT64;
            }
        }
      lt.tree[0] = tree_build (&lt, 1);

      for (guint64 i = 0; i < n_out; i++)
        {
          guint w = lt.tree[0];
          RangeCursor *c = &cur[w];
          EtlIndexEntry e = *c->p;

          if (G_UNLIKELY (e.packed & ENTRY_FEED_MASK))
            g_array_append_val (o->range_feed[r * n_lists + kind_list[entry_feed (&e)]], out_pos);
          out_pos++;
          if (e.pid < PID16_REREAD)
            e.pid = c->pid_map[e.pid];
          if (G_LIKELY (e.provider != PROVIDER_OVERFLOW))
            e.provider = c->provider_map[e.provider];
          else
            e.provider = provider_reread (o, &e);
          out[i] = e;
          range_cursor_next (o, c);
          if (c->left > 0)
            {
              lt.key_time[w] = entry_filetime (c->p);
              lt.key_pos[w] = entry_pos (c->p);
            }
          else
            {
              lt.key_time[w] = G_MAXINT64;
              lt.key_pos[w] = G_MAXUINT64;
            }
          tree_replay (&lt, w);
          if (G_UNLIKELY ((i & 0xFFFF) == 0xFFFF))
            {
              g_atomic_pointer_add (&o->merge_done, 0x10000);
              if (caller)
                etl_trace_open_report_progress (o);
            }
          if (G_UNLIKELY ((i & 0xFFFF) == 0xFFFF)
              && (g_atomic_int_get (&o->cancelled) || g_cancellable_is_cancelled (o->cancellable)))
            {
              g_atomic_int_set (&o->cancelled, 1);
              break;
            }
        }
    }
  (void) caller;
  g_free (lt.tree);
  g_free (lt.key_time);
  g_free (lt.key_pos);
  g_free (cur);
}

/* Splits the merged sequence into o->n_ranges key ranges of about equal size. */
static void
open_split (Open *o)
{
  guint ns = o->n_streams, nr = o->n_ranges;
  g_autoptr (GArray) samples = g_array_new (FALSE, FALSE, sizeof (MergeKey));

  o->bounds = g_new0 (guint64, (gsize) (nr + 1) * ns);
  o->range_out = g_new0 (guint64, nr + 1);
  o->range_feed = g_new0 (GArray *, nr * o->trace->n_lists);
  for (guint r = 0; r < nr * o->trace->n_lists; r++)
    o->range_feed[r] = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint s = 0; s < ns; s++)
    o->bounds[(gsize) nr * ns + s] = o->streams[s].n;
  if (nr > 1)
    {
      /* At most about 65,536 samples in all (a hostile file may have that many streams). */
      guint per_stream = CLAMP (65536 / MAX (ns, 1), 1, 16 * nr);

      for (guint s = 0; s < ns; s++)
        for (guint i = 0; o->streams[s].n > 0 && i < per_stream; i++)
          {
            const EtlIndexEntry *e = stream_entry (&o->streams[s], o->streams[s].n * i / per_stream, NULL);
            MergeKey k = { entry_filetime (e), entry_pos (e) };

            g_array_append_val (samples, k);
          }
      g_array_sort (samples, compare_merge_keys_func);
      for (guint r = 1; r < nr; r++)
        {
          const MergeKey *split = &g_array_index (samples, MergeKey, (gsize) samples->len * r / nr);

          for (guint s = 0; s < ns; s++)
            o->bounds[(gsize) r * ns + s] = stream_lower_bound (&o->streams[s], split);
        }
    }
  for (guint r = 0; r <= nr; r++)
    for (guint s = 0; s < ns; s++)
      o->range_out[r] += o->bounds[(gsize) r * ns + s];
}

static void
open_clear (Open *o)
{
  for (guint s = 0; o->streams != NULL && s < o->n_streams; s++)
    {
      for (guint c = 0; c < o->streams[s].n_chunks; c++)
        if (o->streams[s].chunks[c].data != NULL)
          etl_trace_chunk_free (o->streams[s].chunks[c].data);
      g_free (o->streams[s].chunks);
      g_free (o->streams[s].base);
    }
  g_clear_pointer (&o->streams, g_free);
  for (guint i = 0; o->segs != NULL && i < o->n_segs; i++)
    etl_trace_segment_clear (&o->segs[i]);
  g_clear_pointer (&o->segs, g_free);
  g_clear_pointer (&o->bounds, g_free);
  g_clear_pointer (&o->range_out, g_free);
  for (guint r = 0; o->range_feed != NULL && r < o->n_ranges * o->trace->n_lists; r++)
    g_array_unref (o->range_feed[r]);
  g_clear_pointer (&o->range_feed, g_free);
}

/*
 * The feed, in merged order: the records the merge found flagged, read
 * again and handed to the hooks (merge_feed() does the same from the
 * cursor).  Compressed buffers are decompressed again, through a small
 * cache: each stream's feed records come in its own order, so a buffer is
 * rarely decompressed twice here.
 */
static void
open_feed (Open *o)
{
  EtlTrace *trace = o->trace;
  guint n_lists = trace->n_lists;
  struct
  {
    guint buffer;
    GBytes *hold;
  } cache[64];

  memset (cache, 0, sizeof cache);
  if (trace->n_hooks == 0)
    return;
  etl_trace_hooks_keep_by_index (trace);
  /* Kept records (lists 1 and up) in one piece when the caps cannot stop
   * any: no need to read them.  Each list keeps its own order; the lists do
   * not depend on one another. */
  for (guint list = 1; list < n_lists; list++)
    {
      g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (guint64));
      guint64 bytes = 0;

      for (guint i = 0; i < o->n_segs; i++)
        bytes += o->segs[i].keep_bytes[list];
      for (guint r = 0; r < o->n_ranges; r++)
        g_array_append_vals (all, o->range_feed[r * n_lists + list]->data, o->range_feed[r * n_lists + list]->len);
      if (etl_trace_hooks_keep_indexes (trace, list, all, bytes))
        for (guint r = 0; r < o->n_ranges; r++)
          g_array_set_size (o->range_feed[r * n_lists + list], 0);
    }
  for (guint q = 0; q < o->n_ranges * n_lists; q++)
    for (guint i = 0; i < o->range_feed[q]->len; i++)
      {
        EtlIndexEntry *e = &o->index[g_array_index (o->range_feed[q], guint64, i)];
        const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, e->buffer);
        EtlFile *f = g_ptr_array_index (trace->files, b->file);
        guint kind = entry_feed (e);
        guint32 off = entry_offset (e);
        const guint8 *data;
        gsize len;
        EtlRecord rec;

        if (!b->compressed)
          {
            data = f->data + b->offset;
            len = b->used;
          }
        else
          {
            guint slot = ((guint) b->file * 131u + b->cpu) % G_N_ELEMENTS (cache);

            if (cache[slot].hold == NULL || cache[slot].buffer != e->buffer)
              {
                g_clear_pointer (&cache[slot].hold, g_bytes_unref);
                if (!etl_trace_buffer_load (trace, b, &data, &len, &cache[slot].hold, NULL))
                  continue;
                cache[slot].buffer = e->buffer;
              }
            data = g_bytes_get_data (cache[slot].hold, &len);
          }
        if (off >= len)
          continue;
        if (trace->kind_list[kind] != 0)
          {
            EtlRecordPeek pk;

            /* Kept by index: needs only the record's size (a record that
             * peeks decodes, etl_record_peek()). */
            if (etl_record_peek (data + off, len - off, &pk) == ETL_PEEK_OK)
              {
                memset (&rec, 0, sizeof rec);
                rec.raw = data + off;
                rec.raw_len = len - off;
                rec.size = pk.size;
                etl_trace_hooks_add (trace, kind, &rec, (guint64) (e - o->index));
                continue;
              }
          }
        if (!etl_record_decode (data + off, len - off, &rec, NULL))
          continue;
        rec.file = b->file;
        rec.cpu = b->cpu;
        rec.filetime = entry_filetime (e);
        rec.file_offset = b->offset + off;
        etl_trace_hooks_add (trace, kind, &rec, (guint64) (e - o->index));
      }
  for (guint i = 0; i < G_N_ELEMENTS (cache); i++)
    g_clear_pointer (&cache[i].hold, g_bytes_unref);
}

/* Moves the segments' chunks into per-stream lists for the merge. */
static void
open_build_streams (Open *o)
{
  o->streams = g_new0 (Stream, o->n_streams);
  for (guint i = 0; i < o->n_segs; i++)
    o->streams[o->segs[i].stream].n_chunks += o->segs[i].chunks->len;
  for (guint s = 0; s < o->n_streams; s++)
    {
      o->streams[s].chunks = g_new0 (StreamChunk, MAX (o->streams[s].n_chunks, 1));
      o->streams[s].base = g_new0 (guint64, MAX (o->streams[s].n_chunks, 1));
      o->streams[s].n_chunks = 0;
    }
  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];
      Stream *st = &o->streams[sg->stream];

      for (guint c = 0; c < sg->chunks->len; c++)
        {
          StreamChunk *ch = &st->chunks[st->n_chunks];

          ch->data = g_ptr_array_index (sg->chunks, c);
          ch->n = (guint32) MIN ((guint64) CHUNK_ENTRIES, sg->n - (guint64) c * CHUNK_ENTRIES);
          ch->seg = i;
          ch->remaining = (gint) ch->n;
          st->base[st->n_chunks++] = st->n;
          st->n += ch->n;
        }
      g_ptr_array_set_size (sg->chunks, 0);
    }
}

/*
 * The open's read, index and merge, on etl_trace_get_open_threads() threads
 * (see "Parallel open" above).  Same results as merge_serial() whatever the
 * number of threads.
 */
gboolean
etl_trace_merge_parallel (EtlTrace *trace, EtlProgressFunc progress, gpointer progress_data, GCancellable *cancellable,
                GError **error)
{
  Open o = { 0 };
  guint n_threads = etl_trace_get_open_threads ();
  guint64 total = 0, seg_bytes = 0, target, n_total = 0;
  gboolean sorted = TRUE;
  const Segment *prev = NULL;

  if (g_atomic_int_get (&serial_open))
    return merge_serial (trace, 0, progress, progress_data, cancellable, error);
  o.trace = trace;
  o.cancellable = cancellable;
  o.progress = progress;
  o.progress_data = progress_data;
  o.last_fraction = -1.0;

  /* Segments: each stream cut every `target` bytes, ~4 per thread in all. */
  for (guint i = 0; i < trace->buffers->len; i++)
    {
      total += g_array_index (trace->buffers, EtlBuffer, i).disk_size;
      o.units_total += g_array_index (trace->buffers, EtlBuffer, i).disk_size / 16;
    }
  target = MAX (total / (4 * n_threads), (guint64) 1024 * 1024);
  for (guint pass = 0; pass < 2; pass++)
    {
      o.n_segs = o.n_streams = 0;
      for (guint i = 0; i < trace->buffers->len; i++)
        {
          const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, i);
          const EtlBuffer *p = i ? b - 1 : NULL;
          gboolean new_stream = p == NULL || p->file != b->file || p->cpu != b->cpu;

          if (new_stream || seg_bytes >= target)
            {
              if (pass == 1)
                {
                  o.segs[o.n_segs].stream = new_stream ? o.n_streams : o.n_streams - 1;
                  o.segs[o.n_segs].file = b->file;
                  o.segs[o.n_segs].first_buf = i;
                }
              o.n_segs++;
              o.n_streams += new_stream;
              seg_bytes = 0;
            }
          if (pass == 1)
            o.segs[o.n_segs - 1].end_buf = i + 1;
          seg_bytes += b->disk_size;
        }
      if (pass == 0)
        o.segs = g_new0 (Segment, MAX (o.n_segs, 1));
    }

  open_run (&o, etl_trace_scan_job, MIN (n_threads, MAX (o.n_segs, 1)));
  if (g_atomic_int_get (&o.cancelled) || g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  /* Where each segment starts in the serial order; whether every stream is in time order. */
  for (guint i = 0; i < o.n_segs; i++)
    {
      Segment *sg = &o.segs[i];

      /* prev: the last segment of this stream with records */
      if (i == 0 || o.segs[i - 1].stream != sg->stream)
        prev = NULL;
      if (prev != NULL)
        {
          sg->start_ref.cls = ORDER_AFTER;
          sg->start_ref.key = prev->last_key;
          if (sg->n > 0 && sg->first_key.ft < prev->last_key.ft)
            sorted = FALSE;
        }
      else
        {
          sg->start_ref.cls = ORDER_START;
          sg->start_ref.key.ft = 0;
          sg->start_ref.key.pos = sg->stream;
        }
      if (!sg->sorted)
        sorted = FALSE;
      if (sg->n > 0)
        prev = sg;
      n_total += sg->n;
    }
  if (!sorted)
    {
      open_clear (&o);
      return merge_serial (trace, n_total, progress, progress_data, cancellable, error);
    }

  etl_trace_open_gather (&o);
  open_build_streams (&o);
  o.n_ranges = n_total >= 65536 ? n_threads : 1;
  open_split (&o);
  o.index = g_new (EtlIndexEntry, MAX (n_total, 1));
  if (n_total * sizeof (EtlIndexEntry) >= 8 * 1024 * 1024)
    index_advise (o.index, n_total * sizeof (EtlIndexEntry));
  o.merge_total = n_total;
  open_run (&o, merge_job, o.n_ranges);
  if (g_atomic_int_get (&o.cancelled) || g_cancellable_is_cancelled (cancellable))
    goto cancelled;

  open_feed (&o);
  trace->index = g_steal_pointer (&o.index);
  trace->n_index = n_total;
  open_clear (&o);
  etl_trace_collect_buffer_losses (trace);
  g_array_sort (trace->losses, compare_losses);
  if (progress)
    progress (1.0, progress_data);
  return TRUE;

cancelled:
  g_free (o.index);
  open_clear (&o);
  if (!g_cancellable_set_error_if_cancelled (cancellable, error))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Operation was cancelled");
  return FALSE;
}
