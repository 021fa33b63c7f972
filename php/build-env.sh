# Sourced by php/install.sh and tests/run.sh (bash): what the build and the
# tests need to know about this machine's PHP and clang, found rather than
# assumed, so that the same commands work on Debian 12 (PHP 8.2, clang 14)
# and Debian 13 (PHP 8.4, clang 19).
#
# Sets:
#   php_version     X.Y of the `php` on PATH (8.2, 8.4, ...)
#   php_etc         /etc/php/X.Y, Debian's per-version configuration
#   target_dir      cargo's target directory (CARGO_TARGET_DIR, else target)
#   LIBCLANG_PATH   exported, unless the caller set it: the library directory
#                   of the installed clang, so bindgen (through ext-php-rs)
#                   loads the libclang whose headers are installed. On Debian
#                   12 PoCL pulls in libclang 15 next to clang 14's headers,
#                   and bindgen would otherwise take the newest libclang.

php_version=$(php -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;')
php_etc=/etc/php/$php_version
target_dir=${CARGO_TARGET_DIR:-target}
case "$target_dir" in /*) ;; *) target_dir=$PWD/$target_dir ;; esac

if [ -z "${LIBCLANG_PATH:-}" ] && command -v clang >/dev/null; then
    # /usr/lib/llvm-14/lib/clang/14.0.6 -> /usr/lib/llvm-14/lib
    clang_lib=$(clang -print-resource-dir)
    clang_lib=${clang_lib%/clang/*}
    [ -d "$clang_lib" ] && export LIBCLANG_PATH="$clang_lib"
    unset clang_lib
fi

# The binding layer reads php-src's internals as 8.2 to 8.4 lay them out
# (8.2's packed arrays of zvals, for one): refuse others here, plainly,
# rather than fail deep in the build or misread memory at run time.
case "$php_version" in
    8.2|8.4) ;;
    8.3) echo "note: PHP 8.3 should work but is not tested here (8.2 and 8.4 are)" >&2 ;;
    *) echo "PHP $php_version is not supported: yioop_codec builds for PHP 8.2 to 8.4" \
        "(8.2 and 8.4 tested)" >&2
       exit 1 ;;
esac
