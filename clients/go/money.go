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
func (s *TransactionsService) ListPage(ctx context.Context, accountID string, p TransactionListParams, opts ...RequestOption) (*plinthapi.TransactionList, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.TransactionList, *http.Response, error) {
		req := withPage(s.c.api.FintechTransactionsAPI.ListAccountTransactions(ctx, accountID), p.ListParams)
		if !p.Created.isZero() {
			req = req.Created(p.Created.forAccounts())
		}
		return req.Execute()
	})
}

// List iterates over every transaction of an account (Created: only within those bounds), newest first,
// fetching pages as needed.
func (s *TransactionsService) List(ctx context.Context, accountID string, p TransactionListParams) iter.Seq2[*plinthapi.Transaction, error] {
	return paginate(ctx, p.ListParams, func(ctx context.Context, lp ListParams) ([]plinthapi.Transaction, bool, error) {
		filters := p // every filter, on every page
		filters.ListParams = lp
		page, _, err := s.ListPage(ctx, accountID, filters)
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

// ExpireTransfer expires a pending transfer now, as the expiry sweep would at its ExpiresAt: expired, the hold
// released, nothing moved. For testing what an integration does when a hold lapses, without waiting.
func (s *SandboxService) ExpireTransfer(ctx context.Context, id string, opts ...RequestOption) (*plinthapi.Transfer, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.Transfer, *http.Response, error) {
		return s.c.api.FintechTransactionsAPI.SimulateTransferExpiry(ctx, id).Execute()
	})
}
