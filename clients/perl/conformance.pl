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
my $signup = ok_call(sub { Plinth->sign_up($base) });
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
my @moves = map { $_->amount . '/' . $_->balance_after } ok_call(sub { [ $plinth->transactions->list($first, limit => 1)->all ] })->@*;
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
my $limited_signup = ok_call(sub { Plinth->sign_up($limited_url) });
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
my $endpoint = ok_call(sub { $plinth->webhook_endpoints->create({ url => "$receiver_url/hook", enabled_events => ['*'] }) });
my $secret = $endpoint->secret;
check(!ref $secret && $secret =~ /^whsec_/, "secret $secret");
my $event = ok_call(sub { $plinth->webhook_endpoints->test($endpoint->id) });
check($event->type eq 'webhook_endpoint.test', 'type ' . $event->type);
require LWP::UserAgent;
require Time::HiRes;
my $receiver = LWP::UserAgent->new(timeout => 5);
my $delivery;
my $deadline = Time::HiRes::time() + 10;
while (!$delivery && Time::HiRes::time() < $deadline) {
    my $answer = $receiver->get("$receiver_url/deliveries?event=" . $event->id);
    check($answer->is_success, 'receiver: ' . $answer->status_line);
    my $found = JSON::decode_json($answer->decoded_content);
    if (@$found) { $delivery = $found->[0] } else { Time::HiRes::sleep(0.1) }
}
check($delivery, 'no delivery of ' . $event->id . ' within 10 s');
my $headers = $delivery->{headers};
my $body = Encode::encode_utf8($delivery->{body});
my $verified = eval { Plinth::Webhook->verify($secret, $headers, $body) } or fail("verify: $@");
check($verified->id eq $event->id && $verified->type eq 'webhook_endpoint.test', 'verified ' . $verified->id . ' ' . $verified->type);
my $changed = $body;
my $i = index($body, $event->id) + 4;    # a character of the id
substr($changed, $i, 1) = substr($body, $i, 1) eq '0' ? '1' : '0';
my $other = 'whsec_' . MIME::Base64::encode_base64("\x07" x 32, '');
for my $wrong ([$secret, $changed], [$other, $body]) {
    my $result = eval { Plinth::Webhook->verify($wrong->[0], $headers, $wrong->[1]); 1 };
    fail('a changed body or another secret verified') if $result;
    my $e = Plinth::Webhook::Error->caught($@) or fail("expected a Plinth::Webhook::Error, got: $@");
    check($e->reason eq 'signature_mismatch', 'reason ' . $e->reason);
}
print "ok 12 a webhook delivery verifies with its secret, not with a changed body or another secret\n";

sub ids { join ' ', map { $_->id } @_ }

