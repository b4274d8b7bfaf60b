// Package wire is the framing and message layer shared by toolscript's
// process boundaries: the executor's process backend (host and child), the
// isolated runtime's script worker (internal/isolated) and, later, a
// network transport.
//
// # Framing
//
// A stream is a sequence of frames. Each frame is
//
//	length  uint32, big endian: the number of bytes that follow, 9 + len(body)
//	type    uint8:  the message [Type]
//	id      uint64, big endian: the call the frame belongs to (0 when none)
//	body    length-9 bytes: the JSON encoding of the type's body struct (may be empty)
//
// A [Reader] refuses frames longer than its limit ([DefaultMaxFrame] unless
// set), so a corrupt or hostile peer cannot make it allocate without bound.
// A [Writer] writes each frame with one write call under a mutex, so
// concurrent senders never interleave, and refuses a frame that a default
// Reader would refuse, so that a sender learns of an oversized message
// (a [FrameSizeError]) instead of its peer ending the stream.
//
// # Messages
//
// The protocol is symmetric: either peer may call the other.
//
//   - [TypeHello] ([Hello]) is the first frame a worker sends; it carries the
//     protocol [Version] and the worker's process id. The host refuses a
//     worker whose version differs.
//   - [TypeCall] ([Call]) asks the peer to run a named function with JSON
//     arguments. The sender picks the id, unique among its own outstanding
//     calls; the two directions have separate id spaces.
//   - [TypeResult] ([Result]) answers the peer's call with the same id: a JSON
//     value or an [Error].
//   - [TypeProgress] ([Progress]) is sent by the side running a call, zero or
//     more times before its result.
//   - [TypeCancel] ([Cancel]) asks the side running the sender's call to stop
//     cooperatively. The peer still answers with a result.
//   - [TypeShutdown] (no body) asks the peer to finish and exit; closing the
//     stream means the same.
//
// Types from [TypeExtension] up are free for layers built on this one (the
// isolated runtime's output streaming, for instance); a receiver ignores types it does
// not know, so old peers keep working with new ones.
//
// The executor's child answers calls of registered functions. An isolated
// worker reuses the same frames the other way round as well: the host sends a
// Call named for the script run, and while running it the worker sends Calls
// for tools, which the host answers with Results on the same pipes.
package wire

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Version is the protocol version a worker announces in [Hello].
const Version = 1

// HeaderSize is the size of a frame's fixed header: length, type and id.
const HeaderSize = 4 + 1 + 8

// DefaultMaxFrame is the largest frame a [Reader] accepts unless told
// otherwise: 64 MiB, counted from the type byte to the end of the body.
const DefaultMaxFrame = 64 << 20

// Type is the kind of a frame.
type Type uint8

// The message types. The zero value is invalid.
const (
	TypeHello    Type = 1 // worker announces itself; body Hello
	TypeCall     Type = 2 // run a named function; body Call
	TypeResult   Type = 3 // answer to a Call with the same id; body Result
	TypeProgress Type = 4 // progress of a running call; body Progress
	TypeCancel   Type = 5 // cancel the call with this id; body Cancel
	TypeShutdown Type = 6 // finish and exit; no body

	// TypeExtension is the first type free for layers built on this package.
	TypeExtension Type = 64
)

// String returns the type's name, such as "call", or "type(N)" when unknown.
func (t Type) String() string {
	switch t {
	case TypeHello:
		return "hello"
	case TypeCall:
		return "call"
	case TypeResult:
		return "result"
	case TypeProgress:
		return "progress"
	case TypeCancel:
		return "cancel"
	case TypeShutdown:
		return "shutdown"
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// Errors returned by this package.
var (
	// ErrFrameTooLarge is returned by Reader.Read for a frame over the limit
	// and by Writer.Write for a body that no frame can hold.
	ErrFrameTooLarge = errors.New("wire: frame too large")
	// ErrShortFrame is returned for a length too small to hold type and id.
	ErrShortFrame = errors.New("wire: frame shorter than its header")
	// ErrBadType is returned for a frame of type 0.
	ErrBadType = errors.New("wire: invalid frame type 0")
)

// FrameSizeError is the error of a frame over the limit: Reader.Read
// returns it for a frame it refuses, Writer.Write for a frame it will not
// send because a Reader with the default limit would refuse it. It
// matches ErrFrameTooLarge.
type FrameSizeError struct {
	Type  Type // the frame's type
	Size  int  // its length, counted from the type byte
	Limit int  // the largest length accepted
}

// Error renders "wire: frame too large: a call frame of N bytes, limit L".
func (e *FrameSizeError) Error() string {
	return fmt.Sprintf("%v: a %v frame of %d bytes, limit %d", ErrFrameTooLarge, e.Type, e.Size, e.Limit)
}

// Unwrap returns ErrFrameTooLarge.
func (e *FrameSizeError) Unwrap() error { return ErrFrameTooLarge }

// Frame is one message on the stream. Body is the JSON body, possibly empty;
// it is owned by the receiver.
type Frame struct {
	Type Type
	ID   uint64
	Body []byte
}

// Decode unmarshals the frame's body into v. An empty body leaves v unchanged.
func (f Frame) Decode(v any) error {
	if len(f.Body) == 0 {
		return nil
	}
	if err := json.Unmarshal(f.Body, v); err != nil {
		return fmt.Errorf("wire: decode %v body: %w", f.Type, err)
	}
	return nil
}

// Hello is the body of TypeHello.
type Hello struct {
	Version int    `json:"version"`
	PID     int    `json:"pid"`
	Role    string `json:"role,omitempty"` // "executor", "sandbox", ...
}

// Call is the body of TypeCall.
type Call struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args,omitempty"`    // a JSON object; absent means {}
	ExecID string          `json:"exec_id,omitempty"` // the caller's id of the execution, for logs
}

// Result is the body of TypeResult: Value when Error is nil.
type Result struct {
	Value json.RawMessage `json:"value,omitempty"`
	Error *Error          `json:"error,omitempty"`
}

// Error describes a failed call.
type Error struct {
	Kind    string `json:"kind"` // one of the Kind constants
	Message string `json:"message"`
	Stack   string `json:"stack,omitempty"` // for KindPanic
}

// The kinds of Error.
const (
	KindError     = "error"     // the function returned an error; Message is its text unchanged
	KindPanic     = "panic"     // the function panicked; Message is the value, Stack the trace
	KindCancelled = "cancelled" // the call stopped after a Cancel
	KindUnknown   = "unknown"   // no function has this name
	KindBadArgs   = "bad_args"  // the arguments could not be decoded
	KindEncode    = "encode"    // the result could not be encoded
)

// Progress is the body of TypeProgress.
type Progress struct {
	Fraction float64         `json:"fraction"`
	Message  string          `json:"message,omitempty"`
	Detail   json.RawMessage `json:"detail,omitempty"`
}

// Cancel is the body of TypeCancel.
type Cancel struct {
	Reason string `json:"reason,omitempty"`
}

// Reader reads frames from a stream. It is not safe for concurrent use.
type Reader struct {
	r        *bufio.Reader
	hdr      [HeaderSize]byte
	maxFrame int
}

// NewReader returns a Reader on r that accepts frames up to DefaultMaxFrame.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 64<<10), maxFrame: DefaultMaxFrame}
}

