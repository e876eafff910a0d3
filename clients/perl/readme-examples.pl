#!/usr/bin/env perl
# The README's Perl examples, run against PLINTH_URL by conformance.sh (after `perl -c`) so that an example that no
# longer works fails the client's test. Between the markers: written by scripts/clients/readme.ts from README.md
# (edit the README, then run `node scripts/clients/readme.ts perl`), each example a closure over what it uses but
# does not define: a client, two funded accounts ($a, $b), a transfer, a webhook endpoint, and the headers and body
# of a signed delivery. The end runs every example in order.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/lib";
use Plinth;
use DateTime;
use Digest::SHA qw(hmac_sha256);
use LWP::UserAgent;
use MIME::Base64 qw(encode_base64);

my $url = $ENV{PLINTH_URL};
my $key = Plinth->sign_up($url)->api_key->key;
my $plinth = Plinth->new(api_key => $key, base_url => $url);
my $account_id = $plinth->accounts->create({ type => 'business', country => 'US' })->id;
our ($a, $b) = ($account_id, $plinth->accounts->create({ type => 'business', country => 'US' })->id);
$plinth->sandbox->deposit($a, { amount => 20000 });
my $transfer_id = $plinth->transfers->create({ from_account_id => $a, to_account_id => $b, amount => 3000, currency => 'USD' })->id;
my $endpoint_id = $plinth->webhook_endpoints->create({ url => 'http://127.0.0.1:9/hook', enabled_events => ['*'] })->id;
# A delivery of a real event, signed as the server signs one (docs/api.md#webhooks).
$ENV{PLINTH_WEBHOOK_SECRET} = 'whsec_' . encode_base64('readme-examples-secret-32-bytes!', '');
my $event_id = $plinth->events->list_page(limit => 1)->data->[0]->id;
my $raw_body = LWP::UserAgent->new->get("$url/v1/events/$event_id", Authorization => "Bearer $key")->content;
my $timestamp = time;
my $mac = encode_base64(hmac_sha256("$event_id.$timestamp.$raw_body", 'readme-examples-secret-32-bytes!'), '');
my %headers = ('webhook-id' => $event_id, 'webhook-timestamp' => $timestamp, 'webhook-signature' => "v1,$mac");
my @examples;
sleep 1;  # the balances example reads $b as it was a second ago, which must not be before $b was opened

# readme-examples:start
push @examples, sub {
    eval { $plinth->transfers->create({ from_account_id => $a, to_account_id => $b, amount => 999999, currency => 'USD' }) };
    if (my $e = Plinth::Error->caught) {
        print join(' ', $e->status, $e->code, $e->param, $e->request_id), "\n";  # 409 insufficient_funds from_account_id req_…
    }
};

push @examples, sub {
    my $it = $plinth->accounts->list(status => 'frozen', limit => 100);
    while (my $a = $it->next) { print $a->id, "\n" }
    my @pending = $plinth->transfers->list(status => 'pending', created => { gte => DateTime->now->subtract(days => 1) })->all;
    my $customer = $plinth->accounts->list(metadata => { customer => 'c-42' })->next;    # the newest, or undef
    my @refused = $plinth->requests->list(status => 409, method => 'POST', created => { gte => DateTime->now->subtract(hours => 1) })->all;
    my $page = $plinth->accounts->list_page(limit => 10);
};

push @examples, sub {
    my $hold = $plinth->transfers->create({ from_account_id => $a, to_account_id => $b, amount => 4000, currency => 'USD',
        pending => 1, expires_in_seconds => 3600, metadata => { order => 'A-1' } });
    print $hold->status, "\n";                                  # pending; expires_at set, posted_amount undef
    print $plinth->accounts->retrieve($a)->available_balance->amount, "\n";   # 4000 less than current_balance
    my $captured = $plinth->transfers->post($hold->id, { amount => 2500 });
    print $captured->posted_amount, "\n";                       # 2500; the other 1500 is available to $a again
    my $other = $plinth->transfers->create({ from_account_id => $a, to_account_id => $b, amount => 1000, currency => 'USD', pending => 1 });
    print $plinth->transfers->void($other->id)->status, "\n";   # voided: released, nothing moved
};

