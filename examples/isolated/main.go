// Command isolated shows the isolated runtime: each script runs in a
// pre-started worker process (a child of this binary) under OS limits,
// while the tools keep running here, in the host. A script that would take
// the host down kills only its worker.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/projection"
)

// README:start isolated
func main() {
	engine.MaybeServeWorker() // first line: in a worker process, serve and exit

	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1})
	if err != nil {
		return err
	}
	defer iso.Close()

	upper := projection.MustDirect("text-upper", strings.ToUpper,
		"Upper-case a string.", projection.WithParams("s"))
	ns := map[string]projection.ToolProjection{upper.Name(): upper}

	for _, code := range []string{
		`s, _ := text.Upper(map[string]any{"s": "hello from a worker"}); fmt.Println(s)`,
		`m := map[int]int{}; for i := range 4 { go func() { for { m[i]++ } }() }; select {}`,
		`fmt.Println("the next worker is fresh")`,
	} {
		res, err := iso.Execute(ctx, code, ns, engine.WithTimeout(10*time.Second))
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "code %d: %s", res.ReturnCode, res.Stdout)
		if res.Error != "" {
			fmt.Fprintln(w, firstLine(res.Error))
		}
	}
	return nil
}

// README:end isolated

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
