package isolated

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/toolscript/toolscript/internal/tagged"
	"github.com/toolscript/toolscript/internal/wire"
)

// The isolated runtime's protocol, on the frames of package wire:
//
//	host -> worker  Call "run" (body wire.Call, args RunRequest)   starts a script; the id names the run
//	worker -> host  typeStdout, typeStderr (raw bytes, id = run)   output as the script writes it
//	worker -> host  Call <tool name> (args: tagged map)            a tool call; exec_id = run id
//	worker -> host  typeCallKept (body and answer as Call)         a tool call whose arguments the trace may refer to
//	host -> worker  Result (value: tagged, or wire.Error)          the tool's answer
//	worker -> host  Cancel (id = tool call)                        the script stopped waiting for that call
//	host -> worker  Cancel (id = run)                              the caller cancelled the execution
//	worker -> host  typeTrace (binary, id = run; see appendTrace)  the script's tool-call trace, when not empty
//	worker -> host  Result (id = run, value: runReply)             the script's CodeResult, output and trace excepted
//	worker -> host  typeReady ({"clean":bool})                     the run's goroutines are gone (or not)
//	host -> worker  Shutdown                                       exit
const (
	typeStdout = wire.TypeExtension + iota
	typeStderr
	typeReady
	typeTrace
	// typeCallKept is a tool call whose arguments the host keeps for the
	// trace: the worker's trace may name its frame instead of carrying
	// them again. The worker marks calls so within Bounds.TraceBytes of
	// their encoding, and the host keeps no more than that.
	typeCallKept
)

const runCall = "run"

// MaxFrameBytes bounds a frame of the protocol: engine.MaxFrameBytes,
// which package engine checks at compile time.
const MaxFrameBytes = wire.DefaultMaxFrame

// workerRole is the pool role of the engine's workers.
const workerRole = "engine"

// RunRequest is the body of the run call.
type RunRequest struct {
	Code  string     `json:"code"`
	Tools []toolSpec `json:"tools,omitempty"`
	// ToolsKey names the run's tool list (see toollist.go): the worker
	// keeps it under that key, and Tools is empty once it has it.
	ToolsKey string          `json:"tools_key,omitempty"`
	Limits   json.RawMessage `json:"limits"`             // engine.Limits, with defaults
	Deadline int64           `json:"deadline,omitempty"` // unix ns; 0: none
	Globals  json.RawMessage `json:"globals,omitempty"`  // tagged map
	Grace    time.Duration   `json:"grace"`
	RunCPU   time.Duration   `json:"run_cpu,omitempty"`

	session *SessionRequest // the session call's request, for an input of a session
}

// appendRunRequest appends req's JSON, as json.Marshal writes it, but
// by hand: it is on the way of every execution.
func appendRunRequest(b []byte, req *RunRequest) ([]byte, error) {
	b = append(b, `{"code":`...)
	b = tagged.AppendString(b, req.Code)
	if len(req.Tools) > 0 {
		tools, err := json.Marshal(req.Tools)
		if err != nil {
			return nil, err
		}
		b = append(append(b, `,"tools":`...), tools...)
	}
	if req.ToolsKey != "" {
		b = append(b, `,"tools_key":`...)
		b = tagged.AppendString(b, req.ToolsKey)
	}
	b = appendRaw(append(b, `,"limits":`...), req.Limits)
	if req.Deadline != 0 {
		b = strconv.AppendInt(append(b, `,"deadline":`...), req.Deadline, 10)
	}
	if len(req.Globals) > 0 {
		b = appendRaw(append(b, `,"globals":`...), req.Globals)
	}
	b = strconv.AppendInt(append(b, `,"grace":`...), int64(req.Grace), 10)
	if req.RunCPU != 0 {
		b = strconv.AppendInt(append(b, `,"run_cpu":`...), int64(req.RunCPU), 10)
	}
	return append(b, '}'), nil
}

// appendRaw appends raw JSON, null when empty, as json.Marshal writes a
// json.RawMessage; raw is the host's own encoding (of the limits, of the
// globals), compact and valid.
func appendRaw(b, raw []byte) []byte {
	if len(raw) == 0 {
		return append(b, "null"...)
	}
	return append(b, raw...)
}

