package engine

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// Bounds of the parts of a CodeResult that Limits does not name. Stdout and
// Stderr are bounded by Limits.MaxOutputBytes, and so is Value's size.
const (
	// MaxErrorBytes bounds CodeResult.Error (and the message of the
	// PanicError, ScriptError or tool error behind it): a longer message
	// is cut, ends with " …[truncated]" and sets CodeResult.ErrorTruncated.
	// Messages are cut before the engine reads them, so a script's huge
	// panic message costs nothing after its deadline.
	MaxErrorBytes = 64 << 10
	// MaxValueDepth bounds the nesting of CodeResult.Value and of a tool
	// call's arguments (maps, slices, arrays, structs and pointers each
	// count one level), as deep as encoding/json goes before it looks for
	// cycles. A deeper or cyclic value given to result() ends the
	// execution with a *ScriptError at that line; deeper or cyclic
	// arguments fail the tool call with a *ToolError.
	MaxValueDepth = 1000
	// MaxTraceArgBytes bounds the arguments one entry of
	// CodeResult.ToolCalls keeps, measured as their JSON encoding about
	// is. Larger arguments reach the tool whole, but the entry has nil
	// Args and ArgsOmitted set.
	MaxTraceArgBytes = 64 << 10
	// MaxTraceErrorBytes bounds the Error of one entry of
	// CodeResult.ToolCalls; a longer message is cut and ends with
	// " …[truncated]".
	MaxTraceErrorBytes = 4 << 10
	// MaxTraceBytes bounds the whole trace: the names, kept arguments and
	// errors of its entries, plus 32 bytes for each. Calls past it still
	// run (MaxToolCalls bounds them) but have no entry, and
	// CodeResult.ToolCallsTruncated is set.
	MaxTraceBytes = 8 << 20
)

// traceEntryCost is what an entry of the trace costs besides its name,
// arguments and error.
const traceEntryCost = 32

// truncatedMark ends a message that was cut to its bound.
const truncatedMark = " …[truncated]"

// cutMessage cuts s to at most n bytes, marked, on a character boundary.
// Cutting a cut message, or a longer string that starts like it, gives the
// same result, so a message cut on both sides of a pipe matches.
func cutMessage(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	k := n - len(truncatedMark)
	for k > 0 && !utf8.RuneStart(s[k]) {
		k--
	}
	return s[:k] + truncatedMark, true
}

// Errors of copyValue, wrapped in the error it returns.
var (
	errCyclic   = errors.New("contains itself")
	errTooDeep  = fmt.Errorf("is nested deeper than %d levels (MaxValueDepth)", MaxValueDepth)
	errTooLarge = errors.New("is too large")
)

// copyValue returns a deep copy of v, a value of the script, that nothing
// the script keeps can change, and its size measured as its JSON encoding
// about is. It stops with an error wrapping errTooLarge once the size
// passes budget (< 0: no budget), errTooDeep past MaxValueDepth and
// errCyclic for a value that contains itself.
//
// Maps, slices and arrays are copied, and so are structs and what pointers
// point to, unless they are of a named type of a Go package (time.Time, a
// *big.Int, the interpreter's wrapper of a script value with methods): such
// a value is copied as Go assigns it, its exported fields deeply, and a
// pointer to one is shared. Functions and channels are shared.
func copyValue(v any, budget int64) (out any, size int64, err error) {
	c := valueCopier{budget: budget}
	if budget < 0 {
		c.budget = math.MaxInt64
	}
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("cannot be copied: %v", r)
		}
	}()
	out = c.value(v, 0)
	if c.err != nil {
		return nil, c.size, c.err
	}
	return out, c.size, nil
}

// copyArgs is copyValue for the arguments of a tool call, without budget.
// A map of scalars (the common case) costs one map.
func copyArgs(m map[string]any) (map[string]any, int64, error) {
	if m == nil {
		return nil, 4, nil
	}
	c := valueCopier{budget: math.MaxInt64}
	out := c.mapAny(m, 0)
	if c.err != nil {
		return nil, c.size, c.err
	}
	return out, c.size, nil
}

// valueCopier is the state of one copyValue. A cycle is found without
// a record of the path: a cyclic value is deeper than MaxValueDepth, and
// the container met at that depth is then one of those being copied,
// which leave recognises on the way back.
type valueCopier struct {
	budget, size int64
	err          error
	trip         uintptr      // the container met at MaxValueDepth
	tripType     reflect.Type // its type
}

func (c *valueCopier) add(n int) {
	c.size += int64(n)
	if c.size > c.budget && c.err == nil {
		c.err = errTooLarge
	}
}

// enter starts copying the container id at depth; it reports false (and
// sets c.err) past MaxValueDepth.
func (c *valueCopier) enter(depth int, id uintptr, t reflect.Type) bool {
	if c.err != nil {
		return false
	}
	if depth >= MaxValueDepth {
		c.err, c.trip, c.tripType = errTooDeep, id, t
		return false
	}
	return true
}

