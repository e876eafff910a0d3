#!/usr/bin/env bash
# The conformance scenario for the Perl client (see clients/README.md): compile-check every module, then run
# conformance.pl against PLINTH_URL, PLINTH_PROXY_URL and PLINTH_LIMITED_URL. Exit 77 when perl or one of the
# Debian-packaged modules the generated code needs is missing (scripts/clients/install-toolchains.sh installs them).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
if ! command -v perl >/dev/null 2>&1; then
  echo "perl: not installed"
  exit 77
fi
missing=()
for module in LWP::UserAgent JSON Class::Accessor Class::Data::Inheritable Log::Any Module::Runtime Module::Find \
  DateTime Date::Parse URI::Query List::MoreUtils Class::Inspector Moose::Role namespace::autoclean; do
  perl -M"$module" -e 1 >/dev/null 2>&1 || missing+=("$module")
done
if ((${#missing[@]} > 0)); then
  echo "perl: modules missing: ${missing[*]} (run scripts/clients/install-toolchains.sh)"
  exit 77
fi
# Load every module once, generated and hand-written, with warnings fatal: a template or layer that no longer
# compiles fails here, not halfway through the scenario.
perl -Ilib -Igenerated/lib -Mwarnings=FATAL,all -e 'for (@ARGV) { s{^(?:generated/)?lib/}{}; require $_ }' \
  $(find lib generated/lib -name '*.pm' | sort)
echo "loaded every module with perl $(perl -e 'print $^V')"
# methods.json (t/methods.t), and the retry rules a live server cannot be made to show on demand (503, 409 in
# progress, refused connections), secrets and their replay, bodies (t/retries.t); a key's permissions (t/keys.t).
prove t/
# The README's examples (readme-examples.pl, written from README.md by scripts/clients/readme.ts).
perl -c readme-examples.pl
perl readme-examples.pl
exec perl conformance.pl
