package Plinth;

# The Plinth API client for Perl: the modules OpenAPI Generator writes into generated/lib (Plinth::Generated::*,
# never edited by hand) behind this thin layer: one method per operation, grouped by resource (accounts,
# transactions, transfers, sandbox, events, webhook_endpoints, webhook_deliveries, api_keys, requests), with retries
# and backoff honouring Retry-After, one automatic Idempotency-Key per POST reused across its attempts, list
# iteration, one typed error (Plinth::Error), the Request-Id of every response (last_response), and a default
# timeout.
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
    # From a checkout the generated modules live beside this layer, in generated/lib; installed, they are on @INC.
    my $generated = File::Spec->catdir(dirname(__FILE__), File::Spec->updir, 'generated', 'lib');
    unshift @INC, $generated if -d $generated;
}

use JSON ();
use Plinth::Generated::ApiClient;
use Plinth::DeepObject;    # filters (hashrefs) sent as created[gte]=…, by the generated client too
use Plinth::Generated::Configuration;
use Plinth::Generated::APIKeysApi;
use Plinth::Generated::Object::SandboxSignupRequest;
use Plinth::Error;
use Plinth::UserAgent;
use Plinth::Response;
use Plinth::ListIterator;
use Plinth::EventStream;    # and with it Plinth::Events->stream (hand-written: transport)
use Plinth::Secret;
use Plinth::EventDecoder;
use Plinth::Resource;
use Plinth::Resources;    # the resources and their readers ($plinth->accounts, …): generated
use Plinth::Webhook;

our $VERSION = '0.1.0';
our $DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
our $CALL;    # the call in progress: what the user agent needs to know and records (Perl runs one call at a time)

sub new {
    my ($class, %args) = @_;
    my $self = bless {
        api_key     => $args{api_key},
        base_url    => ($args{base_url} // $DEFAULT_BASE_URL) =~ s{/+$}{}r,
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

# The generated client, wired to this layer's user agent.
sub api_client { $_[0]{api_client} }

# Creates a sandbox organisation and its first key (POST /v1/sandbox/signup, no API key needed):
#   my $key = Plinth->sign_up($base_url, name => 'Acme Labs')->api_key->key;   # a string
# The one POST without an Idempotency-Key: the server refuses one there.
sub sign_up {
    my ($class, $base_url, %params) = @_;
    my $anonymous = (ref $class || $class)->new(base_url => $base_url);
    my $api = Plinth::Generated::APIKeysApi->new($anonymous->{api_client});
    my $body = Plinth::Generated::Object::SandboxSignupRequest->new(%params);
    my $signup = $anonymous->_call({ no_idempotency_key => 1 }, sub { $api->sandbox_signup(sandbox_signup_request => $body) });
    return Plinth::SandboxSignup->adopt($signup, $anonymous->last_response->replayed);
}

# Runs one generated operation; turns a problem answer into a Plinth::Error. With $opts->{decode}, the answer is
# that function of the decoded JSON body instead of what the generated code made of it (which may die trying: see
# Plinth::EventDecoder).
sub _call {
    my ($self, $opts, $code) = @_;
    local $CALL = { idempotency_key => $opts->{idempotency_key}, no_idempotency_key => $opts->{no_idempotency_key} };
    my $result = eval { $code->() };
    my $died = $@;
    my $resp = $CALL->{response};
    $self->{last_response} = Plinth::Response->new($resp, $CALL->{retries} // 0);
    my $failed = !$resp || $resp->code >= 300 || ($resp->header('Client-Warning') // '') eq 'Internal response';
    if ($opts->{decode} && !$failed) {
        return $opts->{decode}->(JSON::decode_json($resp->content));
    }
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

1;
