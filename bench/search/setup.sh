#!/bin/sh
# What bench/search/run.php needs on a fresh Debian 12 machine besides
# what php/install.sh installs: nginx and php-fpm (they are started by the
# benchmark itself, on 127.0.0.1, as its own processes: no service needed),
# php-curl and php-gd (Yioop's Fetcher fetches through curl and reads images
# with gd; its machines talk through curl), php-sqlite3 (Yioop's database,
# which its installer creates), the documentation packages whose
# HTML is the corpus, and excimer for --profile. Not part of the test
# command's needs. The corpus is Debian 12's documentation (package names
# with versions), the one the README's figures were measured on.
set -e
apt-get update
apt-get install -y nginx php-fpm php-curl php-gd php-sqlite3 php-excimer \
    python3.11-doc postgresql-doc-15 python-django-doc git-doc libglib2.0-doc libgtk-3-doc
