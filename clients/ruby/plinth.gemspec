# frozen_string_literal: true

require_relative "lib/plinth/version"

# The Plinth Ruby client: the hand-written layer (lib/) and the generated bindings (generated/lib/) in one gem.
#   gem build plinth.gemspec && gem install --local plinth-0.1.0.gem      (package.sh does this, then runs it)
# Its dependencies are the ones Debian ships (apt-get install ruby-faraday ruby-marcel): Faraday (tested with 1.1)
# and Marcel, which the generated code requires.
Gem::Specification.new do |s|
  s.name = "plinth"
  s.version = Plinth::VERSION
  s.summary = "Plinth API client"
  s.description = "Client for the Plinth developer-platform API: one method per operation, retries with " \
                  "idempotency keys, pagination, one error type, webhook verification."
  s.authors = ["Plinth"]
  s.license = "Apache-2.0"
  s.required_ruby_version = ">= 2.7"
  s.files = Dir["lib/**/*.rb", "generated/lib/**/*.rb", "README.md", "methods.json"]
  s.require_paths = ["lib", "generated/lib"]
  s.add_runtime_dependency "faraday", ">= 1.0.1", "< 3.0"
  s.add_runtime_dependency "marcel", "~> 1.0"
end
