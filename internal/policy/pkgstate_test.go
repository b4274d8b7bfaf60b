package engine

import (
	"context"
	"encoding/base64"
	"hash/crc32"
	"reflect"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopier_KeepsIdentities checks that one copier copies a value reached
// twice once, keeps no memory of the original and maps copies back.
func TestCopier_KeepsIdentities(t *testing.T) {
	syms := loadSymbols()
	c := newCopier()
	upper := c.copy(syms.copies["unicode"]["Upper"]).Interface().(*unicode.RangeTable)
	cats := c.copy(syms.copies["unicode"]["Categories"]).Interface().(map[string]*unicode.RangeTable)
	assert.Same(t, upper, cats["Lu"], "Categories[\"Lu\"] and Upper are one table, as in Go")
	assert.NotSame(t, unicode.Upper, upper)
	assert.Equal(t, *unicode.Upper, *upper)
	upper.R16[0].Lo = 'a'
	assert.Equal(t, uint16('A'), unicode.Upper.R16[0].Lo, "the copy shares no slice with the host")
	turk := c.copy(syms.copies["unicode"]["TurkishCase"]).Interface().(unicode.SpecialCase)
	azeri := c.copy(syms.copies["unicode"]["AzeriCase"]).Interface().(unicode.SpecialCase)
	assert.Same(t, &turk[0], &azeri[0])
	enc := c.copy(syms.copies["encoding/base64"]["StdEncoding"]).Interface().(*base64.Encoding)
	assert.Equal(t, base64.StdEncoding.EncodeToString([]byte("hi?>")), enc.EncodeToString([]byte("hi?>")))
	tab := c.copy(syms.copies["hash/crc32"]["IEEETable"]).Interface().(*crc32.Table)
	h, ok := c.original(reflectValue(tab))
	require.True(t, ok)
	assert.Same(t, crc32.IEEETable, h.Interface())
}

// TestPackageCopies_OnlyNamedVariables checks that an execution copies
// the variables its script names and nothing for a script that names
// none.
func TestPackageCopies_OnlyNamedVariables(t *testing.T) {
	syms := loadSymbols()
	ex := packageCopies(&program{src: `fmt.Println(1)`, imports: []string{"fmt"}}, syms)
	assert.Nil(t, ex)
	ex = packageCopies(&program{src: `x := unicode.Upper; y := unicode.IsUpper('A')`, imports: []string{"unicode"}}, syms)
	require.NotNil(t, ex)
	assert.Len(t, ex["unicode/./unicode"], 1)
	assert.Contains(t, ex["unicode/./unicode"], "Upper")
}

// TestStateBaseline_SeesChanges checks the isolated worker's check: it
// sees a change of the host's package state only in the parts a script
// could name.
func TestStateBaseline_SeesChanges(t *testing.T) {
	b := takeStateBaseline()
	assert.False(t, b.changed(`unicode.Upper time.Local base64.StdEncoding crc32.IEEETable`))
	saved := unicode.Upper.LatinOffset
	unicode.Upper.LatinOffset = 99
	changed, other := b.changed(`x := unicode.Upper`), b.changed(`time.Now()`)
	unicode.Upper.LatinOffset = saved
	assert.True(t, changed)
	assert.False(t, other, "a script that names no unicode table cannot have changed one")
	savedEnc := *base64.StdEncoding
	*base64.StdEncoding = *base64.URLEncoding
	changed = b.changed(`base64.StdEncoding`)
	*base64.StdEncoding = savedEnc
	assert.True(t, changed)
	assert.False(t, b.changed(`unicode base64 time crc32`))
	savedLo := unicode.Lu.R16[0].Lo
	unicode.Lu.R16[0].Lo = 1
	changed = b.changed(`unicode.Categories`)
	unicode.Lu.R16[0].Lo = savedLo
	assert.True(t, changed, "a table reached through a map counts too")
}

// TestExecute_PackageStateAttacks runs the attacks of issue 9's class 2 in
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

func reflectValue(v any) reflect.Value { return reflect.ValueOf(v) }

// BenchmarkStateBaseline measures the isolated worker's check after a
// script that names time and a unicode table.
func BenchmarkStateBaseline(b *testing.B) {
	base := takeStateBaseline()
	for b.Loop() {
		if base.changed(`time.Now(); unicode.Upper`) {
			b.Fatal("changed")
		}
	}
}

// BenchmarkPackageCopies measures the copies of a script that names
// unicode.Categories (every category table).
func BenchmarkPackageCopies(b *testing.B) {
	syms := loadSymbols()
	prog := &program{src: `unicode.Categories`, imports: []string{"unicode"}}
	for b.Loop() {
		packageCopies(prog, syms)
	}
}