// parseRunRequest reads a run request: by hand when it has the form
// appendRunRequest gives a request without tools (it is on the way of
// every execution), else with encoding/json.
func parseRunRequest(b []byte, req *RunRequest) error {
	if parseRunFast(b, req) {
		return nil
	}
	*req = RunRequest{}
	return json.Unmarshal(b, req)
}

// parseRunFast parses b in appendRunRequest's form without tools into
// req, and reports whether it could.
func parseRunFast(b []byte, req *RunRequest) bool {
	p := runParser{b: b}
	if !p.lit(`{"code":`) {
		return false
	}
	code, ok := p.str()
	if !ok {
		return false
	}
	req.Code = code
	if p.lit(`,"tools_key":`) {
		if req.ToolsKey, ok = p.str(); !ok {
			return false
		}
	}
	if !p.lit(`,"limits":`) {
		return false
	}
	if req.Limits, ok = p.raw(); !ok {
		return false
	}
	if p.lit(`,"deadline":`) {
		if req.Deadline, ok = p.int(); !ok {
			return false
		}
	}
	if p.lit(`,"globals":`) {
		if req.Globals, ok = p.raw(); !ok {
			return false
		}
	}
	if !p.lit(`,"grace":`) {
		return false
	}
	grace, ok := p.int()
	if !ok {
		return false
	}
	req.Grace = time.Duration(grace)
	if p.lit(`,"run_cpu":`) {
		cpu, ok := p.int()
		if !ok {
			return false
		}
		req.RunCPU = time.Duration(cpu)
	}
	return p.lit(`}`) && len(p.b) == 0
}

// runParser reads the parts of a run request in parseRunFast.
type runParser struct{ b []byte }

// lit consumes s when b starts with it.
func (p *runParser) lit(s string) bool {
	if len(p.b) < len(s) || string(p.b[:len(s)]) != s {
		return false
	}
	p.b = p.b[len(s):]
	return true
}

// stringEnd returns the length of the JSON string b starts with, quotes
// included, and whether it holds escapes; 0 when b does not start with a
// terminated string.
func stringEnd(b []byte) (int, bool) {
	if len(b) == 0 || b[0] != '"' {
		return 0, false
	}
	escaped := false
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			return i + 1, escaped
		}
	}
	return 0, false
}

// str reads a JSON string.
func (p *runParser) str() (string, bool) {
	n, escaped := stringEnd(p.b)
	if n == 0 {
		return "", false
	}
	tok := p.b[:n]
	p.b = p.b[n:]
	if !escaped && plainString(tok[1:n-1]) {
		return string(tok[1 : n-1]), true
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return "", false
	}
	return s, true
}

// int reads a JSON integer.
func (p *runParser) int() (int64, bool) {
	i := 0
	if i < len(p.b) && p.b[i] == '-' {
		i++
	}
	if i < len(p.b) && p.b[i] == '0' && i+1 < len(p.b) && p.b[i+1] >= '0' && p.b[i+1] <= '9' {
		return 0, false // JSON has no leading zeros
	}
	for i < len(p.b) && p.b[i] >= '0' && p.b[i] <= '9' {
		i++
	}
	v, err := strconv.ParseInt(string(p.b[:i]), 10, 64)
	if err != nil {
		return 0, false
	}
	p.b = p.b[i:]
	return v, true
}

// value reads one JSON value, not copied, checked with json.Valid.
func (p *runParser) value() (json.RawMessage, bool) {
	end := 0
	switch {
	case len(p.b) == 0:
		return nil, false
	case p.b[0] == '"':
		end, _ = stringEnd(p.b)
	case p.b[0] == '{' || p.b[0] == '[':
		depth := 0
	scan:
		for i := 0; i < len(p.b); i++ {
			switch p.b[i] {
			case '"':
				n, _ := stringEnd(p.b[i:])
				if n == 0 {
					return nil, false
				}
				i += n - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					end = i + 1
					break scan
				}
			}
		}
	default: // a number, true, false or null: no spaces around it
		for end < len(p.b) && p.b[end] != ',' && p.b[end] != '}' {
			if c := p.b[end]; c <= ' ' {
				return nil, false
			}
			end++
		}
	}
	if end == 0 || !json.Valid(p.b[:end]) {
		return nil, false
	}
	v := p.b[:end:end]
	p.b = p.b[end:]
	return v, true
}

