/* SPDX-License-Identifier: GPL-3.0-or-later */

/**
 * SECTION:etl-stacks
 * @title: EtlStacks
 * @short_description: call stacks of events, symbolized from the trace alone
 *
 * With stack walking on, the kernel logs after an event a StackWalk record
 * (MOF class StackWalk_Event, HookId 0x1820): EventTimeStamp (the raw
 * timestamp of the event it belongs to), StackProcess, StackThread and the
 * return addresses Stack[0] (the innermost frame) … to the end of the
 * payload.  With stack caching (Windows 8 and later) it logs instead a
 * StackKeyKernel (0x1825) and/or StackKeyUser (0x1826) record
 * (StackWalk_TypeGroup1: EventTimeStamp, StackProcess, StackThread, StackKey)
 * whose frames come in a later KeyDelete (0x1823) or KeyRundown (0x1824)
 * record (StackKey, then the frames) when the key is evicted or at the end of
 * the trace.  The kernel part of a stack is the inner part.  The .NET
 * runtime logs its own CLRStackWalk event (Microsoft-Windows-DotNETRuntime
 * event 82: ClrInstanceID, Reserved1, Reserved2, FrameCount, Stack[]) right
 * after the runtime event it belongs to, on the same thread; it is attached
 * to the last record of that thread before it, and used only when the event
 * has no kernel stack.
 *
 * etl_stacks_compute() reads the trace once: it attaches each stack record
 * to the record on the same thread whose raw timestamp equals
 * EventTimeStamp (found through the merged index by time, so no per-record
 * table is kept), and collects the module map (Image provider records Load 10,
 * Unload 2, DCStart 3, DCEnd 4: ImageBase, ImageSize, ProcessId, FileName) and the .NET
 * JIT method ranges (Microsoft-Windows-DotNETRuntime MethodLoadVerbose 143 /
 * MethodUnloadVerbose 144 and the rundown provider's MethodDCStartVerbose 143
 * / MethodDCEndVerbose 144: MethodStartAddress, MethodSize, MethodNamespace,
 * MethodName).  Memory is one small entry per stack record, image and
 * method; frames are read from the stack records again when asked for.
 *
 * Kernel-mode addresses (at or above 0xFFFF800000000000, or 0x80000000 in a
 * 32-bit trace) are looked up in the images of processes 0 and 4 (the
 * kernel's); other addresses in the images and JIT methods of the stack's
 * process.  No symbol files are read: a frame is shown as
 * `module.dll+0xOFFSET`, `Namespace.Method` or its bare address.
 *
 * The payload fields of the StackWalk records are read straight from the
 * bytes (bounds-checked), as etl-cpu-usage.c does: a trace can hold millions
 * of them and etl_decode_record() formats every field as a string.
 */

#include "config.h"

#define G_LOG_DOMAIN "etlscope"

#include <string.h>

#include "etl-module-id.h"
#include "etl-stacks.h"
#include "etl-stacks-private.h"

#define HOOK_SAMPLED_PROFILE 0x0F2E
#define HOOK_STACK_WALK 0x1820
#define HOOK_KEY_DELETE 0x1823
#define HOOK_KEY_RUNDOWN 0x1824
#define HOOK_KEY_KERNEL 0x1825
#define HOOK_KEY_USER 0x1826
#define IMAGE_UNLOAD 2
#define IMAGE_DC_START 3
#define IMAGE_DC_END 4
#define IMAGE_LOAD 10
#define IMAGE_PROVIDER "2cb15d1d-5fc1-11d2-abe1-00a0c911f518"
#define CLR_RUNTIME "e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"
#define CLR_RUNDOWN "a669021c-c450-4609-a035-5af59af4df18"
#define STACK_WALK_PROVIDER "def2fe46-7bd6-4b80-bd94-f57fe20d0ce3" /* StackWalk_Event class */
#define CLR_STACK_WALK 82 /* CLRStack/CLRStackWalk event id */
#define CLR_BACK_SCAN 64  /* records looked at before a CLRStackWalk for its event */
#define KERNEL_BOUNDARY_64 G_GUINT64_CONSTANT (0xFFFF800000000000)
#define KERNEL_BOUNDARY_32 G_GUINT64_CONSTANT (0x80000000)
#define MATCH_SCAN 256    /* records looked at around the event's time */
#define BACK_SCAN 64      /* overlapping ranges looked at below an address */
#define PROGRESS_STEP 65536
#define ID_WINDOW 16 /* records between an ImageID record and its Image record */

enum
{
  PART_FULL,   /* a StackWalk record: frames at 16 */
  PART_KERNEL, /* a key definition for the kernel part: frames after the key */
  PART_USER,   /* the same for the user part */
  PART_CLR,    /* a CLRStackWalk record: FrameCount at 4, frames at 8 */
};

typedef struct
{
  guint64 event;  /* the record the stack belongs to */
  guint64 record; /* the StackWalk or key definition record */
  guint32 pid;    /* StackProcess */
  guint8 part;
  guint8 is_sample;
} Attach;

typedef struct
{
  guint64 key;
  gint64 filetime;
  guint64 record;
} KeyDef;

typedef struct
{
  guint32 pid;
  guint64 base;
  guint64 size;
  gint64 start; /* FILETIME it was loaded, 0 when before the trace */
  gint64 end;   /* FILETIME it was unloaded, G_MAXINT64 when never */
  const char *name;
  gint32 id;    /* modules: index in ids, -1 when none */
} Range;

typedef struct
{
  guint64 record; /* the ImageID record */
  guint id;       /* index in ids */
} PendingId;

typedef struct _Namer Namer;

/* A namer as etl_stacks_set_namer_full() installs it: immutable, shared by
 * the threads naming frames with it, freed (and its data's destroy
 * notify called) when the last of them is done, so a swap while a worker
 * names frames never pulls the data from under it. */
struct _Namer
{
  gint ref_count;
  EtlStacksNamer func;
  gpointer data;
  GDestroyNotify destroy;
};

struct _EtlStacks
{
  gint ref_count;
  EtlTrace *trace;
  guint64 n_stack_records;
  GArray *attach;  /* Attach, by event then part */
  GArray *modules; /* Range, by pid then base */
  GArray *methods; /* Range, by pid then base */
  GStringChunk *names;
  guint64 kernel_boundary;
  GArray *ids;              /* EtlModuleId: the ImageID records' identities */
  Namer *namer;             /* etl_stacks_set_namer(): read through namer_get() */
  GMutex namer_lock;        /* makes "load the pointer, take a reference" one step */
};

static void
namer_unref (Namer *n)
{
  if (n == NULL || !g_atomic_int_dec_and_test (&n->ref_count))
    return;
  if (n->destroy != NULL)
    n->destroy (n->data);
  g_free (n);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Namer, namer_unref)

