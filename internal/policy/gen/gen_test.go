package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSymbols_UpToDate regenerates the symbol tables from the running
// toolchain's standard library and the allowlist, and fails when the
// committed package internal/policy/stdlib differs (a new Go release, a
// changed allowlist, an edited generated file).
func TestSymbols_UpToDate(t *testing.T) {
	paths, err := allowlist(filepath.Join("..", "allowlist.go"))
	require.NoError(t, err)
	want, err := generate(paths)
	require.NoError(t, err)
	committed, err := filepath.Glob(filepath.Join("..", "stdlib", "*.go"))
	require.NoError(t, err)
	var stale []string
	for _, f := range committed {
		if _, ok := want[filepath.Base(f)]; !ok {
			stale = append(stale, filepath.Base(f)+" (not generated)")
		}
	}
	for name, src := range want {
		got, err := os.ReadFile(filepath.Join("..", "stdlib", name))
		switch {
		case os.IsNotExist(err):
			stale = append(stale, name+" (missing)")
		case err != nil:
			t.Fatal(err)
		case !bytes.Equal(got, src):
			stale = append(stale, name+" (differs)")
		}
	}
	sort.Strings(stale)
	require.Empty(t, stale, "internal/policy/stdlib is stale for %s and the allowlist: run go generate ./internal/policy", goRelease())
}

// TestAllowlistParse checks that the generator reads the allowlist's
// literals and refuses a file without one.
func TestAllowlistParse(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "a.go")
	require.NoError(t, os.WriteFile(f, []byte("package p\n\nvar allowlist = []string{\"fmt\", \"encoding/json\"}\n"), 0o644))
	got, err := allowlist(f)
	require.NoError(t, err)
	require.Equal(t, []string{"fmt", "encoding/json"}, got)
	require.NoError(t, os.WriteFile(f, []byte("package p\n\nvar other = []string{\"fmt\"}\n"), 0o644))
	_, err = allowlist(f)
	require.ErrorContains(t, err, "declares no allowlist")
}

// TestGoRelease checks the release name the generated files carry: no
// patch number (patch releases keep the API), no pre-release suffix.
func TestGoRelease(t *testing.T) {
	if strings.HasPrefix(runtime.Version(), "devel") {
		t.Skip("a development toolchain has no release name")
	}
	require.Regexp(t, `^go1\.\d+$`, goRelease())
}
