package peers

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"github.com/toolscript/toolscript/bench/harness"
)

// DefaultTimeout bounds a run whose workload sets no Timeout, as
// toolscript's default Timeout does.
const DefaultTimeout = 30 * time.Second

//go:embed scripts
var scripts embed.FS

// All returns the peers in the order of the table's columns.
func All() []harness.Engine {
	return []harness.Engine{NewYaegi(), NewGoja(), NewStarlark()}
}

// script returns the peer's script for w, from scripts/<dir>/<w.Name><ext>,
// or harness.ErrUnsupported when there is none.
func script(dir, ext string, w *harness.Workload) (string, error) {
	b, err := scripts.ReadFile("scripts/" + dir + "/" + w.Name + ext)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w: no %s script for %s", harness.ErrUnsupported, dir, w.Name)
	}
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// tools indexes w's stubs by name.
func tools(w *harness.Workload) map[string]func(context.Context, map[string]any) (any, error) {
	m := make(map[string]func(context.Context, map[string]any) (any, error), len(w.Tools))
	for _, t := range w.Tools {
		m[t.Name] = t.Fn
	}
	return m
}

// deadline gives ctx the workload's timeout (DefaultTimeout when it sets none).
func deadline(ctx context.Context, w *harness.Workload) (context.Context, context.CancelFunc) {
	d := w.Timeout
	if d <= 0 {
		d = DefaultTimeout
	}
	return context.WithTimeout(ctx, d)
}

// timedOut wraps err as harness.ErrTimeout when ctx's deadline has passed
// (the run was stopped for it), and returns err unchanged otherwise.
func timedOut(ctx context.Context, err error) error {
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("%w: %v", harness.ErrTimeout, err)
	}
	return err
}

// output is a script's stdout: goroutines of a script may print at once.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *output) WriteString(s string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.WriteString(s)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}
