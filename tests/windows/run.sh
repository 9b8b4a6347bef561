#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Windows part of the test suite (tests/suite.sh runs it): cross-builds
# etlscope with mingw-w64 against a sysroot built from Debian's sources
# (tests/windows/sysroot.sh, cached in ~/.cache/etlscope/mingw/) and checks
# it under Wine:
#
#   1. core, etlscope-cli and the tests cross-compile (-Dgui=disabled);
#   2. every test of that build passes under Wine, with the corpus;
#   3. `info` and `dump --format=jsonl` of every corpus file (top level and
#      real/) exit 0 and print exactly the bytes the Linux build
#      (_build/app/etlscope-cli) prints;
#   4. the GUI cross-compiles and links against the cross-built GTK 3 stack
#      without a warning;
#   5. the portable package (build-aux/windows/package.sh) unzipped:
#      etlscope-cli.exe runs from it with no WINEPATH, every DLL it and
#      etlscope.exe import is in it or is Windows' own, and no GType name of
#      cairo-gobject is defined in two of its modules
#      (tests/windows/dup-types.sh);
#   6. etlscope.exe from the unzipped package opens net.4.5.2.x64.etl under
#      Wine on a 1366x768 Xvfb screen, in a Wine prefix of its own, and draws
#      its window without a GLib/GTK critical or warning besides the
#      Wine-only ones (tests/windows/gui-wine.sh); the screenshot goes to
#      _build-win-gui/windows-wine-1366x768.png.  ETLSCOPE_WINE_GUI=0 leaves
#      this step out (counted as a skip);
#   7. the GUI test programs of the -Dgui=enabled build (meson's "gui"
#      suite: test-gui, test-ux, test-windows-gui, …) under Wine on a
#      1920x1200 Xvfb screen, in the first prefix, made with the fonts of
#      gui-wine.sh (tests/windows/wine-prefix.sh), with the package's DLLs,
#      settings schemas and icons (WINEPATH = its bin/), the real
#      %LOCALAPPDATA% known folders for test-windows-gui
#      (ETLSCOPE_TEST_KNOWN_FOLDERS=1: the prefix is thrown away), one pass
#      or fail each like the tests of step 2.  Subtests skipped are listed
#      with their reasons and counted.  ETLSCOPE_WINE_GUI=0 leaves it out.
#
# Wine runs under the en_US.UTF-8 locale (generated into the cache when the
# system lacks it), so the ANSI code page is 1252 as on most Windows
# machines, and file names outside it test the CLI's UTF-16 command line.
#
# Each test, compared output and build is one pass or fail; the counts go to
# the file given with --results (two numbers: passed failed) and end the
# output as "windows: N passed, N skipped, N failed; N subtests skipped".
#
#   sh tests/windows/run.sh [--results FILE]
#
# The Wine prefix is made afresh in a temporary folder each run (about
# 10 s; it is 700 MB, not worth caching), so no state carries over.
set -u
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
results=""
if [ "${1:-}" = --results ]; then results=$2; fi

corpus=$root/../shared/etl-corpus
linux_cli=$root/_build/app/etlscope-cli
passed=0
failed=0
skipped=0
subtests_skipped=0
t_start=$(date +%s)
timings=""

pass () { passed=$((passed + 1)); echo "PASS  windows: $*"; }
fail () { failed=$((failed + 1)); echo "FAIL  windows: $*"; }
lap () { # name: adds "name N s" since the last lap to the timings
  now=$(date +%s)
  timings="$timings${timings:+, }$1 $((now - t_lap)) s"
  t_lap=$now
}
t_lap=$t_start

tmp=$(mktemp -d "${TMPDIR:-/tmp}/etlscope-windows.XXXXXX")
export WINEPREFIX="$tmp/wineprefix"
export WINEARCH=win64
export WINEDEBUG=-all
# No Mono or Gecko installer prompts: nothing here needs them.  No debugger
# on a crash: winedbg would keep the crashed test up until its timeout.
export WINEDLLOVERRIDES="mscoree,mshtml=;winedbg.exe=d"
# The prefix sees only the fonts registered in it, so that the GUI tests'
# GTK draws (tests/windows/wine-prefix.sh, as for gui-wine.sh).
. tests/windows/wine-prefix.sh
wine_fonts_conf "$tmp"
wine_pid=""

