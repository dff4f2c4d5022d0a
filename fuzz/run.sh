#!/usr/bin/env bash
# Coverage-guided fuzzing of ludus with AFL++ through `cargo afl`, on the stable toolchain.
#
#   fuzz/run.sh [SECONDS_PER_TARGET]      (default 30)
#
# Installs cargo-afl when missing (it builds AFL++ from its own sources: no download besides
# crates.io), builds the four targets, runs each one in turn for SECONDS_PER_TARGET from the seeds
# in fuzz/seeds/<target>, and prints per target the inputs executed and the crashes and hangs
# found. Exits 1 when any target crashed or hung (the inputs' paths are printed, with the panic
# replayed), 2 when the fuzzer itself could not run. Non-interactive and bounded in time.
#
# Environment: FUZZ_TARGETS (default "rules expr notation protocol"), FUZZ_TIMEOUT_MS (one input's
# time limit, default 1000), FUZZ_OUT (findings and corpora, default fuzz/out; cleared per target).
set -euo pipefail

secs="${1:-30}"
case "$secs" in
'' | *[!0-9]*)
    echo "usage: $0 [SECONDS_PER_TARGET]" >&2
    exit 2
    ;;
esac
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
read -r -a targets <<<"${FUZZ_TARGETS:-rules expr notation protocol}"
timeout_ms="${FUZZ_TIMEOUT_MS:-1000}"
out="${FUZZ_OUT:-$here/out}"
bin="${CARGO_TARGET_DIR:-target}/release"
afl_version=0.18.2 # keep equal to the `afl` version in Cargo.toml
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# --- install (idempotent) ---------------------------------------------------------------------
if ! cargo afl --version 2>/dev/null | grep -q "^cargo-afl $afl_version "; then
    echo "== installing cargo-afl $afl_version (builds AFL++)"
    cargo install cargo-afl --locked --version "$afl_version"
fi
# AFL++'s runtime is built per rustc version: `cargo install` builds it, a new toolchain needs it
# again.
if ! cargo afl build --help >/dev/null 2>&1; then
    echo "== building AFL++ for $(rustc --version)"
    cargo afl config --build --force
fi

# --- build ------------------------------------------------------------------------------------
echo "== building the fuzz targets"
cargo afl build --release --locked --bins
echo "== install and build took ${SECONDS}s"

# --- run --------------------------------------------------------------------------------------
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
    AFL_FAST_CAL=1 AFL_NO_WARN_INSTABILITY=1
mkdir -p "$out"
status=0
summary=()
for t in "${targets[@]}"; do
    dir="$out/$t"
    rm -rf "$dir"
    dict=()
    [[ -f "dicts/$t.dict" ]] && dict=(-x "dicts/$t.dict")
    echo "== fuzzing $t for ${secs}s (log: $dir.log)"
    set +e
    # -V stops the fuzzer after the time given; timeout is the backstop.
    timeout -k 10 $((secs + 120)) cargo afl fuzz -V "$secs" -t "$timeout_ms" \
        -i "seeds/$t" -o "$dir" "${dict[@]}" -- "$bin/$t" </dev/null >"$dir.log" 2>&1
    rc=$?
    set -e
    stats="$dir/default/fuzzer_stats"
    if [[ ! -f "$stats" ]]; then
        echo "!! afl-fuzz did not run for $t (exit $rc); the end of its log:"
        tail -n 30 "$dir.log" | sed 's/\x1b\[[0-9;]*m//g'
        summary+=("$(printf '%-9s fuzzer failed to start (exit %d)' "$t" "$rc")")
        status=2
        continue
    fi
    field() { sed -n "s/^$1 *: *//p" "$stats"; }
    execs=$(field execs_done)
    crashes=$(field saved_crashes)
    hangs=$(field saved_hangs)
    summary+=("$(printf '%-9s execs %10s  execs/s %8s  corpus %5s  crashes %s  hangs %s' \
        "$t" "$execs" "$(field execs_per_sec)" "$(field corpus_count)" "$crashes" "$hangs")")
    for kind in crashes hangs; do
        for f in "$dir/default/$kind"/id:*; do
            [[ -e "$f" ]] || continue
            status=1
            echo "!! $t: ${kind%es} input: $f"
            if [[ "$kind" == crashes ]]; then
                # Replay outside the fuzzer: the target reads the input on stdin and panics.
                "$bin/$t" <"$f" 2>&1 | grep -A3 -m1 "panicked" | sed 's/^/   /' || true
            fi
        done
    done
    if [[ $rc -ne 0 && $status -eq 0 ]]; then
        echo "!! afl-fuzz exited $rc for $t; the end of its log:"
        tail -n 30 "$dir.log" | sed 's/\x1b\[[0-9;]*m//g'
        status=2
    fi
done

echo "== summary (${secs}s a target)"
printf '%s\n' "${summary[@]}"
case $status in
0) echo "no crash, no hang" ;;
1) echo "FAILED: crashes or hangs found (inputs listed above; replay: fuzz/target/release/TARGET < INPUT)" ;;
*) echo "FAILED: the fuzzer could not run" ;;
esac
exit $status
