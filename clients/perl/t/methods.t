#!/usr/bin/env perl
# methods.json names the layer's method(s) for each operation of the SDK view (clients/openapi.sdk.json); the
# coverage command reads it. This test keeps it honest: every name it lists is a method the layer defines (not one
# every Perl object has, like can or isa), every public method of a resource is listed, and every operationId it
# names exists.
use strict;
use warnings;
use FindBin;
use lib "$FindBin::Bin/../lib";
use B ();
use JSON ();
use Test::More;
use Plinth;

sub slurp { my ($path) = @_; open my $fh, '<:raw', $path or die "$path: $!"; local $/; JSON::decode_json(<$fh>) }
my $manifest = slurp("$FindBin::Bin/../methods.json");
my $plinth = Plinth->new(api_key => 'sk_test_manifest', base_url => 'http://127.0.0.1:9');

# The package a code reference was compiled in.
sub home { B::svref_2object($_[0])->GV->STASH->NAME }

# "accounts.list" → $plinth->accounts's list; "Plinth->sign_up" → a class method.
sub resolve {
    my ($name) = @_;
    return Plinth->can($1) if $name =~ /^Plinth->(\w+)$/;
    my @path = split /\./, $name;
    my $method = pop @path;
    my $target = $plinth;
    for my $reader (@path) {
        return undef unless $target->can($reader);
        $target = $target->$reader;
    }
    return $target->can($method);
}

my %listed;
for my $operation (sort keys %$manifest) {
    my @names = @{ $manifest->{$operation} };
    ok(@names, "$operation names a method");
    for my $name (@names) {
        $listed{$name} = 1;
        my $code = resolve($name);
        ok($code && home($code) =~ /^Plinth(::|$)/, "$operation: $name is a method of the layer");
    }
}

my @resources = Plinth->resources;
cmp_ok(scalar @resources, '>=', 8, 'the client has its resources');
for my $reader (@resources) {
    my $class = ref $plinth->$reader;
    no strict 'refs';
    for my $method (sort grep { /^[a-z]/ && defined &{"${class}::$_"} } keys %{"${class}::"}) {
        next if $method =~ /^(new|api|api_class)$/;    # the plumbing every resource has
        # The event stream is no operation of the SDK view (Server-Sent Events are hand-written transport), so the
        # manifest cannot name it.
        next if "$reader.$method" eq 'events.stream';
        ok($listed{"$reader.$method"}, "$class->$method is in methods.json");
    }
}

# The SDK view is beside the client in the repository, not in the distribution.
SKIP: {
    my $path = "$FindBin::Bin/../../openapi.sdk.json";
    skip 'no clients/openapi.sdk.json here (an installed distribution)', 1 unless -f $path;
    my $spec = slurp($path);
    my %known = map { $_->{operationId} => 1 } grep { ref eq 'HASH' && $_->{operationId} } map { values %$_ } values %{ $spec->{paths} };
    is_deeply([ grep { !$known{$_} } sort keys %$manifest ], [], 'every operationId in methods.json is in the SDK view');
}

done_testing;
