#!/bin/sh
# The whole test suite: installs what is missing, builds etlscope twice
# (a normal build, and AddressSanitizer + UndefinedBehaviorSanitizer), runs
# every test in both (GUI tests under Xvfb), then the Windows step
# (tests/windows/run.sh: mingw-w64 cross build, tests and output comparison
# under Wine, the GUI against a cross-built GTK 3, the portable package), and
# ends with "N passed, N failed".  ETLSCOPE_SKIP_WINDOWS=1 leaves the Windows
# step out.
#
#   sh tests/suite.sh
set -u
cd "$(dirname "$0")/.." || exit 1
sh .ci/deps.sh || exit 1

# No accessibility bus under Xvfb.
export NO_AT_BRIDGE=1

passed=0
failed=0

# CI (CI=true, passed on to every test through meson and Wine) always has the
# corpus: there a missing corpus file fails its tests (tests/etl-test-util.h)
# instead of skipping them.
if [ ! -d ../shared/etl-corpus ]; then
  case ${CI:-} in
    ""|0|false|FALSE|False)
      echo "note: ../shared/etl-corpus is absent; tests that need the real traces are skipped" ;;
    *)
      echo "FAIL: ../shared/etl-corpus is absent (CI is set: the corpus must be there)"
      failed=$((failed + 1)) ;;
  esac
fi

# run_build DIR TIMEOUT_MULTIPLIER [meson options...]
run_build () {
  dir=$1; shift
  multiplier=$1; shift
  echo "=== build $dir ($*)"
  if [ -d "$dir" ]; then
    meson setup --reconfigure "$dir" "$@" >"$dir.setup.log" 2>&1 || meson setup --wipe "$dir" "$@" >"$dir.setup.log" 2>&1
  else
    meson setup "$dir" "$@" >"$dir.setup.log" 2>&1
  fi
  if [ $? -ne 0 ] || ! ninja -C "$dir"; then
    cat "$dir.setup.log"
    echo "build $dir FAILED"
    failed=$((failed + 1))
    return
  fi
  xvfb-run -a -s "-screen 0 1600x1000x24" meson test -C "$dir" --print-errorlogs --num-processes 2 --timeout-multiplier "$multiplier"
  log="$dir/meson-logs/testlog.json"
  if [ -f "$log" ]; then
    ok=$(grep -c '"result": "OK"' "$log")
    skip=$(grep -c '"result": "SKIP"' "$log")
    bad=$(grep -c -E '"result": "(FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR)"' "$log")
    echo "=== $dir: $ok passed, $skip skipped, $bad failed"
    passed=$((passed + ok))
    failed=$((failed + bad))
  else
    failed=$((failed + 1))
  fi
}

run_build _build 1
# GObject casts through function pointers are fine; clang's -fsanitize=function
# would flag them (gcc has no such check).
# ASAN_OPTIONS is tests/meson.build's (the unwinder differs between the core
# and the GUI tests); frame pointers make the core tests' fast stacks whole.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export LSAN_OPTIONS="suppressions=$(pwd)/tests/lsan.supp:print_suppressions=0"
san_cflags="-fno-omit-frame-pointer"
case "${CC:-cc}" in
  clang*) san_cflags="$san_cflags -fno-sanitize=function" ;;
esac
# Sanitizers with full stacks run several times slower.
run_build _build-asan 5 -Db_sanitize=address,undefined -Db_lundef=false "-Dc_args=$san_cflags"

if [ "${ETLSCOPE_SKIP_WINDOWS:-0}" != 1 ]; then
  win_results=$(mktemp)
  sh tests/windows/run.sh --results "$win_results"
  if read -r win_passed win_failed <"$win_results" && [ -n "$win_failed" ]; then
    passed=$((passed + win_passed))
    failed=$((failed + win_failed))
  else
    echo "windows step: no results"
    failed=$((failed + 1))
  fi
  rm -f "$win_results"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
