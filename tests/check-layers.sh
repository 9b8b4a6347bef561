#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# check-layers.sh CORE_DIR
#
# core/'s layers only point down: base <- reader <- decode <- model, and
# symbols/ (PDB files) beside decode/, on base/ alone (a layer may include
# its own headers and those of the layers below it, never one above or
# beside it).  Includes are by bare name (core/meson.build puts every folder on
# the include path), so a header's layer is the folder that holds it.
# Prints each #include of a .c or .h under base/, reader/, decode/, symbols/
# or model/ that names a header of a layer it may not include, and exits 1
# when there is one.
set -eu

CORE=$1
LAYERS="base reader decode symbols model"

# The layers below layer $1: the ones its files may include besides its own.
below () {
  case "$1" in
    reader) echo "base" ;;
    decode) echo "base reader" ;;
    symbols) echo "base" ;;
    model) echo "base reader decode symbols" ;;
    *) echo "" ;;
  esac
}

# The layer whose folder holds header $1, or nothing.
owner () {
  for l in $LAYERS; do
    if [ -f "$CORE/$l/$1" ]; then
      echo "$l"
      return
    fi
  done
}

n_files=0
n_resolved=0
violations=""
for layer in $LAYERS; do
  allowed=" $layer $(below "$layer") "
  for f in "$CORE/$layer"/*.c "$CORE/$layer"/*.h; do
    [ -f "$f" ] || continue
    n_files=$((n_files + 1))
    includes=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" || true)
    [ -n "$includes" ] || continue
    while IFS= read -r line; do
      header=$(printf '%s\n' "$line" | sed 's/^[0-9]*:[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
      o=$(owner "${header##*/}")
      [ -n "$o" ] || continue
      n_resolved=$((n_resolved + 1))
      if [ "${allowed#* "$o" }" = "$allowed" ]; then
        violations="$violations
${f#"$CORE"/}:${line%%:*}: $layer/ includes \"$header\" from $o/"
      fi
    done <<EOT
$includes
EOT
  done
done

# A check that finds nothing to check cannot fail: insist on the files.
if [ "$n_files" -lt 20 ] || [ "$n_resolved" -lt 100 ]; then
  echo "check-layers: only $n_files files and $n_resolved core includes under $CORE: wrong directory?"
  exit 1
fi
if [ -n "$violations" ]; then
  echo "core/ layers must only point down (base <- reader <- decode <- model, base <- symbols <- model):$violations"
  exit 1
fi
echo "check-layers: $n_files files, $n_resolved includes of core headers, all pointing down"
