package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/micro"
	"github.com/nats-io/nuid"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/projection"
)

// WorkerConfig holds a Worker's settings.
type WorkerConfig struct {
	// Runtime runs the scripts: an *engine.Isolated in a real worker (the
	// same OS limits as on one machine). Required.
	Runtime engine.CodeRuntime
	// Concurrency bounds the executions running at once; the worker
	// answers busy beyond it. Default 1.
	Concurrency int
	// Prefix is the first token of every subject. Default DefaultPrefix.
	Prefix string
	// Name identifies the worker in heartbeats and errors. Default: a
	// unique id.
	Name string
	// ClaimTimeout bounds the claim's round trip. Default 2s.
	ClaimTimeout time.Duration

	// beforeClaim, in tests, runs when a request arrives, before the
	// claim; returning false drops the request (a worker that died).
	beforeClaim func() bool
}

// Worker serves executions from a NATS connection; see the package doc.
type Worker struct {
	nc   *nats.Conn
	cfg  WorkerConfig
	svc  micro.Service
	sem  chan struct{}
	runs sync.WaitGroup

	ctx    context.Context // cancelled by Close: running executions end
	cancel context.CancelFunc

	draining  atomic.Bool
	running   atomic.Int64
	completed atomic.Int64
	busy      atomic.Int64
}

// WorkerStats is the data of the exec endpoint in $SRV.STATS.
type WorkerStats struct {
	Name        string `json:"name"`
	Concurrency int    `json:"concurrency"`
	Running     int64  `json:"running"`
	Completed   int64  `json:"completed"`
	Busy        int64  `json:"busy"` // requests answered busy
	Draining    bool   `json:"draining"`
}

// NewWorker starts serving executions on nc. The connection stays the
// caller's; Drain or Close the worker before closing it.
func NewWorker(nc *nats.Conn, cfg WorkerConfig) (*Worker, error) {
	if cfg.Runtime == nil {
		return nil, errors.New("remote: WorkerConfig.Runtime is required")
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 1
	}
	if cfg.Prefix == "" {
		cfg.Prefix = DefaultPrefix
	}
	if cfg.Name == "" {
		cfg.Name = nuid.Next()
	}
	if cfg.ClaimTimeout <= 0 {
		cfg.ClaimTimeout = 2 * time.Second
	}
	w := &Worker{nc: nc, cfg: cfg, sem: make(chan struct{}, cfg.Concurrency)}
	w.ctx, w.cancel = context.WithCancel(context.Background())
	svc, err := micro.AddService(nc, micro.Config{
		Name: ServiceName, Version: Version,
		Description: "runs toolscript executions; tools run in the requesting host",
		Metadata:    map[string]string{"worker": cfg.Name, "concurrency": strconv.Itoa(cfg.Concurrency)},
		StatsHandler: func(*micro.Endpoint) any {
			return w.Stats()
		},
	})
	if err != nil {
		w.cancel()
		return nil, fmt.Errorf("remote: %w", err)
	}
	if err := svc.AddEndpoint("exec", micro.HandlerFunc(w.handle),
		micro.WithEndpointSubject(execSubject(cfg.Prefix)), micro.WithEndpointQueueGroup(QueueGroup)); err != nil {
		_ = svc.Stop()
		w.cancel()
		return nil, fmt.Errorf("remote: %w", err)
	}
	w.svc = svc
	// The server knows the worker's subscriptions when NewWorker returns.
	if err := nc.Flush(); err != nil {
		_ = svc.Stop()
		w.cancel()
		return nil, fmt.Errorf("remote: %w", err)
	}
	return w, nil
}

// Stats returns the worker's counts.
func (w *Worker) Stats() WorkerStats {
	return WorkerStats{Name: w.cfg.Name, Concurrency: w.cfg.Concurrency, Running: w.running.Load(),
		Completed: w.completed.Load(), Busy: w.busy.Load(), Draining: w.draining.Load()}
}

// Drain stops taking executions and waits for the running ones to finish
// (or for ctx: then they are cancelled, as by Close).
func (w *Worker) Drain(ctx context.Context) error {
	w.draining.Store(true)
	err := w.svc.Stop()
	done := make(chan struct{})
	go func() { w.runs.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		w.cancel()
		<-done
		if err == nil {
			err = ctx.Err()
		}
	}
	w.cancel()
	return err
}

// Close stops taking executions, cancels the running ones (their hosts
// get their results, CodeTimeout) and waits for them.
func (w *Worker) Close() error {
	w.draining.Store(true)
	err := w.svc.Stop()
	w.cancel()
	w.runs.Wait()
	return err
}