// raw reads a JSON object or null, copied, as encoding/json gives a
// json.RawMessage (null too); the object is checked with json.Valid.
func (p *runParser) raw() (json.RawMessage, bool) {
	if p.lit("null") {
		return json.RawMessage("null"), true
	}
	if len(p.b) == 0 || p.b[0] != '{' {
		return nil, false
	}
	depth := 0
	for i := 0; i < len(p.b); i++ {
		switch p.b[i] {
		case '"':
			n, _ := stringEnd(p.b[i:])
			if n == 0 {
				return nil, false
			}
			i += n - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				v := p.b[:i+1]
				if !json.Valid(v) {
					return nil, false
				}
				p.b = p.b[i+1:]
				return append(json.RawMessage(nil), v...), true
			}
		}
	}
	return nil, false
}

// toolSpec describes one host tool to the worker.
type toolSpec struct {
	Name       string `json:"name"`
	Doc        string `json:"doc,omitempty"`
	Namespaced bool   `json:"namespaced,omitempty"`
	Namespace  string `json:"namespace,omitempty"`
	Method     string `json:"method,omitempty"`
	Role       string `json:"role,omitempty"` // projection.Roled's Role, "" for a plain tool
	// The tool's schemas, so that the worker's scripts see the typed
	// tools the host's would (projection.Schemas).
	Schema       json.RawMessage `json:"schema,omitempty"`
	OutputSchema json.RawMessage `json:"output_schema,omitempty"`
}

// runReply is the value of the run call's result.
type runReply struct {
	Code            int             `json:"code"`
	Error           string          `json:"error,omitempty"`
	Err             *ErrInfo        `json:"err,omitempty"`
	Value           json.RawMessage `json:"value,omitempty"` // tagged
	HasValue        bool            `json:"has_value,omitempty"`
	StdoutTruncated bool            `json:"stdout_truncated,omitempty"`
	StderrTruncated bool            `json:"stderr_truncated,omitempty"`
	Retire          bool            `json:"retire,omitempty"`
	Trace           int             `json:"trace,omitempty"` // entries of the typeTrace frame sent before
	ErrorTruncated  bool            `json:"error_truncated,omitempty"`
	TraceTruncated  bool            `json:"trace_truncated,omitempty"` // CodeResult.ToolCallsTruncated
}

// replyFlags are runReply's flags in the order of its JSON fields after
// the value.
func (r *runReply) replyFlags() []struct {
	name string
	v    *bool
} {
	return []struct {
		name string
		v    *bool
	}{
		{`,"has_value":true`, &r.HasValue},
		{`,"stdout_truncated":true`, &r.StdoutTruncated},
		{`,"stderr_truncated":true`, &r.StderrTruncated},
		{`,"retire":true`, &r.Retire},
	}
}

// appendRunReply appends r's JSON as json.Marshal writes it (the value,
// tagged, is the worker's own compact encoding), by hand but for a reply
// with an error of a type (Err): it is on the way of every execution.
func appendRunReply(b []byte, r *runReply) ([]byte, error) {
	if r.Err != nil {
		j, err := json.Marshal(r)
		return append(b, j...), err
	}
	b = strconv.AppendInt(append(b, `{"code":`...), int64(r.Code), 10)
	if r.Error != "" {
		b = tagged.AppendString(append(b, `,"error":`...), r.Error)
	}
	if len(r.Value) > 0 {
		b = append(append(b, `,"value":`...), r.Value...)
	}
	for _, f := range r.replyFlags() {
		if *f.v {
			b = append(b, f.name...)
		}
	}
	if r.Trace != 0 {
		b = strconv.AppendInt(append(b, `,"trace":`...), int64(r.Trace), 10)
	}
	if r.ErrorTruncated {
		b = append(b, `,"error_truncated":true`...)
	}
	if r.TraceTruncated {
		b = append(b, `,"trace_truncated":true`...)
	}
	return append(b, '}'), nil
}

// parseRunReply reads a run reply from the worker: by hand when it has
// appendRunReply's form without Err, else with encoding/json. Any bytes
// are safe to give it. The value is not copied out of b.
func parseRunReply(b []byte, r *runReply) error {
	if parseReplyFast(b, r) {
		return nil
	}
	*r = runReply{}
	return json.Unmarshal(b, r)
}