finish () {
  if [ -n "$wine_pid" ]; then wait "$wine_pid" 2>/dev/null; fi
  if [ -d "$WINEPREFIX" ]; then wineserver -k >/dev/null 2>&1; fi
  rm -rf "$tmp"
  echo "=== windows step: $(( $(date +%s) - t_start )) s ($timings)"
  echo "=== windows: $passed passed, $skipped skipped, $failed failed;" \
    "$subtests_skipped subtests skipped under Wine (listed above, with the reasons)"
  if [ -n "$results" ]; then echo "$passed $failed" >"$results"; fi
  [ "$failed" -eq 0 ]
  exit $?
}

# Z:\path\bin;Z:\other\bin for WINEPATH (Wine maps / to drive Z:).
# (printf, not echo: dash's echo would read the \r of Z:\root as a CR.)
winpath () {
  out=""
  for d in "$@"; do out="$out${out:+;}Z:$(printf '%s' "$d" | tr / '\\')"; done
  printf '%s\n' "$out"
}

# cross_file BUILD_DIR PREFIX... : the cross file for etlscope's own build
# (Wine runs the test programs); a changed file wipes the build folder.
setup_cross () {
  dir=$1; shift
  want=$(
    pcdirs=""; incs=""
    for p in "$@"; do pcdirs="$pcdirs'$p/lib/pkgconfig', "; incs="$incs'-I$p/include', "; done
    cc=x86_64-w64-mingw32-gcc-win32
    command -v $cc >/dev/null 2>&1 || cc=x86_64-w64-mingw32-gcc
    printf "[binaries]\nc = '%s'\nar = 'x86_64-w64-mingw32-ar'\nstrip = 'x86_64-w64-mingw32-strip'\n" "$cc"
    printf "windres = 'x86_64-w64-mingw32-windres'\npkgconfig = 'pkg-config'\nexe_wrapper = 'wine'\n\n"
    printf "[properties]\npkg_config_libdir = [%s'/usr/x86_64-w64-mingw32/lib/pkgconfig']\n\n" "$pcdirs"
    printf "[built-in options]\nc_args = [%s]\n\n" "$incs"
    printf "[host_machine]\nsystem = 'windows'\ncpu_family = 'x86_64'\ncpu = 'x86_64'\nendian = 'little'\n"
  )
  if [ ! -f "$dir/cross.txt" ] || [ "$(cat "$dir/cross.txt")" != "$want" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    echo "$want" >"$dir/cross.txt"
  fi
}

# meson_build DIR LOG OPTIONS... : configure (once) and build DIR; output in LOG.
meson_build () {
  dir=$1; log=$2; shift 2
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" --cross-file "$dir/cross.txt" "$@" >"$log" 2>&1 ||
      return 1
  else
    meson setup "$dir" --cross-file "$dir/cross.txt" "$@" >"$log" 2>&1 || return 1
  fi
  ninja -C "$dir" >>"$log" 2>&1
}

# pkg_check DIR: the unzipped package is complete.
pkg_check () {
  # Every DLL imported is in bin/ or is one of Windows' own.
  missing_dlls=""
  for f in "$1"/bin/*.exe "$1"/bin/*.dll; do
    for dll in $(x86_64-w64-mingw32-objdump -p "$f" | sed -n 's/^\s*DLL Name: //p'); do
      [ -f "$1/bin/$dll" ] && continue
      case $(echo "$dll" | tr 'A-Z' 'a-z') in
        kernel32.dll|user32.dll|gdi32.dll|advapi32.dll|shell32.dll|ole32.dll|oleaut32.dll|msvcrt.dll|\
        ws2_32.dll|iphlpapi.dll|dnsapi.dll|dwmapi.dll|imm32.dll|comctl32.dll|comdlg32.dll|winmm.dll|\
        setupapi.dll|usp10.dll|dwrite.dll|cfgmgr32.dll|hid.dll|winspool.drv|shlwapi.dll|msimg32.dll|\
        opengl32.dll|bcrypt.dll|crypt32.dll|secur32.dll|ntdll.dll|uxtheme.dll|version.dll|rpcrt4.dll|\
        api-ms-win-*) ;;
        *) missing_dlls="$missing_dlls $dll" ;;
      esac
    done
  done
  if [ -z "$missing_dlls" ]; then
    pass "package: every DLL the programs import is in bin/ or is a Windows DLL"
  else
    fail "package: DLLs missing from bin/:$(echo "$missing_dlls" | tr ' ' '\n' | sort -u | tr '\n' ' ')"
  fi
  # No library linked into two modules: a type registered twice faults.
  if sh tests/windows/dup-types.sh "$1/bin" >"$tmp/dup-types.log" 2>&1; then
    pass "package: $(tail -n 1 "$tmp/dup-types.log")"
  else
    cat "$tmp/dup-types.log"
    fail "package: $(tail -n 1 "$tmp/dup-types.log")"
  fi
  # The CLI runs from the folder alone (no WINEPATH) and prints what Linux does.
  f=$corpus/primitive-types.etl
  if [ -f "$f" ] && [ -x "$linux_cli" ]; then
    (cd "$corpus" && "$linux_cli" info primitive-types.etl >"$tmp/linux.out" 2>&1)
    (cd "$corpus" && env -u WINEPATH wine "$1/bin/etlscope-cli.exe" info primitive-types.etl >"$tmp/wine.out" 2>&1)
    if cmp -s "$tmp/linux.out" "$tmp/wine.out"; then
      pass "package: bin/etlscope-cli.exe info primitive-types.etl, no WINEPATH: same bytes as Linux"
    else
      head -n 5 "$tmp/wine.out"
      fail "package: bin/etlscope-cli.exe from the unzipped folder"
    fi
  fi
}

# sysroot STAGE: one build at a time on this machine (a second suite waits).
sysroot () {
  mkdir -p "$cache"
  flock "$cache/mingw.lock" sh tests/windows/sysroot.sh "$1" | tail -n 1
}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/etlscope

echo "=== windows: mingw-w64 cross build, tests under Wine"
sh .ci/deps.sh && sh tests/windows/deps.sh || { fail "installing the packages"; finish; }
lap packages

# en_US.UTF-8 for Wine: code page 1252, UTF-8 file names on the Linux side.
if ! locale -a 2>/dev/null | grep -q -i '^en_US\.utf-\?8$'; then
  if [ ! -f "$cache/locale/en_US.UTF-8/LC_CTYPE" ]; then
    mkdir -p "$cache/locale"
    localedef -i en_US -f UTF-8 "$cache/locale/en_US.UTF-8" >/dev/null 2>&1
  fi
  export LOCPATH="$cache/locale"
fi
export LC_ALL=en_US.UTF-8
lap locale

base=$(sysroot base)
if [ ! -f "$base/.complete" ]; then fail "sysroot (GLib, json-glib)"; finish; fi
lap "sysroot (GLib)"
export WINEPATH="$(winpath "$base/bin")"

# The prefix (with its fonts, for step 7) is made while the build runs.
# Then desktop-keeper.exe starts
# Wine's desktop and system processes with their stdio on /dev/null and keeps
# them up until the output comparison ends (see its header comment: started
# by a test instead, they hold that test's output pipe open and meson waits
# for it until the timeout).
( wine_prefix_make "$tmp"
  x86_64-w64-mingw32-gcc -O2 -Wall -o "$tmp/desktop-keeper.exe" "$root/tests/windows/desktop-keeper.c" &&
    { wine "$tmp/desktop-keeper.exe" </dev/null >/dev/null 2>&1 & }
  # Until the desktop is up (at most 15 s).
  for _ in $(seq 30); do
    pgrep -f 'system32.explorer.exe' >/dev/null && break
    sleep 0.5
  done ) &
wine_pid=$!

# 1. core, etlscope-cli, tests
bw=$root/_build-win
setup_cross "$bw" "$base"
if meson_build "$bw" "$tmp/build-win.log" -Dgui=disabled; then
  pass "cross build of core, etlscope-cli and the tests (-Dgui=disabled)"
else
  tail -n 40 "$tmp/build-win.log"
  fail "cross build of core, etlscope-cli and the tests (-Dgui=disabled)"
  finish
fi
lap "cross build"
wait "$wine_pid"
wine_pid=""
lap "Wine prefix"

# count_tests BUILD_DIR LOG: one pass, skip or fail per test of the meson
# test run whose output is in LOG; each subtest a TAP test program skipped
# ("ok N /path # SKIP reason") is listed with its reason and counted in
# subtests_skipped.
count_tests () {
  json=$1/meson-logs/testlog.json
  if [ ! -f "$json" ]; then
    tail -n 40 "$2"
    fail "meson test under Wine did not run ($1)"
    return
  fi
  # One JSON object a line.
  while IFS=' ' read -r result name; do
    case $result in
      OK) pass "test $name (Wine)" ;;
      SKIP) skipped=$((skipped + 1)); echo "SKIP  windows: test $name (Wine)" ;;
      SUBSKIP) subtests_skipped=$((subtests_skipped + 1)); echo "      windows: subtest skipped: $name" ;;
      *) fail "test $name (Wine): $result" ;;
    esac
  done <<EOF
$(python3 -c 'import json, re, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    print(t["result"], t["name"])
    for m in re.finditer(r"^ok \d+ (\S+) # SKIP (.*)$", t.get("stdout") or "", re.M):
        print("SUBSKIP", t["name"] + " " + m.group(1) + ": " + m.group(2).strip())' "$json")
EOF
  grep -E '^(Ok|Fail|Skipped|Timeout):' "$2" | tr '\n' ' '; echo
  if grep -q -E '"result": "(FAIL|TIMEOUT|ERROR)"' "$json"; then
    sed -n '/^=* [0-9]* \/ [0-9]* *=*$/,/^=*$/p' "$2" | tail -n 80
  fi
}

# 2. the tests under Wine
meson test -C "$bw" --no-rebuild --print-errorlogs --num-processes 2 --timeout-multiplier 4 \
  >"$tmp/test-win.log" 2>&1
count_tests "$bw" "$tmp/test-win.log"
lap "tests under Wine"

# 3. info and dump, byte for byte against the Linux build
if [ ! -x "$linux_cli" ]; then
  { [ -f _build/build.ninja ] || meson setup _build >/dev/null; } && ninja -C _build app/etlscope-cli >/dev/null
fi
if [ ! -d "$corpus" ]; then
  # CI always has the corpus (tests/etl-test-util.h: a missing corpus file fails there).
  case ${CI:-} in
    ""|0|false|FALSE|False)
      echo "SKIP  windows: output comparison: $corpus is absent"
      skipped=$((skipped + 1)) ;;
    *) fail "output comparison: $corpus is absent (CI is set: the corpus must be there)" ;;
  esac
elif [ ! -x "$linux_cli" ]; then
  fail "output comparison: no Linux etlscope-cli ($linux_cli)"
else
  for f in "$corpus"/*.etl "$corpus"/real/*.etl; do
    [ -f "$f" ] || continue
    d=$(dirname "$f")
    b=$(basename "$f")
    name=${f#"$corpus"/}
    for cmd in info "dump --format=jsonl"; do
      # Run from the file's folder with the bare name: the outputs name the file.
      (cd "$d" && "$linux_cli" $cmd "$b" >"$tmp/linux.out" 2>/dev/null; echo $? >"$tmp/linux.rc")
      (cd "$d" && wine "$bw/app/etlscope-cli.exe" $cmd "$b" >"$tmp/wine.out" 2>/dev/null; echo $? >"$tmp/wine.rc")
      # Both exit 0 and print something: two runs failing the same way are no agreement.
      if [ "$(cat "$tmp/linux.rc")" = 0 ] && [ "$(cat "$tmp/wine.rc")" = 0 ] && [ -s "$tmp/linux.out" ] &&
         cmp -s "$tmp/linux.out" "$tmp/wine.out"; then
        pass "$cmd $name: same bytes ($(wc -c <"$tmp/linux.out") bytes, exit 0)"
      else
        fail "$cmd $name: Linux $(wc -c <"$tmp/linux.out") bytes exit $(cat "$tmp/linux.rc"), Wine $(wc -c <"$tmp/wine.out") bytes exit $(cat "$tmp/wine.rc"): $(cmp "$tmp/linux.out" "$tmp/wine.out" 2>&1 | head -n 1)"
      fi
    done
  done
fi
rm -f "$tmp/linux.out" "$tmp/wine.out"
# desktop-keeper.exe ends here: gui-wine.sh waits for the wineserver to exit.
wineserver -k >/dev/null 2>&1
lap "output comparison"

# 4. the GUI against the cross-built GTK 3 stack
gtk=$(sysroot gtk)
lap "sysroot (GTK 3 stack)"
if [ ! -f "$gtk/.complete" ]; then
  fail "sysroot (GTK 3 stack)"
else
  bg=$root/_build-win-gui
  setup_cross "$bg" "$gtk" "$base"
  # A full rebuild each time: a warning must show even when nothing changed.
  if [ -f "$bg/build.ninja" ]; then ninja -C "$bg" clean >/dev/null 2>&1; fi
  if meson_build "$bg" "$tmp/build-win-gui.log" -Dgui=enabled; then
    warnings=$(grep -c -i 'warning' "$tmp/build-win-gui.log" | tr -d ' ')
    if [ "$warnings" = 0 ]; then
      pass "GUI (etlscope.exe and the GUI tests) cross-compiles and links against GTK 3 without warnings"
    else
      grep -i -B2 -A4 'warning' "$tmp/build-win-gui.log" | head -n 60
      fail "GUI cross build: $warnings warning lines"
    fi
    lap "GUI cross build"
    # 5. the portable package
    if zip=$(sh build-aux/windows/package.sh "$tmp/dist" 2>"$tmp/package.log" | tail -n 1) && [ -f "$zip" ]; then
      python3 -m zipfile -e "$zip" "$tmp/unzipped"
      pkg=$(ls -d "$tmp"/unzipped/etlscope-*)
      pkg_check "$pkg"
      lap "package"
      # 6. the window under Wine, from the package, in a prefix of its own.
      if [ "${ETLSCOPE_WINE_GUI:-1}" = 0 ]; then
        skipped=$((skipped + 1))
        echo "SKIP  windows: etlscope.exe under Wine: ETLSCOPE_WINE_GUI=0"
      else
        sh tests/windows/gui-wine.sh "$pkg/bin/etlscope.exe" "$corpus/net.4.5.2.x64.etl" \
          "1366x768:$bg/windows-wine-1366x768.png" >"$tmp/gui-wine.log" 2>&1 </dev/null
        rc=$?
        if [ $rc = 0 ]; then
          pass "etlscope.exe (from the package) under Wine: $(tail -n 1 "$tmp/gui-wine.log")"
        elif [ $rc = 77 ] && [ -z "${CI:-}" ]; then
          skipped=$((skipped + 1))
          echo "SKIP  windows: etlscope.exe under Wine: $(tail -n 1 "$tmp/gui-wine.log")"
        else
          tail -n 40 "$tmp/gui-wine.log"
          fail "etlscope.exe (from the package) under Wine: $(tail -n 1 "$tmp/gui-wine.log")"
        fi
        lap "GUI under Wine"
      fi
      # 7. the GUI tests under Wine on an Xvfb screen, in the first prefix
      # (its fonts set up as gui-wine.sh's), with the package's DLLs, GTK's
      # settings schemas and icons (GTK finds them beside its DLL's bin/).
      if [ "${ETLSCOPE_WINE_GUI:-1}" = 0 ]; then
        skipped=$((skipped + 1))
        echo "SKIP  windows: GUI tests under Wine: ETLSCOPE_WINE_GUI=0"
      else
        WINEPATH="$(winpath "$pkg/bin")" ETLSCOPE_TEST_KNOWN_FOLDERS=1 \
          xvfb-run -a -s "-screen 0 1920x1200x24" sh -c '
            wine "$1" </dev/null >/dev/null 2>&1 &
            for _ in $(seq 30); do
              pgrep -f "system32.explorer.exe" >/dev/null && break
              sleep 0.5
            done
            meson test -C "$2" --no-rebuild --suite gui --print-errorlogs --num-processes 2 \
              --timeout-multiplier 3
            wineserver -k' sh "$tmp/desktop-keeper.exe" "$bg" >"$tmp/test-win-gui.log" 2>&1 </dev/null
        count_tests "$bg" "$tmp/test-win-gui.log"
        lap "GUI tests under Wine"
      fi
    else
      tail -n 30 "$tmp/package.log"
      fail "portable package (build-aux/windows/package.sh)"
    fi
  else
    tail -n 40 "$tmp/build-win-gui.log"
    fail "GUI cross build against GTK 3"
  fi
fi
lap "GUI"

finish
