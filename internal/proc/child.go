package proc

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolscript/toolscript/internal/wire"
)

// DefaultStartTimeout bounds a child's start up to its hello when
// Config.StartTimeout is zero: generous, since a child may warm up before
// it says hello (an isolated-runtime worker builds its symbol tables) and
// a race-enabled binary on a loaded machine starts slowly.
const DefaultStartTimeout = 20 * time.Second

// Config says how a Pool starts its children.
type Config struct {
	// Role names what the children run: the value of RoleEnv in their
	// environment, which the child's hook (MaybeServe) dispatches on, and
	// the role their hello must announce. Required.
	Role string
	// Size is the number of children kept started. Default: GOMAXPROCS.
	Size int
	// Path is the executable to start. Default: os.Executable(), this
	// binary.
	Path string
	// Args are the child's command-line arguments after the program name.
	Args []string
	// Env is the child's environment besides RoleEnv ("KEY=value"
	// entries): nothing of the host's environment is passed otherwise.
	Env []string
	// TempDir starts each child in a new empty temporary directory,
	// removed when the child ends. Default: the host's working directory.
	TempDir bool
	// Limited says the role applies OS limits to itself, so that exit
	// classification may read a SIGKILL, ExitCPU or running out of
	// memory as one of those limits (see Exit.Cause).
	Limited bool
	// StartTimeout bounds a child's start up to its hello. Default:
	// DefaultStartTimeout.
	StartTimeout time.Duration
	// Stdout receives the children's standard output. Default: discarded.
	Stdout io.Writer
	// Stderr receives a copy of the children's standard error. Default:
	// discarded (each child's first and last 4 KiB are kept for Exit).
	Stderr io.Writer
	// SharedMemory has the frames cross in memory both processes map
	// (a ring each way, see RingReader) instead of the pipes, on Linux
	// (amd64, arm64); elsewhere it is ignored. The role must serve it
	// (Role.ServeShared). A frame then crosses with no system call while
	// its reader spins for it. Where the kernel refuses the memory, the
	// frames take the pipes (Child.Ring is nil).
	SharedMemory bool
	// Hint ends the message of a StartError for a child that ran but did
	// not say hello, e.g. " (does main call executor.MaybeServeChild
	// first?)".
	Hint string
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() (Config, error) {
	if c.Role == "" {
		return c, fmt.Errorf("proc: Config.Role is empty")
	}
	if c.Size <= 0 {
		c.Size = defaultSize()
	}
	if c.StartTimeout <= 0 {
		c.StartTimeout = DefaultStartTimeout
	}
	if c.Path == "" {
		p, err := os.Executable()
		if err != nil {
			return c, fmt.Errorf("proc: find executable: %w", err)
		}
		c.Path = p
	}
	c.Args = append([]string(nil), c.Args...)
	c.Env = append([]string{RoleEnv + "=" + c.Role}, c.Env...)
	return c, nil
}

// frameBuffer is the capacity of a child's Frames channel.
const frameBuffer = 64

// Child is one child process seen from the host: its pipes, its frames,
// and how it ended. A Pool starts it, runs its reading (Member.Read) and
// ends it; the reading hands frames on with Deliver and ends with
// EndFrames.
type Child struct {
	cmd     *exec.Cmd
	pid     int
	dir     string
	w       *wire.Writer
	in, out *os.File // host ends: frames to the child, frames from it
	// The shared memory, when Config.SharedMemory: frames go through
	// ring and the pipes only tell each side that the other has ended.
	ring    *region
	ringR   *RingReader
	shmFile *os.File // the child's end, closed once it has started
	stderr  *tailBuffer
	limited bool
	hello   bool // the child said hello; set before the reading starts
	reading bool // the reading was started; set before it starts

	frames  chan wire.Frame
	quit    chan struct{} // closed when the child is ended; stops the reading
	readEnd chan struct{} // closed when the reading has ended
	readErr atomic.Pointer[error]

	once sync.Once
	exit Exit
}

// newChild prepares a child of cfg: its command, pipes and directory.
func newChild(cfg *Config) (*Child, *os.File, *os.File, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, nil, err
	}
	var reg *region
	var shm *os.File
	if cfg.SharedMemory && ringsSupported {
		// Refused (a kernel without memfd_create, a filter): the
		// frames take the pipes.
		reg, shm, _ = createRegion()
	}
	pipe := framePipe
	if reg != nil {
		// Read only to see it end (watchEnd), by the poller.
		pipe = os.Pipe
	}
	outR, outW, err := pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		if shm != nil {
			shm.Close()
		}
		return nil, nil, nil, err
	}
	c := &Child{
		w: wire.NewWriter(inW), in: inW, out: outR, stderr: &tailBuffer{max: 4096}, limited: cfg.Limited,
		frames: make(chan wire.Frame, frameBuffer), quit: make(chan struct{}), readEnd: make(chan struct{}),
	}
	if reg != nil {
		var w *RingWriter
		c.ring, c.shmFile = reg, shm
		c.ringR, w = reg.hostEnds()
		c.w = wire.NewWriter(w)
	}
	if cfg.TempDir {
		if c.dir, err = os.MkdirTemp("", "toolscript-worker-"); err != nil {
			inR.Close()
			inW.Close()
			outR.Close()
			outW.Close()
			c.closeShm()
			return nil, nil, nil, fmt.Errorf("working directory: %w", err)
		}
	}
	cmd := exec.Command(cfg.Path, cfg.Args...)
	cmd.Env = cfg.Env
	cmd.Dir = c.dir
	cmd.ExtraFiles = []*os.File{inR, outW} // fd 3: frames in, fd 4: frames out
	if shm != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, shm) // fd 5: the rings
		cmd.Env = append(cmd.Env, sharedEnv+"=5")
	}
	cmd.Stdout = cfg.Stdout
	cmd.Stderr = c.stderr
	if cfg.Stderr != nil {
		cmd.Stderr = io.MultiWriter(c.stderr, cfg.Stderr)
	}
	cmd.WaitDelay = time.Second
	c.cmd = cmd
	return c, inR, outW, nil
}

