package registry

import (
	"encoding/json"
	"fmt"
)

// ToolMessages returns the messages that continue a conversation in format f
// after the model asked for the calls of results: first the model's turn
// holding the calls, then the tool results. Append them to the request's
// messages (OpenAI chat, Anthropic), input (OpenAI Responses) or contents
// (Gemini). If the conversation already holds the model's turn, use
// ResultMessages instead.
//
//	OpenAIChat       {"role":"assistant","tool_calls":[...]}, then one {"role":"tool",...} per result
//	OpenAIResponses  one "function_call" item per call, then one "function_call_output" per result
//	Anthropic        {"role":"assistant","content":[tool_use...]}, {"role":"user","content":[tool_result...]}
//	Gemini           {"role":"model","parts":[functionCall...]}, {"role":"user","parts":[functionResponse...]}
func ToolMessages(f Format, results Results) ([]json.RawMessage, error) {
	calls, err := callMessages(f, results)
	if err != nil {
		return nil, err
	}
	res, err := ResultMessages(f, results)
	if err != nil {
		return nil, err
	}
	return append(calls, res...), nil
}

// ResultMessages returns only the tool-result messages of ToolMessages.
func ResultMessages(f Format, results Results) ([]json.RawMessage, error) {
	var out []any
	switch f {
	case OpenAIChat:
		for _, r := range results {
			out = append(out, map[string]any{"role": "tool", "tool_call_id": r.ID, "content": r.Content()})
		}
	case OpenAIResponses:
		for _, r := range results {
			out = append(out, map[string]any{"type": "function_call_output", "call_id": r.ID, "output": r.Content()})
		}
	case Anthropic:
		blocks := make([]any, 0, len(results))
		for _, r := range results {
			b := map[string]any{"type": "tool_result", "tool_use_id": r.ID, "content": r.Content()}
			if r.Err != nil {
				b["is_error"] = true
			}
			blocks = append(blocks, b)
		}
		out = append(out, map[string]any{"role": "user", "content": blocks})
	case Gemini:
		parts := make([]any, 0, len(results))
		for _, r := range results {
			var resp map[string]any
			switch {
			case r.Err != nil:
				resp = map[string]any{"error": r.Err.Error()}
			case jsonable(r.Value):
				resp = map[string]any{"output": r.Value}
			default:
				resp = map[string]any{"output": r.Content()}
			}
			fr := map[string]any{"name": r.Call.Name, "response": resp}
			if r.Call.ID != "" {
				fr["id"] = r.Call.ID
			}
			parts = append(parts, map[string]any{"functionResponse": fr})
		}
		out = append(out, map[string]any{"role": "user", "parts": parts})
	default:
		return nil, unknownFormat(f)
	}
	return marshalAll(out)
}

// callMessages returns the model's turn holding the calls.
func callMessages(f Format, results Results) ([]json.RawMessage, error) {
	var out []any
	switch f {
	case OpenAIChat:
		calls := make([]any, 0, len(results))
		for _, r := range results {
			calls = append(calls, map[string]any{"id": r.ID, "type": "function",
				"function": map[string]any{"name": r.Call.Name, "arguments": string(argumentsJSON(r.Call))}})
		}
		out = append(out, map[string]any{"role": "assistant", "content": nil, "tool_calls": calls})
	case OpenAIResponses:
		for _, r := range results {
			out = append(out, map[string]any{"type": "function_call", "call_id": r.ID,
				"name": r.Call.Name, "arguments": string(argumentsJSON(r.Call))})
		}
	case Anthropic:
		blocks := make([]any, 0, len(results))
		for _, r := range results {
			blocks = append(blocks, map[string]any{"type": "tool_use", "id": r.ID,
				"name": r.Call.Name, "input": argumentsJSON(r.Call)})
		}
		out = append(out, map[string]any{"role": "assistant", "content": blocks})
	case Gemini:
		parts := make([]any, 0, len(results))
		for _, r := range results {
			fc := map[string]any{"name": r.Call.Name, "args": argumentsJSON(r.Call)}
			if r.Call.ID != "" {
				fc["id"] = r.Call.ID
			}
			parts = append(parts, map[string]any{"functionCall": fc})
		}
		out = append(out, map[string]any{"role": "model", "parts": parts})
	default:
		return nil, unknownFormat(f)
	}
	return marshalAll(out)
}

// argumentsJSON returns a call's arguments as a JSON object.
func argumentsJSON(c Call) json.RawMessage {
	if c.Args != nil {
		if b, err := json.Marshal(c.Args); err == nil {
			return b
		}
	}
	if len(c.Arguments) > 0 && json.Valid(c.Arguments) {
		return c.Arguments
	}
	return json.RawMessage("{}")
}

func jsonable(v any) bool {
	_, err := json.Marshal(v)
	return err == nil
}

func marshalAll(msgs []any) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(msgs))
	for i, m := range msgs {
		b, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("registry: encode message: %w", err)
		}
		out[i] = b
	}
	return out, nil
}
