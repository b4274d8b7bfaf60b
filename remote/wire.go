package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Errors of the package. Match them with errors.Is.
var (
	// ErrWorkerLost is the cause of an execution whose worker stopped
	// sending heartbeats after it started the script.
	ErrWorkerLost = errors.New("remote: the worker running the execution was lost")
	// ErrHostLost is what a worker's execution ends with when its host
	// stops answering heartbeats.
	ErrHostLost = errors.New("remote: the host of the execution was lost")
	// ErrTooLarge reports a message larger than the server's max_payload.
	ErrTooLarge = errors.New("remote: message larger than the NATS max_payload")
	// ErrDuplicateCall answers a tool call whose id the host has seen.
	ErrDuplicateCall = errors.New("remote: tool call sent twice; it ran once")
	// ErrDraining is what a draining worker answers new executions with.
	ErrDraining = errors.New("remote: worker is draining")
)

// Subject names; see the package doc.
const (
	DefaultPrefix = "toolscript"
	// QueueGroup is the queue group of the workers' exec endpoint.
	QueueGroup = "workers"
	// ServiceName is the workers' nats.go/micro service name.
	ServiceName = "toolscript-worker"
	// Version is the version of the protocol and of the service.
	Version = "1.0.0"

	callIDHeader = "Ts-Call-Id"
	execSuffix   = ".exec"
)

func execSubject(prefix string) string     { return prefix + execSuffix }
func baseSubject(prefix, id string) string { return prefix + ".x." + id }
func tooLarge(what string, n, max int64) error {
	return fmt.Errorf("%w: %s is %d bytes, max_payload is %d", ErrTooLarge, what, n, max)
}

// execRequest is the body of an exec request.
type execRequest struct {
	ID      string          `json:"id"`
	Code    string          `json:"code"`
	Limits  json.RawMessage `json:"limits"`            // engine.Limits, resolved
	Globals json.RawMessage `json:"globals,omitempty"` // tagged
	Tools   []toolSpec      `json:"tools,omitempty"`
	// Heartbeat is the interval of the worker's heartbeats; Missed how
	// many unanswered ones mean the host is gone.
	Heartbeat time.Duration `json:"hb"`
	// Deadline is the host's context's deadline (Unix nanoseconds), 0
	// for none: the worker's execution ends at it too.
	Deadline int64 `json:"deadline,omitempty"`
	Missed   int   `json:"missed"`
	// Stdout and Stderr ask the worker to stream that output while the
	// script runs (see stream.go).
	Stdout bool `json:"stdout,omitempty"`
	Stderr bool `json:"stderr,omitempty"`
}

type toolSpec struct {
	Name string          `json:"name"`
	Doc  string          `json:"doc,omitempty"`
	In   json.RawMessage `json:"in,omitempty"`
	Out  json.RawMessage `json:"out,omitempty"`
	// Role is the host tool's projection.Roled role ("" for a plain
	// tool): a withheld tool stays off the worker's surface, the search
	// entry is tools.Search there too.
	Role string `json:"role,omitempty"`
	// Gated says the host decides each call (projection.Gated): the
	// decision comes back with the call's reply, into the worker's trace.
	Gated bool `json:"gated,omitempty"`
}

// Answers of a worker to an exec request, and of the host to a claim.
const (
	answerStarted = "started"
	answerBusy    = "busy"
	answerTaken   = "taken"
	answerGranted = "granted"
)

// callRequest is a tool call's body; callReply its answer.
type callRequest struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"` // tagged map
}

type callReply struct {
	Value json.RawMessage `json:"v,omitempty"` // tagged
	Err   json.RawMessage `json:"err,omitempty"`
	// Decision is the host's decision about a gated tool's call.
	Decision string `json:"d,omitempty"`
}