// parseReplyFast parses b in appendRunReply's form without Err into r,
// and reports whether it could.
func parseReplyFast(b []byte, r *runReply) bool {
	p := runParser{b: b}
	if !p.lit(`{"code":`) {
		return false
	}
	code, ok := p.int()
	if !ok || code != int64(int(code)) {
		return false
	}
	r.Code = int(code)
	if p.lit(`,"error":`) {
		if r.Error, ok = p.str(); !ok {
			return false
		}
	}
	if p.lit(`,"value":`) {
		if r.Value, ok = p.value(); !ok {
			return false
		}
	}
	for _, f := range r.replyFlags() {
		*f.v = p.lit(f.name)
	}
	if p.lit(`,"trace":`) {
		n, ok := p.int()
		if !ok || n != int64(int(n)) {
			return false
		}
		r.Trace = int(n)
	}
	r.ErrorTruncated = p.lit(`,"error_truncated":true`)
	r.TraceTruncated = p.lit(`,"trace_truncated":true`)
	return p.lit(`}`) && len(p.b) == 0
}

// The trace frame is binary: it is the bulk of a reply after many tool
// calls, and JSON would cost its encoding, a validation and a decoding.
// Each entry of the trace is
//
//	uvarint  frame id of the tool call that carried the entry's
//	         arguments, or 0: then the arguments follow
//	uvarint  flags: 1 the arguments were omitted (Call.ArgsOmitted)
//	uvarint  length, name
//	varint   duration (ns)
//	uvarint  length, error
//	uvarint  length, arguments (tagged; empty: nil), when the id is 0
//
// With an id, the host takes the arguments it decoded when it served that
// call: they are not encoded, sent and decoded a second time.

