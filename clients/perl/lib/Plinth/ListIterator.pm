package Plinth::ListIterator;

# Walks a list across pages, newest first, with starting_after = the last id while has_more:
#   my $it = $plinth->accounts->list(limit => 10);
#   while (my $account = $it->next) { ... }

use strict;
use warnings;

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

1;
