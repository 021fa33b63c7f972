#!/bin/sh
# What bench/scale needs on a fresh Debian 12 machine besides what
# php/install.sh installs: bench/search/setup.sh's (nginx, php-fpm, the
# first corpus packages), SQLite for PHP (Yioop's Fetcher opens its
# database to guess a page's locale), and the other documentation packages
# whose HTML bench/scale/pages.php takes.
set -e
sh "$(dirname "$0")/../search/setup.sh"
apt-get install -y php8.2-sqlite3 openjdk-17-doc libboost1.74-doc linux-doc-6.1 \
    libstdc++-12-doc qtbase5-doc-html libgtk-4-doc cmake-doc qtdeclarative5-doc-html \
    python-sqlalchemy-doc
# bench/scale --pages=100000 (SCALE_LARGE_SECTIONS; libreoffice-dev-doc is a
# 580 MB download)
apt-get install -y rust-doc libreoffice-dev-doc libpcl-doc wx3.2-doc libcoin-doc \
    libeigen3-doc libwebkit2gtk-4.0-doc libgtkmm-4.0-doc libpango1.0-doc libsoup-3.0-doc \
    libsfml-doc libgegl-doc libgda-5.0-doc libxml2-doc libclutter-1.0-doc
