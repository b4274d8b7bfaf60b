package depcheck

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// allowed are the modules the library and the command may import, with
// the reason.
var allowed = map[string]string{
	"github.com/toolscript/toolscript": "this module",
	"golang.org/x/sync":                "semaphore and errgroup",
	// The official MCP Go SDK (package mcp) and what it brings.
	"github.com/modelcontextprotocol/go-sdk": "the official MCP Go SDK: MCP clients and servers (package mcp)",
	"github.com/google/jsonschema-go":        "the JSON Schema package of the MCP SDK",
	"github.com/segmentio/encoding":          "the MCP SDK's JSON codec",
	"github.com/segmentio/asm":               "the MCP SDK's JSON codec (segmentio/encoding)",
	"github.com/yosida95/uritemplate/v3":     "the MCP SDK's resource templates",
	"golang.org/x/oauth2":                    "the MCP SDK's HTTP authorization",
	"golang.org/x/time":                      "the MCP SDK's rate limits",
	"golang.org/x/sys":                       "CPU feature detection of the MCP SDK's JSON codec (segmentio/asm); the bench runner's terminal too",
	// NATS: package remote's transport (executions on a fleet of
	// workers) and the embedded server of toolscript fleet. TestLayers
	// keeps them out of every other library package.
	"github.com/nats-io/nats.go":                "the NATS client: package remote's transport",
	"github.com/nats-io/nkeys":                  "NATS nkey authentication (the client's and the server's)",
	"github.com/nats-io/nuid":                   "NATS unique ids: execution ids of package remote",
	"github.com/klauspost/compress":             "the NATS client's and server's compression",
	"golang.org/x/crypto":                       "nkeys' and the NATS server's cryptography",
	"github.com/nats-io/nats-server/v2":         "the embedded NATS server of toolscript fleet (and of package remote's tests)",
	"github.com/nats-io/jwt/v2":                 "the NATS server's account JWTs",
	"github.com/minio/highwayhash":              "the NATS server's hashing",
	"github.com/antithesishq/antithesis-sdk-go": "the NATS server's test assertions (a no-op build)",
	"github.com/google/go-tpm":                  "the NATS server's TPM key store",
}

// benchOnly are the modules only the benchmark runner (bench/...) may
// import: statistics, plots, the progress bar and what they bring.
// TestBenchOnly keeps them out of every other package.
var benchOnly = map[string]string{
	"golang.org/x/perf":                 "bench runner only",
	"github.com/aclements/go-moremath":  "bench runner only",
	"gonum.org/v1/plot":                 "bench runner only",
	"codeberg.org/go-fonts/liberation":  "bench runner only",
	"codeberg.org/go-latex/latex":       "bench runner only",
	"codeberg.org/go-pdf/fpdf":          "bench runner only",
	"git.sr.ht/~sbinet/gg":              "bench runner only",
	"github.com/ajstarks/svgo":          "bench runner only",
	"github.com/golang/freetype":        "bench runner only",
	"golang.org/x/image":                "bench runner only",
	"golang.org/x/text":                 "bench runner only",
	"github.com/schollz/progressbar/v3": "bench runner only",
	"github.com/mitchellh/colorstring":  "bench runner only",
	"github.com/rivo/uniseg":            "bench runner only",
	"golang.org/x/term":                 "bench runner only",
}

// cliOnly are the modules only the command (cmd/toolscript) may import:
// the REPL's line editor and what it brings, and the pseudo-terminal of
// the command's tests. TestCLIOnly keeps them out of every other package.
var cliOnly = map[string]string{
	"github.com/peterh/liner":          "CLI only: the REPL's line editing and history",
	"github.com/mattn/go-runewidth":    "CLI only: the line editor's character widths",
	"github.com/clipperhouse/uax29/v2": "CLI only: the line editor's character widths (go-runewidth)",
	"github.com/creack/pty":            "CLI only: the REPL's tests run it in a pseudo-terminal",
}

// TestDependencies fails when a package of the module (tests excluded)
// depends on a module outside the allowlist.
func TestDependencies(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed for this test: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", "-f", "{{if .Module}}{{.Module.Path}}{{end}}", "github.com/toolscript/toolscript/...").CombinedOutput()
	require.NoError(t, err, string(out))
	seen := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		seen[m] = true
	}
	var bad []string
	for m := range seen {
		if _, ok := allowed[m]; !ok && benchOnly[m] == "" && cliOnly[m] == "" {
			bad = append(bad, m)
		}
	}
	sort.Strings(bad)
	require.Empty(t, bad, "unlisted module dependencies; add them to allowed with a reason, or drop them")
	require.True(t, seen["golang.org/x/sync"], "the check must see the module's real dependencies")
}

