package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"sync"
)

// lineWriter passes writes through to w and remembers whether the last
// byte was a newline, so that what the command prints after a script's
// output starts on a line of its own. Scripts write from their own
// goroutines: it is safe for concurrent use.
type lineWriter struct {
	mu      sync.Mutex
	w       io.Writer
	midLine bool
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(p) > 0 {
		l.midLine = p[len(p)-1] != '\n'
	}
	return l.w.Write(p)
}

// endLine writes a newline if the output so far does not end with one.
func (l *lineWriter) endLine() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.midLine {
		l.midLine = false
		fmt.Fprintln(l.w)
	}
}

// formatValue renders a script's value for a person: strings quoted as
// Go does, maps, slices and arrays as indented JSON when JSON can encode
// them, anything else as fmt's %+v (structs with their field names).
func formatValue(v any) string {
	if v == nil {
		return "nil"
	}
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array:
		if data, err := json.MarshalIndent(v, "", "  "); err == nil {
			return string(data)
		}
	}
	return fmt.Sprintf("%+v", v)
}

// Exit codes of the command's own making; the others are the script's
// (engine.CodeError, CodeTimeout, CodeLimit, CodeCrash, an os.Exit code).
const (
	exitOK          = 0
	exitFailure     = 1   // an input of a scripted repl failed
	exitUsage       = 2   // a bad flag or argument, an unreadable file, a runtime that did not start
	exitInterrupted = 130 // Ctrl-C (SIGINT) stopped run, or a scripted repl between inputs
)

// exitCodeOf is the exit code after a flag parse error: 0 when the help
// was asked for and printed.
func exitCodeOf(err error) int {
	if errors.Is(err, errHelp) {
		return exitOK
	}
	return exitUsage
}
