package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// patchesDir holds the series: NNNN-patch-P.patch, NNNN its place in
// internal/yaegi/README.md's list, P the patch number.
const patchesDir = "internal/yaegi/patches"

func cmdPatches(args []string) error {
	root, err := repoRoot()
	if err != nil {
		return err
	}
	switch {
	case len(args) == 1 && args[0] == "--export":
		return exportSeries(root)
	case len(args) == 1 && args[0] == "--check":
		return checkSeries(root)
	case len(args) >= 1 && !strings.HasPrefix(args[0], "-"):
		out := ""
		reject := false
		for i := 1; i < len(args); i++ {
			switch {
			case args[i] == "-o" && i+1 < len(args):
				out = args[i+1]
				i++
			case args[i] == "--reject":
				reject = true
			default:
				return fmt.Errorf("unknown argument %q", args[i])
			}
		}
		return applyOnto(root, args[0], out, reject)
	}
	return errors.New("usage: apply.sh --check | --export | <upstream-version> [-o dir] [--reject]")
}

// readmePatch is one entry of internal/yaegi/README.md's numbered list.
type readmePatch struct {
	num  int
	text string
}

var itemRe = regexp.MustCompile(`^(\d+)\. `)

// readmeOrder returns the README's patches in their order there.
func readmeOrder(root string) ([]readmePatch, error) {
	b, err := os.ReadFile(filepath.Join(forkDir(root), "README.md"))
	if err != nil {
		return nil, err
	}
	var list []readmePatch
	var cur *readmePatch
	for _, line := range strings.Split(string(b), "\n") {
		if m := itemRe.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			list = append(list, readmePatch{num: n, text: line})
			cur = &list[len(list)-1]
			continue
		}
		if cur != nil && strings.HasPrefix(line, "   ") {
			cur.text += "\n" + line
			continue
		}
		cur = nil
	}
	seen := map[int]bool{}
	for _, p := range list {
		if seen[p.num] {
			return nil, fmt.Errorf("internal/yaegi/README.md lists patch %d twice", p.num)
		}
		seen[p.num] = true
	}
	if len(list) == 0 {
		return nil, errors.New("internal/yaegi/README.md lists no patches")
	}
	return list, nil
}

var markerRe = regexp.MustCompile(`toolscript patch(es)?\b(\s+\d+(?:\s*(?:,|and|to)\s*\d+)*)?`)
var numListRe = regexp.MustCompile(`\d+|to`)

// markers returns the patch numbers the markers starting on a line name
// (a marker's number may wrap to the next line of a comment), and whether
// one has no number.
func markers(line, next string) (nums []int, bare bool) {
	line = strings.TrimRight(line, "\r\n")
	n := len(line)
	next = strings.TrimLeft(next, " \t")
	next = strings.TrimLeft(strings.TrimPrefix(next, "//"), " \t")
	text := line + " " + next
	for _, loc := range markerRe.FindAllStringSubmatchIndex(text, -1) {
		if loc[0] >= n {
			break
		}
		m := []string{text[loc[0]:loc[1]], "", ""}
		if loc[4] >= 0 {
			m[2] = text[loc[4]:loc[5]]
		}
		if m[2] == "" {
			bare = true
			continue
		}
		toks := numListRe.FindAllString(m[2], -1)
		for i := 0; i < len(toks); i++ {
			if toks[i] == "to" {
				continue
			}
			n, _ := strconv.Atoi(toks[i])
			if i+2 < len(toks) && toks[i+1] == "to" {
				hi, _ := strconv.Atoi(toks[i+2])
				for k := n; k <= hi; k++ {
					nums = append(nums, k)
				}
				i += 2
				continue
			}
			nums = append(nums, n)
		}
	}
	return nums, bare
}