# 13. Freeze the second account: listed as frozen, a transfer to it refused; unfreeze it.
my $frozen = ok_call(sub { $plinth->accounts->freeze($second, { reason => 'compliance_review', note => 'conformance' }) });
check($frozen->status eq 'frozen', 'status ' . $frozen->status);
check($frozen->status_details && $frozen->status_details->reason eq 'compliance_review', 'status_details reason');
my $listed_frozen = ids(ok_call(sub { [ $plinth->accounts->list(status => 'frozen')->all ] })->@*);
check($listed_frozen eq $second, "frozen accounts: $listed_frozen");
my $refused = expect_error(409, 'account_frozen', sub { $plinth->transfers->create({ from_account_id => $first, to_account_id => $second, amount => 1, currency => 'USD' }) });
check(($refused->param // '') eq 'to_account_id', 'param ' . ($refused->param // 'undef'));
my $thawed = ok_call(sub { $plinth->accounts->unfreeze($second) });
check($thawed->status eq 'active' && !defined $thawed->status_details, 'unfrozen ' . $thawed->status);
print "ok 13 freeze: listed as frozen, a transfer to it 409 account_frozen (param to_account_id); unfreeze\n";

# 14. A sandbox withdrawal: the debit transaction.
my $debit = ok_call(sub { $plinth->sandbox->withdraw($first, { amount => 500 }) });
check($debit->amount == -500 && $debit->balance_after == 7000, 'withdrawal amount ' . $debit->amount . ' balance_after ' . $debit->balance_after);
print "ok 14 withdrawal (sandbox): -500, balance_after 7000\n";

# 15. The second account's transfers: the one of step 4b.
my $listed_transfers = ids(ok_call(sub { [ $plinth->transfers->list(account_id => $second)->all ] })->@*);
check($listed_transfers eq $transfer->id, "transfers of the second account: $listed_transfers");
check(ok_call(sub { $plinth->transfers->retrieve($transfer->id) })->amount == 2500, 'retrieved transfer');
print "ok 15 transfers listed by account: exactly the one of step 4b; retrieved\n";

# 16. Close a third account: a deposit to it is refused.
my $third = ok_call(sub { $plinth->accounts->create({ type => 'business', country => 'US' }) });
my $closed = ok_call(sub { $plinth->accounts->close($third->id, { reason => 'customer_request' }) });
check($closed->status eq 'closed' && defined $closed->closed_at, 'closed ' . $closed->status);
expect_error(409, 'account_closed', sub { $plinth->sandbox->deposit($third->id, { amount => 100 }) });
print "ok 16 close: closed_at set, a deposit to it 409 account_closed\n";

# 17. Events of one type across pages of two, newest first.
my @events = ok_call(sub { [ $plinth->events->list(type => 'fintech.account.created', limit => 2)->all ] })->@*;
check(@events >= 3, scalar(@events) . ' events');
check(!grep({ $_->type ne 'fintech.account.created' } @events), 'an event of another type');
check(!grep({ $events[ $_ - 1 ]->sequence <= $events[$_]->sequence } 1 .. $#events), 'sequences not strictly decreasing');
my $one = ok_call(sub { $plinth->events->retrieve($events[0]->id) });
check($one->id eq $events[0]->id && $one->sequence == $events[0]->sequence, 'retrieved event ' . $one->id);
print 'ok 17 events listed by type with limit=2: ' . scalar(@events) . " events, sequences decreasing; retrieved\n";

# 18. The endpoint of step 12: update, its deliveries and the event's, retry, rotate, list, delete.
my $updated = ok_call(sub { $plinth->webhook_endpoints->update($endpoint->id, { description => 'updated' }) });
check(($updated->description // '') eq 'updated', 'description ' . ($updated->description // 'undef'));
my $test_delivery;
$deadline = Time::HiRes::time() + 10;    # the receiver answered; the server records it
while (1) {
    ($test_delivery) = grep { $_->event_id eq $event->id } ok_call(sub { [ $plinth->webhook_endpoints->list_deliveries($endpoint->id)->all ] })->@*;
    last if ($test_delivery && $test_delivery->status eq 'succeeded') || Time::HiRes::time() > $deadline;
    Time::HiRes::sleep(0.1);
}
check($test_delivery && $test_delivery->status eq 'succeeded', 'endpoint delivery ' . ($test_delivery ? $test_delivery->status : 'missing'));
my $by_event = ids(ok_call(sub { [ $plinth->events->list_deliveries($event->id)->all ] })->@*);
check(" $by_event " =~ / \Q@{[ $test_delivery->id ]}\E /, "event deliveries: $by_event");
check(ok_call(sub { $plinth->webhook_deliveries->retry($test_delivery->id) })->id eq $test_delivery->id, 'retried delivery');
my $rotated = ok_call(sub { $plinth->webhook_endpoints->rotate_secret($endpoint->id) })->secret;
check(!ref $rotated && $rotated =~ /^whsec_/ && $rotated ne $secret, 'rotated secret');
check(ids(ok_call(sub { [ $plinth->webhook_endpoints->list->all ] })->@*) =~ /\Q@{[ $endpoint->id ]}\E/, 'endpoint not listed');
check(ok_call(sub { $plinth->webhook_endpoints->delete($endpoint->id) })->deleted, 'not deleted');
expect_error(404, 'resource_not_found', sub { $plinth->webhook_endpoints->retrieve($endpoint->id) });
print "ok 18 webhook endpoint: updated, delivery succeeded and listed twice, retried, secret rotated, listed, deleted\n";

# 19. API keys: create one with a name, list, retrieve, revoke.
my $new_key = ok_call(sub { $plinth->api_keys->create({ name => 'conformance' }) });
check(!ref $new_key->key && $new_key->key =~ /^sk_test_/, 'new key');
check(($new_key->name // '') eq 'conformance', 'name ' . ($new_key->name // 'undef'));
check(ids(ok_call(sub { [ $plinth->api_keys->list->all ] })->@*) =~ /\Q@{[ $new_key->id ]}\E/, 'key not listed');
check(ok_call(sub { $plinth->api_keys->retrieve($new_key->id) })->id eq $new_key->id, 'retrieved key');
check(defined ok_call(sub { $plinth->api_keys->revoke($new_key->id) })->revoked_at, 'revoked_at not set');
print "ok 19 api keys: created (a string sk_test_ key, named), listed, retrieved, revoked\n";

# 20. Pending transfers: a hold, posted in part; one voided; one expired.
ok_call(sub { $plinth->sandbox->deposit($first, { amount => 10000 }) });
my $before = ok_call(sub { $plinth->accounts->retrieve($first) });
my $held = ok_call(sub { $plinth->transfers->create({ from_account_id => $first, to_account_id => $second, amount => 4000, currency => 'USD',
    pending => 1, expires_in_seconds => 3600, metadata => { order => 'A-1' } }) });
check($held->status eq 'pending' && $held->pending, 'status ' . $held->status);
check(defined $held->expires_at && !defined $held->posted_amount, 'expires_at ' . ($held->expires_at // 'undef') . ' posted_amount ' . ($held->posted_amount // 'undef'));
check(JSON->new->canonical->encode($held->metadata) eq '{"order":"A-1"}', 'metadata ' . JSON->new->canonical->encode($held->metadata));
my $holding = ok_call(sub { $plinth->accounts->retrieve($first) });
check($holding->current_balance->amount == $before->current_balance->amount, 'current ' . $holding->current_balance->amount);
check($holding->available_balance->amount == $before->available_balance->amount - 4000, 'available ' . $holding->available_balance->amount);
my $posted = ok_call(sub { $plinth->transfers->post($held->id, { amount => 2500 }) });
check($posted->status eq 'posted' && ($posted->posted_amount // 0) == 2500, 'post: ' . $posted->status . ' ' . ($posted->posted_amount // 'undef'));
my $settled = ok_call(sub { $plinth->accounts->retrieve($first) });
check($settled->available_balance->amount == $settled->current_balance->amount
    && $settled->current_balance->amount == $before->current_balance->amount - 2500,
    'after post: available ' . $settled->available_balance->amount . ' current ' . $settled->current_balance->amount);
my $voided = ok_call(sub { $plinth->transfers->create({ from_account_id => $first, to_account_id => $second, amount => 1000, currency => 'USD', pending => 1 }) });
check(ok_call(sub { $plinth->transfers->void($voided->id) })->status eq 'voided', 'not voided');
expect_error(409, 'transfer_not_pending', sub { $plinth->transfers->post($voided->id) });
my $expiring = ok_call(sub { $plinth->transfers->create({ from_account_id => $first, to_account_id => $second, amount => 500, currency => 'USD', pending => 1 }) });
check(ok_call(sub { $plinth->sandbox->expire_transfer($expiring->id) })->status eq 'expired', 'not expired');
expect_error(409, 'transfer_expired', sub { $plinth->transfers->post($expiring->id) });
print "ok 20 pending transfers: held 4000 (available down, current not), 2500 posted (balances equal again); voided; expired\n";

# 21. Metadata and the filters: metadata, status, created.
my $updated_account = ok_call(sub { $plinth->accounts->update($first, { metadata => { customer => 'c-42' } }) });
check(JSON->new->canonical->encode($updated_account->metadata) eq '{"customer":"c-42"}', 'account metadata');
my $by_customer = ids(ok_call(sub { [ $plinth->accounts->list(metadata => { customer => 'c-42' })->all ] })->@*);
check($by_customer eq $first, "accounts with customer c-42: $by_customer");
my %resolved = map { $_ => 1 } $held->id, $voided->id, $expiring->id;
my $still_pending = ids(ok_call(sub { [ $plinth->transfers->list(status => 'pending')->all ] })->@*);
check(!grep({ $resolved{$_} } split / /, $still_pending), "pending transfers: $still_pending");
check(ids(ok_call(sub { [ $plinth->transfers->list(status => 'voided')->all ] })->@*) eq $voided->id, 'voided transfers');
my $by_order = ids(ok_call(sub { [ $plinth->transfers->list(metadata => { order => 'A-1' })->all ] })->@*);
check($by_order eq $held->id, "transfers with order A-1: $by_order");
my $cleared = ok_call(sub { $plinth->transfers->update($held->id, { metadata => { order => '' } }) });
check(JSON->new->canonical->encode($cleared->metadata) eq '{}', 'metadata after removing order: ' . JSON->new->canonical->encode($cleared->metadata));
my $since = ok_call(sub { $plinth->accounts->retrieve($first) })->created_at;
check(defined ok_call(sub { $plinth->events->list(created => { gte => $since }) })->next, "no event created at or after $since");
check(!defined ok_call(sub { $plinth->events->list(created => { lt => '2000-01-01T00:00Z' }) })->next, 'events created before 2000');
print "ok 21 metadata: set on an account and listed by it; transfers listed by status and metadata, a key removed; events listed by created\n";

# 22. The request log: the create of step 2 found by its Request-Id through the filters, then retrieved with its body.
require DateTime;
my $hour_ago = DateTime->now(time_zone => 'UTC')->subtract(hours => 1);
my $logged;
$deadline = Time::HiRes::time() + 10;    # the log is written in batches
while (1) {
    my @posts = ok_call(sub { [ $plinth->requests->list(method => 'POST', status => 200, created => { gte => $hour_ago }, limit => 100)->all ] })->@*;
    ($logged) = grep { $_->id eq $request_id } @posts;
    last if $logged || Time::HiRes::time() > $deadline;
    Time::HiRes::sleep(0.2);
}
check($logged, "the create of step 2 ($request_id) not in the request log within 10 s");
check($logged->route eq '/v1/fintech/accounts', 'route ' . $logged->route);
my $entry = ok_call(sub { $plinth->requests->retrieve($request_id) });
my $sent = JSON::decode_json($entry->body // '{}');
my $seen = join ' ', map { $_ // 'undef' } $entry->id, $entry->method, $entry->status, $entry->source, $sent->{type}, $sent->{country};
check($seen eq "$request_id POST 200 api business US", "entry: $seen");
my $one_page = ok_call(sub { $plinth->requests->list_page(limit => 1, created => { gte => '2000-01-01T00:00Z' }) });
check(@{ $one_page->data } == 1 && $one_page->has_more, 'page of ' . scalar(@{ $one_page->data }) . ', has_more ' . ($one_page->has_more ? 'true' : 'false'));
print "ok 22 the request log: the create of step 2 listed by method, status and created, retrieved with its body; one page of one\n";

# 23. Reverse part of a transfer; the balances before the reversal and now; a statement around it; a nickname.
require "$FindBin::Bin/conformance-ledger.pl";
reversal_balances_statement_nickname($plinth);
print "ok 23 reverse part of a transfer, balances at a moment before it and now, a statement that adds up, a nickname\n";

# 24. A read-only key reads an account and its balances, and cannot move money.
require "$FindBin::Bin/conformance-permissions.pl";
read_only_key($plinth, $base, $first, $second);
print "ok 24 a read-only key reads an account and its balances, and cannot move money\n";

# 25. The event stream, through the proxy's flaky network.
require "$FindBin::Bin/conformance-stream.pl";
event_stream($plinth, $key, $proxy_url);
print "ok 25 the event stream resumes across lost connections with no gap and no repeat, live and filtered by type\n";

# 26. Payments on the sandbox clock: in by ACH, out by ACH, settled, returned R01 by a rule.
require "$FindBin::Bin/conformance-payments.pl";
payments_on_the_clock($plinth);
print "ok 26 payments: in 100, out 60 by ACH, settled on the clock, returned R01 by a rule\n";

# 27. The audit chain: paged with `after`, it ends at the signed checkpoint; the public key.
require "$FindBin::Bin/conformance-audit.pl";
audit_chain($plinth);
print "ok 27 audit: the chain paged with after matches the signed checkpoint and its key\n";

print "perl: every step passed\n";
