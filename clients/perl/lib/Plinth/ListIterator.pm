package Plinth::ListIterator;

# Walks a list across pages while has_more: from the newest, or from starting_after, towards older ones
# (starting_after = the last id of each page); from ending_before, towards newer ones (ending_before = the first id
# of each page; each page is still newest first). The API refuses both cursors at once, so only one is carried.
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
        if (@items && defined $self->{params}{ending_before}) {
            $self->{params}{ending_before} = $items[0]->id;
        } elsif (@items) {
            $self->{params}{starting_after} = $items[-1]->id;
        }
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
