package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/toolscript/toolscript/projection"
)

// Typed tools. A tool whose projection has an input schema
// (projection.Schemas) that the generator can express appears to
// scripts as a Go function of a generated argument struct, returning the
// type generated from its output schema (projection.OutputSchemaProjection)
// or any. The generated types are host types built with reflect
// (reflect.StructOf), so a typed call costs no interpreted code: the
// function encodes its struct into the map of arguments, calls the tool as
// the map form does, and decodes the result into the result type. The same
// code runs in both runtimes, on the same values, so a script sees the
// same typed values in process and in an isolated worker. The interpreter
// calls a typed function's implementation directly (interp.Options.
// DirectCall, fork patch 51); a call whose argument is a map[string]any or
// nil runs the tool's map form instead and has its type (MapForm, patch
// 50).
//
// The generated types, per package, are built once per set of schemas
// (typedCache) and only for the tool packages a script imports; Describe
// prints them as Go declarations.
//
// Mapping of JSON Schema to Go:
//
//   - "string" is string, "integer" int, "number" float64, "boolean" bool,
//     a schema without a type any;
//   - "array" is a slice of its "items" ([]any without items);
//   - "object" with "properties" is a named struct (the title of the
//     schema, or the field's name, or FuncArgs for the arguments and
//     FuncResult for the result); without properties it is map[string]any,
//     or map[string]T when "additionalProperties" is a schema;
//   - a string "enum" is a named string type with one constant per value
//     (a named host type of its own: enumpool.go); another enum is its
//     type, with the values in the doc comment;
//   - a type list of one type and "null" is a pointer to that type;
//   - a property not in "required" is optional: a pointer when it has a
//     non-zero "default" or is nullable, else a value tagged omitempty,
//     left out of the arguments when it is its zero value (encoding/json's
//     rule);
//   - descriptions become doc comments, defaults are stated in them.
//
// Schemas the generator cannot express fall back to the map form,
// func(args map[string]any) (any, error), for the arguments (an output
// schema that cannot be expressed gives the result type any): anyOf,
// oneOf, allOf, not, if/then/else, $ref, patternProperties, a type list
// other than one type and "null", a top-level schema that is not an object
// of properties, two properties whose Go names collide, and nesting deeper
// than maxTypeDepth.

// maxTypeDepth bounds the nesting of a generated type.
const maxTypeDepth = 32

// gkind is the kind of a generated type.
type gkind int

const (
	gAny gkind = iota
	gString
	gInt
	gFloat
	gBool
	gSlice
	gMap
	gStruct
	gEnum
	gPtr
)

// gtype is a Go type generated from a JSON Schema.
type gtype struct {
	kind   gkind
	name   string   // gStruct, gEnum: the declared name
	doc    string   // gStruct, gEnum: the doc comment; gString: the values of an enum without a type
	elem   *gtype   // gSlice, gMap, gPtr
	fields []gfield // gStruct
	values []string // gEnum
	consts []string // gEnum: constant names, one per value
	key    string   // structural identity, for sharing declarations
	rt     reflect.Type
}

// gfield is one field of a generated struct.
type gfield struct {
	goName, jsonName string
	t                *gtype
	omitempty        bool
	doc              string
}

// goString renders t as a Go type expression.
func (t *gtype) goString() string {
	switch t.kind {
	case gString:
		return "string"
	case gInt:
		return "int"
	case gFloat:
		return "float64"
	case gBool:
		return "bool"
	case gSlice:
		return "[]" + t.elem.goString()
	case gMap:
		return "map[string]" + t.elem.goString()
	case gPtr:
		return "*" + t.elem.goString()
	case gStruct, gEnum:
		return t.name
	}
	return "any"
}

// typedFunc is a typed tool: its argument and result types. It is
// cached across surfaces with the same tool names and schemas
// (typedCache), so tool is only the projection it was generated from:
// calls go to the projection of the execution's own namespace
// (surface.current), never to it.
type typedFunc struct {
	goName string
	tool   projection.ToolProjection
	args   *gtype // nil: the tool takes no arguments
	result *gtype // nil: any
	rt     reflect.Type
}

