#!/usr/bin/env bash
# What the client libraries need on a fresh machine, before `npm run clients` and `npm run test:clients`.
# Idempotent and quick when everything is there: apt runs only for packages that are missing.
# One line per need, with the language that needs it; each clients helper appends its own lines.
# Language-level dependencies (PyPI, crates.io, Go modules, Maven Central, npm) are fetched by each
# clients/<lang>/conformance.sh into caches, not here. Ruby and PHP libraries come only from Debian (no RubyGems,
# no Packagist), so they belong here.
set -euo pipefail

APT=()
need() { # need <command-or-path> <debian package>...
  local probe="$1"; shift
  if [[ "$probe" == /* ]]; then [[ -e "$probe" ]] && return 0; else command -v "$probe" >/dev/null 2>&1 && return 0; fi
  APT+=("$@")
}

need java            default-jre-headless   # OpenAPI Generator (npm run clients; the drift test)
need python3         python3 python3-venv   # OpenAPI Generator's wheel lives in a venv; the Python client
need /usr/bin/chromium chromium             # TypeScript: the browser test of the client bundle
# --- other languages append below this line ---
need javac           default-jdk-headless   # Java, Kotlin: compiling the clients (the JRE alone has no javac)
need mvn             maven                  # Java, Kotlin: the clients build with Maven (Maven Central only)
need ruby            ruby                   # Ruby client
ruby -e 'require "faraday"; require "marcel"' >/dev/null 2>&1 \
  || APT+=(ruby-faraday ruby-marcel)        # Ruby: the generated client's only libraries (no RubyGems here)
need php             php-cli                # PHP client
php -r 'exit(extension_loaded("curl") && extension_loaded("mbstring") ? 0 : 1);' >/dev/null 2>&1 \
  || APT+=(php-curl php-mbstring)           # PHP: extensions the generated client requires
need /usr/share/php/GuzzleHttp/autoload.php php-guzzlehttp-guzzle  # PHP: Guzzle 7 (+ PSR-7, promises) from Debian
need composer        composer               # PHP: package.sh installs the client into a fresh project with Composer
# Go and Rust: nothing from apt. The clients need Go >= 1.23 (range-over-func iterators) and a Rust new enough for
# reqwest 0.13, and Debian 12 ships Go 1.19 and rustc 1.63; this machine kind has Go and rustup's Rust preinstalled.
# Their conformance.sh exit 77 (SKIP) when the toolchain is absent; Go needs no module, Rust's crates come from
# crates.io into ~/.cargo at build time.
need /usr/include/openssl/ssl.h libssl-dev  # Rust: reqwest's native TLS (openssl-sys) builds against OpenSSL's headers
need pkg-config      pkg-config             # Rust: openssl-sys finds OpenSSL through pkg-config
need perl            perl                   # Perl client
perl -MLWP::UserAgent -MJSON -MClass::Accessor -MClass::Data::Inheritable -MLog::Any -MModule::Runtime -MModule::Find \
  -MDateTime -MDate::Parse -MURI::Query -MList::MoreUtils -MClass::Inspector -MMoose::Role -Mnamespace::autoclean -e 1 \
  >/dev/null 2>&1 || APT+=(libwww-perl libjson-perl libclass-accessor-perl libclass-data-inheritable-perl \
  liblog-any-perl libmodule-runtime-perl libmodule-find-perl libdatetime-perl libtimedate-perl liburi-query-perl \
  liblist-moreutils-perl libclass-inspector-perl libmoose-perl libnamespace-autoclean-perl)  # Perl: the generated client's modules (Debian only)

if ((${#APT[@]} > 0)); then
  echo "install-toolchains: apt-get install ${APT[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${APT[@]}" >/dev/null
fi

# python3 -m venv needs ensurepip, which Debian ships separately from python3 itself.
if ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
echo "install-toolchains: ready"
