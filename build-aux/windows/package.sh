#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds the portable Windows package of etlscope on Debian/Ubuntu: a zip
# with etlscope.exe, etlscope-cli.exe, every DLL they load (found by walking
# the import tables), GLib's compiled settings schemas and the Adwaita icons
# GTK 3 draws with.  Unzip anywhere and run bin\etlscope.exe: no MSYS2, no
# installer, nothing written outside the folder.
#
#   sh build-aux/windows/package.sh [OUTDIR]      # default OUTDIR: _dist
#
# Cross-builds with mingw-w64 against the sysroot of tests/windows/sysroot.sh
# (built once, cached in ~/.cache/etlscope/mingw/), in _build-win-release
# (buildtype release).  Prints the zip's path on the last line.
#
# Layout of the zip (the one GTK and GLib expect on Windows: data is found
# relative to the folder of the DLLs, ..\share):
#   etlscope-VERSION-windows-x86_64/
#     bin/        etlscope.exe, etlscope-cli.exe, *.dll
#     share/glib-2.0/schemas/gschemas.compiled
#     share/icons/Adwaita/, share/icons/hicolor/index.theme
#     README.txt
set -eu
cd "$(dirname "$0")/../.." || exit 1
root=$(pwd)
out=${1:-$root/_dist}
host=x86_64-w64-mingw32

sh tests/windows/deps.sh >&2
base=$(sh tests/windows/sysroot.sh base | tail -n 1)
gtk=$(sh tests/windows/sysroot.sh gtk | tail -n 1)
[ -f "$base/.complete" ] && [ -f "$gtk/.complete" ] || { echo "package.sh: no sysroot" >&2; exit 1; }

build=$root/_build-win-release
cc=$host-gcc-win32
command -v $cc >/dev/null 2>&1 || cc=$host-gcc
cross=$(cat <<EOF
[binaries]
c = '$cc'
ar = '$host-ar'
strip = '$host-strip'
windres = '$host-windres'
pkgconfig = 'pkg-config'

[properties]
pkg_config_libdir = ['$gtk/lib/pkgconfig', '$base/lib/pkgconfig', '/usr/$host/lib/pkgconfig']

[built-in options]
c_args = ['-I$base/include']

[host_machine]
system = 'windows'
cpu_family = 'x86_64'
cpu = 'x86_64'
endian = 'little'
EOF
)
if [ ! -f "$build/cross.txt" ] || [ "$(cat "$build/cross.txt")" != "$cross" ]; then
  rm -rf "$build"
  mkdir -p "$build"
  echo "$cross" >"$build/cross.txt"
fi
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" --cross-file "$build/cross.txt" --buildtype=release -Dgui=enabled \
    --prefix=/ --bindir=bin >&2
fi
ninja -C "$build" app/etlscope.exe app/etlscope-cli.exe >&2

version=$(sed -n "s/^  version: '\([^']*\)'.*/\1/p" meson.build | head -n 1)
name=etlscope-$version-windows-x86_64
stage=$(mktemp -d "${TMPDIR:-/tmp}/etlscope-package.XXXXXX")
trap 'rm -rf "$stage"' EXIT
dest=$stage/$name
# Only the two programs and their data: the tests are not installed.
DESTDIR=$dest meson install -C "$build" --no-rebuild --strip >&2
# The freedesktop files (.desktop, AppStream, MIME) mean nothing on Windows.
rm -rf "$dest/share/applications" "$dest/share/metainfo" "$dest/share/mime"

# Every DLL the programs load, transitively, from the sysroots and the
# compiler's runtime; the rest (KERNEL32, USER32, msvcrt, …) are Windows'.
gccdir=$(dirname "$($cc -print-libgcc-file-name)")
search="$gtk/bin $base/bin /usr/$host/lib $gccdir"
todo=$(ls "$dest"/bin/*.exe)
seen=" "
while [ -n "$todo" ]; do
  next=""
  for f in $todo; do
    for dll in $($host-objdump -p "$f" | sed -n 's/^\s*DLL Name: //p'); do
      key=$(echo "$dll" | tr 'A-Z' 'a-z')
      case $seen in *" $key "*) continue ;; esac
      seen="$seen$key "
      for d in $search; do
        if [ -f "$d/$dll" ]; then
          cp "$d/$dll" "$dest/bin/"
          $host-strip --strip-unneeded "$dest/bin/$dll" 2>/dev/null || true
          next="$next $dest/bin/$dll"
          break
        fi
      done
    done
  done
  todo=$next
done

# GSettings schemas (GTK's file chooser and colour chooser read them).
mkdir -p "$dest/share/glib-2.0/schemas"
cp "$gtk"/share/glib-2.0/schemas/*.xml "$dest/share/glib-2.0/schemas/"
if ls "$base"/share/glib-2.0/schemas/*.xml >/dev/null 2>&1; then
  cp "$base"/share/glib-2.0/schemas/*.xml "$dest/share/glib-2.0/schemas/"
fi
glib-compile-schemas "$dest/share/glib-2.0/schemas"
rm -f "$dest"/share/glib-2.0/schemas/*.xml

# Icons: Adwaita's PNG sizes (symbolic icons come pre-rendered as
# *.symbolic.png, which GTK 3 uses without an SVG loader) and hicolor.
adwaita=/usr/share/icons/Adwaita
mkdir -p "$dest/share/icons/Adwaita" "$dest/share/icons/hicolor"
cp "$adwaita/index.theme" "$dest/share/icons/Adwaita/"
for size in 16x16 24x24 32x32 48x48; do
  [ -d "$adwaita/$size" ] && cp -r "$adwaita/$size" "$dest/share/icons/Adwaita/"
done
cp /usr/share/icons/hicolor/index.theme "$dest/share/icons/hicolor/"

cat >"$dest/README.txt" <<EOF
etlscope $version for Windows (x86_64), portable.

  bin\\etlscope.exe [FILE.etl ...]     the viewer
  bin\\etlscope-cli.exe info FILE.etl  the command line tool (see --help)

Built with mingw-w64 (msvcrt) from Debian's GLib, GTK 3, cairo and pango
sources.  Everything the programs need is in this folder; delete the folder
to remove it.  etlscope is GPL-3.0-or-later; GLib, GTK, cairo, pango,
harfbuzz, fribidi, pixman, libpng, gdk-pixbuf, atk, libepoxy, json-glib,
libffi, pcre2 and zlib keep their own licences (LGPL, MIT, BSD, zlib).
EOF

mkdir -p "$out"
zip=$out/$name.zip
rm -f "$zip"
(cd "$stage" && python3 -m zipfile -c "$zip" "$name")
echo "package.sh: $(du -sh "$zip" | cut -f1) $(ls "$dest/bin" | wc -l) files in bin" >&2
echo "$zip"