// typedPkg is the typed surface of one tool package.
type typedPkg struct {
	funcs    map[string]*typedFunc // by Go name
	fallback map[string]string     // Go name -> why the tool keeps the map form
	decls    []*gtype              // named types, in order of declaration
	types    map[string]*gtype     // the named types by name
	consts   map[string]enumConst  // the enum constants by name
	// names are Go's names of the reflect types of decls: of a struct
	// (orders.Order), which the interpreter cannot give it, so it fails
	// %T and %#v of a value of one rather than print its structure (fork
	// patch 91); of an enum's type, which %T prints (patch 121).
	names map[reflect.Type]string
}

// enumConst is a constant of an enum: its type and value.
type enumConst struct {
	t     *gtype
	value string
}

// toolSchemas returns the input and output schemas of p, nil when it has
// none (projection.Schemas).
func toolSchemas(p projection.ToolProjection) (in, out json.RawMessage) {
	return projection.Schemas(p)
}

var typedCache struct {
	sync.Mutex
	m map[string]*typedPkg
}

// maxTypedCache bounds typedCache; past it the cache starts again.
const maxTypedCache = 256

// typedSurface is a surface's typed packages, looked up once each.
type typedSurface struct {
	typedMu   sync.Mutex
	typedPkgs map[string]*typedPkg // package -> its typed surface or nil
}

// typed returns the typed surface of package pkg, nil when none of its
// tools has an input or output schema. It is built once per package and
// set of schemas (typedCache), and looked up once per surface.
func (s *surface) typed(pkg string) *typedPkg {
	s.typedMu.Lock()
	defer s.typedMu.Unlock()
	if tp, ok := s.typedPkgs[pkg]; ok {
		return tp
	}
	tp := s.lookupTyped(pkg)
	if s.typedPkgs == nil {
		s.typedPkgs = map[string]*typedPkg{}
	}
	s.typedPkgs[pkg] = tp
	return tp
}

// lookupTyped finds or builds the typed surface of package pkg in
// typedCache.
func (s *surface) lookupTyped(pkg string) *typedPkg {
	funcs := s.pkgs[pkg]
	var key strings.Builder
	for _, f := range funcs {
		in, out := toolSchemas(f.tool)
		if in == nil && out == nil {
			continue
		}
		if key.Len() == 0 {
			key.WriteString(pkg)
		}
		fmt.Fprintf(&key, "\x00%s\x00%s\x00%d:%s\x00%d:%s", f.goName, f.tool.Name(), len(in), in, len(out), out)
	}
	if key.Len() == 0 {
		return nil
	}
	k := key.String()
	typedCache.Lock()
	tp, ok := typedCache.m[k]
	typedCache.Unlock()
	if ok {
		return tp
	}
	tp = genPackage(pkg, funcs)
	typedCache.Lock()
	if typedCache.m == nil || len(typedCache.m) >= maxTypedCache {
		typedCache.m = map[string]*typedPkg{}
	}
	typedCache.m[k] = tp
	typedCache.Unlock()
	return tp
}

// generator builds the types of one package.
type generator struct {
	pkg   string            // the package's name
	taken map[string]bool   // names of the package: functions and types
	byKey map[string]*gtype // named types by name and structure
	decls []*gtype
	added []genAdd // what take and keep added, for undo
}

// genAdd is a name take added (key == "") or a key keep added.
type genAdd struct{ name, key string }

// take marks name as taken.
func (g *generator) take(name string) {
	g.taken[name] = true
	g.added = append(g.added, genAdd{name: name})
}

// keep records t under key in byKey.
func (g *generator) keep(key string, t *gtype) {
	g.byKey[key] = t
	g.added = append(g.added, genAdd{key: key})
}

// genMark is a state of a generator that undo returns to.
type genMark struct{ decls, added int }

func (g *generator) mark() genMark { return genMark{len(g.decls), len(g.added)} }

// undo forgets the names, keys and declarations added since m: each
// costs what was added, not the size of the package.
func (g *generator) undo(m genMark) {
	for _, a := range g.added[m.added:] {
		if a.key != "" {
			delete(g.byKey, a.key)
		} else {
			delete(g.taken, a.name)
		}
	}
	g.decls, g.added = g.decls[:m.decls], g.added[:m.added]
}

