package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// baselineFile lists the failures the check accepts: upstream's own at the
// base ("upstream NAME") and the fork's, each with its reason ("fork NAME
// reason").
const baselineFile = "internal/yaegi/upstream/baseline.txt"

func cmdUpstream(args []string) error {
	fl := flag.NewFlagSet("upstream", flag.ExitOnError)
	short := fl.Bool("short", false, "pass -short to go test (skips TestInterpConsistencyBuild, which builds every _test program natively)")
	baseline := fl.Bool("baseline", false, "also run upstream's tests on upstream itself and rewrite the upstream list of "+baselineFile)
	run := fl.String("run", "", "pass -run to go test")
	keep := fl.Bool("keep", false, "keep the temporary trees and print where they are")
	nocache := fl.Bool("nocache", false, "build and run the _test programs natively even when their output is cached")
	_ = fl.Parse(args)
	if *baseline && (*short || *run != "") {
		return errors.New("-baseline needs the whole suite (no -short, no -run)")
	}
	start := time.Now()
	root, err := repoRoot()
	if err != nil {
		return err
	}
	version, err := baseVersion(root)
	if err != nil {
		return err
	}
	updir, err := download(version)
	if err != nil {
		return err
	}
	bl, err := readBaseline(filepath.Join(root, baselineFile))
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "yaegi-upstream-")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Println("trees under", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	r := &suiteRunner{tmp: tmp, updir: updir, short: *short, run: *run, nocache: *nocache}
	if err := r.setup(); err != nil {
		return err
	}
	fmt.Printf("upstream %s@%s, %s\n", upstreamModule, version, runtime.Version())

	if *baseline {
		tree, err := r.tree("upstream", nil)
		if err != nil {
			return err
		}
		up, err := r.goTest(tree)
		if err != nil {
			return fmt.Errorf("upstream as is: %w", err)
		}
		fmt.Printf("upstream as is: %d failures (%s)\n", len(up.failed), time.Since(start).Round(time.Second))
		bl.upstream = map[string]bool{}
		for _, name := range up.failed {
			bl.upstream[name] = true
		}
		bl.goVersion = runtime.Version()
		bl.version = version
		if err := bl.write(filepath.Join(root, baselineFile)); err != nil {
			return err
		}
		fmt.Println("wrote", baselineFile)
	}
	if bl.version != version {
		return fmt.Errorf("%s was recorded at upstream %s, the base is %s: rerun with -baseline", baselineFile, bl.version, version)
	}
	if bl.goVersion != runtime.Version() {
		fmt.Printf("note: %s was recorded with %s, this is %s (rerun with -baseline if upstream's own failures differ)\n", baselineFile, bl.goVersion, runtime.Version())
	}

	src, err := forkSources(root)
	if err != nil {
		return err
	}
	tree, err := r.tree("fork", src)
	if err != nil {
		return err
	}
	res, err := r.goTest(tree)
	if err != nil {
		return fmt.Errorf("fork: %w", err)
	}

	var fresh, accepted, upstreamToo []string
	for _, name := range res.failed {
		switch {
		case bl.upstream[name]:
			upstreamToo = append(upstreamToo, name)
		case bl.fork[name] != "":
			accepted = append(accepted, name)
		default:
			fresh = append(fresh, name)
		}
	}
	var fixed, stale []string
	for name := range bl.upstream {
		if res.passed[name] {
			fixed = append(fixed, name)
		}
	}
	for name := range bl.fork {
		if res.passed[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(fixed)
	sort.Strings(stale)
	fmt.Printf("fork: %d tests passed, %d failed: %d also failing upstream at the base (of %d listed), %d accepted fork failures (of %d listed), %d new\n",
		len(res.passed), len(res.failed), len(upstreamToo), len(bl.upstream), len(accepted), len(bl.fork), len(fresh))
	for _, name := range accepted {
		fmt.Printf("  accepted: %s: %s\n", name, bl.fork[name])
	}
	for _, name := range fixed {
		fmt.Printf("  passes in the fork, fails upstream: %s\n", name)
	}
	for _, name := range stale {
		fmt.Printf("  listed as a fork failure but passed (remove it from %s): %s\n", baselineFile, name)
	}
	for _, name := range fresh {
		fmt.Printf("NEW FAILURE %s\n%s", name, indent(res.output[name]))
	}
	fmt.Printf("took %s\n", time.Since(start).Round(time.Second))
	if len(fresh) > 0 {
		return fmt.Errorf("%d new failures against upstream (fix them, or list them in %s as fork failures with the reason)", len(fresh), baselineFile)
	}
	return nil
}

func indent(s string) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 40 {
		lines = append(lines[:40], fmt.Sprintf("... (%d more lines)", len(lines)-40))
	}
	for _, l := range lines {
		b.WriteString("    " + l + "\n")
	}
	return b.String()
}

// suiteRunner builds the trees the suite runs in and runs it.
type suiteRunner struct {
	tmp, updir     string
	short, nocache bool
	run            string
	bin            string // the go wrapper's directory
	nativeKey      string
	realGo         string
}

// setup writes the go wrapper that serves the native builds of
// TestInterpConsistencyBuild from a cache: the native output of a _test
// program depends only on upstream's _test tree and on the Go toolchain,
// not on the interpreter under test, and building some 600 programs is
// most of the suite's time.
func (r *suiteRunner) setup() error {
	var err error
	if r.realGo, err = exec.LookPath("go"); err != nil {
		return err
	}
	if r.nocache {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	h := sha256.New()
	fmt.Fprintln(h, "native-build v2", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if err := hashTree(h, filepath.Join(r.updir, "_test")); err != nil {
		return err
	}
	r.nativeKey = hex.EncodeToString(h.Sum(nil))[:24]
	r.bin = filepath.Join(r.tmp, "bin")
	if err := os.MkdirAll(r.bin, 0o755); err != nil {
		return err
	}
	script := fmt.Sprintf("#!/bin/sh\nif [ $# -eq 5 ] && [ \"$1\" = build ] && [ \"$2\" = -tags=dummy ] && [ \"$3\" = -o ]; then exec %q native-build \"$4\" \"$5\"; fi\nexec %q \"$@\"\n", self, r.realGo)
	return os.WriteFile(filepath.Join(r.bin, "go"), []byte(script), 0o755)
}

func hashTree(w io.Writer, dir string) error {
	return filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(w, "%s %d\n", rel, len(b))
		_, err = w.Write(b)
		return err
	})
}

// tree lays out upstream's module as $GOPATH/src/github.com/traefik/yaegi
// (the layout its tests expect), with src in place of upstream's interp
// and internal/unsafe2 sources when src is not nil. It returns the GOPATH,
// the same for upstream and the fork (a program's output may name it).
func (r *suiteRunner) tree(name string, src sourceSet) (string, error) {
	gopath := filepath.Join(r.tmp, "gopath")
	if err := os.RemoveAll(gopath); err != nil {
		return "", err
	}
	mod := filepath.Join(gopath, "src", filepath.FromSlash(upstreamModule))
	if err := copyTree(r.updir, mod); err != nil {
		return "", err
	}
	if src == nil {
		return gopath, nil
	}
	for _, dir := range []string{"interp", filepath.Join("internal", "unsafe2")} {
		entries, err := os.ReadDir(filepath.Join(mod, dir))
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			if !e.IsDir() && isSource(e.Name()) {
				if err := os.Remove(filepath.Join(mod, dir, e.Name())); err != nil {
					return "", err
				}
			}
		}
	}
	for p, b := range src {
		dst := filepath.Join(mod, filepath.FromSlash(p))
		if strings.HasPrefix(p, "unsafe2/") {
			dst = filepath.Join(mod, "internal", filepath.FromSlash(p))
		}
		b = bytes.ReplaceAll(b, []byte(forkUnsafe2), []byte(upstreamUnsafe2))
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			return "", err
		}
	}
	return gopath, nil
}

