# SPDX-License-Identifier: GPL-3.0-or-later
#
# Sourced by tests/windows/run.sh and gui-wine.sh: a Wine prefix in which the
# Windows GTK draws, the way tests/windows/gui-wine.sh found it under Wine
# 8.0 and Pango 1.50's win32 backend.
#
# Pango lists fonts through Wine's DirectWrite and turns each into a LOGFONT
# and back; for many of the Linux fonts Wine exposes through fontconfig (e.g.
# "DejaVu Sans Condensed") and for Tahoma/"MS Shell Dlg" while they are not
# registered, that fails (DWRITE_E_NOFONT) and Pango passes a NULL
# description on ("pango_font_description_get_family: assertion 'desc !=
# NULL'").  So the prefix is made and run with FONTCONFIG_FILE naming a
# configuration that lists no font folder (Wine sees no Linux font), and
# Tahoma (fonts-wine) and DejaVu (fonts-dejavu-core) are copied into
# C:\windows\Fonts and registered, as fonts are on Windows.
# DBUS_SESSION_BUS_ADDRESS=disabled: goes into the prefix's environment:
# Windows has no session bus (and the package no gdbus.exe to start one), so
# GApplication runs without one, as on Windows, instead of warning.
#
#   wine_fonts_conf DIR     exports FONTCONFIG_FILE (DIR/no-fonts.conf): in
#                           the shell that later runs wine, before wineboot
#   wine_prefix_make DIR    wineboot -i of $WINEPREFIX, then the fonts and the
#                           environment in one registry import (logs in DIR);
#                           1 when a font file is missing

wine_fonts_conf () {
  printf '<?xml version="1.0"?>\n<fontconfig><cachedir>%s/fc-cache</cachedir></fontconfig>\n' "$1" \
    >"$1/no-fonts.conf"
  export FONTCONFIG_FILE="$1/no-fonts.conf"
}

wine_prefix_make () {
  wineboot -i >"$1/wineboot.log" 2>&1 </dev/null
  wineserver -w
  fonts=$WINEPREFIX/drive_c/windows/Fonts
  mkdir -p "$fonts"
  {
    printf 'REGEDIT4\r\n\r\n'
    printf '[HKEY_LOCAL_MACHINE\\Software\\Microsoft\\Windows NT\\CurrentVersion\\Fonts]\r\n'
    for entry in "/usr/share/wine/fonts/tahoma.ttf:Tahoma" "/usr/share/wine/fonts/tahomabd.ttf:Tahoma Bold" \
                 "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:DejaVu Sans" \
                 "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf:DejaVu Sans Bold" \
                 "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf:DejaVu Sans Mono"; do
      src=${entry%%:*}
      [ -f "$src" ] || { echo "font $src missing (fonts-wine, fonts-dejavu-core)"; return 1; }
      cp "$src" "$fonts/"
      printf '"%s (TrueType)"="%s"\r\n' "${entry#*:}" "$(basename "$src")"
    done
    printf '\r\n[HKEY_CURRENT_USER\\Environment]\r\n"DBUS_SESSION_BUS_ADDRESS"="disabled:"\r\n'
  } >"$1/setup.reg" || return 1
  wine regedit /S 'Z:'"$(printf '%s' "$1/setup.reg" | tr / '\\')" >"$1/regedit.log" 2>&1 </dev/null
  wineserver -w
}
