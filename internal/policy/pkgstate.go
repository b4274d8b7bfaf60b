package policy

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash"
	"hash/crc32"
	"hash/maphash"
	"math/rand"
	randv2 "math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/toolscript/toolscript/internal/texttemplate"
	"github.com/toolscript/toolscript/internal/tzdb"
)

// Package state. Nothing a script does may change what another execution,
// or the host, sees. Three kinds of state are shared by the standard
// packages scripts import, and each is kept from scripts:
//
//   - Package variables that point to memory a script could write (the
//     unicode tables, their maps and slices, the base64 encodings,
//     crc32.IEEETable) are absent from the shared symbol table. An
//     execution whose script names one (anywhere in its text) gets deep
//     copies of the ones it names, made by one copier, so that the
//     identities Go has (unicode.Categories["Lu"] == unicode.Upper) hold
//     among the copies. A script that does not name them pays nothing.
//   - Values every execution shares by identity (time.UTC and time.Local,
//     which every time.Time points at) are the host's own; the
//     interpreter refuses *p = v into them (readOnlyTypes), and they have
//     no exported field.
//   - Functions with global state get private replacements: math/rand's
//     top-level functions draw from a source of their own that Seed does
//     not reset (Seed has no effect, as in Go 1.24 and later), and
//     crc32's MakeTable hands out the execution's copy of its tables.
//
// Error variables (io.EOF) and io.Discard are shared: their dynamic types
// are unexported, so a script can neither name nor write into them.

// readOnlyTypes are the native types of host values every execution
// shares by identity: a script cannot write into them through a pointer.
var readOnlyTypes = []reflect.Type{reflect.TypeFor[time.Location]()}

// ReadOnlyTypes returns the native types scripts cannot write into
// through a pointer (interp.Options.ReadOnlyTypes). The slice is shared
// by every interpreter: do not modify it.
func ReadOnlyTypes() []reflect.Type { return readOnlyTypes }

// HiddenFieldType reports whether a native struct field of type t must not
// be selected by scripts (interp.Options.HiddenFieldType): reflection (the
// reflect.Type in encoding/json's error types) and unsafe pointers would
// let a script reach past the symbol table.
func HiddenFieldType(t reflect.Type) bool {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			t = t.Elem()
			continue
		case reflect.Map:
			if HiddenFieldType(t.Key()) {
				return true
			}
			t = t.Elem()
			continue
		case reflect.UnsafePointer:
			return true
		}
		return t.PkgPath() == "reflect"
	}
}

// sharedVar reports whether the package variable v (the variable, of its
// declared type) can be shared as it is: an interface (an error,
// io.Discard: their dynamic types cannot be named, so nothing can be
// written into them) or a pointer to a read-only type. Every other
// variable is copied per execution.
func sharedVar(v reflect.Value) bool {
	t := v.Type()
	if t.Kind() == reflect.Interface {
		return true
	}
	if t.Kind() == reflect.Pointer {
		for _, ro := range readOnlyTypes {
			if t.Elem() == ro {
				return true
			}
		}
	}
	return false
}

// replacedSymbols are the symbols scripts get instead of the standard
// ones: no file, environment or global state behind them. Packages
// named in replacedTables are replaced whole.
var replacedSymbols = map[string]map[string]reflect.Value{
	// The embedded IANA database, not the host's files and ZONEINFO.
	"time": {"LoadLocation": reflect.ValueOf(tzdb.LoadLocation)},
	"math/rand": {
		"ExpFloat64":  reflect.ValueOf(scriptRand.ExpFloat64),
		"Float32":     reflect.ValueOf(scriptRand.Float32),
		"Float64":     reflect.ValueOf(scriptRand.Float64),
		"Int":         reflect.ValueOf(scriptRand.Int),
		"Int31":       reflect.ValueOf(scriptRand.Int31),
		"Int31n":      reflect.ValueOf(scriptRand.Int31n),
		"Int63":       reflect.ValueOf(scriptRand.Int63),
		"Int63n":      reflect.ValueOf(scriptRand.Int63n),
		"Intn":        reflect.ValueOf(scriptRand.Intn),
		"NormFloat64": reflect.ValueOf(scriptRand.NormFloat64),
		"Perm":        reflect.ValueOf(scriptRand.Perm),
		"Read":        reflect.ValueOf(randRead),
		"Seed":        reflect.ValueOf(func(int64) {}),
		"Shuffle":     reflect.ValueOf(scriptRand.Shuffle),
		"Uint32":      reflect.ValueOf(scriptRand.Uint32),
		"Uint64":      reflect.ValueOf(scriptRand.Uint64),
	},
}

