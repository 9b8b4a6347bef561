#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs what the Windows cross build and the Wine tests need, only what is
# missing: the mingw-w64 cross compiler and zlib, Wine, the tools to fetch
# Debian source packages, the locale sources (Wine runs under en_US.UTF-8),
# Xvfb/ImageMagick/xdotool/fonts (Tahoma from fonts-wine, DejaVu) for the GUI
# under Wine, the icons and
# glib-compile-schemas for the portable package; and
# adds deb-src entries (mirroring the system's deb entries) when apt has
# none, so that tests/windows/sysroot.sh can fetch GLib's and GTK's sources.
set -e

ETLSCOPE_WINDOWS_PACKAGES="gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 libz-mingw-w64-dev wine wine64 \
meson ninja-build pkgconf dpkg-dev python3 xz-utils locales xvfb xauth imagemagick fonts-dejavu-core \
adwaita-icon-theme libglib2.0-bin fonts-wine xdotool"

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

missing=""
for p in $ETLSCOPE_WINDOWS_PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

need_update=""
if [ -z "$(apt-cache showsrc --only-source glib2.0 2>/dev/null)" ]; then
  # deb822 (.sources) files: a copy with Types: deb-src; one-line lists:
  # the deb lines as deb-src.
  src=/etc/apt/sources.list.d/etlscope-deb-src
  if ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
    for f in /etc/apt/sources.list.d/*.sources; do
      sed 's/^Types:.*/Types: deb-src/' "$f"
      echo
    done | $SUDO tee "$src.sources" >/dev/null
  fi
  if [ -f /etc/apt/sources.list ]; then
    grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $SUDO tee "$src.list" >/dev/null
  fi
  echo "etlscope: added deb-src entries ($src.*)"
  need_update=1
fi

if [ -n "$missing" ] || [ -n "$need_update" ]; then
  [ -n "$missing" ] && echo "etlscope: installing$missing"
  $SUDO apt-get update -qq
  if [ -n "$missing" ]; then
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
  fi
fi
