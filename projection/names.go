package projection

import (
	"go/token"
	"strings"
	"unicode"
)

// GoPackageName returns the Go package name under which a script sees
// the tools of namespace ns: ns with every character that cannot appear
// in a Go identifier replaced by "_", "tools" for the empty namespace, and
// "ns" followed by the underscores for a namespace of underscores only
// (the blank identifier cannot name a package). The engine and the
// registry's signatures both name packages with it.
func GoPackageName(ns string) string {
	if ns == "" {
		return "tools"
	}
	var b strings.Builder
	for i, r := range ns {
		switch {
		case r == '_' || unicode.IsLetter(r) && r < unicode.MaxASCII || unicode.IsDigit(r) && r < unicode.MaxASCII && i > 0:
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsDigit(r):
			b.WriteString("_")
			b.WriteRune(r)
		default:
			b.WriteString("_")
		}
	}
	s := b.String()
	if token.IsKeyword(s) {
		s += "_"
	}
	if strings.Trim(s, "_") == "" {
		s = "ns" + s
	}
	return s
}

// GoFuncName returns the exported Go identifier of a tool's method name:
// "get_user_info" -> "GetUserInfo", "multiply" -> "Multiply".
func GoFuncName(method string) string {
	var b strings.Builder
	upper := true
	for _, r := range method {
		if !(unicode.IsLetter(r) || unicode.IsDigit(r)) || r >= unicode.MaxASCII {
			upper = true
			continue
		}
		if b.Len() == 0 && unicode.IsDigit(r) {
			b.WriteString("T")
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	if b.Len() == 0 {
		return "Tool"
	}
	return b.String()
}
