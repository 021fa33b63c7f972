#!/usr/bin/env bash
# Fuzzes the codec core, the summaries' serialize reader and the records'
# deflate (tests/fuzz: cargo-fuzz targets decode, encode, roundtrip,
# serialized, deflate) for a bounded time per target and fails on any
# crash, panic, sanitizer report or timeout. Usage: tests/fuzz.sh [seconds
# per target]
# (default 60). Needs cargo-fuzz (cargo install cargo-fuzz); runs on stable
# Rust through RUSTC_BOOTSTRAP=1, since cargo-fuzz uses -Z flags.
#
# Builds with AddressSanitizer and with debug assertions and overflow checks
# on (-a), so an arithmetic overflow is a crash here even though release
# builds would wrap. New inputs go to a scratch corpus; the seeds in
# tests/fuzz/corpus/ are read only. A crash leaves its input in
# tests/fuzz/artifacts/<target>/; replay it with
#   RUSTC_BOOTSTRAP=1 cargo fuzz run --fuzz-dir tests/fuzz -a <target> <file>
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
fuzz_dir=tests/fuzz
targets=(decode encode roundtrip serialized deflate)
export RUSTC_BOOTSTRAP=1

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2
    exit 2
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cargo fuzz build --fuzz-dir "$fuzz_dir" -a

status=0
summary=()
for target in "${targets[@]}"; do
    mkdir -p "$scratch/$target"
    log="$scratch/$target.log"
    echo "== fuzz $target for ${seconds}s"
    start=$(date +%s)
    if cargo fuzz run --fuzz-dir "$fuzz_dir" -a "$target" \
            "$scratch/$target" "$fuzz_dir/corpus/$target" -- \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
            -print_final_stats=1 >"$log" 2>&1; then
        result=ok
    else
        result=CRASH
        status=1
        tail -n 60 "$log"
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    summary+=("$target: $result, ${runs:-?} executions in $(( $(date +%s) - start ))s")
done

echo "== fuzz summary"
printf '%s\n' "${summary[@]}"
exit $status
