# frozen_string_literal: true

# methods.json names the layer's method(s) for each operation of the SDK view (clients/openapi.sdk.json); the
# coverage command reads it. This test keeps it honest: every name it lists is a public method the layer defines
# (not one every Ruby object has, like Object#freeze), every public method of a resource class is listed, and
# every operationId it names exists.
$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
require "plinth"
require "json"
require "minitest/autorun"

class MethodsTest < Minitest::Test
  ROOT = File.expand_path("..", __dir__)
  MANIFEST = JSON.parse(File.read(File.join(ROOT, "methods.json")))

  def client
    @client ||= Plinth::Client.new(api_key: "sk_test_manifest", base_url: "http://127.0.0.1:9")
  end

  # "accounts.list" → plinth.accounts's #list; "Plinth::Client.sign_up" → a class method.
  def resolve(name)
    if name.include?("::")
      const, method = name.split(".", 2)
      return Object.const_get(const).method(method)
    end
    *path, method = name.split(".")
    target = path.reduce(client) { |object, reader| object.public_send(reader) }
    target.public_method(method)
  end

  def test_every_listed_method_exists_in_the_layer
    MANIFEST.each do |operation, names|
      refute_empty names, "#{operation} names no method"
      names.each do |name|
        m = resolve(name)
        assert m.owner.name.to_s.start_with?("Plinth::") || m.owner.singleton_class?, "#{name} is #{m.owner}'s, not the layer's"
      rescue NameError => e
        flunk "#{operation}: #{name} does not exist (#{e.message})"
      end
    end
  end

  # The event stream is no operation of the SDK view (Server-Sent Events are hand-written transport), so the
  # manifest cannot name it.
  NOT_OPERATIONS = ["events.stream"].freeze

  def test_every_public_resource_method_is_listed
    listed = MANIFEST.values.flatten + NOT_OPERATIONS
    resources = Plinth.constants.map { |c| Plinth.const_get(c) }.select { |c| c.is_a?(Class) && c < Plinth::Resource }
    assert_operator resources.size, :>=, 8
    resources.each do |klass|
      ivar = client.instance_variables.find { |v| client.instance_variable_get(v).instance_of?(klass) }
      refute_nil ivar, "the client holds no #{klass}"
      reader = ivar.to_s.delete_prefix("@")
      klass.public_instance_methods(false).each do |method|
        assert_includes listed, "#{reader}.#{method}", "#{klass}##{method} is not in methods.json"
      end
    end
  end

  def test_every_listed_operation_exists
    spec = JSON.parse(File.read(File.join(ROOT, "..", "openapi.sdk.json")))
    known = spec["paths"].values.flat_map(&:values).filter_map { |op| op.is_a?(Hash) && op["operationId"] }
    assert_empty MANIFEST.keys - known, "methods.json names operations the SDK view does not have"
  end
end