push @examples, sub {
    my $t = $plinth->transfers->create({ from_account_id => $a, to_account_id => $b, amount => 3000, currency => 'USD' });
    my $reversal = $plinth->transfers->reverse($t->id, { amount => 1000, description => 'refund' });   # trr_…
    print $plinth->transfers->retrieve($t->id)->amount_reversed, "\n";       # 1000; reversed false
    print $_->id, "\n" for $plinth->transfers->list_reversals($t->id)->all;  # the reversal
    print $plinth->transfers->retrieve_reversal($t->id, $reversal->id)->amount, "\n";  # 1000
};

push @examples, sub {
    my $opened = $plinth->accounts->retrieve($b)->created_at;  # a moment the account existed at
    print $plinth->accounts->balances($b, at => $opened)->current_balance->amount, "\n";
    my $month = $plinth->accounts->statement($b, from => '2026-11-01T00:00Z', to => DateTime->now);
    print $month->opening_balance + $month->credits->amount - $month->debits->amount == $month->closing_balance, "\n";  # 1
};

push @examples, sub {
    $plinth->accounts->update($account_id, { metadata => { customer => 'c-42', old_ref => '' } }); # sets customer, removes old_ref
    $plinth->transfers->update($transfer_id, clear_metadata => 1);                              # removes every key
    $plinth->webhook_endpoints->update($endpoint_id, { description => 'orders', metadata => { team => 'payments' } });
};

push @examples, sub {
    my $created = $plinth->api_keys->create({ name => 'CI deploys' }, idempotency_key => 'ci-key-1');
    print $created->key, "\n";                 # sk_test_…
    my $again = $plinth->api_keys->create({ name => 'CI deploys' }, idempotency_key => 'ci-key-1');
    print $again->replayed, "\n";              # 1; $again->key dies with a Plinth::SecretUnavailable
};

push @examples, sub {
    my $made = $plinth->api_keys->create(
        { name => 'balances dashboard', permissions => { accounts => 'read', transactions => 'read' } });
    print $made->key, "\n";                       # rk_test_…, shown this once
    print $made->permissions->transfers, "\n";    # none (every group is listed; ->TO_JSON gives them as a hashref)
    my $reader = Plinth->new(api_key => $made->key, base_url => $ENV{PLINTH_URL});
    print $reader->accounts->balances($account_id)->current_balance->amount, "\n";   # reading is allowed
    eval { $reader->transfers->create({ from_account_id => $a, to_account_id => $b, amount => 100, currency => 'USD' }) };
    if (my $e = Plinth::Error->caught) {
        print join(' ', $e->status, $e->code), "\n";  # 403 permission_denied: nothing moved; ->detail names what it needs
    }
};

push @examples, sub {
    my $event = eval { Plinth::Webhook->verify($ENV{PLINTH_WEBHOOK_SECRET}, \%headers, $raw_body) };
    if (my $e = Plinth::Webhook::Error->caught) { warn 'refused: ', $e->reason, "\n" } else { print $event->type, "\n" }
};

push @examples, sub {
    # From the oldest account still kept, then live; stop ends it and closes the connection.
    my $stream = $plinth->events->stream(type => 'fintech.account.created', after => 0);
    $stream->each(sub {
        my ($event) = @_;
        print $event->sequence, ' ', $event->type, ' ', $event->data->object->{id}, "\n";
        $stream->stop if $event->data->object->{id} eq $account_id;    # the account we waited for
    });
};

push @examples, sub {
    my $checkpoint = $plinth->audit->retrieve_checkpoint;
    my $after = 0;
    while ($after < $checkpoint->size) {
        for my $link (@{ $plinth->audit->list_chain(after => $after, limit => 1000)->data }) {
            $after = $link->sequence;
            print $link->hash eq $checkpoint->hash, "\n" if $after == $checkpoint->size;  # 1: the chain ends there
        }
    }
};
# readme-examples:end

# What the examples print stays out of the log: some of it is a key (docs/api.md: secrets never in logs).
open(my $log, '>&', \*STDOUT) or die $!;
for my $i (0 .. $#examples) {
    open(STDOUT, '>', '/dev/null') or die $!;
    $examples[$i]->();
    open(STDOUT, '>&', $log) or die $!;
    print 'ok example ', $i + 1, "\n";
}
print "the README's ", scalar(@examples), " examples ran\n";
