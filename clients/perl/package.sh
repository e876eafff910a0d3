#!/usr/bin/env bash
# Packages the Perl client as a user meets it, as a CPAN distribution: the files MANIFEST lists are copied to a
# temporary directory outside the repository, `perl Makefile.PL && make dist` builds Plinth-<version>.tar.gz there,
# and that tarball is unpacked, built, tested (`make test`: t/, against scripted servers) and installed with
# `make install` into a fresh INSTALL_BASE; then the README's quickstart runs from another directory (sign up at
# PLINTH_URL, create an account, print its id) with only that INSTALL_BASE on @INC. Fails when a file under lib/,
# generated/lib/ or t/ is missing from MANIFEST (the tarball would lack it). Exit 77 when perl or one of the
# Debian-packaged modules is missing (as conformance.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
command -v perl >/dev/null 2>&1 && command -v make >/dev/null 2>&1 || { echo "perl / make not installed"; exit 77; }
for module in ExtUtils::MakeMaker LWP::UserAgent JSON Class::Accessor Class::Data::Inheritable Log::Any Module::Runtime \
  Module::Find DateTime Date::Parse URI::Query List::MoreUtils Class::Inspector Moose::Role namespace::autoclean; do
  perl -M"$module" -e 1 >/dev/null 2>&1 || { echo "perl: $module missing (run scripts/clients/install-toolchains.sh)"; exit 77; }
done
: "${PLINTH_URL:?PLINTH_URL must point at a running Plinth}"

unlisted="$(perl -MExtUtils::Manifest=filecheck -e '$ExtUtils::Manifest::Quiet = 1; print "$_\n" for filecheck()' \
  | grep -E '^(lib|generated/lib|t)/' || true)"
[[ -z "$unlisted" ]] || { echo "not in MANIFEST (run: perl Makefile.PL && make manifest && make distclean):"; echo "$unlisted"; exit 1; }
absent="$(perl -MExtUtils::Manifest=manicheck -e '$ExtUtils::Manifest::Quiet = 1; print "$_\n" for manicheck()')"
[[ -z "$absent" ]] || { echo "in MANIFEST but missing:"; echo "$absent"; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/plinth-perl-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
perl -MExtUtils::Manifest=manicopy,maniread -e 'manicopy(maniread(), $ARGV[0])' "$work/src" >/dev/null  # it lists each mkdir
(cd "$work/src" && perl Makefile.PL >/dev/null && make dist >/dev/null)
tarball="$(cd "$work/src" && ls Plinth-*.tar.gz)"
echo "built $tarball ($(tar -tzf "$work/src/$tarball" | wc -l) files)"

mkdir "$work/build"
tar -xzf "$work/src/$tarball" -C "$work/build"
(cd "$work/build/${tarball%.tar.gz}" && perl Makefile.PL INSTALL_BASE="$work/perl5" >/dev/null && make >/dev/null \
  && make test 2>&1 | tail -n 1 && make install >/dev/null)

mkdir "$work/app"
cat >"$work/app/quickstart.pl" <<'PERL'
use Plinth;
my $plinth = Plinth->new(api_key => Plinth->sign_up($ENV{PLINTH_URL})->api_key->key, base_url => $ENV{PLINTH_URL});
my $account = $plinth->accounts->create({ type => 'business', country => 'US' });
print $account->id, "\n";
PERL
# The quickstart, plus a check that it ran the installed modules and not the repository's.
cd "$work/app"
out="$(PERL5LIB="$work/perl5/lib/perl5" perl -e 'do "./quickstart.pl" or die $@ || $!;
  for my $m (qw(Plinth.pm Plinth/Generated/ApiClient.pm)) {
    die "$m came from $INC{$m}, not the INSTALL_BASE\n" unless index($INC{$m}, "$ENV{PERL5LIB}/") == 0;
  }')"
echo "$out"
[[ "$out" =~ ^acct_ ]] || { echo "the quickstart printed no account id"; exit 1; }
echo "perl package: $tarball built with make dist, installed into a fresh INSTALL_BASE, quickstart ran"
