#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# check-mingw.sh GEN SRCDIR WIN32_SOURCE
#
# Proves that etlscope's EVENT_TRACE_PROPERTIES table and generated C code
# agree with mingw-w64's evntrace.h/wmistr.h:
#  1. the static asserts generated from etlscope's table (every offset, size
#     and constant) compile with x86_64-w64-mingw32-gcc and i686-w64-mingw32-gcc;
#  2. the generated C code of every test session compiles and links
#     (-ladvapi32, with main() calling StartTraceW) with both, asserts included;
#  3. the same generated code, compiled natively against the portable shim
#     (whose layout the same asserts check, for both pointer sizes), runs and
#     builds exactly the bytes of etl_session_encode();
#  4. core/session/etl-session-win32.c compiles with both cross compilers.
# Exits 77 (skip) when a cross compiler is missing.
set -eu

GEN=$1
SRCDIR=$2
WIN32_SOURCE=$3
CC_NATIVE=${CC:-cc}
CROSS="x86_64-w64-mingw32-gcc i686-w64-mingw32-gcc"

for cc in $CROSS; do
  if ! command -v "$cc" >/dev/null 2>&1; then
    echo "SKIP: $cc not found (apt-get install gcc-mingw-w64)"
    exit 77
  fi
done

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$GEN" "$TMP"
CFLAGS="-std=c11 -Wall -Wextra -Werror -Wno-unused-function"

for cc in $CROSS; do
  printf '#include "layout-asserts.h"\nint etlscope_layout_ok;\n' > "$TMP/layout.c"
  $cc $CFLAGS -I"$TMP" -c "$TMP/layout.c" -o "$TMP/layout.o"
  echo "ok: $cc: table offsets, sizes and constants equal mingw-w64's"
  for n in $(cat "$TMP/cases.txt"); do
    $cc $CFLAGS -I"$TMP" -include "$TMP/layout-asserts.h" -DETLSCOPE_SESSION_MAIN \
      "$TMP/case-$n.c" -ladvapi32 -o "$TMP/case-$n-$cc.exe"
    echo "ok: $cc: generated case-$n.c compiles and links"
  done
  $cc $CFLAGS -c "$WIN32_SOURCE" -o "$TMP/win32-$cc.o"
  echo "ok: $cc: $(basename "$WIN32_SOURCE") compiles"
done

for arch in x64 x86; do
  def=""
  [ "$arch" = x64 ] && def="-DETLSCOPE_SHIM_X64"
  for n in $(cat "$TMP/cases.txt"); do
    $CC_NATIVE $CFLAGS -Wno-missing-field-initializers $def -DETLSCOPE_PORTABLE_SHIM \
      -I"$SRCDIR" -I"$TMP" \
      -DETLSCOPE_CASE="\"case-$n.c\"" -DETLSCOPE_EXPECTED="\"case-$n-expected.h\"" \
      "$SRCDIR/shim-driver.c" -o "$TMP/driver-$arch-$n"
    "$TMP/driver-$arch-$n"
  done
  echo "ok: shim $arch: generated code builds the encoder's bytes"
done
echo "all mingw-w64 checks passed"
