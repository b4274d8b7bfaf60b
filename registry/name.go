package registry

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
)

// MaxNameLength is the longest name NormalizeToolName returns, and the
// longest qualified name a registry accepts: the limit of OpenAI and Gemini
// function names.
const MaxNameLength = 64

// NormalizeToolName turns s into a snake_case name valid for every supported
// API (it matches ^[a-z0-9_]+$, so also OpenAI's ^[a-zA-Z0-9_-]+$), as the
// Python ToolRegistry's normalize_tool_name does:
//
//   - white space at either end is dropped;
//   - every run of characters other than ASCII letters and digits (spaces,
//     dots, dashes, @, underscores, non-ASCII letters) separates words, and
//     a run at the start or the end stays as one "_": "@decorator" gives
//     _decorator, "_123" gives _123, "__init__" gives _init_;
//   - camelCase and acronyms split into words: "calculateTotal" gives
//     calculate_total, "OpenAPI service" gives open_api_service;
//   - words are lower-cased and joined by "_";
//   - a word repeating the word before it is dropped, so the OpenAPI-style
//     "add_add_get" gives add_get.
//
// A name made only of ASCII punctuation ("_", "__", "@@ .. --") gives "_".
// It is idempotent. An empty name, one of white space only, one with
// non-ASCII characters but no ASCII letter or digit, or one longer than
// MaxNameLength once normalized, is refused with an error matching
// ErrInvalidName.
func NormalizeToolName(s string) (string, error) {
	name := strings.TrimSpace(s)
	lastAlnum := -1
	for i := len(name) - 1; i >= 0; i-- {
		if isAlnum(name[i]) {
			lastAlnum = i
			break
		}
	}
	if lastAlnum < 0 {
		// No word at all: only ASCII punctuation gives "_".
		if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r >= 0x80 }) {
			return "", fmt.Errorf("%w: %q has no letters or digits", ErrInvalidName, s)
		}
		return "_", nil
	}
	var b strings.Builder
	var last string
	emit := func(w string) {
		w = strings.ToLower(w)
		if w == last {
			return
		}
		if b.Len() > 0 && last != "" {
			b.WriteByte('_')
		}
		b.WriteString(w)
		last = w
	}
	if !isAlnum(name[0]) {
		b.WriteByte('_') // a separator run at the start stays as one "_"
	}
	for i := 0; i <= lastAlnum; {
		if !isAlnum(name[i]) {
			i++
			continue
		}
		j := i
		for j < len(name) && isAlnum(name[j]) {
			j++
		}
		splitCamel(name[i:j], emit)
		i = j
	}
	if lastAlnum < len(name)-1 {
		b.WriteByte('_') // and so does one at the end
	}
	out := b.String()
	if len(out) > MaxNameLength {
		return "", fmt.Errorf("%w: %q is longer than %d characters once normalized", ErrInvalidName, s, MaxNameLength)
	}
	return out, nil
}

// splitCamel splits a run of ASCII letters and digits at case changes:
// before an upper-case letter that follows a lower-case letter or a digit,
// and before the last upper-case letter of an acronym followed by a
// lower-case one ("APIService" gives API, Service).
func splitCamel(run string, emit func(string)) {
	start := 0
	for k := 1; k < len(run); k++ {
		c, prev := run[k], run[k-1]
		if !isUpper(c) {
			continue
		}
		if isLower(prev) || isDigit(prev) || isUpper(prev) && k+1 < len(run) && isLower(run[k+1]) {
			emit(run[start:k])
			start = k
		}
	}
	emit(run[start:])
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isAlnum(c byte) bool { return isUpper(c) || isLower(c) || isDigit(c) }

// funcName returns the declared name of a Go function or method value, or ""
// for a function literal.
func funcName(fn any) string {
	v := reflect.ValueOf(fn)
	if v.Kind() != reflect.Func || v.IsNil() {
		return ""
	}
	rf := runtime.FuncForPC(v.Pointer())
	if rf == nil {
		return ""
	}
	name := rf.Name() // such as example.com/pkg.(*T).Method-fm or pkg.F[...].func1
	name = name[strings.LastIndexByte(name, '/')+1:]
	name = strings.TrimSuffix(name, "-fm")
	for { // drop type arguments of generic functions: F[...]
		i := strings.IndexByte(name, '[')
		j := strings.IndexByte(name, ']')
		if i < 0 || j < i {
			break
		}
		name = name[:i] + name[j+1:]
	}
	name = name[strings.LastIndexByte(name, '.')+1:]
	if name == "" || isDigit(name[0]) || strings.HasPrefix(name, "func") && len(name) > 4 && isDigit(name[4]) {
		return ""
	}
	return name
}
