#!/usr/bin/env perl
# The client conformance scenario (clients/README.md), against live servers, through the public API of the Perl
# client. Env: PLINTH_URL, PLINTH_PROXY_URL, PLINTH_LIMITED_URL, PLINTH_RECEIVER_URL. One line per step; exit 1 on the first failure.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Plinth;
use Encode ();
use JSON ();
use MIME::Base64 ();

$| = 1;

sub fail { print "FAIL: @_\n"; exit 1 }
sub check { my ($ok, $message) = @_; fail($message) unless $ok }
sub env { $ENV{ $_[0] } // fail("$_[0] is not set") }

# Runs $code, which must die with the layer's one typed error of this status and code; returns the error.
sub expect_error {
    my ($status, $code, $run) = @_;
    my $result = eval { $run->(); 1 };
    fail("expected $status $code, got success") if $result;
    my $e = Plinth::Error->caught($@) or fail("expected a Plinth::Error, got: $@");
    check($e->status == $status && $e->code eq $code, "expected $status $code, got " . $e->status . ' ' . $e->code . ' (' . ($e->detail // '') . ')');
    check(($e->request_id // '') =~ /^req_/, 'error request_id ' . ($e->request_id // 'undef'));
    return $e;
}

# Dies (so the script fails) with the error's message when a call that must succeed does not.
sub ok_call {
    my ($run) = @_;
    my $result = eval { $run->() };
    fail("unexpected error: $@") if $@;
    return $result;
}

my ($base, $proxy_url, $limited_url) = map { env($_) } qw(PLINTH_URL PLINTH_PROXY_URL PLINTH_LIMITED_URL);
my @created;    # oldest first

# 1. Sign up for a sandbox key.
my $signup = ok_call(sub { Plinth->new(base_url => $base)->signup({}) });
my $key = $signup->api_key->key;
check($key =~ /^sk_test_/, "signup key $key");
my $plinth = Plinth->new(api_key => $key, base_url => $base);
print "ok 1 sign up: sandbox key issued\n";

# 2. Create an account; the Request-Id of the success is exposed.
my $acct = ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US' }) });
my $request_id = $plinth->last_response->request_id // '';
check($acct->id =~ /^acct_/, 'id ' . $acct->id);
check($acct->status eq 'active', 'status ' . $acct->status);
check($acct->available_balance->amount == 0 && $acct->available_balance->currency eq 'USD', 'balance');
check(!defined $acct->kyb, 'kyb should be undef when none was given');
check($request_id =~ /^req_/, "Request-Id $request_id");
my $first = $acct->id;
push @created, $first;
print "ok 2 create account $first (Request-Id $request_id)\n";

# 3. Create with kyb.
$acct = ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US', kyb => { ein => '12-3456789', legal_name => 'Acme Corp' } }) });
check(defined $acct->kyb && $acct->kyb->ein_last4 eq '6789', 'kyb ein_last4');
push @created, $acct->id;
print "ok 3 create account with kyb: ein_last4 6789\n";

# 4. Retrieve.
my $got = ok_call(sub { $plinth->accounts->retrieve($first) });
check($got->id eq $first, 'retrieved ' . $got->id);
print "ok 4 retrieve account\n";
my $second = $created[1];

# 4a. A sandbox deposit: the credit transaction.
my $credit = ok_call(sub { $plinth->sandbox->deposit($first, { amount => 10000 }) });
check($credit->id =~ /^txn_/, 'transaction id ' . $credit->id);
check($credit->amount == 10000 && $credit->balance_after == 10000, 'deposit amount ' . $credit->amount . ' balance_after ' . $credit->balance_after);
print "ok 4a deposit (sandbox): 10000, balance_after 10000\n";

# 4b. A transfer with the client's own Idempotency-Key: posted.
my $transfer = ok_call(sub { $plinth->transfers->create({ from_account_id => $first, to_account_id => $second, amount => 2500, currency => 'USD' }) });
check($transfer->id =~ /^tr_/, 'transfer id ' . $transfer->id);
check($transfer->status eq 'posted' && $transfer->amount == 2500, 'transfer status ' . $transfer->status . ' amount ' . $transfer->amount);
print "ok 4b transfer: 2500 USD, posted\n";

# 4c. The first account's transactions, newest first, through auto-pagination.
my @moves = map { $_->amount . '/' . $_->balance_after } ok_call(sub { [ $plinth->accounts->transactions($first, limit => 1)->all ] })->@*;
check("@moves" eq '-2500/7500 10000/10000', "transactions (amount/balance_after) @moves");
print "ok 4c iterate the transactions: balance_after 7500 then 10000\n";

# 4d. More than the balance: 409 insufficient_funds naming the side at fault.
my $funds = expect_error(409, 'insufficient_funds', sub { $plinth->transfers->create({ from_account_id => $first, to_account_id => $second, amount => 999999, currency => 'USD' }) });
check(($funds->param // '') eq 'from_account_id', 'param ' . ($funds->param // 'undef'));
print "ok 4d insufficient funds: 409, param from_account_id\n";

# 5. The same Idempotency-Key and body twice: the same account.
my $idem = 'perl-conformance-' . Plinth::UserAgent::uuid4();
my $a1 = ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US' }, idempotency_key => $idem) });
my $a2 = ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US' }, idempotency_key => $idem) });
check($a1->id eq $a2->id, 'replay gave ' . $a1->id . ' then ' . $a2->id);
check($plinth->last_response->replayed, 'second response not marked Idempotent-Replayed');
push @created, $a1->id;
print "ok 5 idempotent replay: same id\n";

# 6. The same key with another body: 422 idempotency_key_reused.
expect_error(422, 'idempotency_key_reused', sub { $plinth->accounts->create({ type => 'business', country => 'CA' }, idempotency_key => $idem) });
print "ok 6 key reused with another body: 422 idempotency_key_reused\n";

# 7. A bad key: 401 api_key_invalid.
my $bad = Plinth->new(api_key => 'sk_test_' . ('A' x 38), base_url => $base);
expect_error(401, 'api_key_invalid', sub { $bad->accounts->list_page(limit => 1) });
print "ok 7 bad key: 401 api_key_invalid\n";

# 8. An unknown field, through the raw request mechanism: 400 parameter_unknown naming it.
my $e = expect_error(400, 'parameter_unknown', sub { $plinth->raw(POST => '/v1/fintech/accounts', { type => 'business', country => 'US', colour => 'red' }) });
check(($e->param // '') eq 'colour', 'param ' . ($e->param // 'undef'));
check(@{ $e->errors } > 0, 'errors is empty');
print "ok 8 unknown field: 400 parameter_unknown, param colour\n";

# 9. Auto-pagination with limit=1 yields exactly what was created, newest first, once each.
my @listed = map { $_->id } ok_call(sub { [ $plinth->accounts->list(limit => 1)->all ] })->@*;
my @want = reverse @created;
check("@listed" eq "@want", "listed @listed, want @want");
print 'ok 9 list with limit=1: ' . scalar(@listed) . " accounts, newest first, no duplicates\n";

# 10. Rate limited (2/s): six calls back to back all succeed because 429s are retried after Retry-After.
my $limited_signup = ok_call(sub { Plinth->new(base_url => $limited_url)->signup({}) });
my $limited = Plinth->new(api_key => $limited_signup->api_key->key, base_url => $limited_url);
my $retries = 0;
for my $i (1 .. 6) {
    ok_call(sub { $limited->accounts->list_page(limit => 1) });
    $retries += $limited->last_response->retries;
}
check($retries >= 1, 'no 429 was retried');
print "ok 10 rate limit: 6 calls succeeded after $retries retries honouring Retry-After\n";

# 11. Through the rewriting proxy: unknown fields, an unknown status and an unknown error code still decode.
my $proxied = Plinth->new(api_key => $key, base_url => $proxy_url);
$got = ok_call(sub { $proxied->accounts->retrieve($first) });
check($got->id eq $first && $got->status eq 'dormant', 'proxied status ' . $got->status);
my $page = ok_call(sub { $proxied->accounts->list_page(limit => 100) });
check(@{ $page->data } == @created, 'proxied list has ' . scalar(@{ $page->data }) . ' accounts');
expect_error(404, 'future_error_code', sub { $proxied->accounts->retrieve('acct_' . ('0' x 26)) });
print "ok 11 through the rewriting proxy: unknown field, status dormant, error code future_error_code\n";

# 12. A webhook delivery to the test's receiver verifies with the endpoint's secret, and fails with one byte of the
# body changed or with another secret.
my $receiver_url = env('PLINTH_RECEIVER_URL');
my $endpoint = ok_call(sub { $plinth->raw(POST => '/v1/webhook_endpoints', { url => "$receiver_url/hook", enabled_events => ['*'] }) });
my $secret = $endpoint->{secret} // '';
check($secret =~ /^whsec_/, "secret $secret");
my $event = ok_call(sub { $plinth->raw(POST => "/v1/webhook_endpoints/$endpoint->{id}/test") });
check($event->{type} eq 'webhook_endpoint.test', "type $event->{type}");
require LWP::UserAgent;
require Time::HiRes;
my $receiver = LWP::UserAgent->new(timeout => 5);
my $delivery;
my $deadline = Time::HiRes::time() + 10;
while (!$delivery && Time::HiRes::time() < $deadline) {
    my $answer = $receiver->get("$receiver_url/deliveries?event=$event->{id}");
    check($answer->is_success, 'receiver: ' . $answer->status_line);
    my $found = JSON::decode_json($answer->decoded_content);
    if (@$found) { $delivery = $found->[0] } else { Time::HiRes::sleep(0.1) }
}
check($delivery, "no delivery of $event->{id} within 10 s");
my $headers = $delivery->{headers};
my $body = Encode::encode_utf8($delivery->{body});
my $verified = eval { Plinth::Webhook->verify($secret, $headers, $body) } or fail("verify: $@");
check($verified->id eq $event->{id} && $verified->type eq 'webhook_endpoint.test', 'verified ' . $verified->id . ' ' . $verified->type);
my $changed = $body;
my $i = index($body, $event->{id}) + 4;    # a character of the id
substr($changed, $i, 1) = substr($body, $i, 1) eq '0' ? '1' : '0';
my $other = 'whsec_' . MIME::Base64::encode_base64("\x07" x 32, '');
for my $wrong ([$secret, $changed], [$other, $body]) {
    my $result = eval { Plinth::Webhook->verify($wrong->[0], $headers, $wrong->[1]); 1 };
    fail('a changed body or another secret verified') if $result;
    my $e = Plinth::Webhook::Error->caught($@) or fail("expected a Plinth::Webhook::Error, got: $@");
    check($e->reason eq 'signature_mismatch', 'reason ' . $e->reason);
}
print "ok 12 a webhook delivery verifies with its secret, not with a changed body or another secret\n";

print "perl: every step passed\n";
