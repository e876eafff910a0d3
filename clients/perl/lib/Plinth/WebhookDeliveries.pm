package Plinth::WebhookDeliveries;

# One event sent to one endpoint.

use strict;
use warnings;
use parent 'Plinth::Resource';

sub api_class { 'Plinth::Generated::WebhooksApi' }

# One attempt now, outside the schedule: the delivery.
sub retry {
    my ($self, $id, %opts) = @_;
    return $self->_call(\%opts, sub { $self->{api}->retry_webhook_delivery(id => $id) });
}

1;
