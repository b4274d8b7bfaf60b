package remote

import (
	"fmt"

	"github.com/nats-io/nats.go"
)

// Auth is how a host or a worker authenticates to NATS, with what NATS
// provides; its empty fields are not used. The toolscript command's
// --nats-creds, --nats-nkey, --nats-cert, --nats-key and --nats-ca flags
// fill it.
type Auth struct {
	// Creds is a credentials file (a user JWT and its nkey seed).
	Creds string
	// NkeySeed is a file holding an nkey seed (the user's public key is
	// derived from it).
	NkeySeed string
	// TLSCert and TLSKey are the client certificate and key files (mutual
	// TLS); TLSCA the file of the roots that verify the server.
	TLSCert, TLSKey, TLSCA string
}

// Options returns the nats.Connect options of a; a file that cannot be
// read is an error.
func (a Auth) Options() ([]nats.Option, error) {
	var opts []nats.Option
	if a.Creds != "" {
		opts = append(opts, nats.UserCredentials(a.Creds))
	}
	if a.NkeySeed != "" {
		o, err := nats.NkeyOptionFromSeed(a.NkeySeed)
		if err != nil {
			return nil, fmt.Errorf("remote: the nkey seed: %w", err)
		}
		opts = append(opts, o)
	}
	if (a.TLSCert == "") != (a.TLSKey == "") {
		return nil, fmt.Errorf("remote: a client certificate needs both its certificate and its key file")
	}
	if a.TLSCert != "" {
		opts = append(opts, nats.ClientCert(a.TLSCert, a.TLSKey))
	}
	if a.TLSCA != "" {
		opts = append(opts, nats.RootCAs(a.TLSCA))
	}
	return opts, nil
}

// Connect connects to the NATS servers at url (a comma-separated list)
// with a's authentication, naming the connection name. It reconnects
// forever, as a worker or a long-lived host wants.
func Connect(url, name string, a Auth) (*nats.Conn, error) {
	opts, err := a.Options()
	if err != nil {
		return nil, err
	}
	opts = append(opts, nats.Name(name), nats.MaxReconnects(-1))
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("remote: connecting to %s: %w", url, err)
	}
	return nc, nil
}
