package mcp

import (
	"encoding/json"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ToolError is the error of a call whose result the server marked as an
// error (isError): the tool ran and failed. Its Error is the server's
// text, as the model should read it.
type ToolError struct {
	// Server is the server's name in the configuration.
	Server string
	// Tool is the tool's upstream name.
	Tool string
	// Message is the text of the result's text blocks, joined by "\n".
	Message string
	// Result is the whole result, for its other content.
	Result *sdk.CallToolResult
}

// Error is the server's text, or a sentence naming the tool and the
// server when the result had none.
func (e *ToolError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("mcp: tool %q of server %q failed without a message", e.Tool, e.Server)
	}
	return e.Message
}

// Value converts a successful result of a tool call to the Go value a
// script receives (see the package documentation, "Results"):
//
//   - structured content, when present, as encoding/json decodes it into
//     an any: map[string]any, []any, string, float64, bool or nil;
//   - else content made only of text blocks as one string, the blocks
//     joined by "\n" ("" for one empty block, nil for no content at all);
//   - else (images, audio, resources) a []any of one map[string]any per
//     block, in order, text blocks included: {"type": "text", "text": s},
//     {"type": "image" or "audio", "mimeType": m, "data": []byte},
//     {"type": "resource_link", "uri", "name", "title", "description",
//     "mimeType"} and {"type": "resource", "uri", "mimeType", "text" or
//     "blob" ([]byte)}.
//
// A result marked isError is a *ToolError instead.
func Value(res *sdk.CallToolResult) (any, error) {
	if res == nil {
		return nil, nil
	}
	if res.IsError {
		return nil, &ToolError{Message: joinText(res.Content), Result: res}
	}
	if res.StructuredContent != nil {
		return plainJSON(res.StructuredContent)
	}
	if len(res.Content) == 0 {
		return nil, nil
	}
	allText := true
	for _, c := range res.Content {
		if _, ok := c.(*sdk.TextContent); !ok {
			allText = false
			break
		}
	}
	if allText {
		return joinText(res.Content), nil
	}
	out := make([]any, 0, len(res.Content))
	for _, c := range res.Content {
		out = append(out, contentValue(c))
	}
	return out, nil
}

// joinText joins the text blocks of content by "\n".
func joinText(content []sdk.Content) string {
	var texts []string
	for _, c := range content {
		if t, ok := c.(*sdk.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func contentValue(c sdk.Content) any {
	switch c := c.(type) {
	case *sdk.TextContent:
		return map[string]any{"type": "text", "text": c.Text}
	case *sdk.ImageContent:
		return map[string]any{"type": "image", "mimeType": c.MIMEType, "data": c.Data}
	case *sdk.AudioContent:
		return map[string]any{"type": "audio", "mimeType": c.MIMEType, "data": c.Data}
	case *sdk.ResourceLink:
		return map[string]any{"type": "resource_link", "uri": c.URI, "name": c.Name, "title": c.Title,
			"description": c.Description, "mimeType": c.MIMEType}
	case *sdk.EmbeddedResource:
		m := map[string]any{"type": "resource"}
		if r := c.Resource; r != nil {
			m["uri"], m["mimeType"] = r.URI, r.MIMEType
			if r.Blob != nil {
				m["blob"] = r.Blob
			} else {
				m["text"] = r.Text
			}
		}
		return m
	}
	// A kind the SDK knows and this package does not: its JSON form.
	b, err := c.MarshalJSON()
	if err != nil {
		return map[string]any{"type": "unknown"}
	}
	var v any
	if json.Unmarshal(b, &v) != nil {
		return map[string]any{"type": "unknown"}
	}
	return v
}

// plainJSON returns v as encoding/json decodes its JSON into an any, so
// that whatever decoder the SDK used, a script sees the same types.
func plainJSON(v any) (any, error) {
	if isPlain(v, 0) {
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("mcp: structured content: %w", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("mcp: structured content: %w", err)
	}
	return out, nil
}

// isPlain reports whether v is made only of the types encoding/json
// decodes into (checked to a depth; deeper values are re-decoded).
func isPlain(v any, depth int) bool {
	if depth > 64 {
		return false
	}
	switch x := v.(type) {
	case nil, string, bool, float64:
		return true
	case map[string]any:
		for _, e := range x {
			if !isPlain(e, depth+1) {
				return false
			}
		}
		return x != nil
	case []any:
		for _, e := range x {
			if !isPlain(e, depth+1) {
				return false
			}
		}
		return x != nil
	}
	return false
}