// suiteResult holds the leaf tests (no failing subtest) that failed, the
// tests that passed, and each failure's output.
type suiteResult struct {
	failed []string
	passed map[string]bool
	output map[string]string
}

func (r *suiteRunner) goTest(gopath string) (*suiteResult, error) {
	mod := filepath.Join(gopath, "src", filepath.FromSlash(upstreamModule))
	// The test binary is built by go test -c and run here, not by go
	// test, which puts GOROOT/bin first in the binary's PATH, before the
	// go wrapper.
	testBin := filepath.Join(gopath, "interp.test")
	args := []string{"tool", "test2json", "-t", "-p", upstreamModule + "/interp", testBin, "-test.v=test2json", "-test.paniconexit0", "-test.count=1", "-test.timeout=60m"}
	if r.short {
		args = append(args, "-test.short")
	}
	if r.run != "" {
		args = append(args, "-test.run", r.run)
	}
	cmd := exec.Command(r.realGo, args...)
	cmd.Dir = filepath.Join(mod, "interp")
	cacheRoot, err := os.UserCacheDir()
	if err != nil {
		cacheRoot = os.TempDir()
	}
	env := []string{"GOPATH=" + gopath, "GOMODCACHE=" + goEnv("GOMODCACHE"), "GOFLAGS=-mod=mod", "GOWORK=off",
		"FORKTOOL_NATIVE_CACHE=" + filepath.Join(cacheRoot, "toolscript-yaegi-native", r.nativeKey), "FORKTOOL_REAL_GO=" + r.realGo, "FORKTOOL_TREE=" + mod}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "GOPATH" || k == "GOMODCACHE" || k == "GOFLAGS" || k == "GOWORK" || strings.HasPrefix(k, "YAEGI_"):
		case k == "PATH" && r.bin != "":
			env = append(env, "PATH="+r.bin+string(os.PathListSeparator)+strings.TrimPrefix(kv, "PATH="))
		default:
			env = append(env, kv)
		}
	}
	cmd.Env = env
	build := exec.Command(r.realGo, "test", "-c", "-o", testBin, "./interp/")
	build.Dir, build.Env = mod, env
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go test -c: %v\n%s", err, out)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	res := &suiteResult{passed: map[string]bool{}, output: map[string]string{}}
	state := map[string]string{}
	outs := map[string]*strings.Builder{}
	var pkgOut strings.Builder
	pkgFailed := false
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			pkgOut.WriteString(sc.Text() + "\n")
			continue
		}
		if ev.Test == "" {
			switch ev.Action {
			case "output", "build-output":
				pkgOut.WriteString(ev.Output)
			case "fail":
				pkgFailed = true
			}
			continue
		}
		switch ev.Action {
		case "run":
			state[ev.Test] = "run"
			outs[ev.Test] = &strings.Builder{}
		case "output":
			if b := outs[ev.Test]; b != nil && b.Len() < 64<<10 {
				b.WriteString(ev.Output)
			}
		case "pass", "fail", "skip":
			state[ev.Test] = ev.Action
		}
	}
	werr := cmd.Wait()
	if len(state) == 0 {
		return nil, fmt.Errorf("no test ran (%v):\n%s%s", werr, stderr.String(), pkgOut.String())
	}
	failed := map[string]bool{}
	for name, s := range state {
		switch s {
		case "pass":
			res.passed[name] = true
		case "fail", "run":
			// A test still running when the binary ended crashed it.
			failed[name] = true
		}
	}
	for name := range failed {
		leaf := true
		for other := range failed {
			if strings.HasPrefix(other, name+"/") {
				leaf = false
				break
			}
		}
		if leaf {
			res.failed = append(res.failed, name)
			o := outs[name].String()
			if state[name] == "run" {
				o += "(the test binary ended while this test ran)\n" + lastLines(pkgOut.String(), 30)
			}
			res.output[name] = o
		}
	}
	sort.Strings(res.failed)
	if werr != nil && !pkgFailed && len(res.failed) == 0 {
		return nil, fmt.Errorf("go test: %v\n%s", werr, stderr.String())
	}
	return res, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n") + "\n"
}