// discard releases what newChild made for a child that did not start.
func (c *Child) discard() {
	c.in.Close()
	c.out.Close()
	c.closeShm()
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
}

// awaitHello reads the child's hello, for at most timeout and until ctx
// is done; on any failure the child is killed and the error says why.
// It reads the hello frame alone, so the pipe holds whatever the child
// sent after it for the reading.
func (c *Child) awaitHello(ctx context.Context, role string, timeout time.Duration) (reason string) {
	const (
		waiting = iota
		timedOut
		aborted
		done
	)
	// A kill holds mu, so that none runs once the reading is done (the
	// process may be reaped, its id reused, right after).
	var mu sync.Mutex
	state := waiting
	killFor := func(why int) func() {
		return func() {
			mu.Lock()
			defer mu.Unlock()
			if state == waiting {
				state = why
				killGroup(c.cmd)
			}
		}
	}
	timer := time.AfterFunc(timeout, killFor(timedOut))
	stop := context.AfterFunc(ctx, killFor(aborted))
	f, err := readHello(c.out)
	mu.Lock()
	if state == waiting {
		state = done
	}
	why := state
	mu.Unlock()
	timer.Stop()
	stop()
	switch why {
	case timedOut:
		return fmt.Sprintf("no hello within %v", timeout)
	case aborted:
		return "pool closed"
	}
	if err != nil {
		return "exited before its hello"
	}
	var h wire.Hello
	switch {
	case f.Type != wire.TypeHello || f.Decode(&h) != nil:
		return fmt.Sprintf("sent %v instead of hello", f.Type)
	case h.Version != wire.Version:
		return fmt.Sprintf("speaks protocol version %d, want %d", h.Version, wire.Version)
	case h.Role != role:
		return fmt.Sprintf("said hello as %q, want %q", h.Role, role)
	}
	c.hello = true
	return ""
}

// maxHello bounds the hello frame, counted from the type byte.
const maxHello = 4 << 10

// readHello reads one frame from r without reading past it (see package
// internal/wire for the framing).
func readHello(r io.Reader) (wire.Frame, error) {
	var hdr [wire.HeaderSize]byte
	if _, err := io.ReadFull(r, hdr[:4]); err != nil {
		return wire.Frame{}, err
	}
	n := binary.BigEndian.Uint32(hdr[:4])
	if n < wire.HeaderSize-4 || n > maxHello {
		return wire.Frame{}, fmt.Errorf("proc: hello frame of %d bytes", n)
	}
	if _, err := io.ReadFull(r, hdr[4:]); err != nil {
		return wire.Frame{}, err
	}
	f := wire.Frame{Type: wire.Type(hdr[4]), ID: binary.BigEndian.Uint64(hdr[5:])}
	if body := int(n) - (wire.HeaderSize - 4); body > 0 {
		f.Body = make([]byte, body)
		if _, err := io.ReadFull(r, f.Body); err != nil {
			return wire.Frame{}, err
		}
	}
	return f, nil
}

// PID returns the child's process id (also its process group id).
func (c *Child) PID() int { return c.pid }

