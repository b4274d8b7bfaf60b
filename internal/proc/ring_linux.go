//go:build linux && (amd64 || arm64)

package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// A ring is one direction of a child's shared memory: a byte queue with
// one writer and one reader, in a memory file both processes map. The
// writer copies bytes in and publishes its position; the reader spins on
// that position while its caller expects data and otherwise sleeps on a
// futex the writer wakes. A frame crosses with no system call while the
// reader spins, where a pipe costs a write, a read and a wake-up.
//
// Neither side trusts the other's words: each keeps its own position and
// only reads the other's, a position that leaves the ring's bounds is a
// broken stream (ErrRingCorrupt), and the reader copies the bytes out
// before anything parses them. The ring carries no end of stream: a
// child's pipes stay open for its life, and each side watches the pipe
// the other holds (see watchEnd), so a peer that exits, is killed or
// closes its end ends the ring as it ends a pipe.
//
// The layout of a ring, at its offset in the region (header words on
// cache lines of their own):
//
//	0    tail    uint64  bytes written, ever (the writer's)
//	64   head    uint64  bytes read, ever (the reader's)
//	128  dataSeq uint32  bumped after each publication; the reader sleeps on it
//	132  rWait   uint32  the reader is, or is about to be, asleep
//	192  roomSeq uint32  bumped after each consumption; a writer of a full ring sleeps on it
//	196  wWait   uint32  the writer is, or is about to be, asleep
//	256  data    [ringBytes]byte
const (
	ringHeader = 256
	// ringBytes is the data capacity of each direction.
	ringBytes = 256 << 10
	ringSize  = ringHeader + ringBytes
	// regionSize is the whole shared memory of a child: host to child,
	// then child to host.
	regionSize = 2 * ringSize

	offTail    = 0
	offHead    = 64
	offDataSeq = 128
	offRWait   = 132
	offRoomSeq = 192
	offWWait   = 196
)

// ErrRingCorrupt is a stream whose peer wrote a position out of the
// ring's bounds: only a broken (or hostile) peer does.
var ErrRingCorrupt = errors.New("proc: shared ring corrupted by the peer")

// sleepSlice bounds a sleep on a futex: a backstop only (the writer and
// the end of the stream wake the sleeper), so that no word a peer writes
// can keep a reader or a writer asleep for good.
const sleepSlice = 200 * time.Millisecond

// region is a child's shared memory mapped in this process. It is
// unmapped when nothing refers to it any more: every ring end holds it.
type region struct {
	mem    []byte
	closed atomic.Bool // the stream ended (see end)
	err    atomic.Pointer[error]
}

// createRegion makes a memory file of regionSize and maps it; the file is
// for the child (ExtraFiles), the mapping for this process.
func createRegion() (*region, *os.File, error) {
	name := []byte("toolscript-ring\x00")
	fd, _, e := syscall.Syscall(memfdCreate, uintptr(unsafe.Pointer(&name[0])), mfdCloexec|mfdAllowSealing, 0)
	if e != 0 {
		return nil, nil, os.NewSyscallError("memfd_create", e)
	}
	f := os.NewFile(fd, "toolscript-ring")
	if err := f.Truncate(regionSize); err != nil {
		f.Close()
		return nil, nil, err
	}
	// Sealed at its size: a mapping of a file that shrinks under it
	// faults (SIGBUS, which kills the process) on the next access, and
	// whoever else may get hold of the file must not be able to.
	if _, _, e := syscall.Syscall(syscall.SYS_FCNTL, fd, fAddSeals, sealShrink|sealGrow|sealSeal); e != 0 {
		f.Close()
		return nil, nil, os.NewSyscallError("fcntl(F_ADD_SEALS)", e)
	}
	r, err := mapRegion(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return r, f, nil
}

// mapRegion maps the memory file f (at least regionSize bytes, sealed
// against shrinking).
func mapRegion(f *os.File) (*region, error) {
	var st syscall.Stat_t
	if err := syscall.Fstat(int(f.Fd()), &st); err != nil {
		return nil, os.NewSyscallError("fstat", err)
	}
	seals, _, e := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), fGetSeals, 0)
	if e != 0 || seals&sealShrink == 0 {
		return nil, fmt.Errorf("proc: shared memory not sealed against shrinking (seals %#x, %v)", seals, e)
	}
	if st.Size < regionSize {
		return nil, fmt.Errorf("proc: shared memory of %d bytes, want %d", st.Size, regionSize)
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, regionSize, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		return nil, os.NewSyscallError("mmap", err)
	}
	r := &region{mem: mem}
	runtime.AddCleanup(r, func(mem []byte) { _ = syscall.Munmap(mem) }, mem)
	return r, nil
}

