package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/toolscript/toolscript/internal/suggest"
)

// ValidationError reports arguments that do not fit a schema. It matches
// ErrInvalid.
type ValidationError struct {
	// Path is the argument's path, such as "items[2].qty"; "" means the
	// arguments object itself.
	Path string
	// Msg says what is wrong, such as `expected integer, got string "x"`.
	Msg string
}

// Error returns `schema: argument "<path>": <msg>`.
func (e *ValidationError) Error() string {
	if e.Path == "" {
		return "schema: arguments: " + e.Msg
	}
	return "schema: argument " + strconv.Quote(e.Path) + ": " + e.Msg
}

// Is reports whether target is ErrInvalid.
func (e *ValidationError) Is(target error) bool { return target == ErrInvalid }

type typeMask uint8

const (
	tNull typeMask = 1 << iota
	tBool
	tInt
	tNum
	tStr
	tArr
	tObj
)

var typeNames = []struct {
	name string
	m    typeMask
}{
	{"null", tNull}, {"boolean", tBool}, {"integer", tInt}, {"number", tNum | tInt},
	{"string", tStr}, {"array", tArr}, {"object", tObj},
}

func (m typeMask) String() string {
	var names []string
	for _, tn := range typeNames {
		if m&tn.m == tn.m && !(tn.name == "integer" && m&tNum != 0) {
			names = append(names, tn.name)
		}
	}
	return strings.Join(names, " or ")
}

// Schema is a compiled JSON Schema. Build it with Compile; it is immutable
// and safe for concurrent use.
type Schema struct {
	root *cnode
}

type cnode struct {
	never     bool     // the schema false
	types     typeMask // 0 means any type
	props     map[string]*cnode
	propNames []string // sorted, for deterministic errors
	required  []string
	addlFalse bool
	addl      *cnode
	items     *cnode
	enum      []any
	hasConst  bool
	constV    any
	anyOf     []*cnode
	oneOf     []*cnode
	allOf     []*cnode
	ref       *cnode
	common    bool // any of enum, const, anyOf, oneOf, allOf is set
}

// Compile parses schema and prepares it for Validate. A nil or empty schema
// accepts anything. An error matches ErrBadSchema.
func Compile(schema json.RawMessage) (*Schema, error) {
	if len(strings.TrimSpace(string(schema))) == 0 {
		return &Schema{root: &cnode{}}, nil
	}
	var doc any
	if err := json.Unmarshal(schema, &doc); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadSchema, err)
	}
	c := compiler{root: doc, refs: map[string]*cnode{}}
	n, err := c.compile(doc, "#")
	if err != nil {
		return nil, err
	}
	return &Schema{root: n}, nil
}

// MustCompile is like Compile but panics on error, for schemas fixed at
// compile time.
func MustCompile(schema json.RawMessage) *Schema {
	s, err := Compile(schema)
	if err != nil {
		panic(err)
	}
	return s
}

// Validate compiles schema and validates args against it. Prefer Compile
// once and Schema.Validate per call.
func Validate(schema json.RawMessage, args map[string]any) error {
	s, err := Compile(schema)
	if err != nil {
		return err
	}
	return s.Validate(args)
}

type compiler struct {
	root any
	refs map[string]*cnode
}

func (c *compiler) compile(doc any, at string) (*cnode, error) {
	switch d := doc.(type) {
	case bool:
		return &cnode{never: !d}, nil
	case map[string]any:
		return c.object(d, at)
	}
	return nil, fmt.Errorf("%w: %s: a schema must be an object or a boolean, got %T", ErrBadSchema, at, doc)
}

