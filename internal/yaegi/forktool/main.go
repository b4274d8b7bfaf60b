// Command forktool keeps internal/yaegi, toolscript's patched copy of
// yaegi's interpreter, honest against upstream yaegi. It is a development
// tool, run through two scripts:
//
//	bash internal/yaegi/upstream/check.sh [-short] [-baseline] [-run re] [-keep]
//	bash internal/yaegi/patches/apply.sh --check | --export | <version> [-o dir]
//
// The first runs upstream's own interp tests (which run the _test
// programs) against the fork's interp sources and fails on a failure that
// neither upstream itself has at the fork's base nor the fork accepts
// (internal/yaegi/upstream/baseline.txt). The second keeps the fork's
// patches as an ordered series of unified diffs (internal/yaegi/patches),
// checks that the series reproduces the fork byte for byte, regenerates it
// from the fork, or applies it onto another upstream version. Upstream
// sources, at the base internal/yaegi/README.md names (toolscript's module
// does not require upstream yaegi), come from the module cache, or the
// module proxy through go mod download.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

const (
	upstreamModule = "github.com/traefik/yaegi"
	// upstreamUnsafe2 and forkUnsafe2 are the import paths of the helper
	// package in upstream and in the fork: the one mechanical difference
	// the series does not carry (it is rewritten before patches apply).
	upstreamUnsafe2 = `"github.com/traefik/yaegi/internal/unsafe2"`
	forkUnsafe2     = `"github.com/toolscript/toolscript/internal/yaegi/unsafe2"`
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "upstream":
		err = cmdUpstream(os.Args[2:])
	case "patches":
		err = cmdPatches(os.Args[2:])
	case "native-build":
		err = cmdNativeBuild(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "forktool:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: forktool upstream [-short] [-baseline] [-run re] [-keep]\n       forktool patches --check | --export | <version> [-o dir]")
	os.Exit(2)
}

// repoRoot returns the directory of toolscript's go.mod.
func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("run from inside the toolscript module")
	}
	return filepath.Dir(gomod), nil
}

// forkDir is internal/yaegi under the module root.
func forkDir(root string) string { return filepath.Join(root, "internal", "yaegi") }

var baseRe = regexp.MustCompile("(?s)of\\s+\\[yaegi\\]\\([^)]*\\)\\s+at\\s+`(v[^`]+)`")

// baseVersion is the upstream version internal/yaegi/README.md names as
// the fork's base.
func baseVersion(root string) (string, error) {
	readme, err := os.ReadFile(filepath.Join(forkDir(root), "README.md"))
	if err != nil {
		return "", err
	}
	m := baseRe.FindSubmatch(readme)
	if m == nil {
		return "", errors.New("internal/yaegi/README.md names no base version")
	}
	return string(m[1]), nil
}

// download returns the module cache directory of upstream yaegi at
// version, downloading it through the module proxy when needed.
func download(version string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", upstreamModule+"@"+version)
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil {
		if err != nil {
			return "", fmt.Errorf("go mod download %s@%s: %w", upstreamModule, version, err)
		}
		return "", fmt.Errorf("go mod download: %w", jerr)
	}
	if info.Error != "" || info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", upstreamModule, version, info.Error)
	}
	return info.Dir, nil
}

// isSource reports whether name is a Go source the fork takes from
// upstream or carries as its own: not a test, not test data.
func isSource(name string) bool {
	return strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go")
}

// sourceSet maps a fork-relative path ("interp/run.go", "unsafe2/x.go")
// to its content.
type sourceSet map[string][]byte

func (s sourceSet) paths() []string { return sortedKeys(s) }

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// readSources reads the sources of dirs, each mapped to its fork-relative
// name (the fork's unsafe2 is upstream's internal/unsafe2).
func readSources(dirs map[string]string) (sourceSet, error) {
	set := sourceSet{}
	for rel, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() || !isSource(e.Name()) {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, err
			}
			set[rel+"/"+e.Name()] = b
		}
	}
	return set, nil
}

// forkSources are the fork's interp and unsafe2 sources.
func forkSources(root string) (sourceSet, error) {
	d := forkDir(root)
	return readSources(map[string]string{"interp": filepath.Join(d, "interp"), "unsafe2": filepath.Join(d, "unsafe2")})
}

// upstreamSources are upstream's interp and internal/unsafe2 sources with
// the helper's import path rewritten to the fork's: the series' base.
func upstreamSources(dir string) (sourceSet, error) {
	set, err := readSources(map[string]string{"interp": filepath.Join(dir, "interp"), "unsafe2": filepath.Join(dir, "internal", "unsafe2")})
	if err != nil {
		return nil, err
	}
	for p, b := range set {
		set[p] = bytes.ReplaceAll(b, []byte(upstreamUnsafe2), []byte(forkUnsafe2))
	}
	return set, nil
}

// copyTree copies src to dst, leaving every file writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm()|0o200)
	})
}