// end ends the stream in both directions, for this process: a reader
// returns what is left, then err (io.EOF for a clean end); a writer
// fails. It wakes this process's sleepers.
func (r *region) end(err error) {
	if r.err.CompareAndSwap(nil, &err) {
		r.closed.Store(true)
	}
	for _, base := range []int{0, ringSize} {
		atomic.AddUint32(r.word32(base+offDataSeq), 1)
		futexWake(r.word32(base + offDataSeq))
		atomic.AddUint32(r.word32(base+offRoomSeq), 1)
		futexWake(r.word32(base + offRoomSeq))
	}
	runtime.KeepAlive(r) // the words are pointers into the mapping
}

func (r *region) endErr() error {
	if p := r.err.Load(); p != nil {
		return *p
	}
	return io.EOF
}

func (r *region) word64(off int) *uint64 { return (*uint64)(unsafe.Pointer(&r.mem[off])) }
func (r *region) word32(off int) *uint32 { return (*uint32)(unsafe.Pointer(&r.mem[off])) }

// RingReader reads one direction of a child's shared memory. One
// goroutine at a time may use it.
type RingReader struct {
	reg  *region
	base int
	head uint64 // bytes read: this side's own count, never the peer's word

	spin    func() bool // while it says so, wait by spinning (see SetSpin)
	spinFor time.Duration
	last    time.Time
}

// RingWriter writes one direction of a child's shared memory. It is not
// safe for concurrent use: wrap it in a lock (wire.Writer is one).
type RingWriter struct {
	reg  *region
	base int
	tail uint64 // bytes written: this side's own count
}

// SetSpin has the reader wait for data by spinning while spin reports
// true and for up to d after the last data it got, and by sleeping
// otherwise. By default it sleeps at once.
func (r *RingReader) SetSpin(spin func() bool, d time.Duration) {
	r.spin, r.spinFor = spin, d
}

// Buffered reports how many bytes have arrived and are not read yet; it
// costs no system call. A peer's word out of bounds counts as bytes: the
// next Read reports it.
func (r *RingReader) Buffered() int {
	n := atomic.LoadUint64(r.reg.word64(r.base+offTail)) - r.head
	runtime.KeepAlive(r.reg)
	if n > ringBytes {
		return 1
	}
	return int(n)
}

// Read reads what has arrived, waiting for some when nothing has; at
// the end of the stream it returns what is left, then io.EOF (or the
// error the stream ended with).
func (r *RingReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	reg := r.reg
	// The mapping goes once nothing refers to reg; the words below are
	// pointers into it that the collector does not see.
	defer runtime.KeepAlive(reg)
	tailW := reg.word64(r.base + offTail)
	for i := 0; ; i++ {
		avail := atomic.LoadUint64(tailW) - r.head
		if avail > ringBytes {
			return 0, ErrRingCorrupt
		}
		if avail > 0 {
			n := r.take(p, int(min(avail, uint64(len(p)))))
			if r.spin != nil {
				r.last = time.Now()
			}
			return n, nil
		}
		if reg.closed.Load() {
			if atomic.LoadUint64(tailW) != r.head {
				continue
			}
			return 0, reg.endErr()
		}
		// Whether to go on spinning is asked every 32nd turn: the clock
		// and spin cost more than a look at the ring.
		if i%32 != 0 || r.spin != nil && r.spin() && time.Since(r.last) < r.spinFor {
			spinPause(i)
			continue
		}
		r.sleep()
	}
}

// take copies n bytes out of the ring into p and gives their room back.
func (r *RingReader) take(p []byte, n int) int {
	reg := r.reg
	data := reg.mem[r.base+ringHeader : r.base+ringSize]
	at := int(r.head % ringBytes)
	c := copy(p[:n], data[at:])
	if c < n {
		copy(p[c:n], data)
	}
	r.head += uint64(n)
	reg.publish(r.base, offHead, r.head, offRoomSeq, offWWait)
	return n
}

// sleep waits on the futex until the writer publishes (or the stream
// ends, or sleepSlice passes).
func (r *RingReader) sleep() {
	r.reg.sleep(r.base, offDataSeq, offRWait, func() bool {
		return atomic.LoadUint64(r.reg.word64(r.base+offTail)) == r.head
	})
}

// Write writes all of p, waiting for room as needed; it fails once the
// stream has ended.
func (w *RingWriter) Write(p []byte) (int, error) {
	reg := w.reg
	defer runtime.KeepAlive(reg) // as in Read
	headW := reg.word64(w.base + offHead)
	data := reg.mem[w.base+ringHeader : w.base+ringSize]
	done := 0
	for i := 0; len(p) > 0; i++ {
		if reg.closed.Load() {
			return done, io.ErrClosedPipe
		}
		used := w.tail - atomic.LoadUint64(headW)
		if used > ringBytes {
			return done, ErrRingCorrupt
		}
		room := ringBytes - int(used)
		if room == 0 {
			if i < 64 {
				spinPause(i)
				continue
			}
			w.sleep()
			continue
		}
		n := min(room, len(p))
		at := int(w.tail % ringBytes)
		c := copy(data[at:], p[:n])
		if c < n {
			copy(data, p[c:n])
		}
		w.tail += uint64(n)
		reg.publish(w.base, offTail, w.tail, offDataSeq, offRWait)
		p, done = p[n:], done+n
	}
	return done, nil
}

