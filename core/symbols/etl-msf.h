/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-pdb-error.h"

G_BEGIN_DECLS

/* The block size of MSF 7.00 ("big MSF") files: 512 to 32768, a power of two. */
#define ETL_MSF_MIN_BLOCK_SIZE 512
#define ETL_MSF_MAX_BLOCK_SIZE 32768
/* A stream the directory lists with this size does not exist ("nil stream"). */
#define ETL_MSF_NIL_STREAM_SIZE 0xFFFFFFFFu
/* Bytes of the superblock: the 32-byte magic and six 32-bit fields. */
#define ETL_MSF_SUPERBLOCK_SIZE 56

typedef struct _EtlMsf EtlMsf;

EtlMsf *etl_msf_open (const char *path, GError **error);
EtlMsf *etl_msf_new_from_bytes (GBytes *bytes, const char *path, GError **error);
void etl_msf_free (EtlMsf *msf);

const char *etl_msf_get_path (const EtlMsf *msf);
guint32 etl_msf_get_block_size (const EtlMsf *msf);
guint32 etl_msf_get_n_blocks (const EtlMsf *msf);
guint32 etl_msf_get_n_streams (const EtlMsf *msf);
gboolean etl_msf_has_stream (const EtlMsf *msf, guint32 stream);
guint32 etl_msf_get_stream_size (const EtlMsf *msf, guint32 stream);
guint64 etl_msf_get_file_offset (const EtlMsf *msf, guint32 stream, guint32 offset);
GBytes *etl_msf_read_stream (const EtlMsf *msf, guint32 stream, GError **error);

void etl_msf_set_stream_error (const EtlMsf *msf, GError **error, EtlPdbError code, guint32 stream,
                               guint32 offset, const char *format, ...) G_GNUC_PRINTF (6, 7);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlMsf, etl_msf_free)

G_END_DECLS