// handle answers an exec request: busy, or claim and start.
func (w *Worker) handle(req micro.Request) {
	if w.draining.Load() {
		_ = req.Respond([]byte(answerBusy))
		return
	}
	select {
	case w.sem <- struct{}{}:
	default:
		w.busy.Add(1)
		_ = req.Respond([]byte(answerBusy))
		return
	}
	var er execRequest
	if err := json.Unmarshal(req.Data(), &er); err != nil {
		<-w.sem
		_ = req.Error("400", "bad request", nil)
		return
	}
	w.runs.Add(1)
	w.running.Add(1)
	go func() {
		defer func() {
			w.running.Add(-1)
			<-w.sem
			w.runs.Done()
		}()
		if w.cfg.beforeClaim != nil && !w.cfg.beforeClaim() {
			return
		}
		base := baseSubject(w.cfg.Prefix, er.ID)
		m, err := w.nc.Request(base+".claim", []byte(w.cfg.Name), w.cfg.ClaimTimeout)
		if err != nil || string(m.Data) != answerGranted {
			_ = req.Respond([]byte(answerTaken))
			return
		}
		_ = req.Respond([]byte(answerStarted))
		w.execute(base, &er)
	}()
}

// execute runs a claimed execution and sends its result.
func (w *Worker) execute(base string, er *execRequest) {
	parent := w.ctx
	if er.Deadline != 0 {
		var stop context.CancelFunc
		parent, stop = context.WithDeadline(parent, time.Unix(0, er.Deadline))
		defer stop()
	}
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(nil)
	sub, err := w.nc.Subscribe(base+".cancel", func(*nats.Msg) { cancel(context.Canceled) })
	if err == nil {
		defer func() { _ = sub.Unsubscribe() }()
	}
	var beats sync.WaitGroup
	beats.Add(1)
	go func() {
		defer beats.Done()
		w.heartbeat(ctx, cancel, base, er)
	}()
	defer beats.Wait()
	defer cancel(nil)

	var res engine.CodeResult
	var limits engine.Limits
	var globals map[string]any
	if err = json.Unmarshal(er.Limits, &limits); err == nil && len(er.Globals) > 0 {
		globals, err = tagged.UnmarshalMap(er.Globals)
	}
	if err == nil {
		ns := map[string]projection.ToolProjection{}
		var ids atomic.Uint64
		for _, t := range er.Tools {
			p := &proxy{spec: t, w: w, subject: base + ".call", ids: &ids}
			if t.Gated {
				ns[t.Name] = &gatedProxy{p}
			} else {
				ns[t.Name] = p
			}
		}
		opts := []engine.Option{engine.WithLimits(limits)}
		var streams []*outStream
		if er.Stdout {
			so := newOutStream(w.nc, base+".out")
			streams = append(streams, so)
			opts = append(opts, engine.WithStdout(so))
		}
		if er.Stderr {
			se := newOutStream(w.nc, base+".err")
			streams = append(streams, se)
			opts = append(opts, engine.WithStderr(se))
		}
		if globals != nil {
			opts = append(opts, engine.WithExtraGlobals(globals))
		}
		res, err = w.cfg.Runtime.Execute(ctx, er.Code, ns, opts...)
		for _, st := range streams {
			st.close() // the last chunks go out before the result
		}
	}
	if err != nil {
		res = engine.CodeResult{ReturnCode: engine.CodeCrash, Error: "remote: the worker could not run the execution: " + err.Error(), Err: err}
	}
	if errors.Is(context.Cause(ctx), ErrHostLost) {
		w.completed.Add(1)
		return // nobody to report to
	}
	b, err := engine.MarshalResult(res)
	if err != nil {
		b, _ = engine.MarshalResult(engine.CodeResult{ReturnCode: engine.CodeCrash, Error: err.Error(), Err: err})
	}
	msg := nats.NewMsg(base + ".result")
	msg.Data = b
	if int64(len(b)) > w.nc.MaxPayload()-1024 {
		// In parts (see stream.go's resultParts), then the result message
		// with the total and no body.
		w.publishParts(base+".part", b)
		msg.Header.Set(totalHeader, strconv.Itoa(len(b)))
		msg.Data = nil
	}
	w.completed.Add(1) // before the host can see the result
	_, _ = w.nc.RequestMsg(msg, w.cfg.ClaimTimeout)
}

