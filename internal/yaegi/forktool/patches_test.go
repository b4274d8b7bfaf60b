package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarkers(t *testing.T) {
	cases := []struct {
		line, next string
		nums       []int
		bare       bool
	}{
		{"x := 1 // toolscript patch 12", "", []int{12}, false},
		{"// toolscript patches 24 to 26: hooks", "", []int{24, 25, 26}, false},
		{"// toolscript patches 3, 5 and 7", "", []int{3, 5, 7}, false},
		{"// counts a body (toolscript patch", "// 31): more", []int{31}, false},
		{"// toolscript patch: no number", "", nil, true},
		{"// no marker", "// toolscript patch 4", nil, false},
	}
	for _, c := range cases {
		nums, bare := markers(c.line, c.next)
		assert.Equal(t, c.nums, nums, c.line)
		assert.Equal(t, c.bare, bare, c.line)
	}
}

// TestSeries splits a difference into patches, renders the series and
// checks that its states reproduce the fork, and reports unmarked hunks.
func TestSeries(t *testing.T) {
	lines := func(n int, f func(i int) string) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(f(i) + "\n")
		}
		return b.String()
	}
	base := lines(40, func(i int) string { return "line" + string(rune('a'+i%26)) })
	baseLines := strings.SplitAfter(base, "\n")
	fork := strings.Join(baseLines[:5], "") + "added // toolscript patch 2\n" + strings.Join(baseLines[5:20], "") +
		"changed // toolscript patch 1\n" + strings.Join(baseLines[21:23], "") + "near, unmarked\n" + strings.Join(baseLines[23:], "")
	order := []readmePatch{{num: 2, text: "2. two"}, {num: 1, text: "1. one"}}
	files, problems, err := series(sourceSet{"interp/x.go": []byte(base)}, sourceSet{"interp/x.go": []byte(fork), "interp/new.go": []byte("package interp // toolscript patch 1\n")}, order)
	require.NoError(t, err)
	require.Empty(t, problems)
	require.Len(t, files, 2)
	var x *fileSeries
	for i := range files {
		if files[i].path == "interp/x.go" {
			x = &files[i]
		}
	}
	require.NotNil(t, x)
	var got []int
	for _, g := range x.groups {
		got = append(got, g.patch)
	}
	assert.Equal(t, []int{2, 1, 1}, got, "the unmarked change goes to the nearest marked one in its hunk")
	only2, _ := x.state(map[int]bool{2: true})
	assert.Equal(t, strings.Join(baseLines[:5], "")+"added // toolscript patch 2\n"+strings.Join(baseLines[5:], ""), string(only2))
	all, _ := x.state(map[int]bool{1: true, 2: true})
	assert.Equal(t, fork, string(all))

	rendered, problems, err := renderSeries(sourceSet{"interp/x.go": []byte(base)}, sourceSet{"interp/x.go": []byte(fork)}, order)
	require.NoError(t, err)
	require.Empty(t, problems)
	require.Len(t, rendered, 2)
	assert.Contains(t, string(rendered["0001-patch-2.patch"]), "+added // toolscript patch 2")
	assert.Contains(t, string(rendered["0002-patch-1.patch"]), "+near, unmarked")

	far := strings.Join(baseLines[:30], "") + "far, unmarked\n" + strings.Join(baseLines[30:], "")
	_, problems, err = series(sourceSet{"interp/x.go": []byte(base)}, sourceSet{"interp/x.go": []byte(far)}, order)
	require.NoError(t, err)
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0], "interp/x.go:31: a hunk with no toolscript patch marker")

	_, problems, err = series(sourceSet{"interp/x.go": []byte(base)}, sourceSet{"interp/x.go": []byte(strings.Replace(fork, "patch 2", "patch 9", 1))}, order)
	require.NoError(t, err)
	assert.Contains(t, strings.Join(problems, "\n"), "names patch 9, which internal/yaegi/README.md does not list")
}

// TestSplitGroup checks that one run of changed lines with the markers of
// two patches is split: the earlier patch's lines are an insertion, the
// later one's replace the base line.
func TestSplitGroup(t *testing.T) {
	base := "a\nb\nold\nc\nd\n"
	fork := "a\nb\nguard // toolscript patch 1\nbody\nnew // toolscript patch 2\nc\nd\n"
	order := []readmePatch{{num: 1}, {num: 2}}
	files, problems, err := series(sourceSet{"interp/x.go": []byte(base)}, sourceSet{"interp/x.go": []byte(fork)}, order)
	require.NoError(t, err)
	require.Empty(t, problems)
	require.Len(t, files, 1)
	require.Len(t, files[0].groups, 2)
	only1, _ := files[0].state(map[int]bool{1: true})
	assert.Equal(t, "a\nb\nguard // toolscript patch 1\nbody\nold\nc\nd\n", string(only1))
	only2, _ := files[0].state(map[int]bool{2: true})
	assert.Equal(t, "a\nb\nnew // toolscript patch 2\nc\nd\n", string(only2))
	all, _ := files[0].state(map[int]bool{1: true, 2: true})
	assert.Equal(t, fork, string(all))
}

// TestCheckSeries is apply.sh --check in the default suite: every hunk of
// the fork is marked, and the committed series, applied onto upstream at
// the base (the version internal/yaegi/README.md names, which the main
// module does not require: download fetches it through the module proxy
// when the module cache lacks it), reproduces the
// fork's sources byte for byte. After a change to the fork, run
// `bash internal/yaegi/patches/apply.sh --export` and commit the series.
func TestCheckSeries(t *testing.T) {
	root, err := repoRoot()
	require.NoError(t, err)
	require.NoError(t, checkSeries(root), "run bash internal/yaegi/patches/apply.sh --export and commit internal/yaegi/patches")
}
