package registry_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

type OrderItem struct {
	SKU string `json:"sku" jsonschema:"stock keeping unit"`
	Qty int    `json:"qty"`
}

type OrderArgs struct {
	Customer string      `json:"customer" jsonschema:"customer id"`
	Items    []OrderItem `json:"items"`
	Express  *bool       `json:"express"`
	Note     string      `json:"note,omitempty"`
}

// schemaRegistry holds tools covering the schema features each API
// converts differently.
func schemaRegistry(t *testing.T, sep registry.Separator) *registry.Registry {
	t.Helper()
	r := registry.New("shop", registry.WithSeparator(sep))
	require.NoError(t, r.Register(multiply, registry.WithParams("a", "b"), registry.WithNamespace("math_ops"),
		registry.WithDescription("Multiply two numbers.")))
	require.NoError(t, r.Register(func(context.Context, OrderArgs) (string, error) { return "ok", nil },
		registry.WithName("placeOrder"), registry.WithNamespace("shop"), registry.WithDescription("Place an order.")))
	require.NoError(t, r.Register(func() string { return "pong" }, registry.WithName("ping")))
	require.NoError(t, r.Register(calculateTotal, registry.WithName("search"), registry.WithDescription("Search the catalogue."),
		registry.WithSchema(json.RawMessage(`{
			"type": "object",
			"properties": {
				"query": {"type": "string", "minLength": 1},
				"mode": {"enum": ["fast", "deep"]},
				"limit": {"type": ["integer", "null"], "format": "int64"},
				"when": {"type": "string", "format": "date-time"},
				"email": {"type": "string", "format": "email"},
				"filter": {"$ref": "#/$defs/filter"},
				"version": {"const": "v2"},
				"id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
				"tag": {"anyOf": [{"type": "string"}, {"type": "null"}]}
			},
			"required": ["query"],
			"additionalProperties": false,
			"$defs": {"filter": {"type": "object", "properties": {"field": {"type": "string"}}, "additionalProperties": false}}
		}`))))
	require.NoError(t, r.Register(calculateTotal, registry.WithName("hidden")))
	require.NoError(t, r.Disable("hidden", "not for models"))
	return r
}

func TestRegistry_Schemas(t *testing.T) {
	formats := []registry.Format{registry.OpenAIChat, registry.OpenAIResponses, registry.Anthropic, registry.Gemini}
	for _, sep := range separators {
		sepName := map[registry.Separator]string{registry.SeparatorDash: "dash", registry.SeparatorDot: "dot"}[sep]
		for _, f := range formats {
			t.Run(f.String()+"/"+sepName, func(t *testing.T) {
				r := schemaRegistry(t, sep)
				got, err := r.Schemas(f)
				require.NoError(t, err)
				checkShape(t, f, sep, got)
				assert.NotContains(t, string(got), "hidden", "disabled tools are not declared")
				golden(t, filepath.Join("testdata", "schemas", f.String()+"_"+sepName+".json"), got)
			})
		}
	}
}

var (
	openAIFuncName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiFuncName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
)

// checkShape checks the documented shape of each API's tool declarations.
func checkShape(t *testing.T, f registry.Format, sep registry.Separator, raw json.RawMessage) {
	t.Helper()
	var tools []map[string]any
	require.NoError(t, json.Unmarshal(raw, &tools))
	checkName := func(name any) {
		s, ok := name.(string)
		require.True(t, ok, "name is a string")
		if sep == registry.SeparatorDash || f == registry.Gemini {
			re := openAIFuncName
			if f == registry.Gemini {
				re = geminiFuncName
			}
			assert.Regexp(t, re, s)
		}
	}
	keys := func(m map[string]any) []string {
		var ks []string
		for k := range m {
			ks = append(ks, k)
		}
		return ks
	}
	switch f {
	case registry.OpenAIChat:
		require.Len(t, tools, 4)
		for _, tool := range tools {
			assert.ElementsMatch(t, []string{"type", "function"}, keys(tool))
			assert.Equal(t, "function", tool["type"])
			fn := tool["function"].(map[string]any)
			checkName(fn["name"])
			assert.Subset(t, []string{"name", "description", "parameters", "strict"}, keys(fn))
			assert.Equal(t, "object", fn["parameters"].(map[string]any)["type"])
		}
	case registry.OpenAIResponses:
		require.Len(t, tools, 4)
		for _, tool := range tools {
			assert.Subset(t, []string{"type", "name", "description", "parameters", "strict"}, keys(tool))
			assert.Equal(t, "function", tool["type"])
			checkName(tool["name"])
			assert.Equal(t, false, tool["strict"], "strict is explicit: the API defaults it to true")
			assert.Equal(t, "object", tool["parameters"].(map[string]any)["type"])
		}
	case registry.Anthropic:
		require.Len(t, tools, 4)
		for _, tool := range tools {
			assert.Subset(t, []string{"name", "description", "input_schema"}, keys(tool))
			checkName(tool["name"])
			assert.Equal(t, "object", tool["input_schema"].(map[string]any)["type"])
		}
	case registry.Gemini:
		require.Len(t, tools, 1)
		assert.ElementsMatch(t, []string{"functionDeclarations"}, keys(tools[0]))
		decls := tools[0]["functionDeclarations"].([]any)
		require.Len(t, decls, 4)
		for _, d := range decls {
			decl := d.(map[string]any)
			assert.Subset(t, []string{"name", "description", "parameters"}, keys(decl))
			checkName(decl["name"])
			if decl["name"] == "ping" {
				assert.NotContains(t, decl, "parameters", "Gemini rejects empty OBJECT parameters")
				continue
			}
			checkGeminiSchema(t, decl["parameters"].(map[string]any))
			assert.Equal(t, "OBJECT", decl["parameters"].(map[string]any)["type"])
		}
	}
}

var geminiSchemaKeys = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
	"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
	"anyOf", "propertyOrdering", "default", "items", "minimum", "maximum"}

func checkGeminiSchema(t *testing.T, s map[string]any) {
	t.Helper()
	for k, v := range s {
		assert.Contains(t, geminiSchemaKeys, k, "Gemini Schema has no field %q", k)
		switch k {
		case "type":
			assert.Contains(t, []string{"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"}, v)
		case "properties":
			for _, sub := range v.(map[string]any) {
				checkGeminiSchema(t, sub.(map[string]any))
			}
		case "items":
			checkGeminiSchema(t, v.(map[string]any))
		case "anyOf":
			for _, sub := range v.([]any) {
				checkGeminiSchema(t, sub.(map[string]any))
			}
		case "format":
			assert.Contains(t, []string{"enum", "date-time", "int32", "int64", "float", "double"}, v)
		case "enum":
			for _, e := range v.([]any) {
				assert.IsType(t, "", e, "Gemini enums are strings")
			}
		}
	}
}

func TestTool_SchemaUnknownFormat(t *testing.T) {
	tool := &registry.Tool{Name: "x"}
	_, err := tool.Schema(registry.Format(99))
	require.EqualError(t, err, "registry: unknown format Format(99)")
	r := registry.New("r")
	_, err = r.Schemas(registry.Format(0))
	require.NoError(t, err, "an empty registry declares nothing")
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	var pretty bytes.Buffer
	require.NoError(t, json.Indent(&pretty, got, "", "  "))
	pretty.WriteByte('\n')
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, pretty.Bytes(), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, strings.TrimSpace(string(want)), strings.TrimSpace(pretty.String()), "golden %s (go test -update rewrites it)", path)
}
