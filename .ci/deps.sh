#!/bin/sh
# Installs the Debian/Ubuntu packages etlscope needs, only those missing.
# Sourced or run by tests/suite.sh and app/run.sh.
set -e

ETLSCOPE_PACKAGES="build-essential meson ninja-build pkg-config libglib2.0-dev libgtk-3-dev \
libjson-glib-dev libfwnt-dev libsoup-3.0-dev glib-networking libmspack-dev gcab cabextract p7zip-full xvfb xauth mingw-w64 valgrind"

missing=""
for p in $ETLSCOPE_PACKAGES; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $p"
  fi
done

if [ -n "$missing" ]; then
  echo "etlscope: installing$missing"
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
