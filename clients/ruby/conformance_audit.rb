# frozen_string_literal: true

# Step 27 of the clients conformance scenario (clients/README.md), loaded by conformance.rb, whose check it uses: the
# audit chain. A write, then the signed checkpoint; the whole chain paged with +after+ (oldest first) ends where the
# checkpoint says, at its +size+ with its hash (+hash_hex+: a model's +hash+ is Ruby's own); the note's three lines
# name the same chain, and its signature verifies with the public key (Ed25519 of the standard library's openssl).

require "base64"
require "openssl"

# The DER prefix of an X.509 SubjectPublicKeyInfo holding a raw 32-byte Ed25519 key (RFC 8410).
ED25519_SPKI = ["302a300506032b6570032100"].pack("H*")

def audit_chain(plinth)
  plinth.accounts.create(type: "business", country: "US")
  checkpoint = plinth.audit.retrieve_checkpoint
  links = []
  after = 0
  loop do
    page = plinth.audit.list_chain(after: after, limit: 7)
    links.concat(page.data)
    break unless page.has_more

    after = page.data.last.sequence
  end
  check(links.map(&:sequence) == (1..links.size).to_a, "sequences #{links.map(&:sequence)}")
  check(links.size == checkpoint.size, "#{links.size} links, size #{checkpoint.size}")
  check(links.last.hash_hex == checkpoint.hash_hex, "the last hash, checkpoint #{checkpoint.hash_hex}")

  key = plinth.audit.retrieve_public_key
  check(key.algorithm == "ed25519", "algorithm #{key.algorithm}")
  check(key.verifier_key.start_with?("plinth+#{key.key_id}+"), key.verifier_key)
  note = checkpoint.note
  text = note[0, note.index("\n\n") + 1]
  hash = Base64.strict_encode64([checkpoint.hash_hex].pack("H*"))
  check(text.split("\n").first(3) == [checkpoint.origin, checkpoint.size.to_s, hash], "note text #{text}")
  prefix = "\u2014 #{key.name} "
  line = note[(text.length + 1)..].split("\n").find { |l| l.start_with?(prefix) }
  check(!line.nil?, "no signature line in #{note}")
  signed = Base64.strict_decode64(line[prefix.length..])
  check(signed.bytesize == 68 && signed[0, 4].unpack1("H*") == key.key_id, "signature line #{line}")
  public_key = OpenSSL::PKey.read(ED25519_SPKI + Base64.strict_decode64(key.public_key))
  check(public_key.verify(nil, signed.byteslice(4, 64), text), "the note's signature does not verify")
end
