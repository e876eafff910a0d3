#!/usr/bin/env bash
# Packages the Ruby client as a user meets it: `gem build` the gemspec into a temporary directory outside the
# repository, `gem install --local` the .gem into a fresh GEM_HOME there, then run the README's quickstart from a
# fresh directory (sign up at PLINTH_URL, create an account, print its id) with nothing of the repository on the
# load path. The gem's dependencies (faraday, marcel) are Debian's (ruby-faraday, ruby-marcel): RubyGems keeps
# Debian's gem directories on GEM_PATH beside the new GEM_HOME, so `gem install` finds them and fetches nothing.
# Exit 77 when ruby or those gems are missing (as conformance.sh).
set -euo pipefail
cd "$(dirname "$0")"
command -v ruby >/dev/null && command -v gem >/dev/null || { echo "ruby / gem not installed"; exit 77; }
ruby -e 'require "faraday"; require "marcel"' 2>/dev/null || { echo "ruby-faraday / ruby-marcel not installed"; exit 77; }
: "${PLINTH_URL:?PLINTH_URL must point at a running Plinth}"

work="$(mktemp -d "${TMPDIR:-/tmp}/plinth-ruby-package.XXXXXX")"
trap 'rm -rf "$work"' EXIT
version="$(ruby -e 'require "./lib/plinth/version"; print Plinth::VERSION')"
gem build plinth.gemspec --output "$work/plinth-$version.gem" --quiet
GEM_HOME="$work/gems" gem install --local --no-document "$work/plinth-$version.gem"

mkdir "$work/app"
cat >"$work/app/quickstart.rb" <<'RUBY'
require "plinth"
plinth = Plinth::Client.new(api_key: Plinth::Client.sign_up(ENV["PLINTH_URL"]).api_key.key, base_url: ENV["PLINTH_URL"])
account = plinth.accounts.create(type: "business", country: "US")
puts account.id
RUBY
# The quickstart, plus a check that it ran the installed gem and not the repository's copy.
cd "$work/app"
out="$(GEM_HOME="$work/gems" ruby -e 'load "quickstart.rb"
  where = Gem.loaded_specs.fetch("plinth").full_gem_path
  abort "plinth was loaded from #{where}, not the installed gem" unless where.start_with?(ENV.fetch("GEM_HOME"))')"
echo "$out"
[[ "$out" =~ ^acct_ ]] || { echo "the quickstart printed no account id"; exit 1; }
echo "ruby package: plinth-$version.gem built, installed into a fresh GEM_HOME, quickstart ran"
