package isolated_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/isolated"
	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/internal/wire"
	"github.com/toolscript/toolscript/projection"
)

// serveLiar is an engine worker that ends each run the way the run's
// code names, rightly or not (TestHost_LyingWorker).
func serveLiar(c *isolated.Conn) error {
	for {
		f, err := c.R.Read()
		if errors.Is(err, io.EOF) || err == nil && f.Type == wire.TypeShutdown {
			return nil
		}
		if err != nil {
			return err
		}
		if f.Type != wire.TypeCall {
			continue
		}
		var call wire.Call
		var req isolated.RunRequest
		if f.Decode(&call) != nil || json.Unmarshal(call.Args, &req) != nil {
			return fmt.Errorf("liar: bad run call")
		}
		id := f.ID
		seven, _ := tagged.Marshal(7)
		reply := wire.Frame{Type: wire.TypeResult, ID: id, Body: fmt.Appendf(nil, `{"value":{"code":0,"value":%s,"has_value":true}}`, seven)}
		ready := wire.Frame{Type: readyType, ID: id, Body: []byte(`{"clean":true}`)}
		switch req.Code {
		case "ok": // the reply and the ready message in one write
			err = c.WriteFrames(reply, ready)
		case "ready first": // out of order: the run has not answered yet
			err = c.WriteFrames(ready, reply)
		case "unclean":
			ready.Body = []byte(`{"clean":false}`)
			err = c.WriteFrames(reply, ready)
		case "other id":
			ready.ID = id + 1
			err = c.WriteFrames(reply, ready)
		case "dies":
			_ = c.WriteFrames(reply)
			os.Exit(3)
		case "flood": // output after the reply, then the ready message
			fs := []wire.Frame{reply}
			for range 200 {
				fs = append(fs, wire.Frame{Type: stdoutType, ID: id, Body: []byte("late\n")})
			}
			err = c.WriteFrames(append(fs, ready)...)
		case "trace missing": // the reply names trace entries never sent
			reply.Body = []byte(`{"value":{"code":0,"trace":5}}`)
			err = c.WriteFrames(reply, ready)
		case "bad reply":
			reply.Body = []byte(`{"value":{"code":00}}`)
			err = c.WriteFrames(reply, ready)
		}
		if err != nil {
			return err
		}
	}
}

// The protocol's frame types, as proto.go numbers them.
const (
	stdoutType = wire.TypeExtension
	readyType  = wire.TypeExtension + 2
)

// liarEngine is the host's side of the engine for a lying worker.
type liarEngine struct{ isolated.Engine }

func (liarEngine) Bounds() isolated.Bounds {
	return isolated.Bounds{ErrorBytes: 1 << 10, TraceBytes: 1 << 20, TraceErrorBytes: 1 << 10, TruncatedMark: "..."}
}
func (liarEngine) NewTrace() isolated.Trace           { return &liarTrace{} }
func (liarEngine) Cut(s string, n int) (string, bool) { return s[:min(len(s), n)], len(s) > n }
func (liarEngine) WorkerError(ex isolated.Exit) error {
	return fmt.Errorf("worker killed: %s", ex.Cause)
}
func (liarEngine) DecodeError(ei *isolated.ErrInfo) error { return errors.New(ei.Msg) }

type liarTrace struct{}

func (*liarTrace) Enter(string, int64) bool { return true }
func (*liarTrace) Add(int64)                {}
func (*liarTrace) Cut() bool                { return false }

// TestHost_LyingWorker: however a worker ends a run (the ready message
// before the reply, an unclean one or another run's with the reply, dying
// after the reply, output flooding after it, a reply that names a trace
// it never sent or does not parse), the host returns the run's result or
// a crash, and gives the worker back to the pool only after a clean ready
// message of that run: otherwise the worker is replaced.
func TestHost_LyingWorker(t *testing.T) {
	h, err := isolated.NewHost(isolated.HostConfig{
		Pool:   isolated.Config{Size: 1},
		Grace:  time.Second, // a run's ready message is awaited 2.1 s
		Engine: liarEngine{},
	})
	require.NoError(t, err)
	defer h.Close()
	run := func(code string) isolated.Result {
		req := &isolated.RunRequest{Code: code, Limits: json.RawMessage(`{}`)}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := h.Run(ctx, req, map[string]projection.ToolProjection{}, 30*time.Second, io.Discard, io.Discard)
		require.NoError(t, err)
		return res
	}
	// pid waits for the pool's one worker (a replacement starts in the
	// background) and returns its process id.
	pid := func() int {
		var p []int
		require.Eventually(t, func() bool { p = h.PIDs(); return len(p) == 1 }, time.Minute, time.Millisecond)
		return p[0]
	}
	res := run("ok")
	require.Equal(t, isolated.CodeOK, res.Code, res.Error)
	assert.Equal(t, 7, res.Value)
	for _, tt := range []struct {
		code string
		rc   int
		kept bool
	}{
		{"ok", isolated.CodeOK, true},
		{"ready first", isolated.CodeOK, false},
		{"unclean", isolated.CodeOK, false},
		{"other id", isolated.CodeOK, false},
		{"dies", isolated.CodeOK, false},
		{"flood", isolated.CodeOK, true},
		{"trace missing", isolated.CodeCrash, false},
		{"bad reply", isolated.CodeCrash, false},
	} {
		t.Run(tt.code, func(t *testing.T) {
			before := pid()
			res := run(tt.code)
			assert.Equal(t, tt.rc, res.Code, res.Error)
			if tt.rc == isolated.CodeOK {
				assert.Equal(t, 7, res.Value)
			}
			// The worker is back in the pool or being replaced once
			// the host has read its end: the next run says which.
			res = run("ok")
			require.Equal(t, isolated.CodeOK, res.Code, res.Error)
			if tt.kept {
				assert.Equal(t, before, pid(), "the worker is kept")
			} else {
				assert.NotEqual(t, before, pid(), "the worker is replaced")
			}
		})
	}
}