// appendTrace appends the encoding of an entry of the trace; scratch is
// scratch space, returned for reuse.
func appendTrace(b, scratch []byte, frame uint64, tc *Call) ([]byte, []byte) {
	b = binary.AppendUvarint(b, frame)
	var flags uint64
	if tc.ArgsOmitted {
		flags |= 1
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendUvarint(b, uint64(len(tc.Name)))
	b = append(b, tc.Name...)
	b = binary.AppendVarint(b, int64(tc.Duration))
	b = binary.AppendUvarint(b, uint64(len(tc.Error)))
	b = append(b, tc.Error...)
	if frame == 0 {
		args, err := tagged.Append(scratch[:0], tc.Args)
		if err != nil {
			args = args[:0] // arrives as nil
		}
		b = binary.AppendUvarint(b, uint64(len(args)))
		b = append(b, args...)
		scratch = args
	}
	return b, scratch
}

var errBadTrace = errors.New("engine: bad trace from the worker")

// parseTrace reads n entries of a trace frame; fill sets, in an entry
// that names a frame id, what the host knows of that call: the arguments
// it decoded and its decision.
func parseTrace(b []byte, n int, fill func(frame uint64, tc *Call)) ([]Call, error) {
	if n <= 0 || n > len(b) {
		return nil, errBadTrace
	}
	calls := make([]Call, n)
	uvarint := func() (uint64, bool) {
		v, k := binary.Uvarint(b)
		if k <= 0 {
			return 0, false
		}
		b = b[k:]
		return v, true
	}
	bytesOf := func() ([]byte, bool) {
		l, ok := uvarint()
		if !ok || l > uint64(len(b)) {
			return nil, false
		}
		s := b[:l]
		b = b[l:]
		return s, true
	}
	for i := range calls {
		frame, ok := uvarint()
		if !ok {
			return nil, errBadTrace
		}
		flags, ok := uvarint()
		if !ok {
			return nil, errBadTrace
		}
		name, ok := bytesOf()
		if !ok {
			return nil, errBadTrace
		}
		d, k := binary.Varint(b)
		if k <= 0 {
			return nil, errBadTrace
		}
		b = b[k:]
		msg, ok := bytesOf()
		if !ok {
			return nil, errBadTrace
		}
		tc := &calls[i]
		if i > 0 && string(name) == calls[i-1].Name {
			// A loop's calls of one tool share its name.
			tc.Name = calls[i-1].Name
		} else {
			tc.Name = string(name)
		}
		tc.Duration, tc.Error = time.Duration(d), string(msg)
		tc.ArgsOmitted = flags&1 != 0
		if frame != 0 {
			fill(frame, tc)
			continue
		}
		raw, ok := bytesOf()
		if !ok {
			return nil, errBadTrace
		}
		// As the JSON reply did: arguments that could not be decoded
		// (or encoded) are nil.
		tc.Args, _ = tagged.UnmarshalMap(raw)
	}
	if len(b) != 0 {
		return nil, errBadTrace
	}
	return calls, nil
}

type readyMsg struct {
	Clean bool `json:"clean"`
}

// readyClean is the body of a clean ready message, as the worker encodes
// it.
var readyClean = []byte(`{"clean":true}`)

// isClean reads a ready message's body: by hand in the worker's
// encoding (no decoder on the goroutine that recycles the worker, whose
// stack would grow for it), else as a readyMsg.
func isClean(body []byte) bool {
	if bytes.Equal(body, readyClean) {
		return true
	}
	var m readyMsg
	return json.Unmarshal(body, &m) == nil && m.Clean
}

// ErrInfo carries a structured error across the pipe; Engine.EncodeError
// and Engine.DecodeError fill and read it.
type ErrInfo struct {
	Kind    string          `json:"kind"` // script, panic, limit, exit, tool, text
	Msg     string          `json:"msg"`  // Error() of the whole error
	Is      []string        `json:"is,omitempty"`
	Line    int             `json:"line,omitempty"`
	Column  int             `json:"column,omitempty"`
	Text    string          `json:"text,omitempty"` // ScriptError.Msg, ToolError's cause
	Source  string          `json:"source,omitempty"`
	Stack   string          `json:"stack,omitempty"`
	Value   json.RawMessage `json:"value,omitempty"` // panic value, tagged
	Limit   json.RawMessage `json:"limit,omitempty"` // *LimitError as JSON
	Code    int             `json:"code,omitempty"`
	Tool    string          `json:"tool,omitempty"`
	IsError bool            `json:"is_error,omitempty"` // the panic value was an error
}

// Tool-call frames are built and parsed by hand: they are the hot path.

// appendToolCall builds the body of a tool call frame (a wire.Call).
func appendToolCall(b []byte, name string, args map[string]any, run uint64) ([]byte, error) {
	b, _, err := appendToolCallAt(b, name, args, run)
	return b, err
}

// appendToolCallAt is appendToolCall that also returns where the
// arguments' encoding starts in b.
func appendToolCallAt(b []byte, name string, args map[string]any, run uint64) ([]byte, int, error) {
	b = append(b, `{"name":`...)
	b = tagged.AppendString(b, name)
	b = append(b, `,"exec_id":"`...)
	b = strconv.AppendUint(b, run, 10)
	b = append(b, `","args":`...)
	at := len(b)
	b, err := tagged.Append(b, args)
	if err != nil {
		return nil, 0, err
	}
	return append(b, '}'), at, nil
}

var (
	callName = []byte(`{"name":"`)
	callExec = []byte(`","exec_id":"`)
	callArgs = []byte(`","args":`)
)

// parseToolCall reads a tool call frame's body: by hand when it has
// appendToolCall's form (the arguments are then parsed once, not twice),
// else as a wire.Call.
func parseToolCall(body []byte) (name string, args map[string]any, argLen int, err error) {
	return parseToolCallAs(body, "")
}

// parseToolCallAs is parseToolCall that returns last, not a copy, for a
// call of the tool named last (a loop's calls of one tool share its name).
func parseToolCallAs(body []byte, last string) (name string, args map[string]any, argLen int, err error) {
	if n, raw, ok := splitCall(body); ok {
		args, err = tagged.UnmarshalMap(raw)
		if name = last; string(n) != last {
			name = string(n)
		}
		return name, args, len(raw), err
	}
	var c wire.Call
	if err := json.Unmarshal(body, &c); err != nil {
		return "", nil, 0, err
	}
	if len(c.Args) == 0 {
		return c.Name, nil, 0, nil
	}
	args, err = tagged.UnmarshalMap(c.Args)
	return c.Name, args, len(c.Args), err
}

// splitCall returns the name and the arguments of a call body of
// appendToolCall's form, {"name":N,"exec_id":"digits","args":A}, with a
// name that needs no decoding; A is not checked.
func splitCall(body []byte) (name, args []byte, ok bool) {
	rest, ok := bytes.CutPrefix(body, callName)
	if !ok {
		return nil, nil, false
	}
	i := bytes.IndexByte(rest, '"')
	if i < 0 || !plainString(rest[:i]) {
		return nil, nil, false
	}
	name = rest[:i]
	if rest, ok = bytes.CutPrefix(rest[i:], callExec); !ok {
		return nil, nil, false
	}
	j := 0
	for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
		j++
	}
	if rest, ok = bytes.CutPrefix(rest[j:], callArgs); !ok || len(rest) <= 1 || rest[len(rest)-1] != '}' {
		return nil, nil, false
	}
	return name, rest[:len(rest)-1], true
}

