#!/usr/bin/env bash
# Runs the conformance scenario with the Ruby client against PLINTH_URL / PLINTH_PROXY_URL / PLINTH_LIMITED_URL.
# Nothing to build; the dependencies are Debian packages (ruby, ruby-faraday, ruby-marcel: install-toolchains.sh).
# Exit 77 when they are missing.
set -euo pipefail
cd "$(dirname "$0")"
command -v ruby >/dev/null || { echo "ruby not installed"; exit 77; }
ruby -e 'require "faraday"; require "marcel"' 2>/dev/null || { echo "ruby-faraday / ruby-marcel not installed"; exit 77; }
# methods.json names only methods the layer has, and lists every one it has.
ruby test/methods_test.rb
# What the live scenario cannot provoke (503/409 retried with one key, Retry-After, limits, refused connections,
# timeout), and reversals, balances, statements and nicknames on the wire, against a scripted server; then the
# scenario itself.
ruby test/scripted_test.rb
ruby test/ledger_test.rb
# The event stream against a scripted server: line ends, a gap, a 503, an event cut halfway, a refusal.
ruby test/stream_test.rb
# The README's examples (readme_examples.rb, written from README.md by scripts/clients/readme.ts).
ruby readme_examples.rb
exec ruby conformance.rb