// SetMaxFrame sets the largest accepted frame, counted from the type byte;
// n <= 0 restores DefaultMaxFrame.
func (r *Reader) SetMaxFrame(n int) {
	if n <= 0 {
		n = DefaultMaxFrame
	}
	r.maxFrame = n
}

// Buffered returns the number of bytes read from the stream and not yet
// returned in frames: when it is not zero, part of the next frame (or all
// of it) has arrived.
func (r *Reader) Buffered() int { return r.r.Buffered() }

// Read returns the next frame. At a clean end of stream it returns io.EOF; a
// stream that ends inside a frame gives io.ErrUnexpectedEOF.
func (r *Reader) Read() (Frame, error) {
	if _, err := io.ReadFull(r.r, r.hdr[:4]); err != nil {
		return Frame{}, err
	}
	n := binary.BigEndian.Uint32(r.hdr[:4])
	if n < HeaderSize-4 {
		return Frame{}, ErrShortFrame
	}
	// The rest of the header first: an error names the frame's type.
	if _, err := io.ReadFull(r.r, r.hdr[4:]); err != nil {
		return Frame{}, noEOF(err)
	}
	if uint64(n) > uint64(r.maxFrame) {
		return Frame{}, &FrameSizeError{Type: Type(r.hdr[4]), Size: int(n), Limit: r.maxFrame}
	}
	f := Frame{Type: Type(r.hdr[4]), ID: binary.BigEndian.Uint64(r.hdr[5:])}
	if f.Type == 0 {
		return Frame{}, ErrBadType
	}
	if body := int(n) - (HeaderSize - 4); body > 0 {
		f.Body = make([]byte, body)
		if _, err := io.ReadFull(r.r, f.Body); err != nil {
			return Frame{}, noEOF(err)
		}
	}
	return f, nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// Writer writes frames to a stream. It is safe for concurrent use; each frame
// is written with a single Write call.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

// NewWriter returns a Writer on w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes one frame. A frame longer than DefaultMaxFrame, which a
// Reader with the default limit would refuse (ending the stream), is not
// written: Write returns a *FrameSizeError and the stream stays usable.
func (w *Writer) Write(f Frame) error {
	if f.Type == 0 {
		return ErrBadType
	}
	if n := uint64(len(f.Body)) + HeaderSize - 4; n > DefaultMaxFrame {
		return &FrameSizeError{Type: f.Type, Size: int(min(n, 1<<62)), Limit: DefaultMaxFrame}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	b := AppendFrame(w.buf[:0], f)
	_, err := w.w.Write(b)
	if cap(b) <= 64<<10 {
		w.buf = b
	}
	return err
}

// Send encodes body as JSON (nil means no body) and writes it as a frame.
func (w *Writer) Send(t Type, id uint64, body any) error {
	f, err := Encode(t, id, body)
	if err != nil {
		return err
	}
	return w.Write(f)
}

// Encode builds a frame whose body is the JSON encoding of body; a nil body
// gives an empty one.
func Encode(t Type, id uint64, body any) (Frame, error) {
	f := Frame{Type: t, ID: id}
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return Frame{}, fmt.Errorf("wire: encode %v body: %w", t, err)
		}
		f.Body = b
	}
	return f, nil
}

// AppendFrame appends the encoding of f to b and returns the extended slice.
func AppendFrame(b []byte, f Frame) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(HeaderSize-4+len(f.Body)))
	b = append(b, byte(f.Type))
	b = binary.BigEndian.AppendUint64(b, f.ID)
	return append(b, f.Body...)
}
