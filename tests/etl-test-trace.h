/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "etl-test-util.h"
#include "etl-trace.h"

G_BEGIN_DECLS

/* Opens the corpus file @name (relative to the corpus folder) alone and
 * asserts the open succeeded; NULL when the file is missing (the test is
 * then skipped, or in CI failed: etl_test_corpus_path()). */
static inline EtlTrace *
etl_test_open_corpus (const char *name)
{
  g_autofree char *path = etl_test_corpus_path (name);
  g_autoptr (GError) error = NULL;
  EtlTrace *trace;

  if (path == NULL)
    return NULL;
  trace = etl_trace_open ((const char *const[]){ path, NULL }, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

G_END_DECLS
