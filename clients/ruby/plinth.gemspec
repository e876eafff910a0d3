# frozen_string_literal: true

# The Plinth Ruby client: the hand-written layer (lib/) and the generated bindings (generated/lib/) in one gem.
#   gem build plinth.gemspec && gem install --local plinth-0.1.0.gem
# Its dependencies are the ones Debian ships (apt-get install ruby-faraday ruby-marcel).
Gem::Specification.new do |s|
  s.name = "plinth"
  s.version = "0.1.0"
  s.summary = "Plinth API client"
  s.description = "Client for the Plinth developer-platform API: retries with idempotency keys, pagination, one error type."
  s.authors = ["Plinth"]
  s.license = "Apache-2.0"
  s.required_ruby_version = ">= 2.7"
  s.files = Dir["lib/**/*.rb", "generated/lib/**/*.rb"]
  s.require_paths = ["lib", "generated/lib"]
  s.add_runtime_dependency "faraday", ">= 1.0.1", "< 3.0"
  s.add_runtime_dependency "marcel"
end
