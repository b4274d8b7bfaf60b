package registry

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Format is a model API whose tool declarations, tool calls and tool-result
// messages the registry speaks.
type Format int

// The supported formats.
const (
	// OpenAIChat is the OpenAI Chat Completions API: tools of type
	// "function", calls in the assistant message's tool_calls, results in
	// "tool" messages.
	OpenAIChat Format = iota + 1
	// OpenAIResponses is the OpenAI Responses API: "function" tools,
	// "function_call" output items, "function_call_output" input items.
	OpenAIResponses
	// Anthropic is the Anthropic Messages API: tools with input_schema,
	// "tool_use" and "tool_result" content blocks.
	Anthropic
	// Gemini is the Google Gemini API: functionDeclarations, functionCall
	// and functionResponse parts.
	Gemini
)

// String returns the format's name: openai_chat, openai_responses,
// anthropic or gemini.
func (f Format) String() string {
	switch f {
	case OpenAIChat:
		return "openai_chat"
	case OpenAIResponses:
		return "openai_responses"
	case Anthropic:
		return "anthropic"
	case Gemini:
		return "gemini"
	}
	return fmt.Sprintf("Format(%d)", int(f))
}

// Schema returns the declaration of t in format f: the element of the
// request's tools array for the OpenAI and Anthropic formats, one
// FunctionDeclaration for Gemini.
func (t *Tool) Schema(f Format) (json.RawMessage, error) {
	params := t.Parameters
	if params == nil {
		params = anyObject
	}
	var v any
	switch f {
	case OpenAIChat:
		type fn struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		v = struct {
			Type     string `json:"type"`
			Function fn     `json:"function"`
		}{"function", fn{t.Name, t.Description, params}}
	case OpenAIResponses:
		// strict defaults to true in this API and then demands schemas
		// whose every property is required: say false explicitly.
		v = struct {
			Type        string          `json:"type"`
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			Parameters  json.RawMessage `json:"parameters"`
			Strict      bool            `json:"strict"`
		}{"function", t.Name, t.Description, params, false}
	case Anthropic:
		v = struct {
			Name        string          `json:"name"`
			Description string          `json:"description,omitempty"`
			InputSchema json.RawMessage `json:"input_schema"`
		}{t.Name, t.Description, params}
	case Gemini:
		gp, err := geminiParameters(params)
		if err != nil {
			return nil, fmt.Errorf("registry: tool %q: %w", t.Name, err)
		}
		v = struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters,omitempty"`
		}{t.Name, t.Description, gp}
	default:
		return nil, unknownFormat(f)
	}
	return json.Marshal(v)
}

// Schemas returns the value of the request's "tools" field declaring the
// enabled tools in format f, in Names order: an array of tools for the
// OpenAI and Anthropic formats, and for Gemini an array holding one Tool
// with all functionDeclarations.
func (r *Registry) Schemas(f Format) (json.RawMessage, error) {
	tools := r.enabledTools()
	r.mu.RLock()
	ptc := r.ptc
	r.mu.RUnlock()
	decls := make([]json.RawMessage, 0, len(tools))
	for _, t := range tools {
		if ptc != nil && t.Name == PTCToolName {
			// The PTC tool describes the tools of this moment.
			c := *t
			c.Description = r.ptcDescription(tools, ptc.describeBytes)
			t = &c
		}
		d, err := t.Schema(f)
		if err != nil {
			return nil, err
		}
		decls = append(decls, d)
	}
	if f == Gemini {
		return json.Marshal([]struct {
			FunctionDeclarations []json.RawMessage `json:"functionDeclarations"`
		}{{decls}})
	}
	return json.Marshal(decls)
}

// enabledTools returns the enabled tools that are not denied, in order
// (shared, not copied: the registry never mutates a stored tool).
func (r *Registry) enabledTools() []*Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Tool, 0, len(r.order))
	for _, n := range r.order {
		t := r.tools[n]
		if off, _ := r.disabledLocked(t); !off && r.permLocked(n) != PermissionDeny {
			out = append(out, t)
		}
	}
	return out
}

