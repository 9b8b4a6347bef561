/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-builtin-spans.h"

G_BEGIN_DECLS

/* The record classes the pass reads (etl-builtin-spans.c). */
typedef enum
{
  ETL_SPAN_CLASS_NONE,
  ETL_SPAN_CLASS_CLR,     /* Microsoft-Windows-DotNETRuntime */
  ETL_SPAN_CLASS_DISKIO,  /* kernel DiskIo */
  ETL_SPAN_CLASS_FILEIO,  /* kernel FileIo */
  ETL_SPAN_CLASS_PROCESS, /* kernel Process */
  ETL_SPAN_CLASS_THREAD,  /* kernel Thread */
} EtlSpanClass;

/* One record fed to the builder, in record order (tests feed them by hand). */
typedef struct
{
  guint64 record;
  gint64 filetime;
  gboolean has_pid;
  guint32 pid;           /* the header's, when has_pid */
  guint32 tid;
  guint8 cls;            /* EtlSpanClass */
  guint8 opcode;
  guint16 event_id;      /* CLR events: EVENT_DESCRIPTOR.Id */
  guint8 version;
  guint pointer_size;    /* 4 or 8 */
  const guint8 *payload; /* (nullable) UserData */
  gsize len;
  gint64 clock_freq;     /* ticks per second of the record's clock (DiskIo), 0 unknown */
  guint32 issuing_pid;   /* DiskIo: the process of IssuingThreadId, G_MAXUINT32 unknown */
  /* Process records (decoded by the pass): */
  guint32 process_id;
  guint32 parent_id;
  guint32 exit_status;
  const char *image;     /* (nullable) ImageFileName */
} EtlSpanRecord;

typedef struct _EtlSpansBuilder EtlSpansBuilder;

EtlSpansBuilder *etl_spans_builder_new (guint kinds);
void etl_spans_builder_add (EtlSpansBuilder *b, const EtlSpanRecord *r);
EtlBuiltinSpans *etl_spans_builder_finish (EtlSpansBuilder *b, gint64 last_filetime);
void etl_builtin_spans_name_files (EtlBuiltinSpans *spans, EtlTrace *trace);

G_END_DECLS