/* The current namer with a reference (namer_unref() it), or %NULL. */
static Namer *
namer_get (EtlStacks *stacks)
{
  Namer *n;

  if (g_atomic_pointer_get (&stacks->namer) == NULL)
    return NULL; /* none: no lock (a namer set meanwhile is seen next time) */
  g_mutex_lock (&stacks->namer_lock);
  n = stacks->namer;
  if (n != NULL)
    g_atomic_int_inc (&n->ref_count);
  g_mutex_unlock (&stacks->namer_lock);
  return n;
}

static guint32
read_u32 (const guint8 *p)
{
  return (guint32)p[0] | (guint32)p[1] << 8 | (guint32)p[2] << 16 | (guint32)p[3] << 24;
}

static guint64
read_u64 (const guint8 *p)
{
  return (guint64)read_u32 (p) | (guint64)read_u32 (p + 4) << 32;
}

static gboolean
is_kernel_header (guint8 header_type)
{
  return header_type == ETL_HEADER_TYPE_SYSTEM32 || header_type == ETL_HEADER_TYPE_SYSTEM64
         || header_type == ETL_HEADER_TYPE_COMPACT32 || header_type == ETL_HEADER_TYPE_COMPACT64
         || header_type == ETL_HEADER_TYPE_PERFINFO32 || header_type == ETL_HEADER_TYPE_PERFINFO64;
}

static guint64
read_ptr (const guint8 *p, gsize ptr)
{
  return ptr == 4 ? read_u32 (p) : read_u64 (p);
}

static int
cmp_attach (gconstpointer a, gconstpointer b)
{
  const Attach *x = a, *y = b;

  if (x->event != y->event)
    return x->event < y->event ? -1 : 1;
  if (x->part != y->part)
    return x->part < y->part ? -1 : 1;
  return x->record < y->record ? -1 : x->record > y->record;
}

static int
cmp_keydef (gconstpointer a, gconstpointer b)
{
  const KeyDef *x = a, *y = b;

  if (x->key != y->key)
    return x->key < y->key ? -1 : 1;
  if (x->filetime != y->filetime)
    return x->filetime < y->filetime ? -1 : 1;
  return x->record < y->record ? -1 : x->record > y->record;
}

static int
cmp_range (gconstpointer a, gconstpointer b)
{
  const Range *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->base != y->base)
    return x->base < y->base ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The record on thread @tid whose raw timestamp is @ets, near @filetime. */
static gboolean
find_event (EtlTrace *trace, const EtlRecord *stack, guint64 ets, guint32 tid, guint64 *out)
{
  const EtlFileInfo *info = etl_trace_get_file_info (trace, stack->file);
  guint64 n = etl_trace_get_n_records (trace);
  gint64 ft;
  guint64 i;
  int best_score = -1;

  if (info == NULL || ets > (guint64)G_MAXINT64)
    return FALSE;
  ft = etl_filetime_from_raw (info->clock_type, info->perf_freq, info->cpu_speed_mhz, info->start_time,
                              info->header_ts_raw, (gint64)ets);
  i = etl_trace_lower_bound (trace, ft > G_MININT64 + 1 ? ft - 1 : ft);
  for (guint k = 0; i < n && k < MATCH_SCAN; i++, k++)
    {
      g_auto (EtlRecord) rec = { 0 };
      int score;

      if (etl_trace_get_filetime (trace, i) > ft + 1)
        break;
      if (!etl_trace_get_record (trace, i, &rec, NULL))
        continue;
      if (rec.ts_raw != (gint64)ets || rec.file != stack->file)
        continue;
      if (is_kernel_header (rec.header_type) && (rec.hook_id & 0xFF00) == 0x1800)
        continue; /* another stack record */
      score = 0;
      if (rec.has_pid && rec.tid == tid)
        score = 3;
      else if (is_kernel_header (rec.header_type) && rec.hook_id == HOOK_SAMPLED_PROFILE
               && rec.user_data_len >= etl_record_get_pointer_size (&rec) + 4
               && read_u32 (rec.user_data + etl_record_get_pointer_size (&rec)) == tid)
        score = 3;
      else if (rec.cpu == stack->cpu)
        score = 1;
      /* The kernel logs the stack on the processor of its event: that
       * decides between the idle threads (tid 0) of several processors
       * sampled at the same tick. */
      if (score == 3 && rec.cpu == stack->cpu)
        score = 4;
      if (score > best_score)
        {
          best_score = score;
          *out = i;
        }
    }
  return best_score >= 0;
}

static const char *
file_part (const char *path)
{
  const char *slash = strrchr (path, '\\');
  const char *fwd = strrchr (path, '/');

  if (fwd != NULL && (slash == NULL || fwd > slash))
    slash = fwd;
  return slash != NULL ? slash + 1 : path;
}

static guint64
field_number (const EtlDecoded *d, const char *name, gboolean *ok)
{
  const EtlField *f = etl_decoded_find (d, name);

  if (f == NULL || !f->has_number)
    {
      *ok = FALSE;
      return 0;
    }
  return f->number;
}

/* Adds an Image record's module to the map, or ends it (Unload). */
static void
add_module (EtlStacks *s, const EtlRecord *rec, Range r, const char *file_name)
{
  if (rec->opcode == IMAGE_UNLOAD)
    {
      for (guint i = s->modules->len; i > 0; i--)
        {
          Range *m = &g_array_index (s->modules, Range, i - 1);

          if (m->pid == r.pid && m->base == r.base && m->end == G_MAXINT64)
            {
              m->end = rec->filetime;
              return;
            }
        }
    }
  r.start = rec->opcode == IMAGE_LOAD ? rec->filetime : 0;
  r.end = rec->opcode == IMAGE_UNLOAD ? rec->filetime : G_MAXINT64;
  r.name = g_string_chunk_insert_const (s->names, file_part (file_name));
  r.id = -1;
  g_array_append_val (s->modules, r);
}

/* Where a kind of Image record (HookId, version, header type) holds
 * ImageBase, ImageSize, ProcessId and its FileName (UTF-16), when they lie
 * at fixed offsets (Image_Load and its kin: only integers and pointers
 * before FileName); @decode otherwise. */
typedef struct
{
  guint16 hook_id;
  guint8 version;
  guint8 header_type;
  gboolean decode;
  EtlFixedField base;
  EtlFixedField size;
  EtlFixedField pid;
  gsize name_offset;
} ImagePlan;

static gint in_place_images = 1; /* atomic; tests compare with the decoder */