// leave ends copying the container id.
func (c *valueCopier) leave(id uintptr) {
	if id != 0 && id == c.trip && c.err == errTooDeep { //nolint:errorlint // set as is by enter
		c.err = fmt.Errorf("%w (through a %s)", errCyclic, c.tripType)
	}
}

// scalarSize is the JSON size of a number about is.
const scalarSize = 8

// scalarCost returns the size of v when it is a scalar of the fast path.
func scalarCost(v any) (int, bool) {
	switch x := v.(type) {
	case nil:
		return 4, true
	case string:
		return len(x) + 2, true
	case bool:
		return 5, true
	case int, int64, float64, int32, uint8, uint64:
		return scalarSize, true
	}
	return 0, false
}

func (c *valueCopier) value(v any, depth int) any {
	if p, ok := interp.PlainValue(v); ok {
		v = p // a value of a script type the script held in an interface
	}
	if n, ok := scalarCost(v); ok {
		c.add(n)
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			c.add(4)
			return v
		}
		return c.mapAny(x, depth)
	case []any:
		if x == nil {
			c.add(4)
			return v
		}
		id := uintptr(reflect.ValueOf(x).UnsafePointer())
		if !c.enter(depth, id, reflect.TypeOf(x)) {
			return nil
		}
		defer c.leave(id)
		out := make([]any, len(x))
		c.add(2)
		for i, e := range x {
			out[i] = c.value(e, depth+1)
			c.add(1)
			if c.err != nil {
				return nil
			}
		}
		return out
	}
	rv := reflect.ValueOf(v)
	cv := c.reflect(rv, depth)
	if c.err == nil && cv.Type() != rv.Type() {
		return cv.Interface() // made of a typed tool's enum: see plainEnums
	}
	if c.err != nil || !mayRefer(rv.Type()) && rv.Kind() != reflect.Struct {
		return v // nothing to copy: keep v as it is
	}
	return cv.Interface()
}

// ownArgs is copyArgs for a map nothing but the tool can reach (a map
// literal written in the call): its scalar entries stay as they are, and
// only the values that may refer to memory the script still holds are
// replaced by copies, so a call with a literal of scalars costs no
// allocation.
func ownArgs(m map[string]any) (int64, error) {
	c := valueCopier{budget: math.MaxInt64}
	c.add(2)
	for k, e := range m {
		if !c.ownEntry(m, k, e) {
			return c.size, c.err
		}
	}
	return c.size, nil
}

// ownEntry counts the entry k, e of m and replaces e by a copy when it
// may refer to memory the script still holds; it reports false once the
// copy has failed (c.err).
func (c *valueCopier) ownEntry(m map[string]any, k string, e any) bool {
	c.add(len(k) + 4)
	if n, ok := scalarCost(e); ok {
		c.add(n)
		return true
	}
	m[k] = c.value(e, 1)
	return c.err == nil
}

func (c *valueCopier) mapAny(m map[string]any, depth int) map[string]any {
	id := uintptr(reflect.ValueOf(m).UnsafePointer())
	if !c.enter(depth, id, reflect.TypeOf(m)) {
		return nil
	}
	defer c.leave(id)
	out := make(map[string]any, len(m))
	c.add(2)
	for k, e := range m {
		c.add(len(k) + 4)
		if n, ok := scalarCost(e); ok {
			c.add(n)
			out[k] = e
			continue
		}
		out[k] = c.value(e, depth+1)
		if c.err != nil {
			return nil
		}
	}
	return out
}