// appendRunCall builds the body of a run or session call (a wire.Call)
// in appendToolCall's form around args, JSON the host encoded: the
// worker then decodes the request once (parseRunCall), not twice.
func appendRunCall(b []byte, name string, args []byte, run uint64) []byte {
	b = append(b, callName[:len(callName)-1]...)
	b = tagged.AppendString(b, name)
	b = append(b, callExec[1:]...)
	b = strconv.AppendUint(b, run, 10)
	b = append(b, callArgs...)
	b = append(b, args...)
	return append(b, '}')
}

// parseRunCall reads the body of a call of the host: by hand when it has
// appendRunCall's form, else as a wire.Call.
func parseRunCall(body []byte) (wire.Call, error) {
	if n, args, ok := splitCall(body); ok {
		return wire.Call{Name: string(n), Args: args}, nil
	}
	var c wire.Call
	err := json.Unmarshal(body, &c)
	return c, err
}

// plainString reports whether b, the inside of a JSON string, needs no
// decoding: no escapes, no control characters, valid UTF-8.
func plainString(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' {
			return false
		}
	}
	return utf8.Valid(b)
}

var valuePrefix = []byte(`{"value":`)

// resultValue returns the value of a wire.Result body of the form
// {"value":...}, as appendToolResult and the worker's run reply build it.
func resultValue(body []byte) (json.RawMessage, bool) {
	if !bytes.HasPrefix(body, valuePrefix) || len(body) <= len(valuePrefix) || body[len(body)-1] != '}' {
		return nil, false
	}
	return body[len(valuePrefix) : len(body)-1], true
}

// appendToolResult builds the body of a tool result (a wire.Result).
func appendToolResult(b []byte, v any) ([]byte, error) {
	b = append(b, valuePrefix...)
	b, err := tagged.Append(b, v)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// Kinds of wire.Error for tool errors, besides those of package wire.
const (
	kindDeadline = "deadline" // the tool returned context.DeadlineExceeded itself
	kindCanceled = "canceled" // the tool returned context.Canceled itself
)

// toolErrorBody encodes a tool's error.
func toolErrorBody(eng Engine, err error) []byte {
	kind := wire.KindError
	switch {
	case err == context.DeadlineExceeded: //nolint:errorlint // the identity is what crosses
		kind = kindDeadline
	case err == context.Canceled: //nolint:errorlint // the identity is what crosses
		kind = kindCanceled
	}
	msg := err.Error()
	if len(msg) > MaxFrameBytes/2 {
		msg, _ = eng.Cut(msg, eng.Bounds().ErrorBytes) // else it could not cross
	}
	b, _ := json.Marshal(&toolResult{Error: &wire.Error{Kind: kind, Message: msg}, Is: eng.EncodeError(err).Is})
	return b
}

// toolResult is a wire.Result with the sentinels a tool's error matched.
type toolResult struct {
	Error *wire.Error `json:"error,omitempty"`
	Is    []string    `json:"is,omitempty"`
}

// badToolResult is the error of a tool result frame that does not parse.
func badToolResult(err error) error {
	return fmt.Errorf("engine: bad tool result from the host: %w", err)
}

// parseToolResult reads a tool result frame's body.
func parseToolResult(eng Engine, body []byte) (any, error) {
	if bytes.HasPrefix(body, valuePrefix) && len(body) > len(valuePrefix) {
		v, err := tagged.Unmarshal(body[len(valuePrefix) : len(body)-1])
		if err != nil {
			return nil, badToolResult(err)
		}
		return v, nil
	}
	var r toolResult
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, badToolResult(err)
	}
	if r.Error == nil {
		return nil, nil
	}
	switch r.Error.Kind {
	case kindDeadline:
		return nil, context.DeadlineExceeded
	case kindCanceled:
		return nil, context.Canceled
	}
	return nil, eng.DecodeError(&ErrInfo{Kind: "text", Msg: r.Error.Message, Is: r.Is})
}
