package mcp

import (
	"sort"
	"strconv"
	"strings"

	"github.com/toolscript/toolscript/registry"
)

// fallbackName is the method name of a tool whose upstream name has no
// ASCII letter or digit.
const fallbackName = "tool"

// methodNames maps the upstream names of a server's tools to method names
// valid in namespace ns (see the package documentation, "Names"): each is
// normalized with registry.NormalizeToolName (or is "tool" when that
// fails), cut so that ns, the separator and the name fit in
// registry.MaxNameLength, and made unique by a suffix _2, _3, ... given in
// the order of the upstream names (byte order), so the same list always
// gives the same names.
func methodNames(ns string, upstream []string) map[string]string {
	sorted := append([]string(nil), upstream...)
	// Names already in normalized form first, so that "get_user" keeps
	// its name when "getUser" is listed too; then byte order.
	sort.Slice(sorted, func(i, j int) bool {
		si, sj := stable(sorted[i]), stable(sorted[j])
		if si != sj {
			return si
		}
		return sorted[i] < sorted[j]
	})
	room := registry.MaxNameLength - len(ns) - 1 // one byte for the separator
	if ns == "" {
		room = registry.MaxNameLength
	}
	out := make(map[string]string, len(sorted))
	taken := make(map[string]bool, len(sorted))
	for _, up := range sorted {
		if _, done := out[up]; done {
			continue // a duplicate upstream name maps once
		}
		base := normalizeLong(up)
		base = renormalize(cut(base, room))
		name := base
		for n := 2; taken[goKey(name)] || !stable(name); n++ {
			suffix := "_" + strconv.Itoa(n)
			prefix := renormalize(cut(base, room-len(suffix)))
			if strings.HasSuffix(prefix, "_") {
				suffix = suffix[1:] // "_" and "_2" would normalize to "_2"
			}
			name = prefix + suffix
		}
		taken[goKey(name)] = true
		out[up] = name
	}
	return out
}

// normalizeLong normalizes an upstream name, cutting a name too long to
// normalize: it tries shorter and shorter prefixes, then "tool".
func normalizeLong(up string) string {
	for _, n := range []int{len(up), registry.MaxNameLength, 42, 32} {
		if n > len(up) {
			continue
		}
		if name, err := registry.NormalizeToolName(truncate(up, n)); err == nil {
			return name
		}
	}
	return fallbackName
}

// stable reports whether name is its own normalized form, so that the
// registry keeps it as it is (a cut or a suffix can make a word repeat,
// which normalization would drop).
func stable(name string) bool {
	n, err := registry.NormalizeToolName(name)
	return err == nil && n == name
}

// renormalize normalizes a cut name again (a cut can make a word repeat
// the one before it); normalizing only shortens it.
func renormalize(name string) string {
	if n, err := registry.NormalizeToolName(name); err == nil {
		return n
	}
	return name
}

// goKey is name as a script writes it, a Go identifier: each word
// capitalized, underscores dropped, a leading digit after a "T" (the rule
// of engine.FuncName for these names). Two names with one key would be
// one function in the script.
func goKey(name string) string {
	var b strings.Builder
	upper := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '_' {
			upper = true
			continue
		}
		if b.Len() == 0 && c >= '0' && c <= '9' {
			b.WriteByte('T')
		}
		if upper && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		upper = false
		b.WriteByte(c)
	}
	if b.Len() == 0 {
		return "Tool"
	}
	return b.String()
}

// truncate cuts s to at most n bytes.
func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// cut shortens a normalized name to n bytes without leaving a trailing "_"
// made by the cut (a name that is only "_" stays).
func cut(name string, n int) string {
	if n < 1 {
		n = 1
	}
	if len(name) <= n {
		return name
	}
	name = name[:n]
	for len(name) > 1 && name[len(name)-1] == '_' {
		name = name[:len(name)-1]
	}
	return name
}
