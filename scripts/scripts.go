// Package scripts is toolscript's corpus of scripts written the way models
// write Go, each with its expected result, run against the demo tool set
// (package demo) by the package's driver test. The REPL shows them as
// examples and the benchmarks run them.
//
// # Format
//
// Each file testdata/*.gos is a script (bare statements or a full program).
// Its trailing block of line comments states what running it must give:
//
//	// ReturnCode: 1                      (optional, default 0)
//	// Error: substring of CodeResult.Error (optional)
//	// Gap: a yaegi limitation this script pins (optional)
//	// Output:
//	// first line of stdout
//	// second line of stdout
//
// The Output block is compared exactly with CodeResult.Stdout; a line "//"
// alone is an empty line.
package scripts

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed testdata/*.gos testdata/adversarial/*.gos
var files embed.FS

// Script is one corpus entry.
type Script struct {
	Name       string // file name without .go
	Code       string // the whole file, passed to the engine as is
	Output     string // expected stdout
	ReturnCode int    // expected ReturnCode
	Error      string // expected substring of CodeResult.Error, "" for none
	Gap        string // the yaegi gap the script pins, "" if none

	// Adversarial scripts only (testdata/adversarial):

	// Unsafe says why the in-process runtime must not run the script
	// (only the isolated runtime survives it); "" when both can.
	Unsafe string
	// Busy says why a native call may keep a core busy after an
	// in-process execution ends (the isolated runtime kills it).
	Busy string
	// Leak says why a goroutine of the script stays blocked after an
	// in-process execution ends (a native sync call cannot be
	// interrupted; the isolated runtime kills the worker).
	Leak string
	// AnyOutput accepts any stdout.
	AnyOutput bool
	// IsolatedReturnCode and IsolatedError are what the isolated runtime
	// gives when it differs from ReturnCode and Error; IsolatedAny
	// accepts any failure there (the OS may stop the worker first).
	IsolatedReturnCode *int
	IsolatedError      string
	IsolatedAny        bool
	// IsolatedAlt lists further accepted (return code, error substring)
	// pairs in the isolated runtime, e.g. an OS kill (137, "worker
	// killed") where the in-process guard would give 125: the race
	// detector's memory use can meet the worker's OS limit first.
	IsolatedAlt []Alt
	// Timeout overrides the driver's timeout for this script; 0 keeps it.
	Timeout time.Duration
}

// All returns every script of the corpus, sorted by name.
func All() ([]Script, error) { return readDir("testdata") }

// Adversarial returns the adversarial corpus: scripts that try to take the
// host down (recursion, memory and goroutine bombs, deadlocks, floods,
// forbidden imports), with the error each runtime must turn them into.
func Adversarial() ([]Script, error) { return readDir("testdata/adversarial") }

func readDir(dir string) ([]Script, error) {
	entries, err := fs.ReadDir(files, dir)
	if err != nil {
		return nil, err
	}
	var out []Script
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".gos" {
			continue
		}
		data, err := fs.ReadFile(files, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		s, err := Parse(strings.TrimSuffix(e.Name(), ".gos"), string(data))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Alt is an accepted alternative outcome.
type Alt struct {
	ReturnCode int
	Error      string
}

// Get returns the script called name.
func Get(name string) (Script, error) {
	all, err := All()
	if err != nil {
		return Script{}, err
	}
	for _, s := range all {
		if s.Name == name {
			return s, nil
		}
	}
	return Script{}, fmt.Errorf("scripts: no script %q", name)
}

// Parse reads a script and its trailing expectation block.
func Parse(name, content string) (Script, error) {
	s := Script{Name: name, Code: content}
	lines := strings.Split(strings.TrimRight(content, "\n"), "\n")
	// The trailing block: the last run of lines starting with "//".
	start := len(lines)
	for start > 0 && strings.HasPrefix(strings.TrimSpace(lines[start-1]), "//") {
		start--
	}
	block := lines[start:]
	out := -1
	for i, l := range block {
		l = strings.TrimSpace(l)
		switch {
		case l == "// Output:":
			out = i
		case out >= 0:
		case strings.HasPrefix(l, "// ReturnCode:"):
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(l, "// ReturnCode:")))
			if err != nil {
				return s, fmt.Errorf("scripts: %s: bad ReturnCode: %v", name, err)
			}
			s.ReturnCode = n
		case strings.HasPrefix(l, "// Error:"):
			s.Error = strings.TrimSpace(strings.TrimPrefix(l, "// Error:"))
		case strings.HasPrefix(l, "// Gap:"):
			s.Gap = strings.TrimSpace(strings.TrimPrefix(l, "// Gap:"))
		case strings.HasPrefix(l, "// Unsafe:"):
			s.Unsafe = strings.TrimSpace(strings.TrimPrefix(l, "// Unsafe:"))
		case strings.HasPrefix(l, "// Leak:"):
			s.Leak = strings.TrimSpace(strings.TrimPrefix(l, "// Leak:"))
		case strings.HasPrefix(l, "// Busy:"):
			s.Busy = strings.TrimSpace(strings.TrimPrefix(l, "// Busy:"))
		case strings.HasPrefix(l, "// Timeout:"):
			d, err := time.ParseDuration(strings.TrimSpace(strings.TrimPrefix(l, "// Timeout:")))
			if err != nil {
				return s, fmt.Errorf("scripts: %s: bad Timeout: %v", name, err)
			}
			s.Timeout = d
		case strings.HasPrefix(l, "// AnyOutput:"):
			s.AnyOutput = true
		case strings.HasPrefix(l, "// IsolatedReturnCode:"):
			v := strings.TrimSpace(strings.TrimPrefix(l, "// IsolatedReturnCode:"))
			if v == "any" {
				s.IsolatedAny = true
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil {
				return s, fmt.Errorf("scripts: %s: bad IsolatedReturnCode: %v", name, err)
			}
			s.IsolatedReturnCode = &n
		case strings.HasPrefix(l, "// IsolatedAlt:"):
			// "// IsolatedAlt: 137 worker killed"
			v := strings.TrimSpace(strings.TrimPrefix(l, "// IsolatedAlt:"))
			code, msg, _ := strings.Cut(v, " ")
			n, err := strconv.Atoi(code)
			if err != nil {
				return s, fmt.Errorf("scripts: %s: bad IsolatedAlt: %v", name, err)
			}
			s.IsolatedAlt = append(s.IsolatedAlt, Alt{ReturnCode: n, Error: strings.TrimSpace(msg)})
		case strings.HasPrefix(l, "// IsolatedError:"):
			if v := strings.TrimSpace(strings.TrimPrefix(l, "// IsolatedError:")); v != "any" {
				s.IsolatedError = v
			}
		}
	}
	if out < 0 {
		return s, fmt.Errorf("scripts: %s: no trailing \"// Output:\" block", name)
	}
	var b strings.Builder
	for _, l := range block[out+1:] {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "//")
		l = strings.TrimPrefix(l, " ")
		b.WriteString(l)
		b.WriteString("\n")
	}
	s.Output = b.String()
	if len(block) == out+1 {
		s.Output = ""
	}
	return s, nil
}
