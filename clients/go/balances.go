package plinth

import (
	"context"
	"net/http"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// An account's balances at a moment and its statements (docs/api.md#balances-over-time-and-statements). Times are
// the API's text, as CreatedFilter's: "2026-11-24T09:30Z" names that whole minute, RFC 3339 with an offset such as
// t.Format(time.RFC3339Nano) an instant. The generated code files both with transactions (their tag).

// BalancesParams says when Accounts.Balances reads the balances.
type BalancesParams struct {
	At string // the moment, inclusive (a minute means its end); "" is now
}

// Balances returns the balances as they stood at params.At: the current balance after the last transaction at or
// before it, and the available balance, less what pending transfers held then.
func (s *AccountsService) Balances(ctx context.Context, id string, params BalancesParams, opts ...RequestOption) (*plinthapi.AccountBalances, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.AccountBalances, *http.Response, error) {
		req := s.c.api.FintechTransactionsAPI.RetrieveAccountBalances(ctx, id)
		if params.At != "" {
			req = req.At(params.At)
		}
		return req.Execute()
	})
}

// StatementParams is the period of Accounts.Statement, [From, To): a minute means its start; at most 366 days; a To
// after now is read as now. Both are required.
type StatementParams struct {
	From string
	To   string
}

// Statement returns the opening and closing balances of the period and its credits and debits:
// ClosingBalance = OpeningBalance + Credits.Amount − Debits.Amount.
func (s *AccountsService) Statement(ctx context.Context, id string, params StatementParams, opts ...RequestOption) (*plinthapi.AccountStatement, *Response, error) {
	return call(s.c, ctx, opts, func(ctx context.Context) (*plinthapi.AccountStatement, *http.Response, error) {
		return s.c.api.FintechTransactionsAPI.RetrieveAccountStatement(ctx, id).From(params.From).To(params.To).Execute()
	})
}
