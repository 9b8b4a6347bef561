/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-trace-private.h: what the parts of the reader's #EtlTrace share: the
 * trace, its files and buffers, the index entry and the file clock.
 */
#pragma once

#include "etl-trace-reader.h"

#include "etl-format-private.h"
#include "etl-record-private.h"

G_BEGIN_DECLS

/* Tests only: open with the serial walk (merge_serial()) instead of the
 * parallel scan and merge, to compare the two. */
void etl_trace_set_serial_open_for_testing (gboolean serial);

#define MAX_PROBLEMS_PER_FILE    1000
#define MAX_BUFFER_BYTES         (16u * 1024 * 1024 + ETL_WMI_BUFFER_HEADER_SIZE) /* BufferSize ≤ 16384 KB */
#define BUFFER_CACHE_SIZE        32
#define NO_PID                   G_MAXUINT32
#define CHUNK_ENTRIES            4096    /* temporary entries per chunk: 80 KiB */
#define MAX_OPEN_THREADS         64
#define PROVIDER_OVERFLOW        G_MAXUINT16

/* One buffer of one file. */
typedef struct
{
  guint64 offset;        /* byte offset of the buffer in its file */
  guint32 disk_size;     /* BufferSize: bytes on disk */
  guint32 used;          /* bytes of header + records (buffer_filled_bytes()) */
  gint64 sequence;       /* SequenceNumber */
  gint64 timestamp;      /* TimeStamp, raw clock */
  guint16 flags;         /* BufferFlag */
  guint16 type;          /* BufferType */
  guint16 cpu;           /* processor index */
  guint16 file;
  guint8 compressed;
} EtlBuffer;

/*
 * One record in the merged index: 20 bytes.  The FILETIME is split in two
 * 32-bit halves (so the entry needs only 4-byte alignment); a record's offset
 * in its buffer is a multiple of 8 below MAX_BUFFER_BYTES, so offset / 8 fits
 * 22 bits, next to the header type (5 bits: an indexed record's type is one of
 * the known ones, all below ETL_N_HEADER_TYPES) and, while the trace is
 * opened, the record's feed kind (3 bits, etl-trace-hooks.c).  The process id
 * is an index into the trace's PID table (trace->pids), with two sentinels:
 * PID16_NONE (the header has none) and PID16_REREAD (the table was full: the
 * accessor reads the record header again), so no answer depends on the
 * table's cap.
 */
typedef struct
{
  guint32 ft_lo;         /* FILETIME, low 32 bits */
  guint32 ft_hi;         /* FILETIME, high 32 bits */
  guint32 buffer;        /* index into trace->buffers */
  guint32 packed;        /* bits 0..21: record offset / 8; 22..26: header type; 27..29: feed kind (for the open; ignored after) */
  guint16 pid;           /* index into trace->pids, PID16_NONE or PID16_REREAD */
  guint16 provider;      /* index into trace->providers, PROVIDER_OVERFLOW past 65535 */
} EtlIndexEntry;

G_STATIC_ASSERT (sizeof (EtlIndexEntry) == 20);

#define ENTRY_OFFSET_BITS 22
#define ENTRY_TYPE_SHIFT  22
#define ENTRY_FEED_SHIFT  27
#define ENTRY_FEED_MASK   (7u << ENTRY_FEED_SHIFT)
#define PID16_NONE        0xFFFFu
#define PID16_REREAD      0xFFFEu
#define MAX_PIDS          0xFFFEu      /* table indexes 0..0xFFFD */

G_STATIC_ASSERT ((MAX_BUFFER_BYTES / 8) < (1u << ENTRY_OFFSET_BITS));
G_STATIC_ASSERT (ETL_N_HEADER_TYPES == 32);

static inline gint64
entry_filetime (const EtlIndexEntry *e)
{
  return (gint64) ((guint64) e->ft_hi << 32 | e->ft_lo);
}

static inline guint32
entry_offset (const EtlIndexEntry *e)
{
  return (e->packed & ((1u << ENTRY_OFFSET_BITS) - 1)) * 8;
}

static inline guint8
entry_header_type (const EtlIndexEntry *e)
{
  return (guint8) ((e->packed >> ENTRY_TYPE_SHIFT) & (ETL_N_HEADER_TYPES - 1));
}

/* The merge key of an entry: (FILETIME, buffer << 32 | offset). */
static inline guint64
entry_pos (const EtlIndexEntry *e)
{
  return (guint64) e->buffer << 32 | entry_offset (e);
}

static inline guint
entry_feed (const EtlIndexEntry *e)
{
  return (e->packed & ENTRY_FEED_MASK) >> ENTRY_FEED_SHIFT;
}

static inline void
entry_set (EtlIndexEntry *e, gint64 filetime, guint32 buffer, guint32 offset, guint8 header_type, guint feed,
           guint16 pid, guint16 provider)
{
  g_assert (offset % 8 == 0 && offset / 8 < (1u << ENTRY_OFFSET_BITS));
  g_assert (header_type < ETL_N_HEADER_TYPES && feed < 8);
  e->ft_lo = (guint32) (guint64) filetime;
  e->ft_hi = (guint32) ((guint64) filetime >> 32);
  e->buffer = buffer;
  e->packed = offset / 8 | (guint32) header_type << ENTRY_TYPE_SHIFT | (guint32) feed << ENTRY_FEED_SHIFT;
  e->pid = pid;
  e->provider = provider;
}

typedef struct
{
  EtlFileInfo info;
  GMappedFile *map;
  const guint8 *data;
  gsize size;
  guint32 pointer_size;
  /* Clock fast path (etl_file_prepare_clock()): FILETIME = start + (raw − header) × ft_num
   * when ft_fast and |raw − header| < ft_limit, exactly what etl_filetime_from_raw() gives. */
  gboolean ft_fast;
  gint64 ft_num;
  gint64 ft_limit;
} EtlFile;