// orderKey is the member of a parsed schema object that holds the order
// of its keys (parseSchema).
const orderKey = "\x00order"

// parseSchema decodes a JSON Schema object as encoding/json would, with
// the order of each object's keys under orderKey.
func parseSchema(data []byte) (map[string]any, bool) {
	d := json.NewDecoder(bytes.NewReader(data))
	v, err := parseValue(d, 0)
	if err != nil {
		return nil, false
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

func parseValue(d *json.Decoder, depth int) (any, error) {
	if depth > 4*maxTypeDepth {
		return nil, errors.New("too deep")
	}
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		m := map[string]any{}
		var keys []string
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			v, err := parseValue(d, depth+1)
			if err != nil {
				return nil, err
			}
			if _, dup := m[key]; !dup {
				keys = append(keys, key)
			}
			m[key] = v
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		m[orderKey] = keys
		return m, nil
	case json.Delim('['):
		l := []any{}
		for d.More() {
			v, err := parseValue(d, depth+1)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		return l, nil
	}
	return t, nil
}

// unsupportedSchema is a schema the generator cannot express.
type unsupportedSchema struct{ why string }

func (e *unsupportedSchema) Error() string { return e.why }

// errOpenObject is an input schema of an object without properties that
// allows any: its Go type is the map form itself.
var errOpenObject = errors.New("an open object")

func unsupported(format string, args ...any) error {
	return &unsupportedSchema{why: fmt.Sprintf(format, args...)}
}

// genPackage generates the typed surface of a package's functions.
func genPackage(pkg string, funcs []toolFunc) *typedPkg {
	g := &generator{pkg: pkg, taken: map[string]bool{}, byKey: map[string]*gtype{}}
	if pkg == toolsPackage {
		for _, name := range []string{"Call", "Names", "Decode", "Search", "SearchResult"} {
			g.taken[name] = true // the dynamic API
		}
	}
	for _, f := range funcs {
		g.taken[f.goName] = true
	}
	tp := &typedPkg{funcs: map[string]*typedFunc{}, fallback: map[string]string{}}
	for _, f := range funcs {
		in, out := toolSchemas(f.tool)
		if in == nil {
			if out != nil {
				tp.fallback[f.goName] = "it has no input schema"
			}
			continue
		}
		tf, err := g.function(f, in, out)
		if err == errOpenObject {
			continue // a map is the Go type of an open object
		}
		if err != nil {
			tp.fallback[f.goName] = err.Error()
			continue
		}
		tp.funcs[f.goName] = tf
	}
	tp.decls = g.decls
	tp.types, tp.consts = map[string]*gtype{}, map[string]enumConst{}
	for _, t := range tp.decls {
		tp.types[t.name] = t
		for i, c := range t.consts {
			tp.consts[c] = enumConst{t: t, value: t.values[i]}
		}
	}
	tp.names = map[reflect.Type]string{}
	for _, t := range tp.decls {
		rt := t.reflectType()
		if prev, ok := tp.names[rt]; ok {
			tp.names[rt] = prev + " or " + pkg + "." + t.name
		} else {
			tp.names[rt] = pkg + "." + t.name
		}
	}
	return tp
}

// function generates the types of one tool. A failure leaves g's
// declarations as they were.
func (g *generator) function(f toolFunc, in, out json.RawMessage) (*typedFunc, error) {
	mark := g.mark()
	tf := &typedFunc{goName: f.goName, tool: f.tool}
	s, ok := parseSchema(in)
	if !ok {
		return nil, unsupported("its input schema is not a JSON object")
	}
	args, err := g.object(s, f.goName+"Args", 0)
	if err == nil && args != nil {
		args.doc = fmt.Sprintf("%s is the arguments of %s.", args.name, f.goName) + optionalRule(args)
	}
	if err != nil {
		g.undo(mark)
		return nil, err
	}
	tf.args = args
	if out != nil {
		mark = g.mark()
		var rt *gtype
		os, ok := parseSchema(out)
		err := unsupported("its output schema is not a JSON object")
		if ok {
			rt, err = g.node(os, f.goName+"Result", 0)
		}
		if err != nil || rt.kind == gAny {
			g.undo(mark)
		} else {
			tf.result = rt
		}
	}
	tf.rt = funcType(tf)
	return tf, nil
}

// optionalRule is the sentence of a struct's doc about optional fields.
func optionalRule(t *gtype) string {
	for _, f := range t.fields {
		if f.omitempty {
			return " Fields tagged omitempty are optional: left out of the call when zero (nil)."
		}
	}
	return ""
}

// object generates the argument struct of a tool: the top-level schema must
// be an object of properties. A closed object without properties gives nil
// (the function takes no arguments).
func (g *generator) object(s map[string]any, name string, depth int) (*gtype, error) {
	if err := checkKeywords(s); err != nil {
		return nil, err
	}
	if t, _ := s["type"].(string); t != "object" && s["type"] != nil {
		return nil, unsupported("its input schema is not an object")
	}
	props, _ := s["properties"].(map[string]any)
	if len(props) <= 1 /* orderKey alone */ {
		if ap, ok := s["additionalProperties"].(bool); ok && !ap {
			return nil, nil
		}
		return nil, errOpenObject
	}
	return g.structType(s, props, name, depth)
}

// checkKeywords refuses the keywords the generator cannot express.
func checkKeywords(s map[string]any) error {
	for _, k := range []string{"anyOf", "oneOf", "allOf", "not", "if", "$ref", "patternProperties"} {
		if _, ok := s[k]; ok {
			return unsupported("its schema uses %s, which has no Go type here", k)
		}
	}
	return nil
}

// node generates the type of schema s; name is the type's name when it
// needs one.
func (g *generator) node(s map[string]any, name string, depth int) (*gtype, error) {
	if depth > maxTypeDepth {
		return nil, unsupported("its schema nests deeper than %d levels", maxTypeDepth)
	}
	if err := checkKeywords(s); err != nil {
		return nil, err
	}
	typ, nullable := "", false
	switch t := s["type"].(type) {
	case string:
		typ = t
	case []any:
		var types []string
		for _, e := range t {
			if e == "null" {
				nullable = true
			} else if str, ok := e.(string); ok {
				types = append(types, str)
			}
		}
		if len(types) != 1 || len(types)+btoi(nullable) != len(t) {
			return nil, unsupported("its schema has the type list %v, which has no Go type here", t)
		}
		typ = types[0]
	case nil:
	default:
		return nil, unsupported("its schema has a type that is not a name")
	}
	gt, err := g.plain(s, typ, name, depth)
	if err != nil {
		return nil, err
	}
	if nullable && gt.kind != gAny {
		gt = &gtype{kind: gPtr, elem: gt}
	}
	return gt, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// plain generates the type of s of JSON type typ ("" for none).
func (g *generator) plain(s map[string]any, typ, name string, depth int) (*gtype, error) {
	if vals, ok := s["enum"].([]any); ok && (typ == "string" || typ == "") && len(vals) > 0 {
		strs := make([]string, 0, len(vals))
		for _, v := range vals {
			str, ok := v.(string)
			if !ok {
				strs = nil
				break
			}
			strs = append(strs, str)
		}
		if strs != nil {
			return g.enum(s, strs, name), nil
		}
	}
	switch typ {
	case "string":
		return &gtype{kind: gString}, nil
	case "integer":
		return &gtype{kind: gInt}, nil
	case "number":
		return &gtype{kind: gFloat}, nil
	case "boolean":
		return &gtype{kind: gBool}, nil
	case "null", "":
		if typ == "" {
			if _, ok := s["properties"]; ok {
				break // an object without its type
			}
		}
		return &gtype{kind: gAny}, nil
	case "array":
		items, ok := s["items"].(map[string]any)
		if !ok {
			if _, tuple := s["items"].([]any); tuple {
				return nil, unsupported("its schema has tuple items, which have no Go type here")
			}
			return &gtype{kind: gSlice, elem: &gtype{kind: gAny}}, nil
		}
		elem, err := g.node(items, singular(name), depth+1)
		if err != nil {
			return nil, err
		}
		return &gtype{kind: gSlice, elem: elem}, nil
	case "object":
	default:
		return nil, unsupported("its schema has the unknown type %q", typ)
	}
	props, _ := s["properties"].(map[string]any)
	if len(props) <= 1 /* orderKey alone */ {
		elem := &gtype{kind: gAny}
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			var err error
			if elem, err = g.node(ap, singular(name), depth+1); err != nil {
				return nil, err
			}
		}
		return &gtype{kind: gMap, elem: elem}, nil
	}
	return g.structType(s, props, name, depth)
}

// singular names the element type of a list named name.
func singular(name string) string {
	switch {
	case strings.HasSuffix(name, "ies") && len(name) > 3:
		return name[:len(name)-3] + "y"
	case strings.HasSuffix(name, "s") && !strings.HasSuffix(name, "ss") && len(name) > 1:
		return name[:len(name)-1]
	}
	return name + "Item"
}

// structType generates a named struct of the properties of s.
func (g *generator) structType(s map[string]any, props map[string]any, name string, depth int) (*gtype, error) {
	title, titled := s["title"].(string)
	if titled && FuncName(title) != "Tool" {
		name = FuncName(title)
	}
	req := map[string]bool{}
	if l, ok := s["required"].([]any); ok {
		for _, r := range l {
			if str, ok := r.(string); ok {
				req[str] = true
			}
		}
	}
	// The fields in the order of the schema's properties.
	keys, _ := props[orderKey].([]string)
	t := &gtype{kind: gStruct}
	seen := map[string]string{}
	var key strings.Builder
	for _, k := range keys {
		ps, ok := props[k].(map[string]any)
		if !ok {
			if b, isBool := props[k].(bool); isBool && b {
				ps = map[string]any{}
			} else {
				return nil, unsupported("its property %q has no schema object", k)
			}
		}
		goName := fieldName(k)
		if other, dup := seen[goName]; dup {
			return nil, unsupported("its properties %q and %q have the same Go name %s", other, k, goName)
		}
		seen[goName] = k
		ft, err := g.node(ps, goName, depth+1)
		if err != nil {
			return nil, err
		}
		f := gfield{goName: goName, jsonName: k, t: ft}
		if !req[k] {
			f.omitempty = true
			def, hasDef := ps["default"]
			if hasDef && !isZeroJSON(def) && ft.kind != gPtr && ft.kind != gAny && ft.kind != gSlice && ft.kind != gMap {
				f.t = &gtype{kind: gPtr, elem: ft}
			}
			if ft.kind == gStruct {
				f.t = &gtype{kind: gPtr, elem: ft}
			}
		}
		f.doc = fieldDoc(ps)
		if ft.kind == gString && ft.doc != "" { // an enum past the pool's end
			f.doc = strings.TrimSpace(f.doc + " " + ft.doc)
		}
		t.fields = append(t.fields, f)
		fmt.Fprintf(&key, "%s:%s:%s:%v;", k, goName, f.t.goString(), f.omitempty)
	}
	t.key = key.String()
	t.doc, _ = s["description"].(string)
	if !titled {
		// An object without a title is the type of an identical one
		// declared before (Billing *Address).
		if old := g.byKey["\x00"+t.key]; old != nil && old.doc == t.doc {
			return old, nil
		}
	}
	t = g.declare(t, name)
	if _, ok := g.byKey["\x00"+t.key]; !ok {
		g.keep("\x00"+t.key, t)
	}
	return t, nil
}

// isZeroJSON reports whether a JSON value is the zero value of its Go type.
func isZeroJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case float64:
		return v == 0
	case string:
		return v == ""
	case []any:
		return len(v) == 0
	case map[string]any:
		_, ordered := v[orderKey]
		return len(v) == btoi(ordered)
	}
	return false
}

