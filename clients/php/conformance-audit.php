<?php
// Step 27 of the clients conformance scenario (clients/README.md), loaded by conformance.php, whose check() it uses:
// the audit chain. A write, then the signed checkpoint; the whole chain paged with `after` (oldest first) ends where
// the checkpoint says, at its `size` with its `hash`; the note's three lines name the same chain, and its signature
// verifies with the public key (libsodium's Ed25519, bundled with PHP; skipped where the extension is absent).
declare(strict_types=1);

use Plinth\Client;

function auditChain(Client $plinth): void
{
    $plinth->accounts->create(['type' => 'business', 'country' => 'US']);
    $checkpoint = $plinth->audit->retrieveCheckpoint();
    $links = [];
    $after = 0;
    while (true) {
        $page = $plinth->audit->listChain($after, 7);
        array_push($links, ...$page->getData());
        if (!$page->getHasMore()) {
            break;
        }
        $after = end($links)->getSequence();
    }
    foreach ($links as $i => $link) {
        check($link->getSequence() === $i + 1, "link $i has sequence {$link->getSequence()}");
    }
    check(count($links) === $checkpoint->getSize(), count($links) . " links, size {$checkpoint->getSize()}");
    check(end($links)->getHash() === $checkpoint->getHash(), "the last hash, checkpoint {$checkpoint->getHash()}");

    $key = $plinth->audit->retrievePublicKey();
    check($key->getAlgorithm() === 'ed25519', "algorithm {$key->getAlgorithm()}");
    check(str_starts_with($key->getVerifierKey(), "plinth+{$key->getKeyId()}+"), $key->getVerifierKey());
    $note = $checkpoint->getNote();
    $text = substr($note, 0, strpos($note, "\n\n") + 1);
    $lines = array_slice(explode("\n", $text), 0, 3);
    $hash = base64_encode(hex2bin($checkpoint->getHash()));
    check($lines === [$checkpoint->getOrigin(), (string) $checkpoint->getSize(), $hash], "note text $text");
    $prefix = "\u{2014} {$key->getName()} ";
    $line = null;
    foreach (explode("\n", substr($note, strlen($text) + 1)) as $l) {
        if (str_starts_with($l, $prefix)) {
            $line = $l;
        }
    }
    check($line !== null, "no signature line in $note");
    $signed = base64_decode(substr($line, strlen($prefix)), true);
    check($signed !== false && strlen($signed) === 68 && bin2hex(substr($signed, 0, 4)) === $key->getKeyId(), $line);
    if (function_exists('sodium_crypto_sign_verify_detached')) {
        $public = base64_decode($key->getPublicKey(), true);
        check(sodium_crypto_sign_verify_detached(substr($signed, 4), $text, $public), 'the note does not verify');
    }
}
