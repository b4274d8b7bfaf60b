package normalize

import (
	"sort"
	"strconv"
	"strings"
)

// edit replaces the bytes [off, end) of the original source with text;
// end 0 means a pure insertion at off.
//
// Every rewrite is a list of edits of the source it parsed, never a
// printed syntax tree: the model's text stays byte for byte where no
// rewrite touches it, and its positions stay those of the model's source,
// with line directives where generated text would shift them.
type edit struct {
	off  int
	text string
	end  int
}

// applyEdits applies edits to code in order of offset; of two edits that
// overlap, the first (in the order of the slice, for the same offset)
// wins.
func applyEdits(code string, edits []edit) string {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].off < edits[j].off })
	var b strings.Builder
	b.Grow(len(code) + 512)
	last := 0
	for _, e := range edits {
		if e.off < last {
			continue // overlapping edit: keep the first
		}
		b.WriteString(code[last:e.off])
		b.WriteString(e.text)
		last = e.off
		if e.end > e.off {
			last = e.end
		}
	}
	b.WriteString(code[last:])
	return b.String()
}

// lineDirective restores the position (line, col) of the model's source
// for the text that follows it: the interpreter reports positions after
// it as File:line:col, counted from there.
func lineDirective(line, col int) string {
	return "/*line " + File + ":" + strconv.Itoa(line) + ":" + strconv.Itoa(col) + "*/"
}

// mentions reports whether word occurs in src as a whole word (not inside
// an identifier, not right after a dot: there it is a field or method of
// a selector, or the extension of File in a line directive). It can be
// true of a comment or a string; it is never false of source that uses
// word as a keyword or identifier, so a walk of the tree for that
// construct can be skipped when it is false.
func mentions(src, word string) bool {
	for i := 0; i <= len(src)-len(word); {
		j := strings.Index(src[i:], word)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(word)
		if (j == 0 || !isIdentByte(src[j-1]) && src[j-1] != '.') && (end == len(src) || !isIdentByte(src[end])) {
			return true
		}
		i = j + 1
	}
	return false
}

// isIdentByte reports whether c can be part of an identifier; every byte
// of a multi-byte character counts, to be safe.
func isIdentByte(c byte) bool {
	return c == '_' || c >= 0x80 || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