// geminiParameters converts a JSON Schema to the OpenAPI subset of Gemini's
// Schema object: upper-case type names, nullable instead of "null" types,
// anyOf for oneOf, local $refs inlined, and keywords Gemini rejects dropped
// (additionalProperties, $schema, $defs, const becomes a one-value enum).
// An object without properties gives nil: Gemini rejects empty OBJECT
// parameters, and a function without parameters omits them.
func geminiParameters(raw json.RawMessage) (json.RawMessage, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	g := geminiConv{root: doc}
	out := g.conv(doc, 0)
	if props, _ := out["properties"].(map[string]any); len(props) == 0 {
		return nil, nil
	}
	return json.Marshal(out)
}

type geminiConv struct{ root map[string]any }

var geminiKeep = map[string]bool{
	"format": true, "title": true, "description": true, "nullable": true, "enum": true,
	"maxItems": true, "minItems": true, "minProperties": true, "maxProperties": true,
	"minLength": true, "maxLength": true, "pattern": true, "example": true, "default": true,
	"minimum": true, "maximum": true, "required": true,
}

var geminiFormats = map[string]map[string]bool{
	"STRING":  {"enum": true, "date-time": true},
	"INTEGER": {"int32": true, "int64": true},
	"NUMBER":  {"float": true, "double": true},
}

func (g *geminiConv) conv(s map[string]any, depth int) map[string]any {
	if ref, ok := s["$ref"].(string); ok && strings.HasPrefix(ref, "#/") && depth < 8 {
		if target := g.lookup(ref); target != nil {
			merged := map[string]any{}
			for k, v := range target {
				merged[k] = v
			}
			for k, v := range s {
				if k != "$ref" {
					merged[k] = v
				}
			}
			return g.conv(merged, depth+1)
		}
	}
	out := map[string]any{}
	for k, v := range s {
		if geminiKeep[k] {
			out[k] = v
		}
	}
	if c, ok := s["const"]; ok {
		out["enum"] = []any{c}
	}
	switch t := s["type"].(type) {
	case string:
		out["type"] = strings.ToUpper(t)
	case []any:
		var types []string
		for _, x := range t {
			if x == "null" {
				out["nullable"] = true
			} else if xs, ok := x.(string); ok {
				types = append(types, strings.ToUpper(xs))
			}
		}
		if len(types) == 1 {
			out["type"] = types[0]
		} else if len(types) > 1 {
			var alts []any
			for _, ty := range types {
				alts = append(alts, map[string]any{"type": ty})
			}
			out["anyOf"] = alts
		}
	}
	if typ, _ := out["type"].(string); typ != "" {
		if f, ok := out["format"].(string); ok && !geminiFormats[typ][f] {
			delete(out, "format")
		}
	} else {
		delete(out, "format")
	}
	if e, ok := out["enum"].([]any); ok {
		strs := true
		for _, x := range e {
			if _, ok := x.(string); !ok {
				strs = false
			}
		}
		if !strs || out["type"] != nil && out["type"] != "STRING" { // Gemini enums are strings only
			delete(out, "enum")
		} else {
			out["type"], out["format"] = "STRING", "enum"
		}
	}
	if props, ok := s["properties"].(map[string]any); ok {
		cp := make(map[string]any, len(props))
		for k, v := range props {
			if sub, ok := v.(map[string]any); ok {
				cp[k] = g.conv(sub, depth)
			}
		}
		out["properties"] = cp
	}
	if items, ok := s["items"].(map[string]any); ok {
		out["items"] = g.conv(items, depth)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if alts, ok := s[kw].([]any); ok {
			var conv []any
			for _, a := range alts {
				if am, ok := a.(map[string]any); ok {
					if am["type"] == "null" {
						out["nullable"] = true
						continue
					}
					conv = append(conv, g.conv(am, depth))
				}
			}
			if len(conv) == 1 {
				for k, v := range conv[0].(map[string]any) {
					if _, set := out[k]; !set {
						out[k] = v
					}
				}
			} else if len(conv) > 1 {
				out["anyOf"] = conv
			}
		}
	}
	return out
}

func (g *geminiConv) lookup(ref string) map[string]any {
	var cur any = g.root
	for tok := range strings.SplitSeq(ref[2:], "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	m, _ := cur.(map[string]any)
	return m
}
