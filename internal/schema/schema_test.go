package schema_test

import (
	"encoding/json"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolscript/toolscript/internal/schema"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type inner struct {
	Qty  int    `json:"qty"`
	Note string `json:"note,omitempty"`
}

type Embedded struct {
	Shared string `json:"shared"`
}

type everything struct {
	Embedded
	Name     string            `json:"name" jsonschema:"the name"`
	Count    int               `json:"count,omitempty"`
	Ratio    float64           `json:"ratio"`
	On       bool              `json:"on"`
	Opt      *string           `json:"opt"`
	Tags     []string          `json:"tags"`
	Pair     [2]int            `json:"pair"`
	Labels   map[string]string `json:"labels"`
	Extra    map[string]any    `json:"extra"`
	Items    []inner           `json:"items"`
	When     time.Time         `json:"when"`
	IP       net.IP            `json:"ip"`
	Any      any               `json:"any"`
	Raw      json.RawMessage   `json:"raw"`
	Skipped  string            `json:"-"`
	NoTag    uint8
	private  int
	ZeroOmit int `json:"zero_omit,omitzero"`
}

func TestFor(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"bool", reflect.TypeFor[bool](), `{"type":"boolean"}`},
		{"int", reflect.TypeFor[int64](), `{"type":"integer"}`},
		{"float", reflect.TypeFor[float32](), `{"type":"number"}`},
		{"string", reflect.TypeFor[string](), `{"type":"string"}`},
		{"pointer", reflect.TypeFor[*int](), `{"type":"integer"}`},
		{"slice", reflect.TypeFor[[]float64](), `{"type":"array","items":{"type":"number"}}`},
		{"map any", reflect.TypeFor[map[string]any](), `{"type":"object"}`},
		{"time", reflect.TypeFor[time.Time](), `{"type":"string","format":"date-time"}`},
		{"empty struct", reflect.TypeFor[struct{}](), `{"type":"object","properties":{},"additionalProperties":false}`},
		{"struct", reflect.TypeFor[everything](), `{"type":"object","properties":{
			"shared":{"type":"string"},
			"name":{"type":"string","description":"the name"},
			"count":{"type":"integer"},
			"ratio":{"type":"number"},
			"on":{"type":"boolean"},
			"opt":{"type":"string"},
			"tags":{"type":"array","items":{"type":"string"}},
			"pair":{"type":"array","items":{"type":"integer"},"minItems":2,"maxItems":2},
			"labels":{"type":"object","additionalProperties":{"type":"string"}},
			"extra":{"type":"object"},
			"items":{"type":"array","items":{"type":"object","properties":{"qty":{"type":"integer"},"note":{"type":"string"}},"required":["qty"],"additionalProperties":false}},
			"when":{"type":"string","format":"date-time"},
			"ip":{"type":"string"},
			"any":{},
			"raw":{},
			"NoTag":{"type":"integer"},
			"zero_omit":{"type":"integer"}},
			"required":["shared","name","ratio","on","tags","pair","labels","extra","items","when","ip","any","raw","NoTag"],
			"additionalProperties":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := schema.For(tt.typ)
			require.NoError(t, err)
			assert.JSONEq(t, tt.want, string(got))
		})
	}
}

type recursive struct {
	Children []recursive `json:"children"`
}

func TestFor_Errors(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want error
		msg  string
	}{
		{"nil", nil, schema.ErrUnsupportedType, "nil type"},
		{"chan", reflect.TypeFor[chan int](), schema.ErrUnsupportedType, "chan int"},
		{"func field", reflect.TypeFor[struct {
			F func() `json:"f"`
		}](), schema.ErrUnsupportedType, "func()"},
		{"int keys", reflect.TypeFor[map[int]string](), schema.ErrUnsupportedType, "map keys must be strings"},
		{"recursive", reflect.TypeFor[recursive](), schema.ErrUnsupportedType, "recursive"},
		{"word tag", reflect.TypeFor[struct {
			A string `json:"a" jsonschema:"description=the a"`
		}](), schema.ErrBadTag, `do not start it with "description="`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := schema.For(tt.typ)
			require.ErrorIs(t, err, tt.want)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestFor_TagWithEqualsLaterIsDescription(t *testing.T) {
	got, err := schema.For(reflect.TypeFor[struct {
		A string `json:"a" jsonschema:"use a=b form, or x = y"`
	}]())
	require.NoError(t, err)
	assert.Contains(t, string(got), `"description":"use a=b form, or x = y"`)
}

func TestParams(t *testing.T) {
	got, err := schema.Params([]string{"a", "b"}, []reflect.Type{reflect.TypeFor[float64](), reflect.TypeFor[[]string]()})
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"array","items":{"type":"string"}}},"required":["a","b"],"additionalProperties":false}`, string(got))

	_, err = schema.Params([]string{"a"}, nil)
	require.ErrorIs(t, err, schema.ErrUnsupportedType)
	_, err = schema.Params([]string{"c"}, []reflect.Type{reflect.TypeFor[chan int]()})
	require.ErrorIs(t, err, schema.ErrUnsupportedType)
	assert.Contains(t, err.Error(), `parameter "c"`)
}

