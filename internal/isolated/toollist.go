package isolated

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"reflect"
	"sync"
	"unsafe"

	"github.com/toolscript/toolscript/projection"
)

// Tool lists are sent once per worker and namespace, not with every run:
//
//   - The host builds a namespace's tool list (toolSpecs) once, and keeps
//     it with the namespace's map and a sum over its entries (entrySum: a
//     hash of each name, the identity of each tool: the two words of its
//     interface value). A namespace given again is the same one when it
//     is the same map, of the same length, with the same sum: the check
//     iterates the map once, hashing each name; it calls no method of the
//     tools and encodes nothing. A map changed since (a tool added,
//     removed or replaced by another value) fails the check and gets a
//     new list. A tool is taken to describe itself the same way (its Doc
//     and schemas) while it is the same value.
//   - The list's key is the SHA-256 of its encoding: two maps with the
//     same tools share it in the workers.
//   - A run request names the key (RunRequest.ToolsKey) and carries the
//     tools only when the worker does not hold that list yet. The host
//     knows what each worker holds without asking it: both sides apply
//     the same rule (keptLists: the workerLists lists used last), the
//     host to the keys it sent, the worker to the requests it accepted.
//     A request the worker does not accept ends with the worker killed
//     (a bad request) or retired (a list it does not hold).
//     The host never trusts what a worker does with the list: the tools a
//     worker's script calls are looked up in the run's own namespace.
//   - A session's first input carries its tools (the list's specs, not
//     its key: the worker keeps them with the session), its later inputs
//     none (SessionRequest.ToolsHeld).

// workerLists is how many tool lists a worker keeps.
const workerLists = 4

// hostLists is how many namespaces a Host keeps the tool lists of.
const hostLists = 8

// toolList is a namespace's tool list as workers receive it.
type toolList struct {
	key   string // hex SHA-256 of the specs' JSON, "" for an empty namespace
	specs []toolSpec

	ns  unsafe.Pointer // the namespace's map
	n   int            // its length
	sum [2]uint64      // entrySum of its entries when built
	// The tools whose identities sum holds, kept alive so that no other
	// tool takes their addresses while the list is kept.
	ref []projection.ToolProjection
}

// entrySum adds up a namespace's entries: a hash of each name, and the
// identity of each tool, the two words of its interface value (its
// dynamic type and data pointer). It calls no method of the tools: it
// costs a hash of each name and a few multiplications, and the order of
// the map's iteration does not change it.
func entrySum(ns map[string]projection.ToolProjection) [2]uint64 {
	var sum [2]uint64
	for name, p := range ns {
		w := *(*[2]uintptr)(unsafe.Pointer(&p))
		h := maphash.String(nameSeed, name) ^ mix(uint64(w[0])+0x9e3779b97f4a7c15) ^ mix(uint64(w[1])^0xbf58476d1ce4e5b9)
		sum[0] += h
		sum[1] ^= mix(h + 0x94d049bb133111eb)
	}
	return sum
}

var nameSeed = maphash.MakeSeed()

// mix is SplitMix64's finaliser.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// matches reports whether ns is the namespace l was built from, unchanged:
// the same map, of the same length, holding the same names and tools
// (entrySum). A map that was changed since (a tool added, removed or
// replaced by another value) does not match.
func (l *toolList) matches(ns map[string]projection.ToolProjection) bool {
	return reflect.ValueOf(ns).UnsafePointer() == l.ns && len(ns) == l.n && entrySum(ns) == l.sum
}

// listCache is a Host's tool lists of the namespaces used last.
type listCache struct {
	mu    sync.Mutex
	lists []*toolList // most recently used first
}

// get returns the tool list of ns, built now unless ns matches one kept.
// The check runs outside the lock: executions at once do not wait on
// each other's.
func (c *listCache) get(ns map[string]projection.ToolProjection) *toolList {
	c.mu.Lock()
	lists := c.lists // never written in place: replaced whole
	c.mu.Unlock()
	var l *toolList
	for _, k := range lists {
		if k.matches(ns) {
			l = k
			break
		}
	}
	if l == nil {
		l = newToolList(ns)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.lists) > 0 && c.lists[0] == l {
		return l
	}
	next := make([]*toolList, 0, hostLists)
	next = append(next, l)
	for _, k := range c.lists {
		if k != l && len(next) < hostLists {
			next = append(next, k)
		}
	}
	c.lists = next
	return l
}

// newToolList builds the tool list of ns.
func newToolList(ns map[string]projection.ToolProjection) *toolList {
	l := &toolList{
		specs: toolSpecs(ns), ns: reflect.ValueOf(ns).UnsafePointer(), n: len(ns),
		ref: make([]projection.ToolProjection, 0, len(ns)),
	}
	for _, p := range ns {
		l.ref = append(l.ref, p)
	}
	l.sum = entrySum(ns)
	if len(l.specs) > 0 {
		b, _ := json.Marshal(l.specs)
		sum := sha256.Sum256(b)
		l.key = hex.EncodeToString(sum[:16])
	}
	return l
}

// keptLists applies the rule both sides follow to the keys of the tool
// lists a worker holds, most recently used first: key moves to the front
// (entering if new) and the list is cut to workerLists. It reports
// whether key was held.
func keptLists(keys []string, key string) ([]string, bool) {
	for i, k := range keys {
		if k == key {
			copy(keys[1:i+1], keys[:i])
			keys[0] = key
			return keys, true
		}
	}
	keys = append(keys, "")
	copy(keys[1:], keys)
	keys[0] = key
	if len(keys) > workerLists {
		keys = keys[:workerLists]
	}
	return keys, false
}

// setTools sets the tools of req for worker w from the namespace's list:
// the key, and the tools only when w does not hold them.
func (w *Worker) setTools(req *RunRequest, l *toolList) {
	req.Tools, req.ToolsKey = nil, l.key
	if l.key == "" {
		return
	}
	var held bool
	w.lists, held = keptLists(w.lists, l.key)
	if !held {
		req.Tools = l.specs
	}
}

// runState is what the tools of a worker's namespace forward their calls
// under: the run in progress and its log. The tools of a kept list share
// one, set at the start of each run.
type runState struct {
	run uint64
	log *callLog
}

// workerList is a tool list a worker keeps: the namespace its scripts
// see, whose tools forward under rs.
type workerList struct {
	key string
	ns  map[string]projection.ToolProjection
	rs  *runState
}

// errNoToolList is the error of a run request that names a tool list
// the worker does not hold, without the tools.
var errNoToolList = fmt.Errorf("engine: worker: the run names a tool list the worker does not hold")

// toolList returns the namespace of a run request with a ToolsKey: the
// list kept under that key, or one built from the request's tools,
// moved to the front of the lists kept as keptLists moves keys.
func (ws *workerServer) toolList(req *RunRequest) (*workerList, error) {
	at := -1
	for i, l := range ws.lists {
		if l.key == req.ToolsKey {
			at = i
		}
	}
	var l *workerList
	switch {
	case len(req.Tools) > 0:
		// Sent: built afresh, replacing a list of the same key.
		l = &workerList{key: req.ToolsKey, rs: &runState{}}
		l.ns = ws.remoteTools(req.Tools, l.rs)
	case at < 0:
		return nil, errNoToolList
	default:
		l = ws.lists[at]
	}
	if at >= 0 {
		ws.lists = append(ws.lists[:at], ws.lists[at+1:]...)
	}
	ws.lists = append([]*workerList{l}, ws.lists...)
	if len(ws.lists) > workerLists {
		ws.lists = ws.lists[:workerLists]
	}
	return l, nil
}
