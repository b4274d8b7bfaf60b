package policy

import (
	"encoding/base64"
	"hash/crc32"
	"reflect"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolscript/toolscript/internal/yaegi/interp"
)

// TestCopier_KeepsIdentities checks that one copier copies a value reached
// twice once, keeps no memory of the original and maps copies back.
func TestCopier_KeepsIdentities(t *testing.T) {
	syms := table()
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
	syms := table()
	copies := func(src string, imports ...string) interp.Exports {
		b := &builder{h: nopHooks{}, src: src, ex: interp.Exports{}}
		packageCopies(b, imports, syms)
		return b.ex
	}
	assert.Empty(t, copies(`fmt.Println(1)`, "fmt"))
	ex := copies(`x := unicode.Upper; y := unicode.IsUpper('A')`, "unicode")
	assert.Len(t, ex["unicode/./unicode"], 1)
	assert.Contains(t, ex["unicode/./unicode"], "Upper")
}

// TestStateBaseline_SeesChanges checks the isolated worker's check: it
// sees a change of the host's package state only in the parts a script
// could name.
func TestStateBaseline_SeesChanges(t *testing.T) {
	b := TakeStateBaseline()
	assert.False(t, b.Changed(`unicode.Upper time.Local base64.StdEncoding crc32.IEEETable`))
	saved := unicode.Upper.LatinOffset
	unicode.Upper.LatinOffset = 99
	changed, other := b.Changed(`x := unicode.Upper`), b.Changed(`time.Now()`)
	unicode.Upper.LatinOffset = saved
	assert.True(t, changed)
	assert.False(t, other, "a script that names no unicode table cannot have changed one")
	savedEnc := *base64.StdEncoding
	*base64.StdEncoding = *base64.URLEncoding
	changed = b.Changed(`base64.StdEncoding`)
	*base64.StdEncoding = savedEnc
	assert.True(t, changed)
	assert.False(t, b.Changed(`unicode base64 time crc32`))
	savedLo := unicode.Lu.R16[0].Lo
	unicode.Lu.R16[0].Lo = 1
	changed = b.Changed(`unicode.Categories`)
	unicode.Lu.R16[0].Lo = savedLo
	assert.True(t, changed, "a table reached through a map counts too")
}

func reflectValue(v any) reflect.Value { return reflect.ValueOf(v) }

// BenchmarkStateBaseline measures the isolated worker's check after a
// script that names time and a unicode table.
func BenchmarkStateBaseline(b *testing.B) {
	base := TakeStateBaseline()
	for b.Loop() {
		if base.Changed(`time.Now(); unicode.Upper`) {
			b.Fatal("changed")
		}
	}
}

// BenchmarkPackageCopies measures the copies of a script that names
// unicode.Categories (every category table).
func BenchmarkPackageCopies(b *testing.B) {
	syms := table()
	imports := []string{"unicode"}
	for b.Loop() {
		packageCopies(&builder{h: nopHooks{}, src: `unicode.Categories`, ex: interp.Exports{}}, imports, syms)
	}
}
