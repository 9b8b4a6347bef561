#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Opens a corpus trace in etlscope.exe (from the unzipped portable package)
# under Wine on an Xvfb screen of each size given and takes a screenshot.
# Passes when, at every size, the window titled after the trace appeared
# and drew (many colours, not a blank screen), the program was still running
# when the screenshot was taken, and it printed no GLib/GTK critical or
# warning other than the Wine-only ones named below.
#
#   sh tests/windows/gui-wine.sh ETLSCOPE_EXE TRACE.etl WIDTHxHEIGHT:SHOT.png...
#
# The Wine prefix is the script's own (a fresh one in a temporary folder,
# about 15 s), shut down (wineserver -k) and removed at the end, also on
# failure.  Its output goes to files only: a Wine process started here must
# not hold a caller's pipe open (see tests/windows/desktop-keeper.c).
#
# The prefix sees only the fonts registered in it (Tahoma and DejaVu) and
# runs GApplication without a session bus: tests/windows/wine-prefix.sh.
#
# Exit 77 (skip) when Xvfb, ImageMagick, xdotool or Wine is missing.
set -u
exe=${1:?usage: gui-wine.sh ETLSCOPE_EXE TRACE.etl WIDTHxHEIGHT:SHOT.png...}
trace=${2:?usage: gui-wine.sh ETLSCOPE_EXE TRACE.etl WIDTHxHEIGHT:SHOT.png...}
shift 2
[ $# -gt 0 ] || { echo "usage: gui-wine.sh ETLSCOPE_EXE TRACE.etl WIDTHxHEIGHT:SHOT.png..."; exit 2; }

for tool in xvfb-run import convert xdotool wine wineboot wineserver; do
  command -v $tool >/dev/null 2>&1 || { echo "skipped: $tool not found"; exit 77; }
done
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")

t0=$(date +%s)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/etlscope-gui-wine.XXXXXX")
# No Mono/Gecko installers; no debugger on a crash (winedbg would keep the
# crashed program up until the timeout).
export WINEPREFIX="$tmp/prefix" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d"
unset WINEPATH
cleanup () {
  if [ -d "$WINEPREFIX" ]; then wineserver -k >/dev/null 2>&1; wineserver -w >/dev/null 2>&1; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

. "$(dirname "$0")/wine-prefix.sh"
wine_fonts_conf "$tmp"
wine_prefix_make "$tmp" || exit 1
t_prefix=$(($(date +%s) - t0))

cp "$trace" "$tmp/"
name=$(basename "$trace")

# One run on an Xvfb screen of the size: the screenshot in $tmp/shot.png,
# the program's output in $tmp/app.log, "alive"/"exited" in $tmp/state.
cat >"$tmp/run.sh" <<EOF
cd "$tmp"
GSETTINGS_BACKEND=memory wine "$exe" "$name" >"$tmp/app.log" 2>&1 </dev/null &
pid=\$!
# The window: up to 90 s for Wine and GTK to start and the trace to load;
# drawn when its title names the trace and the screen has many colours.
n=0
: >"$tmp/title"
while [ \$n -lt 90 ]; do
  sleep 1
  n=\$((n + 1))
  kill -0 \$pid 2>/dev/null || break
  xdotool search --name "$name" getwindowname %@ >"$tmp/title" 2>/dev/null || continue
  import -window root "$tmp/shot.png" 2>/dev/null
  colours=\$(convert "$tmp/shot.png" -format %k info: 2>/dev/null || echo 0)
  [ "\$colours" -gt 64 ] && break
done
echo \$n >"$tmp/seconds"
# The pointer (Wine puts it in the middle of the screen, over a widget with
# a tooltip) onto the header bar above the title, which has none; moved
# twice, as a tooltip that showed meanwhile goes only on a motion inside
# the window.  Until then, drawing settles (the views fill in after the
# window shows).
xdotool mousemove \$((\$2 / 2)) 4 2>/dev/null
sleep 2
xdotool mousemove \$((\$2 / 2 + 1)) 3 2>/dev/null
sleep 2
import -window root "$tmp/shot.png"
if kill -0 \$pid 2>/dev/null; then echo alive >"$tmp/state"; else echo exited >"$tmp/state"; fi
wineserver -k
wait \$pid 2>/dev/null
EOF

# GDK 3.24.38 warnings every GTK program prints under Wine 8: Wine has no
# keyboard layout DLLs (KBDUS.DLL …) nor their registry keys, and no monitor
# device-node properties.
wine_only="Gdk-WARNING \*\*: [0-9:.]*: (Could not open registry key '(SYSTEM.CurrentControlSet.Control.Keyboard Layouts.|Keyboard Layout.Substitutes)|Failed to load keyboard layout DLL for layout|Failed to get device node property)"
# Adwaita's CSS names an SVG asset first and a PNG second; the package's
# gdk-pixbuf has no SVG loader, so GTK says so once and draws the PNG (this
# one shows on Windows too).
no_svg="Gtk-WARNING \*\*: [0-9:.]*: Could not load a pixbuf from /org/gtk/libgtk/theme/Adwaita/assets/[a-z0-9-]*\.svg\."

status=0
summary=""
for arg in "$@"; do
  size=${arg%%:*}
  shot=${arg#*:}
  width=${size%x*}
  height=${size#*x}
  rm -f "$tmp/shot.png" "$tmp/state" "$tmp/seconds" "$tmp/app.log"
  # First-run window state at each size (etlscope keeps it in %LOCALAPPDATA%).
  rm -rf "$WINEPREFIX"/drive_c/users/*/AppData/Local/etlscope
  xvfb-run -a -s "-screen 0 ${width}x${height}x24" sh "$tmp/run.sh" "$height" "$width" >"$tmp/xvfb.log" 2>&1

  state=$(cat "$tmp/state" 2>/dev/null || echo none)
  title=$(head -n 1 "$tmp/title" 2>/dev/null)
  colours=$(convert "$tmp/shot.png" -format %k info: 2>/dev/null || echo 0)
  geometry=$(identify -format %wx%h "$tmp/shot.png" 2>/dev/null)
  if [ -f "$tmp/shot.png" ]; then mkdir -p "$(dirname "$shot")" && cp "$tmp/shot.png" "$shot"; fi
  echo "--- $size: etlscope.exe output:"
  tr -d '\r' <"$tmp/app.log" 2>/dev/null
  tr -d '\r' <"$tmp/app.log" 2>/dev/null | grep -v -E "$wine_only" | grep -v -E "$no_svg" >"$tmp/app-left.log"
  problems=""
  if grep -E -q 'CRITICAL|WARNING|-ERROR|err:|Unhandled|page fault|Fontconfig error' "$tmp/app-left.log"; then
    problems="$problems; printed $(grep -c -E 'CRITICAL|WARNING|-ERROR|err:|Unhandled|page fault|Fontconfig error' "$tmp/app-left.log") criticals/warnings besides the Wine-only ones (above)"
  fi
  [ "$state" = alive ] || problems="$problems; etlscope.exe $state before the screenshot"
  case $title in *"$name"*) ;; *) problems="$problems; no window titled after $name" ;; esac
  [ "$colours" -gt 64 ] || problems="$problems; no window drawn (screenshot of $colours colours)"
  [ "$geometry" = "$size" ] || problems="$problems; screenshot is $geometry, not $size"
  if [ -n "$problems" ]; then
    echo "$size: FAILED${problems#;}"
    status=1
  else
    echo "$size: window \"$title\" drawn after $(cat "$tmp/seconds") s, $colours colours, no critical; $shot"
  fi
  summary="$summary${summary:+, }$size ${colours} colours"
done
echo "prefix $t_prefix s, total $(($(date +%s) - t0)) s"
if [ $status = 0 ]; then
  echo "window drawn with $name open at $summary, no GLib/GTK critical or warning"
else
  echo "FAILED at $summary (see above)"
fi
exit $status
