//go:build linux

package isolated

import (
	"io"
	"os"
	"runtime"
	"syscall"
	"time"
	"unsafe"
)

// spinReader reads a pipe without blocking while spin says a frame is
// due, for up to readSpin after its last data, and only then blocks in
// ppoll: waking a thread blocked in the kernel costs several
// microseconds, more than a tool call's whole answer.
type spinReader struct {
	rc   syscall.RawConn
	spin func() bool
	last time.Time // when data last came
	read func(fd uintptr) bool

	// The arguments and results of read.
	p   []byte
	n   int
	err error
}

// newSpinReader reads f (a pipe in blocking mode, whose descriptor this
// reader then owns) with spinning, or returns f when it cannot.
func newSpinReader(f *os.File, spin func() bool) io.Reader {
	rc, err := f.SyscallConn()
	if err != nil {
		return f
	}
	var nbErr error
	if err := rc.Control(func(fd uintptr) { nbErr = syscall.SetNonblock(int(fd), true) }); err != nil || nbErr != nil {
		return f
	}
	r := &spinReader{rc: rc, spin: spin}
	r.read = r.readFd
	return r
}

// newPipeReader reads f (a pipe in blocking mode, whose descriptor the
// reader then owns) without spinning, and returns with it a function that
// reports whether the pipe holds bytes, without blocking; or f and nil
// when it cannot.
func newPipeReader(f *os.File) (io.Reader, func() bool) {
	r := newSpinReader(f, func() bool { return false })
	sr, ok := r.(*spinReader)
	if !ok {
		return f, nil
	}
	var fd uintptr
	if err := sr.rc.Control(func(d uintptr) { fd = d }); err != nil {
		return f, nil
	}
	// The worker never closes the pipe before it exits, so fd stays its.
	return r, func() bool {
		var n int32
		_, _, e := syscall.RawSyscall(syscall.SYS_IOCTL, fd, syscall.TIOCINQ, uintptr(unsafe.Pointer(&n)))
		// An error (the pipe is gone) counts as bytes: the read reports it.
		return e != 0 || n > 0
	}
}

type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const pollIn = 0x1

func (r *spinReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	// Inside RawConn.Read the descriptor cannot be closed (and reused)
	// under the reader.
	r.p = p
	rerr := r.rc.Read(r.read)
	n, err := r.n, r.err
	r.p, r.err = nil, nil
	switch {
	case rerr != nil:
		return 0, rerr
	case err != nil:
		return 0, err
	case n == 0:
		return 0, io.EOF
	}
	r.last = time.Now()
	return n, nil
}

// readFd reads r.p from fd into r.n and r.err, waiting as needed.
func (r *spinReader) readFd(fd uintptr) bool {
	p := r.p
	for i := 0; ; i++ {
		// A non-blocking read: no need to tell the scheduler.
		m, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
		switch e {
		case 0:
			r.n = int(m)
			return true
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
		default:
			r.err = e
			return true
		}
		if r.spin() && time.Since(r.last) < readSpin {
			Yield(i)
			continue
		}
		pfd := pollFd{fd: int32(fd), events: pollIn}
		_, _, e = syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&pfd)), 1, 0, 0, 0, 0)
		if e != 0 && e != syscall.EINTR {
			r.err = e
			return true
		}
	}
}

// Yield pauses a spinning wait: it lets the other threads of this CPU
// run, and every eighth call (i is the caller's count of its calls) the
// other goroutines of this process, so spinning costs little when the
// machine is busy and a single P is not held. It yields to goroutines
// sparingly: runtime.Gosched wakes an idle thread of the runtime.
func Yield(i int) {
	if i%8 == 7 {
		runtime.Gosched()
		return
	}
	syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
}
