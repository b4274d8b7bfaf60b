package schema

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Sentinel errors of the package. Match them with errors.Is.
var (
	// ErrUnsupportedType reports a Go type that has no JSON Schema here.
	ErrUnsupportedType = errors.New("schema: unsupported type")
	// ErrBadTag reports a jsonschema struct tag that For refuses.
	ErrBadTag = errors.New("schema: bad jsonschema tag")
	// ErrBadSchema reports a schema that Compile cannot use.
	ErrBadSchema = errors.New("schema: bad schema")
	// ErrInvalid is matched by every *ValidationError.
	ErrInvalid = errors.New("schema: invalid arguments")
)

// node is a derived schema, marshalled with its keys in a fixed order and its
// properties in declaration order.
type node struct {
	Title                string   `json:"title,omitempty"`
	Type                 string   `json:"type,omitempty"`
	Format               string   `json:"format,omitempty"`
	Description          string   `json:"description,omitempty"`
	Properties           *props   `json:"properties,omitempty"`
	Required             []string `json:"required,omitempty"`
	AdditionalProperties any      `json:"additionalProperties,omitempty"`
	Items                *node    `json:"items,omitempty"`
	MinItems             *int     `json:"minItems,omitempty"`
	MaxItems             *int     `json:"maxItems,omitempty"`
}

type prop struct {
	name string
	n    *node
}

// props marshals as a JSON object in slice order.
type props []prop

func (p props) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, pr := range p {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(pr.name)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		v, err := json.Marshal(pr.n)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var (
	timeType            = reflect.TypeFor[time.Time]()
	rawType             = reflect.TypeFor[json.RawMessage]()
	numberType          = reflect.TypeFor[json.Number]()
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// For returns the JSON Schema of values of type t, following the rules in
// the package documentation. For a struct type (or pointer to one) the
// result is the object schema of a tool's arguments.
func For(t reflect.Type) (json.RawMessage, error) {
	if t == nil {
		return nil, fmt.Errorf("%w: nil type", ErrUnsupportedType)
	}
	g := deriver{active: map[reflect.Type]bool{}}
	n, err := g.node(t)
	if err != nil {
		return nil, err
	}
	return json.Marshal(n)
}

// ForResult is For for the type of a tool's result: the schema of each
// named struct type has its Go name as "title", so that a generated Go
// type of the result (package engine's typed tools) can take that name.
func ForResult(t reflect.Type) (json.RawMessage, error) {
	if t == nil {
		return nil, fmt.Errorf("%w: nil type", ErrUnsupportedType)
	}
	g := deriver{active: map[reflect.Type]bool{}, titles: true}
	n, err := g.node(t)
	if err != nil {
		return nil, err
	}
	return json.Marshal(n)
}

// Params returns the object schema of a plain function's parameters: one
// required property per name, in order, with the schema of the matching
// type. names and types must have the same length.
func Params(names []string, types []reflect.Type) (json.RawMessage, error) {
	if len(names) != len(types) {
		return nil, fmt.Errorf("%w: %d names for %d parameters", ErrUnsupportedType, len(names), len(types))
	}
	g := deriver{active: map[reflect.Type]bool{}}
	ps := make(props, 0, len(names))
	for i, name := range names {
		n, err := g.node(types[i])
		if err != nil {
			return nil, fmt.Errorf("parameter %q: %w", name, err)
		}
		ps = append(ps, prop{name, n})
	}
	return json.Marshal(&node{Type: "object", Properties: &ps, Required: append([]string(nil), names...), AdditionalProperties: false})
}

type deriver struct {
	active map[reflect.Type]bool // structs being derived, to refuse recursion
	titles bool                  // named structs get their name as title
}

func (g *deriver) node(t reflect.Type) (*node, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return &node{Type: "string", Format: "date-time"}, nil
	case t == rawType:
		return &node{}, nil
	case t == numberType:
		return &node{Type: "number"}, nil
	case reflect.PointerTo(t).Implements(jsonUnmarshalerType):
		return &node{}, nil // its own JSON form: anything
	case t.Kind() != reflect.String && reflect.PointerTo(t).Implements(textUnmarshalerType):
		return &node{Type: "string"}, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return &node{Type: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &node{Type: "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return &node{Type: "number"}, nil
	case reflect.String:
		return &node{Type: "string"}, nil
	case reflect.Interface:
		return &node{}, nil
	case reflect.Slice, reflect.Array:
		items, err := g.node(t.Elem())
		if err != nil {
			return nil, err
		}
		n := &node{Type: "array", Items: items}
		if t.Kind() == reflect.Array {
			l := t.Len()
			n.MinItems, n.MaxItems = &l, &l
		}
		return n, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("%w: %v: map keys must be strings", ErrUnsupportedType, t)
		}
		v, err := g.node(t.Elem())
		if err != nil {
			return nil, err
		}
		n := &node{Type: "object"}
		if v.Type != "" { // map[string]any allows anything: leave it open
			n.AdditionalProperties = v
		}
		return n, nil
	case reflect.Struct:
		return g.object(t)
	}
	return nil, fmt.Errorf("%w: %v", ErrUnsupportedType, t)
}

func (g *deriver) object(t reflect.Type) (*node, error) {
	if g.active[t] {
		return nil, fmt.Errorf("%w: %v is recursive", ErrUnsupportedType, t)
	}
	g.active[t] = true
	defer delete(g.active, t)

	ps := props{}
	var required []string
	seen := map[string]bool{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct && f.Tag.Get("json") == "" {
			continue
		}
		name, optional := f.Name, false
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, opts, _ := strings.Cut(tag, ",")
			if n == "-" {
				continue // as the argument binding of package projection does
			}
			if n != "" {
				name = n
			}
			for o := range strings.SplitSeq(opts, ",") {
				if o == "omitempty" || o == "omitzero" {
					optional = true
				}
			}
		}
		if seen[name] {
			continue // the shallower field wins, as in encoding/json
		}
		seen[name] = true
		n, err := g.node(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s.%s: %w", t.Name(), f.Name, err)
		}
		if desc, ok := f.Tag.Lookup("jsonschema"); ok {
			if err := checkTag(desc); err != nil {
				return nil, fmt.Errorf("field %s.%s: %w", t.Name(), f.Name, err)
			}
			n = cloneWithDescription(n, desc)
		}
		ps = append(ps, prop{name, n})
		if !optional && f.Type.Kind() != reflect.Pointer {
			required = append(required, name)
		}
	}
	n := &node{Type: "object", Properties: &ps, Required: required, AdditionalProperties: false}
	if g.titles {
		n.Title = t.Name()
	}
	return n, nil
}

func cloneWithDescription(n *node, desc string) *node {
	c := *n
	c.Description = desc
	return &c
}

// checkTag refuses a tag that starts with "word=", as the MCP Go SDK does.
func checkTag(tag string) error {
	word, _, ok := strings.Cut(tag, "=")
	if !ok || word == "" {
		return nil
	}
	for _, r := range word {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_') {
			return nil
		}
	}
	return fmt.Errorf("%w: %q: the whole tag is the description; do not start it with %q", ErrBadTag, tag, word+"=")
}
