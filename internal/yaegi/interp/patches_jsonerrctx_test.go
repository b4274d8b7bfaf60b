package interp

import (
	"strings"
	"testing"
)

// TestJSONUnmarshalErrorNamesStruct checks patch 132: encoding/json's
// UnmarshalTypeError names the script struct type whose field it could
// not fill, as Go's does (the wants are go run's).
func TestJSONUnmarshalErrorNamesStruct(t *testing.T) {
	decls := `type Base struct{ ID int ` + "`json:\"id\"`" + ` }
type Doc struct {
	Base
	Items []Item ` + "`json:\"items\"`" + `
	Meta  *Meta
}
type Item struct{ Qty int ` + "`json:\"qty\"`" + ` }
type Meta struct{ Tags map[string]Item }`
	for _, tc := range []struct{ name, body, want string }{
		{"embedded", `var d Doc; fmt.Println(json.Unmarshal([]byte(` + "`" + `{"id":"x"}` + "`" + `), &d))`,
			"json: cannot unmarshal string into Go struct field Doc.Base.id of type int"},
		{"slice element", `var d Doc; fmt.Println(json.Unmarshal([]byte(` + "`" + `{"items":[{"qty":true}]}` + "`" + `), &d))`,
			"json: cannot unmarshal bool into Go struct field Item.items.qty of type int"},
		{"pointer and map", `var d Doc; fmt.Println(json.Unmarshal([]byte(` + "`" + `{"Meta":{"Tags":{"a":{"qty":"1"}}}}` + "`" + `), &d))`,
			"json: cannot unmarshal string into Go struct field Item.Meta.Tags.qty of type int"},
		{"decoder", `var d Doc; fmt.Println(json.NewDecoder(strings.NewReader(` + "`" + `{"id":[]}` + "`" + `)).Decode(&d))`,
			"json: cannot unmarshal array into Go struct field Doc.Base.id of type int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(goMain(decls, tc.body), "import (", "import (\"encoding/json\"; \"strings\"; ", 1)
			src = strings.Replace(src, "var _ = errors.New", "var _ = errors.New\nvar _ = strings.NewReader", 1)
			if got := runOutput(t, src); got != tc.want+"\n" {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
