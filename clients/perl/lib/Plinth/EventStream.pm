package Plinth::EventStream;

# The live event stream (GET /v1/events/stream, Server-Sent Events; docs/api.md#the-live-event-stream) that resumes
# by itself: $plinth->events->stream. Hand-written transport on a plain LWP::UserAgent (no retries, and its timeout
# is the time a connection may stay silent: the server writes a comment every 15 s). Each event carries its
# sequence, gap-free per organisation and mode; after any disconnection (a network failure, the server restarting or
# ending the stream) it reconnects with Last-Event-ID set to the last sequence it saw, so every event comes once, in
# order. A refusal that waiting will not change (a revoked key: 401; a bad parameter: 400) dies with a
# Plinth::Error; 429 and 5xx are waited out (Retry-After, else backoff).
#
#   my $stream = $plinth->events->stream(type => 'fintech.transfer.posted');
#   $stream->each(sub {
#       my ($event) = @_;
#       print $event->sequence, ' ', $event->type, "\n";
#       $stream->stop if $event->sequence >= 100;    # each returns once this callback does
#   });

use strict;
use warnings;
use JSON ();
use HTTP::Request;
use LWP::UserAgent;
use Time::HiRes ();
use URI;
use Plinth::Error;
use Plinth::EventDecoder;

my $FIRST_DELAY = 0.25;
my $MAX_DELAY   = 8;
my $READ_TIMEOUT = 45;
my $STOPPED = "plinth: the event stream was stopped\n";

# new(base_url => …, api_key => …, type => …, after => …, on_gap => sub { my ($from, $to) = @_ })
sub new {
    my ($class, %args) = @_;
    my $url = URI->new(($args{base_url} =~ s{/+$}{}r) . '/v1/events/stream');
    $url->query_form(type => $args{type}) if defined $args{type};
    return bless {
        url         => $url,
        api_key     => $args{api_key},
        last        => $args{after},
        on_gap      => $args{on_gap},
        first_delay => $FIRST_DELAY,
        stopped     => 0,
    }, $class;
}

# The last sequence seen: where the stream would resume.
sub last_sequence { $_[0]{last} }

# Ends the stream: each returns once the callback that called it does (from another place: before the next event).
sub stop { $_[0]{stopped} = 1 }

# Calls $callback->($event) for each event (a Plinth::Generated::Object::Event) as it happens, until stop; dies with
# what the callback died with, or with a Plinth::Error for a refusal.
sub each {
    my ($self, $callback) = @_;
    $self->{stopped} = 0;
    my $ua = LWP::UserAgent->new(timeout => $READ_TIMEOUT, agent => 'plinth-perl', max_redirect => 0);
    my $delay = $self->{first_delay};
    until ($self->{stopped}) {
        my $req = HTTP::Request->new(GET => $self->{url});
        $req->header(Accept => 'text/event-stream');
        $req->header(Authorization => "Bearer $self->{api_key}") if $self->{api_key};
        $req->header('Last-Event-ID' => $self->{last}) if defined $self->{last};
        my ($opened, $failure) = (0, undef);
        my %parse = (buffer => '', message => {});
        # LWP calls this only for a 2xx answer, with each chunk as it arrives.
        my $resp = $ua->request($req, sub {
            my ($chunk) = @_;
            $opened = 1;
            eval { $self->_feed(\%parse, $chunk, $callback); 1 } or do { $failure = $@ if $@ ne $STOPPED };
            die $STOPPED if $self->{stopped} || defined $failure;
        });
        die $failure if defined $failure;
        return if $self->{stopped};
        my $wait;
        if ($opened) {
            $delay = $self->{first_delay};
        } else {
            my $code = $resp->code;
            my $internal = ($resp->header('Client-Warning') // '') eq 'Internal response';    # refused, unreachable
            if (!$internal && $code != 429 && $code < 500) {
                die Plinth::Error->from_response($resp);
            }
            my $after = $resp->header('Retry-After') // '';
            $wait = $after if !$internal && $after =~ /^\d{1,5}$/ && $after > 0;
        }
        if (defined $wait) {
            Time::HiRes::sleep($wait);
        } else {
            Time::HiRes::sleep($delay);
            $delay = $delay * 2 > $MAX_DELAY ? $MAX_DELAY : $delay * 2;
        }
    }
    return;
}

# Parses Server-Sent Events as they arrive: lines end with \n, \r\n or \r; a line starting with ':' is a comment;
# several data lines join with \n; retry sets the reconnection delay.
sub _feed {
    my ($self, $parse, $chunk, $callback) = @_;
    $parse->{buffer} .= $chunk;
    while ($parse->{buffer} =~ s/\A([^\r\n]*)(?:\r\n|\r(?=[^\n])|\n)//) {
        my $line = $1;
        utf8::decode($line);
        if ($line eq '') {
            my $message = $parse->{message};
            $parse->{message} = {};
            $self->_dispatch($message, $callback);
            die $STOPPED if $self->{stopped};
            next;
        }
        next if $line =~ /^:/;
        my ($name, $value) = $line =~ /:/ ? split(/:/, $line, 2) : ($line, '');
        $value =~ s/^ //;
        if ($name eq 'id') { $parse->{message}{id} = $value unless $value =~ /\0/ }
        elsif ($name eq 'event') { $parse->{message}{event} = $value }
        elsif ($name eq 'data') {
            $parse->{message}{data} = defined $parse->{message}{data} ? "$parse->{message}{data}\n$value" : $value;
        }
        elsif ($name eq 'retry') { $self->{first_delay} = $value / 1000 if $value =~ /^\d{1,9}$/ }
    }
    return;
}

sub _dispatch {
    my ($self, $message, $callback) = @_;
    $self->{last} = 0 + $message->{id} if defined $message->{id} && $message->{id} =~ /^\d{1,18}$/;
    return unless defined $message->{data};
    my $json = JSON->new->utf8(0);
    if (($message->{event} // '') eq 'gap') {
        my $gone = $json->decode($message->{data});
        $self->{on_gap}->($gone->{from}, $gone->{to}) if $self->{on_gap};
        return;
    }
    $callback->(Plinth::EventDecoder::event($json->decode($message->{data})));
    return;
}

1;

# The resource's method, beside the generated ones of Plinth::Events (lib/Plinth/Events.pm): the stream is transport,
# kept by hand. stream(type => …, after => <sequence>, on_gap => sub { my ($from, $to) = @_ }), a Plinth::EventStream
# (->each(sub { my ($event) = @_; … }), ->stop), resuming by itself. after => 0: every event still kept; without it,
# from the next one.
package Plinth::Events;

sub stream {
    my ($self, %params) = @_;
    my $plinth = $self->{plinth};
    return Plinth::EventStream->new(%params, base_url => $plinth->{base_url}, api_key => $plinth->{api_key});
}

1;
