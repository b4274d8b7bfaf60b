package interp

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// givenStatus stands for a typed tool's enum: a named host type whose
// package gives it another Go name (shop.Status).
type givenStatus string

// TestFmtGivenTypeNames checks patch 121: %T of a value of a named native
// type whose package gives it a Go name (TypeNamesSymbol), or of a
// pointer, slice, array, map or channel of it, prints that name, whether
// the static type says so or an interface holds it; %#v of the value
// itself prints as Go's, of a composite made of it fails naming it; the
// type stays distinct from string.
func TestFmtGivenTypeNames(t *testing.T) {
	st := reflect.TypeFor[givenStatus]()
	order := reflect.StructOf([]reflect.StructField{{Name: "Status", Type: st}})
	get := reflect.MakeFunc(reflect.FuncOf(nil, []reflect.Type{order}, false), func([]reflect.Value) []reflect.Value {
		o := reflect.New(order).Elem()
		o.Field(0).SetString("paid")
		return []reflect.Value{o}
	})
	list := reflect.ValueOf(func() []givenStatus { return []givenStatus{"a", "b"} })
	shop := map[string]reflect.Value{
		"Get":           get,
		"List":          list,
		"Order":         reflect.Zero(reflect.PointerTo(order)),
		"Status":        reflect.Zero(reflect.PointerTo(st)),
		"StatusPaid":    reflect.ValueOf(givenStatus("paid")),
		TypeNamesSymbol: reflect.ValueOf(map[reflect.Type]string{order: "shop.Order", st: "shop.Status"}),
	}
	run := func(body string) (string, error) { return runWithShop(t, shop, body) }
	for _, tt := range []struct{ body, want string }{
		{`s := shop.StatusPaid; fmt.Printf("%T %v %#v\n", s, s, s)`, `shop.Status paid "paid"`},
		{`o := shop.Get(); fmt.Printf("%T %T\n", o.Status, any(o.Status))`, "shop.Status shop.Status"},
		{`l := shop.List(); var x any = l; fmt.Printf("%T %T %v\n", l, x, x)`, "[]shop.Status []shop.Status [a b]"},
		{`m := map[shop.Status][]*shop.Status{}; var x any = m; fmt.Printf("%T %T\n", m, x)`,
			"map[shop.Status][]*shop.Status map[shop.Status][]*shop.Status"},
		{`c := make(chan shop.Status); var a [2]shop.Status; fmt.Printf("%T %T\n", c, a)`, "chan shop.Status [2]shop.Status"},
		{`ss := []shop.Status{shop.StatusPaid}; fmt.Printf("%#v\n", ss)`, `[]shop.Status{"paid"}`},
		{`var x any = shop.StatusPaid; _, isString := x.(string); s, isStatus := x.(shop.Status); fmt.Println(isString, isStatus, s, x == "paid")`,
			"false true paid false"},
		{`var x any = "paid"; fmt.Printf("%T\n", x)`, "string"},
	} {
		got, err := run(tt.body)
		if err != nil || got != tt.want+"\n" {
			t.Errorf("%s: got %q, %v, want %q", tt.body, got, err, tt.want)
		}
	}
	for _, tt := range []struct{ body, want string }{
		{`l := shop.List(); fmt.Printf("%#v\n", []any{l})`, "%#v of a value made of type shop.Status is not supported"},
		{`l := shop.List(); fmt.Printf("%#v\n", any(l))`, "%#v of a value made of type shop.Status is not supported"},
		{`o := shop.Get(); fmt.Printf("%T\n", o)`, "%T of a value of type shop.Order is not supported"},
		{`var x any = struct{ S shop.Status }{}; fmt.Printf("%T\n", x)`, "a type made of shop.Status"},
	} {
		_, err := run(tt.body)
		var p Panic
		if !errors.As(err, &p) || !strings.Contains(p.Error(), tt.want) {
			t.Errorf("%s: got %v, want a panic containing %q", tt.body, err, tt.want)
		}
	}
}
