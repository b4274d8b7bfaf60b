// Command toolloop shows code mode inside a classic JSON tool-calling
// loop: the registry declares its tools to the model in an LLM API's
// format (OpenAI chat here), executes the tool calls of each reply and
// answers with tool-result messages. EnablePTC adds the programmatic tool
// call tool, which runs a Go script against the other tools, so one round
// trip does the work of many.
// The model is a stand-in that replays two replies; a real loop sends the
// same messages to an API.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/registry"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// README:start toolloop
func run(ctx context.Context, w io.Writer) error {
	reg := registry.New("shop")
	defer reg.Close()
	stock := map[string]int{"tea": 12, "cup": 0, "pot": 3}
	if err := reg.Register(func(sku string) int { return stock[sku] },
		registry.WithNamespace("inventory"), registry.WithName("stock"), registry.WithParams("sku"),
		registry.WithDescription("Units in stock of a product.")); err != nil {
		return err
	}

	// programmatic_tool_call runs a Go script against the other tools.
	if err := reg.EnablePTC(engine.CodeRunner(engine.New(engine.Config{})),
		registry.WithPTCTimeout(10*time.Second)); err != nil {
		return err
	}

	decls, err := reg.Schemas(registry.OpenAIChat)
	if err != nil {
		return err
	}
	messages := []json.RawMessage{json.RawMessage(`{"role":"user","content":"Which products are out of stock?"}`)}
	for turn := 0; turn < 5; turn++ {
		reply := model(decls, messages)
		messages = append(messages, reply)
		calls, err := registry.ParseToolCalls(reply)
		if err != nil {
			return err
		}
		if len(calls) == 0 { // the final answer
			var msg struct{ Content string }
			if err := json.Unmarshal(reply, &msg); err != nil {
				return err
			}
			fmt.Fprintln(w, "assistant:", msg.Content)
			return nil
		}
		results, err := reg.ExecuteToolCalls(ctx, calls)
		if err != nil {
			return err
		}
		for _, r := range results {
			fmt.Fprintf(w, "tool %s -> %q\n", r.Call.Name, r.Content())
		}
		answers, err := registry.ResultMessages(registry.OpenAIChat, results)
		if err != nil {
			return err
		}
		messages = append(messages, answers...)
	}
	return fmt.Errorf("no answer after 5 turns")
}

// README:end toolloop

// model stands in for an LLM API: its first reply calls
// programmatic_tool_call with a script, its second answers from the
// script's output.
func model(decls json.RawMessage, messages []json.RawMessage) json.RawMessage {
	var last struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	_ = json.Unmarshal(messages[len(messages)-1], &last)
	if last.Role != "tool" {
		code := `for _, sku := range []string{"tea", "cup", "pot"} {
	n, err := inventory.Stock(map[string]any{"sku": sku})
	if err != nil {
		panic(err)
	}
	if n.(int) == 0 {
		fmt.Println(sku)
	}
}`
		args, _ := json.Marshal(map[string]string{"code": code})
		call, _ := json.Marshal(map[string]any{
			"role": "assistant",
			"tool_calls": []any{map[string]any{
				"id": "call_1", "type": "function",
				"function": map[string]any{"name": registry.PTCToolName, "arguments": string(args)},
			}},
		})
		return call
	}
	var out struct{ Stdout string }
	_ = json.Unmarshal([]byte(last.Content), &out)
	answer, _ := json.Marshal(map[string]string{"role": "assistant", "content": "Out of stock: " + strings.TrimSpace(out.Stdout)})
	return answer
}
