package engine

import (
	"context"
	"encoding/base64"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExecute_PackageStateAttacks runs the shared-package-state attacks in
// process: each fails loudly or changes the execution's copies only.
func TestExecute_PackageStateAttacks(t *testing.T) {
	e := New(Config{})
	for _, tt := range []struct {
		name, code, want, errPart string
	}{
		{"time.Local deref", `*time.Local = *time.UTC`, "", "read-only in scripts"},
		{"time.UTC through a value's location", "l := time.Now().UTC().Location()\n*l = *time.FixedZone(\"X\", 60)", "", "read-only in scripts"},
		{"unicode write", "unicode.Upper.R16[0].Lo = 'a'\nfmt.Println(unicode.Upper.R16[0].Lo == 'a', unicode.IsUpper('A'))", "true true\n", ""},
		{"json into a table", "_ = json.Unmarshal([]byte(`{\"LatinOffset\": 7}`), unicode.Upper)\nfmt.Println(unicode.Upper.LatinOffset)", "7\n", ""},
		{"base64", "*base64.StdEncoding = *base64.URLEncoding\nfmt.Println(base64.StdEncoding.EncodeToString([]byte{0xfb}))", "-w==\n", ""},
		{"rand.Seed", "rand.Seed(1)\na := rand.Int63()\nrand.Seed(1)\nfmt.Println(a != rand.Int63())", "true\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := e.Execute(context.Background(), tt.code, nil)
			require.NoError(t, err)
			if tt.errPart != "" {
				assert.Contains(t, res.Error, tt.errPart)
			} else {
				assert.Equal(t, CodeOK, res.ReturnCode, res.Error)
				assert.Equal(t, tt.want, res.Stdout)
			}
			assert.Equal(t, "UTC", time.UTC.String())
			assert.Equal(t, uint16('A'), unicode.Upper.R16[0].Lo)
			assert.Equal(t, 3, unicode.Upper.LatinOffset)
			assert.Equal(t, "+w==", base64.StdEncoding.EncodeToString([]byte{0xfb}))
		})
	}
}
