package remote

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAuth_Nkey: a server that requires an nkey takes a connection with
// its nkey seed file, and refuses one without.
func TestAuth_Nkey(t *testing.T) {
	kp, err := nkeys.CreateUser()
	require.NoError(t, err)
	pub, err := kp.PublicKey()
	require.NoError(t, err)
	seed, err := kp.Seed()
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "user.nk")
	require.NoError(t, os.WriteFile(file, seed, 0o600))
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoLog: true, NoSigs: true, Nkeys: []*server.NkeyUser{{Nkey: pub}}})
	require.NoError(t, err)
	go s.Start()
	require.True(t, s.ReadyForConnections(10*time.Second))
	defer s.Shutdown()

	nc, err := Connect(s.ClientURL(), "test", Auth{NkeySeed: file})
	require.NoError(t, err)
	nc.Close()
	_, err = Connect(s.ClientURL(), "test", Auth{})
	assert.Error(t, err)
	_, err = Auth{NkeySeed: filepath.Join(t.TempDir(), "missing")}.Options()
	assert.Error(t, err)
	_, err = Auth{TLSCert: "cert.pem"}.Options()
	assert.ErrorContains(t, err, "both")
}
