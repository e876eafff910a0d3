#!/usr/bin/env bash
# Packages the PHP client as a user meets it: a fresh Composer project in a temporary directory outside the
# repository requires plinth/plinth from a `path` repository pointing at this directory (mirrored, not symlinked,
# as an installed copy would be), `composer install` puts it in vendor/ with Composer's autoloader, and the README's
# quickstart runs there (sign up at PLINTH_URL, create an account, print its id), loading the client through
# vendor/autoload.php only.
# Packagist is not reachable here, so Guzzle 7 and PSR-7 come from Debian (php-guzzlehttp-guzzle): the project
# disables packagist.org, declares those two packages `provide`d at Debian's versions, and loads Debian's Guzzle
# autoloader before Composer's. A user with Packagist drops those three lines and Composer fetches Guzzle.
# Exit 77 when php, its extensions, Debian's Guzzle or composer are missing (as conformance.sh).
set -euo pipefail
cd "$(dirname "$0")"
command -v php >/dev/null || { echo "php not installed"; exit 77; }
php -r 'exit(extension_loaded("curl") && extension_loaded("mbstring") ? 0 : 1);' || { echo "php-curl / php-mbstring not installed"; exit 77; }
guzzle_autoload=/usr/share/php/GuzzleHttp/autoload.php
[[ -f "$guzzle_autoload" ]] || { echo "php-guzzlehttp-guzzle not installed"; exit 77; }
command -v composer >/dev/null || { echo "composer not installed (apt-get install composer)"; exit 77; }
: "${PLINTH_URL:?PLINTH_URL must point at a running Plinth}"
debian_version() { dpkg-query -W -f='${Version}' "$1" | sed 's/^[0-9]*://; s/[-+~].*//'; }

work="$(mktemp -d "${TMPDIR:-/tmp}/plinth-php-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir "$work/app"
cat >"$work/app/composer.json" <<JSON
{
  "name": "example/plinth-quickstart",
  "type": "project",
  "require": { "plinth/plinth": "^0.1" },
  "repositories": [
    { "type": "path", "url": "$PWD", "options": { "symlink": false } },
    { "packagist.org": false }
  ],
  "provide": {
    "guzzlehttp/guzzle": "$(debian_version php-guzzlehttp-guzzle)",
    "guzzlehttp/psr7": "$(debian_version php-guzzlehttp-psr7)"
  }
}
JSON
cat >"$work/app/quickstart.php" <<PHP
<?php
require '$guzzle_autoload'; // Debian's Guzzle (see package.sh); with Packagist, Composer's autoloader loads it
require 'vendor/autoload.php';
\$plinth = new Plinth\Client(Plinth\Client::signUp(getenv('PLINTH_URL'))->getApiKey()->getKey(), getenv('PLINTH_URL'));
\$account = \$plinth->accounts->create(['type' => 'business', 'country' => 'US']);
echo \$account->getId(), "\n";
// The check that it ran the installed copy, not the repository's.
\$where = (new ReflectionClass(Plinth\Client::class))->getFileName();
if (!str_starts_with(\$where, __DIR__ . '/vendor/plinth/plinth/')) {
    fwrite(STDERR, "Plinth\\\\Client was loaded from \$where, not vendor/\n");
    exit(1);
}
PHP
cd "$work/app"
if ! COMPOSER_HOME="$work/composer-home" COMPOSER_CACHE_DIR="$work/composer-cache" COMPOSER_ALLOW_SUPERUSER=1 \
  composer install --no-interaction --no-progress --no-dev >"$work/composer.log" 2>&1; then
  cat "$work/composer.log"
  exit 1
fi
grep -E 'Installing' "$work/composer.log"
out="$(php -d error_reporting=E_ALL -d display_errors=stderr quickstart.php)"
echo "$out"
[[ "$out" =~ ^acct_ ]] || { echo "the quickstart printed no account id"; exit 1; }
echo "php package: plinth/plinth installed by composer into a fresh project's vendor/, quickstart ran"