static const ImagePlan *
image_plan_for (EtlStacks *s, const EtlRecord *rec, GArray *plans)
{
  static const char *const base_names[] = { "ImageBase", NULL };
  static const char *const size_names[] = { "ImageSize", NULL };
  static const char *const pid_names[] = { "ProcessId", NULL };
  static const char *const *const lists[] = { base_names, size_names, pid_names, NULL };
  g_autoptr (EtlSchema) schema = NULL;
  EtlSchemaRegistry *registry = etl_trace_get_schema_registry (s->trace);
  ImagePlan plan = { 0 };

  for (guint i = 0; i < plans->len; i++)
    {
      const ImagePlan *p = &g_array_index (plans, ImagePlan, i);

      if (p->hook_id == rec->hook_id && p->version == rec->version && p->header_type == rec->header_type)
        return p;
    }
  plan.hook_id = rec->hook_id;
  plan.version = (guint8)rec->version;
  plan.header_type = rec->header_type;
  schema = registry != NULL ? etl_schema_registry_lookup_record (registry, rec) : NULL;
  if (schema == NULL)
    plan.decode = TRUE; /* the decoder may take an earlier version's schema */
  else
    {
      EtlFixedField *const fields[] = { &plan.base, &plan.size, &plan.pid };
      guint ptr = etl_record_get_pointer_size (rec);
      const EtlProperty *name = etl_schema_plan_fixed_offset (schema, ptr, "FileName", &plan.name_offset);

      plan.decode = !etl_schema_plan_fixed_fields (schema, ptr, lists, fields) || plan.base.offset < 0
                    || plan.size.offset < 0 || plan.pid.offset < 0 || name == NULL
                    || name->in_type != ETL_IN_UNICODESTRING || name->length != 0 || name->count != 1
                    || (name->flags & (ETL_PROPERTY_PARAM_LENGTH | ETL_PROPERTY_STRUCT)) != 0;
    }
  g_array_append_val (plans, plan);
  return &g_array_index (plans, ImagePlan, plans->len - 1);
}

typedef enum
{
  IMAGE_READ,   /* @r and the name are read */
  IMAGE_SKIP,   /* what the decoder would skip: a field missing, an empty range */
  IMAGE_DECODE, /* a name that is not plain ASCII, or not ended in the payload */
} ImageRead;

/* An Image record's fields read in place, as the decoder would give them
 * (etl_decode_record(): ImageBase, ImageSize and ProcessId as numbers, the
 * FileName up to its NUL); *@name is set to the FileName when read. */
static ImageRead
image_read (const ImagePlan *plan, const EtlRecord *rec, Range *r, char **name)
{
  const guint8 *d = rec->user_data;
  gsize len = rec->user_data_len, units = 0;
  guint64 base, size, pid;

  if (!etl_fixed_field_read (&plan->base, 1, d, len, &base) || !etl_fixed_field_read (&plan->size, 1, d, len, &size)
      || !etl_fixed_field_read (&plan->pid, 1, d, len, &pid))
    return IMAGE_SKIP;
  if (plan->name_offset >= len || len - plan->name_offset < 2)
    return IMAGE_DECODE;
  for (gsize at = plan->name_offset;; at += 2, units++)
    {
      guint16 u;

      if (at + 2 > len)
        return IMAGE_DECODE;
      u = (guint16)(d[at] | d[at + 1] << 8);
      if (u == 0)
        break;
      if (u < 0x20 || u > 0x7E)
        return IMAGE_DECODE;
    }
  r->base = base;
  r->size = size;
  r->pid = (guint32)pid;
  if (size == 0 || base + size < base)
    return IMAGE_SKIP;
  *name = g_malloc (units + 1);
  for (gsize k = 0; k < units; k++)
    (*name)[k] = (char)d[plan->name_offset + 2 * k];
  (*name)[units] = '\0';
  return IMAGE_READ;
}

/* Image Load/Unload/DCStart/DCEnd: ImageBase, ImageSize, ProcessId,
 * FileName — read in place where its kind allows (image_read(): hundreds of
 * thousands of Image records in a long trace, the decoder formatting a
 * dozen fields of each was most of etl_stacks_compute()'s time), else
 * decoded. */
static void
add_image (EtlStacks *s, const EtlRecord *rec, GArray *plans)
{
  g_autoptr (EtlDecoded) d = NULL;
  const EtlField *name;
  gboolean ok = TRUE;
  Range r = { 0 };

  if (g_atomic_int_get (&in_place_images))
    {
      const ImagePlan *plan = image_plan_for (s, rec, plans);
      g_autofree char *file_name = NULL;

      switch (plan->decode ? IMAGE_DECODE : image_read (plan, rec, &r, &file_name))
        {
        case IMAGE_READ:
          add_module (s, rec, r, file_name);
          return;
        case IMAGE_SKIP:
          return;
        case IMAGE_DECODE:
        default:
          break;
        }
    }
  d = etl_trace_decode_record (s->trace, rec);
  if (d == NULL)
    return;
  r.base = field_number (d, "ImageBase", &ok);
  r.size = field_number (d, "ImageSize", &ok);
  r.pid = (guint32)field_number (d, "ProcessId", &ok);
  name = etl_decoded_find (d, "FileName");
  if (!ok || r.size == 0 || name == NULL || name->value == NULL || r.base + r.size < r.base)
    return;
  add_module (s, rec, r, name->value);
}

/* Whether Image records are read in place (etl-stacks-private.h). */
void
etl_stacks_set_in_place_for_testing (gboolean in_place)
{
  g_atomic_int_set (&in_place_images, in_place);
}

/* Module @i of the map: its name, range and lifetime (etl-stacks-private.h). */
const char *
etl_stacks_get_module_for_testing (EtlStacks *stacks, guint i, guint32 *pid, guint64 *base, guint64 *size,
                                   gint64 *start, gint64 *end)
{
  const Range *m;

  g_return_val_if_fail (stacks != NULL && i < stacks->modules->len, NULL);
  m = &g_array_index (stacks->modules, Range, i);
  *pid = m->pid;
  *base = m->base;
  *size = m->size;
  *start = m->start;
  *end = m->end;
  return m->name;
}

static void
add_method (EtlStacks *s, const EtlRecord *rec)
{
  g_autoptr (EtlDecoded) d = etl_trace_decode_record (s->trace, rec);
  const EtlField *ns, *name;
  gboolean ok = TRUE;
  g_autofree char *full = NULL;
  Range r = { 0 };

  if (d == NULL || !rec->has_pid)
    return;
  r.base = field_number (d, "MethodStartAddress", &ok);
  r.size = field_number (d, "MethodSize", &ok);
  ns = etl_decoded_find (d, "MethodNamespace");
  name = etl_decoded_find (d, "MethodName");
  if (!ok || r.size == 0 || name == NULL || name->value == NULL || r.base + r.size < r.base)
    return;
  r.pid = rec->pid;
  r.start = 0; /* JIT code is seldom reused: a load names its range from the start */
  r.end = G_MAXINT64;
  if (ns != NULL && ns->value != NULL && ns->value[0] != '\0')
    full = g_strconcat (ns->value, ".", name->value, NULL);
  else
    full = g_strdup (name->value);
  r.name = g_string_chunk_insert_const (s->names, full);
  g_array_append_val (s->methods, r);
}

