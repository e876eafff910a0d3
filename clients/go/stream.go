package plinth

// The live event stream (GET /v1/events/stream, Server-Sent Events; docs/api.md#the-live-event-stream) as an
// iterator that resumes by itself. Hand-written transport: the generated API has no streaming response.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	plinthapi "github.com/plinth-dev/plinth-go/generated"
)

// StreamParams selects what Events.Stream yields.
type StreamParams struct {
	// Type yields only events of this type (e.g. "fintech.account.created").
	Type string
	// After starts after this sequence (0: every event still kept); nil starts with the next event.
	After *int64
	// OnGap, when set, is called with the first and last sequence of events the server no longer keeps, when the
	// resume point is older than its retention (an `event: gap`). The stream then carries on from the oldest kept.
	OnGap func(from, to int64)
}

const (
	streamFirstDelay = 250 * time.Millisecond
	streamMaxDelay   = 8 * time.Second
	// The server writes a comment every 15 s: a connection silent for much longer than that is dead.
	streamReadTimeout = 45 * time.Second
)

// sseMessage is one Server-Sent Events message; hasID and hasData tell a field sent empty from one not sent.
type sseMessage struct {
	id, event, data string
	hasID, hasData  bool
	retry           time.Duration // 0: no retry field
}

// readMessages reads messages from r until it ends or fails (whatever ends the stream is returned; io.EOF for a
// clean end), calling seen at each line end. It follows the Server-Sent Events format: lines end with \n, \r\n or \r; a line starting with ':'
// is a comment; several data lines join with \n; a field without a colon has an empty value.
func readMessages(r io.Reader, seen func(), emit func(sseMessage) bool) error {
	br := bufio.NewReader(r)
	var m sseMessage
	var data []string
	pendingCR := false
	var line strings.Builder
	dispatch := func() bool {
		defer func() { m, data = sseMessage{}, nil }()
		if m.hasData {
			m.data = strings.Join(data, "\n")
		}
		if !m.hasData && !m.hasID {
			return true
		}
		return emit(m)
	}
	field := func(text string) bool {
		if text == "" {
			return dispatch()
		}
		if strings.HasPrefix(text, ":") {
			return true
		}
		name, value, _ := strings.Cut(text, ":")
		value = strings.TrimPrefix(value, " ")
		switch name {
		case "id":
			if !strings.ContainsRune(value, 0) {
				m.id, m.hasID = value, true
			}
		case "event":
			m.event = value
		case "data":
			data, m.hasData = append(data, value), true
		case "retry":
			if ms, err := strconv.ParseUint(value, 10, 31); err == nil {
				m.retry = time.Duration(ms) * time.Millisecond
			}
		}
		return true
	}
	for {
		b, err := br.ReadByte()
		if err != nil {
			return err
		}
		if pendingCR {
			pendingCR = false
			if b == '\n' {
				continue
			}
		}
		if b == '\r' || b == '\n' {
			seen() // a line arrived: the connection is alive
			pendingCR = b == '\r'
			text := line.String()
			line.Reset()
			if !field(text) {
				return nil
			}
			continue
		}
		line.WriteByte(b)
	}
}

// Stream iterates over the live events of the key's organisation and mode, in sequence order, as they happen.
// After any disconnection (a network failure, the server restarting or ending the stream) it reconnects by itself
// with Last-Event-ID set to the last sequence it saw, so every event comes once, in order. Stop it with break or
// by cancelling ctx: the loop then ends with no error. A refusal that waiting will not change (a revoked key: 401;
// a bad parameter: 400) is yielded once as an *Error and ends the loop; 429 and 5xx are waited out (Retry-After,
// else backoff).
//
//	for event, err := range client.Events.Stream(ctx, plinth.StreamParams{Type: "fintech.transfer.posted"}) {
//		if err != nil { return err }
//		fmt.Println(event.Sequence, event.Type)
//	}
func (s *EventsService) Stream(ctx context.Context, p StreamParams) iter.Seq2[*plinthapi.Event, error] {
	return func(yield func(*plinthapi.Event, error) bool) {
		base := http.DefaultTransport
		if t, ok := s.c.http.Transport.(*retryTransport); ok && t.base != nil {
			base = t.base
		}
		httpClient := &http.Client{Transport: base} // no overall timeout: the stream lives as long as the caller wants
		target := s.c.baseURL + "/v1/events/stream"
		if p.Type != "" {
			target += "?" + url.Values{"type": {p.Type}}.Encode()
		}
		last := p.After
		first := streamFirstDelay
		delay := first
		for ctx.Err() == nil {
			wait, err, stop := s.streamOnce(ctx, httpClient, target, &last, &first, &delay, p.OnGap, yield)
			if stop {
				return
			}
			if err != nil {
				yield(nil, err)
				return
			}
			if wait == 0 {
				wait = delay
				delay = min(delay*2, streamMaxDelay)
			}
			select {
			case <-ctx.Done():
			case <-time.After(wait):
			}
		}
	}
}

// streamOnce runs one connection. It returns how long to wait before the next (0: the backoff), an error that ends
// the iteration, or stop when the caller stopped iterating.
func (s *EventsService) streamOnce(ctx context.Context, httpClient *http.Client, target string, last **int64,
	first, delay *time.Duration, onGap func(from, to int64), yield func(*plinthapi.Event, error) bool,
) (wait time.Duration, failure error, stop bool) {
	conn, cancel := context.WithCancel(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(conn, http.MethodGet, target, nil)
	if err != nil {
		return 0, err, false
	}
	req.Header.Set("Authorization", "Bearer "+s.c.apiKey)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("User-Agent", "plinth-go/"+Version)
	if *last != nil {
		req.Header.Set("Last-Event-ID", strconv.FormatInt(**last, 10))
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, false // refused or dropped: reconnect
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && secs > 0 {
			return time.Duration(secs) * time.Second, nil, false
		}
		return 0, nil, false
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return 0, newError(resp, body, newResponse(resp, &callInfo{})), false
	}
	*delay = *first
	// A connection that sends no line for streamReadTimeout is dead: cancel it, and the read below fails.
	timer := time.AfterFunc(streamReadTimeout, cancel)
	defer timer.Stop()
	seen := func() { timer.Reset(streamReadTimeout) }
	var failed error
	_ = readMessages(resp.Body, seen, func(m sseMessage) bool {
		if m.retry > 0 {
			*first, *delay = m.retry, m.retry
		}
		if m.hasID {
			if n, err := strconv.ParseInt(m.id, 10, 64); err == nil {
				*last = &n
			}
		}
		if !m.hasData {
			return true
		}
		if m.event == "gap" {
			var gone struct{ From, To int64 }
			if json.Unmarshal([]byte(m.data), &gone) == nil && onGap != nil {
				onGap(gone.From, gone.To)
			}
			return true
		}
		var event plinthapi.Event
		if err := json.Unmarshal([]byte(m.data), &event); err != nil {
			failed = err
			return false
		}
		if !yield(&event, nil) {
			stop = true
			return false
		}
		return true
	})
	if stop || ctx.Err() != nil {
		return 0, nil, true
	}
	return 0, failed, false
}