const orderSchema = `{
	"type": "object",
	"properties": {
		"customer": {"type": "string"},
		"express": {"type": "boolean"},
		"mode": {"enum": ["air", "sea"]},
		"version": {"const": 2},
		"note": {"type": ["string", "null"]},
		"items": {"type": "array", "items": {
			"type": "object",
			"properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
			"required": ["sku", "qty"],
			"additionalProperties": false
		}},
		"labels": {"type": "object", "additionalProperties": {"type": "string"}},
		"id": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
		"one": {"oneOf": [{"type": "number"}, {"type": "integer"}]},
		"both": {"allOf": [{"type": "number"}, {"enum": [1, 2]}]},
		"addr": {"$ref": "#/$defs/addr"},
		"never": false
	},
	"required": ["customer", "items"],
	"additionalProperties": false,
	"$defs": {"addr": {"type": "object", "properties": {"next": {"$ref": "#/$defs/addr"}, "city": {"type": "string"}}, "additionalProperties": false}}
}`

func TestSchema_Validate(t *testing.T) {
	s, err := schema.Compile(json.RawMessage(orderSchema))
	require.NoError(t, err)
	base := func(extra map[string]any) map[string]any {
		m := map[string]any{"customer": "ada", "items": []any{map[string]any{"sku": "x", "qty": 2.0}}}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name string
		args map[string]any
		path string
		msg  string // "" means valid
	}{
		{name: "valid", args: base(nil)},
		{name: "valid all", args: base(map[string]any{
			"express": true, "mode": "sea", "version": 2, "note": nil, "labels": map[string]any{"a": "b"},
			"id": 7.0, "one": 1.5, "both": 2, "addr": map[string]any{"city": "Oslo", "next": map[string]any{"city": "Bergen"}},
		})},
		{name: "typed go values", args: map[string]any{"customer": "ada", "items": []map[string]any{{"sku": "x", "qty": int64(3)}}, "labels": map[string]string{"k": "v"}, "note": "n"}},
		{name: "missing required", args: map[string]any{"items": []any{}}, path: "customer", msg: "missing required argument"},
		{name: "wrong type", args: base(map[string]any{"express": "yes"}), path: "express", msg: `expected boolean, got string "yes"`},
		{name: "not integer", args: map[string]any{"customer": "a", "items": []any{map[string]any{"sku": "x", "qty": 2.5}}}, path: "items[0].qty", msg: "expected integer, got number 2.5"},
		{name: "nested missing", args: map[string]any{"customer": "a", "items": []any{map[string]any{"sku": "x", "qty": 1}, map[string]any{"qty": 1}}}, path: "items[1].sku", msg: "missing required argument"},
		{name: "nested unknown", args: map[string]any{"customer": "a", "items": []any{map[string]any{"sku": "x", "qty": 1, "zz": 1}}}, path: "items[0].zz", msg: "unknown argument; expected one of qty, sku"},
		{name: "unknown top", args: base(map[string]any{"bogus": 1}), path: "bogus", msg: "unknown argument; expected one of addr, both"},
		{name: "enum", args: base(map[string]any{"mode": "rail"}), path: "mode", msg: `string "rail" is not one of "air", "sea"`},
		{name: "const", args: base(map[string]any{"version": 3}), path: "version", msg: "number 3 is not 2"},
		{name: "null not allowed", args: base(map[string]any{"customer": nil}), path: "customer", msg: "expected string, got null"},
		{name: "map values", args: base(map[string]any{"labels": map[string]any{"a": 1.0}}), path: "labels.a", msg: "expected string, got number 1"},
		{name: "anyOf", args: base(map[string]any{"id": true}), path: "id", msg: "matches none of the allowed schemas"},
		{name: "oneOf twice", args: base(map[string]any{"one": 2.0}), path: "one", msg: "matches 2 of the oneOf schemas"},
		{name: "allOf", args: base(map[string]any{"both": 3.0}), path: "both", msg: "number 3 is not one of 1, 2"},
		{name: "recursive ref", args: base(map[string]any{"addr": map[string]any{"next": map[string]any{"city": 5}}}), path: "addr.next.city", msg: "expected string, got number 5"},
		{name: "false schema", args: base(map[string]any{"never": 1}), path: "never", msg: "no value is allowed here"},
		{name: "array expected", args: map[string]any{"customer": "a", "items": "x"}, path: "items", msg: `expected array, got string "x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.Validate(tt.args)
			if tt.msg == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, schema.ErrInvalid)
			var ve *schema.ValidationError
			require.ErrorAs(t, err, &ve)
			assert.Equal(t, tt.path, ve.Path)
			assert.Contains(t, ve.Msg, tt.msg)
		})
	}
}

func TestSchema_ValidateDeterministic(t *testing.T) {
	s := schema.MustCompile(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"}}}`))
	for range 20 {
		err := s.Validate(map[string]any{"c": 1, "b": 1, "a": 1})
		require.EqualError(t, err, `schema: argument "a": expected string, got number 1`)
	}
}

