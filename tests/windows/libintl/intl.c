/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * intl.c: the identity libintl declared in libintl.h (see there why).
 */
#include "libintl.h"

#include <string.h>

/* The real setlocale, not the macro from libintl.h. */
#undef setlocale

char *
etlscope_intl_setlocale (int category, const char *locale)
{
#ifdef ETLSCOPE_INTL_OWN_LC_MESSAGES
  if (category == LC_MESSAGES)
    return (char *) "C";
#endif
  return setlocale (category, locale);
}

static char domain_name[128] = "messages";

char *
gettext (const char *msgid)
{
  return (char *) msgid;
}

char *
dgettext (const char *domain, const char *msgid)
{
  (void) domain;
  return (char *) msgid;
}

char *
dcgettext (const char *domain, const char *msgid, int category)
{
  (void) domain;
  (void) category;
  return (char *) msgid;
}

char *
ngettext (const char *singular, const char *plural, unsigned long n)
{
  return (char *) (n == 1 ? singular : plural);
}

char *
dngettext (const char *domain, const char *singular, const char *plural, unsigned long n)
{
  (void) domain;
  return (char *) (n == 1 ? singular : plural);
}

char *
dcngettext (const char *domain, const char *singular, const char *plural, unsigned long n,
            int category)
{
  (void) domain;
  (void) category;
  return (char *) (n == 1 ? singular : plural);
}

char *
textdomain (const char *domain)
{
  if (domain != NULL && domain[0] != '\0')
    {
      size_t len = strlen (domain);
      if (len >= sizeof domain_name)
        len = sizeof domain_name - 1;
      memcpy (domain_name, domain, len);
      domain_name[len] = '\0';
    }
  return domain_name;
}

char *
bindtextdomain (const char *domain, const char *dir)
{
  (void) domain;
  return (char *) dir;
}

char *
bind_textdomain_codeset (const char *domain, const char *codeset)
{
  (void) domain;
  return (char *) codeset;
}
