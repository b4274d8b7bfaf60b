// Package remote runs isolated executions on a fleet of workers through
// NATS: the script travels, the tools stay where they are registered.
//
// A [Runtime] is an engine.CodeRuntime whose Execute sends the script to a
// queue group of [Worker]s (toolscript worker --nats URL, or NewWorker in a
// program). The worker that takes it runs it in its own isolated runtime
// (engine.NewIsolated: a worker child process under the same OS limits as
// on one machine), with tools that send each call back to the host over
// request/reply on the execution's own subjects; the host runs the call and
// replies. Output, value and tool-call trace come back in the result, with
// the same CodeResult semantics as the local runtimes; values cross in the
// isolated runtime's encoding (package internal/tagged) and errors keep
// their types (engine.MarshalError).
//
// # Subjects
//
// With the prefix P (Config.Prefix, default "toolscript"): executions are
// requests on P.exec, queue group "workers"; execution ID's own subjects
// are P.x.ID.claim, .call, .hb, .out, .err, .part and .result (served
// by the host) and P.x.ID.cancel (served by the worker). Workers are a nats.go/micro
// service named "toolscript-worker": $SRV.PING, $SRV.INFO and $SRV.STATS
// find them and report their counts.
//
// # Delivery
//
//   - An execution runs at most once. A worker that takes a request first
//     claims the execution from the host (P.x.ID.claim); the host grants
//     one claim only, and a worker runs the script only after its claim is
//     granted. A request that no worker claims within
//     Config.DispatchTimeout (a worker that died after receiving it, or a
//     lost message) is sent again, so it reaches another worker: an
//     execution is retried exactly when no worker started it.
//   - A worker that is busy (Worker's Concurrency executions running)
//     answers busy, and the host sends the request again after a pause
//     (up to 100 ms): executions beyond the fleet's capacity wait in their
//     hosts until a worker is free or their context ends (then the result
//     is CodeTimeout). No execution is dropped. With no worker at all the
//     host waits the same way.
//   - A tool call runs at most once: each carries a call id, and the host
//     answers a second request with the same id with an error instead of
//     running the tool again. A lost reply reaches the script as the
//     call's error (at its deadline); the worker never sends it again.
//   - After the claim the worker sends a heartbeat every Config.Heartbeat.
//     A worker silent for Config.MissedHeartbeats beats (it died, or its
//     network did) ends the execution with CodeCrash and ErrWorkerLost;
//     the result has the trace of the tool calls the host ran, as the
//     host recorded them.
//
// # Time
//
// The execution's timeout (its limits', shortened to its context's
// deadline) and the context's deadline travel in the request; the
// worker's runtime applies them (the result says CodeTimeout and
// context.DeadlineExceeded, as locally). A host whose context is
// cancelled sends a cancel message; the worker stops the script and
// reports within its grace period, and the host waits for that report at
// most Config.Grace more (past it the result is CodeTimeout with the
// host's trace). The host's tools get a context that ends with the
// execution's timeout and when Execute returns. A worker whose heartbeats
// find no host (no responders, or MissedHeartbeats beats unanswered)
// abandons the execution.
//
// # Tools
//
// A gated tool (projection.Gated) is decided in the host, before the
// call, as locally, and its decision is in the trace (ToolCall.Decision)
// as in the local runtimes: on the worker such a tool is gated too, and
// its decision and call take one round trip (the host decides and, when
// it approves, runs the call; the reply carries the decision and the
// result). A refused call is an error in the script. A host tool's
// projection.Roled role crosses as well: a withheld (denied) tool stays
// off the worker's surface, and the search entry is tools.Search there.
// Tool values cross
// twice (host to worker, worker to its isolated process), each time in
// the isolated runtime's encoding.
//
// # Output
//
// With engine.WithStdout or WithStderr, the output reaches the writer
// while the script runs: the worker streams it on the execution's .out
// and .err subjects, in chunks of at most 64 KiB (and below max_payload)
// at most 20 ms after it was written, each with its offset. The result
// still carries the whole output; the host writes from it what the chunks
// did not bring (a chunk lost or out of order ends that stream's chunks),
// so the writer gets every byte once, in order, before Execute returns.
//
// # Size
//
// Every message must fit in the server's max_payload (1 MiB by default,
// nats.Conn.MaxPayload). A result (output, value and trace) that does not
// fit is sent in parts on the execution's .part subject, each with its
// offset, and put together by the host, which checks its length (a part
// lost is the execution's error, CodeCrash, never a cut result); its size
// is bounded by Limits.MaxOutputBytes, not by max_payload. An execution
// request (script, globals, tool list), a tool call's arguments or a tool
// result that does not fit is refused with an error that names both sizes
// (ErrTooLarge: "the tool's result is N bytes, max_payload is M"), a tool
// call's in the script. Nothing is cut silently.
package remote