// group is a run of changed lines: base lines [a, a+na) become fork lines
// [b, b+nb).
type group struct {
	a, na, b, nb int
	patch        int // assigned patch number
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	lines := strings.SplitAfter(string(b), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

var hunkRe = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// lineGroups diffs base and fork (git diff, no context) into groups.
func lineGroups(tmp string, base, fork []byte) ([]group, error) {
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	if err := os.WriteFile(a, base, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(b, fork, 0o644); err != nil {
		return nil, err
	}
	out, err := exec.Command("git", "diff", "--no-index", "--no-color", "-U0", "--diff-algorithm=histogram", a, b).Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return nil, fmt.Errorf("git diff: %w", err)
	}
	var gs []group
	for _, line := range strings.Split(string(out), "\n") {
		m := hunkRe.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		num := func(s string, def int) int {
			if s == "" {
				return def
			}
			n, _ := strconv.Atoi(s)
			return n
		}
		g := group{a: num(m[1], 0), na: num(m[2], 1), b: num(m[3], 0), nb: num(m[4], 1)}
		// git numbers from 1, and names the line before an empty range.
		if g.na > 0 {
			g.a--
		}
		if g.nb > 0 {
			g.b--
		}
		gs = append(gs, g)
	}
	return gs, nil
}

// fileSeries is one file's groups, each assigned to a patch.
type fileSeries struct {
	path   string
	base   []string // nil for a file the fork adds
	fork   []string
	groups []group
}

// series splits the fork's difference from base into patches. Every hunk
// of the difference (changes closer than seven lines, as git diff groups
// them) must name its patch in a marker, "toolscript patch N", on a line
// it adds; a change in a hunk without a marker of its own goes to the
// patch of the nearest change with one, and a change whose markers name
// several patches to the one latest in README order. A file the fork adds
// belongs to the first patch its markers name.
func series(base, fork sourceSet, order []readmePatch) ([]fileSeries, []string, error) {
	rank := map[int]int{}
	for i, p := range order {
		rank[p.num] = i
	}
	tmp, err := os.MkdirTemp("", "yaegi-series-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	var files []fileSeries
	var problems []string
	unlisted := map[string]bool{}
	for _, p := range base.paths() {
		if _, ok := fork[p]; !ok {
			problems = append(problems, fmt.Sprintf("%s: the fork deletes this upstream file; the series cannot carry that", p))
		}
	}
	for _, p := range fork.paths() {
		fs := fileSeries{path: p, fork: splitLines(fork[p])}
		pick := func(nums []int, latest bool) (int, bool) {
			best, ok := 0, false
			for _, n := range nums {
				r, known := rank[n]
				if !known {
					msg := fmt.Sprintf("%s: a marker names patch %d, which internal/yaegi/README.md does not list", p, n)
					if !unlisted[msg] {
						unlisted[msg] = true
						problems = append(problems, msg)
					}
					continue
				}
				if !ok || (latest && r > rank[best]) || (!latest && r < rank[best]) {
					best, ok = n, true
				}
			}
			return best, ok
		}
		lineNums := func(lines []string, from, to int) (nums []int) {
			for i := from; i < to; i++ {
				next := ""
				if i+1 < len(lines) {
					next = lines[i+1]
				}
				ns, bare := markers(lines[i], next)
				if bare {
					problems = append(problems, fmt.Sprintf("%s:%d: a marker without its patch number", p, i+1))
				}
				nums = append(nums, ns...)
			}
			return nums
		}
		b, ok := base[p]
		if !ok {
			n, ok := pick(lineNums(fs.fork, 0, len(fs.fork)), false)
			if !ok {
				problems = append(problems, fmt.Sprintf("%s: a file the fork adds names no patch", p))
				continue
			}
			fs.groups = []group{{a: 0, na: 0, b: 0, nb: len(fs.fork), patch: n}}
			files = append(files, fs)
			continue
		}
		fs.base = splitLines(b)
		gs, err := lineGroups(tmp, b, fork[p])
		if err != nil {
			return nil, nil, err
		}
		// Hunks as git diff -U3 makes them.
		for start := 0; start < len(gs); {
			end := start + 1
			for end < len(gs) && gs[end].a-(gs[end-1].a+gs[end-1].na) <= 6 {
				end++
			}
			hunk := gs[start:end]
			assigned := make([]bool, len(hunk))
			for i := range hunk {
				if n, ok := pick(lineNums(fs.fork, hunk[i].b, hunk[i].b+hunk[i].nb), true); ok {
					hunk[i].patch, assigned[i] = n, true
				}
			}
			any := false
			for _, a := range assigned {
				any = any || a
			}
			if !any {
				problems = append(problems, fmt.Sprintf("%s:%d: a hunk with no toolscript patch marker on a line it adds", p, hunk[0].b+1))
			} else {
				for i := range hunk {
					if assigned[i] {
						continue
					}
					bestDist := -1
					for j := range hunk {
						if !assigned[j] {
							continue
						}
						d := hunk[i].b - hunk[j].b
						if d < 0 {
							d = -d * 2 // a following marker counts double: prefer one before
						}
						if bestDist < 0 || d < bestDist {
							bestDist, hunk[i].patch = d, hunk[j].patch
						}
					}
				}
			}
			start = end
		}
		var split []group
		for _, g := range gs {
			split = append(split, splitGroup(g, fs.fork, rank)...)
		}
		fs.groups = split
		if len(gs) > 0 {
			files = append(files, fs)
		}
	}
	return files, problems, nil
}

// splitGroup splits a run of changed lines whose added lines carry
// markers of several patches into one run per patch: each added line goes
// to the patch its marker names, or else to that of the nearest marked
// line before it (after it, for the lines before the first marker); the
// base lines the run replaces go to the patch latest in README order, the
// other patches' lines being insertions before or after them.
func splitGroup(g group, fork []string, rank map[int]int) []group {
	owner := make([]int, g.nb)
	distinct := map[int]bool{}
	for i := 0; i < g.nb; i++ {
		next := ""
		if g.b+i+1 < len(fork) {
			next = fork[g.b+i+1]
		}
		nums, _ := markers(fork[g.b+i], next)
		best := -1
		for _, n := range nums {
			if r, ok := rank[n]; ok && (best < 0 || r > rank[best]) {
				best = n
			}
		}
		owner[i] = best
		if best >= 0 {
			distinct[best] = true
		}
	}
	if len(distinct) < 2 {
		return []group{g}
	}
	last := -1
	for i := range owner {
		if owner[i] >= 0 {
			last = owner[i]
		} else if last >= 0 {
			owner[i] = last
		}
	}
	for i := len(owner) - 1; i >= 0; i-- {
		if owner[i] >= 0 {
			last = owner[i]
		} else {
			owner[i] = last
		}
	}
	var runs []group
	for i := 0; i < g.nb; {
		j := i
		for j < g.nb && owner[j] == owner[i] {
			j++
		}
		runs = append(runs, group{a: g.a, b: g.b + i, nb: j - i, patch: owner[i]})
		i = j
	}
	rep := 0
	for i := range runs {
		if rank[runs[i].patch] > rank[runs[rep].patch] {
			rep = i
		}
	}
	runs[rep].na = g.na
	for i := rep + 1; i < len(runs); i++ {
		runs[i].a = g.a + g.na
	}
	return runs
}

// state returns the file with the groups of the patches in done applied.
func (fs *fileSeries) state(done map[int]bool) (content []byte, exists bool) {
	if fs.base == nil {
		if !done[fs.groups[0].patch] {
			return nil, false
		}
		return []byte(strings.Join(fs.fork, "")), true
	}
	var out strings.Builder
	pos := 0
	for _, g := range fs.groups {
		if !done[g.patch] {
			continue
		}
		out.WriteString(strings.Join(fs.base[pos:g.a], ""))
		out.WriteString(strings.Join(fs.fork[g.b:g.b+g.nb], ""))
		pos = g.a + g.na
	}
	out.WriteString(strings.Join(fs.base[pos:], ""))
	return []byte(out.String()), true
}

// renderSeries returns the patch files (name to content) of the fork's
// series against base.
func renderSeries(base, fork sourceSet, order []readmePatch) (map[string][]byte, []string, error) {
	files, problems, err := series(base, fork, order)
	if err != nil || len(problems) > 0 {
		return nil, problems, err
	}
	used := map[int]bool{}
	for _, f := range files {
		for _, g := range f.groups {
			used[g.patch] = true
		}
	}
	tmp, err := os.MkdirTemp("", "yaegi-render-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(tmp)
	out := map[string][]byte{}
	done := map[int]bool{}
	for i, p := range order {
		if !used[p.num] {
			continue
		}
		before := maps.Clone(done)
		done[p.num] = true
		for _, side := range []string{"a", "b"} {
			if err := os.RemoveAll(filepath.Join(tmp, side)); err != nil {
				return nil, nil, err
			}
		}
		for _, f := range files {
			for side, d := range map[string]map[int]bool{"a": before, "b": done} {
				c, ok := f.state(d)
				if !ok {
					continue
				}
				dst := filepath.Join(tmp, side, filepath.FromSlash(f.path))
				if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
					return nil, nil, err
				}
				if err := os.WriteFile(dst, c, 0o644); err != nil {
					return nil, nil, err
				}
			}
		}
		for _, side := range []string{"a", "b"} {
			if err := os.MkdirAll(filepath.Join(tmp, side), 0o755); err != nil {
				return nil, nil, err
			}
		}
		cmd := exec.Command("git", "-c", "core.quotepath=off", "diff", "--no-index", "--no-color", "--no-prefix", "--diff-algorithm=histogram", "a", "b")
		cmd.Dir = tmp
		diff, err := cmd.Output()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
			return nil, nil, fmt.Errorf("git diff: %w", err)
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "toolscript patch %d, as internal/yaegi/README.md describes it (generated by\ninternal/yaegi/patches/apply.sh --export; do not edit):\n\n%s\n\n", p.num, p.text)
		b.Write(diff)
		out[fmt.Sprintf("%04d-patch-%d.patch", i+1, p.num)] = b.Bytes()
	}
	return out, nil, nil
}

// forkSeries renders the series of the fork as it is now.
func forkSeries(root string) (map[string][]byte, string, error) {
	version, err := baseVersion(root)
	if err != nil {
		return nil, "", err
	}
	updir, err := download(version)
	if err != nil {
		return nil, "", err
	}
	base, err := upstreamSources(updir)
	if err != nil {
		return nil, "", err
	}
	fork, err := forkSources(root)
	if err != nil {
		return nil, "", err
	}
	order, err := readmeOrder(root)
	if err != nil {
		return nil, "", err
	}
	rendered, problems, err := renderSeries(base, fork, order)
	if err != nil {
		return nil, "", err
	}
	if len(problems) > 0 {
		return nil, "", fmt.Errorf("the fork's difference from upstream %s cannot be split into its patches:\n  %s", version, strings.Join(problems, "\n  "))
	}
	return rendered, updir, nil
}

func exportSeries(root string) error {
	rendered, _, err := forkSeries(root)
	if err != nil {
		return err
	}
	dir := filepath.Join(root, filepath.FromSlash(patchesDir))
	old, _ := filepath.Glob(filepath.Join(dir, "*.patch"))
	for _, f := range old {
		if _, keep := rendered[filepath.Base(f)]; !keep {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
	}
	for _, name := range sortedKeys(rendered) {
		if err := os.WriteFile(filepath.Join(dir, name), rendered[name], 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %d patches to %s\n", len(rendered), patchesDir)
	return checkSeries(root)
}

// checkSeries checks that the series on disk is the fork's (every hunk
// marked, nothing changed since the last export) and that applying it
// onto the base reproduces the fork's sources byte for byte.
func checkSeries(root string) error {
	rendered, updir, err := forkSeries(root)
	if err != nil {
		return err
	}
	dir := filepath.Join(root, filepath.FromSlash(patchesDir))
	onDisk, _ := filepath.Glob(filepath.Join(dir, "*.patch"))
	var stale []string
	for _, f := range onDisk {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if want, ok := rendered[filepath.Base(f)]; !ok || !bytes.Equal(b, want) {
			stale = append(stale, filepath.Base(f))
		}
	}
	for name := range rendered {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			stale = append(stale, name+" (missing)")
		}
	}
	sort.Strings(stale)
	tmp, err := os.MkdirTemp("", "yaegi-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := applySeries(updir, tmp, onDisk, false); err != nil {
		return err
	}
	fork, err := forkSources(root)
	if err != nil {
		return err
	}
	got, err := readSources(map[string]string{"interp": filepath.Join(tmp, "interp"), "unsafe2": filepath.Join(tmp, "unsafe2")})
	if err != nil {
		return err
	}
	var differ []string
	for _, p := range fork.paths() {
		if !bytes.Equal(got[p], fork[p]) {
			differ = append(differ, p)
		}
	}
	for _, p := range got.paths() {
		if _, ok := fork[p]; !ok {
			differ = append(differ, p+" (not in the fork)")
		}
	}
	if len(stale) > 0 || len(differ) > 0 {
		return fmt.Errorf("the series in %s is not the fork's: stale %v; applied onto the base it differs from the fork in %v (run bash internal/yaegi/patches/apply.sh --export)", patchesDir, stale, differ)
	}
	fmt.Printf("%d patches, every hunk marked; applied onto the base they reproduce the fork's %d sources byte for byte\n", len(onDisk), len(fork))
	return nil
}

// applySeries writes upstream's sources (import path rewritten) from
// updir into dst and applies the patch files in order with git apply.
func applySeries(updir, dst string, patches []string, reject bool) error {
	base, err := upstreamSources(updir)
	if err != nil {
		return err
	}
	for p, b := range base {
		f := filepath.Join(dst, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(f, b, 0o644); err != nil {
			return err
		}
	}
	sort.Strings(patches)
	failed := 0
	for _, p := range patches {
		args := []string{"apply", "--whitespace=nowarn"}
		if reject {
			args = append(args, "--reject")
		}
		cmd := exec.Command("git", append(args, p)...)
		cmd.Dir = dst
		// Outside any repository, git apply patches the work tree as
		// patch(1) does.
		cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(dst), "GIT_DIR="+filepath.Join(dst, ".no-git"))
		if out, err := cmd.CombinedOutput(); err != nil {
			if !reject {
				return fmt.Errorf("%s does not apply (%v):\n%s", filepath.Base(p), err, out)
			}
			failed++
			fmt.Printf("%s: rejected hunks (*.rej):\n%s", filepath.Base(p), out)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%d patches left rejected hunks in %s", failed, dst)
	}
	return nil
}

// applyOnto applies the series onto another upstream version.
func applyOnto(root, version, out string, reject bool) error {
	updir, err := download(version)
	if err != nil {
		return err
	}
	if out == "" {
		if out, err = os.MkdirTemp("", "yaegi-"+version+"-"); err != nil {
			return err
		}
	} else if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", out)
	}
	patches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(patchesDir), "*.patch"))
	if len(patches) == 0 {
		return errors.New("no patches in " + patchesDir)
	}
	err = applySeries(updir, out, patches, reject)
	fmt.Printf("upstream %s@%s with %d patches in %s (interp/, unsafe2/)\n", upstreamModule, version, len(patches), out)
	if err != nil {
		return err
	}
	fmt.Println("next: copy them over internal/yaegi, set the version in internal/yaegi/README.md, run the tests, apply.sh --export, check.sh -baseline")
	return nil
}
