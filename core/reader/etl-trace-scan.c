/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-scan.c: the index scan of an #EtlTrace.
 *
 * Reads every record header of every buffer (the fast path of
 * etl_record_peek(), the full decode for malformed or rare records) and
 * turns each indexable record into an #EtlIndexEntry: its FILETIME, its
 * place, its header type, a PID-table index and a provider id.  Two forms:
 * the serial walk's cursor (one record at a time, as the merge asks) and the
 * parallel open's segment scan (a run of buffers into temporary chunks, with
 * segment-local ids), whose results etl_trace_open_gather() puts back into
 * the serial walk's order.
 */
#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include "etl-trace-open-private.h"

#include <string.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#endif

#include "etl-kernel-groups.h"

/* ------------------------------------------------------------------------ */
/* PID tables                                                               */

void
etl_pid_set_init (PidSet *set)
{
  memset (set, 0, sizeof *set);
  set->mask = 63;
  set->slots = g_new0 (guint64, set->mask + 1);
  set->pids = g_new (guint32, (set->mask + 1) / 2);
}

void
etl_pid_set_clear (PidSet *set)
{
  g_clear_pointer (&set->slots, g_free);
  g_clear_pointer (&set->pids, g_free);
}

static inline guint32
pid_hash (guint32 pid)
{
  return (pid * 0x9E3779B1u) ^ (pid >> 16);
}

/* The index of @pid, added when new; PID16_REREAD when the set is full. */
guint16
etl_pid_set_intern (PidSet *set, guint32 pid)
{
  guint32 i;

  if (set->has_last && set->last_pid == pid)
    return set->last_index;
  for (i = pid_hash (pid) & set->mask; set->slots[i] != 0; i = (i + 1) & set->mask)
    if ((guint32) (set->slots[i] >> 32) == pid)
      {
        set->last_pid = pid;
        set->last_index = (guint16) ((set->slots[i] & 0xFFFFFFFFu) - 1);
        set->has_last = TRUE;
        return set->last_index;
      }
  if (set->n >= MAX_PIDS)
    return PID16_REREAD;
  /* At most half full; the pids array has room for half the slots. */
  if (2 * (set->n + 1) > set->mask + 1)
    {
      guint32 old_size = set->mask + 1;
      guint64 *old = set->slots;

      set->mask = 2 * old_size - 1;
      set->slots = g_new0 (guint64, set->mask + 1);
      for (guint32 j = 0; j < old_size; j++)
        if (old[j] != 0)
          {
            guint32 k;

            for (k = pid_hash ((guint32) (old[j] >> 32)) & set->mask; set->slots[k] != 0; k = (k + 1) & set->mask)
              ;
            set->slots[k] = old[j];
          }
      g_free (old);
      set->pids = g_renew (guint32, set->pids, (set->mask + 1) / 2);
      for (i = pid_hash (pid) & set->mask; set->slots[i] != 0; i = (i + 1) & set->mask)
        ;
    }
  set->slots[i] = (guint64) pid << 32 | (set->n + 1);
  set->pids[set->n] = pid;
  set->last_pid = pid;
  set->last_index = (guint16) set->n;
  set->has_last = TRUE;
  set->n++;
  return set->last_index;
}

static guint16
intern_provider (EtlTrace *trace, const EtlGuid *guid)
{
  gpointer value;
  EtlGuid *key;
  guint id;

  if (g_hash_table_lookup_extended (trace->provider_ids, guid, NULL, &value))
    return (guint16) (GPOINTER_TO_UINT (value) - 1);
  if (trace->providers->len >= PROVIDER_OVERFLOW)
    return PROVIDER_OVERFLOW;
  id = trace->providers->len;
  g_array_append_val (trace->providers, *guid);
  {
    guint8 cls = etl_trace_hooks_classify_provider (trace, guid);

    g_byte_array_append (trace->provider_class, &cls, 1);
  }
  key = g_memdup2 (guid, sizeof *guid);
  g_hash_table_insert (trace->provider_ids, key, GUINT_TO_POINTER (id + 1));
  return (guint16) id;
}