// plainJSON is the JSON of a parsed schema value without the key order.
func plainJSON(v any) string {
	var strip func(any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			m := make(map[string]any, len(v))
			for k, e := range v {
				if k != orderKey {
					m[k] = strip(e)
				}
			}
			return m
		case []any:
			l := make([]any, len(v))
			for i, e := range v {
				l[i] = strip(e)
			}
			return l
		}
		return v
	}
	b, _ := json.Marshal(strip(v))
	return string(b)
}

// fieldDoc is the comment of a field: its description, its default, the
// values of an enum that is not a string and the bounds and format of its
// values.
func fieldDoc(s map[string]any) string {
	var parts []string
	if _, named := s["title"]; named {
		// described on its type
	} else if d, ok := s["description"].(string); ok && d != "" {
		parts = append(parts, strings.TrimSpace(d))
	}
	if def, ok := s["default"]; ok {
		parts = append(parts, "Default: "+plainJSON(def)+".")
	}
	if vals, ok := s["enum"].([]any); ok && len(vals) > 0 {
		if _, str := vals[0].(string); !str || s["type"] != "string" && s["type"] != nil {
			parts = append(parts, "One of "+plainJSON(vals)+".")
		}
	}
	for _, k := range [...][2]string{{"minimum", "Minimum"}, {"maximum", "Maximum"}, {"minLength", "Min length"}, {"maxLength", "Max length"},
		{"minItems", "Min items"}, {"maxItems", "Max items"}, {"format", "Format"}, {"pattern", "Pattern"}} {
		if v, ok := s[k[0]]; ok {
			parts = append(parts, k[1]+": "+plainJSON(v)+".")
		}
	}
	return strings.Join(parts, " ")
}

