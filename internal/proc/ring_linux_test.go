//go:build linux && (amd64 || arm64)

package proc

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/wire"
)

// registerRingRoles registers the roles of the shared-memory tests.
func registerRingRoles() {
	// A child that, once asked anything, writes its ring's position out
	// of bounds, as a broken or hostile child could.
	Register("corrupt", Role{Serve: serveEcho, ServeShared: func(r *RingReader, w *RingWriter) error {
		_, _ = r.Read(make([]byte, 1))
		atomic.StoreUint64(w.reg.word64(w.base+offTail), 1<<62)
		atomic.AddUint32(w.reg.word32(w.base+offDataSeq), 1)
		futexWake(w.reg.word32(w.base + offDataSeq))
		select {}
	}})
	// A child that writes to its pipe beside the rings.
	Register("scribbler", Role{Serve: serveEcho, ServeShared: func(r *RingReader, w *RingWriter) error {
		_, _ = r.Read(make([]byte, 1))
		_, _ = os.NewFile(4, "out").Write([]byte("junk"))
		select {}
	}})
}

// testRegion maps a region in this process; both ends are used here.
func testRegion(t testing.TB) *region {
	t.Helper()
	reg, f, err := createRegion()
	require.NoError(t, err)
	require.NoError(t, f.Close(), "the mapping outlives the file")
	return reg
}

// TestRegion_Sealed checks that the shared memory cannot shrink or grow
// (a mapping of a file that shrinks faults on its next access, which
// would kill the host) and that a file without the seals is refused.
func TestRegion_Sealed(t *testing.T) {
	reg, f, err := createRegion()
	require.NoError(t, err)
	defer f.Close()
	assert.Error(t, f.Truncate(0), "shrinking")
	assert.Error(t, f.Truncate(2*regionSize), "growing")
	_, w := reg.hostEnds()
	_, err = w.Write([]byte("still mapped"))
	require.NoError(t, err)

	plain, err := os.CreateTemp(t.TempDir(), "region")
	require.NoError(t, err)
	defer plain.Close()
	require.NoError(t, plain.Truncate(regionSize))
	_, err = mapRegion(plain)
	assert.ErrorContains(t, err, "not sealed")
}

// TestRing_BytesInOrder checks that what the writer writes, in pieces of
// every size up to several times the ring (wrapping, filling it, the
// writer sleeping for room and the reader for data), is what the reader
// reads, byte for byte, then the end of the stream.
func TestRing_BytesInOrder(t *testing.T) {
	reg := testRegion(t)
	_, w := reg.hostEnds()
	r, _ := reg.childEnds()
	src := make([]byte, 3*ringBytes+12345)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range src {
		src[i] = byte(rng.Uint32())
	}
	var got bytes.Buffer
	done := make(chan error, 1)
	go func() {
		buf := make([]byte, 7000)
		for {
			n, err := r.Read(buf)
			got.Write(buf[:n])
			if err != nil {
				done <- err
				return
			}
		}
	}()
	for rest := src; len(rest) > 0; {
		n := min(len(rest), 1+rng.IntN(ringBytes+ringBytes/2))
		m, err := w.Write(rest[:n])
		require.NoError(t, err)
		require.Equal(t, n, m)
		rest = rest[n:]
	}
	reg.end(io.EOF)
	require.ErrorIs(t, <-done, io.EOF, "the reader drains the ring, then ends")
	require.True(t, bytes.Equal(src, got.Bytes()), "read %d bytes of %d, or not the same", got.Len(), len(src))
	_, err := w.Write([]byte("late"))
	assert.ErrorIs(t, err, io.ErrClosedPipe, "no write once the stream has ended")
}

// TestRing_EndWakesSleepers checks that ending the stream wakes a reader
// asleep on an empty ring and a writer asleep on a full one.
func TestRing_EndWakesSleepers(t *testing.T) {
	reg := testRegion(t)
	_, w := reg.hostEnds()
	r, _ := reg.childEnds()
	full := make([]byte, ringBytes)
	_, err := w.Write(full)
	require.NoError(t, err)
	wrote := make(chan error, 1)
	go func() { _, err := w.Write([]byte("x")); wrote <- err }() // no room: sleeps

	reg2 := testRegion(t)
	r2, _ := reg2.childEnds()
	read := make(chan error, 1)
	go func() { _, err := r2.Read(make([]byte, 1)); read <- err }() // no data: sleeps

	reg.end(io.EOF)
	reg2.end(io.ErrUnexpectedEOF)
	assert.ErrorIs(t, <-wrote, io.ErrClosedPipe)
	assert.ErrorIs(t, <-read, io.ErrUnexpectedEOF, "the stream's error")
	n, err := r.Read(make([]byte, 10))
	assert.NoError(t, err, "what was written before the end is still read")
	assert.Equal(t, 10, n)
}

// TestRing_CorruptPeer checks that a position the peer wrote out of the
// ring's bounds ends the stream with ErrRingCorrupt on either side,
// and that Buffered counts it as bytes (so the next Read reports it).
func TestRing_CorruptPeer(t *testing.T) {
	for _, tail := range []uint64{ringBytes + 1, 1 << 63, ^uint64(0)} {
		reg := testRegion(t)
		r, _ := reg.childEnds()
		atomic.StoreUint64(reg.word64(0+offTail), tail) // the peer's word
		assert.Equal(t, 1, r.Buffered())
		_, err := r.Read(make([]byte, 8))
		assert.ErrorIs(t, err, ErrRingCorrupt, "tail %d", tail)
	}
	for _, head := range []uint64{1, 1 << 40, 1 << 63} {
		reg := testRegion(t)
		_, w := reg.hostEnds()
		atomic.StoreUint64(reg.word64(0+offHead), head) // ahead of the writer
		_, err := w.Write([]byte("x"))
		assert.ErrorIs(t, err, ErrRingCorrupt, "head %d", head)
	}
}

