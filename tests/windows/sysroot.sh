#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Builds a mingw-w64 (x86_64-w64-mingw32) sysroot for etlscope from Debian's
# source packages, cached under ~/.cache/etlscope/mingw/, and prints its
# folder on the last line of stdout.
#
#   sh tests/windows/sysroot.sh base   # libintl (no-op), libffi, pcre2, GLib, json-glib
#   sh tests/windows/sysroot.sh gtk    # pixman … GTK 3 (on top of "base", in its own prefix)
#
# Each stage is a prefix of its own named after a hash of its recipe: this
# file, the libintl shim, the third-party tarballs, the cross compiler's and
# meson's versions, and the exact Debian source package versions (the .dsc
# names apt would fetch).  A stage is rebuilt only when one of those changes;
# an interrupted build (no .complete marker) is thrown away and redone.
# Old stages are removed when a new one completes.
#
# Needs the packages tests/windows/deps.sh installs and deb-src entries
# (added by deps.sh).  json-glib and atk come from
# ../shared/windows-cross/third-party/ (the archive answers 404 for their
# orig tarballs here).  Debian has no mingw gettext: libintl is
# tests/windows/libintl/, which translates nothing.
set -eu

stage=${1:?usage: sysroot.sh base|gtk}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
third_party=${ETLSCOPE_WIN_THIRD_PARTY:-$root/../shared/windows-cross/third-party}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/etlscope/mingw
host=x86_64-w64-mingw32
mkdir -p "$cache/src"

base_pkgs="libffi pcre2 glib2.0"
gtk_pkgs="pixman libpng1.6 fribidi harfbuzz cairo pango1.0 gdk-pixbuf libepoxy gtk+3.0"

apt_src () {
  apt-get -o APT::Sandbox::User=root source --only-source "$@"
}

# orig DSC: the upstream tarball a .dsc names (not its extra components).
orig () {
  awk '/^Files:/ { f = 1; next } /^[^ ]/ { f = 0 } f && $3 ~ /\.orig\.tar\./ { print $3 }' "$1"
}

have () { # dsc name: is it and its upstream tarball in the cache?
  [ -n "$1" ] && [ -f "$cache/src/$1" ] && [ -n "$(orig "$cache/src/$1")" ] &&
    [ -f "$cache/src/$(orig "$cache/src/$1")" ]
}

# resolve PACKAGE: prints the .dsc file name of the version used; it and its
# upstream tarball are in $cache/src afterwards.  The newest version apt
# knows that is already in the cache wins (so a cached sysroot stays valid
# without the network); otherwise the newest whose files download (the
# mirror here answers 404 for some security versions and Debian diffs).
# Only the upstream tarball is built: Debian's patches are for Debian's own
# packaging, and a missing diff does not stop the build.
resolve () {
  versions=$(apt-cache showsrc --only-source "$1" 2>/dev/null | awk '/^Version:/ { print $2 }' | sort -V -r -u)
  for v in $versions; do
    f=$(apt_src --print-uris "$1=$v" 2>/dev/null | awk '/\.dsc/ { print $2 }')
    if have "$f"; then echo "$f"; return 0; fi
  done
  for v in $versions; do
    f=$(apt_src --print-uris "$1=$v" 2>/dev/null | awk '/\.dsc/ { print $2 }')
    (cd "$cache/src" && apt_src --download-only "$1=$v" >/dev/null 2>&1) || true
    if have "$f"; then echo "$f"; return 0; fi
  done
  echo "sysroot.sh: cannot download the source package $1 (versions: $versions)" >&2
  return 1
}

dscs () {
  for d in "$@"; do resolve "$d" || exit 1; done
}

recipe_key () { # stage
  {
    cat "$here/sysroot.sh" "$here/libintl/libintl.h" "$here/libintl/intl.c"
    dpkg-query -W gcc-mingw-w64-x86-64-win32 mingw-w64-x86-64-dev libz-mingw-w64-dev meson 2>/dev/null
    echo "$base_dscs"
    (cd "$third_party" && sha256sum json-glib-1.6.6.tar.xz)
    if [ "$1" = gtk ]; then
      echo "$gtk_dscs"
      (cd "$third_party" && sha256sum atk-2.38.0.tar.xz)
    fi
  } | sha256sum | cut -c1-16
}

