package plinth

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// retryTransport is the one place where every request of the client, generated or raw, is sent. It gives each
// POST one Idempotency-Key (the caller's, or a new UUID v4) and keeps it for every attempt, retries connection
// errors, 409 idempotency_request_in_progress, 429 and 5xx with exponential backoff and jitter, honours
// Retry-After, and applies the timeout to each attempt. Bodies are read whole (responses are small JSON), so the
// per-attempt deadline can end as soon as the attempt does.
type retryTransport struct {
	base          http.RoundTripper
	maxRetries    int
	timeout       time.Duration
	minBackoff    time.Duration
	maxBackoff    time.Duration
	maxRetryAfter time.Duration
}

// callInfo travels in the request context from the layer to the transport and back.
type callInfo struct {
	idempotencyKey   string // caller-supplied; empty means "make one"
	noIdempotencyKey bool   // sandbox sign-up refuses the header
	retries          int
}

type callInfoKey struct{}

func infoFrom(ctx context.Context) *callInfo {
	if info, ok := ctx.Value(callInfoKey{}).(*callInfo); ok {
		return info
	}
	return &callInfo{}
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	info := infoFrom(req.Context())
	if req.Method == http.MethodPost && !info.noIdempotencyKey && req.Header.Get("Idempotency-Key") == "" {
		key := info.idempotencyKey
		if key == "" {
			key = newUUID()
		}
		req = req.Clone(req.Context()) // a RoundTripper must not modify the caller's request
		req.Header.Set("Idempotency-Key", key)
	}
	for attempt := 0; ; attempt++ {
		attemptReq := req.Clone(req.Context())
		if attempt > 0 && req.Body != nil && req.Body != http.NoBody {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			attemptReq.Body = body
		}
		ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
		resp, err := t.base.RoundTrip(attemptReq.WithContext(ctx))
		var body []byte
		if err == nil {
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		cancel()
		canRetry := attempt < t.maxRetries && (req.Body == nil || req.Body == http.NoBody || req.GetBody != nil)
		if err != nil {
			if req.Context().Err() != nil || !canRetry {
				return nil, err
			}
			if werr := sleep(req.Context(), t.backoff(attempt)); werr != nil {
				return nil, err
			}
			info.retries++
			continue
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		if canRetry && retryable(resp.StatusCode, body) {
			wait := t.backoff(attempt)
			if ra, ok := retryAfter(resp.Header.Get("Retry-After")); ok {
				if ra > t.maxRetryAfter {
					return resp, nil // the server asks for longer than we are willing to block: let the caller decide
				}
				wait = ra + jitter(100*time.Millisecond)
			}
			if err := sleep(req.Context(), wait); err != nil {
				return nil, err
			}
			info.retries++
			continue
		}
		return resp, nil
	}
}

func retryable(status int, body []byte) bool {
	switch {
	case status == http.StatusTooManyRequests, status >= 500:
		return true
	case status == http.StatusConflict:
		var p struct {
			Code string `json:"code"`
		}
		return json.Unmarshal(body, &p) == nil && p.Code == "idempotency_request_in_progress"
	}
	return false
}

// backoff is "full jitter" over an exponentially growing ceiling: uniform in [ceiling/2, ceiling].
func (t *retryTransport) backoff(attempt int) time.Duration {
	ceiling := t.minBackoff << attempt
	if ceiling > t.maxBackoff || ceiling <= 0 {
		ceiling = t.maxBackoff
	}
	return ceiling/2 + jitter(ceiling/2)
}

// retryAfter reads delta-seconds or an HTTP date.
func retryAfter(value string) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.Atoi(value); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second, true
	}
	if when, err := http.ParseTime(value); err == nil {
		d := time.Until(when)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

func jitter(max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	n, err := rand.Int(rand.Reader, big.NewInt(int64(max)))
	if err != nil {
		return 0
	}
	return time.Duration(n.Int64())
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// newUUID returns a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("plinth: no randomness for an Idempotency-Key: %v", err))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
