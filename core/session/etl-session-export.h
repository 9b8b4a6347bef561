/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * etl-session-export.h: turn an #EtlSession into C code that builds the same
 * EVENT_TRACE_PROPERTIES allocation, or into logman / xperf / tracelog
 * command lines with Windows command-line quoting.
 */
#pragma once

#include "etl-session.h"

G_BEGIN_DECLS

char *etl_session_quote_arg (const char *arg);
char *etl_session_export_c (const EtlSession *session);
char *etl_session_export_logman (const EtlSession *session, GPtrArray *notes);
char *etl_session_export_xperf (const EtlSession *session, GPtrArray *notes);
char *etl_session_export_tracelog (const EtlSession *session, GPtrArray *notes);
char *etl_session_export_layout_asserts (void);

G_END_DECLS
