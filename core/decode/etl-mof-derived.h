/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "etl-decode.h"

G_BEGIN_DECLS

/**
 * EtlMofFileNames:
 *
 * Kernel file keys (FileIo_Name's FileObject, DiskIo's and HardFault's
 * FileKey) to file names, from the trace's FileIo Name, FileCreate and
 * FileRundown records.  Filled while a trace is indexed.
 */
typedef struct _EtlMofFileNames EtlMofFileNames;

EtlMofFileNames *etl_mof_file_names_new (void);
void etl_mof_file_names_free (EtlMofFileNames *names);
gboolean etl_mof_file_names_add (EtlMofFileNames *names, const EtlDecoded *decoded);
const char *etl_mof_file_names_lookup (const EtlMofFileNames *names, guint64 file_key);

GArray *etl_mof_derived_fields (const EtlDecoded *decoded, const EtlRecord *record,
                                gint64 clock_freq, const EtlMofFileNames *file_names);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (EtlMofFileNames, etl_mof_file_names_free)

G_END_DECLS
