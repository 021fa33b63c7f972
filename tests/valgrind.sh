#!/usr/bin/env bash
# Runs the PHPUnit suite under valgrind's memcheck, once with OpenCL off and
# once forced on, and fails if valgrind reports a definitely lost block, or
# an invalid read, write or free, whose stack includes the extension
# (libyioop_codec). PHP's own leaks and those of other libraries are ignored;
# no suppression file is used.
#
# Usage: tests/valgrind.sh [phpunit arguments]
#   tests/valgrind.sh                              the whole suite
#   tests/valgrind.sh --exclude-group huge         without the 10^7-element tests
#   tests/valgrind.sh --filter 'BadInput|Batch'    a subset
# VALGRIND_MODES="off" (or "on") runs one mode only. Logs are kept in
# target/valgrind/logs/ (phpunit-<mode>.log, valgrind-<mode>.log).
#
# The extension is built with debug line tables into target/valgrind (not
# target/release), so the stacks name functions and lines. PCRE's JIT is off:
# memcheck cannot follow its generated code and reports it by the thousand.
# OPcache is on, as on a production server: it makes literal arrays
# immutable, which is a case of its own when the extension writes to an
# array it was passed by reference.
set -euo pipefail
cd "$(dirname "$0")/.."
. php/build-env.sh

command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 2; }

CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
    cargo build --release --target-dir target/valgrind
so="$PWD/target/valgrind/release/libyioop_codec.so"
logs="$PWD/target/valgrind/logs"
mkdir -p "$logs"

# PHP's own ini files, minus an installed yioop_codec, so that exactly this
# build is loaded.
scan_dir=$(mktemp -d)
trap 'rm -rf "$scan_dir"' EXIT
for ini in "$php_etc"/cli/conf.d/*.ini; do
    case "$ini" in *yioop*) ;; *) cp "$ini" "$scan_dir/" ;; esac
done

status=0
for mode in ${VALGRIND_MODES:-off on}; do
    case "$mode" in
        off) settings=(-d yioop.opencl=off) ;;
        on) settings=(-d yioop.opencl=on -d yioop.opencl_min_length=0 -d yioop.compress_threads=4) ;;
        *) echo "unknown mode $mode" >&2; exit 2 ;;
    esac
    vlog="$logs/valgrind-$mode.log"
    plog="$logs/phpunit-$mode.log"
    echo "== valgrind, OpenCL $mode: phpunit $*"
    start=$(date +%s)
    set +e
    USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1 PHP_INI_SCAN_DIR="$scan_dir" \
        valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite \
            --error-limit=no --num-callers=50 --log-file="$vlog" \
        php -d "extension=$so" -d pcre.jit=0 -d opcache.enable_cli=1 "${settings[@]}" \
            /usr/bin/phpunit "$@" >"$plog" 2>&1
    phpunit_status=$?
    set -e
    elapsed=$(( $(date +%s) - start ))
    tail -n 3 "$plog"

    # One record per blank-line-separated block of the log; keep those that
    # are a definite leak or an invalid access and mention the extension.
    # Invalid accesses inside the dynamic loader (glibc's strncmp reading
    # past a string end in dlopen of the OpenCL ICD, a known false positive)
    # are not the extension's.
    # Records of forked children (pids without a "Command:" line: the
    # OpenCL fork test's child, which ends itself with SIGKILL and, by
    # design, abandons the OpenCL context it inherited) are shown but do
    # not fail the run.
    scan() {
        awk -v want="$1" '
            match($0, /^==[0-9]+==/) { pid = substr($0, 3, RLENGTH - 4) }
            / Command: / { main[pid] = 1 }
            /^==[0-9]+== *$/ { flush(); next }
            { sub(/^==[0-9]+== /, ""); record = record $0 "\n"; owner = pid }
            function flush() {
                bad = record ~ /definitely lost/ \
                    || (record ~ /(Invalid (read|write|free)|Mismatched free|uninitialised)/ \
                        && record !~ /_dl_(open|map_object|catch_exception)/)
                if (bad && record ~ /yioop_codec/ && ((owner in main) == (want == "main"))) {
                    printf "[pid %s] %s\n", owner, record
                }
                record = ""
            }
            END { flush() }' "$vlog"
    }
    found=$(scan main)
    children=$(scan child)
    summary=$(grep -E 'definitely lost:|ERROR SUMMARY' "$vlog" | tail -n 2 | sed 's/^==[0-9]*== *//' | tr '\n' ' ')
    echo "   ${elapsed}s; phpunit exit $phpunit_status; valgrind: $summary"
    if [ -n "$children" ]; then
        echo "   (in forked children, not counted:)"
        echo "$children" | grep -E 'lost in loss record|Invalid' | sed 's/^/     /'
    fi
    if [ -n "$found" ]; then
        echo "!! valgrind found problems in libyioop_codec (OpenCL $mode):"
        echo "$found"
        status=1
    else
        echo "   no definite leak or invalid access involving libyioop_codec"
    fi
done
exit $status
