package mcp

import (
	"io"
	"mime"
	"net/http"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport is the SDK's streamable HTTP transport to cfg.URL, with
// cfg.Headers on every request and responses bounded by max bytes.
func httpTransport(cfg ServerConfig, base *http.Client, max int, tripped *atomic.Bool) sdk.Transport {
	if base == nil {
		base = http.DefaultClient
	}
	client := *base
	rt := client.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	client.Transport = &headerTransport{base: rt, headers: cfg.Headers, max: max, tripped: tripped}
	event := -1 // lines are bounded below; the SDK bounds events of several lines
	if max >= 0 {
		event = 2*max + 1<<10
	}
	return &sdk.StreamableClientTransport{Endpoint: cfg.URL, HTTPClient: &client, MaxEventSize: event}
}

// headerTransport adds headers to requests and bounds JSON response
// bodies (event streams are bounded per event by the SDK).
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	max     int
	tripped *atomic.Bool
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil || t.max < 0 {
		return resp, err
	}
	switch mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt {
	case "application/json":
		resp.Body = &boundedBody{ReadCloser: resp.Body, left: int64(t.max), tripped: t.tripped}
	case "text/event-stream":
		// An event's data is one line per JSON-RPC message.
		resp.Body = &limitReader{r: resp.Body, max: t.max, tripped: t.tripped}
	}
	return resp, nil
}

// boundedBody fails a read past its bound.
type boundedBody struct {
	io.ReadCloser
	left    int64
	tripped *atomic.Bool
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		b.tripped.Store(true)
		return 0, errTooLarge
	}
	return n, err
}