// reflect copies the values the fast path of value does not know.
func (c *valueCopier) reflect(v reflect.Value, depth int) reflect.Value {
	if c.err != nil {
		return v
	}
	t := v.Type()
	if pt := plainEnumType(t); pt != t {
		v, t = plainEnums(v, pt), pt // a typed tool's enum leaves the script as a string
	}
	switch v.Kind() {
	case reflect.Bool:
		c.add(5)
	case reflect.String:
		c.add(v.Len() + 2)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		c.add(scalarSize)
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		c.add(4)
	case reflect.Interface:
		if v.IsNil() {
			c.add(4)
			return v
		}
		elem := v.Elem()
		if interp.IsRecord(elem.Type()) && elem.CanInterface() {
			if p, ok := interp.PlainValue(elem.Interface()); ok {
				elem = reflect.ValueOf(p)
			}
		}
		e := c.reflect(elem, depth)
		n := reflect.New(t).Elem()
		n.Set(e)
		return n
	case reflect.Pointer:
		if v.IsNil() {
			c.add(4)
			return v
		}
		if t.Elem().PkgPath() != "" {
			c.add(scalarSize) // shared: see copyValue
			return v
		}
		id := uintptr(v.UnsafePointer())
		if !c.enter(depth, id, t) {
			return v
		}
		defer c.leave(id)
		e := c.reflect(v.Elem(), depth+1)
		p := reflect.New(t.Elem())
		p.Elem().Set(e)
		return p
	case reflect.Map:
		if v.IsNil() {
			c.add(4)
			return v
		}
		id := uintptr(v.UnsafePointer())
		if !c.enter(depth, id, t) {
			return v
		}
		defer c.leave(id)
		n := reflect.MakeMapWithSize(t, v.Len())
		c.add(2)
		it := v.MapRange()
		for it.Next() {
			k := c.reflect(it.Key(), depth+1)
			e := c.reflect(it.Value(), depth+1)
			c.add(2)
			if c.err != nil {
				return v
			}
			n.SetMapIndex(k, e)
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			c.add(4)
			return v
		}
		id := uintptr(v.UnsafePointer())
		if !c.enter(depth, id, t) {
			return v
		}
		defer c.leave(id)
		n := reflect.MakeSlice(t, v.Len(), v.Len())
		return c.elems(v, n, depth)
	case reflect.Array:
		if !c.enter(depth, 0, t) {
			return v
		}
		return c.elems(v, reflect.New(t).Elem(), depth)
	case reflect.Struct:
		if !c.enter(depth, 0, t) {
			return v
		}
		n := reflect.New(t).Elem()
		n.Set(v)
		c.add(2)
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue // copied as Go assigns it; see copyValue
			}
			c.add(len(f.Name) + 4)
			e := c.reflect(v.Field(i), depth+1)
			if c.err != nil {
				return v
			}
			if mayRefer(f.Type) {
				n.Field(i).Set(e)
			}
		}
		return n
	}
	return v
}

// elems copies the elements of the slice or array v into n.
func (c *valueCopier) elems(v, n reflect.Value, depth int) reflect.Value {
	et := v.Type().Elem()
	c.add(2)
	switch {
	case et.Kind() == reflect.Uint8:
		reflect.Copy(n, v)
		c.add(v.Len()*4/3 + 2) // base64, as JSON has it
		return n
	case !mayRefer(et) && et.Kind() != reflect.String:
		reflect.Copy(n, v)
		c.add(v.Len() * (scalarSize + 1))
		return n
	}
	for i := range v.Len() {
		e := c.reflect(v.Index(i), depth+1)
		c.add(1)
		if c.err != nil {
			return v
		}
		n.Index(i).Set(e)
	}
	return n
}

var referTypes sync.Map // reflect.Type -> bool

// mayRefer reports whether a value of type t can refer to memory the script
// can change: it holds a map, slice, pointer or interface (a string does
// not: Go's strings cannot be changed).
func mayRefer(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Map, reflect.Slice, reflect.Pointer, reflect.Interface:
		return true
	case reflect.Array:
		return mayRefer(t.Elem())
	case reflect.Struct:
		if r, ok := referTypes.Load(t); ok {
			return r.(bool)
		}
		r := false
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && mayRefer(f.Type) {
				r = true
				break
			}
		}
		referTypes.Store(t, r)
		return r
	}
	return false
}

// argKeys remembers the keys of the argument maps of one call site whose
// maps are its own (a map literal written in the call), which are the
// same keys call after call when the literal's keys are constants: own
// then reads each entry by its key, cheaper than ranging over the map
// (which starts an iterator at a random place). Calls from several
// goroutines may share a site.
type argKeys struct {
	keys    atomic.Pointer[[]string] // the last map's keys, never changed once stored
	refresh atomic.Int32             // the times keys was stored
}

// maxKeyRefresh is the number of times a site's keys are stored: past
// it, a site whose maps change their keys ranges over each map.
const maxKeyRefresh = 4

// own is ownArgs(m), by the site's keys when m has exactly those (a nil
// site remembers none).
func (s *argKeys) own(m map[string]any) (int64, error) {
	if s == nil {
		return ownArgs(m)
	}
	if keys := s.keys.Load(); keys != nil && len(*keys) == len(m) {
		// As many distinct keys as m's, each of them in m: m's keys.
		c := valueCopier{budget: math.MaxInt64}
		c.add(2)
		hit := true
		for _, k := range *keys {
			e, ok := m[k]
			if !ok {
				hit = false
				break
			}
			if !c.ownEntry(m, k, e) {
				return c.size, c.err
			}
		}
		if hit {
			return c.size, nil
		}
		// The entries already read hold copies, which ownArgs copies
		// again: the tool still gets values the script cannot reach.
	}
	size, err := ownArgs(m)
	if err == nil && s.refresh.Load() < maxKeyRefresh {
		s.refresh.Add(1)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		s.keys.Store(&keys)
	}
	return size, err
}
