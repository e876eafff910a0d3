package dev.plinth;

import dev.plinth.client.api.FintechTransfersApi;
import dev.plinth.client.model.CreateTransferRequest;
import dev.plinth.client.model.Transfer;
import dev.plinth.client.model.TransferList;

/** Fintech transfers: {@code /v1/fintech/transfers}. */
public final class Transfers {
  private final Plinth plinth;
  private final FintechTransfersApi api;

  Transfers(Plinth plinth) {
    this.plinth = plinth;
    this.api = new FintechTransfersApi(plinth.apiClient());
  }

  /** {@code createTransfer}, synchronous: the {@code posted} transfer. One Idempotency-Key, so money moves once. */
  public Transfer create(CreateTransferRequest params) { return create(params, null); }

  public Transfer create(CreateTransferRequest params, Plinth.RequestOptions options) {
    return plinth.call(() -> api.createTransferWithHttpInfo(params, Plinth.key(options)));
  }

  /** {@code retrieveTransfer}. */
  public Transfer retrieve(String id) {
    return plinth.call(() -> api.retrieveTransferWithHttpInfo(id));
  }

  /** {@code listTransfers}: every transfer, newest first, a page at a time. */
  public Iterable<Transfer> list() { return list(null, null); }

  public Iterable<Transfer> list(ListParams page) { return list(null, page); }

  /** Only the transfers from or to {@code accountId} (null: all). */
  public Iterable<Transfer> list(String accountId, ListParams page) {
    return ListParams.paginate(page, cursor -> listPage(accountId, cursor), TransferList::getData,
        TransferList::getHasMore, Transfer::getId);
  }

  /** {@code listTransfers}: one page. */
  public TransferList listPage() { return listPage(null, null); }

  public TransferList listPage(ListParams page) { return listPage(null, page); }

  public TransferList listPage(String accountId, ListParams page) {
    ListParams p = ListParams.orDefault(page);
    return plinth.call(() -> api.listTransfersWithHttpInfo(accountId, p.getLimit(), p.getStartingAfter(),
        p.getEndingBefore()));
  }
}
