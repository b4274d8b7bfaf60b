package remote

import (
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
)

// Output streaming: while a script runs, a worker publishes what it
// writes to standard output and error on the execution's .out and .err
// subjects, in chunks (at most streamChunk bytes, or less than
// max_payload), each with the byte offset where it starts (offsetHeader),
// at most streamEvery after the write. The host writes each chunk to the
// execution's WithStdout or WithStderr writer as it arrives. NATS keeps
// one connection's messages in order, so the chunks reach the host before
// the result; the result still carries the whole output, and the host
// writes from it whatever the chunks did not bring (a chunk lost or out
// of order stops the streaming of that stream, and the rest comes with
// the result): the writer gets every byte once, in order.

// Results in parts: a result larger than max_payload is published on the
// execution's .part subject in parts that fit, each with its offset, and
// the .result message then carries only the total length (totalHeader).
// The host puts the parts together (resultParts) and checks the length:
// a part lost gives an error that says so, never a cut result.

const (
	totalHeader  = "Ts-Total"
	offsetHeader = "Ts-Offset"
	streamChunk  = 64 << 10
	streamEvery  = 20 * time.Millisecond
)

// outStream is a worker's writer of one of a script's streams.
type outStream struct {
	nc      *nats.Conn
	subject string
	max     int

	mu   sync.Mutex
	buf  []byte
	off  int64 // the offset of buf[0] in the stream
	kick chan struct{}
	done chan struct{}
	end  chan struct{} // closed once the last chunk is published
}

func newOutStream(nc *nats.Conn, subject string) *outStream {
	s := &outStream{nc: nc, subject: subject, max: streamChunk,
		kick: make(chan struct{}, 1), done: make(chan struct{}), end: make(chan struct{})}
	if m := int(nc.MaxPayload()) - 1024; m < s.max {
		s.max = max(m, 1)
	}
	go s.loop()
	return s
}

// Write keeps p for the next chunk; it never blocks on the network.
func (s *outStream) Write(p []byte) (int, error) {
	s.mu.Lock()
	s.buf = append(s.buf, p...)
	full := len(s.buf) >= s.max
	s.mu.Unlock()
	if full {
		select {
		case s.kick <- struct{}{}:
		default:
		}
	}
	return len(p), nil
}

func (s *outStream) loop() {
	defer close(s.end)
	t := time.NewTicker(streamEvery)
	defer t.Stop()
	for {
		select {
		case <-s.kick:
		case <-t.C:
		case <-s.done:
			s.flush()
			return
		}
		s.flush()
	}
}

// flush publishes what was written since the last flush.
func (s *outStream) flush() {
	s.mu.Lock()
	buf, off := s.buf, s.off
	s.buf, s.off = nil, off+int64(len(buf))
	s.mu.Unlock()
	for len(buf) > 0 {
		n := min(len(buf), s.max)
		m := nats.NewMsg(s.subject)
		m.Header.Set(offsetHeader, strconv.FormatInt(off, 10))
		m.Data = buf[:n]
		_ = s.nc.PublishMsg(m)
		buf, off = buf[n:], off+int64(n)
	}
}

// close publishes the rest and waits for it to be sent.
func (s *outStream) close() {
	close(s.done)
	<-s.end
}

// hostStream is the host's end of one of an execution's streams.
type hostStream struct {
	w       io.Writer // nil: not streamed
	written int64     // bytes written to w
	broken  bool      // a chunk was missing: the rest comes with the result
}

// chunk writes one chunk that starts at offset off, if it is the next.
func (h *hostStream) chunk(off int64, data []byte) {
	if h.w == nil || h.broken {
		return
	}
	if off != h.written {
		h.broken = true
		return
	}
	_, _ = h.w.Write(data)
	h.written += int64(len(data))
}

// finish writes the part of the whole output the chunks did not bring.
func (h *hostStream) finish(all string) {
	if h.w == nil || h.written >= int64(len(all)) {
		return
	}
	_, _ = io.WriteString(h.w, all[h.written:])
	h.written = int64(len(all))
}

// resultParts is the host's assembly of a result sent in parts.
type resultParts struct {
	buf    []byte
	broken bool // a part came out of order
}

func (r *resultParts) add(off int64, data []byte) {
	if r.broken || off != int64(len(r.buf)) {
		r.broken = true
		return
	}
	r.buf = append(r.buf, data...)
}

// result returns the whole result of total bytes, or an error when parts
// are missing.
func (r *resultParts) result(total int) ([]byte, error) {
	if r.broken || len(r.buf) != total {
		return nil, fmt.Errorf("remote: the result (%d bytes, sent in parts) did not arrive whole: %d bytes in order", total, len(r.buf))
	}
	return r.buf, nil
}
