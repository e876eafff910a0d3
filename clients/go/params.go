package plinth

import (
	"errors"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// The request bodies the generated request models do not state well enough, by hand: a metadata change either sets
// keys or clears them all. The generated methods (zz_operations.go) take <Name>Params instead of the generated
// <Name>Request wherever a type here has a request method.

// UpdateTransferParams says what Transfers.Update changes: only metadata.
type UpdateTransferParams struct {
	Metadata      map[string]string // keys to set; a key given "" is removed; keys not named stay as they are
	ClearMetadata bool              // remove every key instead (Metadata must then be empty)
}

func (p UpdateTransferParams) request() (plinthapi.UpdateTransferRequest, error) {
	metadata, err := metadataChange(p.Metadata, p.ClearMetadata)
	return plinthapi.UpdateTransferRequest{Metadata: metadata}, err
}

// UpdateAccountParams says what Accounts.Update changes: the metadata, the nickname or both; what is not given stays.
type UpdateAccountParams struct {
	Metadata      map[string]string // keys to set; a key given "" is removed; keys not named stay as they are
	ClearMetadata bool              // remove every key instead (Metadata must then be empty)
	Nickname      *string           // a label for people, plinth.String("Payroll"); String("") removes it; nil leaves it
}

func (p UpdateAccountParams) request() (plinthapi.UpdateAccountRequest, error) {
	body := plinthapi.UpdateAccountRequest{Nickname: p.Nickname}
	if p.Metadata != nil || p.ClearMetadata || p.Nickname == nil {
		metadata, err := metadataChange(p.Metadata, p.ClearMetadata)
		if err != nil {
			return body, err
		}
		body.Metadata = &metadata
	}
	return body, nil
}

// String returns a pointer to s, for an optional text such as UpdateAccountParams.Nickname.
func String(s string) *string { return &s }

// metadataChange is the body's metadata of an account's or a transfer's update.
func metadataChange(set map[string]string, clear bool) (plinthapi.UpdateWebhookEndpointRequestMetadata, error) {
	if clear && len(set) > 0 {
		return plinthapi.UpdateWebhookEndpointRequestMetadata{}, errors.New("plinth: ClearMetadata removes every key and cannot set keys in the same update; set them in a second one")
	}
	if clear {
		return *ClearMetadata(), nil
	}
	return *SetMetadata(set), nil
}

// The names these types had before the layer was generated (zz_operations.go names them after the operation).
type (
	AccountListParams     = ListAccountsParams
	TransferListParams    = ListTransfersParams
	TransactionListParams = ListAccountTransactionsParams
	EventListParams       = ListEventsParams
	DeliveryListParams    = ListWebhookEndpointDeliveriesParams
	RequestListParams     = ListRequestsParams
	BalancesParams        = RetrieveAccountBalancesParams
	StatementParams       = RetrieveAccountStatementParams
	TransferUpdateParams  = UpdateTransferParams
	AccountUpdateParams   = UpdateAccountParams
)
