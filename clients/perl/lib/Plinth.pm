package Plinth;

# The Plinth API client for Perl: the modules OpenAPI Generator writes into generated/lib (Plinth::Generated::*,
# never edited by hand) behind this thin layer, which adds what a good SDK does: retries with backoff honouring
# Retry-After, one automatic Idempotency-Key per POST reused across its attempts, list iteration, one typed error
# (Plinth::Error), the Request-Id of every response (last_response), and a default timeout.
#
#   use Plinth;
#   my $plinth = Plinth->new(api_key => $ENV{PLINTH_API_KEY}, base_url => 'http://127.0.0.1:8080');
#   my $account = $plinth->accounts->create({ type => 'business', country => 'US' });
#   print $account->id, ' ', $plinth->last_response->request_id, "\n";

use strict;
use warnings;
use File::Basename qw(dirname);
use File::Spec;
use Scalar::Util qw(blessed);

BEGIN {
    # The generated modules live beside this layer, in generated/lib.
    my $generated = File::Spec->catdir(dirname(__FILE__), File::Spec->updir, 'generated', 'lib');
    unshift @INC, $generated if -d $generated;
}

use JSON ();
use Plinth::Generated::ApiClient;
use Plinth::Generated::Configuration;
use Plinth::Generated::FintechAccountsApi;
use Plinth::Generated::FintechTransactionsApi;
use Plinth::Generated::FintechTransfersApi;
use Plinth::Generated::APIKeysApi;
use Plinth::Generated::Object::CreateAccountRequest;
use Plinth::Generated::Object::CreateAccountRequestKyb;
use Plinth::Generated::Object::CreateApiKeyRequest;
use Plinth::Generated::Object::CreateTransferRequest;
use Plinth::Generated::Object::SandboxSignupRequest;
use Plinth::Generated::Object::SimulateDepositRequest;
use Plinth::Error;
use Plinth::UserAgent;
use Plinth::Webhook;

our $VERSION = '0.1.0';
our $CALL;    # the call in progress: what the user agent needs to know and records (Perl runs one call at a time)