func (c *compiler) object(d map[string]any, at string) (*cnode, error) {
	n := &cnode{}
	if ref, ok := d["$ref"]; ok {
		s, ok := ref.(string)
		if !ok {
			return nil, fmt.Errorf("%w: %s: $ref must be a string", ErrBadSchema, at)
		}
		target, err := c.resolve(s, at)
		if err != nil {
			return nil, err
		}
		n.ref = target
	}
	if t, ok := d["type"]; ok {
		m, err := parseType(t)
		if err != nil {
			return nil, fmt.Errorf("%w: %s: %v", ErrBadSchema, at, err)
		}
		n.types = m
	}
	if p, ok := d["properties"]; ok {
		pm, ok := p.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%w: %s: properties must be an object", ErrBadSchema, at)
		}
		n.props = make(map[string]*cnode, len(pm))
		for name, sub := range pm {
			cn, err := c.compile(sub, at+"/properties/"+name)
			if err != nil {
				return nil, err
			}
			n.props[name] = cn
			n.propNames = append(n.propNames, name)
		}
		sort.Strings(n.propNames)
	}
	if r, ok := d["required"]; ok {
		rl, ok := r.([]any)
		if !ok {
			return nil, fmt.Errorf("%w: %s: required must be an array", ErrBadSchema, at)
		}
		for _, x := range rl {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%w: %s: required must list strings", ErrBadSchema, at)
			}
			n.required = append(n.required, s)
		}
	}
	if a, ok := d["additionalProperties"]; ok {
		if b, ok := a.(bool); ok && !b {
			n.addlFalse = true
		} else if !ok {
			cn, err := c.compile(a, at+"/additionalProperties")
			if err != nil {
				return nil, err
			}
			n.addl = cn
		}
	}
	if it, ok := d["items"]; ok {
		if _, isList := it.([]any); !isList { // draft-4 tuple form is not checked
			cn, err := c.compile(it, at+"/items")
			if err != nil {
				return nil, err
			}
			n.items = cn
		}
	}
	if e, ok := d["enum"]; ok {
		el, ok := e.([]any)
		if !ok {
			return nil, fmt.Errorf("%w: %s: enum must be an array", ErrBadSchema, at)
		}
		n.enum = el
		if n.enum == nil {
			n.enum = []any{}
		}
	}
	if cv, ok := d["const"]; ok {
		n.hasConst, n.constV = true, cv
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		v, ok := d[kw]
		if !ok {
			continue
		}
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return nil, fmt.Errorf("%w: %s: %s must be a non-empty array", ErrBadSchema, at, kw)
		}
		subs := make([]*cnode, len(list))
		for i, s := range list {
			cn, err := c.compile(s, at+"/"+kw+"/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			subs[i] = cn
		}
		switch kw {
		case "anyOf":
			n.anyOf = subs
		case "oneOf":
			n.oneOf = subs
		default:
			n.allOf = subs
		}
	}
	n.common = n.enum != nil || n.hasConst || n.anyOf != nil || n.oneOf != nil || n.allOf != nil
	return n, nil
}

// resolve compiles a local reference such as "#/$defs/Item" once; the node
// is registered before its body is compiled, so recursive schemas work.
func (c *compiler) resolve(ref, at string) (*cnode, error) {
	if n, ok := c.refs[ref]; ok {
		return n, nil
	}
	if ref != "#" && !strings.HasPrefix(ref, "#/") {
		return nil, fmt.Errorf("%w: %s: only local $ref (#/...) is supported, got %q", ErrBadSchema, at, ref)
	}
	doc := c.root
	if ref != "#" {
		for tok := range strings.SplitSeq(ref[2:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, ok := doc.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%w: %s: $ref %q does not resolve", ErrBadSchema, at, ref)
			}
			if doc, ok = m[tok]; !ok {
				return nil, fmt.Errorf("%w: %s: $ref %q does not resolve", ErrBadSchema, at, ref)
			}
		}
	}
	n := &cnode{}
	c.refs[ref] = n
	body, err := c.compile(doc, ref)
	if err != nil {
		return nil, err
	}
	*n = *body
	return n, nil
}

func parseType(t any) (typeMask, error) {
	one := func(s string) (typeMask, error) {
		for _, tn := range typeNames {
			if tn.name == s {
				return tn.m, nil
			}
		}
		return 0, fmt.Errorf("unknown type %q", s)
	}
	switch v := t.(type) {
	case string:
		return one(v)
	case []any:
		var m typeMask
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return 0, fmt.Errorf("type list must hold strings")
			}
			tm, err := one(s)
			if err != nil {
				return 0, err
			}
			m |= tm
		}
		return m, nil
	}
	return 0, fmt.Errorf("type must be a string or an array of strings")
}

