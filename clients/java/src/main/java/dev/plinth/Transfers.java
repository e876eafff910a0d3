package dev.plinth;

import dev.plinth.client.model.CreateTransferReversalRequest;
import dev.plinth.client.model.PostTransferRequest;
import dev.plinth.client.model.Transfer;
import dev.plinth.client.model.TransferReversal;

/**
 * Fintech transfers: {@code /v1/fintech/transfers}. The operations are generated ({@link TransfersOperations}); this
 * adds {@code post} and {@code reverse} of an amount alone.
 */
public final class Transfers extends TransfersOperations {
  Transfers(Plinth plinth) { super(plinth); }

  /** Settles {@code amount} (1 to the pending amount) of it; the rest goes back to the sender's available balance. */
  public Transfer post(String id, Long amount) { return post(id, amount, null); }

  public Transfer post(String id, Long amount, Plinth.RequestOptions options) {
    return post(id, new PostTransferRequest().amount(amount), options);
  }

  /** Reverses {@code amount} (1 to what remains) of it. */
  public TransferReversal reverse(String id, Long amount) {
    return reverse(id, new CreateTransferReversalRequest().amount(amount), null);
  }
}