// enum generates a named string type with a constant per value.
func (g *generator) enum(s map[string]any, values []string, name string) *gtype {
	if title, ok := s["title"].(string); ok && FuncName(title) != "Tool" {
		name = FuncName(title)
	}
	t := &gtype{kind: gEnum, values: values, key: "enum:" + strings.Join(values, "\x00")}
	t.doc, _ = s["description"].(string)
	for g.byKey[name+"\x00"+t.key] == nil && g.taken[name] {
		name += "_"
	}
	if old := g.byKey[name+"\x00"+t.key]; old != nil {
		return old
	}
	if t.rt = enumType(g.pkg, name); t.rt == nil {
		// The process has used every enum type (enumpool.go): a string
		// whose values the field's comment states.
		vals, _ := s["enum"].([]any)
		return &gtype{kind: gString, doc: "One of " + plainJSON(vals) + "."}
	}
	t.name = name
	g.take(name)
	g.keep(name+"\x00"+t.key, t)
	for _, v := range values {
		c := name + FuncName(v)
		for g.taken[c] {
			c += "_"
		}
		g.take(c)
		t.consts = append(t.consts, c)
	}
	g.decls = append(g.decls, t)
	return t
}

// declare names a struct type, sharing the declaration of an identical
// struct of the same name.
func (g *generator) declare(t *gtype, name string) *gtype {
	for {
		if old := g.byKey[name+"\x00"+t.key]; old != nil {
			return old
		}
		if !g.taken[name] {
			break
		}
		name += "_"
	}
	t.name = name
	g.take(name)
	g.keep(name+"\x00"+t.key, t)
	g.decls = append(g.decls, t)
	return t
}

