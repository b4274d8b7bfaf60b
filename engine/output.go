package engine

import (
	"io"
	"sync"
)

// capWriter collects a stream of the script's output up to a byte limit.
// Past the limit it keeps nothing more and calls onOverflow once. After
// close it drops every write, so a goroutine the script left running
// cannot touch a returned result. It is safe for concurrent use.
type capWriter struct {
	mu         sync.Mutex
	buf        []byte
	limit      int // < 0: unlimited
	truncated  bool
	closed     bool
	onOverflow func()
	tee        io.Writer // optional copy of the kept output
}

func (w *capWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return len(p), nil
	}
	room := len(p)
	if w.limit >= 0 && len(w.buf)+room > w.limit {
		room = w.limit - len(w.buf)
	}
	w.buf = append(w.buf, p[:room]...)
	if w.tee != nil && room > 0 {
		_, _ = w.tee.Write(p[:room])
	}
	overflow := room < len(p) && !w.truncated
	if room < len(p) {
		w.truncated = true
	}
	w.mu.Unlock()
	if overflow && w.onOverflow != nil {
		w.onOverflow()
	}
	return len(p), nil
}

// WriteString avoids a copy for fmt's string writes.
func (w *capWriter) WriteString(s string) (int, error) {
	return w.Write([]byte(s))
}

// freeze drops every later write; close still returns what was kept.
func (w *capWriter) freeze() {
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
}

// close stops accepting writes and returns what was kept.
func (w *capWriter) close() (string, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	return string(w.buf), w.truncated
}