/* Image records by provider: Load is logged under the process group's
 * HookId 0x030A, the others under the image group 0x14 (etl-mof-kernel.c). */
static gboolean
is_image_record (const EtlRecord *rec)
{
  char guid[ETL_GUID_STRING_LEN + 1];

  if (rec->opcode != IMAGE_LOAD && rec->opcode != IMAGE_UNLOAD && rec->opcode != IMAGE_DC_START
      && rec->opcode != IMAGE_DC_END)
    return FALSE;
  etl_guid_to_string (&rec->provider, guid);
  return g_ascii_strcasecmp (guid, IMAGE_PROVIDER) == 0;
}

static gboolean
is_clr_stack_record (const EtlRecord *rec)
{
  char guid[ETL_GUID_STRING_LEN + 1];

  if (is_kernel_header (rec->header_type) || rec->event_id != CLR_STACK_WALK || !rec->has_pid)
    return FALSE;
  etl_guid_to_string (&rec->provider, guid);
  return g_ascii_strcasecmp (guid, CLR_RUNTIME) == 0;
}

static gsize
event_pointer_size (const EtlRecord *rec)
{
  return rec->header_type == ETL_HEADER_TYPE_EVENT_HEADER32
                 || (rec->flags & ETL_EVENT_HEADER_FLAG_32_BIT_HEADER) != 0
             ? 4
             : 8;
}

/* The record the CLRStackWalk @stack (at @index) follows: the last one before
 * it on the same thread that is not a stack record itself. */
static gboolean
find_clr_event (EtlTrace *trace, const EtlRecord *stack, guint64 index, guint64 *out)
{
  for (guint k = 0; index > 0 && k < CLR_BACK_SCAN; index--, k++)
    {
      g_auto (EtlRecord) rec = { 0 };

      if (!etl_trace_get_record (trace, index - 1, &rec, NULL) || !rec.has_pid || rec.tid != stack->tid
          || rec.pid != stack->pid)
        continue;
      if (is_clr_stack_record (&rec))
        return FALSE; /* that one is taken by the previous CLRStackWalk */
      *out = index - 1;
      return TRUE;
    }
  return FALSE;
}

static gboolean
is_clr_method_record (const EtlRecord *rec)
{
  char guid[ETL_GUID_STRING_LEN + 1];

  if (is_kernel_header (rec->header_type) || (rec->event_id != 143 && rec->event_id != 144))
    return FALSE;
  etl_guid_to_string (&rec->provider, guid);
  return g_ascii_strcasecmp (guid, CLR_RUNTIME) == 0 || g_ascii_strcasecmp (guid, CLR_RUNDOWN) == 0;
}

/* Gives ImageID identity @id to module @m unless it has one of that kind, or
 * an RSDS one (the resolvable kind wins). */
static gboolean
offer_id (EtlStacks *s, guint m, guint id)
{
  Range *r = &g_array_index (s->modules, Range, m);
  const EtlModuleId *x = &g_array_index (s->ids, EtlModuleId, id);

  if (x->image_base != r->base)
    return FALSE;
  if (r->id >= 0)
    {
      const EtlModuleId *have = &g_array_index (s->ids, EtlModuleId, r->id);

      if (have->kind == x->kind || have->kind == ETL_MODULE_ID_RSDS)
        return FALSE;
    }
  r->id = (gint32)id;
  return TRUE;
}

/* A new module (at record @record) takes the ImageID identities of its
 * base logged just before it (PerfView's and xperf's merge put them
 * first); older ones are dropped. */
static void
take_pending_ids (EtlStacks *s, GArray *pending, guint m, guint64 record)
{
  for (guint k = pending->len; k > 0; k--)
    {
      const PendingId *p = &g_array_index (pending, PendingId, k - 1);

      if (record - p->record > ID_WINDOW || offer_id (s, m, p->id))
        g_array_remove_index (pending, k - 1);
    }
}

/* A KernelTraceControl DbgID_RSDS / DbgID_ILRSDS / DbgPPDB / DbgDeterm
 * record (etl-module-id.c): kept, and attached to the Image record of the
 * same ImageBase next to it: the one just before it when that has no
 * identity of its kind yet, else the next one (take_pending_ids()).  The
 * same ImageBase recurs (ntdll.dll in every process), so a module that
 * already has its identity passes the record on to the next. */
static void
add_module_id (EtlStacks *s, const EtlRecord *rec, guint64 record, GArray *pending, guint last_module,
               guint64 last_module_record)
{
  EtlModuleId id;
  g_autofree char *pdb_name = NULL;
  PendingId p = { record, s->ids->len };

  if (!etl_module_id_read (rec, &id, &pdb_name))
    return;
  if (pdb_name != NULL)
    id.pdb_name = g_string_chunk_insert_const (s->names, pdb_name);
  g_array_append_val (s->ids, id);
  if (last_module != G_MAXUINT && record - last_module_record <= ID_WINDOW && offer_id (s, last_module, p.id))
    return;
  if (pending->len > 0 && pending->len >= ID_WINDOW)
    g_array_remove_index (pending, 0);
  g_array_append_val (pending, p);
}

/**
 * etl_stacks_compute:
 * @trace: an open trace
 * @progress: (nullable) (scope call): called with the fraction of records
 *   read, from the calling thread
 * @progress_data: closure for @progress
 * @cancellable: (nullable): to stop early
 * @error: return location for G_IO_ERROR_CANCELLED
 *
 * Reads @trace once, in the calling thread (meant for a worker), and
 * attaches its StackWalk / StackKey records to their events and collects its
 * module map and JIT method ranges (see the section description; the
 * layouts are the MOF classes StackWalk_Event, StackWalk_TypeGroup1,
 * StackWalk_KeyEvent and Image_Load, and the CLR MethodLoadVerbose event).
 * A stack record whose event is not found, or a key never defined, is
 * counted but left out.  Memory: 24 bytes per stack record, one entry per
 * image and JIT method.
 *
 * Returns: (transfer full) (nullable): the stacks, or %NULL when cancelled.
 */