// TestBenchOnly fails when a package outside bench/ (the library, its
// internal packages, demo, cmd/toolscript) depends on a module of
// benchOnly: the benchmark runner's dependencies never reach a program
// that embeds toolscript.
func TestBenchOnly(t *testing.T) {
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	const mod = "github.com/toolscript/toolscript"
	out, err := exec.Command(goBin, "list", mod+"/...").CombinedOutput()
	require.NoError(t, err, string(out))
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if p != mod+"/bench" && !strings.HasPrefix(p, mod+"/bench/") {
			pkgs = append(pkgs, p)
		}
	}
	require.NotEmpty(t, pkgs)
	args := append([]string{"list", "-deps", "-f", "{{.ImportPath}} {{if .Module}}{{.Module.Path}}{{end}}"}, pkgs...)
	out, err = exec.Command(goBin, args...).CombinedOutput()
	require.NoError(t, err, string(out))
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if pkg, m, ok := strings.Cut(line, " "); ok && benchOnly[m] != "" {
			t.Errorf("%s (module %s) is for the bench runner only, but a library package depends on it", pkg, m)
		}
	}
}

// TestCLIOnly fails when a package other than cmd/toolscript depends on
// a module of cliOnly: the REPL's dependencies never reach the library.
func TestCLIOnly(t *testing.T) {
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	const mod = "github.com/toolscript/toolscript"
	out, err := exec.Command(goBin, "list", mod+"/...").CombinedOutput()
	require.NoError(t, err, string(out))
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if p != mod+"/cmd/toolscript" {
			pkgs = append(pkgs, p)
		}
	}
	require.NotEmpty(t, pkgs)
	args := append([]string{"list", "-deps", "-test", "-f", "{{.ImportPath}} {{if .Module}}{{.Module.Path}}{{end}}"}, pkgs...)
	out, err = exec.Command(goBin, args...).CombinedOutput()
	require.NoError(t, err, string(out))
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if pkg, m, ok := strings.Cut(line, " "); ok && cliOnly[m] != "" {
			t.Errorf("%s (module %s) is for cmd/toolscript only, but another package depends on it", pkg, m)
		}
	}
	out, err = exec.Command(goBin, "list", "-deps", "-test", "-f", "{{if .Module}}{{.Module.Path}}{{end}}", mod+"/cmd/toolscript").CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, strings.Fields(string(out)), "github.com/peterh/liner", "the check must see the command's real dependencies")
}