// seg is one step of an argument path: a key, or an index when idx >= 0.
type seg struct {
	key string
	idx int
}

// vfail is a failure on its way up: the path is collected in reverse as the
// error unwinds, so a successful validation builds no path at all.
type vfail struct {
	rev []seg
	msg string
}

func (f *vfail) Error() string { return f.msg }

func fail(format string, args ...any) error {
	return &vfail{msg: fmt.Sprintf(format, args...)}
}

// at prefixes err's path with a key or an index.
func at(err error, key string, idx int) error {
	if f, ok := err.(*vfail); ok {
		f.rev = append(f.rev, seg{key, idx})
	}
	return err
}

// finish renders a failure as a *ValidationError.
func finish(err error) error {
	f, ok := err.(*vfail)
	if !ok {
		return err
	}
	var b strings.Builder
	for i := len(f.rev) - 1; i >= 0; i-- {
		s := f.rev[i]
		if s.idx >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.idx))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.key)
	}
	return &ValidationError{Path: b.String(), Msg: f.msg}
}

// Validate checks args, the arguments object of a tool call, against the
// schema. A nil map is an empty object. It returns nil or a
// *ValidationError for the first problem found, in a deterministic order:
// missing required arguments, then properties by name, then unknown ones.
func (s *Schema) Validate(args map[string]any) error {
	if args == nil {
		args = map[string]any{}
	}
	if err := s.root.validate(args); err != nil {
		return finish(err)
	}
	return nil
}

// ValidateValue checks any value against the schema.
func (s *Schema) ValidateValue(v any) error {
	if err := s.root.validate(v); err != nil {
		return finish(err)
	}
	return nil
}

func (n *cnode) validate(v any) error {
	if n.never {
		return fail("no value is allowed here")
	}
	if n.ref != nil {
		if err := n.ref.validate(v); err != nil {
			return err
		}
	}
	switch x := v.(type) {
	case map[string]any:
		return n.validateObject(x)
	case []any:
		return n.validateArray(x)
	case nil, bool, string, float64:
	default:
		nv, ok := normalize(v)
		if !ok {
			return fail("value of Go type %T cannot be checked", v)
		}
		v = nv
		switch x := v.(type) {
		case map[string]any:
			return n.validateObject(x)
		case []any:
			return n.validateArray(x)
		}
	}
	if n.types != 0 {
		if m := kind(v); n.types&m == 0 {
			return fail("expected %v, got %s", n.types, describe(v))
		}
	}
	return n.checkCommon(v)
}

func (n *cnode) validateObject(obj map[string]any) error {
	if n.types != 0 && n.types&tObj == 0 {
		return fail("expected %v, got object", n.types)
	}
	for _, r := range n.required {
		if _, ok := obj[r]; !ok {
			return at(fail("missing required argument"), r, -1)
		}
	}
	matched := 0
	for _, name := range n.propNames {
		v, ok := obj[name]
		if !ok {
			continue
		}
		matched++
		if err := n.props[name].validate(v); err != nil {
			return at(err, name, -1)
		}
	}
	if matched < len(obj) && (n.addlFalse || n.addl != nil) {
		extra := make([]string, 0, len(obj)-matched)
		for k := range obj {
			if _, ok := n.props[k]; !ok {
				extra = append(extra, k)
			}
		}
		sort.Strings(extra)
		for _, k := range extra {
			if n.addlFalse {
				msg := "unknown argument" + suggest.Hint(k, n.propNames)
				if len(n.propNames) > 0 {
					msg += "; expected one of " + strings.Join(n.propNames, ", ")
				}
				return at(fail("%s", msg), k, -1)
			}
			if err := n.addl.validate(obj[k]); err != nil {
				return at(err, k, -1)
			}
		}
	}
	return n.checkCommon(obj)
}

