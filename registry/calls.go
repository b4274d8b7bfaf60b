package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Call is one tool call requested by a model. It decodes from the call
// objects of every supported API with encoding/json (see UnmarshalJSON), so
// a []Call can be unmarshalled straight from a response's calls, or
// filled by hand.
type Call struct {
	// ID is the call's id, which its result must quote. A call without one
	// (Gemini's may lack it) gets "call_<index>" in ExecuteToolCalls.
	ID string
	// Name is the tool's qualified name as the model wrote it.
	Name string
	// Arguments is the arguments object as JSON text. Ignored when Args is
	// not nil; empty means no arguments.
	Arguments json.RawMessage
	// Args are the decoded arguments, used when not nil.
	Args map[string]any
	// Format is the API the call was decoded from; 0 when built by hand.
	Format Format
}

// UnmarshalJSON decodes one tool call in any supported shape:
//
//	{"id":..., "type":"function", "function":{"name":..., "arguments":"{...}"}}   // OpenAI chat
//	{"type":"function_call", "call_id":..., "name":..., "arguments":"{...}"}      // OpenAI responses
//	{"type":"tool_use", "id":..., "name":..., "input":{...}}                      // Anthropic
//	{"functionCall":{"id":..., "name":..., "args":{...}}}                         // Gemini part
//	{"id":..., "name":..., "args":{...}}                                          // Gemini FunctionCall
//
// Arguments may be given as a JSON string holding an object or as an
// object. Any other shape is an error matching ErrBadToolCall.
func (c *Call) UnmarshalJSON(data []byte) error {
	var w struct {
		ID        string          `json:"id"`
		CallID    string          `json:"call_id"`
		Type      string          `json:"type"`
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Input     json.RawMessage `json:"input"`
		Args      json.RawMessage `json:"args"`
		Function  *struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
		FunctionCall *struct {
			ID   string          `json:"id"`
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"functionCall"`
		FunctionCallSnake *struct {
			ID   string          `json:"id"`
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"function_call"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("%w: %v", ErrBadToolCall, err)
	}
	var out Call
	var args json.RawMessage
	switch {
	case w.Function != nil:
		out = Call{ID: w.ID, Name: w.Function.Name, Format: OpenAIChat}
		args = w.Function.Arguments
	case w.Type == "function_call":
		out = Call{ID: w.CallID, Name: w.Name, Format: OpenAIResponses}
		if out.ID == "" {
			out.ID = w.ID
		}
		args = w.Arguments
	case w.Type == "tool_use":
		out = Call{ID: w.ID, Name: w.Name, Format: Anthropic}
		args = w.Input
	case w.FunctionCall != nil || w.FunctionCallSnake != nil:
		fc := w.FunctionCall
		if fc == nil {
			fc = w.FunctionCallSnake
		}
		out = Call{ID: fc.ID, Name: fc.Name, Format: Gemini}
		args = fc.Args
	case w.Name != "" && w.Type == "" && w.Args != nil:
		out = Call{ID: w.ID, Name: w.Name, Format: Gemini}
		args = w.Args
	case w.Name != "" && w.Type == "":
		out = Call{ID: w.ID, Name: w.Name}
		args = w.Arguments
		if args == nil {
			args = w.Input
		}
	default:
		return fmt.Errorf("%w: unrecognized tool call %s", ErrBadToolCall, abbreviate(data))
	}
	if out.Name == "" {
		return fmt.Errorf("%w: tool call without a name: %s", ErrBadToolCall, abbreviate(data))
	}
	a, err := unquoteArguments(args)
	if err != nil {
		return fmt.Errorf("%w: call %q to %q: %v", ErrBadToolCall, out.ID, out.Name, err)
	}
	out.Arguments = a
	*c = out
	return nil
}

// unquoteArguments returns the arguments as object JSON: a JSON string is
// unquoted (OpenAI sends arguments as a string), null and "" mean none.
func unquoteArguments(raw json.RawMessage) (json.RawMessage, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
		if s == "" {
			return nil, nil
		}
		return json.RawMessage(s), nil
	}
	return raw, nil
}

func abbreviate(data []byte) string {
	if len(data) > 80 {
		return string(data[:77]) + "..."
	}
	return string(data)
}

// ParseToolCalls extracts the tool calls from a model's output in any
// supported API: a JSON array of calls, a single call, or a container that
// holds them — an OpenAI chat completion or its assistant message
// (tool_calls), an OpenAI Responses response (output), an Anthropic message
// (content), a Gemini response (candidates) or Content (parts). Entries of
// a container or array that are not calls (text, reasoning) are skipped.
func ParseToolCalls(data []byte) ([]Call, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty input", ErrBadToolCall)
	}
	if data[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadToolCall, err)
		}
		return parseItems(items)
	}
	var c struct {
		ToolCalls []json.RawMessage `json:"tool_calls"`
		Output    []json.RawMessage `json:"output"`
		Content   json.RawMessage   `json:"content"`
		Parts     []json.RawMessage `json:"parts"`
		Choices   []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
		Candidates []struct {
			Content json.RawMessage `json:"content"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadToolCall, err)
	}
	switch {
	case c.ToolCalls != nil:
		return parseItems(c.ToolCalls)
	case c.Output != nil:
		return parseItems(c.Output)
	case c.Parts != nil:
		return parseItems(c.Parts)
	case len(c.Choices) > 0:
		return ParseToolCalls(c.Choices[0].Message)
	case len(c.Candidates) > 0:
		return ParseToolCalls(c.Candidates[0].Content)
	case len(c.Content) > 0 && c.Content[0] == '[':
		var items []json.RawMessage
		if err := json.Unmarshal(c.Content, &items); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadToolCall, err)
		}
		return parseItems(items)
	case c.Content != nil:
		return nil, nil // a message with text content only
	}
	var one Call
	if err := json.Unmarshal(data, &one); err != nil {
		return nil, err
	}
	return []Call{one}, nil
}

// parseItems decodes the calls among items, skipping entries that are
// clearly something else: a "type" that is not a call type, or a Gemini part
// without a functionCall.
func parseItems(items []json.RawMessage) ([]Call, error) {
	calls := make([]Call, 0, len(items))
	for _, it := range items {
		var probe struct {
			Type         string          `json:"type"`
			Function     json.RawMessage `json:"function"`
			FunctionCall json.RawMessage `json:"functionCall"`
			Snake        json.RawMessage `json:"function_call"`
			Name         string          `json:"name"`
		}
		if err := json.Unmarshal(it, &probe); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBadToolCall, err)
		}
		switch {
		case probe.Function != nil, probe.FunctionCall != nil, probe.Snake != nil,
			probe.Type == "function_call", probe.Type == "tool_use":
		case probe.Type != "" || probe.Name == "":
			continue // text, reasoning, a function response, ...
		}
		var c Call
		if err := json.Unmarshal(it, &c); err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	return calls, nil
}