func goEnv(key string) string {
	out, err := exec.Command("go", "env", key).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// cmdNativeBuild stands in for "go build -tags=dummy -o bin file" in
// TestInterpConsistencyBuild: it builds and runs the program once, keeps
// its combined output and exit code, and writes bin as a script that
// replays them. A build that fails is passed through, never cached.
func cmdNativeBuild(args []string) error {
	if len(args) != 2 {
		return errors.New("native-build bin file")
	}
	bin, file := args[0], args[1]
	realGo, dir, tree := os.Getenv("FORKTOOL_REAL_GO"), os.Getenv("FORKTOOL_NATIVE_CACHE"), os.Getenv("FORKTOOL_TREE")
	if realGo == "" || dir == "" || tree == "" {
		return errors.New("native-build runs under forktool upstream only")
	}
	base := filepath.Join(dir, filepath.Base(file))
	out, errOut := os.ReadFile(base + ".out")
	code, errCode := os.ReadFile(base + ".code")
	if errOut != nil || errCode != nil {
		build := exec.Command(realGo, "build", "-tags=dummy", "-o", bin+".native", file)
		if b, err := build.CombinedOutput(); err != nil {
			os.Stdout.Write(b)
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				os.Exit(ee.ExitCode())
			}
			return err
		}
		run := exec.Command(bin + ".native")
		var err error
		out, err = run.CombinedOutput()
		exit := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			exit = ee.ExitCode()
		} else if err != nil {
			return err
		}
		_ = os.Remove(bin + ".native")
		code = []byte(fmt.Sprint(exit))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		// The tree's path differs between runs: the cache keeps a
		// placeholder.
		if err := os.WriteFile(base+".out", bytes.ReplaceAll(out, []byte(tree), []byte(treeMark)), 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(base+".code", code, 0o644); err != nil {
			return err
		}
	} else {
		out = bytes.ReplaceAll(out, []byte(treeMark), []byte(tree))
	}
	if err := os.WriteFile(bin+".out", out, 0o644); err != nil {
		return err
	}
	script := fmt.Sprintf("#!/bin/sh\ncat %q\nexit %s\n", bin+".out", strings.TrimSpace(string(code)))
	return os.WriteFile(bin, []byte(script), 0o755)
}