sub new {
    my ($class, %args) = @_;
    my $self = bless {
        api_key     => $args{api_key},
        base_url    => ($args{base_url} // 'http://127.0.0.1:8080') =~ s{/+$}{}r,
        timeout     => $args{timeout} // 30,
        max_retries => $args{max_retries} // 3,
        min_backoff => $args{min_backoff} // 0.5,
        max_backoff => $args{max_backoff} // 8,
    }, $class;
    my $config = Plinth::Generated::Configuration->new(
        base_url        => $self->{base_url},
        http_timeout    => $self->{timeout},
        http_user_agent => "plinth-perl/$VERSION",
        ($self->{api_key} ? (access_token => $self->{api_key}) : ()),
    );
    $self->{api_client} = Plinth::Generated::ApiClient->new($config);
    $self->{api_client}{ua} = $self->{ua} = Plinth::UserAgent->new(
        max_retries => $self->{max_retries},
        min_backoff => $self->{min_backoff},
        max_backoff => $self->{max_backoff},
        timeout     => $self->{timeout},
    );
    return $self;
}

# The Plinth::Response of the last call (success or failure): request_id, status, replayed, retries, headers.
sub last_response { $_[0]{last_response} }

# The generated client, wired to this layer's user agent, for operations the layer does not wrap.
sub api_client { $_[0]{api_client} }

sub accounts { Plinth::Accounts->new($_[0]) }
sub api_keys { Plinth::ApiKeys->new($_[0]) }
sub transfers { Plinth::Transfers->new($_[0]) }
sub sandbox { Plinth::Sandbox->new($_[0]) }    # simulations only sandbox keys may run

# Runs one generated operation; turns a problem answer into a Plinth::Error.
sub _call {
    my ($self, $opts, $code) = @_;
    local $CALL = { idempotency_key => $opts->{idempotency_key}, no_idempotency_key => $opts->{no_idempotency_key} };
    my $result = eval { $code->() };
    my $died = $@;
    my $resp = $CALL->{response};
    $self->{last_response} = Plinth::Response->new($resp, $CALL->{retries} // 0);
    if ($died) {
        die $died if !$resp || $resp->code < 300 || ($resp->header('Client-Warning') // '') eq 'Internal response';
        die Plinth::Error->from_response($resp, $CALL->{retries} // 0);
    }
    if (blessed $result && $resp) {
        # The generated decoder turns a JSON null into an empty object; put the nulls back.
        my $raw = eval { JSON::decode_json($resp->decoded_content) };
        _restore_nulls($result, $raw) if ref $raw eq 'HASH';
    }
    return $result;
}

sub _restore_nulls {
    my ($object, $raw) = @_;
    return unless blessed $object && $object->can('attribute_map') && ref $raw eq 'HASH';
    my $map = $object->attribute_map;
    for my $key (keys %$map) {
        my $json = $map->{$key};
        next unless exists $raw->{$json};
        if (!defined $raw->{$json}) {
            $object->{$key} = undef;
        } elsif (ref $raw->{$json} eq 'HASH') {
            _restore_nulls($object->{$key}, $raw->{$json});
        } elsif (ref $raw->{$json} eq 'ARRAY' && ref $object->{$key} eq 'ARRAY') {
            _restore_nulls($object->{$key}[$_], $raw->{$json}[$_]) for 0 .. $#{ $raw->{$json} };
        }
    }
}

# Creates a sandbox organisation and its first key (POST /v1/sandbox/signup, no API key needed). The one POST
# without an Idempotency-Key: the server refuses one there.
sub signup {
    my ($self, $params) = @_;
    my $api = Plinth::Generated::APIKeysApi->new($self->{api_client});
    my $body = Plinth::Generated::Object::SandboxSignupRequest->new(%{ $params // {} });
    return $self->_call({ no_idempotency_key => 1 }, sub { $api->sandbox_signup(sandbox_signup_request => $body) });
}

# Sends any request through the same user agent (auth, retries, idempotency key): for fields or operations this
# client does not know yet. Returns the decoded JSON body; a problem answer dies with a Plinth::Error.
#   $plinth->raw(POST => '/v1/fintech/accounts', { type => 'business', country => 'US', colour => 'red' });
sub raw {
    my ($self, $method, $path, $body, %opts) = @_;
    require HTTP::Request;
    my $req = HTTP::Request->new($method => $self->{base_url} . $path);
    $req->header(Accept => 'application/json, application/problem+json');
    $req->header(Authorization => "Bearer $self->{api_key}") if $self->{api_key};
    if (defined $body) {
        $req->header('Content-Type' => 'application/json');
        $req->content(JSON->new->utf8->canonical->encode($body));
    }
    local $CALL = { idempotency_key => $opts{idempotency_key} };
    my $resp = $self->{ua}->request($req);
    $self->{last_response} = Plinth::Response->new($resp, $CALL->{retries} // 0);
    die Plinth::Error->from_response($resp, $CALL->{retries} // 0) if $resp->code >= 300;
    my $content = $resp->decoded_content;
    return length($content // '') ? JSON::decode_json($content) : undef;
}

package Plinth::Response;

# What the HTTP response of a call said besides its body.
sub new {
    my ($class, $resp, $retries) = @_;
    return bless {
        status     => $resp ? $resp->code : undef,
        request_id => $resp ? scalar $resp->header('Request-Id') : undef,
        replayed   => ($resp && ($resp->header('Idempotent-Replayed') // '') eq 'true') ? 1 : 0,
        retries    => $retries,
        headers    => $resp ? $resp->headers : undef,
    }, $class;
}
sub status     { $_[0]{status} }
sub request_id { $_[0]{request_id} }    # req_…: quote it to support
sub replayed   { $_[0]{replayed} }      # Idempotent-Replayed: true
sub retries    { $_[0]{retries} }       # how many times the layer retried
sub headers    { $_[0]{headers} }       # an HTTP::Headers

package Plinth::ListIterator;

# Walks a list across pages, newest first, with starting_after = the last id while has_more:
#   my $it = $plinth->accounts->list(limit => 10);
#   while (my $account = $it->next) { ... }
sub new {
    my ($class, %args) = @_;
    return bless { fetch => $args{fetch}, params => { %{ $args{params} // {} } }, buffer => [], more => 1 }, $class;
}

sub next {
    my ($self) = @_;
    if (!@{ $self->{buffer} } && $self->{more}) {
        my $page = $self->{fetch}->({ %{ $self->{params} } });
        my @items = @{ $page->data // [] };
        $self->{more} = ($page->has_more && @items) ? 1 : 0;
        $self->{params}{starting_after} = $items[-1]->id if @items;
        push @{ $self->{buffer} }, @items;
    }
    return shift @{ $self->{buffer} };
}

# Every remaining item, as a list.
sub all {
    my ($self) = @_;
    my @all;
    while (defined(my $item = $self->next)) { push @all, $item }
    return @all;
}

package Plinth::Accounts;

# /v1/fintech/accounts
sub new { my ($class, $plinth) = @_; bless { plinth => $plinth, api => Plinth::Generated::FintechAccountsApi->new($plinth->{api_client}) }, $class }

# create({ type => 'business', country => 'US', kyb => { ein => ..., legal_name => ... } }, idempotency_key => $k)
sub create {
    my ($self, $params, %opts) = @_;
    my %fields = %$params;
    $fields{kyb} = Plinth::Generated::Object::CreateAccountRequestKyb->new(%{ $fields{kyb} }) if ref $fields{kyb} eq 'HASH';
    my $body = Plinth::Generated::Object::CreateAccountRequest->new(%fields);
    return $self->{plinth}->_call(\%opts, sub { $self->{api}->create_account(create_account_request => $body) });
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->{plinth}->_call({}, sub { $self->{api}->retrieve_account(id => $id) });
}

# One page: list_page(limit => 10, starting_after => 'acct_…') → an AccountList (->data, ->has_more).
sub list_page {
    my ($self, %params) = @_;
    return $self->{plinth}->_call({}, sub { $self->{api}->list_accounts(%params) });
}

# Every account, newest first: a Plinth::ListIterator.
sub list {
    my ($self, %params) = @_;
    return Plinth::ListIterator->new(params => \%params, fetch => sub { $self->list_page(%{ $_[0] }) });
}

# One page of an account's transactions, newest first: a TransactionList.
sub transactions_page {
    my ($self, $id, %params) = @_;
    my $api = Plinth::Generated::FintechTransactionsApi->new($self->{plinth}{api_client});
    return $self->{plinth}->_call({}, sub { $api->list_account_transactions(id => $id, %params) });
}

# Every transaction of an account, newest first: a Plinth::ListIterator.
sub transactions {
    my ($self, $id, %params) = @_;
    return Plinth::ListIterator->new(params => \%params, fetch => sub { $self->transactions_page($id, %{ $_[0] }) });
}

package Plinth::Transfers;

# /v1/fintech/transfers
sub new { my ($class, $plinth) = @_; bless { plinth => $plinth, api => Plinth::Generated::FintechTransfersApi->new($plinth->{api_client}) }, $class }

# create({ from_account_id => …, to_account_id => …, amount => 2500, currency => 'USD' }, idempotency_key => $k):
# synchronous, the posted transfer. One Idempotency-Key, reused by retries, so the money moves once.
sub create {
    my ($self, $params, %opts) = @_;
    my $body = Plinth::Generated::Object::CreateTransferRequest->new(%$params);
    return $self->{plinth}->_call(\%opts, sub { $self->{api}->create_transfer(create_transfer_request => $body) });
}

sub retrieve {
    my ($self, $id) = @_;
    return $self->{plinth}->_call({}, sub { $self->{api}->retrieve_transfer(id => $id) });
}

package Plinth::Sandbox;

# /v1/sandbox simulations
sub new { my ($class, $plinth) = @_; bless { plinth => $plinth, api => Plinth::Generated::FintechTransactionsApi->new($plinth->{api_client}) }, $class }

# deposit($account_id, { amount => 10000, description => … }): money in from nowhere, for testing; the credit transaction.
sub deposit {
    my ($self, $account_id, $params, %opts) = @_;
    my $body = Plinth::Generated::Object::SimulateDepositRequest->new(%$params);
    return $self->{plinth}->_call(\%opts, sub { $self->{api}->simulate_deposit(id => $account_id, simulate_deposit_request => $body) });
}

package Plinth::ApiKeys;

# /v1/api_keys
sub new { my ($class, $plinth) = @_; bless { plinth => $plinth, api => Plinth::Generated::APIKeysApi->new($plinth->{api_client}) }, $class }

# create({ mode => 'sandbox', name => '…' }): the new key's secret is in the result once.
sub create {
    my ($self, $params, %opts) = @_;
    my $body = Plinth::Generated::Object::CreateApiKeyRequest->new(%{ $params // {} });
    return $self->{plinth}->_call(\%opts, sub { $self->{api}->create_api_key(create_api_key_request => $body) });
}

sub revoke {
    my ($self, $id, %opts) = @_;
    return $self->{plinth}->_call(\%opts, sub { $self->{api}->revoke_api_key(id => $id) });
}

sub list_page {
    my ($self, %params) = @_;
    return $self->{plinth}->_call({}, sub { $self->{api}->list_api_keys(%params) });
}

sub list {
    my ($self, %params) = @_;
    return Plinth::ListIterator->new(params => \%params, fetch => sub { $self->list_page(%{ $_[0] }) });
}

1;
