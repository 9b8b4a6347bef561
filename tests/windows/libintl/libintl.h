/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * libintl.h: a libintl that translates nothing, for the mingw-w64 cross
 * sysroot only (tests/windows/sysroot.sh).  Debian ships no gettext built
 * for mingw-w64 and etlscope has no message catalogues, so GLib and GTK get
 * the identity functions they link against.  Not installed with etlscope.
 *
 * The Windows C runtime has no LC_MESSAGES category; GNU libintl supplies
 * one and wraps setlocale() to accept it, and so does this header.
 */
#ifndef ETLSCOPE_LIBINTL_H
#define ETLSCOPE_LIBINTL_H

#include <locale.h>

#ifndef LC_MESSAGES
#define LC_MESSAGES 1729
#define ETLSCOPE_INTL_OWN_LC_MESSAGES 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* GLib builds with -Werror=format-nonliteral: gettext (fmt) must keep the
 * format checks on fmt, which format_arg tells the compiler. */
#ifdef __GNUC__
#define ETLSCOPE_INTL_FORMAT_ARG(i) __attribute__ ((__format_arg__ (i)))
#else
#define ETLSCOPE_INTL_FORMAT_ARG(i)
#endif

char *gettext (const char *msgid) ETLSCOPE_INTL_FORMAT_ARG (1);
char *dgettext (const char *domain, const char *msgid) ETLSCOPE_INTL_FORMAT_ARG (2);
char *dcgettext (const char *domain, const char *msgid, int category) ETLSCOPE_INTL_FORMAT_ARG (2);
char *ngettext (const char *singular, const char *plural, unsigned long n)
  ETLSCOPE_INTL_FORMAT_ARG (1) ETLSCOPE_INTL_FORMAT_ARG (2);
char *dngettext (const char *domain, const char *singular, const char *plural, unsigned long n)
  ETLSCOPE_INTL_FORMAT_ARG (2) ETLSCOPE_INTL_FORMAT_ARG (3);
char *dcngettext (const char *domain, const char *singular, const char *plural, unsigned long n,
                  int category) ETLSCOPE_INTL_FORMAT_ARG (2) ETLSCOPE_INTL_FORMAT_ARG (3);
char *textdomain (const char *domain);
char *bindtextdomain (const char *domain, const char *dir);
char *bind_textdomain_codeset (const char *domain, const char *codeset);
char *etlscope_intl_setlocale (int category, const char *locale);

#ifdef ETLSCOPE_INTL_OWN_LC_MESSAGES
#undef setlocale
#define setlocale etlscope_intl_setlocale
#endif

#ifdef __cplusplus
}
#endif

#endif /* ETLSCOPE_LIBINTL_H */