// initialisms are the words Go writes in capitals in identifiers.
var initialisms = map[string]string{
	"id": "ID", "ids": "IDs", "url": "URL", "uri": "URI", "http": "HTTP", "https": "HTTPS",
	"api": "API", "json": "JSON", "html": "HTML", "uuid": "UUID", "ip": "IP", "sql": "SQL",
	"xml": "XML", "css": "CSS", "utc": "UTC", "cpu": "CPU", "os": "OS",
}

// fieldName is the Go field name of a property: FuncName with Go's
// initialisms ("customer_id" -> "CustomerID").
func fieldName(prop string) string {
	var b strings.Builder
	word := func(w string) {
		if up, ok := initialisms[strings.ToLower(w)]; ok && strings.ToLower(w) == w {
			b.WriteString(up)
			return
		}
		b.WriteString(FuncName(w))
	}
	start := -1
	for i, r := range prop {
		ok := r < 0x80 && (r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
		if ok && r != '_' {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			word(prop[start:i])
			start = -1
		}
	}
	if start >= 0 {
		word(prop[start:])
	}
	s := b.String()
	if s == "" {
		return "Field"
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "F" + s
	}
	return s
}

// reflect types of the generated types.

var (
	anyType   = reflect.TypeFor[any]()
	errorType = reflect.TypeFor[error]()
)

// reflectType returns the host type of t, building it once.
func (t *gtype) reflectType() reflect.Type {
	if t.rt != nil {
		return t.rt
	}
	switch t.kind {
	case gString:
		t.rt = reflect.TypeFor[string]()
	case gInt:
		t.rt = reflect.TypeFor[int]()
	case gFloat:
		t.rt = reflect.TypeFor[float64]()
	case gBool:
		t.rt = reflect.TypeFor[bool]()
	case gSlice:
		t.rt = reflect.SliceOf(t.elem.reflectType())
	case gMap:
		t.rt = reflect.MapOf(reflect.TypeFor[string](), t.elem.reflectType())
	case gPtr:
		t.rt = reflect.PointerTo(t.elem.reflectType())
	case gStruct:
		fs := make([]reflect.StructField, len(t.fields))
		for i, f := range t.fields {
			tag := f.jsonName
			if f.omitempty {
				tag += ",omitempty"
			}
			fs[i] = reflect.StructField{Name: f.goName, Type: f.t.reflectType(), Tag: reflect.StructTag(`json:` + strconv.Quote(tag))}
		}
		t.rt = reflect.StructOf(fs)
	default:
		t.rt = anyType
	}
	return t.rt
}

// funcType is the host type of a typed tool's function.
func funcType(tf *typedFunc) reflect.Type {
	var in []reflect.Type
	if tf.args != nil {
		in = []reflect.Type{tf.args.reflectType()}
	}
	out := anyType
	if tf.result != nil {
		out = tf.result.reflectType()
	}
	return reflect.FuncOf(in, []reflect.Type{out, errorType}, false)
}

// current is the projection of the surface's own namespace that a typed
// function of the cache calls: the one of its name.
func (s *surface) current(tf *typedFunc) projection.ToolProjection {
	if p, ok := s.index[tf.tool.Name()]; ok {
		return p
	}
	panic("engine: a typed tool that is not in its surface's namespace: " + tf.tool.Name())
}

// symbols adds the typed functions, types and constants of tp, bound to
// the execution x and the tools of surface s, to a package's symbols:
// those named holds, or all of them when named is nil.
func (tp *typedPkg) symbols(s *surface, x *execution, syms map[string]reflect.Value, named map[string]bool) {
	if named == nil {
		for _, t := range tp.decls {
			tp.symbol(s, x, syms, t.name)
			for _, c := range t.consts {
				tp.symbol(s, x, syms, c)
			}
		}
		for name := range tp.funcs {
			tp.symbol(s, x, syms, name)
		}
		return
	}
	for name := range named {
		tp.symbol(s, x, syms, name)
	}
}

// symbol adds the typed function, type or constant name of tp, if it has
// one, to syms.
func (tp *typedPkg) symbol(s *surface, x *execution, syms map[string]reflect.Value, name string) {
	if t := tp.types[name]; t != nil {
		syms[name] = reflect.Zero(reflect.PointerTo(t.reflectType()))
	} else if v, ok := tp.consts[name]; ok {
		syms[name] = reflect.ValueOf(v.value).Convert(v.t.reflectType()) // a constant of the enum's type
	} else if tf := tp.funcs[name]; tf != nil {
		syms[name] = tf.function(x, s.current(tf))
	}
}

// function returns the host function of a typed tool, bound to x and
// calling tool.
func (tf *typedFunc) function(x *execution, tool projection.ToolProjection) reflect.Value {
	return reflect.MakeFunc(tf.rt, tf.impl(x, tool))
}

// impl is the implementation of a typed tool's function, bound to x: the
// body of function's value, and what the interpreter calls directly for
// a call of the symbol (directCall), without reflect.Value.Call.
func (tf *typedFunc) impl(x *execution, tool projection.ToolProjection) func([]reflect.Value) []reflect.Value {
	out := anyType
	if tf.result != nil {
		out = tf.result.reflectType()
	}
	plain := isPlainType(out)
	return func(in []reflect.Value) []reflect.Value {
		var args map[string]any
		owned := true
		if len(in) == 1 {
			var err error
			args, owned, err = encodeArgs(in[0])
			if err != nil {
				return typedReturn(out, reflect.Value{}, &ToolError{Tool: tool.Name(), Err: err})
			}
		}
		var res any
		var err error
		if owned {
			res, err = x.callOwned(tool, args)
		} else {
			res, err = x.callTool(tool, args)
		}
		if err != nil {
			return typedReturn(out, reflect.Value{}, err)
		}
		if out == anyType {
			r := res // only this branch takes an address (an allocation)
			return typedReturn(out, reflect.ValueOf(&r).Elem(), nil)
		}
		if rv := reflect.ValueOf(res); plain && rv.IsValid() && rv.Type() == out {
			return typedReturn(out, rv, nil) // already of the result type
		}
		v := reflect.New(out).Elem()
		if err := decodeValue(v, res, ""); err != nil {
			return typedReturn(out, reflect.Value{}, &ToolError{Tool: tool.Name(),
				Err: fmt.Errorf("engine: the result does not fit the tool's output schema: %w", err)})
		}
		return typedReturn(out, v, nil)
	}
}

// isPlainType reports whether a tool's result of type t can be handed to
// the script as it is: t holds no struct (whose fields the decoding
// fills by name) and no interface.
func isPlainType(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Int, reflect.Float64, reflect.Bool:
		return true
	case reflect.Slice, reflect.Map, reflect.Pointer:
		return isPlainType(t.Elem())
	}
	return false
}