// TestRing_Spin checks that a reader told to spin takes data that comes
// while it spins, and one whose spin says no sleeps and is woken.
func TestRing_Spin(t *testing.T) {
	for _, spinning := range []bool{true, false} {
		reg := testRegion(t)
		_, w := reg.hostEnds()
		r, _ := reg.childEnds()
		r.SetSpin(func() bool { return spinning }, 1<<62)
		var wg sync.WaitGroup
		wg.Go(func() {
			for i := range 200 {
				_, err := w.Write([]byte{byte(i)})
				require.NoError(t, err)
			}
		})
		buf := make([]byte, 1)
		for i := range 200 {
			_, err := io.ReadFull(r, buf)
			require.NoError(t, err)
			require.Equal(t, byte(i), buf[0])
		}
		wg.Wait()
	}
}

// TestPool_SharedMemory checks a child serving its frames over shared
// memory: calls and answers, one far larger than a ring, the role's
// environment without the descriptor's variable, and a child that exits
// ending its frames as over the pipes.
func TestPool_SharedMemory(t *testing.T) {
	p := newPool(t, Config{Role: "echo", Size: 1, SharedMemory: true})
	c := get(t, p)
	require.NotNil(t, c.Ring(), "the frames come through the ring")
	raw, ok := call(t, c, "ping", nil)
	require.True(t, ok)
	assert.JSONEq(t, `"ping"`, string(raw))
	big := bytes.Repeat([]byte("abcdefgh"), 3*ringBytes/8)
	raw, ok = call(t, c, "echo", string(big))
	require.True(t, ok)
	var back string
	require.NoError(t, json.Unmarshal(raw, &back))
	assert.True(t, back == string(big), "a frame of %d bytes comes back whole", len(big))
	raw, ok = call(t, c, "env", nil)
	require.True(t, ok)
	assert.JSONEq(t, `["TOOLSCRIPT_CHILD=echo"]`, string(raw))

	_, ok = call(t, c, "exit", 7)
	assert.False(t, ok, "the child's end ends its frames")
	e := p.Kill(c, "")
	assert.Equal(t, "exit status 7", e.Status)
	assert.NoError(t, c.ReadErr())
}

// TestPool_SharedMemoryKilled checks that a child killed while the host
// waits for its answer ends the frames (no reader sleeps on a ring
// nobody writes) and that writing to it then fails.
func TestPool_SharedMemoryKilled(t *testing.T) {
	p := newPool(t, Config{Role: "echo", Size: 1, SharedMemory: true})
	c := get(t, p)
	require.NoError(t, syscall.Kill(c.PID(), syscall.SIGKILL))
	for range c.Frames() {
	}
	p.Kill(c, "")
	assert.Error(t, c.Send(wire.Frame{Type: wire.TypeCall, ID: 2}))
}

// directChild is a child whose frames the benchmark reads itself: its
// Read only waits for the end.
type directChild struct{ *Child }

func (c directChild) Read() {
	<-c.quit
	c.EndFrames(nil)
}

// TestPool_SharedMemoryBrokenChild checks that a child that writes its
// ring's position out of bounds, or writes to its pipe beside the rings,
// ends its frames with the error that says so: the host reads nothing
// past the ring and survives.
func TestPool_SharedMemoryBrokenChild(t *testing.T) {
	for _, tc := range []struct {
		role string
		want error
	}{
		{"corrupt", ErrRingCorrupt},
		{"scribbler", ErrPipeWritten},
	} {
		t.Run(tc.role, func(t *testing.T) {
			p := newPool(t, Config{Role: tc.role, Size: 1, SharedMemory: true})
			c := get(t, p)
			_, ok := call(t, c, "anything", nil)
			assert.False(t, ok)
			assert.ErrorIs(t, c.ReadErr(), tc.want)
			p.Kill(c, tc.role)
		})
	}
}

// BenchmarkRoundTrip is a call and its answer between the host and an
// echo child, over the pipes and over shared memory, read where the call
// was made (as a run's tool call reads its answer): over the pipes with
// a blocking read, over shared memory spinning, as the child does too.
func BenchmarkRoundTrip(b *testing.B) {
	for _, shared := range []bool{false, true} {
		name := "pipes"
		if shared {
			name = "shared"
		}
		b.Run(name, func(b *testing.B) {
			p, err := NewPool(Config{Role: "echo", Size: 1, SharedMemory: shared}, func(c *Child) directChild { return directChild{c} })
			require.NoError(b, err)
			defer p.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := p.Get(ctx)
			require.NoError(b, err)
			var r *wire.Reader
			if ring := c.Ring(); ring != nil {
				ring.SetSpin(func() bool { return true }, 1<<62)
				r = wire.NewReader(ring)
			} else {
				r = wire.NewReader(c.Out())
			}
			call := wire.Frame{Type: wire.TypeCall, ID: 1, Body: []byte(`{"name":"ping"}`)}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.Send(call); err != nil {
					b.Fatal(err)
				}
				if _, err := r.Read(); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			p.Kill(c, "")
		})
	}
}