func (n *cnode) validateArray(arr []any) error {
	if n.types != 0 && n.types&tArr == 0 {
		return fail("expected %v, got array", n.types)
	}
	if n.items != nil {
		for i, e := range arr {
			if err := n.items.validate(e); err != nil {
				return at(err, "", i)
			}
		}
	}
	if !n.common {
		return nil
	}
	return n.checkCommon(arr)
}

// checkCommon checks the keywords that apply to every type.
func (n *cnode) checkCommon(v any) error {
	if !n.common {
		return nil
	}
	if n.enum != nil {
		found := false
		for _, e := range n.enum {
			if equal(v, e) {
				found = true
				break
			}
		}
		if !found {
			return fail("%s is not one of %s", describe(v), listValues(n.enum))
		}
	}
	if n.hasConst && !equal(v, n.constV) {
		return fail("%s is not %s", describe(v), listValues([]any{n.constV}))
	}
	for _, sub := range n.allOf {
		if err := sub.validate(v); err != nil {
			return err
		}
	}
	if n.anyOf != nil {
		var first error
		for _, sub := range n.anyOf {
			err := sub.validate(v)
			if err == nil {
				first = nil
				break
			}
			if first == nil {
				first = err
			}
		}
		if first != nil {
			return fail("%s matches none of the allowed schemas (first: %s)", describe(v), first.(*vfail).msg)
		}
	}
	if n.oneOf != nil {
		count := 0
		for _, sub := range n.oneOf {
			if sub.validate(v) == nil {
				count++
			}
		}
		if count != 1 {
			return fail("%s matches %d of the oneOf schemas, want exactly 1", describe(v), count)
		}
	}
	return nil
}

// kind returns the JSON types v belongs to: a whole number is both an
// integer and a number.
func kind(v any) typeMask {
	switch x := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBool
	case string:
		return tStr
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return tInt | tNum
		}
		return tNum
	case map[string]any:
		return tObj
	case []any:
		return tArr
	}
	return 0
}

// normalize turns a Go value that is not one of the JSON decoding types into
// one: integers and float32 into float64, json.Number into float64, typed
// slices and string-keyed maps element by element, anything else through its
// JSON encoding.
func normalize(v any) (any, bool) {
	switch x := v.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case int16:
		return float64(x), true
	case int8:
		return float64(x), true
	case uint:
		return float64(x), true
	case uint64:
		return float64(x), true
	case uint32:
		return float64(x), true
	case uint16:
		return float64(x), true
	case uint8:
		return float64(x), true
	case float32:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil, true
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = rv.Index(i).Interface()
		}
		return out, true
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			break
		}
		if rv.IsNil() {
			return nil, true
		}
		out := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			out[it.Key().String()] = it.Value().Interface()
		}
		return out, true
	case reflect.Bool:
		return rv.Bool(), true
	case reflect.String:
		return rv.String(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	case reflect.Float32, reflect.Float64:
		return rv.Float(), true
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, false
	}
	return out, true
}

// equal compares two values by their JSON meaning.
func equal(a, b any) bool {
	if !isJSON(a) {
		if na, ok := normalize(a); ok {
			a = na
		}
	}
	if !isJSON(b) {
		if nb, ok := normalize(b); ok {
			b = nb
		}
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equal(xv, yv) {
				return false
			}
		}
		return true
	}
	return a == b
}

func isJSON(v any) bool {
	switch v.(type) {
	case nil, bool, string, float64, []any, map[string]any:
		return true
	}
	return false
}

// describe renders a value for an error message: its JSON type and a short
// form of it.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean " + strconv.FormatBool(x)
	case string:
		if len(x) > 40 {
			x = x[:37] + "..."
		}
		return "string " + strconv.Quote(x)
	case float64:
		return "number " + strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func listValues(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		b, err := json.Marshal(v)
		if err != nil {
			parts[i] = fmt.Sprint(v)
			continue
		}
		parts[i] = string(b)
	}
	return strings.Join(parts, ", ")
}
