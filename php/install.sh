#!/usr/bin/env bash
# Set-up, step 1 of 2: system packages, a release build, and yioop_codec.so
# installed into PHP's extension directory and enabled (php --ri yioop).
# Debian 12 (PHP 8.2) or Debian 13 (PHP 8.4) with Rust; run as root (or with
# sudo). The distribution's own PHP is used; its version, ini and extension
# directories are asked of php and php-config.
set -euo pipefail
cd "$(dirname "$0")/.."

# php-fpm and libfcgi-bin (cgi-fcgi): tests/fpm.php runs workers under php-fpm.
# build-essential: cc links the crate and builds libdeflate.
# zlib1g-dev and pkgconf: libz-sys links the system's libz.so.1, the zlib
# PHP's gzencode runs (without them it would build a bundled copy, whose
# output may differ: tests/index/AddObjectsTest and tests/index/zlib_link.rs
# catch that).
packages=(php-cli php-dev php-fpm libfcgi-bin phpunit build-essential clang libclang-dev zlib1g-dev pkgconf
    ocl-icd-opencl-dev pocl-opencl-icd clinfo valgrind)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

. php/build-env.sh
cargo build --release

ext_dir=$(php-config --extension-dir)
install -m 0644 "$target_dir/release/libyioop_codec.so" "$ext_dir/yioop_codec.so"

# Debian's way to enable a module for every SAPI: mods-available + phpenmod.
echo "extension=yioop_codec.so" > "$php_etc/mods-available/yioop.ini"
phpenmod -v "$php_version" yioop
php --ri yioop
