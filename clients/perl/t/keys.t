#!/usr/bin/env perl
# A key's permissions as they go on the wire, against the scripted server: api_keys->create sends them as the API's
# object of group => level; a restricted key reads them back, a full key's are undef (a JSON null, not an empty
# object); anything but a hashref of level strings dies before it is sent.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/lib";
use Test::More;
use JSON ();
use Plinth;
use Scripted;

my $read_only = '{"accounts":"read","transfers":"none","transactions":"read","sandbox":"none","events":"none",'
  . '"webhook_endpoints":"none","api_keys":"none","requests":"none","payments":"none"}';
my $key = sub {
    my ($permissions, $secret) = @_;
    '{"id":"key_1","object":"api_key","mode":"sandbox","hint":"' . substr($secret, 0, 8) . '…AAAA","name":null,'
      . '"livemode":false,"created_at":"2026-11-22T10:00Z","revoked_at":null,"last_used_at":null,'
      . '"permissions":' . $permissions . ',"key":"' . $secret . '"}';
};

my ($url, $keys, $pid, $wire) = serve(ok_response($key->($read_only, 'rk_test_AAAA')),
    ok_response($key->('null', 'sk_test_AAAA')));
my $plinth = client($url);
my $made = $plinth->api_keys->create({ name => 'ro', permissions => { accounts => 'read', transactions => 'read' } });
my $levels = $made->permissions;
is_deeply([ $made->key, $levels->accounts, $levels->transactions, $levels->transfers ],
    [ 'rk_test_AAAA', 'read', 'read', 'none' ], "a restricted key's permissions read back");
is($plinth->api_keys->create->permissions, undef, "a full key's permissions are undef");
for my $malformed ('read', undef, { accounts => undef }, { accounts => ['read'] }) {
    ok(!eval { $plinth->api_keys->create({ permissions => $malformed }); 1 }, 'malformed permissions die');
    like($@, qr/^permissions: /, '... saying why');
}
my @sent = map { JSON::decode_json($_->[2]) } @{ $wire->() };
is_deeply(\@sent, [ { name => 'ro', permissions => { accounts => 'read', transactions => 'read' } }, {} ],
    'permissions sent as an object of group => level; nothing sent for the malformed ones');
kill 'TERM', $pid;

done_testing;
