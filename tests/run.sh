#!/usr/bin/env bash
# Set-up, step 2 of 2: every test. Cargo tests on the core, then PHPUnit on
# this checkout's build (not an installed copy), in every mode the extension
# has: both posting formats, OpenCL forced on, and OpenCL unavailable.
set -euo pipefail
cd "$(dirname "$0")/.."
. php/build-env.sh

cargo build --release
cargo test --release

so="$target_dir/release/libyioop_codec.so"
# PHP's own ini files, minus an installed yioop_codec, so that exactly this
# build is loaded.
scan_dir=$(mktemp -d)
trap 'rm -rf "$scan_dir" "$no_icd"' EXIT
no_icd=$(mktemp -d)
for ini in "$php_etc"/cli/conf.d/*.ini; do
    case "$ini" in *yioop*) ;; *) cp "$ini" "$scan_dir/" ;; esac
done

phpunit() {
    echo "== phpunit $*"
    PHP_INI_SCAN_DIR="$scan_dir" php -d "extension=$so" "$@" /usr/bin/phpunit
}

phpunit -d yioop.format=2019
phpunit -d yioop.format=2015
phpunit -d yioop.opencl=on -d yioop.opencl_min_length=0
# Every call asks for the device, finds no driver, and runs scalar.
OCL_ICD_VENDORS="$no_icd" phpunit -d yioop.opencl=on -d yioop.opencl_min_length=0
# WebArchive::addObjects's records compressed, and an upload's sites
# inflated, on PHP's thread alone and with more threads (the runs above use
# the default, 1).
for threads in 1 4; do
    for test in tests/index/AddObjectsTest.php tests/codec/UploadsTest.php; do
        echo "== phpunit -d yioop.compress_threads=$threads $test"
        PHP_INI_SCAN_DIR="$scan_dir" php -d "extension=$so" -d yioop.compress_threads=$threads \
            /usr/bin/phpunit "$test"
    done
done

echo "== php-fpm"
timeout 1200 php tests/fpm.php "$so"
