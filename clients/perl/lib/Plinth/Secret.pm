package Plinth::Secret;

# Answers that carry a secret shown only once: a new API key (Plinth::NewApiKey, ->key), a webhook endpoint as
# create and rotate_secret answer it (Plinth::WebhookEndpointWithSecret, ->secret) and a new account number
# (Plinth::AccountNumber, ->account_number). Each is the generated object,
# reblessed into a subclass whose secret reader returns a string, never undef: the server shows a secret once and
# never stores it, so the idempotent replay of such a request (->replayed true) carries null, and the reader dies
# with a Plinth::SecretUnavailable instead of handing back an undef to trip over later.

use strict;
use warnings;
use Plinth::Generated::Object::AccountNumber;
use Plinth::Generated::Object::NewApiKey;
use Plinth::Generated::Object::SandboxSignup;
use Plinth::Generated::Object::WebhookEndpointWithSecret;

# Makes the generated answer $object one of these, remembering whether it was a replay.
sub adopt {
    my ($class, $object, $replayed) = @_;
    bless $object, $class;
    $object->{_plinth_replayed} = $replayed ? 1 : 0;
    return $object;
}

# Whether this is the idempotent replay of an earlier answer (Idempotent-Replayed: true).
sub replayed { $_[0]{_plinth_replayed} }

sub _secret {
    my ($self, $field, @set) = @_;
    return $self->set($field, @set) if @set;    # the generated setter
    return $self->{$field} // die Plinth::SecretUnavailable->new($field);
}

package Plinth::NewApiKey;
our @ISA = ('Plinth::Secret', 'Plinth::Generated::Object::NewApiKey');

# The secret key, sk_test_… or sk_live_… (rk_test_… or rk_live_… when restricted): store it now.
sub key { my $self = shift; $self->_secret('key', @_) }

package Plinth::WebhookEndpointWithSecret;
our @ISA = ('Plinth::Secret', 'Plinth::Generated::Object::WebhookEndpointWithSecret');

# The signing secret, whsec_…: what Plinth::Webhook->verify needs.
sub secret { my $self = shift; $self->_secret('secret', @_) }

package Plinth::AccountNumber;
our @ISA = ('Plinth::Secret', 'Plinth::Generated::Object::AccountNumber');

# The 12 digits to give payers, with ->routing_number; later reads show only ->account_number_last4.
sub account_number { my $self = shift; $self->_secret('account_number', @_) }

package Plinth::SandboxSignup;
our @ISA = ('Plinth::Generated::Object::SandboxSignup');

# A sign-up: ->org_id, and ->api_key, a Plinth::NewApiKey.
sub adopt {
    my ($class, $signup, $replayed) = @_;
    Plinth::NewApiKey->adopt($signup->{api_key}, $replayed);
    return bless $signup, $class;
}

package Plinth::SecretUnavailable;

# What a secret's reader dies with on an idempotent replay. ->field names it; stringifies to a sentence.
use overload '""' => sub { $_[0]->message }, bool => sub { 1 }, fallback => 1;
use Scalar::Util qw(blessed);

sub new { my ($class, $field) = @_; bless { field => $field }, $class }
sub field { $_[0]{field} }

sub message {
    my ($self) = @_;
    return "plinth: $self->{field} is shown only in the first answer; this is an idempotent replay "
      . "(Idempotent-Replayed: true) of an earlier request, which carried it";
}

# The Plinth::SecretUnavailable in $@ (or in the argument), if that is what it is.
sub caught {
    my ($class, $error) = @_;
    $error = $@ unless @_ > 1;
    return blessed $error && $error->isa($class) ? $error : undef;
}

1;