EtlStacks *
etl_stacks_compute (EtlTrace *trace, EtlProgressFunc progress, gpointer progress_data,
                    GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlStacks) s = g_new0 (EtlStacks, 1);
  g_autoptr (GArray) keyed = g_array_new (FALSE, FALSE, sizeof (KeyDef)); /* key uses: record = attach index */
  g_autoptr (GArray) defs = g_array_new (FALSE, FALSE, sizeof (KeyDef));
  g_autoptr (GArray) attach = g_array_new (FALSE, FALSE, sizeof (Attach));
  g_autoptr (GArray) image_plans = g_array_new (FALSE, FALSE, sizeof (ImagePlan));
  g_autoptr (GArray) pending = g_array_new (FALSE, FALSE, sizeof (PendingId));
  guint last_module = G_MAXUINT;
  guint64 last_module_record = 0;
  guint64 n = etl_trace_get_n_records (trace);
  const EtlFileInfo *info0 = etl_trace_get_file_info (trace, 0);
  g_autofree guint8 *wanted = NULL;
  guint n_providers;

  g_return_val_if_fail (trace != NULL, NULL);

  s->ref_count = 1;
  g_mutex_init (&s->namer_lock);
  s->trace = etl_trace_ref (trace);
  s->modules = g_array_new (FALSE, FALSE, sizeof (Range));
  s->methods = g_array_new (FALSE, FALSE, sizeof (Range));
  s->names = g_string_chunk_new (4096);
  s->ids = g_array_new (FALSE, FALSE, sizeof (EtlModuleId));
  s->kernel_boundary = info0 != NULL && info0->pointer_size == 4 ? KERNEL_BOUNDARY_32 : KERNEL_BOUNDARY_64;

  /* Only StackWalk, Image and CLR records matter: the provider index says
   * which without reading the record, so traces without them cost one
   * pass over the index. */
  n_providers = etl_trace_get_n_providers (trace);
  wanted = g_new0 (guint8, n_providers + 1);
  for (guint p = 0; p < n_providers; p++)
    {
      char guid[ETL_GUID_STRING_LEN + 1];

      etl_guid_to_string (etl_trace_get_provider (trace, p), guid);
      wanted[p] = g_ascii_strcasecmp (guid, STACK_WALK_PROVIDER) == 0 || g_ascii_strcasecmp (guid, IMAGE_PROVIDER) == 0
                  || g_ascii_strcasecmp (guid, CLR_RUNTIME) == 0 || g_ascii_strcasecmp (guid, CLR_RUNDOWN) == 0
                  || g_ascii_strcasecmp (guid, ETL_MODULE_ID_PROVIDER) == 0;
    }

  for (guint64 i = 0; i < n; i++)
    {
      guint provider;

      if (i % PROGRESS_STEP == 0)
        {
          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            return NULL;
          if (progress != NULL)
            progress ((double)i / (double)n, progress_data);
        }
      provider = etl_trace_get_provider_index (trace, i);
      if (provider >= n_providers || !wanted[provider])
        continue;
      {
        /* Only now: an EtlRecord is 180 bytes to zero and to clear, and
         * most records are not wanted (a third of the time of a pass over
         * 16 M records went to that). */
        g_auto (EtlRecord) rec = { 0 };
        gsize ptr;

        if (!is_kernel_header (etl_trace_get_header_type (trace, i)))
          {
            Attach a = { 0 };

            if (!etl_trace_get_record (trace, i, &rec, NULL))
              continue;
            if (is_clr_method_record (&rec))
              add_method (s, &rec);
            else if (rec.kind == ETL_RECORD_KIND_CLASSIC)
              add_module_id (s, &rec, i, pending, last_module, last_module_record);
            else if (is_clr_stack_record (&rec))
              {
                s->n_stack_records++;
                if (rec.user_data != NULL && rec.user_data_len >= 8 && find_clr_event (trace, &rec, i, &a.event))
                  {
                    a.record = i;
                    a.pid = rec.pid;
                    a.part = PART_CLR;
                    g_array_append_val (attach, a);
                  }
              }
            continue;
          }
        if (!etl_trace_get_record (trace, i, &rec, NULL))
          continue;
        ptr = etl_record_get_pointer_size (&rec);
        switch (rec.hook_id)
          {
          case HOOK_STACK_WALK:
          case HOOK_KEY_KERNEL:
          case HOOK_KEY_USER:
            {
              Attach a = { 0 };
              guint64 ets;
              guint32 tid;

              s->n_stack_records++;
              if (rec.user_data == NULL || rec.user_data_len < 16 + (rec.hook_id == HOOK_STACK_WALK ? 0 : ptr))
                break;
              ets = read_u64 (rec.user_data);
              a.pid = read_u32 (rec.user_data + 8);
              tid = read_u32 (rec.user_data + 12);
              if (!find_event (trace, &rec, ets, tid, &a.event))
                break;
              a.record = i;
              if (rec.hook_id == HOOK_STACK_WALK)
                a.part = PART_FULL;
              else
                {
                  KeyDef use = { read_ptr (rec.user_data + 16, ptr), rec.filetime, attach->len };

                  a.part = rec.hook_id == HOOK_KEY_KERNEL ? PART_KERNEL : PART_USER;
                  g_array_append_val (keyed, use);
                }
              {
                g_auto (EtlRecord) ev = { 0 };

                a.is_sample = etl_trace_get_record (trace, a.event, &ev, NULL)
                              && is_kernel_header (ev.header_type) && ev.hook_id == HOOK_SAMPLED_PROFILE;
              }
              g_array_append_val (attach, a);
            }
            break;
          case HOOK_KEY_DELETE:
          case HOOK_KEY_RUNDOWN:
            if (rec.user_data != NULL && rec.user_data_len >= ptr)
              {
                KeyDef d = { read_ptr (rec.user_data, ptr), rec.filetime, i };

                g_array_append_val (defs, d);
              }
            break;
          default:
            if (is_image_record (&rec))
              {
                guint before = s->modules->len;

                add_image (s, &rec, image_plans);
                if (s->modules->len > before)
                  {
                    last_module = s->modules->len - 1;
                    last_module_record = i;
                    take_pending_ids (s, pending, last_module, i);
                  }
              }
            break;
          }
      }
    }

  /* A key names the frames of its next definition (KeyDelete when it is
   * evicted, KeyRundown at the end); failing that, of the last one before. */
  g_array_sort (defs, cmp_keydef);
  for (guint k = 0; k < keyed->len; k++)
    {
      const KeyDef *use = &g_array_index (keyed, KeyDef, k);
      Attach *a = &g_array_index (attach, Attach, use->record);
      guint lo = 0, hi = defs->len;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          const KeyDef *d = &g_array_index (defs, KeyDef, mid);

          if (d->key < use->key || (d->key == use->key && d->filetime < use->filetime))
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo < defs->len && g_array_index (defs, KeyDef, lo).key == use->key)
        a->record = g_array_index (defs, KeyDef, lo).record;
      else if (lo > 0 && g_array_index (defs, KeyDef, lo - 1).key == use->key)
        a->record = g_array_index (defs, KeyDef, lo - 1).record;
      else
        a->record = G_MAXUINT64; /* never defined */
    }
  s->attach = g_array_sized_new (FALSE, FALSE, sizeof (Attach), attach->len);
  for (guint k = 0; k < attach->len; k++)
    if (g_array_index (attach, Attach, k).record != G_MAXUINT64)
      g_array_append_val (s->attach, g_array_index (attach, Attach, k));
  g_array_sort (s->attach, cmp_attach);
  g_array_sort (s->modules, cmp_range);
  g_array_sort (s->methods, cmp_range);

  if (progress != NULL)
    progress (1.0, progress_data);
  return g_steal_pointer (&s);
}

