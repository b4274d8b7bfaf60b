package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/remote"
)

// natsFlags are the NATS connection flags of run, worker and fleet.
type natsFlags struct {
	url  *string
	auth remote.Auth
}

func (f *natsFlags) register(fs *flag.FlagSet, what string) {
	f.url = fs.String("nats", "", what)
	fs.StringVar(&f.auth.Creds, "nats-creds", "", "NATS credentials file (user JWT and seed)")
	fs.StringVar(&f.auth.NkeySeed, "nats-nkey", "", "NATS nkey seed file")
	fs.StringVar(&f.auth.TLSCert, "nats-cert", "", "client certificate file for NATS over TLS (with --nats-key)")
	fs.StringVar(&f.auth.TLSKey, "nats-key", "", "client key file for NATS over TLS")
	fs.StringVar(&f.auth.TLSCA, "nats-ca", "", "file of the CA certificates that verify the NATS server")
}

var fleetHelp = subcommand{
	name:     "fleet",
	synopsis: "[flags]",
	about: `Starts a NATS server in this process and N workers of the isolated
runtime on it, prints the server's URL, and serves until Ctrl-C or
SIGTERM (then the workers drain: running executions finish). A one-machine
demo of a fleet: "toolscript run --nats URL FILE" then sends scripts to the
workers, and their tool calls come back to it. A real fleet runs a NATS
server (or cluster) and "toolscript worker --nats URL" on each machine.`,
	examples: []string{
		"toolscript fleet --workers 4",
		"toolscript run --nats nats://127.0.0.1:4222 script.gos",
	},
}

// fleetCmd is "toolscript fleet".
func fleetCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := &fleetHelp
	fs := c.newFlagSet()
	workers := fs.Int("workers", 2, "number of workers")
	concurrency := fs.Int("concurrency", 1, "executions at once per worker (each a worker process)")
	listen := fs.String("listen", "127.0.0.1:0", "address of the NATS server (port 0: any free port)")
	if _, err := c.parse(fs, args, stdout, stderr); err != nil {
		return exitCodeOf(err)
	}
	if *workers < 1 || *concurrency < 1 {
		c.fail(stderr, "--workers and --concurrency must be at least 1")
		return exitUsage
	}
	host, portText, err := net.SplitHostPort(*listen)
	port, perr := strconv.Atoi(portText)
	if err != nil || perr != nil {
		c.fail(stderr, "--listen %q is not HOST:PORT", *listen)
		return exitUsage
	}
	if port == 0 {
		port = -1 // the server's "any free port"
	}
	ns, err := server.NewServer(&server.Options{Host: host, Port: port, NoLog: true, NoSigs: true})
	if err != nil {
		fmt.Fprintf(stderr, "toolscript fleet: %v\n", err)
		return exitUsage
	}
	go ns.Start()
	defer func() {
		ns.Shutdown()
		ns.WaitForShutdown()
	}()
	if !ns.ReadyForConnections(10 * time.Second) {
		fmt.Fprintf(stderr, "toolscript fleet: the NATS server did not start\n")
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	type member struct {
		w   *remote.Worker
		iso *engine.Isolated
		nc  interface{ Close() }
	}
	var fleet []member
	defer func() {
		for _, m := range fleet {
			m.nc.Close()
			_ = m.iso.Close()
		}
	}()
	for i := range *workers {
		iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: *concurrency})
		if err != nil {
			fmt.Fprintf(stderr, "toolscript fleet: %v\n", err)
			return exitUsage
		}
		name := fmt.Sprintf("fleet-%d", i+1)
		nc, err := remote.Connect(ns.ClientURL(), name, remote.Auth{})
		if err != nil {
			_ = iso.Close()
			fmt.Fprintf(stderr, "toolscript fleet: %v\n", err)
			return exitUsage
		}
		w, err := remote.NewWorker(nc, remote.WorkerConfig{Runtime: iso, Concurrency: *concurrency, Name: name})
		if err != nil {
			nc.Close()
			_ = iso.Close()
			fmt.Fprintf(stderr, "toolscript fleet: %v\n", err)
			return exitUsage
		}
		fleet = append(fleet, member{w: w, iso: iso, nc: nc})
	}
	fmt.Fprintf(stdout, "NATS server at %s with %d workers (%d executions at once each)\n", ns.ClientURL(), *workers, *concurrency)
	fmt.Fprintf(stdout, "run scripts with: toolscript run --nats %s FILE\n", ns.ClientURL())
	<-ctx.Done()
	dctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, m := range fleet {
		_ = m.w.Drain(dctx)
	}
	return 0
}

// fleetWorker is "toolscript worker --nats URL".
func fleetWorker(ctx context.Context, nf *natsFlags, concurrency int, name string, stdout, stderr io.Writer) int {
	if concurrency < 1 {
		fmt.Fprintf(stderr, "toolscript worker: --concurrency must be at least 1\n")
		return exitUsage
	}
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: concurrency})
	if err != nil {
		fmt.Fprintf(stderr, "toolscript worker: %v\n", err)
		return exitUsage
	}
	defer iso.Close()
	nc, err := remote.Connect(*nf.url, "toolscript worker "+name, nf.auth)
	if err != nil {
		fmt.Fprintf(stderr, "toolscript worker: %v\n", err)
		return exitUsage
	}
	defer nc.Close()
	w, err := remote.NewWorker(nc, remote.WorkerConfig{Runtime: iso, Concurrency: concurrency, Name: name})
	if err != nil {
		fmt.Fprintf(stderr, "toolscript worker: %v\n", err)
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "worker %s serving %s (%d executions at once)\n", w.Stats().Name, *nf.url, concurrency)
	<-ctx.Done()
	fmt.Fprintf(stdout, "draining\n")
	if err := w.Drain(context.Background()); err != nil {
		fmt.Fprintf(stderr, "toolscript worker: %v\n", err)
		return 1
	}
	return 0
}
