"""Step 27 of the conformance scenario (clients/README.md): the audit chain. A write, then the signed checkpoint; the
whole chain paged with ``after`` (oldest first) ends where the checkpoint says, at its ``size`` with its ``hash``; the
note's three lines name the same chain and its signature line carries the public key's id. (Python's standard
library has no Ed25519: the signature itself is checked by the Go, Java, Kotlin, TypeScript, Ruby and PHP
scenarios.)"""
import base64

from every_resource import ok


def run(plinth):
    plinth.accounts.create(type="business", country="US")
    checkpoint = plinth.audit.retrieve_checkpoint()
    links = []
    after = 0
    while True:
        page = plinth.audit.list_chain(after=after, limit=7)
        links.extend(page.data)
        if not page.has_more:
            break
        after = page.data[-1].sequence
    assert [link.sequence for link in links] == list(range(1, len(links) + 1)), "sequences 1, 2, ... with no gap"
    assert len(links) == checkpoint.size, (len(links), checkpoint.size)
    assert links[-1].hash == checkpoint.hash, (links[-1], checkpoint.hash)

    key = plinth.audit.retrieve_public_key()
    assert key.algorithm == "ed25519", key.algorithm
    assert key.verifier_key.startswith(f"plinth+{key.key_id}+"), key.verifier_key
    note = checkpoint.note
    text = note[: note.index("\n\n") + 1]
    hash_b64 = base64.b64encode(bytes.fromhex(checkpoint.hash)).decode()
    assert text.split("\n")[:3] == [checkpoint.origin, str(checkpoint.size), hash_b64], text
    prefix = f"\u2014 {key.name} "
    line = next(l for l in note[len(text) + 1 :].split("\n") if l.startswith(prefix))
    signed = base64.b64decode(line[len(prefix) :])
    assert len(signed) == 68 and signed[:4].hex() == key.key_id, line
    ok("27 audit: the chain paged with after matches the signed checkpoint and its key")