func TestCompile(t *testing.T) {
	tests := []struct {
		name, schema, msg string
	}{
		{"empty accepts anything", ``, ""},
		{"true", `true`, ""},
		{"not json", `{`, "unexpected end"},
		{"not object", `[1]`, "must be an object or a boolean"},
		{"unknown type", `{"type":"text"}`, `unknown type "text"`},
		{"bad properties", `{"properties":[]}`, "properties must be an object"},
		{"bad required", `{"required":"a"}`, "required must be an array"},
		{"bad enum", `{"enum":1}`, "enum must be an array"},
		{"bad anyOf", `{"anyOf":[]}`, "anyOf must be a non-empty array"},
		{"remote ref", `{"$ref":"http://x/y"}`, "only local $ref"},
		{"dangling ref", `{"$ref":"#/$defs/nope"}`, "does not resolve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := schema.Compile(json.RawMessage(tt.schema))
			if tt.msg == "" {
				require.NoError(t, err)
				assert.NoError(t, s.Validate(map[string]any{"x": 1}))
				return
			}
			require.ErrorIs(t, err, schema.ErrBadSchema)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestValidate_DerivedSchemaAcceptsBinding(t *testing.T) {
	raw, err := schema.For(reflect.TypeFor[everything]())
	require.NoError(t, err)
	args := map[string]any{
		"shared": "s", "name": "n", "ratio": 1.5, "on": true, "tags": []any{"a"}, "pair": []any{1.0, 2.0},
		"labels": map[string]any{}, "extra": map[string]any{"x": []any{}}, "items": []any{map[string]any{"qty": 1.0}},
		"when": "2024-01-02T03:04:05Z", "ip": "127.0.0.1", "any": nil, "raw": map[string]any{}, "NoTag": 3.0,
	}
	require.NoError(t, schema.Validate(raw, args))
	delete(args, "NoTag")
	require.EqualError(t, schema.Validate(raw, args), `schema: argument "NoTag": missing required argument`)
}

func TestSchema_ValidateValue(t *testing.T) {
	s := schema.MustCompile(json.RawMessage(`{"type":"array","items":{"type":"integer"}}`))
	require.NoError(t, s.ValidateValue([]int{1, 2}))
	require.EqualError(t, s.ValidateValue([]any{1.0, "x"}), `schema: argument "[1]": expected integer, got string "x"`)
	require.EqualError(t, s.ValidateValue("x"), `schema: arguments: expected array, got string "x"`)
}

func BenchmarkSchema_Validate(b *testing.B) {
	s := schema.MustCompile(json.RawMessage(orderSchema))
	args := map[string]any{"customer": "ada", "items": []any{map[string]any{"sku": "x", "qty": 2.0}}, "mode": "air"}
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Validate(args); err != nil {
			b.Fatal(err)
		}
	}
}

func TestForResult_Titles(t *testing.T) {
	type Inner struct {
		N int `json:"n"`
	}
	type Outer struct {
		In   Inner   `json:"in"`
		List []Inner `json:"list"`
	}
	got, err := schema.ForResult(reflect.TypeFor[[]Outer]())
	require.NoError(t, err)
	assert.JSONEq(t, `{"type":"array","items":{"title":"Outer","type":"object","properties":{
		"in":{"title":"Inner","type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false},
		"list":{"type":"array","items":{"title":"Inner","type":"object","properties":{"n":{"type":"integer"}},"required":["n"],"additionalProperties":false}}},
		"required":["in","list"],"additionalProperties":false}}`, string(got))
	plain, err := schema.For(reflect.TypeFor[Outer]())
	require.NoError(t, err)
	assert.NotContains(t, string(plain), "title", "For gives no titles")
}