struct _EtlTrace
{
  gatomicrefcount ref_count;
  GPtrArray *files;               /* EtlFile */
  GArray *buffers;                /* EtlBuffer, sorted by (file, cpu, sequence, offset) */
  EtlIndexEntry *index;           /* exactly n_index entries */
  guint64 n_index;
  guint32 *pids;                  /* PID table: EtlIndexEntry.pid -> process id */
  guint n_pids;
  GArray *providers;              /* EtlGuid */
  GHashTable *provider_ids;       /* EtlGuid* (in a separate chunk) -> id + 1 */
  GArray *losses;                 /* EtlLoss, sorted by filetime */
  gint64 origin;                  /* earliest header record's FILETIME */
  guint n_cpus;

  GMutex cache_lock;
  GHashTable *cache;              /* buffer index -> GBytes (decompressed) */
  GQueue cache_order;

  /* The layers above, and what the walk hands them (etl-trace-hooks.c). */
  EtlTraceHook hooks[ETL_TRACE_MAX_HOOKS];
  guint n_hooks;
  GByteArray *provider_class;     /* provider id -> hook << 5 | its class, 0 = unclaimed */
  gint any_opcode;                /* EtlTraceHookClass.any_provider_opcode, or -1 */
  guint8 any_opcode_hook;         /* the hook it belongs to */
  guint8 kind_base[ETL_TRACE_MAX_HOOKS];  /* a hook's kind k is feed kind kind_base + k */
  guint8 kind_hook[ETL_TRACE_MAX_HOOK_KINDS + 1];   /* feed kind -> hook */
  guint8 kind_list[ETL_TRACE_MAX_HOOK_KINDS + 1];   /* feed kind -> 0 (handed over) or its kept list */
  guint n_lists;                  /* 1 + kept kinds */
  EtlKeptRecords *kept[ETL_TRACE_MAX_HOOK_KINDS + 1];  /* by list (1..n_lists - 1) */

  /* Results the layers above derive once per trace (etl-trace-derived.c). */
  GMutex derived_lock;
  GCond derived_cond;
  GHashTable *derived;            /* key (static string) -> EtlDerived */
};

void etl_trace_derived_clear (EtlTrace *trace);

static inline gint64
file_filetime (const EtlFile *f, gint64 ts_raw)
{
  return etl_filetime_from_raw (f->info.clock_type, f->info.perf_freq, f->info.cpu_speed_mhz,
                                f->info.start_time, f->info.header_ts_raw, ts_raw);
}

#define FT_FAST_BOUND (G_GINT64_CONSTANT (1) << 60)

static inline gint64
file_filetime_fast (const EtlFile *f, gint64 ts_raw)
{
  if (G_LIKELY (f->ft_fast && ts_raw > -FT_FAST_BOUND && ts_raw < FT_FAST_BOUND))
    {
      gint64 delta = ts_raw - f->info.header_ts_raw;

      if (delta > -f->ft_limit && delta < f->ft_limit)
        return f->info.start_time + delta * f->ft_num;
    }
  return file_filetime (f, ts_raw);
}

/* etl-trace-file.c */
void etl_file_add_problem (EtlFile *f, gint code, guint64 offset, const char *format, ...) G_GNUC_PRINTF (4, 5);
void etl_file_prepare_clock (EtlFile *f);
EtlFile *etl_file_open (const char *path, GError **error);
void etl_file_free (EtlFile *f);
gboolean etl_file_walk_buffers (EtlTrace *trace, EtlFile *f, guint file_index, GCancellable *cancellable,
                                GError **error);
void etl_file_populate (EtlTrace *trace, EtlFile *f, guint first_buffer);
gboolean etl_file_read_header (EtlTrace *trace, EtlFile *f, guint first_buffer, GError **error);
gboolean etl_trace_buffer_load (EtlTrace *trace, const EtlBuffer *b, const guint8 **data, gsize *len,
                                GBytes **hold, GError **error);
void etl_trace_add_loss (EtlTrace *trace, gint64 filetime, guint file, gint cpu, EtlLossKind kind, guint64 count,
                         gint64 sequence);
void etl_trace_collect_buffer_losses (EtlTrace *trace);

/* etl-trace-records.c */
const guint8 *etl_trace_cached_buffer (EtlTrace *trace, guint buffer, GBytes **hold, gsize *len, GError **error);

/* etl-trace-hooks.c: the feed, records handed over to the hooks */
#define ETL_HOOK_CLASS_SHIFT 5          /* provider_class: hook << 5 | class */
void etl_trace_hooks_init (EtlTrace *trace, const EtlTraceHook *hooks, guint n_hooks);
void etl_trace_hooks_clear (EtlTrace *trace);
guint8 etl_trace_hooks_classify_provider (EtlTrace *trace, const EtlGuid *provider);
guint etl_trace_hooks_classify_hook (EtlTrace *trace, guint16 hook_id);
guint etl_trace_hooks_classify_record (EtlTrace *trace, guint8 provider_class, guint8 header_type, guint8 opcode,
                                       const guint8 *record, gsize size);
void etl_trace_hooks_add (EtlTrace *trace, guint kind, const EtlRecord *record, guint64 index);
void etl_trace_hooks_keep_by_index (EtlTrace *trace);
gboolean etl_trace_hooks_keep_indexes (EtlTrace *trace, guint list, GArray *indexes, guint64 bytes);
void etl_trace_hooks_finish (EtlTrace *trace);

/* etl-trace-merge.c */
gboolean etl_trace_merge_parallel (EtlTrace *trace, EtlProgressFunc progress, gpointer progress_data,
                                   GCancellable *cancellable, GError **error);

G_END_DECLS
