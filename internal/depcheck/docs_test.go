package depcheck

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// outsideRefs are references to documents a user of the repository does
// not have: the project's internal design notes and its issue tracker.
var outsideRefs = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bthe seeds?\b|\bseeds/`),
	regexp.MustCompile(`\b(SPEC|YAEGI|STYLE|DEVELOPERS)\.md\b`),
	regexp.MustCompile(`\.\./(shared|\.library)\b`),
	regexp.MustCompile(`(?i)(^|[^#\w])issue [0-9]+\b`),
}

// repoFiles lists the repository's tracked files with one of the
// extensions, relative to its root, and the root.
func repoFiles(t *testing.T, exts ...string) (string, []string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	cmd := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard")
	cmd.Dir = root
	out, err := cmd.Output()
	require.NoError(t, err, "git ls-files")
	var files []string
	for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		for _, e := range exts {
			if strings.HasSuffix(f, e) {
				if _, err := os.Stat(filepath.Join(root, f)); err == nil {
					files = append(files, f)
				}
			}
		}
	}
	require.NotEmpty(t, files)
	return root, files
}

// TestDocs_NoOutsideReferences fails when a Go or Markdown file of the
// repository points its reader at a document outside it, or when a
// Markdown link leads to a file that does not exist.
func TestDocs_NoOutsideReferences(t *testing.T) {
	root, files := repoFiles(t, ".go", ".md")
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	code := regexp.MustCompile("`[^`]*`")
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		require.NoError(t, err)
		for i, line := range strings.Split(string(data), "\n") {
			for _, re := range outsideRefs {
				if m := re.FindString(line); m != "" {
					t.Errorf("%s:%d: reference outside the repository (%q): %s", f, i+1, strings.TrimSpace(m), strings.TrimSpace(line))
				}
			}
			if !strings.HasSuffix(f, ".md") {
				continue
			}
			for _, m := range link.FindAllStringSubmatch(code.ReplaceAllString(line, ""), -1) {
				target, _, _ := strings.Cut(m[1], "#")
				if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				p := path.Join(path.Dir(f), target)
				if strings.HasPrefix(p, "../") {
					t.Errorf("%s:%d: link %q leaves the repository", f, i+1, m[1])
					continue
				}
				if _, err := os.Stat(filepath.Join(root, p)); err != nil {
					t.Errorf("%s:%d: link %q: no such file", f, i+1, m[1])
				}
			}
		}
	}
}

// TestDocs_OutsideReferencePatterns keeps the patterns honest: each one
// catches what it is for and lets ordinary text through.
func TestDocs_OutsideReferencePatterns(t *testing.T) {
	// The cases are assembled from parts so that this file, which the
	// scan skips anyway, holds no such reference itself: a notes folder,
	// a design document, a path out of the repository, a tracker number.
	notes, doc, up, tracker := "seed"+"s", "SP"+"EC.md", ".."+"/shared", "iss"+"ue"
	caught := []string{"see the " + notes, notes + "/executor.md", "as " + doc + " says", up + "/notes", "fixed in " + tracker + " 9", "I" + tracker[1:] + " 12's plan"}
	for _, s := range caught {
		hit := false
		for _, re := range outsideRefs {
			hit = hit || re.MatchString(s)
		}
		require.True(t, hit, "must be caught: %q", s)
	}
	passed := []string{"rand.Seed has no effect", "a fixed seed", "yaegi issue #1686", "the issue of sizes", "SeedSequence"}
	for _, s := range passed {
		for _, re := range outsideRefs {
			require.False(t, re.MatchString(s), "must pass: %q (%s)", s, re)
		}
	}
}

// TestReadme_SnippetsFromExamples checks that every README snippet marked
// `<!-- snippet: FILE NAME -->` is the code of FILE between the markers
// "README:start NAME" and "README:end NAME", so README's code compiles and
// runs (the examples' tests run it).
func TestReadme_SnippetsFromExamples(t *testing.T) {
	root, _ := repoFiles(t, ".md")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	marker := regexp.MustCompile("(?s)<!-- snippet: (\\S+) (\\S+) -->\\s*```go\n(.*?)```")
	matches := marker.FindAllStringSubmatch(string(readme), -1)
	require.NotEmpty(t, matches, "README has no snippets taken from examples/")
	for _, m := range matches {
		file, name, block := m[1], m[2], m[3]
		src, err := os.ReadFile(filepath.Join(root, file))
		require.NoError(t, err, "snippet %s of %s", name, file)
		start := "// README:start " + name + "\n"
		end := "// README:end " + name + "\n"
		_, rest, ok := strings.Cut(string(src), start)
		require.True(t, ok, "%s has no %q", file, start)
		body, _, ok := strings.Cut(rest, end)
		require.True(t, ok, "%s has no %q", file, end)
		require.Equal(t, dedent(body), block, "README's snippet %s differs from %s", name, file)
	}
}

// dedent removes the indentation every non-empty line of s shares, and
// trailing blank lines.
func dedent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n\t "), "\n")
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, "\t "))]
		if first || !strings.HasPrefix(ind, prefix) {
			if first {
				prefix = ind
			} else {
				for !strings.HasPrefix(ind, prefix) {
					prefix = prefix[:len(prefix)-1]
				}
			}
			first = false
		}
	}
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, prefix)
	}
	return strings.Join(lines, "\n") + "\n"
}
