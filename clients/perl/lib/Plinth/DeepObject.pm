package Plinth::DeepObject;

# Query parameters given as hashrefs (the created and metadata filters) are sent as OpenAPI's deepObject,
# created[gte]=…&metadata[order]=A-1, as the API reads them. The generated call_api hands every query value to
# URI::Query, which refuses a hashref, and does so inside an eval: the whole query string would silently be dropped,
# and a filtered list would answer unfiltered. So loading this module wraps Plinth::Generated::ApiClient::call_api
# once, flattening hashref values first and changing nothing else. It wraps the generated class rather than
# subclassing it because every generated API class accepts only an object of exactly that class (`ref eq`), and
# Plinth::Generated::*Api->new($plinth->api_client) must keep working; generated APIs built that way send filters
# correctly too.

use strict;
use warnings;
use Plinth::Generated::ApiClient;

my $generated = \&Plinth::Generated::ApiClient::call_api;
{
    no warnings 'redefine';
    *Plinth::Generated::ApiClient::call_api = sub {
        my ($self, $resource_path, $method, $query_params, @rest) = @_;
        return $generated->($self, $resource_path, $method, flatten($query_params), @rest);
    };
}

# { created => { gte => 'x' }, limit => 2 } → { 'created[gte]' => 'x', limit => 2 }
sub flatten {
    my ($query_params) = @_;
    my %flat;
    for my $name (keys %{ $query_params // {} }) {
        my $value = $query_params->{$name};
        if (ref $value eq 'HASH') {
            $flat{"${name}[$_]"} = $value->{$_} for keys %$value;
        } else {
            $flat{$name} = $value;
        }
    }
    return \%flat;
}

1;