if [ -z "$(apt-cache showsrc --only-source glib2.0 2>/dev/null)" ]; then
  echo "sysroot.sh: apt has no deb-src entry for glib2.0 (run tests/windows/deps.sh)" >&2
  exit 1
fi
for t in json-glib-1.6.6.tar.xz atk-2.38.0.tar.xz; do
  [ -f "$third_party/$t" ] || { echo "sysroot.sh: $third_party/$t is missing" >&2; exit 1; }
done

base_dscs=$(dscs $base_pkgs) || exit 1
base_key=$(recipe_key base)
base=$cache/base-$base_key
gtk_dscs=""
if [ "$stage" = gtk ]; then
  gtk_dscs=$(dscs $gtk_pkgs) || exit 1
fi
gtk_key=$(recipe_key gtk)
gtk=$cache/gtk-$gtk_key

if [ "$stage" = base ] && [ -f "$base/.complete" ]; then echo "$base"; exit 0; fi
if [ "$stage" = gtk ] && [ -f "$gtk/.complete" ]; then echo "$gtk"; exit 0; fi
if [ "$stage" = gtk ] && [ ! -f "$base/.complete" ]; then
  sh "$0" base >/dev/null
fi

# Compilers with win32 threads (no libwinpthread DLL to ship), whatever the
# system's default alternative is.
cc=$host-gcc-win32; cxx=$host-g++-win32
command -v "$cc" >/dev/null 2>&1 || { cc=$host-gcc; cxx=$host-g++; }

# cross_file PREFIX... : a meson cross file that sees the given prefixes.
cross_file () {
  pcdirs=""; incs=""; libs=""
  for p in "$@"; do
    pcdirs="$pcdirs'$p/lib/pkgconfig', "
    incs="$incs'-I$p/include', "
    libs="$libs'-L$p/lib', "
  done
  cat <<EOF
[binaries]
c = '$cc'
cpp = '$cxx'
ar = '$host-ar'
strip = '$host-strip'
windres = '$host-windres'
pkgconfig = 'pkg-config'

[properties]
pkg_config_libdir = [${pcdirs}'/usr/$host/lib/pkgconfig']

[built-in options]
c_args = [$incs]
c_link_args = [$libs]
cpp_args = [$incs]
cpp_link_args = [$libs]

[host_machine]
system = 'windows'
cpu_family = 'x86_64'
cpu = 'x86_64'
endian = 'little'
EOF
}

# Sources: downloaded once into the cache; the upstream tarball is unpacked
# into the build folder.

unpack () { # packages... -> $build/src/PACKAGE
  mkdir -p "$build/src"
  for u in "$@"; do
    d=$cache/src/$(resolve "$u")
    mkdir -p "$build/src/$u"
    tar -C "$build/src/$u" --strip-components=1 -xf "$cache/src/$(orig "$d")"
  done
}

step () { # name command...
  name=$1; shift
  t0=$(date +%s)
  if ! ( "$@" ) >"$logs/$name.log" 2>&1; then
    echo "sysroot.sh: $name FAILED; last lines of $logs/$name.log:" >&2
    tail -n 30 "$logs/$name.log" >&2
    exit 1
  fi
  echo "  $name $(( $(date +%s) - t0 )) s" >&2
}

meson_pkg () { # name srcdir prefix options...
  n=$1; src=$2; pfx=$3; shift 3
  meson setup "$build/$n" "$src" --cross-file "$build/cross.txt" --prefix="$pfx" --libdir=lib \
    --buildtype=release --wrap-mode=nodownload -Ddefault_library=shared "$@"
  ninja -C "$build/$n" install
}

autotools_pkg () { # name srcdir prefix configure-options...
  n=$1; src=$2; pfx=$3; shift 3
  mkdir -p "$build/$n"
  cd "$build/$n"
  "$src/configure" --host=$host --prefix="$pfx" "$@"
  make -j2
  make install
}

