package plinth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Error is the one error type for every problem the server answers (RFC 9457). Code is an open string: switch
// on the codes you handle and treat the others by Status.
type Error struct {
	Status    int
	Code      string
	Param     string
	Errors    []ErrorItem
	RequestID string
	Type      string
	Title     string
	Detail    string
	Body      []byte    // the raw response body
	Response  *Response // headers, retries
}

// ErrorItem is one offending input of a request that had several.
type ErrorItem struct {
	Code   string `json:"code"`
	Param  string `json:"param,omitempty"`
	Detail string `json:"detail"`
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "plinth: %d %s", e.Status, e.Code)
	if e.Detail != "" {
		fmt.Fprintf(&b, ": %s", e.Detail)
	}
	if e.Param != "" {
		fmt.Fprintf(&b, " (param %s)", e.Param)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [%s]", e.RequestID)
	}
	return b.String()
}

// AsError returns the *Error inside err, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func newError(resp *http.Response, body []byte, meta *Response) *Error {
	// Decoded by hand, loosely: whatever the server adds (fields, codes) must not stop the error from surfacing.
	var p struct {
		Type      string      `json:"type"`
		Title     string      `json:"title"`
		Status    int         `json:"status"`
		Detail    string      `json:"detail"`
		Code      string      `json:"code"`
		Param     string      `json:"param"`
		Errors    []ErrorItem `json:"errors"`
		RequestID string      `json:"request_id"`
	}
	_ = json.Unmarshal(body, &p)
	e := &Error{Status: resp.StatusCode, Code: p.Code, Param: p.Param, Errors: p.Errors, RequestID: p.RequestID,
		Type: p.Type, Title: p.Title, Detail: p.Detail, Body: body, Response: meta}
	if e.RequestID == "" {
		e.RequestID = resp.Header.Get("Request-Id")
	}
	if e.Detail == "" && e.Code == "" {
		e.Detail = strings.TrimSpace(string(body))
	}
	return e
}
