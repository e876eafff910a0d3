#!/usr/bin/env perl
# The retry rules a live server cannot be made to show on demand (503, 409 in progress, refused connections),
# against a scripted HTTP server in a child process. Each request's Idempotency-Key is sent back to the test
# through a pipe, and what went on the wire (method, path and query as sent, body) through a file; then the filters
# (the request log's among them) and metadata changes as sent, and bodies.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib", "$FindBin::Bin/lib";
use IO::Socket::INET;
use Time::HiRes qw(time);
use Test::More;
use JSON ();
use Plinth;
use Scripted;

{
    my ($url, $keys, $pid) = serve(problem(503, 'service_unavailable'), problem(409, 'idempotency_request_in_progress'), ok_response($ACCOUNT));
    my $plinth = client($url);
    my $account = $plinth->accounts->create({ type => 'business', country => 'US' });
    is($account->id, 'acct_1', 'a POST succeeds after 503 and 409 in progress');
    is($plinth->last_response->retries, 2, '... after two retries');
    is($plinth->last_response->request_id, 'req_OK', '... exposing the Request-Id of the success');
    my $seen = $keys->();
    is(scalar @$seen, 3, '... in three attempts');
    ok($seen->[0] ne '-' && !grep({ $_ ne $seen->[0] } @$seen), '... with one Idempotency-Key for all of them');
    ok(!defined $account->kyb, 'a JSON null object decodes as undef');
    kill 'TERM', $pid;
}

{
    my ($url, $keys, $pid) = serve(problem(429, 'rate_limited', 1), ok_response($ACCOUNT));
    my $plinth = client($url);
    my $start = time;
    $plinth->accounts->retrieve('acct_1');
    cmp_ok(time - $start, '>=', 1, 'a 429 waits the Retry-After seconds');
    is($plinth->last_response->retries, 1, '... and is retried once');
    is($keys->()->[0], '-', 'a GET carries no Idempotency-Key');
    kill 'TERM', $pid;
}

{
    my ($url, $keys, $pid) = serve(problem(409, 'account_frozen'));
    my $plinth = client($url);
    eval { $plinth->accounts->create({ type => 'business', country => 'US' }, idempotency_key => 'mine') };
    my $e = Plinth::Error->caught;
    ok($e && $e->status == 409 && $e->code eq 'account_frozen' && $e->request_id eq 'req_X', 'another 409 is the typed error');
    is_deeply($keys->(), ['mine'], "... not retried, and the caller's key was sent");
    kill 'TERM', $pid;
}

{
    my ($url, $keys, $pid) = serve(problem(500, 'internal_error'));
    my $plinth = client($url, max_retries => 2);
    eval { $plinth->accounts->retrieve('acct_1') };
    my $e = Plinth::Error->caught;
    ok($e && $e->status == 500 && $e->retries == 2, 'retries give up with the last problem');
    is(scalar @{ $keys->() }, 3, '... after three attempts');
    kill 'TERM', $pid;
}

{
    my $port = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => 0, Listen => 1)->sockport;    # closed at once
    my $plinth = client("http://127.0.0.1:$port");
    eval { $plinth->accounts->retrieve('acct_1') };
    ok($@ && !Plinth::Error->caught, 'a refused connection is not a problem answer');
    is($plinth->last_response->retries, 3, '... and was retried');
}

{
    my $revoked = '{"id":"key_1","object":"api_key","mode":"sandbox","hint":"sk_test_…abcd","livemode":false,"created_at":"2026-11-22T10:00Z","revoked_at":"2026-11-22T10:01Z"}';
    my ($url, $keys, $pid) = serve(ok_response($revoked));
    my $plinth = client($url);
    my $key = $plinth->api_keys->revoke('key_1');
    is($key->revoked_at, '2026-11-22T10:01Z', 'revoke, a POST without a body, succeeds');
    unlike($keys->()->[0], qr/Content-Type/, '... and sends no Content-Type for its empty body');
    kill 'TERM', $pid;
}

