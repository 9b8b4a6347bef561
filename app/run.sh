#!/bin/sh
# The main job: installs what is missing, builds, and opens etlscope.
#
#   sh app/run.sh [FILE.etl...]
#
# With no file it opens a synthetic demo trace (8 CPUs, 200,000 records, some
# lost buffers), generated once into ~/.cache/etlscope/demo.etl.
set -e
here=$(pwd)
top=$(cd "$(dirname "$0")/.." && pwd)

# Make the files absolute before changing directory.
for f in "$@"; do
  case "$f" in
    /*) set -- "$@" "$f" ;;
    *) set -- "$@" "$here/$f" ;;
  esac
  shift
done

cd "$top"
sh .ci/deps.sh
if [ ! -f _build/build.ninja ]; then
  meson setup _build >/dev/null
fi
ninja -C _build >/dev/null

if [ $# -eq 0 ]; then
  set -- --demo
fi
exec ./_build/app/etlscope "$@"
