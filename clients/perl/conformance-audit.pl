# Step 27 of the clients conformance scenario (clients/README.md), loaded by conformance.pl, whose check and ok_call
# it uses: the audit chain. A write, then the signed checkpoint; the whole chain paged with `after` (oldest first)
# ends where the checkpoint says, at its `size` with its `hash`; the note's three lines name the same chain and its
# signature line carries the public key's id. (Perl's core has no Ed25519: the signature itself is checked by the Go,
# Java, Kotlin, TypeScript, Ruby and PHP scenarios.)
use strict;
use warnings;
use MIME::Base64 ();

sub audit_chain {
    my ($plinth) = @_;
    ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US' }) });
    my $checkpoint = ok_call(sub { $plinth->audit->retrieve_checkpoint });
    my @links;
    my $after = 0;
    while (1) {
        my $page = ok_call(sub { $plinth->audit->list_chain(after => $after, limit => 7) });
        push @links, @{ $page->data };
        last unless $page->has_more;
        $after = $links[-1]->sequence;
    }
    for my $i (0 .. $#links) {
        check($links[$i]->sequence == $i + 1, "link $i has sequence " . $links[$i]->sequence);
    }
    check(@links == $checkpoint->size, scalar(@links) . ' links, size ' . $checkpoint->size);
    check($links[-1]->hash eq $checkpoint->hash, 'the last hash, checkpoint ' . $checkpoint->hash);

    my $key = ok_call(sub { $plinth->audit->retrieve_public_key });
    check($key->algorithm eq 'ed25519', 'algorithm ' . $key->algorithm);
    check(index($key->verifier_key, 'plinth+' . $key->key_id . '+') == 0, 'verifier key ' . $key->verifier_key);
    my $note = $checkpoint->note;
    my $text = substr($note, 0, index($note, "\n\n") + 1);
    my $hash = MIME::Base64::encode_base64(pack('H*', $checkpoint->hash), '');
    my @lines = (split /\n/, $text)[0 .. 2];
    check(join("\n", @lines) eq join("\n", $checkpoint->origin, $checkpoint->size, $hash), "note text $text");
    my $prefix = "\x{2014} " . $key->name . ' ';
    my ($line) = grep { index($_, $prefix) == 0 } split /\n/, substr($note, length($text) + 1);
    check(defined $line, "no signature line in $note");
    my $signed = MIME::Base64::decode_base64(substr($line, length $prefix));
    check(length($signed) == 68 && unpack('H*', substr($signed, 0, 4)) eq $key->key_id, "signature line $line");
}

1;
