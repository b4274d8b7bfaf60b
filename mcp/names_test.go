package mcp

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/registry"
)

func TestMethodNames(t *testing.T) {
	long := strings.Repeat("verylongword", 8)
	tests := []struct {
		name     string
		upstream []string
		want     map[string]string
	}{
		{"normalized", []string{"getWeather", "list-files", "read_file"},
			map[string]string{"getWeather": "get_weather", "list-files": "list_files", "read_file": "read_file"}},
		{"clash: the normalized name keeps it, the others get suffixes in byte order",
			[]string{"getUser", "get_user", "get-user"},
			map[string]string{"get_user": "get_user", "get-user": "get_user_2", "getUser": "get_user_3"}},
		{"clash as Go identifiers", []string{"get_v1", "get_v_1"},
			map[string]string{"get_v1": "get_v1", "get_v_1": "get_v_1_2"}},
		{"suffix that would repeat a word", []string{"v_2", "v-2", "V 2"},
			map[string]string{"v_2": "v_2", "V 2": "v_2_3", "v-2": "v_2_4"}},
		{"no ASCII letters (\"_\" is Tool in a script too)", []string{"工具", "@@"}, map[string]string{"工具": "tool_2", "@@": "_"}},
		{"punctuation only, twice", []string{"@@", "--"}, map[string]string{"--": "_", "@@": "_2"}},
		{"too long", []string{long}, map[string]string{long: long[:64-len("srv")-1]}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := methodNames("srv", tt.upstream)
			assert.Equal(t, tt.want, got)
			seen := map[string]bool{}
			for _, m := range got {
				norm, err := registry.NormalizeToolName(m)
				require.NoError(t, err)
				assert.Equal(t, m, norm, "the registry keeps the name")
				assert.LessOrEqual(t, len("srv-"+m), registry.MaxNameLength)
				assert.False(t, seen[goKey(m)], "unique as a Go identifier: %s", m)
				seen[goKey(m)] = true
			}
			// The same list in another order gives the same names.
			rev := append([]string(nil), tt.upstream...)
			for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
				rev[i], rev[j] = rev[j], rev[i]
			}
			assert.Equal(t, got, methodNames("srv", rev))
		})
	}
}

// FuzzMethodNames: any list of names maps to valid, distinct names.
func FuzzMethodNames(f *testing.F) {
	f.Add("getUser", "get_user", "srv")
	f.Add("@@", "__", "a")
	f.Add("v_2", "v-2", strings.Repeat("n", 60))
	f.Fuzz(func(t *testing.T, a, b, ns string) {
		nsn, err := registry.NormalizeToolName(ns)
		if err != nil || len(nsn) > 40 {
			return
		}
		got := methodNames(nsn, []string{a, b, a + b, b + "_2"})
		seen := map[string]bool{}
		for up, m := range got {
			norm, err := registry.NormalizeToolName(m)
			if err != nil || norm != m || len(nsn)+1+len(m) > registry.MaxNameLength {
				t.Fatalf("%q -> %q: not a valid name (%v, %q)", up, m, err, norm)
			}
			if seen[goKey(m)] {
				t.Fatalf("%q -> %q: taken", up, m)
			}
			seen[goKey(m)] = true
		}
	})
}
