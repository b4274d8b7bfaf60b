// Package suggest finds, for a name a script got wrong, the nearest name
// that exists: the "did you mean" of the type-checking pass
// (internal/typecheck), the engine's refused imports and the tool
// arguments the projection and the schema validator do not know.
package suggest

import (
	"sort"
	"strings"
)

// Nearest returns the name of names nearest to name: equal but for case,
// or within an edit distance of about a third of its length (none for
// names of one or two letters, one edit up to four, two up to seven,
// ...); "" when none is near enough. Ties go to the first in sorted order.
func Nearest(name string, names []string) string {
	sorted := append([]string(nil), names...)
	sort.Strings(sorted)
	best, bestD := "", -1
	limit := (len(name) + 1) / 3 // 0 for names of one or two letters: x is no typo of y
	for _, n := range sorted {
		if n == name {
			continue
		}
		if strings.EqualFold(n, name) {
			return n
		}
		d := distance(strings.ToLower(name), strings.ToLower(n))
		if d <= limit && (bestD < 0 || d < bestD) {
			best, bestD = n, d
		}
	}
	return best
}

// Distance is the edit (Levenshtein) distance of a and b, in bytes.
func Distance(a, b string) int { return distance(a, b) }

// distance is the Levenshtein distance of a and b (bytes).
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Hint is " (did you mean X?)" for the name X of names nearest to name,
// "" when none is near enough.
func Hint(name string, names []string) string {
	if best := Nearest(name, names); best != "" {
		return " (did you mean " + best + "?)"
	}
	return ""
}
