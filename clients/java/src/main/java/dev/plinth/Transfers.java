package dev.plinth;

import dev.plinth.client.api.FintechTransfersApi;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.CreateTransferReversalRequest;
import dev.plinth.client.model.PostTransferRequest;
import dev.plinth.client.model.Transfer;
import dev.plinth.client.model.TransferList;
import dev.plinth.client.model.TransferReversal;
import dev.plinth.client.model.TransferReversalList;
import dev.plinth.client.model.UpdateTransferRequest;
import java.util.Map;

/** Fintech transfers: {@code /v1/fintech/transfers}. */
public final class Transfers {
  private final Plinth plinth;
  private final FintechTransfersApi api;

  Transfers(Plinth plinth) {
    this.plinth = plinth;
    this.api = new FintechTransfersApi(plinth.apiClient());
  }

  /**
   * {@code createTransfer}: {@code posted} at once, or, with {@code pending(true)}, {@code pending}: the amount is held
   * on the sender's available balance until {@link #post}, {@link #voidTransfer} or the expiry
   * ({@code expiresInSeconds}, 60–2592000, default 7 days). One Idempotency-Key, so money moves once.
   */
  public Transfer create(CreateTransferRequest params) { return create(params, null); }

  public Transfer create(CreateTransferRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.createTransferWithHttpInfo(params, Plinth.key(options)));
  }

  /** {@code retrieveTransfer}. */
  public Transfer retrieve(String id) {
    return plinth.call(() -> api.retrieveTransferWithHttpInfo(id));
  }

  /** {@code listTransfers}: every transfer, newest first, a page at a time. */
  public Iterable<Transfer> list() { return list((TransferFilter) null, null); }

  public Iterable<Transfer> list(ListParams page) { return list((TransferFilter) null, page); }

  /** Only the transfers from or to {@code accountId} (null: all). */
  public Iterable<Transfer> list(String accountId, ListParams page) {
    return list(new TransferFilter().accountId(accountId), page);
  }

  public Iterable<Transfer> list(TransferFilter filter) { return list(filter, null); }

  /** Only the transfers {@code filter} admits (account, status, created, metadata), on every page. */
  public Iterable<Transfer> list(TransferFilter filter, ListParams page) {
    return ListParams.paginate(page, cursor -> listPage(filter, cursor), TransferList::getData,
        TransferList::getHasMore, Transfer::getId);
  }

  /** {@code listTransfers}: one page. */
  public TransferList listPage() { return listPage((TransferFilter) null, null); }

  public TransferList listPage(ListParams page) { return listPage((TransferFilter) null, page); }

  public TransferList listPage(String accountId, ListParams page) {
    return listPage(new TransferFilter().accountId(accountId), page);
  }

  public TransferList listPage(TransferFilter filter, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    TransferFilter f = TransferFilter.orDefault(filter);
    return plinth.call(() -> api.listTransfersWithHttpInfo(f.getAccountId(), f.getStatus(),
        Created.forLists(f.getCreated()), Metadata.filter(f.getMetadata()), p.getLimit(), p.getStartingAfter(),
        p.getEndingBefore()));
  }

  /**
   * {@code updateTransfer}: sets each key of {@code metadata} to its value, and removes each key given {@code ""};
   * keys not named stay as they are. Any status.
   */
  public Transfer update(String id, Map<String, String> metadata) { return update(id, metadata, null); }

  public Transfer update(String id, Map<String, String> metadata, Plinth.RequestOptions options) {
    UpdateTransferRequest body = new UpdateTransferRequest().metadata(Metadata.changes(metadata));
    return plinth.call(() -> api.updateTransferWithHttpInfo(id, body, Plinth.key(options)));
  }

  /** {@code updateTransfer} with {@code "metadata": ""}: removes every key. */
  public Transfer clearMetadata(String id) { return clearMetadata(id, null); }

  public Transfer clearMetadata(String id, Plinth.RequestOptions options) {
    UpdateTransferRequest body = new UpdateTransferRequest().metadata(Metadata.clearAll());
    return plinth.call(() -> api.updateTransferWithHttpInfo(id, body, Plinth.key(options)));
  }

  /**
   * {@code postTransfer}: settles a pending transfer, all of it: {@code posted}, {@code posted_amount} its amount.
   * 409 {@code transfer_not_pending} when it is not pending, {@code transfer_expired} after its expiry.
   */
  public Transfer post(String id) { return post(id, null, null); }

  /** Settles {@code amount} (1 to the pending amount) of it; the rest goes back to the sender's available balance. */
  public Transfer post(String id, Long amount) { return post(id, amount, null); }

  public Transfer post(String id, Long amount, Plinth.RequestOptions options) {
    // Always a body: the generated call would send a null one as the JSON text `null`, which the server refuses.
    PostTransferRequest body = new PostTransferRequest().amount(amount);
    return plinth.call(() -> api.postTransferWithHttpInfo(id, Plinth.key(options), body));
  }

  /**
   * {@code voidTransfer} ({@code void} is a Java keyword): cancels a pending transfer, {@code voided}, its hold
   * released and no money moved. 409 {@code transfer_not_pending} or {@code transfer_expired} as for {@link #post}.
   */
  public Transfer voidTransfer(String id) { return voidTransfer(id, null); }

  public Transfer voidTransfer(String id, Plinth.RequestOptions options) {
    return plinth.call(() -> api.voidTransferWithHttpInfo(id, Plinth.key(options)));
  }

  /**
   * {@code createTransferReversal}: moves money of a {@code posted} transfer back, all that remains unreversed
   * ({@code posted_amount} − {@code amount_reversed}). 409 {@code transfer_not_reversible} when it is not posted or
   * is fully reversed. One Idempotency-Key, so it acts once.
   */
  public TransferReversal reverse(String id) { return reverse(id, new CreateTransferReversalRequest(), null); }

  /** Reverses {@code amount} (1 to what remains) of it. */
  public TransferReversal reverse(String id, Long amount) {
    return reverse(id, new CreateTransferReversalRequest().amount(amount), null);
  }

  /** With an amount, a description and metadata: {@code new CreateTransferReversalRequest().amount(1000L)}. */
  public TransferReversal reverse(String id, CreateTransferReversalRequest params) { return reverse(id, params, null); }

  public TransferReversal reverse(String id, CreateTransferReversalRequest params, Plinth.RequestOptions options) {
    // Always a body: the generated call would send a null one as the JSON text `null`, which the server refuses.
    CreateTransferReversalRequest body = params == null ? new CreateTransferReversalRequest() : params;
    return plinth.call(() -> api.createTransferReversalWithHttpInfo(id, Plinth.key(options), body));
  }

  /** {@code listTransferReversals}: every reversal of one transfer, newest first, a page at a time. */
  public Iterable<TransferReversal> listReversals(String id) { return listReversals(id, null); }

  public Iterable<TransferReversal> listReversals(String id, ListParams page) {
    return ListParams.paginate(page, cursor -> listReversalsPage(id, cursor), TransferReversalList::getData,
        TransferReversalList::getHasMore, TransferReversal::getId);
  }

  /** {@code listTransferReversals}: one page. */
  public TransferReversalList listReversalsPage(String id) { return listReversalsPage(id, null); }

  public TransferReversalList listReversalsPage(String id, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    return plinth.call(() -> api.listTransferReversalsWithHttpInfo(id, p.getLimit(), p.getStartingAfter(),
        p.getEndingBefore()));
  }

  /** {@code retrieveTransferReversal}: one reversal of the transfer {@code id}. */
  public TransferReversal retrieveReversal(String id, String reversalId) {
    return plinth.call(() -> api.retrieveTransferReversalWithHttpInfo(id, reversalId));
  }
}