// replacedTables are packages whose whole table is toolscript's:
// text/template without ParseFiles, ParseGlob and ParseFS (functions and
// methods), which read the host's files.
var replacedTables = map[string]map[string]reflect.Value{
	"text/template": {
		"HTMLEscape":       reflect.ValueOf(template.HTMLEscape),
		"HTMLEscapeString": reflect.ValueOf(template.HTMLEscapeString),
		"HTMLEscaper":      reflect.ValueOf(template.HTMLEscaper),
		"IsTrue":           reflect.ValueOf(template.IsTrue),
		"JSEscape":         reflect.ValueOf(template.JSEscape),
		"JSEscapeString":   reflect.ValueOf(template.JSEscapeString),
		"JSEscaper":        reflect.ValueOf(template.JSEscaper),
		"Must":             reflect.ValueOf(template.Must),
		"New":              reflect.ValueOf(template.New),
		"URLQueryEscaper":  reflect.ValueOf(template.URLQueryEscaper),
		"ExecError":        reflect.ValueOf((*template.ExecError)(nil)),
		"FuncMap":          reflect.ValueOf((*template.FuncMap)(nil)),
		"Template":         reflect.ValueOf((*template.Template)(nil)),
	},
}

// removedSymbols are functions scripts do not get: sync/atomic's
// functions of unsafe.Pointer, which no script can hold (unsafe is not
// importable) but which take and give raw pointers.
var removedSymbols = map[string][]string{"sync/atomic": {"CompareAndSwapPointer", "LoadPointer", "StorePointer", "SwapPointer"}}

// copiedFuncs are functions that hand out host tables, replaced per
// execution (see packageCopies) for scripts that import their package.
var copiedFuncs = map[string][]string{"hash/crc32": {"MakeTable", "Update", "Checksum", "New"}}

// scriptRand backs math/rand's top-level functions: the runtime's random
// source, safe for concurrent use, that nothing can seed. Its methods
// other than Read keep no state of their own.
var scriptRand = rand.New(runtimeSource{})

// runtimeSource is a rand.Source64 over math/rand/v2's top-level source.
type runtimeSource struct{}

func (runtimeSource) Int63() int64    { return int64(randv2.Uint64() >> 1) }
func (runtimeSource) Uint64() uint64  { return randv2.Uint64() }
func (runtimeSource) Seed(seed int64) {}

// randRead is math/rand.Read over the runtime's source.
func randRead(p []byte) (int, error) {
	for i := 0; i < len(p); i += 8 {
		v := randv2.Uint64()
		for j := i; j < i+8 && j < len(p); j++ {
			p[j] = byte(v)
			v >>= 8
		}
	}
	return len(p), nil
}

// copyVar is a package variable scripts get a copy of.
type copyVar struct {
	path, name string
	host       reflect.Value
}

// packageCopies adds to b the per-execution copies of the package
// variables the program (its source and imports) names, and of the
// functions that hand out host tables; a program that needs none (the
// common case) costs one look per import.
func packageCopies(b *builder, imports []string, t *symbolTable) {
	need := false
	for _, path := range imports {
		if t.copies[path] != nil || copiedFuncs[path] != nil {
			need = true
			break
		}
	}
	if !need {
		return
	}
	imported := make(map[string]bool, len(imports))
	for _, path := range imports {
		imported[path] = true
	}
	c := newCopier()
	t.namedCopies(b.src, imported, func(cv copyVar) bool {
		// Not settable, as the shared table's variables.
		b.add(cv.path, cv.name, reflect.ValueOf(c.copy(cv.host).Interface()))
		return true
	})
	if imported["hash/crc32"] {
		for name, fn := range crc32Funcs(c) {
			b.add("hash/crc32", name, fn)
		}
	}
}