/**
 * etl_stacks_ref:
 * @stacks: stacks
 *
 * Returns: (transfer full): @stacks
 */
EtlStacks *
etl_stacks_ref (EtlStacks *stacks)
{
  g_atomic_int_inc (&stacks->ref_count);
  return stacks;
}

/**
 * etl_stacks_unref:
 * @stacks: (transfer full): stacks
 *
 * Drops a reference; frees @stacks with the last.
 */
void
etl_stacks_unref (EtlStacks *stacks)
{
  if (stacks == NULL || !g_atomic_int_dec_and_test (&stacks->ref_count))
    return;
  g_clear_pointer (&stacks->trace, etl_trace_unref);
  g_clear_pointer (&stacks->attach, g_array_unref);
  g_clear_pointer (&stacks->modules, g_array_unref);
  g_clear_pointer (&stacks->methods, g_array_unref);
  g_clear_pointer (&stacks->names, g_string_chunk_free);
  g_clear_pointer (&stacks->ids, g_array_unref);
  g_clear_pointer (&stacks->namer, namer_unref);
  g_mutex_clear (&stacks->namer_lock);
  g_free (stacks);
}

/**
 * etl_stacks_get_n_stack_records:
 * @stacks: stacks
 *
 * Returns: the StackWalk, StackKeyKernel, StackKeyUser and CLRStackWalk
 *   records read
 */
guint64
etl_stacks_get_n_stack_records (EtlStacks *stacks)
{
  return stacks->n_stack_records;
}

/**
 * etl_stacks_get_n_attached:
 * @stacks: stacks
 *
 * Returns: the stack records attached to an event (a StackKey record counts
 *   only when its key was defined)
 */
guint64
etl_stacks_get_n_attached (EtlStacks *stacks)
{
  return stacks->attach->len;
}

/**
 * etl_stacks_get_n_modules:
 * @stacks: stacks
 *
 * Returns: the image entries of the module map (a DCStart and a DCEnd of one
 *   image are two entries)
 */
guint
etl_stacks_get_n_modules (EtlStacks *stacks)
{
  return stacks->modules->len;
}

/**
 * etl_stacks_get_n_methods:
 * @stacks: stacks
 *
 * Returns: the JIT method ranges collected from the CLR method records
 */
guint
etl_stacks_get_n_methods (EtlStacks *stacks)
{
  return stacks->methods->len;
}

/**
 * etl_stacks_get_trace:
 * @stacks: stacks
 *
 * Returns: (transfer none): the trace @stacks were computed from
 */
EtlTrace *
etl_stacks_get_trace (EtlStacks *stacks)
{
  g_return_val_if_fail (stacks != NULL, NULL);
  return stacks->trace;
}