static void
merge_report_progress (Merge *m)
{
  double fraction;

  if (m->progress == NULL || m->bytes_total == 0)
    return;
  fraction = (double) m->bytes_done / (double) m->bytes_total;
  if (fraction - m->last_fraction >= 0.005 || fraction >= 1.0)
    {
      m->last_fraction = fraction;
      m->progress (MIN (fraction, 1.0), m->progress_data);
    }
}

/* A real-time lost-event record (RTLostEvent/Buffer/File) at @c's head. */
static void
add_rt_loss (EtlTrace *trace, const Cursor *c, const EtlBuffer *b, guint opcode)
{
  etl_trace_add_loss (trace, c->filetime, b->file, b->cpu, ETL_LOSS_RT_LOST_EVENT + (opcode - ETL_RT_LOST_EVENT_OPCODE), 1,
            b->sequence);
}

/* What the index keeps, from a fully decoded record (the slow path). */
static void
peek_from_record (EtlRecordPeek *pk, const EtlRecord *r)
{
  memset (pk, 0, sizeof *pk);
  pk->size = r->size;
  pk->header_type = r->header_type;
  pk->kind = r->kind;
  pk->has_pid = r->has_pid;
  pk->by_hook = FALSE;  /* the decode already resolved the kernel group's GUID */
  pk->opcode = r->opcode;
  pk->hook_id = r->hook_id;
  pk->pid = r->pid;
  pk->ts_raw = r->ts_raw;
  pk->provider = r->provider;
}

/* Moves @c to its next indexable record.  Returns FALSE at the end of the stream. */
gboolean
etl_trace_cursor_advance (Merge *m, Cursor *c)
{
  EtlTrace *trace = m->trace;

  while (c->buf < c->end_buf)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, c->buf);
      EtlFile *f = g_ptr_array_index (trace->files, b->file);
      EtlRecord r;
      EtlRecordPeek pk;
      GError *error = NULL;

      if (c->data == NULL)
        {
          if ((++m->n_loaded & 15) == 0 && g_cancellable_is_cancelled (m->cancellable))
            {
              m->cancelled = TRUE;
              return FALSE;
            }
          if (!etl_trace_buffer_load (trace, b, &c->data, &c->len, &c->hold, &error))
            {
              if (f->info.problems->len < MAX_PROBLEMS_PER_FILE)
                g_ptr_array_add (f->info.problems, error);
              else
                {
                  f->info.n_problems_dropped++;
                  g_error_free (error);
                }
              c->data = NULL;
              m->bytes_done += b->disk_size;
              c->buf++;
              continue;
            }
          c->pos = ETL_WMI_BUFFER_HEADER_SIZE;
          m->bytes_done += b->disk_size;
          merge_report_progress (m);
        }

      if (c->pos >= c->len || etl_record_is_end_marker (c->data + c->pos, c->len - c->pos))
        {
          g_clear_pointer (&c->hold, g_bytes_unref);
          c->data = NULL;
          c->buf++;
          continue;
        }

      /* Fast path: read only what the index keeps (same checks as the
       * decode); malformed or rare records go through the full decode. */
      if (etl_record_peek (c->data + c->pos, c->len - c->pos, &pk) != ETL_PEEK_OK)
        {
          if (!etl_record_decode (c->data + c->pos, c->len - c->pos, &r, &error))
            {
              etl_file_add_problem (f, ETL_ERROR_CORRUPT, b->offset + c->pos,
                                "%s; the rest of this buffer (processor %u, SequenceNumber %" G_GINT64_FORMAT
                                ") was skipped",
                                error->message, b->cpu, b->sequence);
              g_error_free (error);
              c->pos = c->len;
              continue;
            }
          peek_from_record (&pk, &r);
        }

      f->info.n_records++;
      f->info.records_by_header_type[pk.header_type % ETL_N_HEADER_TYPES]++;
      c->rec_offset = (guint32) c->pos;
      c->pos += etl_align8 (pk.size);
      if (pk.kind == ETL_RECORD_KIND_OTHER)
        {
          f->info.n_skipped++;
          continue;
        }
      c->filetime = file_filetime_fast (f, pk.ts_raw);
      c->pid = pk.has_pid ? pk.pid : NO_PID;
      c->header_type = pk.header_type;
      c->file = b->file;
      c->cpu = b->cpu;
      if (pk.by_hook)
        {
          guint32 v = m->hook_cache[pk.hook_id];

          if (G_UNLIKELY (v == 0))
            {
              const EtlGuid *cls = etl_kernel_hook_class (pk.hook_id);
              EtlGuid guid = { 0 };

              if (cls != NULL)
                guid = *cls;
              v = (guint32) intern_provider (trace, &guid) + 1;
              if (etl_is_rt_lost (&guid, pk.opcode))
                v |= HOOK_RT_LOST;
              v |= (guint32) etl_trace_hooks_classify_hook (trace, pk.hook_id) << HOOK_FEED_SHIFT;
              m->hook_cache[pk.hook_id] = v;
            }
          c->provider = (guint16) ((v & ~(HOOK_RT_LOST | HOOK_FEED_MASK)) - 1);
          c->feed = (guint8) ((v & HOOK_FEED_MASK) >> HOOK_FEED_SHIFT);
          if (G_UNLIKELY (v & HOOK_RT_LOST))
            add_rt_loss (trace, c, b, pk.opcode);
        }
      else
        {
          if (!c->has_last_guid || memcmp (&c->last_guid, &pk.provider, sizeof pk.provider) != 0)
            {
              c->last_guid = pk.provider;
              c->last_provider = intern_provider (trace, &pk.provider);
              c->has_last_guid = TRUE;
            }
          c->provider = c->last_provider;
          c->feed = 0;
          if (G_UNLIKELY (c->provider < trace->provider_class->len && trace->provider_class->data[c->provider] != 0))
            c->feed = (guint8) etl_trace_hooks_classify_record (trace, trace->provider_class->data[c->provider],
                                                                pk.header_type, pk.opcode, c->data + c->rec_offset,
                                                                pk.size);
          else if (G_UNLIKELY (pk.opcode == trace->any_opcode && pk.kind == ETL_RECORD_KIND_MANIFEST))
            c->feed = (guint8) etl_trace_hooks_classify_record (trace, 0, pk.header_type, pk.opcode,
                                                                c->data + c->rec_offset, pk.size);
          if (G_UNLIKELY (etl_is_rt_lost (&pk.provider, pk.opcode)))
            add_rt_loss (trace, c, b, pk.opcode);
        }
      return TRUE;
    }
  return FALSE;
}

