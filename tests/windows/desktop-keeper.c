/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Keeps Wine's desktop (explorer.exe /desktop) and system processes up while
 * the tests run under Wine (tests/windows/run.sh starts it with its stdio on
 * /dev/null and ends it with wineserver -k).
 *
 * Why: Wine starts explorer.exe, services.exe and the rest on demand, as
 * children of the first program that needs them, and they inherit that
 * program's stdout and stderr.  Under meson test that first program is a
 * test whose output meson reads to the end: with the tests running back to
 * back, the desktop never goes idle, explorer.exe never exits, the pipe never
 * ends, and meson reports the test as a TIMEOUT although all its subtests
 * passed (seen in CI on the reader test, and reproduced: the pipe of the
 * first test was open in wineserver, services.exe and explorer.exe).
 * GetDesktopWindow() attaches this process to the desktop, which starts
 * those processes from here instead. */

#include <windows.h>

int
main (void)
{
  (void) GetDesktopWindow ();
  Sleep (INFINITE);
  return 0;
}
