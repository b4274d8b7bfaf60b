package proc

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"
)

// Member is what a Pool keeps for each child: the child itself
// (*Child is a Member), or a type of the caller's that embeds it and
// reads its frames in its own way.
type Member interface {
	// Proc returns the member's child.
	Proc() *Child
	// Read reads the child's frames from Proc().Out() and hands them on
	// with Deliver until the stream ends (then EndFrames) or Deliver
	// reports false. The pool runs it on a goroutine of its own once the
	// child has said hello.
	Read()
}

// Pool keeps Config.Size children of one role started. A caller takes an
// idle child with Get and gives it back with Put, or ends it with Kill,
// which starts a replacement in the background (retried with back-off
// until it says hello or the pool closes). Close ends every child. A Pool
// is safe for concurrent use.
type Pool[M Member] struct {
	cfg     Config
	wrap    func(*Child) M
	idle    chan M
	spawner *spawner // starts every child from one OS thread
	ctx     context.Context
	cancel  context.CancelFunc // called by Close; aborts starts
	wg      sync.WaitGroup     // replacements under way

	mu      sync.Mutex
	live    map[*Child]M
	closed  bool
	lastErr error
}

func defaultSize() int { return runtime.GOMAXPROCS(0) }

// NewPool starts cfg.Size children, waits until each has said hello, and
// returns the pool; wrap makes each child a member (for *Child itself:
// return it). It fails with a *StartError if a child does not start
// (typically because main does not call the hook, MaybeServe), and inside
// a child process, so that a binary missing the hook cannot start
// children recursively.
func NewPool[M Member](cfg Config, wrap func(*Child) M) (*Pool[M], error) {
	if InChild() {
		return nil, fmt.Errorf("proc: a pool of %q children started in a child process (role %q); does main call the child hook first?", cfg.Role, ChildRole())
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	p := &Pool[M]{
		cfg: cfg, wrap: wrap, idle: make(chan M, cfg.Size), spawner: newSpawner(),
		live: map[*Child]M{},
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	members := make([]M, cfg.Size)
	errs := make([]error, cfg.Size)
	var wg sync.WaitGroup
	for i := range members {
		wg.Go(func() { members[i], errs[i] = p.start() })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		_ = p.Close()
		return nil, err
	}
	for _, m := range members {
		p.idle <- m
	}
	return p, nil
}

// Get returns an idle member, waiting for one if all are busy or
// starting. It fails with ctx's error (saying why the last start failed,
// if one did) or ErrClosed.
func (p *Pool[M]) Get(ctx context.Context) (M, error) {
	select {
	case m := <-p.idle:
		return m, nil
	default:
	}
	select {
	case m := <-p.idle:
		return m, nil
	case <-ctx.Done():
		p.mu.Lock()
		err := p.lastErr
		p.mu.Unlock()
		var zero M
		if err != nil {
			return zero, fmt.Errorf("%w (last start failure: %w)", ctx.Err(), err)
		}
		return zero, ctx.Err()
	case <-p.ctx.Done():
		var zero M
		return zero, ErrClosed
	}
}

// Put gives an idle member back to the pool. One whose child has died is
// killed and replaced; after Close every member is killed.
func (p *Pool[M]) Put(m M) {
	c := m.Proc()
	if c.Exited() {
		p.Kill(m, "")
		return
	}
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		c.kill("")
		p.forget(c)
		return
	}
	p.idle <- m // never blocks: at most Size members exist
}

// Kill ends m's child: it kills the whole process group, reaps it,
// releases its pipes and directory, and starts a replacement in the
// background unless the pool is closed. reason, when not empty, is why the
// host killed it and becomes Exit.Cause. It returns how the child ended.
// Kill must be called once per member taken with Get (or not Put back);
// a later Kill of the same member returns the same Exit and starts no
// second replacement, which would be a child more than Size.
func (p *Pool[M]) Kill(m M, reason string) Exit {
	c := m.Proc()
	e := c.kill(reason)
	p.mu.Lock()
	_, live := p.live[c]
	delete(p.live, c)
	replace := live && !p.closed
	if replace {
		p.wg.Add(1)
	}
	p.mu.Unlock()
	if replace {
		go p.replace()
	}
	return e
}

// replace starts a child for a slot, retrying with back-off until one
// says hello or the pool closes.
func (p *Pool[M]) replace() {
	defer p.wg.Done()
	backoff := 50 * time.Millisecond
	for {
		m, err := p.start()
		if err == nil {
			p.Put(m)
			return
		}
		p.mu.Lock()
		p.lastErr = err
		p.mu.Unlock()
		select {
		case <-p.ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// start starts a child, waits for its hello and starts its reading.
func (p *Pool[M]) start() (M, error) {
	var zero M
	fail := func(reason string, e Exit, hint string) (M, error) {
		return zero, &StartError{Role: p.cfg.Role, Reason: reason, Exit: e, Hint: hint}
	}
	c, inR, outW, err := newChild(&p.cfg)
	if err != nil {
		return fail(err.Error(), Exit{}, "")
	}
	m := p.wrap(c)
	if p.ctx.Err() != nil {
		err = ErrClosed
	} else {
		err = p.spawner.start(c.cmd)
	}
	inR.Close()
	outW.Close()
	c.closeShm()
	if err != nil {
		c.discard()
		return fail(fmt.Sprintf("start %s: %v", p.cfg.Path, err), Exit{}, "")
	}
	c.pid = c.cmd.Process.Pid
	p.mu.Lock()
	p.live[c] = m
	p.mu.Unlock()
	if reason := c.awaitHello(p.ctx, p.cfg.Role, p.cfg.StartTimeout); reason != "" {
		e := c.kill("")
		p.forget(c)
		return fail(reason, e, p.cfg.Hint)
	}
	c.startWatch()
	c.reading = true
	go m.Read()
	return m, nil
}

func (p *Pool[M]) forget(c *Child) {
	p.mu.Lock()
	delete(p.live, c)
	p.mu.Unlock()
}

// PIDs returns the process ids of the live children (started and not yet
// ended), for tests and monitoring.
func (p *Pool[M]) PIDs() []int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]int, 0, len(p.live))
	for c := range p.live {
		out = append(out, c.pid)
	}
	return out
}

// Size returns the number of children the pool keeps started.
func (p *Pool[M]) Size() int { return p.cfg.Size }

// Close ends every child: idle ones are asked to exit and killed if they
// have not within a second; busy ones are killed. It returns when every
// child's process group has been killed or has exited, been reaped, and
// had its directory removed. Afterwards Get fails and Put ends the
// member. Close may be called more than once; it returns nil.
func (p *Pool[M]) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		p.wg.Wait()
		return nil
	}
	p.closed = true
	p.cancel()
	p.mu.Unlock()
	p.wg.Wait() // replacements have stopped
	var wg sync.WaitGroup
	for {
		select {
		case m := <-p.idle:
			c := m.Proc()
			wg.Go(func() { c.stop(); p.forget(c) })
			continue
		default:
		}
		break
	}
	wg.Wait()
	p.mu.Lock()
	busy := make([]*Child, 0, len(p.live))
	for c := range p.live {
		busy = append(busy, c)
	}
	p.mu.Unlock()
	for _, c := range busy {
		c.kill("pool closed")
		p.forget(c)
	}
	// Last: a child dies with the thread that forked it (Pdeathsig), and
	// once unlocked that thread may end with another goroutine.
	p.spawner.close()
	return nil
}