// crc32Funcs are crc32's functions that take or give tables, over the
// execution's copies: MakeTable gives the copy of a host table (the same
// copy as crc32.IEEETable), and the others treat a copy as the host table
// it copies, as Go treats IEEETable (by identity, whatever its content).
func crc32Funcs(c *copier) map[string]reflect.Value {
	host := func(tab *crc32.Table) *crc32.Table {
		if h, ok := c.original(reflect.ValueOf(tab)); ok {
			return h.Interface().(*crc32.Table)
		}
		return tab
	}
	return map[string]reflect.Value{
		"MakeTable": reflect.ValueOf(func(poly uint32) *crc32.Table {
			t := crc32.MakeTable(poly)
			if poly == crc32.IEEE || poly == crc32.Castagnoli {
				// The host's own tables: the script gets its copy.
				return c.copy(reflect.ValueOf(t)).Interface().(*crc32.Table)
			}
			return t
		}),
		"Update": reflect.ValueOf(func(crc uint32, tab *crc32.Table, p []byte) uint32 {
			return crc32.Update(crc, host(tab), p)
		}),
		"Checksum": reflect.ValueOf(func(data []byte, tab *crc32.Table) uint32 {
			return crc32.Checksum(data, host(tab))
		}),
		"New": reflect.ValueOf(func(tab *crc32.Table) hash.Hash32 { return crc32.New(host(tab)) }),
	}
}

// copier makes deep copies of host values for one execution. One copier
// serves all the copies of an execution, so a value reached twice (a
// table that is both unicode.Upper and unicode.Categories["Lu"]) is
// copied once, and the copies keep the identities of the originals. It is
// safe for concurrent use (crc32.MakeTable may run in goroutines).
type copier struct {
	mu   sync.Mutex
	memo map[copyKey]reflect.Value
	back map[copyKey]reflect.Value // copy -> original, for pointers
}

type copyKey struct {
	t reflect.Type
	p uintptr
	n int // length of a slice; -1 otherwise
}

func newCopier() *copier {
	return &copier{memo: map[copyKey]reflect.Value{}, back: map[copyKey]reflect.Value{}}
}

// copy returns a deep copy of v.
func (c *copier) copy(v reflect.Value) reflect.Value {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.deep(v)
}

// original returns the host value a pointer copy was made from.
func (c *copier) original(v reflect.Value) (reflect.Value, bool) {
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return reflect.Value{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	h, ok := c.back[copyKey{v.Type(), v.Pointer(), -1}]
	return h, ok
}

func (c *copier) deep(v reflect.Value) reflect.Value {
	t := v.Type()
	switch t.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		k := copyKey{t, v.Pointer(), -1}
		if r, ok := c.memo[k]; ok {
			return r
		}
		r := reflect.New(t.Elem())
		c.memo[k] = r
		c.back[copyKey{t, r.Pointer(), -1}] = v
		r.Elem().Set(v.Elem())
		c.fill(r.Elem())
		return r
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		k := copyKey{t, v.Pointer(), -1}
		if r, ok := c.memo[k]; ok {
			return r
		}
		r := reflect.MakeMapWithSize(t, v.Len())
		c.memo[k] = r
		for it := v.MapRange(); it.Next(); {
			r.SetMapIndex(c.deep(it.Key()), c.deep(it.Value()))
		}
		return r
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		k := copyKey{t, v.Pointer(), v.Len()}
		if r, ok := c.memo[k]; ok {
			return r
		}
		r := reflect.MakeSlice(t, v.Len(), v.Len())
		c.memo[k] = r
		reflect.Copy(r, v)
		if hasRefs(t.Elem()) {
			for i := 0; i < r.Len(); i++ {
				c.fill(r.Index(i))
			}
		}
		return r
	case reflect.Struct, reflect.Array:
		r := reflect.New(t).Elem()
		r.Set(v)
		c.fill(r)
		return r
	case reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		panic("policy: cannot copy a package variable holding " + t.String())
	}
	return v
}

