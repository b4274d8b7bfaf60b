package scripts_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"hash/crc32"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/demo"
	"github.com/toolscript/toolscript/engine"
	"github.com/toolscript/toolscript/scripts"
)

// stateProbe prints, from a script, the package state the state_ and
// files_ scripts of the adversarial corpus try to change; hostState
// computes the same text natively.
const stateProbe = `fmt.Println(time.Local.String(), time.UTC.String(), time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC).In(time.Local).Format(time.RFC3339), time.Now().UTC().Location() == time.UTC,
	unicode.Upper.R16[0], unicode.Upper.LatinOffset, len(unicode.Categories), len(unicode.Scripts), unicode.Categories["Lu"] == unicode.Upper, unicode.Digit.R16[0], unicode.Lower.R16[0],
	unicode.CaseRanges[0].Lo, unicode.TurkishCase[0].Lo, base64.StdEncoding.EncodeToString([]byte{0xfb, 0xff}), (*crc32.IEEETable)[1], (*crc32.IEEETable)[2])`

func hostState() string {
	return fmt.Sprintln(time.Local.String(), time.UTC.String(), time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC).In(time.Local).Format(time.RFC3339), time.Now().UTC().Location() == time.UTC,
		unicode.Upper.R16[0], unicode.Upper.LatinOffset, len(unicode.Categories), len(unicode.Scripts), unicode.Categories["Lu"] == unicode.Upper, unicode.Digit.R16[0], unicode.Lower.R16[0],
		unicode.CaseRanges[0].Lo, unicode.TurkishCase[0].Lo, base64.StdEncoding.EncodeToString([]byte{0xfb, 0xff}), crc32.IEEETable[1], crc32.IEEETable[2])
}

// stateScripts are the corpus scripts that attack package state or reach
// for the host's files.
func stateScripts(t *testing.T) []scripts.Script {
	all, err := scripts.Adversarial()
	require.NoError(t, err)
	var out []scripts.Script
	for _, s := range all {
		if strings.HasPrefix(s.Name, "state_") || strings.HasPrefix(s.Name, "files_") {
			out = append(out, s)
		}
	}
	require.GreaterOrEqual(t, len(out), 8)
	return out
}

// TestAdversarial_PackageStateInProcess runs each state_ and files_
// script in process, then checks that the host's package state is the
// original and that the next execution sees the original too.
func TestAdversarial_PackageStateInProcess(t *testing.T) {
	want := hostState()
	e := engine.New(engine.Config{})
	probe, err := e.Execute(context.Background(), stateProbe, nil)
	require.NoError(t, err)
	require.Equal(t, want, probe.Stdout, probe.Error)
	for _, s := range stateScripts(t) {
		t.Run(s.Name, func(t *testing.T) {
			_, err := e.Execute(context.Background(), s.Code, demo.Namespace())
			require.NoError(t, err)
			assert.Equal(t, want, hostState(), "the host's package state changed")
			next, err := e.Execute(context.Background(), stateProbe, nil)
			require.NoError(t, err)
			assert.Equal(t, want, next.Stdout, next.Error)
		})
	}
}

// TestAdversarial_PackageStateIsolated runs each state_ and files_ script
// on a one-worker isolated runtime, then the probe on the same worker (or
// its replacement, had it been retired): it sees what a fresh worker sees.
func TestAdversarial_PackageStateIsolated(t *testing.T) {
	iso, err := engine.NewIsolated(engine.IsolatedConfig{Workers: 1, OS: engine.WorkerLimits{MemoryBytes: 4 << 30}})
	require.NoError(t, err)
	defer func() { require.NoError(t, iso.Close()) }()
	base, err := iso.Execute(context.Background(), stateProbe, nil)
	require.NoError(t, err)
	require.Equal(t, engine.CodeOK, base.ReturnCode, base.Error)
	for _, s := range stateScripts(t) {
		t.Run(s.Name, func(t *testing.T) {
			_, err := iso.Execute(context.Background(), s.Code, demo.Namespace())
			require.NoError(t, err)
			next, err := iso.Execute(context.Background(), stateProbe, nil)
			require.NoError(t, err)
			assert.Equal(t, base.Stdout, next.Stdout, next.Error)
		})
	}
}
