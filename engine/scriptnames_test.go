package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestScriptNames: the names a script can use of an imported package,
// however the selector is written, and the packages it dot-imports.
func TestScriptNames(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		names  []string
		dotted []string
	}{
		{"selector", "tools.Get(nil)", []string{"Get"}, nil},
		{"lines and comments", "tools.\n\t// c\n\tGet(x) + a. /* c */ B_2", []string{"Get", "B_2"}, nil},
		{"unicode", "pkg.Größe", []string{"Größe"}, nil},
		{"not a name", "1.5 + x...", nil, nil},
		{"dot import", "import (\n\t. \"shop\"\n\t\"fmt\"\n)\nfmt.Println", []string{"Println"}, []string{"shop"}},
		{"unterminated comment", "tools. /* Get", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			names, dotted := scriptNames(tc.src)
			var gotNames, gotDotted []string
			for n := range names {
				gotNames = append(gotNames, n)
			}
			for p := range dotted {
				gotDotted = append(gotDotted, p)
			}
			assert.ElementsMatch(t, tc.names, gotNames)
			assert.ElementsMatch(t, tc.dotted, gotDotted)
		})
	}
}
