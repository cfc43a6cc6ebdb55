#!/usr/bin/env bash
# Fuzzes ReelCore with libFuzzer through the Swift toolchain (swiftc -sanitize=fuzzer,address).
#
#   fuzz.sh [TARGET|all] [SECONDS]      run TARGET (default: all) for SECONDS each (default 60)
#   fuzz.sh --list                      the targets
#   fuzz.sh --check                     exit 0 when this toolchain can build a libFuzzer binary
#
# ReelCore's sources and Tests/Fuzz/*.swift are compiled into one binary (cached in
# .build/fuzz, rebuilt when a source changes); REEL_FUZZ_TARGET picks the target. Seeds are in
# Tests/Fuzz/corpus/TARGET (committed); what the fuzzer learns goes to .build/fuzz/corpus/TARGET;
# a crashing input is saved as .build/fuzz/artifacts/TARGET-crash-* and the run fails.
# Reproduce one: REEL_FUZZ_TARGET=TARGET .build/fuzz/reel-fuzz .build/fuzz/artifacts/<file>
#
# Environment: JOBS (parallel fuzzing jobs per target, default 1), FUZZ_FLAGS (extra libFuzzer flags).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"
SWIFTC=${SWIFTC:-swiftc}
out=$root/.build/fuzz
bin=$out/reel-fuzz${REEL_CORE_DIR:+-$(printf %s "$REEL_CORE_DIR" | md5sum | cut -c1-8)}

CORE=${REEL_CORE_DIR:-Sources/ReelCore}   # another ReelCore tree can be fuzzed (e.g. a lane's checkout)
sources() { find "$CORE" -name '*.swift' | sort; ls Tests/Fuzz/*.swift; }
# Pure Swift files from outside ReelCore to fuzz with it (the HLS parser and rewriter are in ReelCore).
EXTRA_SOURCES=${EXTRA_SOURCES:-}

check() {
  local d
  d=$(mktemp -d)
  printf '@_cdecl("LLVMFuzzerTestOneInput") public func f(_ d: UnsafePointer<UInt8>?, _ n: Int) -> Int32 { 0 }\n' > "$d/f.swift"
  if "$SWIFTC" -sanitize=fuzzer,address -parse-as-library "$d/f.swift" -o "$d/f" >/dev/null 2>&1 && "$d/f" -runs=1 >/dev/null 2>&1; then
    rm -rf "$d"; return 0
  fi
  rm -rf "$d"; return 1
}

build() {
  mkdir -p "$out"
  local newest
  # sed reads to the end: `head -n 1` would leave ls writing into a closed pipe (SIGPIPE, 141,
  # fatal under pipefail) once the list outgrows one stdio buffer.
  # shellcheck disable=SC2046
  newest=$(ls -t $(sources) $EXTRA_SOURCES | sed -n 1p)
  if [ -x "$bin" ] && [ "$bin" -nt "$newest" ]; then return 0; fi
  echo "fuzz: building $bin" >&2
  # shellcheck disable=SC2046
  "$SWIFTC" -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g "${DEFINES[@]}" \
    -module-name ReelFuzz $(sources) $EXTRA_SOURCES -o "$bin.tmp" > "$out/build.log" 2>&1 \
    || { grep -E "error:" "$out/build.log" >&2 || tail -n 20 "$out/build.log" >&2; exit 1; }
  mv "$bin.tmp" "$bin"
}

# Targets that need code from another lane switch on when that code is in ReelCore.
DEFINES=()
have_playlists=0
if grep -rqs "public enum PlaylistParser" "$CORE"; then DEFINES+=(-D REEL_HAVE_PLAYLIST_PARSER); have_playlists=1; fi
have_hls=0
if grep -rqs "public struct HLSPlaylistRewriter" "$CORE"; then DEFINES+=(-D REEL_HAVE_HLS); have_hls=1; fi

# The registered targets: `"name": Type.run,` lines of FuzzTargets.swift, plus the switched-on ones.
targets() {
  sed -n 's/^ *"\([a-z0-9]*\)": [A-Za-z0-9]*\.run,.*$/\1/p' Tests/Fuzz/FuzzTargets.swift
  if [ "$have_playlists" = 1 ]; then printf '%s\n' playlist m3u pls xspf; fi
  if [ "$have_hls" = 1 ]; then printf '%s\n' hls rewriter live; fi
  if [ "$have_playlists" = 1 ] && [ "$have_hls" = 1 ]; then printf '%s\n' inspect; fi
}

case "${1:-}" in
  --check) check; exit $? ;;
  --list) targets; exit 0 ;;
esac

what=${1:-all}
seconds=${2:-60}
check || { echo "fuzz: this Swift toolchain cannot build libFuzzer binaries (-sanitize=fuzzer)" >&2; exit 77; }
build
if [ "$what" = all ]; then list=$(targets); else list=$what; fi

parallel=""
[ "${JOBS:-1}" -gt 1 ] && parallel="-fork=$JOBS"
status=0
# FUZZ_RUNS=N: a fixed number of inputs per target from the committed corpus only (with
# FUZZ_SEED: the same inputs on every machine for the same code; make test's smoke run). Without
# it: for SECONDS, growing the corpus kept under .build.
budget="-max_total_time=$seconds"
[ -n "${FUZZ_RUNS:-}" ] && budget="-runs=$FUZZ_RUNS"
for t in $list; do
  mkdir -p "$out/corpus/$t" "$out/artifacts" "Tests/Fuzz/corpus/$t"
  work="$out/corpus/$t"
  if [ -n "${FUZZ_RUNS:-}" ]; then
    work="$out/smoke/$t"; rm -rf "$work"; mkdir -p "$work"
    echo "fuzz: $t for $FUZZ_RUNS inputs" >&2
  else
    echo "fuzz: $t for ${seconds}s" >&2
  fi
  # -max_len: playlists are text; 64 KiB lets a fuzzer build large ones without wasting time.
  # -detect_leaks=0: swift-corelibs-foundation keeps bounded caches (compiled regexes, URL parsers)
  # that LeakSanitizer reports as leaks (200k NSRegularExpressions in a loop: RSS flat); growth is
  # what `make soak` watches instead.
  # shellcheck disable=SC2086
  # SWIFT_BACKTRACE off: Swift's crash handler and ASan fight over the crashed process.
  if ! SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} REEL_FUZZ_TARGET=$t "$bin" "$work" "Tests/Fuzz/corpus/$t" \
      $budget -max_len=65536 -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
      $parallel -print_final_stats=1 ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
      -artifact_prefix="$out/artifacts/$t-" ${FUZZ_FLAGS:-} > "$out/$t.log" 2>&1; then
    echo "fuzz: $t FAILED; log $out/$t.log; input in $out/artifacts/" >&2
    grep -E "fuzz property failed|Fatal error|ERROR: |SUMMARY" "$out/$t.log" | head -n 5 >&2 || true
    status=1
  else
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -n 1)
    echo "fuzz: $t ok (${runs:-?} inputs)" >&2
  fi
done
exit $status
