package executor_test

import (
	"encoding/json"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/executor"
	"github.com/toolscript/toolscript/internal/wire"
)

// peer runs Serve (the child side, after its hello) on in-memory pipes
// and plays the host.
type peer struct {
	t    *testing.T
	w    *wire.Writer
	r    *wire.Reader
	in   *io.PipeWriter
	done chan error
}

func newPeer(t *testing.T) *peer {
	callsR, callsW := io.Pipe()
	resR, resW := io.Pipe()
	p := &peer{t: t, w: wire.NewWriter(callsW), r: wire.NewReader(resR), in: callsW, done: make(chan error, 1)}
	go func() {
		err := executor.Serve(callsR, resW)
		resW.Close()
		callsR.Close()
		p.done <- err
	}()
	return p
}

func (p *peer) read() wire.Frame {
	p.t.Helper()
	f, err := p.r.Read()
	require.NoError(p.t, err)
	return f
}

func (p *peer) call(id uint64, name, args string) {
	p.t.Helper()
	c := &wire.Call{Name: name, ExecID: "x"}
	if args != "" {
		c.Args = json.RawMessage(args)
	}
	require.NoError(p.t, p.w.Send(wire.TypeCall, id, c))
}

func (p *peer) result(id uint64) wire.Result {
	p.t.Helper()
	for {
		f := p.read()
		if f.Type == wire.TypeResult {
			require.Equal(p.t, id, f.ID)
			var r wire.Result
			require.NoError(p.t, f.Decode(&r))
			return r
		}
	}
}

func (p *peer) close() error {
	p.in.Close()
	select {
	case err := <-p.done:
		return err
	case <-time.After(10 * time.Second):
		p.t.Fatal("Serve did not return")
		return nil
	}
}

func TestServe_Calls(t *testing.T) {
	p := newPeer(t)
	tests := []struct {
		name, fn, args string
		value          string
		kind, msg      string
	}{
		{"value", "add", `{"a":1,"b":2}`, "3", "", ""},
		{"no args", "add", "", "0", "", ""},
		{"tool error", "fail", `{"why":"w"}`, "", wire.KindError, "tool failed: w"},
		{"panic", "boom", "", "", wire.KindPanic, "boom"},
		{"unknown", "nope", "", "", wire.KindUnknown, `"nope"`},
		{"args not an object", "add", `[1]`, "", wire.KindBadArgs, "cannot unmarshal"},
		{"result not JSON", "unencodable", "", "", wire.KindEncode, "func()"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p.t = t
			id := uint64(i + 1)
			p.call(id, tt.fn, tt.args)
			r := p.result(id)
			if tt.kind == "" {
				require.Nil(t, r.Error)
				assert.JSONEq(t, tt.value, string(r.Value))
				return
			}
			require.NotNil(t, r.Error)
			assert.Equal(t, tt.kind, r.Error.Kind)
			assert.Contains(t, r.Error.Message, tt.msg)
		})
	}
	p.t = t
	require.NoError(t, p.w.Write(wire.Frame{Type: wire.TypeCall, ID: 99, Body: []byte("{")}))
	assert.Equal(t, wire.KindBadArgs, p.result(99).Error.Kind)
	require.NoError(t, p.close())
}

func TestServe_ProgressAndCancel(t *testing.T) {
	p := newPeer(t)
	p.call(1, "progress", `{"n":3}`)
	for i := range 3 {
		f := p.read()
		require.Equal(t, wire.TypeProgress, f.Type)
		assert.Equal(t, uint64(1), f.ID)
		var pr wire.Progress
		require.NoError(t, f.Decode(&pr))
		assert.InDelta(t, float64(i+1)/3, pr.Fraction, 1e-9)
		assert.JSONEq(t, `{"i":`+string(rune('1'+i))+`}`, string(pr.Detail))
	}
	assert.JSONEq(t, `"done"`, string(p.result(1).Value))

	p.call(2, "sleep_coop", `{"ms":60000}`)
	require.NoError(t, p.w.Write(wire.Frame{Type: wire.TypeExtension, ID: 2})) // ignored
	require.NoError(t, p.w.Send(wire.TypeCancel, 7, &wire.Cancel{}))           // no such call
	require.NoError(t, p.w.Send(wire.TypeCancel, 2, &wire.Cancel{Reason: "timeout"}))
	r := p.result(2)
	require.NotNil(t, r.Error)
	assert.Equal(t, wire.KindCancelled, r.Error.Kind)
	assert.Contains(t, r.Error.Message, "timed out")

	p.call(3, "sleep_coop", `{"ms":60000}`)
	require.NoError(t, p.w.Send(wire.TypeShutdown, 0, nil))
	assert.Equal(t, wire.KindCancelled, p.result(3).Error.Kind, "shutdown cancels running calls")
	require.NoError(t, p.close())
}

func TestServe_BadStream(t *testing.T) {
	p := newPeer(t)
	_, err := p.in.Write([]byte{0, 0, 0, 1})
	require.NoError(t, err)
	require.ErrorIs(t, p.close(), wire.ErrShortFrame)
}
