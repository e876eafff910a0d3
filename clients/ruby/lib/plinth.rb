# frozen_string_literal: true

# The Plinth Ruby client: the generated bindings (generated/lib, module PlinthGenerated, OpenAPI Generator `ruby`
# with Faraday) behind a thin layer with one method per operation, grouped by resource, that retries with one
# Idempotency-Key per POST, honours Retry-After, paginates, raises one Plinth::Error and exposes the Request-Id of
# every response. Runtime dependencies: faraday and marcel, both from Debian (ruby-faraday, ruby-marcel).
#
#   require "plinth"
#   plinth = Plinth::Client.new(api_key: "sk_test_…", base_url: "http://127.0.0.1:8080")
#   account = plinth.accounts.create(type: "business", country: "US")
#   plinth.accounts.list(limit: 100).each { |a| puts a.id }

generated = File.expand_path("../generated/lib", __dir__)
$LOAD_PATH.unshift(generated) if File.directory?(generated) && !$LOAD_PATH.include?(generated)
require "plinth_generated"
require "json"
require "time"
require "securerandom"
require "uri"
require_relative "plinth/version"
require_relative "plinth/error"
require_relative "plinth/retry_middleware"
require_relative "plinth/secrets"
require_relative "plinth/resource"
require_relative "plinth/operations"
require_relative "plinth/client"
require_relative "plinth/webhook"
require_relative "plinth/stream"