static guint
first_attach (EtlStacks *s, guint64 index)
{
  guint lo = 0, hi = s->attach->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (s->attach, Attach, mid).event < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * etl_stacks_has_stack:
 * @stacks: stacks
 * @index: a record index of the trace (merged order)
 *
 * Returns: whether a stack record was attached to record @index
 */
gboolean
etl_stacks_has_stack (EtlStacks *stacks, guint64 index)
{
  guint k = first_attach (stacks, index);

  return k < stacks->attach->len && g_array_index (stacks->attach, Attach, k).event == index;
}

/**
 * etl_stacks_get_frames:
 * @stacks: stacks
 * @index: a record index of the trace (merged order)
 * @pid: (out) (optional): StackProcess of the stack
 *
 * The return addresses of record @index's stack, innermost first: a
 * StackWalk record's Stack[] array, or the kernel key's frames then the user
 * key's; failing those, a CLRStackWalk's Stack[] (FrameCount of them).  At most %ETL_STACKS_MAX_FRAMES frames.
 *
 * Returns: (transfer full) (nullable) (element-type guint64): the frames, or
 *   %NULL when the record has no stack
 */
GArray *
etl_stacks_get_frames (EtlStacks *stacks, guint64 index, guint32 *pid)
{
  guint k = first_attach (stacks, index);
  GArray *frames = NULL;

  for (; k < stacks->attach->len && g_array_index (stacks->attach, Attach, k).event == index; k++)
    {
      const Attach *a = &g_array_index (stacks->attach, Attach, k);
      g_auto (EtlRecord) rec = { 0 };
      gsize ptr, off;

      gsize end;

      if (a->part == PART_CLR && frames != NULL && frames->len > 0)
        break; /* the kernel's stack already has the managed frames */
      if (!etl_trace_get_record (stacks->trace, a->record, &rec, NULL) || rec.user_data == NULL)
        continue;
      end = rec.user_data_len;
      if (a->part == PART_CLR)
        {
          ptr = event_pointer_size (&rec);
          off = 8;
          end = MIN (end, off + (gsize)MIN (read_u32 (rec.user_data + 4), ETL_STACKS_MAX_FRAMES) * ptr);
        }
      else
        {
          ptr = etl_record_get_pointer_size (&rec);
          off = a->part == PART_FULL ? 16 : ptr;
        }
      if (frames == NULL)
        frames = g_array_new (FALSE, FALSE, sizeof (guint64));
      if (pid != NULL)
        *pid = a->pid;
      for (; off + ptr <= end && frames->len < ETL_STACKS_MAX_FRAMES; off += ptr)
        {
          guint64 addr = read_ptr (rec.user_data + off, ptr);

          g_array_append_val (frames, addr);
        }
    }
  return frames;
}

static const Range *
find_range (GArray *ranges, guint32 pid, gint64 filetime, guint64 address)
{
  guint lo = 0, hi = ranges->len;
  const Range *fallback = NULL;

  /* The last range of @pid with base <= @address. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const Range *r = &g_array_index (ranges, Range, mid);

      if (r->pid < pid || (r->pid == pid && r->base <= address))
        lo = mid + 1;
      else
        hi = mid;
    }
  for (guint k = 0; lo > 0 && k < BACK_SCAN; lo--, k++)
    {
      const Range *r = &g_array_index (ranges, Range, lo - 1);

      if (r->pid != pid)
        break;
      if (address - r->base >= r->size)
        continue;
      if (filetime >= r->start && filetime <= r->end)
        return r;
      if (fallback == NULL)
        fallback = r;
    }
  return fallback;
}

/* The image that holds @address: kernel addresses in the images of
 * processes 0 and 4, others in @pid's. */
static const Range *
find_module_range (EtlStacks *stacks, guint32 pid, gint64 filetime, guint64 address)
{
  const Range *r = NULL;

  if (address >= stacks->kernel_boundary)
    {
      r = find_range (stacks->modules, 0, filetime, address);
      if (r == NULL)
        r = find_range (stacks->modules, 4, filetime, address);
    }
  if (r == NULL)
    r = find_range (stacks->modules, pid, filetime, address);
  return r;
}

/**
 * etl_stacks_find_module:
 * @stacks: stacks
 * @pid: the stack's process (StackProcess)
 * @filetime: the event's time, FILETIME
 * @address: a return address
 *
 * The module etl_stacks_symbolize() names @address after (kernel addresses
 * in the images of processes 0 and 4, others in @pid's; an image valid at
 * @filetime preferred).
 *
 * Returns: the module's index for etl_stacks_get_module(), or -1
 */
gint
etl_stacks_find_module (EtlStacks *stacks, guint32 pid, gint64 filetime, guint64 address)
{
  const Range *r;

  g_return_val_if_fail (stacks != NULL, -1);
  r = find_module_range (stacks, pid, filetime, address);
  return r != NULL ? (gint)(r - (const Range *)stacks->modules->data) : -1;
}

/**
 * etl_stacks_get_module:
 * @stacks: stacks
 * @index: a module, below etl_stacks_get_n_modules()
 * @module: (out caller-allocates): its image: process, ImageBase,
 *   ImageSize, lifetime, file name and the KernelTraceControl identity
 *   attached to it (see etl-module-id.c); the pointers live as long as
 *   @stacks
 *
 * Returns: %FALSE when @index is out of range
 */
gboolean
etl_stacks_get_module (EtlStacks *stacks, guint index, EtlStackModule *module)
{
  const Range *r;

  g_return_val_if_fail (stacks != NULL && module != NULL, FALSE);
  if (index >= stacks->modules->len)
    return FALSE;
  r = &g_array_index (stacks->modules, Range, index);
  module->pid = r->pid;
  module->base = r->base;
  module->size = r->size;
  module->start = r->start;
  module->end = r->end;
  module->name = r->name;
  module->id = r->id >= 0 ? &g_array_index (stacks->ids, EtlModuleId, r->id) : NULL;
  return TRUE;
}

/**
 * etl_stacks_get_n_module_ids:
 * @stacks: stacks
 *
 * Returns: the KernelTraceControl DbgID_RSDS, DbgID_ILRSDS, DbgPPDB and
 *   DbgDeterm records read (attached to an image or not)
 */
guint
etl_stacks_get_n_module_ids (EtlStacks *stacks)
{
  g_return_val_if_fail (stacks != NULL, 0);
  return stacks->ids->len;
}

/**
 * etl_stacks_get_module_id:
 * @stacks: stacks
 * @index: below etl_stacks_get_n_module_ids()
 *
 * Returns: (transfer none) (nullable): the @index-th ImageID identity in
 *   record order, %NULL when out of range
 */
const EtlModuleId *
etl_stacks_get_module_id (EtlStacks *stacks, guint index)
{
  g_return_val_if_fail (stacks != NULL, NULL);
  return index < stacks->ids->len ? &g_array_index (stacks->ids, EtlModuleId, index) : NULL;
}

/**
 * etl_stacks_set_namer_full:
 * @stacks: stacks
 * @namer: (nullable) (scope notified): names a frame in a module, or %NULL
 *   to go back to `module+0xOFFSET`
 * @data: (transfer full): closure for @namer
 * @destroy: (nullable): frees @data once no thread uses this namer any more
 *
 * Lets a symbol resolver (etl-symbol-resolver.c) name the frames that fall
 * in modules: etl_stacks_symbolize() then gives `module!function+0xOFFSET`
 * (`module!function` at offset 0) and etl_stacks_summarize() groups by
 * `module!function` where @namer answers, `module+0xOFFSET` and the module
 * elsewhere.  @namer is called from any thread that symbolizes.
 *
 * Safe to call while other threads name frames: the namer is an immutable
 * record swapped under a lock and reference-counted; a thread naming a
 * frame (or summarizing: one namer for the whole summary) holds a
 * reference to the one it started with, and @destroy of the old namer runs
 * when the last such thread is done with it, in that thread.
 */
void
etl_stacks_set_namer_full (EtlStacks *stacks, EtlStacksNamer namer, gpointer data, GDestroyNotify destroy)
{
  Namer *n = NULL, *old;

  g_return_if_fail (stacks != NULL);
  if (namer != NULL)
    {
      n = g_new0 (Namer, 1);
      n->ref_count = 1;
      n->func = namer;
      n->data = data;
      n->destroy = destroy;
    }
  g_mutex_lock (&stacks->namer_lock);
  old = stacks->namer;
  g_atomic_pointer_set (&stacks->namer, n);
  g_mutex_unlock (&stacks->namer_lock);
  namer_unref (old);
  if (namer == NULL && destroy != NULL)
    destroy (data);
}

/**
 * etl_stacks_set_namer:
 * @stacks: stacks
 * @namer: (nullable) (scope notified): names a frame in a module, or %NULL
 * @data: closure for @namer; not owned: after a swap, a thread that was
 *   naming a frame with the old namer may still be inside it, so @data
 *   must outlive the stacks' users or go through
 *   etl_stacks_set_namer_full()
 *
 * etl_stacks_set_namer_full() without a destroy notify.
 */
void
etl_stacks_set_namer (EtlStacks *stacks, EtlStacksNamer namer, gpointer data)
{
  etl_stacks_set_namer_full (stacks, namer, data, NULL);
}

/**
 * etl_stacks_symbolize:
 * @stacks: stacks
 * @pid: the stack's process (StackProcess)
 * @filetime: the event's time, FILETIME
 * @address: a return address
 * @resolved: (out) (optional): whether @address was found in a module or a
 *   JIT method
 *
 * Names @address: `module.dll!function+0xOFFSET` when a namer
 * (etl_stacks_set_namer()) knows it, else `module.dll+0xOFFSET` from the
 * Image records (kernel addresses from the images of processes 0 and 4), a JIT
 * method as `Namespace.Method`, else the address as `0x…`.  An image or
 * method valid at @filetime is preferred; one of another time is used when
 * no other matches.
 *
 * Returns: (transfer full): the frame's name
 */
char *
etl_stacks_symbolize (EtlStacks *stacks, guint32 pid, gint64 filetime, guint64 address,
                      gboolean *resolved)
{
  const Range *r = find_module_range (stacks, pid, filetime, address);

  if (resolved != NULL)
    *resolved = TRUE;
  if (r != NULL)
    {
      Namer *n = namer_get (stacks);

      if (n != NULL)
        {
          guint32 offset = 0;
          const char *name = n->func (n->data, (guint)(r - (const Range *)stacks->modules->data),
                                      address - r->base, &offset);
          char *text = NULL;

          if (name != NULL && offset == 0)
            text = g_strdup (name);
          else if (name != NULL)
            text = g_strdup_printf ("%s+0x%" G_GINT32_MODIFIER "x", name, offset);
          namer_unref (n);
          if (text != NULL)
            return text;
        }
      return g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x", r->name, address - r->base);
    }
  r = find_range (stacks->methods, pid, filetime, address);
  if (r != NULL)
    return g_strdup (r->name);
  if (resolved != NULL)
    *resolved = FALSE;
  return g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", address);
}

/* The group of a frame for the summary: function (`module!function`, with
 * a namer), module, method or "?". */
static const char *
frame_group (EtlStacks *s, Namer *n, guint32 pid, gint64 filetime, guint64 address)
{
  const Range *r = find_module_range (s, pid, filetime, address);

  if (r != NULL && n != NULL)
    {
      const char *name = n->func (n->data, (guint)(r - (const Range *)s->modules->data), address - r->base, NULL);

      if (name != NULL)
        return name;
    }
  if (r == NULL)
    r = find_range (s->methods, pid, filetime, address);
  return r != NULL ? r->name : NULL;
}

/**
 * etl_stacks_dup_symbolized:
 * @stacks: stacks
 * @index: a record index of the trace (merged order)
 *
 * Record @index's stack, innermost frame first, each named by
 * etl_stacks_symbolize().
 *
 * Returns: (transfer full) (nullable): a %NULL-terminated array, or %NULL
 *   when the record has no stack
 */
char **
etl_stacks_dup_symbolized (EtlStacks *stacks, guint64 index)
{
  guint32 pid = 0;
  g_autoptr (GArray) frames = etl_stacks_get_frames (stacks, index, &pid);
  gint64 ft;
  GPtrArray *out;

  if (frames == NULL)
    return NULL;
  ft = etl_trace_get_filetime (stacks->trace, index);
  out = g_ptr_array_sized_new (frames->len + 1);
  for (guint k = 0; k < frames->len; k++)
    g_ptr_array_add (out, etl_stacks_symbolize (stacks, pid, ft, g_array_index (frames, guint64, k), NULL));
  g_ptr_array_add (out, NULL);
  return (char **)g_ptr_array_free (out, FALSE);
}

typedef struct
{
  guint row;
  guint64 stamp;
} Seen;

static int
cmp_row (gconstpointer a, gconstpointer b)
{
  const EtlStackFrameCount *x = a, *y = b;

  if (x->exclusive != y->exclusive)
    return x->exclusive > y->exclusive ? -1 : 1;
  if (x->inclusive != y->inclusive)
    return x->inclusive > y->inclusive ? -1 : 1;
  return strcmp (x->name, y->name);
}

static void
clear_row (gpointer p)
{
  g_free (((EtlStackFrameCount *)p)->name);
}

/**
 * etl_stacks_summarize:
 * @stacks: stacks
 * @from_filetime: start of the range, FILETIME, inclusive
 * @to_filetime: end of the range, FILETIME, exclusive
 * @cancellable: (nullable): to stop early
 * @error: return location for G_IO_ERROR_CANCELLED
 *
 * Counts the PerfInfo SampledProfile records in the range and their stacks'
 * frames, grouped by module (frames in an image), JIT method, or "?"
 * (unknown addresses): exclusive = samples whose innermost frame is in the
 * group, inclusive = samples with the group anywhere in the stack.  Meant for
 * a worker.
 *
 * Returns: (transfer full) (nullable): the summary, %NULL when cancelled
 */
EtlStackSummary *
etl_stacks_summarize (EtlStacks *stacks, gint64 from_filetime, gint64 to_filetime,
                      GCancellable *cancellable, GError **error)
{
  g_autoptr (EtlStackSummary) sum = g_new0 (EtlStackSummary, 1);
  g_autoptr (GHashTable) by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  guint64 first = etl_trace_lower_bound (stacks->trace, from_filetime);
  guint64 last = etl_trace_lower_bound (stacks->trace, to_filetime);
  guint64 stamp = 0;
  g_autoptr (Namer) namer = namer_get (stacks); /* one namer for the whole summary */

  sum->rows = g_array_new (FALSE, FALSE, sizeof (EtlStackFrameCount));
  g_array_set_clear_func (sum->rows, clear_row);

  for (guint64 i = first; i < last; i++)
    {
      EtlRecordBrief rec;

      if ((i - first) % PROGRESS_STEP == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (is_kernel_header (etl_trace_get_header_type (stacks->trace, i))
          && etl_trace_peek_record (stacks->trace, i, &rec))
        {
          sum->n_samples += rec.hook_id == HOOK_SAMPLED_PROFILE;
          etl_record_brief_clear (&rec);
        }
    }

  for (guint k = first_attach (stacks, first); k < stacks->attach->len; k++)
    {
      const Attach *a = &g_array_index (stacks->attach, Attach, k);
      g_autoptr (GArray) frames = NULL;
      guint32 pid = 0;
      gint64 ft;

      if (a->event >= last)
        break;
      if (!a->is_sample || (k > 0 && g_array_index (stacks->attach, Attach, k - 1).event == a->event))
        continue;
      frames = etl_stacks_get_frames (stacks, a->event, &pid);
      if (frames == NULL || frames->len == 0)
        continue;
      ft = etl_trace_get_filetime (stacks->trace, a->event);
      sum->n_with_stack++;
      stamp++;
      for (guint f = 0; f < frames->len; f++)
        {
          const char *group = frame_group (stacks, namer, pid, ft, g_array_index (frames, guint64, f));
          Seen *seen;
          EtlStackFrameCount *row;

          sum->n_frames++;
          if (group != NULL)
            sum->n_resolved++;
          else
            group = "?";
          seen = g_hash_table_lookup (by_name, group);
          if (seen == NULL)
            {
              EtlStackFrameCount c = { g_strdup (group), 0, 0 };

              seen = g_new0 (Seen, 1);
              seen->row = sum->rows->len;
              g_array_append_val (sum->rows, c);
              g_hash_table_insert (by_name, g_array_index (sum->rows, EtlStackFrameCount, seen->row).name, seen);
            }
          row = &g_array_index (sum->rows, EtlStackFrameCount, seen->row);
          if (f == 0)
            row->exclusive++;
          if (seen->stamp != stamp)
            {
              seen->stamp = stamp;
              row->inclusive++;
            }
        }
    }
  g_hash_table_remove_all (by_name); /* its keys are the rows' names */
  g_array_sort (sum->rows, cmp_row);
  return g_steal_pointer (&sum);
}

/**
 * etl_stack_summary_free:
 * @summary: (transfer full) (nullable): a summary
 *
 * Frees @summary.
 */
void
etl_stack_summary_free (EtlStackSummary *summary)
{
  if (summary == NULL)
    return;
  g_clear_pointer (&summary->rows, g_array_unref);
  g_free (summary);
}