{
    my $new_key = sub { '{"id":"key_1","object":"api_key","mode":"sandbox","hint":"sk_test_…AAAA","name":"ci","livemode":false,'
          . '"created_at":"2026-11-22T10:00Z","revoked_at":null,"last_used_at":null,"permissions":null,"key":' . $_[0] . '}' };
    my $endpoint = sub { '{"id":"we_1","object":"webhook_endpoint","url":"https://h.example/x","enabled_events":["*"],'
          . '"description":null,"status":"enabled","disabled_reason":null,"livemode":false,"created_at":"2026-11-22T10:00Z","secret":' . $_[0] . '}' };
    my $replayed = sub { ok_response($_[0]) =~ s/\r\n\r\n/\r\nIdempotent-Replayed: true\r\n\r\n/r };
    my ($url, $keys, $pid) = serve(ok_response($new_key->('"sk_test_AAAA"')), $replayed->($new_key->('null')),
        ok_response($endpoint->('"whsec_AAAA"')), $replayed->($endpoint->('null')));
    my $plinth = client($url);
    my $first = $plinth->api_keys->create({ name => 'ci' }, idempotency_key => 'k');
    is($first->key, 'sk_test_AAAA', 'a new key is a string');
    ok(!$first->replayed && $first->name eq 'ci' && $first->isa('Plinth::Generated::Object::NewApiKey'), '... on the generated object');
    my $again = $plinth->api_keys->create({ name => 'ci' }, idempotency_key => 'k');
    ok($again->replayed && $again->id eq 'key_1', 'a replay says it is one');
    ok(!eval { $again->key; 1 }, '... and its key dies');
    my $e = Plinth::SecretUnavailable->caught;
    ok($e && $e->field eq 'key' && "$e" =~ /idempotent replay/, '... with a Plinth::SecretUnavailable');
    is(JSON->new->canonical->convert_blessed->encode($again), JSON->new->canonical->convert_blessed->encode($first) =~ s/,?"key":"sk_test_AAAA"//r, '... yet it still serialises, without the key');
    my $created = $plinth->webhook_endpoints->create({ url => 'https://h.example/x', enabled_events => ['*'] });
    is($created->secret, 'whsec_AAAA', "a new endpoint's secret is a string");
    my $rotated = $plinth->webhook_endpoints->rotate_secret('we_1');
    ok($rotated->replayed && !eval { $rotated->secret; 1 } && Plinth::SecretUnavailable->caught, "a replayed rotation's secret dies");
    kill 'TERM', $pid;
}

{
    # docs/api.md#bank-account-numbers-and-payments: the 12 digits are in the create answer only; a rule's action is
    # one of two shapes, sent with only the fields given.
    my $number = sub { '{"id":"an_1","object":"fintech.account_number","account_id":"acct_1","routing_number":"110000000",'
          . '"account_number_last4":"9012","name":"Main","status":"active","inbound_debits":"allowed","livemode":false,'
          . '"created_at":"2026-11-28T10:00Z","account_number":' . $_[0] . '}' };
    my $rule = '{"id":"prule_1","object":"sandbox.payment_rule","match":{"amount":60,"rail":null,"external_account_number_last4":null},'
      . '"action":{"return":"R01","at":"P2D","reject":false},"created_at":"2026-11-28T10:00Z"}';
    my $replayed = sub { ok_response($_[0]) =~ s/\r\n\r\n/\r\nIdempotent-Replayed: true\r\n\r\n/r };
    my ($url, $keys, $pid, $wire) = serve(ok_response($number->('"123456789012"')), $replayed->($number->('null')),
        ok_response($rule));
    my $plinth = client($url);
    my $first = $plinth->account_numbers->create({ account_id => 'acct_1' }, idempotency_key => 'k');
    is($first->account_number, '123456789012', 'a new account number is a string');
    my $again = $plinth->account_numbers->create({ account_id => 'acct_1' }, idempotency_key => 'k');
    ok($again->replayed && $again->account_number_last4 eq '9012', 'a replay says it is one');
    ok(!eval { $again->account_number; 1 } && Plinth::SecretUnavailable->caught, '... and its number dies');
    $plinth->sandbox->create_payment_rule({ match => { amount => 60 }, action => { return => 'R01', at => 'P2D' } });
    is_deeply(JSON->new->decode($wire->()->[2][2]), { match => { amount => 60 }, action => { return => 'R01', at => 'P2D' } },
        "a rule's action is sent with the fields given only");
    kill 'TERM', $pid;
}

{
    # The generated decoder dies on an event (data.object) halfway through walking the Event class's fields; the
    # layer decodes it again, and must see every field (Plinth::EventDecoder resets that walk).
    my $event = '{"id":"evt_1","object":"event","type":"webhook_endpoint.test","sequence":7,"data":{"object":{"id":"we_1","n":1}},'
      . '"request":null,"livemode":false,"created_at":"2026-11-22T10:00Z"}';
    my ($url, $keys, $pid) = serve(ok_response($event));
    my $plinth = client($url);
    for my $try (1 .. 3) {
        my $e = $plinth->webhook_endpoints->test('we_1');
        my @missing = grep { !defined $e->$_ } qw(id object type sequence livemode created_at);
        is("@missing", '', "an event answer decodes every field (try $try)");
        is($e->data->object->{id}, 'we_1', '... and its free-form data.object');
    }
    # The same, whatever the hash order: leave the walk just past "type", as a decoder dying there would.
    my $types = Plinth::Generated::Object::Event->openapi_types;
    while (my ($name) = each %$types) { last if $name eq 'type' }
    is(Plinth::EventDecoder::event(JSON::decode_json($event))->type, 'webhook_endpoint.test', 'an interrupted walk is reset');
    kill 'TERM', $pid;
}

{
    my $plinth = client('http://127.0.0.1:9');
    ok(!eval { $plinth->accounts->create({ type => 'business', country => 'US', colour => 'red' }); 1 }, 'an unknown field dies');
    like($@, qr/unknown field\(s\) colour for CreateAccountRequest/, '... before anything is sent, naming it');
    my $text = "Caf\x{e9} \x{2014} ok";    # characters, one wider than a byte
    my $body = $plinth->transfers->_body('CreateTransferRequest', { amount => '25', description => $text, currency => 'USD' })->to_hash;
    is(JSON->new->canonical->encode($body), qq({"amount":25,"currency":"USD","description":"Caf\xc3\xa9 \xe2\x80\x94 ok"}),
        'a body goes out as UTF-8 bytes, amounts as numbers');
    $body = $plinth->webhook_endpoints->_body('UpdateWebhookEndpointRequest', { description => undef })->to_hash;
    ok(exists $body->{description} && !defined $body->{description}, 'a field given as undef is sent as null');
}

{
    # The filters and metadata changes as the server reads them: deepObject query pairs (created[gte]=…,
    # metadata[key]=value, brackets percent-encoded as a URL requires), a DateTime as RFC 3339 UTC, and an update's
    # clear_metadata as the API's "metadata": "". The live scenario shows the server honours each.
    require DateTime;
    require URI;
    my $list = '{"object":"list","data":[],"has_more":false}';
    my $transfer = '{"id":"tr_1","object":"fintech.transfer","from_account_id":"acct_a","to_account_id":"acct_b","amount":4000,'
      . '"currency":"USD","description":null,"status":"pending","pending":true,"posted_amount":null,"expires_at":"2026-11-22T11:53Z",'
      . '"resolved_at":null,"amount_reversed":0,"reversed":false,"metadata":{},"livemode":false,"created_at":"2026-11-22T10:53Z"}';
    my ($url, $keys, $pid, $wire) = serve((map { ok_response($list) } 1 .. 3), ok_response($ACCOUNT), map { ok_response($transfer) } 1 .. 3);
    my $plinth = client($url);
    my $lt = DateTime->new(year => 2026, month => 11, day => 25, hour => 2, minute => 2, second => 3, nanosecond => 5e8, time_zone => '+0100');
    $plinth->accounts->list_page(status => 'active', created => { gte => '2026-11-24T00:00Z', lt => $lt }, metadata => { customer => 'c-42', 'a b' => 'x&y' });
    $plinth->transfers->list(status => 'pending', metadata => { order => 'A-1' }, limit => 5)->all;
    $plinth->events->list_page(created => { gt => '2026-11-24T09:30:00+01:00' });
    $plinth->accounts->update('acct_a', clear_metadata => 1);
    $plinth->transfers->update('tr_1', { metadata => { order => '' } });
    $plinth->transfers->post('tr_1', { amount => 2500 });
    $plinth->transfers->post('tr_1');
    my @sent = @{ $wire->() };
    my $query = sub { my %q = URI->new($_[0])->query_form; \%q };
    is_deeply($query->($sent[0][1]), { 'created[gte]' => '2026-11-24T00:00Z', 'created[lt]' => '2026-11-25T01:02:03.500000Z',
        'metadata[customer]' => 'c-42', 'metadata[a b]' => 'x&y', status => 'active' }, 'accounts filters sent as deepObject');
    like($sent[0][1], qr/created%5Bgte%5D=2026-11-24T00%3A00Z/, '... brackets percent-encoded');
    is_deeply($query->($sent[1][1]), { 'metadata[order]' => 'A-1', status => 'pending', limit => 5 }, 'transfers filters');
    is_deeply($query->($sent[2][1]), { 'created[gt]' => '2026-11-24T09:30:00+01:00' }, 'events created filter');
    is_deeply([ map { [ @$_[ 1, 2 ] ] } @sent[ 3 .. 6 ] ], [
        [ '/v1/fintech/accounts/acct_a', '{"metadata":""}' ],
        [ '/v1/fintech/transfers/tr_1', '{"metadata":{"order":""}}' ],
        [ '/v1/fintech/transfers/tr_1/post', '{"amount":2500}' ],
        [ '/v1/fintech/transfers/tr_1/post', '{}' ],
    ], 'clear_metadata, a key removed, a part posted, all posted: the bodies');
    my @refused = (
        sub { $plinth->accounts->list_page(created => { since => '2026-11-24T00:00Z' }) },
        sub { $plinth->events->list_page(created => '2026-11-24T00:00Z') },
        sub { $plinth->transfers->list_page(metadata => { order => [1] }) },
        sub { $plinth->accounts->update('acct_a', { metadata => { a => 'b' } }, clear_metadata => 1) },
        sub { $plinth->transfers->update('tr_1') },
        sub { $plinth->transfers->post('tr_1', amount => 1) },
    );
    is(scalar(grep { !eval { $_->(); 1 } } @refused), scalar @refused, 'malformed filters and changes die');
    is(scalar @{ $wire->() }, 7, '... before anything is sent');
    kill 'TERM', $pid;
}

{
    # list(ending_before => …) walks newer: each next page ends before the first id of the one before, and
    # starting_after is never added (the API refuses both cursors at once).
    my $page = sub { my ($more, @ids) = @_; '{"object":"list","has_more":' . ($more ? 'true' : 'false') . ',"data":['
      . join(',', map { $ACCOUNT =~ s/"acct_1"/"$_"/r } @ids) . ']}' };
    my ($url, $keys, $pid, $wire) = serve(ok_response($page->(1, 'acct_5', 'acct_4')), ok_response($page->(0, 'acct_7', 'acct_6')));
    my @ids = map { $_->id } client($url)->accounts->list(ending_before => 'acct_3', limit => 2)->all;
    is("@ids", 'acct_5 acct_4 acct_7 acct_6', 'ending_before walks newer, page by page');
    is_deeply([ map { $_->[1] } @{ $wire->() } ], [ '/v1/fintech/accounts?ending_before=acct_3&limit=2', '/v1/fintech/accounts?ending_before=acct_5&limit=2' ],
        '... each page ending before the first id of the one before');
    kill 'TERM', $pid;
}

{
    # The request log's filters as the server reads them, on every page of a list: status, method and created[...]
    # (a DateTime with its offset sent as UTC), the next page's cursor beside them; retrieve by Request-Id.
    require DateTime;
    require URI;
    my $entry = sub { '{"id":"' . $_[0] . '","object":"request","method":"POST","route":"/v1/fintech/accounts",'
      . '"path":"/v1/fintech/accounts","status":200,"error_code":null,"duration_ms":3,"api_key_id":"key_1",'
      . '"api_key_hint":"sk_test_…abcd","idempotency_key":"k","idempotent_replayed":false,"count":null,"source":"api",'
      . '"body":"{\"type\":\"business\"}","body_truncated":false,"response_body":null,"response_truncated":false,"query":null,"bodies_hidden":false,"error_detail":null,"error_param":null,"livemode":false,"created_at":"2026-11-24T10:00Z"}' };
    my ($url, $keys, $pid, $wire) = serve(ok_response('{"object":"list","data":[' . $entry->('req_2') . '],"has_more":true}'),
        ok_response('{"object":"list","data":[' . $entry->('req_1') . '],"has_more":false}'), ok_response($entry->('req_1')));
    my $plinth = client($url);
    my $since = DateTime->new(year => 2026, month => 11, day => 25, hour => 14, minute => 30, time_zone => '+0530');
    my @ids = map { $_->id } $plinth->requests->list(status => 200, method => 'POST', created => { gte => $since, lt => '2026-11-26T00:00Z' }, limit => 1)->all;
    is("@ids", 'req_2 req_1', 'the request log listed across pages');
    my $got = $plinth->requests->retrieve('req_1');
    is_deeply([ $got->method, $got->status, $got->source, $got->body, $got->error_code ], [ 'POST', 200, 'api', '{"type":"business"}', undef ],
        '... and one entry retrieved, its null error_code undef');
    my @sent = @{ $wire->() };
    my $query = sub { my %q = URI->new($_[0])->query_form; \%q };
    my %filters = ('created[gte]' => '2026-11-25T09:00:00.000000Z', 'created[lt]' => '2026-11-26T00:00Z', limit => 1, method => 'POST', status => 200);
    is_deeply($query->($sent[0][1]), \%filters, 'request log filters sent as deepObject');
    is_deeply($query->($sent[1][1]), { %filters, starting_after => 'req_2' }, '... on the next page too, beside its cursor');
    is_deeply([ @{ $sent[2] }[ 0, 1 ] ], [ 'GET', '/v1/requests/req_1' ], 'retrieve by Request-Id');
    ok(!eval { $plinth->requests->list_page(created => { after => '2026-11-25T09:00Z' }); 1 }, 'an unknown bound dies');
    is(scalar @{ $wire->() }, 3, '... before anything is sent');
    kill 'TERM', $pid;
}

done_testing;
