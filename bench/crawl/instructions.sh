#!/usr/bin/env bash
# The crawl replay's queue-server indexing in instructions, counted by
# callgrind (they do not drift as CPU seconds do on a shared machine): each
# configuration's whole worker process, less the same process set up but
# given no batch. Plain Yioop without the extension against the switched
# tree with it, each without and with tracing JIT.
#
#   YIOOP_DIR=/path/to/yioop-2021 bash bench/crawl/instructions.sh BATCH_DIR [libyioop_codec.so]
set -euo pipefail
cd "$(dirname "$0")/../.."
batches=$(realpath "$1")
so=$(realpath "${2:-target/release/libyioop_codec.so}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/conf.d" "$tmp/plain" "$tmp/switched"
for ini in "$(php -r 'echo PHP_CONFIG_FILE_SCAN_DIR;')"/*.ini; do
    case "$ini" in *yioop*) ;; *) cp "$ini" "$tmp/conf.d/" ;; esac
done
cp -r "$YIOOP_DIR/src" "$tmp/plain/"
cp -r "$YIOOP_DIR/src" "$tmp/switched/"
php php/yioop-integrate.php "$tmp/switched" > /dev/null

count() { # setup-only flag, tree, php's flags...
    local setup=$1 tree=$2 work
    shift 2
    work=$(mktemp -d -p "$tmp")
    REPLAY_SETUP_ONLY=$setup PHP_INI_SCAN_DIR="$tmp/conf.d" valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null php "$@" bench/crawl/worker.php "$tree/src" "$work" "$batches" \
        "$work/out.json" 2>&1 >/dev/null | awk '/ refs:/ { gsub(",", "", $NF); print $NF }'
}

jit="-d opcache.enable_cli=1 -d opcache.jit=tracing -d opcache.jit_buffer_size=256M"
printf '%-14s %16s %16s %8s\n' JIT yioop extension ratio
for mode in off tracing; do
    flags=(-d opcache.enable_cli=0)
    [ "$mode" = tracing ] && read -ra flags <<< "$jit"
    yioop=$(( $(count "" "$tmp/plain" "${flags[@]}") - $(count 1 "$tmp/plain" "${flags[@]}") ))
    ext=$(( $(count "" "$tmp/switched" "${flags[@]}" -d "extension=$so") \
        - $(count 1 "$tmp/switched" "${flags[@]}" -d "extension=$so") ))
    printf '%-14s %16d %16d %7.2fx\n' "$mode" "$yioop" "$ext" "$(echo "$yioop / $ext" | bc -l)"
done