// TestLayers keeps the project's import direction: projection, executor
// and internal/isolated import nothing of the project above them, the
// engine never sees the registry, the registry never sees the engine, and
// the child-process mechanism under executor and internal/isolated
// imports nothing of the project but the wire protocol, and
// internal/policy (what scripts can reach) imports no runtime.
func TestLayers(t *testing.T) {
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	const mod = "github.com/toolscript/toolscript/"
	{
		// The normaliser stands alone: internal/normalize imports
		// nothing of the project (what it must know of its caller comes
		// in normalize.Config), and the engine rewrites no syntax tree
		// (its non-test files import no go/ast, go/parser or go/scanner).
		// Alone too: the generated standard-library symbol tables
		// (internal/policy/stdlib) and their generator
		// (internal/policy/gen), which must run when the tables it
		// replaces do not compile, import nothing of the project.
		for _, alone := range []string{"internal/normalize", "internal/policy/stdlib", "internal/policy/gen"} {
			out, err := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", mod+alone).CombinedOutput()
			require.NoError(t, err, string(out))
			for _, dep := range strings.Fields(string(out)) {
				if strings.HasPrefix(dep, mod) && dep != mod+alone {
					t.Errorf("%s depends on %s", alone, dep)
				}
			}
		}
		out, err := exec.Command(goBin, "list", "-f", `{{join .Imports "\n"}}`, mod+"engine").CombinedOutput()
		require.NoError(t, err, string(out))
		for _, imp := range strings.Fields(string(out)) {
			if imp == "go/ast" || imp == "go/parser" || imp == "go/scanner" {
				t.Errorf("engine imports %s: rewriting the script's source is internal/normalize's job", imp)
			}
		}
	}
	forbidden := map[string][]string{
		"projection":        {"engine", "registry", "executor", "internal/isolated", "demo", "scripts", "cmd"},
		"executor":          {"engine", "registry", "projection", "internal/isolated", "demo", "scripts", "cmd"},
		"internal/isolated": {"engine", "registry", "executor", "demo", "scripts", "cmd"},
		"engine":            {"registry", "executor", "demo", "scripts", "cmd", "mcp"},
		"registry":          {"engine", "internal/isolated", "demo", "scripts", "cmd", "mcp"},
		// The MCP tool source feeds a registry: it needs neither runtime.
		"mcp": {"engine", "internal/isolated", "internal/policy", "internal/normalize", "internal/yaegi", "demo", "scripts", "cmd"},
		// What a script can reach is decided below the runtimes that
		// apply it (internal/policy's TestNoInternalTypes keeps the
		// module's internals, this package's included, from scripts).
		"internal/policy": {"engine", "registry", "executor", "internal/isolated", "projection", "demo", "scripts", "cmd"},
		// The one child-process mechanism serves executor and
		// internal/isolated, so it sits below both, on the wire protocol
		// alone.
		"internal/proc": {"projection", "engine", "registry", "executor", "internal/isolated", "demo", "scripts", "cmd", "internal/tagged"},
		// The fleet runtime is built on the engine's public API; it
		// needs no tool catalogue.
		"remote": {"registry", "executor", "demo", "scripts", "cmd", "mcp"},
		// The type-checking pass sees scripts through the policy and the
		// normaliser, and the tool packages through their declarations.
		"internal/typecheck": {"engine", "registry", "executor", "internal/isolated", "projection", "demo", "scripts", "cmd", "mcp"},
		// The differential test's builder serves tests only.
		"internal/difftest": {"registry", "executor", "scripts", "cmd", "mcp"},
	}
	for pkg, bad := range forbidden {
		out, err := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}}", mod+pkg).CombinedOutput()
		require.NoError(t, err, string(out))
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range bad {
				if dep == mod+b || strings.HasPrefix(dep, mod+b+"/") {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
	// NATS is package remote's alone (and the command's, which starts
	// workers and a demo server): the engine, the registry, the other
	// library packages and internal/* never link it, so in-process users
	// do not either.
	out, err := exec.Command(goBin, "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, mod+"...").CombinedOutput()
	require.NoError(t, err, string(out))
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		if pkg == mod+"remote" || pkg == mod+"cmd/toolscript" {
			continue
		}
		for _, dep := range strings.Fields(deps) {
			if strings.HasPrefix(dep, "github.com/nats-io/") {
				t.Errorf("%s depends on %s: NATS belongs to package remote", pkg, dep)
				break
			}
		}
	}
	// The isolated runtime's host side, worker side and protocol are
	// internal/isolated's: the engine itself speaks no protocol.
	out, err = exec.Command(goBin, "list", "-f", `{{join .Imports "\n"}}`, mod+"engine").CombinedOutput()
	require.NoError(t, err, string(out))
	for _, imp := range strings.Fields(string(out)) {
		if imp == mod+"internal/wire" {
			t.Errorf("engine imports %s: the isolated runtime's protocol belongs in internal/isolated", imp)
		}
	}
}

// TestYaegiBase keeps the fork's base one named version: the module
// depends on no github.com/traefik/yaegi (the fork, internal/yaegi, is the
// interpreter; go.mod neither requires nor replaces upstream's module, so
// no second version of it can reach a build), and internal/yaegi/README.md
// names the one upstream version the fork is a copy of, which its tools
// (internal/yaegi/forktool: the patch series, upstream's test suite)
// download by that name.
func TestYaegiBase(t *testing.T) {
	gomod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	require.NoError(t, err)
	require.NotContains(t, string(gomod), "github.com/traefik/yaegi", "go.mod names github.com/traefik/yaegi: the module imports the fork, never upstream")
	gosum, err := os.ReadFile(filepath.Join("..", "..", "go.sum"))
	if err == nil {
		require.NotContains(t, string(gosum), "github.com/traefik/yaegi ", "go.sum names github.com/traefik/yaegi (run go mod tidy)")
	}
	readme, err := os.ReadFile(filepath.Join("..", "yaegi", "README.md"))
	require.NoError(t, err)
	base := regexp.MustCompile("(?s)of\\s+\\[yaegi\\]\\([^)]*\\)\\s+at\\s+`(v[^`]+)`").FindAllSubmatch(readme, -1)
	require.Len(t, base, 1, "internal/yaegi/README.md must name one base version (\"of [yaegi](...) at `vX`\")")
	require.Regexp(t, `^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`, string(base[0][1]), "the base is not a module version")
	baseline, err := os.ReadFile(filepath.Join("..", "yaegi", "upstream", "baseline.txt"))
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^# base: (\S+)$`).FindSubmatch(baseline)
	require.NotNil(t, m, "internal/yaegi/upstream/baseline.txt names no base")
	require.Equal(t, string(base[0][1]), string(m[1]), "internal/yaegi/upstream/baseline.txt was written at another base than internal/yaegi/README.md's")
}