// fill replaces, in the settable r (a shallow copy), every reference it
// holds by a deep copy.
func (c *copier) fill(r reflect.Value) {
	t := r.Type()
	if !hasRefs(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		r.Set(c.deep(r))
	case reflect.Array:
		for i := 0; i < r.Len(); i++ {
			c.fill(r.Index(i))
		}
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if !hasRefs(t.Field(i).Type) {
				continue
			}
			if !t.Field(i).IsExported() {
				panic("policy: cannot copy " + t.String() + ": unexported field " + t.Field(i).Name + " holds references")
			}
			c.fill(r.Field(i))
		}
	}
}

// hasRefs reports whether values of t hold references (pointers, maps,
// slices...), which a copy must not share.
func hasRefs(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice, reflect.Interface, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasRefs(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasRefs(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// StateBaseline holds fingerprints of the host package state that scripts
// must not change: time.UTC and time.Local under "time", and each copied
// package variable (with the tables it holds) under "path.name". The
// isolated worker takes one when it starts; after each run it checks the
// parts the script could reach (time if its text says "time", the
// variables whose names it has, as the copies are made), and retires
// when one differs, so a worker whose state a script changed (through a
// hole this file does not know of) never serves another run.
type StateBaseline map[string]uint64

var stateSeed = maphash.MakeSeed()

// TakeStateBaseline fingerprints every part of the state.
func TakeStateBaseline() StateBaseline {
	b := StateBaseline{"time": fingerprint(fingerprintTime)}
	for path, vars := range table().copies {
		for name, v := range vars {
			b[path+"."+name] = fingerprint(func(h *fpBuf) { fingerprintValue(h, v) })
		}
	}
	return b
}

// Changed reports whether a part of the state that code (a script) could
// reach differs from the baseline.
func (b StateBaseline) Changed(code string) bool {
	if mentions(code, "time") && fingerprint(fingerprintTime) != b["time"] {
		return true
	}
	names := table().copyNames
	var seen map[string]bool // each variable is fingerprinted once
	for i := 0; i < len(code); {
		if !isIdentByte(code[i]) {
			i++
			continue
		}
		j := i
		for j < len(code) && isIdentByte(code[j]) {
			j++
		}
		if vars := names[code[i:j]]; len(vars) > 0 && !seen[code[i:j]] {
			if seen == nil {
				seen = map[string]bool{}
			}
			seen[code[i:j]] = true
			for _, cv := range vars {
				if fingerprint(func(h *fpBuf) { fingerprintValue(h, cv.host) }) != b[cv.path+"."+cv.name] {
					return true
				}
			}
		}
		i = j
	}
	return false
}

func fingerprintTime(h *fpBuf) {
	for _, loc := range []*time.Location{time.UTC, time.Local} {
		h.WriteString(loc.String())
		for _, sec := range []int64{0, 1e9, 1.7e9, 2e9, 4e9} {
			name, off := time.Unix(sec, 0).In(loc).Zone()
			h.WriteString(name)
			writeInt(h, int64(off))
		}
	}
}

func fingerprint(f func(h *fpBuf)) uint64 {
	var h fpBuf
	f(&h)
	return maphash.Bytes(stateSeed, h.b)
}

// fpBuf gathers the bytes of a fingerprint, hashed once at the end.
type fpBuf struct{ b []byte }

func (h *fpBuf) WriteString(s string) { h.b = append(h.b, s...) }

func writeInt(h *fpBuf, v int64) { h.b = binary.LittleEndian.AppendUint64(h.b, uint64(v)) }

// fingerprintValue writes the content of the host value v: the types the
// copied variables have, and any other by its printed form.
func fingerprintValue(h *fpBuf, v reflect.Value) {
	switch x := v.Interface().(type) {
	case *unicode.RangeTable:
		fingerprintTable(h, x)
	case map[string]*unicode.RangeTable:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			h.WriteString(k)
			fingerprintTable(h, x[k])
		}
	case []*unicode.RangeTable:
		for _, t := range x {
			fingerprintTable(h, t)
		}
	case []unicode.CaseRange:
		fingerprintCases(h, x)
	case unicode.SpecialCase:
		fingerprintCases(h, x)
	case *crc32.Table:
		for _, e := range x {
			writeInt(h, int64(e))
		}
	case *base64.Encoding:
		h.WriteString(x.EncodeToString(base64Probe))
		_, err := x.DecodeString("-_+/")
		h.WriteString(fmt.Sprint(err))
	default:
		h.WriteString(fmt.Sprintf("%#v", x))
	}
}

// fingerprintTable writes a table's identity and content.
func fingerprintTable(h *fpBuf, x *unicode.RangeTable) {
	writeInt(h, int64(uintptr(reflect.ValueOf(x).UnsafePointer())))
	writeInt(h, int64(x.LatinOffset))
	for _, r := range x.R16 {
		writeInt(h, int64(r.Lo)|int64(r.Hi)<<16|int64(r.Stride)<<32)
	}
	writeInt(h, -1)
	for _, r := range x.R32 {
		writeInt(h, int64(r.Lo)|int64(r.Hi)<<32)
		writeInt(h, int64(r.Stride))
	}
}

// base64Probe holds every 6-bit value once, so its encoding shows the
// whole alphabet.
var base64Probe = func() []byte {
	var b []byte
	for i := 0; i < 64; i += 4 {
		v := i<<18 | (i+1)<<12 | (i+2)<<6 | (i + 3)
		b = append(b, byte(v>>16), byte(v>>8), byte(v))
	}
	return b
}()

func fingerprintCases(h *fpBuf, cs []unicode.CaseRange) {
	writeInt(h, int64(len(cs)))
	for _, c := range cs {
		writeInt(h, int64(c.Lo)|int64(c.Hi)<<32)
		for _, d := range c.Delta {
			writeInt(h, int64(d))
		}
	}
}

// mentions reports whether src contains word as a whole identifier.
func mentions(src, word string) bool {
	for i := 0; i <= len(src)-len(word); {
		j := strings.Index(src[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isIdentByte(src[j-1])) && (end == len(src) || !isIdentByte(src[end])) {
			return true
		}
		i = j + 1
	}
	return false
}

// isIdentByte reports whether c can be part of an identifier (any byte
// of a multi-byte rune counts).
func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// Rerunnable reports whether a program with source src importing
// imports can be run again in the interpreter that compiled it
// (interp.Reset), its per-execution symbols put back by Bind's function:
// it names no package variable that executions get a deep copy of (a
// run can change what the copy holds) and imports no package whose
// functions are made per execution over such copies (hash/crc32).
// Source packages and extensions may be imported: they declare no
// package variables (TestSourcesDeclareNoVariables), so their part of
// the interpreter's state is fixed when they are compiled.
func Rerunnable(imports []string, src string) bool {
	t := table()
	copies := false
	for _, path := range imports {
		if copiedFuncs[path] != nil {
			return false
		}
		copies = copies || t.copies[path] != nil
	}
	if !copies {
		return true
	}
	imported := make(map[string]bool, len(imports))
	for _, path := range imports {
		imported[path] = true
	}
	named := false
	t.namedCopies(src, imported, func(copyVar) bool {
		named = true
		return false
	})
	return !named
}

// namedCopies calls f with each copied package variable of the imported
// packages that src names, in the order of the source, until f returns
// false.
func (t *symbolTable) namedCopies(src string, imported map[string]bool, f func(copyVar) bool) {
	for i := 0; i < len(src); {
		if !isIdentByte(src[i]) {
			i++
			continue
		}
		j := i
		for j < len(src) && isIdentByte(src[j]) {
			j++
		}
		for _, cv := range t.copyNames[src[i:j]] {
			if imported[cv.path] && !f(cv) {
				return
			}
		}
		i = j
	}
}