// publishParts publishes b on subject in parts that fit in max_payload,
// each with its offset.
func (w *Worker) publishParts(subject string, b []byte) {
	size := int(max(w.nc.MaxPayload()-1024, 1))
	for off := 0; off < len(b); off += size {
		m := nats.NewMsg(subject)
		m.Header.Set(offsetHeader, strconv.Itoa(off))
		m.Data = b[off:min(off+size, len(b))]
		_ = w.nc.PublishMsg(m)
	}
}

// heartbeat tells the host the worker is alive until ctx ends, and
// cancels the execution with ErrHostLost when the host is gone.
func (w *Worker) heartbeat(ctx context.Context, cancel context.CancelCauseFunc, base string, er *execRequest) {
	every := er.Heartbeat
	if every <= 0 {
		every = 500 * time.Millisecond
	}
	missed := 0
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_, err := w.nc.Request(base+".hb", []byte(w.cfg.Name), every)
		switch {
		case err == nil:
			missed = 0
		case errors.Is(err, nats.ErrNoResponders):
			cancel(ErrHostLost)
			return
		default:
			if missed++; missed >= max(er.Missed, 1) {
				cancel(ErrHostLost)
				return
			}
		}
	}
}

// proxy is a tool of the host, as the worker's runtime sees it: each call
// a request to the host. Its role is the host tool's (projection.Roled;
// "" for a plain tool).
type proxy struct {
	spec    toolSpec
	w       *Worker
	subject string
	ids     *atomic.Uint64
}

var _ projection.Roled = (*proxy)(nil)

func (p *proxy) Name() string                  { return p.spec.Name }
func (p *proxy) Doc() string                   { return p.spec.Doc }
func (p *proxy) Role() string                  { return p.spec.Role }
func (p *proxy) Schema() json.RawMessage       { return p.spec.In }
func (p *proxy) OutputSchema() json.RawMessage { return p.spec.Out }

func (p *proxy) Call(ctx context.Context, args map[string]any) (any, error) {
	rep, err := p.request(ctx, args)
	if err != nil {
		return nil, err
	}
	return rep.result()
}

// gatedProxy is a host tool whose calls the host decides. The decision
// and the call take one round trip: Decide sends the call, which the host
// decides and, approved, runs; the reply brings the decision (for the
// worker's trace, as the local runtimes record it) and the result, which
// Call then returns.
type gatedProxy struct{ *proxy }

var _ projection.Gated = (*gatedProxy)(nil)

// decidedKey is the context key of a gated call's reply.
type decidedKey struct{ p *gatedProxy }

func (p *gatedProxy) Decide(ctx context.Context, args map[string]any) (context.Context, string, error) {
	rep, err := p.request(ctx, args)
	if err != nil {
		return ctx, "", err // no reply: the host's decision is unknown here
	}
	if rep.Decision != projection.DecisionApproved {
		_, err := rep.result()
		if err == nil {
			err = fmt.Errorf("remote: call %s", rep.Decision)
		}
		return ctx, rep.Decision, err
	}
	return context.WithValue(ctx, decidedKey{p}, rep), rep.Decision, nil
}

func (p *gatedProxy) Call(ctx context.Context, args map[string]any) (any, error) {
	if rep, ok := ctx.Value(decidedKey{p}).(*callReply); ok {
		return rep.result()
	}
	return p.proxy.Call(ctx, args) // not decided here: the host decides
}

// result is a reply's value or error.
func (rep *callReply) result() (any, error) {
	if len(rep.Err) > 0 {
		e, err := engine.UnmarshalError(rep.Err)
		if err != nil {
			return nil, err
		}
		return nil, e
	}
	if len(rep.Value) == 0 {
		return nil, nil
	}
	return tagged.Unmarshal(rep.Value)
}

// request sends one call to the host and returns its reply.
func (p *proxy) request(ctx context.Context, args map[string]any) (*callReply, error) {
	req := callRequest{Name: p.spec.Name}
	if args != nil {
		a, err := tagged.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("remote: the arguments cannot cross to the host: %w", err)
		}
		req.Args = a
	}
	body, _ := json.Marshal(req)
	if n, m := int64(len(body)), p.w.nc.MaxPayload(); n > m {
		return nil, tooLarge("the tool call's arguments", n, m)
	}
	msg := nats.NewMsg(p.subject)
	msg.Header.Set(callIDHeader, strconv.FormatUint(p.ids.Add(1), 10))
	msg.Data = body
	m, err := p.w.nc.RequestMsgWithContext(ctx, msg)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, fmt.Errorf("remote: the tool call got no reply (it is not sent again): %w", err)
	}
	rep := &callReply{}
	if err := json.Unmarshal(m.Data, rep); err != nil {
		return nil, fmt.Errorf("remote: bad tool reply: %w", err)
	}
	return rep, nil
}
