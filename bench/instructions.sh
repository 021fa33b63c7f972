#!/usr/bin/env bash
# Instructions per call, counted by callgrind (they do not drift as wall
# clock does on a shared machine), for the extension and, with YIOOP_DIR
# set, for Yioop's own PHP without and with the tracing JIT.
#
#   bash bench/instructions.sh [path/to/libyioop_codec.so]
set -euo pipefail
cd "$(dirname "$0")/.."
so=$(realpath "${1:-target/release/libyioop_codec.so}")
script=bench/instructions.php
calls=20000 # POSTINGS in the script

# PHP's ini files minus an installed yioop_codec, as tests/run.sh does.
scan_dir=$(mktemp -d)
trap 'rm -rf "$scan_dir"' EXIT
for ini in "$(php -r 'echo PHP_CONFIG_FILE_SCAN_DIR;')"/*.ini; do
    case "$ini" in *yioop*) ;; *) cp "$ini" "$scan_dir/" ;; esac
done

# PHP_INI_SCAN_DIR reaches the extension's runs only (-n ignores it).
export PHP_INI_SCAN_DIR="$scan_dir"
yioop_dir=${YIOOP_DIR:-}
unset YIOOP_DIR

count() { # RUN value, Yioop tree or "", then php's arguments
    local run=$1 tree=$2
    shift 2
    RUN=$run YIOOP_DIR=$tree valgrind --tool=callgrind --callgrind-out-file=/dev/null php "$@" 2>&1 |
        awk '/ refs:/ { gsub(",", "", $NF); print $NF }'
}

per_call() { # workload, baseline workload, Yioop tree or "", php's arguments
    local workload=$1 baseline=$2 tree=$3
    shift 3
    echo $((($(count "$workload" "$tree" "$@") - $(count "$baseline" "$tree" "$@")) / calls))
}

native=(-d "extension=$so" "$script")
printf '%-34s %12s\n' workload native
for w in packPosting unpackPosting unpackPostings floorPosting floorPostings; do
    printf '%-34s %12s\n' "$w" "$(per_call "$w" "" "" "${native[@]}")"
done
printf '%-34s %12s\n' unpackListModified9 "$(per_call unpackListModified9 words "" "${native[@]}")"
printf '%-34s %12s\n' floorList "$(per_call listsFloorList lists "" "${native[@]}")"

if [ -n "$yioop_dir" ]; then
    yioop=(-n "$script")
    jit=(-n -d zend_extension=opcache -d opcache.enable_cli=1 -d opcache.jit=tracing
        -d opcache.jit_buffer_size=128M "$script")
    printf '\n%-34s %12s %12s\n' workload 'Yioop PHP' 'Yioop JIT'
    for w in packPosting unpackPosting; do
        printf '%-34s %12s %12s\n' "$w" "$(per_call "$w" "" "$yioop_dir" "${yioop[@]}")" \
            "$(per_call "$w" "" "$yioop_dir" "${jit[@]}")"
    done
    printf '%-34s %12s %12s\n' unpackListModified9 \
        "$(per_call unpackListModified9 words "$yioop_dir" "${yioop[@]}")" \
        "$(per_call unpackListModified9 words "$yioop_dir" "${jit[@]}")"
fi