build=$(mktemp -d "${TMPDIR:-/tmp}/etlscope-sysroot.XXXXXX")
trap 'rm -rf "$build"' EXIT
export PKG_CONFIG_LIBDIR

if [ "$stage" = base ] || [ ! -f "$base/.complete" ]; then
  S=$base
  logs=$cache/logs-base-$base_key
  rm -rf "$S" "$logs"; mkdir -p "$S/include" "$S/lib" "$S/bin" "$logs"
  echo "sysroot.sh: building GLib + json-glib for $host into $S (once per recipe)" >&2
  cross_file "$S" >"$build/cross.txt"
  PKG_CONFIG_LIBDIR=$S/lib/pkgconfig:/usr/$host/lib/pkgconfig
  step intl sh -c "$cc -O2 -c '$here/libintl/intl.c' -o '$build/intl.o' &&
    $host-ar rcs '$S/lib/libintl.a' '$build/intl.o' &&
    cp '$here/libintl/libintl.h' '$S/include/'"
  step unpack unpack $base_pkgs
  step libffi autotools_pkg libffi "$build/src/libffi" "$S" --disable-shared --enable-static \
    --disable-docs --disable-multi-os-directory
  step pcre2 autotools_pkg pcre2 "$build/src/pcre2" "$S" --disable-shared --enable-static \
    --disable-pcre2-16 --disable-pcre2-32 CPPFLAGS=-DPCRE2_STATIC
  step glib meson_pkg glib "$build/src/glib2.0" "$S" -Dtests=false -Dinstalled_tests=false \
    -Dman=false -Dgtk_doc=false -Dsysprof=disabled -Dnls=disabled -Dlibelf=disabled -Dxattr=false \
    -Dselinux=disabled -Dlibmount=disabled -Ddtrace=false -Dsystemtap=false
  tar -C "$build/src" -xJf "$third_party/json-glib-1.6.6.tar.xz"
  step json-glib meson_pkg json-glib "$build/src/json-glib-1.6.6" "$S" -Dintrospection=disabled \
    -Dgtk_doc=disabled -Dman=false -Dtests=false
  # Runtime DLLs the programs load: zlib (GLib), libgcc and libstdc++ (harfbuzz is C++).
  gccdir=$(dirname "$($cc -print-libgcc-file-name)")
  cp "/usr/$host/lib/zlib1.dll" "$S/bin/"
  for dll in libgcc_s_seh-1.dll libstdc++-6.dll; do
    [ -f "$gccdir/$dll" ] && cp "$gccdir/$dll" "$S/bin/"
  done
  touch "$S/.complete"
  for old in "$cache"/base-* "$cache"/logs-base-*; do
    case $old in "$S"|"$logs") ;; *) rm -rf "$old" ;; esac
  done
  rm -rf "$build"/*
fi

if [ "$stage" = gtk ]; then
  S=$gtk
  logs=$cache/logs-gtk-$gtk_key
  rm -rf "$S" "$logs"; mkdir -p "$S/include" "$S/lib" "$S/bin" "$logs"
  echo "sysroot.sh: building the GTK 3 stack for $host into $S (once per recipe; ~10 min)" >&2
  cross_file "$S" "$base" >"$build/cross.txt"
  PKG_CONFIG_LIBDIR=$S/lib/pkgconfig:$base/lib/pkgconfig:/usr/$host/lib/pkgconfig
  step unpack unpack $gtk_pkgs
  tar -C "$build/src" -xJf "$third_party/atk-2.38.0.tar.xz"
  step pixman meson_pkg pixman "$build/src/pixman" "$S" -Dtests=disabled -Dgtk=disabled \
    -Dlibpng=disabled -Dopenmp=disabled
  step libpng autotools_pkg libpng "$build/src/libpng1.6" "$S" --disable-static
  step fribidi meson_pkg fribidi "$build/src/fribidi" "$S" -Ddocs=false
  step harfbuzz meson_pkg harfbuzz "$build/src/harfbuzz" "$S" -Dtests=disabled -Ddocs=disabled \
    -Dfreetype=disabled -Dglib=enabled -Dgobject=disabled -Dcairo=disabled -Dicu=disabled \
    -Dintrospection=disabled -Dbenchmark=disabled -Dchafa=disabled -Dgdi=enabled -Dgraphite2=disabled
  # cairo 1.16's configure adds -Wp,-D_FORTIFY_SOURCE=2, which mingw-w64
  # cannot link without libssp; only the library and cairo-gobject are built.
  # lt_cv_deplibs_check_method=pass_all: without it libtool will not link
  # the static libintl.a (named by glib-2.0.pc) into a DLL and builds
  # cairo-gobject as a static library only ("libtool will only create a
  # static version of it"), so libgdk-3-0.dll and libgtk-3-0.dll each carry
  # a copy; the second copy to register the boxed type "CairoSurface"
  # (GtkImage's class_init) fails with a g_boxed_type_register_static
  # critical and GObject then faults, on any Windows.  With it,
  # libcairo-gobject-2.dll is built and GDK and GTK import it
  # (tests/windows/run.sh checks the package for duplicated type names).
  step cairo sh -c "sed -i 's/-Wp,-D_FORTIFY_SOURCE=2//g' '$build/src/cairo/configure' &&
    mkdir -p '$build/cairo' && cd '$build/cairo' &&
    '$build/src/cairo/configure' --host=$host --prefix='$S' --disable-static --enable-win32 \
      --enable-win32-font --disable-xlib --disable-xcb --disable-ft --disable-fc --enable-png \
      --enable-gobject --disable-trace --disable-interpreter --disable-symbol-lookup \
      --disable-full-testing --disable-gtk-doc CPPFLAGS='-I$S/include -I$base/include' \
      LDFLAGS='-L$S/lib -L$base/lib' lt_cv_deplibs_check_method=pass_all &&
    make -j2 -C src && make -j2 -C util/cairo-gobject &&
    make -C src install && make -C util/cairo-gobject install &&
    test -f '$S/bin/libcairo-gobject-2.dll'"
  step pango meson_pkg pango "$build/src/pango1.0" "$S" -Dintrospection=disabled -Dgtk_doc=false \
    -Dinstall-tests=false -Dlibthai=disabled -Dcairo=enabled -Dxft=disabled -Dfreetype=disabled \
    -Dfontconfig=disabled -Dsysprof=disabled
  step gdk-pixbuf meson_pkg gdk-pixbuf "$build/src/gdk-pixbuf" "$S" -Dnative_windows_loaders=false \
    -Dpng=enabled -Dbuiltin_loaders=png -Djpeg=disabled -Dtiff=disabled -Dintrospection=disabled \
    -Dman=false -Dgtk_doc=false -Ddocs=false -Dinstalled_tests=false -Dtests=false
  step atk meson_pkg atk "$build/src/atk-2.38.0" "$S" -Dintrospection=false -Ddocs=false
  step epoxy meson_pkg epoxy "$build/src/libepoxy" "$S" -Dtests=false -Ddocs=false -Dglx=no \
    -Degl=no -Dx11=false
  step gtk3 meson_pkg gtk3 "$build/src/gtk+3.0" "$S" -Dx11_backend=false -Dwayland_backend=false \
    -Dwin32_backend=true -Dxinerama=no -Dbroadway_backend=false -Dintrospection=false -Ddemos=false \
    -Dexamples=false -Dtests=false -Dinstalled_tests=false -Dgtk_doc=false -Dman=false -Dcolord=no \
    -Dcloudproviders=false -Dtracker3=false -Dbuiltin_immodules=backend
  touch "$S/.complete"
  for old in "$cache"/gtk-* "$cache"/logs-gtk-*; do
    case $old in "$S"|"$logs") ;; *) rm -rf "$old" ;; esac
  done
fi

if [ "$stage" = base ]; then echo "$base"; else echo "$gtk"; fi
