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
