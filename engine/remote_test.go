package engine_test

import (
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/remote"
)

// extraRuntimes are more runtimes TestRuntimes_SameResult checks against
// the in-process one: the fleet runtime (package remote) on an embedded
// NATS server with one worker, which is built on the engine's API only.
var extraRuntimes = []func(t *testing.T) (string, engine.CodeRuntime){natsRuntime}

func natsRuntime(t *testing.T) (string, engine.CodeRuntime) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true})
	require.NoError(t, err)
	go s.Start()
	require.True(t, s.ReadyForConnections(10*time.Second))
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	wnc, err := nats.Connect(s.ClientURL())
	require.NoError(t, err)
	t.Cleanup(wnc.Close)
	w, err := remote.NewWorker(wnc, remote.WorkerConfig{Runtime: newIsolated(t, engine.IsolatedConfig{Grace: 5 * time.Second}), Concurrency: 2})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	hnc, err := nats.Connect(s.ClientURL())
	require.NoError(t, err)
	t.Cleanup(hnc.Close)
	return "nats", remote.New(hnc, remote.Config{Grace: 10 * time.Second})
}
