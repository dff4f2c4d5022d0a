#!/usr/bin/env bash
# Coverage-guided fuzzing of ludus: libFuzzer through `cargo fuzz`, on the stable toolchain
# (`--sanitizer none`: no nightly flag, no RUSTC_BOOTSTRAP).
#
#   fuzz/run.sh [SECONDS_PER_TARGET]      (default 30)
#
# Installs cargo-fuzz when missing (from crates.io; libFuzzer itself is compiled from the
# libfuzzer-sys crate with the machine's C++ compiler), builds the four targets, runs each one in
# turn for SECONDS_PER_TARGET from the seeds in fuzz/seeds/<target>, and prints per target the
# inputs executed and whether it crashed or hung. Exits 1 when any target crashed, hung or ran out
# of memory (the input's path is printed, with the panic), 2 when the fuzzer could not run.
# Non-interactive and bounded in time.
#
# Environment: FUZZ_TARGETS (default "rules expr notation protocol"), FUZZ_TIMEOUT (seconds one
# input may take before it counts as a hang, default 2), FUZZ_OUT (findings and the corpora found,
# default fuzz/out; cleared per target).
set -euo pipefail

secs="${1:-30}"
case "$secs" in
'' | *[!0-9]* | 0)
    echo "usage: $0 [SECONDS_PER_TARGET]   (a whole number of seconds, at least 1)" >&2
    exit 2
    ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/.." # cargo fuzz works from the crate root and finds fuzz/ there
read -r -a targets <<<"${FUZZ_TARGETS:-rules expr notation protocol}"
hang_secs="${FUZZ_TIMEOUT:-2}"
out="${FUZZ_OUT:-$here/out}"
cargo_fuzz_version=0.13.2
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
fuzz=(cargo fuzz)
build_opts=(--sanitizer none)

# --- install (idempotent) ---------------------------------------------------------------------
if ! command -v c++ >/dev/null; then
    echo "== installing a C++ compiler (libFuzzer is C++)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ >/dev/null
fi
if ! cargo fuzz --version 2>/dev/null | grep -q "^cargo-fuzz $cargo_fuzz_version"; then
    echo "== installing cargo-fuzz $cargo_fuzz_version"
    cargo install cargo-fuzz --locked --version "$cargo_fuzz_version"
fi

# --- build ------------------------------------------------------------------------------------
echo "== building the fuzz targets"
"${fuzz[@]}" build "${build_opts[@]}"
echo "== install and build took ${SECONDS}s"

# --- run --------------------------------------------------------------------------------------
mkdir -p "$out"
status=0
summary=()
for t in "${targets[@]}"; do
    dir="$out/$t"
    rm -rf "$dir" "$dir.log"
    mkdir -p "$dir/corpus"
    opts=(-max_total_time="$secs" -timeout="$hang_secs" -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$dir/")
    [[ -f "fuzz/dicts/$t.dict" ]] && opts+=(-dict="fuzz/dicts/$t.dict")
    echo "== fuzzing $t for ${secs}s (log: $dir.log)"
    # New inputs go to the first folder ($dir/corpus); the seeds are only read.
    set +e
    timeout -k 10 $((secs + 120)) "${fuzz[@]}" run "${build_opts[@]}" "$t" \
        "$dir/corpus" "fuzz/seeds/$t" -- "${opts[@]}" </dev/null >"$dir.log" 2>&1
    rc=$?
    set -e
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir.log" | tail -n 1)
    found=("$dir"/crash-* "$dir"/timeout-* "$dir"/oom-* "$dir"/slow-unit-*)
    findings=0
    for f in "${found[@]}"; do
        [[ -e "$f" ]] || continue
        findings=$((findings + 1))
        status=1
        echo "!! $t: $(basename "$f" | cut -d- -f1) input: $f"
    done
    if [[ $findings -gt 0 ]]; then
        grep -m1 -A4 -E "panicked at|ERROR: libFuzzer" "$dir.log" | sed 's/^/   /' || true
    elif [[ $rc -ne 0 || -z "$execs" ]]; then
        echo "!! fuzzing $t failed (exit $rc); the end of its log:"
        tail -n 30 "$dir.log"
        [[ $status -eq 0 ]] && status=2
    fi
    summary+=("$(printf '%-9s execs %10s  corpus %5s  crashes/hangs %s' "$t" "${execs:-?}" \
        "$(find "$dir/corpus" -type f | wc -l)" "$findings")")
done

echo "== summary (${secs}s a target)"
printf '%s\n' "${summary[@]}"
case $status in
0) echo "no crash, no hang" ;;
1) echo "FAILED: crash or hang (input listed above; replay: cargo fuzz run -s none TARGET INPUT)" ;;
*) echo "FAILED: the fuzzer could not run" ;;
esac
exit $status