// Send writes one frame to the child.
func (c *Child) Send(f wire.Frame) error { return c.w.Write(f) }

// Writer returns the writer of frames to the child, safe for concurrent
// use.
func (c *Child) Writer() *wire.Writer { return c.w }

// Out returns the pipe of the frames the child sends, for the reading
// (Member.Read); the hello has been read from it. With shared memory
// (Ring is not nil) the frames come through the ring instead, and Out
// carries nothing more.
func (c *Child) Out() *os.File { return c.out }

// Ring returns the reader of the frames the child sends when they come
// through shared memory (Config.SharedMemory), else nil. It ends as the
// pipe would: when the child exits or is killed, once what it wrote has
// been read.
func (c *Child) Ring() *RingReader { return c.ringR }

// closeShm closes the host's copy of the child's end of the shared
// memory, once the child holds it (or will not start).
func (c *Child) closeShm() {
	if c.shmFile != nil {
		c.shmFile.Close()
		c.shmFile = nil
	}
}

// startWatch has the ring end when the child's pipe does; the pool
// calls it once the hello is read.
func (c *Child) startWatch() {
	if c.ring != nil {
		go c.ring.watchEnd(c.out)
	}
}

// Frames returns the frames the reading hands on. It is closed when the
// child's pipe ends (the child exited or was killed) or the child is
// ended.
func (c *Child) Frames() <-chan wire.Frame { return c.frames }

// Deliver hands f to Frames, waiting for room. It reports false once the
// child is ended: the frames are closed then and the reading must stop.
func (c *Child) Deliver(f wire.Frame) bool {
	select {
	case c.frames <- f:
		return true
	case <-c.quit:
		c.EndFrames(nil)
		return false
	}
}

// EndFrames ends the reading: it records err as ReadErr (io.EOF and nil
// are a clean end) and closes Frames. The reading calls it once, last.
func (c *Child) EndFrames(err error) {
	if err != nil && err != io.EOF {
		c.readErr.Store(&err)
	}
	close(c.frames)
	close(c.readEnd)
}

// ReadErr returns why the reading of the child's frames ended, once
// Frames is closed: nil at the end of the stream, else the error, such as
// a *wire.FrameSizeError for a frame over the limit. While the reading
// goes on it returns nil.
func (c *Child) ReadErr() error {
	if p := c.readErr.Load(); p != nil {
		return *p
	}
	return nil
}

// Exited reports whether the reading has ended: the child's pipe closed,
// so it exited or is dying.
func (c *Child) Exited() bool {
	select {
	case <-c.readEnd:
		return true
	default:
		return false
	}
}

// Proc returns c; it makes *Child a Member of its own.
func (c *Child) Proc() *Child { return c }

// Read is the plain reading: every frame of Out to Frames, until the
// stream ends or the child is ended.
func (c *Child) Read() {
	var src io.Reader = c.out
	if c.ringR != nil {
		src = c.ringR
	}
	r := wire.NewReader(src)
	for {
		f, err := r.Read()
		if err != nil {
			c.EndFrames(err)
			return
		}
		if !c.Deliver(f) {
			return
		}
	}
}

// kill kills c's process group, reaps it and releases its pipes and
// directory. It is idempotent and returns how c ended; reason, when not
// empty, is why the host killed it (Exit.Cause).
func (c *Child) kill(reason string) Exit {
	c.once.Do(func() {
		killGroup(c.cmd)
		c.finish(reason)
	})
	return c.exit
}

// stop asks c to exit, waits a second for its pipe to end, then kills
// what is left of its process group.
func (c *Child) stop() Exit {
	c.once.Do(func() {
		_ = c.w.Send(wire.TypeShutdown, 0, nil)
		c.in.Close()
		timer := time.NewTimer(time.Second)
		defer timer.Stop()
		for ended := false; !ended; {
			select {
			case _, ok := <-c.frames:
				ended = !ok
			case <-timer.C:
				ended = true
			}
		}
		// The group may hold stragglers, and a race-enabled child
		// sleeps at exit after closing its pipes.
		killGroup(c.cmd)
		c.finish("")
	})
	return c.exit
}

func (c *Child) finish(reason string) {
	err := c.cmd.Wait()
	close(c.quit)
	c.in.Close()
	c.out.Close()
	if c.ring != nil {
		// Whatever holds the pipe's other end, the child is gone.
		c.ring.end(io.EOF)
	}
	if c.reading {
		<-c.readEnd
	}
	if c.dir != "" {
		os.RemoveAll(c.dir)
	}
	c.exit = classify(c.cmd.ProcessState, err, c.stderr.String(), reason, c.hello, c.limited)
}
