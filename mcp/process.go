package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolscript/toolscript/internal/proc"
)

// stderrTail is how much of a stdio server's standard error is kept for
// error messages.
const stderrTail = 4 << 10

// process is a running stdio server: the command with its three pipes, in
// its own process group (on Unix), killed with this process (on Linux;
// see proc.StartTied).
type process struct {
	cmd     *exec.Cmd
	stdin   *os.File // our end: writes go to the server
	stdout  *limitReader
	stderr  *os.File // our end of the server's standard error
	tail    tailBuffer
	exited  chan struct{} // closed once cmd.Wait returned
	waitErr error         // cmd.Wait's error, set before exited is closed
	errDone chan struct{} // closed once the standard error reader returned
}

// startProcess starts cfg's command with the host's environment plus
// cfg.Env. extra, when not nil, also receives its standard error.
func startProcess(cfg ServerConfig, maxLine int, extra io.Writer) (*process, error) {
	cmd := exec.Command(cfg.Command, cfg.Args...)
	cmd.Dir = cfg.Cwd
	cmd.Env = os.Environ()
	for _, k := range sortedKeys(cfg.Env) {
		cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
	}
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW)
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		closeAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	// In its own process group, and killed by the kernel when this
	// process dies (on Linux: the parent-death signal), even by SIGKILL,
	// when nothing runs to stop it and a server that does not exit at the
	// end of its input would otherwise outlive us.
	if err := proc.StartTied(cmd); err != nil {
		closeAll(inR, inW, outR, outW, errR, errW)
		return nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	closeAll(inR, outW, errW) // the child's ends
	p := &process{
		cmd:     cmd,
		stdin:   inW,
		stdout:  &limitReader{r: outR, max: maxLine, tripped: new(atomic.Bool)},
		stderr:  errR,
		exited:  make(chan struct{}),
		errDone: make(chan struct{}),
	}
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	go func() {
		defer close(p.errDone)
		var w io.Writer = &p.tail
		if extra != nil {
			w = io.MultiWriter(&p.tail, extra)
		}
		_, _ = io.Copy(w, errR)
	}()
	return p, nil
}

func closeAll(fs ...*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// transport is the SDK transport over the process's pipes.
func (p *process) transport() sdk.Transport {
	return &sdk.IOTransport{Reader: p.stdout, Writer: p.stdin, MaxLineLength: -1}
}

// stop ends the server: its input closes (the SDK session's Close does
// that; stop does it again in case), it has grace to exit, then its
// process group gets SIGTERM and, a second later, SIGKILL. Whatever is
// left of the group is killed once the server has exited, and all pipes
// are closed. It returns how the server ended.
func (p *process) stop(grace time.Duration) string {
	_ = p.stdin.Close()
	if !p.waitFor(grace) {
		terminateGroup(p.cmd)
		if !p.waitFor(time.Second) {
			killGroup(p.cmd)
			<-p.exited
		}
	}
	killGroup(p.cmd) // stragglers: children of the server that outlived it
	_ = p.stdout.Close()
	_ = p.stderr.Close()
	<-p.errDone
	return p.exitString()
}

func (p *process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
		return false
	}
}

// exitString says how the process ended, with the end of its standard
// error; "" while it runs.
func (p *process) exitString() string {
	select {
	case <-p.exited:
	default:
		return ""
	}
	var b strings.Builder
	switch {
	case p.waitErr == nil:
		b.WriteString("exit status 0")
	default:
		var ee *exec.ExitError
		if errors.As(p.waitErr, &ee) {
			b.WriteString(ee.ProcessState.String())
		} else {
			b.WriteString(p.waitErr.Error())
		}
	}
	if s := p.tail.lastLines(3); s != "" {
		b.WriteString("; its standard error ends with: ")
		b.WriteString(s)
	}
	return b.String()
}

// exitedWithin reports, waiting at most d, whether the process has exited.
func (p *process) exitedWithin(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// stderrWithin waits at most d for the server's standard error to end (it
// ends when the server and every process it started have exited, or
// closed it).
func (p *process) stderrWithin(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.errDone:
	case <-t.C:
	}
}

// limitReader bounds the length of the lines (messages) read through it.
type limitReader struct {
	r       io.Reader
	max     int          // < 0: no bound
	line    int          // bytes since the last newline
	tripped *atomic.Bool // set once a line was over max
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.line > l.max && l.max >= 0 {
		return 0, errTooLarge
	}
	n, err := l.r.Read(p)
	if l.max >= 0 && n > 0 {
		buf := p[:n]
		for {
			i := bytes.IndexByte(buf, '\n')
			if i < 0 {
				l.line += len(buf)
				break
			}
			if l.line+i > l.max {
				break
			}
			l.line, buf = 0, buf[i+1:]
		}
		if l.line > l.max || len(buf) > 0 && bytes.IndexByte(buf, '\n') >= 0 {
			l.tripped.Store(true)
			return 0, errTooLarge
		}
	}
	return n, err
}

var errTooLarge = errors.New("message too large")

// Close closes the underlying reader.
func (l *limitReader) Close() error {
	if c, ok := l.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// tailBuffer keeps the last stderrTail bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTail; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// lastLines returns the last n non-empty lines, joined by " | ", at most
// 512 bytes.
func (t *tailBuffer) lastLines(n int) string {
	t.mu.Lock()
	s := string(t.buf)
	t.mu.Unlock()
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	out := strings.Join(lines, " | ")
	if len(out) > 512 {
		out = "..." + out[len(out)-509:]
	}
	return out
}
