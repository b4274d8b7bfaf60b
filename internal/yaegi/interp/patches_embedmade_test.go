package interp

import "testing"

// TestEmbedMadeWithMethods checks patch 216: a struct embedding a pointer
// to (or a value of) a script struct that itself embeds a native type
// with methods compiles and runs as in Go; reflect.StructOf killed the
// process ("type offset base pointer out of range") on the first. The
// corpus script embedded_made_with_methods adds json, through the engine.
func TestEmbedMadeWithMethods(t *testing.T) {
	checkGoOutputs(t, []goCase{
		{"pointer to a struct embedding time.Time", `package main

import (
	"fmt"
	"time"
)

type Inner struct{ time.Time }
type Outer struct{ *Inner }

func main() {
	t := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	o := Outer{&Inner{t}}
	fmt.Println(o.Year(), o.Unix())
	fmt.Println(o)
	fmt.Printf("%v|%s\n", o.Inner, o.Format(time.Kitchen))
	var s fmt.Stringer = o
	fmt.Println(s.String())
}
`, `2024 1714979289
2024-05-06 07:08:09 +0000 UTC
2024-05-06 07:08:09 +0000 UTC|7:08AM
2024-05-06 07:08:09 +0000 UTC
`},
		{"neighbours", `package main

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

type Inner struct{ time.Time }
type ByVal struct{ Inner }
type Deep struct{ *ByVal }
type Buf struct{ *bytes.Buffer }
type OBuf struct{ *Buf }
type SB struct{ strings.Builder }
type OSB struct{ *SB }

func main() {
	t := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	v := ByVal{Inner{t}}
	fmt.Println(v.Year(), v)
	d := Deep{&v}
	fmt.Println(d.Month(), d)
	ob := OBuf{&Buf{new(bytes.Buffer)}}
	ob.WriteString("hi")
	fmt.Println(ob.String(), ob.Len())
	osb := OSB{&SB{}}
	osb.WriteString("x")
	fmt.Println(osb.String())
	fmt.Printf("%v %s\n", d, v)
}
`, `2024 2024-05-06 07:08:09 +0000 UTC
May 2024-05-06 07:08:09 +0000 UTC
hi 2
x
2024-05-06 07:08:09 +0000 UTC 2024-05-06 07:08:09 +0000 UTC
`},
	})
}