// treeMark stands for the tree's path in cached outputs.
const treeMark = "\x00FORKTOOL_TREE\x00"

// baseline is the content of baselineFile.
type baseline struct {
	version, goVersion string
	upstream           map[string]bool
	fork               map[string]string // test -> reason
	header             []string
}

func readBaseline(path string) (*baseline, error) {
	bl := &baseline{upstream: map[string]bool{}, fork: map[string]string{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return bl, nil
	}
	if err != nil {
		return nil, err
	}
	inHeader := true
	for i, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		fields := strings.Fields(line)
		switch {
		case line == "":
			inHeader = false
		case strings.HasPrefix(line, "#"):
			if len(fields) >= 3 && fields[1] == "base:" {
				bl.version = fields[2]
			} else if len(fields) >= 3 && fields[1] == "go:" {
				bl.goVersion = fields[2]
			} else if inHeader {
				bl.header = append(bl.header, line)
			}
		case fields[0] == "upstream" && len(fields) == 2:
			bl.upstream[fields[1]] = true
		case fields[0] == "fork" && len(fields) >= 3:
			bl.fork[fields[1]] = strings.Join(fields[2:], " ")
		default:
			return nil, fmt.Errorf("%s:%d: want \"upstream TEST\" or \"fork TEST reason\"", path, i+1)
		}
	}
	return bl, nil
}

func (bl *baseline) write(path string) error {
	var b strings.Builder
	for _, h := range bl.header {
		b.WriteString(h + "\n")
	}
	fmt.Fprintf(&b, "# base: %s\n# go: %s\n\n# Upstream's own failures at the base (written by -baseline).\n", bl.version, bl.goVersion)
	for _, name := range sortedKeys(bl.upstream) {
		b.WriteString("upstream " + name + "\n")
	}
	b.WriteString("\n# The fork's accepted failures, each with its reason (written by hand).\n")
	for _, name := range sortedKeys(bl.fork) {
		b.WriteString("fork " + name + " " + bl.fork[name] + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
