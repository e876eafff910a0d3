#!/usr/bin/env bash
# Runs the conformance scenario with the PHP client against PLINTH_URL / PLINTH_PROXY_URL / PLINTH_LIMITED_URL.
# Nothing to build; the dependencies are Debian packages (php-cli, php-curl, php-mbstring, php-guzzlehttp-guzzle:
# install-toolchains.sh). Exit 77 when they are missing.
set -euo pipefail
cd "$(dirname "$0")"
command -v php >/dev/null || { echo "php not installed"; exit 77; }
php -r 'exit(extension_loaded("curl") && extension_loaded("mbstring") && is_file("/usr/share/php/GuzzleHttp/autoload.php") ? 0 : 1);' \
  || [[ -f vendor/autoload.php ]] || { echo "php-curl / php-mbstring / php-guzzlehttp-guzzle not installed"; exit 77; }
# methods.json names only methods the layer has, and lists every one it has.
php -d error_reporting=E_ALL -d display_errors=stderr test/MethodsTest.php
# What the live scenario cannot provoke (503/409 retried with one key, Retry-After, limits, refused connections,
# timeout), reversals, balances, statements and nicknames, and a key's permissions on the wire, against a scripted
# server (php -S); then the scenario itself.
php -d error_reporting=E_ALL -d display_errors=stderr test/ScriptedTest.php
php -d error_reporting=E_ALL -d display_errors=stderr test/LedgerTest.php
php -d error_reporting=E_ALL -d display_errors=stderr test/KeysTest.php
php -d error_reporting=E_ALL -d display_errors=stderr test/StreamTest.php
# The README's examples (readme-examples.php, written from README.md by scripts/clients/readme.ts).
php -l readme-examples.php
php -d error_reporting=E_ALL -d display_errors=stderr readme-examples.php
exec php -d error_reporting=E_ALL -d display_errors=stderr conformance.php
