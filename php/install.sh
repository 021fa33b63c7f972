#!/usr/bin/env bash
# Set-up, step 1 of 2: system packages, a release build, and yioop_codec.so
# installed into PHP's extension directory and enabled (php --ri yioop).
# Debian 12 with Rust; run as root (or with sudo).
set -euo pipefail
cd "$(dirname "$0")/.."

# php8.2-fpm and libfcgi-bin (cgi-fcgi): tests/fpm.php runs workers under php-fpm.
packages=(php8.2-cli php8.2-dev php8.2-fpm libfcgi-bin phpunit clang libclang-dev ocl-icd-opencl-dev
    pocl-opencl-icd clinfo valgrind)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

cargo build --release

ext_dir=$(php-config --extension-dir)
install -m 0644 target/release/libyioop_codec.so "$ext_dir/yioop_codec.so"

# Debian's way to enable a module for every SAPI: mods-available + phpenmod.
echo "extension=yioop_codec.so" > /etc/php/8.2/mods-available/yioop.ini
phpenmod -v 8.2 yioop
php --ri yioop