// directCall returns the interpreter's DirectCall hook for an execution
// whose script imports imports, or nil when it imports no typed tool
// package: a call of a typed tool's function runs its implementation
// directly.
func (s *surface) directCall(x *execution, imports []string) func(pkgPath, name string) func([]reflect.Value) []reflect.Value {
	typed := s.typedImports(imports)
	if typed == nil {
		return nil
	}
	return func(pkgPath, name string) func([]reflect.Value) []reflect.Value {
		if tp := typed[pkgPath]; tp != nil && tp.funcs[name] != nil {
			return tp.funcs[name].impl(x, s.current(tp.funcs[name]))
		}
		return nil
	}
}

// typedImports returns the typed surfaces of the tool packages among
// imports that have typed functions, nil for none.
func (s *surface) typedImports(imports []string) map[string]*typedPkg {
	var typed map[string]*typedPkg
	for _, path := range imports {
		if _, ok := s.pkgs[path]; !ok {
			continue
		}
		if tp := s.typed(path); tp != nil && len(tp.funcs) > 0 {
			if typed == nil {
				typed = map[string]*typedPkg{}
			}
			typed[path] = tp
		}
	}
	return typed
}

// typedReturn is the results of a typed function.
func typedReturn(out reflect.Type, v reflect.Value, err error) []reflect.Value {
	if !v.IsValid() {
		v = reflect.Zero(out)
	}
	e := reflect.Zero(errorType)
	if err != nil {
		errv := err // only an error takes an address (an allocation)
		e = reflect.ValueOf(&errv).Elem()
	}
	return []reflect.Value{v, e}
}

// mapForm returns the interpreter's MapForm hook for an execution whose
// script imports imports, or nil when it imports no typed tool package: a
// typed tool called with a map[string]any (or nil) runs its map form.
func (s *surface) mapForm(x *execution, imports []string) func(pkgPath, name string) reflect.Value {
	typed := s.typedImports(imports)
	if typed == nil {
		return nil
	}
	return func(pkgPath, name string) reflect.Value {
		tp := typed[pkgPath]
		if tp == nil {
			return reflect.Value{}
		}
		tf := tp.funcs[name]
		if tf == nil {
			return reflect.Value{}
		}
		tool := s.current(tf)
		var fn kwargsFunc = func(args map[string]any) (any, error) { return x.callTool(tool, args) }
		return reflect.ValueOf(fn)
	}
}
