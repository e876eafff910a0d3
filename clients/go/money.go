package plinth

import (
	"context"
	"iter"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// TransactionsService: an account's ledger lines, /v1/fintech/accounts/{id}/transactions and
// /v1/fintech/transactions/{id}.
type TransactionsService struct{ c *Client }

// ListPage fetches one page of an account's transactions, newest first.
func (s *TransactionsService) ListPage(ctx context.Context, accountID string, p ListParams, opts ...RequestOption) (*plinthapi.TransactionList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.TransactionList, *http.Response, error) {
		return withPage(s.c.api.FintechTransactionsAPI.ListAccountTransactions(ctx, accountID), p).Execute()
	})
}

// List iterates over every transaction of an account, newest first, fetching pages as needed.
func (s *TransactionsService) List(ctx context.Context, accountID string, p ListParams) iter.Seq2[*plinthapi.Transaction, error] {
	return paginate(ctx, p, func(ctx context.Context, lp ListParams) ([]plinthapi.Transaction, bool, error) {
		page, _, err := s.ListPage(ctx, accountID, lp)
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(t *plinthapi.Transaction) string { return t.Id })
}

// Retrieve fetches one transaction by id (txn_…).
func (s *TransactionsService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Transaction, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transaction, *http.Response, error) {
		return s.c.api.FintechTransactionsAPI.RetrieveTransaction(ctx, id).Execute()
	})
}

// TransfersService: /v1/fintech/transfers.
type TransfersService struct{ c *Client }

// Create moves money between two accounts, synchronously: the result is the posted transfer. A POST: one
// Idempotency-Key for all its attempts, so the money moves once.
func (s *TransfersService) Create(ctx context.Context, params plinthapi.CreateTransferRequest, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.CreateTransfer(ctx).CreateTransferRequest(params).Execute()
	})
}

// Retrieve fetches one transfer by id (tr_…).
func (s *TransfersService) Retrieve(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransfersAPI.RetrieveTransfer(ctx, id).Execute()
	})
}

// ListPage fetches one page of transfers, newest first.
func (s *TransfersService) ListPage(ctx context.Context, p TransferListParams, opts ...RequestOption) (*plinthapi.TransferList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.TransferList, *http.Response, error) {
		req := withPage(s.c.api.FintechTransfersAPI.ListTransfers(ctx), p.ListParams)
		if p.AccountID != "" {
			req = req.AccountId(p.AccountID)
		}
		return req.Execute()
	})
}

// List iterates over every transfer (AccountID: only those from or to it), newest first.
func (s *TransfersService) List(ctx context.Context, p TransferListParams) iter.Seq2[*plinthapi.Transfer, error] {
	return paginate(ctx, p.ListParams, func(ctx context.Context, lp ListParams) ([]plinthapi.Transfer, bool, error) {
		page, _, err := s.ListPage(ctx, TransferListParams{ListParams: lp, AccountID: p.AccountID})
		if err != nil {
			return nil, false, err
		}
		return page.Data, page.HasMore, nil
	}, func(t *plinthapi.Transfer) string { return t.Id })
}

// SandboxService: simulations that only sandbox keys may run.
type SandboxService struct{ c *Client }

// Deposit credits an account from nowhere, for testing; the result is the credit transaction.
func (s *SandboxService) Deposit(ctx context.Context, accountID string, params plinthapi.SimulateDepositRequest, opts ...RequestOption) (*plinthapi.Transaction, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transaction, *http.Response, error) {
		return s.c.api.FintechTransactionsAPI.SimulateDeposit(ctx, accountID).SimulateDepositRequest(params).Execute()
	})
}

// Withdraw debits an account to nowhere, for testing; the result is the debit transaction (a negative amount).
func (s *SandboxService) Withdraw(ctx context.Context, accountID string, params plinthapi.SimulateWithdrawalRequest, opts ...RequestOption) (*plinthapi.Transaction, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transaction, *http.Response, error) {
		return s.c.api.FintechTransactionsAPI.SimulateWithdrawal(ctx, accountID).SimulateWithdrawalRequest(params).Execute()
	})
}
