#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks the Windows package for a library linked statically into two of its
# modules, by the GType names that library registers: each name may be
# defined (as a string constant in the module's .rdata) by one .dll/.exe of
# the folder only.  A second copy registers the same name again at run time,
# g_boxed_type_register_static() / g_enum_register_static() fails with a
# critical and the caller then faults, on any Windows.
#
#   sh tests/windows/dup-types.sh BIN_FOLDER
#
# The names are cairo-gobject's (cairo 1.16, util/cairo-gobject/
# cairo-gobject-structs.c: CAIRO_DEFINE_BOXED; cairo-gobject-enums.c:
# g_enum_register_static): the library a libtool quirk once built static
# only, so that libgdk-3-0.dll and libgtk-3-0.dll each carried a copy (see
# tests/windows/sysroot.sh, the cairo step).  Exact strings of .rdata only,
# so that a name quoted inside a longer string (GTK's builder XML names
# "CairoSurface" as a column type) or in debug information does not count.
#
# Prints one line per name found in two or more modules, then a summary;
# exits 1 when a name is in two or more modules or when no name is found at
# all (then the check saw nothing and proves nothing).
set -u
dir=${1:?usage: dup-types.sh BIN_FOLDER}
host=x86_64-w64-mingw32

names='CairoContext CairoDevice CairoPattern CairoSurface CairoScaledFont CairoFontFace
CairoFontOptions CairoRegion CairoMatrix CairoRectangle CairoRectangleInt
cairo_status_t cairo_content_t cairo_operator_t cairo_antialias_t cairo_fill_rule_t
cairo_line_cap_t cairo_line_join_t cairo_text_cluster_flags_t cairo_font_slant_t
cairo_font_weight_t cairo_subpixel_order_t cairo_hint_style_t cairo_hint_metrics_t
cairo_font_type_t cairo_path_data_type_t cairo_device_type_t cairo_surface_type_t
cairo_format_t cairo_pattern_type_t cairo_extend_t cairo_filter_t cairo_region_overlap_t'

tmp=$(mktemp -d "${TMPDIR:-/tmp}/etlscope-dup-types.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' $names >"$tmp/names"

# "NAME MODULE" for each name found in a module's .rdata.
: >"$tmp/found"
modules=0
for f in "$dir"/*.dll "$dir"/*.exe; do
  [ -f "$f" ] || continue
  modules=$((modules + 1))
  rm -f "$tmp/rdata"
  $host-objcopy -O binary -j .rdata "$f" "$tmp/rdata" 2>/dev/null || continue
  [ -f "$tmp/rdata" ] || continue
  strings -a "$tmp/rdata" | grep -x -F -f "$tmp/names" | sort -u |
    sed "s|\$| $(basename "$f")|" >>"$tmp/found"
done

status=0
dups=$(awk '{ n[$1]++; m[$1] = m[$1] " " $2 } END { for (k in n) if (n[k] > 1) print k ":" m[k] }' "$tmp/found" | sort)
if [ -n "$dups" ]; then
  printf '%s\n' "$dups" | sed 's/^/  defined in more than one module: /'
  echo "$(printf '%s\n' "$dups" | wc -l) of $(wc -l <"$tmp/names") cairo-gobject type names are defined in two or more of $modules modules"
  status=1
elif [ ! -s "$tmp/found" ]; then
  echo "none of the $(wc -l <"$tmp/names") cairo-gobject type names found in the $modules modules of $dir"
  status=1
else
  echo "$(cut -d' ' -f1 "$tmp/found" | sort -u | wc -l) cairo-gobject type names, each defined in one module only ($(cut -d' ' -f2 "$tmp/found" | sort -u | tr '\n' ' ' | sed 's/ $//'); $modules modules)"
fi
exit $status