/* The hook cache of one scan worker: HookId -> local provider id + 1 | flags,
 * valid when its generation is the segment's. */
typedef struct
{
  guint32 *val;
  guint32 *gen;
  guint32 cur;
} HookCache;

/*
 * Temporary chunks come straight from mmap() where there is one, so that a
 * released chunk leaves the resident set at once (malloc() may keep blocks of
 * this size in its heap once its mmap threshold has grown).  Elsewhere
 * g_malloc().
 */
static EtlIndexEntry *
chunk_alloc (void)
{
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  void *p = mmap (NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

  if (p == MAP_FAILED)
    g_error ("%s: failed to allocate %" G_GSIZE_FORMAT " bytes", G_STRLOC, (gsize) CHUNK_BYTES);
  return p;
#else
  return g_malloc (CHUNK_BYTES);
#endif
}

void
etl_trace_chunk_free (EtlIndexEntry *chunk)
{
#if defined(G_OS_UNIX) && defined(MAP_ANONYMOUS)
  munmap (chunk, CHUNK_BYTES);
#else
  g_free (chunk);
#endif
}

static void
segment_tables_init (Segment *sg)
{
  sg->tables = TRUE;
  etl_pid_set_init (&sg->pids);
  sg->providers = g_array_new (FALSE, FALSE, sizeof (EtlGuid));
  sg->provider_refs = g_array_new (FALSE, FALSE, sizeof (OrderRef));
  sg->provider_class = g_byte_array_new ();
  sg->provider_ids = g_hash_table_new_full (etl_guid_hash, etl_guid_equal_func, g_free, NULL);
  sg->losses = g_array_new (FALSE, FALSE, sizeof (LossItem));
  sg->problems = g_array_new (FALSE, FALSE, sizeof (ProblemItem));
}

static void
segment_free_chunks (Segment *sg)
{
  for (guint i = 0; sg->chunks != NULL && i < sg->chunks->len; i++)
    etl_trace_chunk_free (g_ptr_array_index (sg->chunks, i));
  g_clear_pointer (&sg->chunks, g_ptr_array_unref);
}

void
etl_trace_segment_clear (Segment *sg)
{
  segment_free_chunks (sg);
  if (!sg->tables)
    return;
  etl_pid_set_clear (&sg->pids);
  g_array_unref (sg->providers);
  g_array_unref (sg->provider_refs);
  g_byte_array_unref (sg->provider_class);
  g_hash_table_unref (sg->provider_ids);
  g_array_unref (sg->losses);
  for (guint i = 0; i < sg->problems->len; i++)
    g_clear_error (&g_array_index (sg->problems, ProblemItem, i).error);
  g_array_unref (sg->problems);
  g_free (sg->pid_map);
  g_free (sg->provider_map);
  sg->tables = FALSE;
}

/* Where the serial walk would be now: right after this segment's last record. */
static inline OrderRef
segment_ref (const Segment *sg)
{
  OrderRef r = { ORDER_SEGMENT, { 0, 0 } };

  if (sg->n > 0)
    {
      r.cls = ORDER_AFTER;
      r.key = sg->last_key;
    }
  return r;
}

static void
segment_add_problem_error (Segment *sg, GError *error)
{
  ProblemItem p;

  /* A segment's problems beyond MAX_PROBLEMS_PER_FILE come after that many
   * of its file's, so they could never be kept. */
  if (sg->problems->len >= MAX_PROBLEMS_PER_FILE)
    {
      sg->n_problems_dropped++;
      g_error_free (error);
      return;
    }
  p.error = error;
  p.ref = segment_ref (sg);
  g_array_append_val (sg->problems, p);
}

static void
segment_add_problem (Segment *sg, const EtlFile *f, gint code, guint64 offset, const char *format, ...)
  G_GNUC_PRINTF (5, 6);

/* etl_file_add_problem()'s message, kept with its place in the serial order. */
static void
segment_add_problem (Segment *sg, const EtlFile *f, gint code, guint64 offset, const char *format, ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  if (sg->problems->len >= MAX_PROBLEMS_PER_FILE)
    {
      sg->n_problems_dropped++;
      return;
    }
  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  segment_add_problem_error (sg, g_error_new (ETL_ERROR, code, "%s: offset %" G_GUINT64_FORMAT " (0x%"
                                              G_GINT64_MODIFIER "x): %s", f->info.path, offset, offset, reason));
}

/* intern_provider() for one segment: local ids, with the place of first use. */
static guint16
segment_intern_provider (EtlTrace *trace, Segment *sg, const EtlGuid *guid)
{
  gpointer value;
  guint id;
  guint8 cls;
  OrderRef ref;

  if (g_hash_table_lookup_extended (sg->provider_ids, guid, NULL, &value))
    return (guint16) (GPOINTER_TO_UINT (value) - 1);
  if (sg->providers->len >= PROVIDER_OVERFLOW)
    return PROVIDER_OVERFLOW;
  id = sg->providers->len;
  g_array_append_val (sg->providers, *guid);
  ref = segment_ref (sg);
  g_array_append_val (sg->provider_refs, ref);
  cls = etl_trace_hooks_classify_provider (trace, guid);
  g_byte_array_append (sg->provider_class, &cls, 1);
  g_hash_table_insert (sg->provider_ids, g_memdup2 (guid, sizeof *guid), GUINT_TO_POINTER (id + 1));
  return (guint16) id;
}

static void
segment_add_rt_loss (Segment *sg, gint64 filetime, const EtlBuffer *b, guint opcode)
{
  LossItem l;

  l.loss.filetime = filetime;
  l.loss.file = b->file;
  l.loss.cpu = b->cpu;
  l.loss.kind = ETL_LOSS_RT_LOST_EVENT + (opcode - ETL_RT_LOST_EVENT_OPCODE);
  l.loss.count = 1;
  l.loss.sequence = b->sequence;
  l.ref = segment_ref (sg);
  g_array_append_val (sg->losses, l);
}

/* The scan of one segment: etl_trace_cursor_advance() over its buffers, every record kept. */
static void
segment_scan (Open *o, Segment *sg, HookCache *hc, gboolean caller)
{
  EtlTrace *trace = o->trace;
  const gint any_opcode = trace->any_opcode;
  EtlIndexEntry *chunk = NULL;
  guint32 in_chunk = CHUNK_ENTRIES;

  segment_tables_init (sg);
  sg->chunks = g_ptr_array_new ();
  sg->sorted = TRUE;
  hc->cur++;
  for (guint bi = sg->first_buf; bi < sg->end_buf; bi++)
    {
      const EtlBuffer *b = &g_array_index (trace->buffers, EtlBuffer, bi);
      EtlFile *f = g_ptr_array_index (trace->files, b->file);
      const guint8 *data;
      gsize len, pos;
      GBytes *hold = NULL;
      GError *error = NULL;

      if (((bi - sg->first_buf) & 7) == 0
          && (g_atomic_int_get (&o->cancelled) || g_cancellable_is_cancelled (o->cancellable)))
        {
          g_atomic_int_set (&o->cancelled, 1);
          return;
        }
      g_atomic_pointer_add (&o->units_done, b->disk_size / 16);
      if (caller)
        etl_trace_open_report_progress (o);
      if (!etl_trace_buffer_load (trace, b, &data, &len, &hold, &error))
        {
          segment_add_problem_error (sg, error);
          continue;
        }
      for (pos = ETL_WMI_BUFFER_HEADER_SIZE; pos < len && !etl_record_is_end_marker (data + pos, len - pos);)
        {
          EtlRecordPeek pk;
          EtlRecord r;
          guint32 rec_offset;
          gint64 ft;
          guint16 pid16, provider;
          guint8 feed = 0;

          if (etl_record_peek (data + pos, len - pos, &pk) != ETL_PEEK_OK)
            {
              if (!etl_record_decode (data + pos, len - pos, &r, &error))
                {
                  segment_add_problem (sg, f, ETL_ERROR_CORRUPT, b->offset + pos,
                                       "%s; the rest of this buffer (processor %u, SequenceNumber %" G_GINT64_FORMAT
                                       ") was skipped", error->message, b->cpu, b->sequence);
                  g_clear_error (&error);
                  break;
                }
              peek_from_record (&pk, &r);
            }
          sg->n_records++;
          sg->by_type[pk.header_type % ETL_N_HEADER_TYPES]++;
          rec_offset = (guint32) pos;
          pos += etl_align8 (pk.size);
          if (pk.kind == ETL_RECORD_KIND_OTHER)
            {
              sg->n_skipped++;
              continue;
            }
          ft = file_filetime_fast (f, pk.ts_raw);
          pid16 = pk.has_pid && pk.pid != NO_PID ? etl_pid_set_intern (&sg->pids, pk.pid) : PID16_NONE;
          if (pk.by_hook)
            {
              guint32 v = hc->val[pk.hook_id];

              if (G_UNLIKELY (hc->gen[pk.hook_id] != hc->cur))
                {
                  const EtlGuid *cls = etl_kernel_hook_class (pk.hook_id);
                  EtlGuid guid = { 0 };

                  if (cls != NULL)
                    guid = *cls;
                  v = (guint32) segment_intern_provider (trace, sg, &guid) + 1;
                  if (etl_is_rt_lost (&guid, pk.opcode))
                    v |= HOOK_RT_LOST;
                  v |= (guint32) etl_trace_hooks_classify_hook (trace, pk.hook_id) << HOOK_FEED_SHIFT;
                  hc->val[pk.hook_id] = v;
                  hc->gen[pk.hook_id] = hc->cur;
                }
              provider = (guint16) ((v & ~(HOOK_RT_LOST | HOOK_FEED_MASK)) - 1);
              feed = (guint8) ((v & HOOK_FEED_MASK) >> HOOK_FEED_SHIFT);
              if (G_UNLIKELY (v & HOOK_RT_LOST))
                segment_add_rt_loss (sg, ft, b, pk.opcode);
            }
          else
            {
              if (!sg->has_last_guid || memcmp (&sg->last_guid, &pk.provider, sizeof pk.provider) != 0)
                {
                  sg->last_guid = pk.provider;
                  sg->last_provider = segment_intern_provider (trace, sg, &pk.provider);
                  sg->has_last_guid = TRUE;
                }
              provider = sg->last_provider;
              /* An overflowed provider has no class, as in the serial walk. */
              if (G_UNLIKELY (provider < sg->provider_class->len && sg->provider_class->data[provider] != 0))
                feed = (guint8) etl_trace_hooks_classify_record (trace, sg->provider_class->data[provider],
                                                                 pk.header_type, pk.opcode, data + rec_offset, pk.size);
              else if (G_UNLIKELY (pk.opcode == any_opcode && pk.kind == ETL_RECORD_KIND_MANIFEST))
                feed = (guint8) etl_trace_hooks_classify_record (trace, 0, pk.header_type, pk.opcode,
                                                                 data + rec_offset, pk.size);
              if (G_UNLIKELY (etl_is_rt_lost (&pk.provider, pk.opcode)))
                segment_add_rt_loss (sg, ft, b, pk.opcode);
            }

          if (G_UNLIKELY (in_chunk == CHUNK_ENTRIES))
            {
              chunk = chunk_alloc ();
              g_ptr_array_add (sg->chunks, chunk);
              in_chunk = 0;
            }
          entry_set (&chunk[in_chunk++], ft, bi, rec_offset, pk.header_type, feed, pid16, provider);
          if (G_UNLIKELY (feed != 0))
            sg->keep_bytes[trace->kind_list[feed]] += pk.size;
          if (sg->n == 0)
            {
              sg->first_key.ft = ft;
              sg->first_key.pos = (guint64) bi << 32 | rec_offset;
            }
          else if (ft < sg->last_key.ft)
            sg->sorted = FALSE;
          if (sg->first_nonzero == 0)
            sg->first_nonzero = ft;
          sg->last_key.ft = ft;
          sg->last_key.pos = (guint64) bi << 32 | rec_offset;
          sg->n++;
        }
      g_clear_pointer (&hold, g_bytes_unref);
    }
}

void
etl_trace_scan_job (Open *o, gboolean caller)
{
  HookCache hc;
  gint i;

  hc.val = g_new0 (guint32, 65536);
  hc.gen = g_new0 (guint32, 65536);
  hc.cur = 0;
  while (!g_atomic_int_get (&o->cancelled) && (i = g_atomic_int_add (&o->next, 1)) < (gint) o->n_segs)
    segment_scan (o, &o->segs[i], &hc, caller);
  g_free (hc.val);
  g_free (hc.gen);
}

/* The serial walk's order of what segment @seg recorded as its @seq-th item. */
typedef struct
{
  OrderRef ref;
  guint seg;
  guint seq;
  gpointer item;
} Ordered;

static gint
compare_ordered (gconstpointer a, gconstpointer b)
{
  const Ordered *x = a, *y = b;
  gint c;

  if (x->ref.cls != y->ref.cls)
    return x->ref.cls < y->ref.cls ? -1 : 1;
  c = compare_merge_keys (&x->ref.key, &y->ref.key);
  if (c != 0)
    return c;
  if (x->seg != y->seg)
    return x->seg < y->seg ? -1 : 1;
  return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

static void
ordered_add (GArray *ordered, const Open *o, guint seg, guint seq, OrderRef ref, gpointer item)
{
  Ordered x;

  x.ref = ref.cls == ORDER_SEGMENT ? o->segs[seg].start_ref : ref;
  x.seg = seg;
  x.seq = seq;
  x.item = item;
  g_array_append_val (ordered, x);
}

/* After the scan: per-file counts, the trace's PID table and provider ids,
 * losses and problems, all in the serial walk's order. */
void
etl_trace_open_gather (Open *o)
{
  EtlTrace *trace = o->trace;
  guint n_files = trace->files->len;
  g_autofree MergeKey *last_key = g_new0 (MergeKey, n_files);
  g_autofree gboolean *has_last = g_new0 (gboolean, n_files);
  g_autoptr (GArray) ordered = g_array_new (FALSE, FALSE, sizeof (Ordered));
  PidSet pids;

  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];
      EtlFile *f = g_ptr_array_index (trace->files, sg->file);

      f->info.n_records += sg->n_records;
      f->info.n_skipped += sg->n_skipped;
      for (guint t = 0; t < ETL_N_HEADER_TYPES; t++)
        f->info.records_by_header_type[t] += sg->by_type[t];
      if (sg->n == 0)
        continue;
      /* The merged order is the key order: the file's first non-zero
       * FILETIME (merge_serial()'s rule) and the FILETIME of its last key. */
      if (sg->first_nonzero != 0 && (f->info.first_filetime == 0 || sg->first_nonzero < f->info.first_filetime))
        f->info.first_filetime = sg->first_nonzero;
      if (!has_last[sg->file] || compare_merge_keys (&sg->last_key, &last_key[sg->file]) > 0)
        {
          last_key[sg->file] = sg->last_key;
          has_last[sg->file] = TRUE;
          f->info.last_filetime = sg->last_key.ft;
        }
    }

  /* PIDs: any order gives the same answers; segment order. */
  etl_pid_set_init (&pids);
  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];

      sg->pid_map = g_new (guint16, MAX (sg->pids.n, 1));
      for (guint j = 0; j < sg->pids.n; j++)
        sg->pid_map[j] = etl_pid_set_intern (&pids, sg->pids.pids[j]);
    }
  trace->n_pids = pids.n;
  trace->pids = g_steal_pointer (&pids.pids);
  etl_pid_set_clear (&pids);

  /* Providers: ids in the order the serial walk first met them. */
  for (guint i = 0; i < o->n_segs; i++)
    {
      Segment *sg = &o->segs[i];

      sg->provider_map = g_new (guint16, MAX (sg->providers->len, 1));
      for (guint j = 0; j < sg->providers->len; j++)
        ordered_add (ordered, o, i, j, g_array_index (sg->provider_refs, OrderRef, j), NULL);
    }
  g_array_sort (ordered, compare_ordered);
  for (guint i = 0; i < ordered->len; i++)
    {
      const Ordered *x = &g_array_index (ordered, Ordered, i);
      Segment *sg = &o->segs[x->seg];

      sg->provider_map[x->seq] = intern_provider (trace, &g_array_index (sg->providers, EtlGuid, x->seq));
    }

  /* Real-time loss records. */
  g_array_set_size (ordered, 0);
  for (guint i = 0; i < o->n_segs; i++)
    for (guint j = 0; j < o->segs[i].losses->len; j++)
      {
        LossItem *l = &g_array_index (o->segs[i].losses, LossItem, j);

        ordered_add (ordered, o, i, j, l->ref, l);
      }
  g_array_sort (ordered, compare_ordered);
  for (guint i = 0; i < ordered->len; i++)
    g_array_append_val (trace->losses, ((LossItem *) g_array_index (ordered, Ordered, i).item)->loss);

  /* Problems, within each file's cap. */
  g_array_set_size (ordered, 0);
  for (guint i = 0; i < o->n_segs; i++)
    {
      EtlFile *f = g_ptr_array_index (trace->files, o->segs[i].file);

      f->info.n_problems_dropped += o->segs[i].n_problems_dropped;
      for (guint j = 0; j < o->segs[i].problems->len; j++)
        ordered_add (ordered, o, i, j, g_array_index (o->segs[i].problems, ProblemItem, j).ref,
                     &g_array_index (o->segs[i].problems, ProblemItem, j));
    }
  g_array_sort (ordered, compare_ordered);
  for (guint i = 0; i < ordered->len; i++)
    {
      const Ordered *x = &g_array_index (ordered, Ordered, i);
      ProblemItem *p = x->item;
      EtlFile *f = g_ptr_array_index (trace->files, o->segs[x->seg].file);

      if (f->info.problems->len < MAX_PROBLEMS_PER_FILE)
        g_ptr_array_add (f->info.problems, g_steal_pointer (&p->error));
      else
        {
          f->info.n_problems_dropped++;
          g_clear_error (&p->error);
        }
    }
}
