//go:build linux

package proc

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFramePipe_NotPolled: the read end of a child's frame pipe is not
// watched by the runtime's poller (a file it polls takes deadlines), so
// a frame arriving wakes no thread blocked in epoll_wait; the pipe works.
func TestFramePipe_NotPolled(t *testing.T) {
	r, w, err := framePipe()
	require.NoError(t, err)
	defer r.Close()
	defer w.Close()
	assert.True(t, errors.Is(r.SetReadDeadline(time.Now()), os.ErrNoDeadline), "the read end is not polled")
	_, err = w.Write([]byte("frame"))
	require.NoError(t, err)
	b := make([]byte, 8)
	n, err := r.Read(b)
	require.NoError(t, err)
	assert.Equal(t, "frame", string(b[:n]))

	// An os.Pipe is polled: what framePipe avoids.
	pr, pw, err := os.Pipe()
	require.NoError(t, err)
	defer pr.Close()
	defer pw.Close()
	assert.NoError(t, pr.SetReadDeadline(time.Now().Add(time.Hour)))
}
