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
// API (it matches ^[a-z0-9_]+$, so also OpenAI's ^[a-zA-Z0-9_-]+$):
//
//   - every run of characters other than ASCII letters and digits (spaces,
//     dots, dashes, @, non-ASCII letters) separates words;
//   - camelCase and acronyms split into words: "calculateTotal" gives
//     calculate_total, "OpenAPI service" gives open_api_service;
//   - words are lower-cased and joined by "_";
//   - a word repeating the word before it is dropped, so the OpenAPI-style
//     "add_add_get" gives add_get.
//
// It is idempotent. A name with no ASCII letter or digit, or longer than
// MaxNameLength once normalized, is refused with an error matching
// ErrInvalidName.
func NormalizeToolName(s string) (string, error) {
	var b strings.Builder
	var last string
	emit := func(w string) {
		w = strings.ToLower(w)
		if w == last {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('_')
		}
		b.WriteString(w)
		last = w
	}
	for i := 0; i < len(s); {
		if !isAlnum(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isAlnum(s[j]) {
			j++
		}
		splitCamel(s[i:j], emit)
		i = j
	}
	out := b.String()
	switch {
	case out == "":
		return "", fmt.Errorf("%w: %q has no letters or digits", ErrInvalidName, s)
	case len(out) > MaxNameLength:
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