// sleep waits on the futex until the reader makes room (or the stream
// ends, or sleepSlice passes).
func (w *RingWriter) sleep() {
	w.reg.sleep(w.base, offRoomSeq, offWWait, func() bool {
		return w.tail-atomic.LoadUint64(w.reg.word64(w.base+offHead)) == ringBytes
	})
}

// publish stores a side's count v at off in the ring at base, bumps the
// futex word at seqOff and wakes the other side when its flag at waitOff
// says it sleeps (or is about to).
func (r *region) publish(base, off int, v uint64, seqOff, waitOff int) {
	atomic.StoreUint64(r.word64(base+off), v)
	seq := r.word32(base + seqOff)
	atomic.AddUint32(seq, 1)
	if atomic.LoadUint32(r.word32(base+waitOff)) != 0 {
		futexWake(seq)
	}
}

// sleep sleeps on the futex word at seqOff of the ring at base while
// blocked reports true, with the flag at waitOff raised: blocked is asked
// again once the flag is up, so that a side that published before saw no
// sleeper and one after it wakes this one.
func (r *region) sleep(base, seqOff, waitOff int, blocked func() bool) {
	seqW, waitW := r.word32(base+seqOff), r.word32(base+waitOff)
	seq := atomic.LoadUint32(seqW)
	atomic.StoreUint32(waitW, 1)
	if blocked() && !r.closed.Load() {
		futexWait(seqW, seq, sleepSlice)
	}
	atomic.StoreUint32(waitW, 0)
	runtime.KeepAlive(r)
}

// spinPause is one turn of a spinning wait: a few turns of looking
// again, then a yield of the thread, and every eighth yield one to the
// other goroutines of this process, so spinning costs little on a busy
// machine and never holds a single P.
func spinPause(i int) {
	switch {
	case i%32 != 31:
		// Looking again costs a load of a cache line the peer has not
		// written: nanoseconds.
	case (i/32)%8 == 7:
		runtime.Gosched()
	default:
		syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
	}
}

const (
	futexWaitOp     = 0 // FUTEX_WAIT: shared, the words are in a shared mapping
	futexWakeOp     = 1 // FUTEX_WAKE
	mfdCloexec      = 1 // MFD_CLOEXEC
	mfdAllowSealing = 2 // MFD_ALLOW_SEALING

	fAddSeals  = 1033 // F_ADD_SEALS
	fGetSeals  = 1034 // F_GET_SEALS
	sealSeal   = 1    // F_SEAL_SEAL
	sealShrink = 2    // F_SEAL_SHRINK
	sealGrow   = 4    // F_SEAL_GROW
)

// futexWait sleeps while *addr == val, for at most d.
func futexWait(addr *uint32, val uint32, d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWaitOp, uintptr(val), uintptr(unsafe.Pointer(&ts)), 0, 0)
}

// futexWake wakes the sleepers on addr.
func futexWake(addr *uint32) {
	syscall.RawSyscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWakeOp, 1<<30, 0, 0, 0)
}

// hostEnds returns the host's ends of a region: it writes the first
// ring and reads the second.
func (r *region) hostEnds() (*RingReader, *RingWriter) {
	return &RingReader{reg: r, base: ringSize}, &RingWriter{reg: r, base: 0}
}

// childEnds returns the child's ends: it reads the first ring and writes
// the second.
func (r *region) childEnds() (*RingReader, *RingWriter) {
	return &RingReader{reg: r, base: 0}, &RingWriter{reg: r, base: ringSize}
}

// watchEnd reads f, a pipe the peer holds the other end of and never
// writes once the ring is in use, until it ends, then ends the region's
// stream: the peer exited, was killed or closed it.
func (r *region) watchEnd(f *os.File) {
	var b [1]byte
	n, err := f.Read(b[:])
	if n > 0 && err == nil {
		// Nothing may come this way: a peer that writes is broken.
		r.end(ErrPipeWritten)
		return
	}
	r.end(io.EOF)
}

// ErrPipeWritten ends a stream whose peer wrote to the pipe that, once
// the rings are in use, only tells that it has ended.
var ErrPipeWritten = errors.New("proc: the peer wrote to its pipe beside the shared memory")

// ringsSupported reports whether this build can share memory with a
// child.
const ringsSupported = true
