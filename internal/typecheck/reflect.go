package typecheck

import (
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// host declares the packages of the interpreter's symbol tables to
// go/types: each reflect.Type a table names becomes one types.Type, named
// types with their fields and methods in the package of their PkgPath (a
// package scripts cannot import, such as internal/poll, is declared only
// as far as the types that reach it need). One host serves the process:
// a reflect.Type is one types.Type however many checks see it, so that
// io.Reader is the same type in bufio's signatures and in io's.
type host struct {
	mu    sync.Mutex
	pkgs  map[string]*types.Package // by import path
	named map[reflect.Type]types.Type
}

var theHost = &host{pkgs: map[string]*types.Package{}, named: map[reflect.Type]types.Type{}}

var (
	errorType = reflect.TypeOf((*error)(nil)).Elem()
	constType = reflect.TypeOf((*constant.Value)(nil)).Elem()
)

// pkg returns the (possibly incomplete) package of path.
func (h *host) pkg(path string) *types.Package {
	if p, ok := h.pkgs[path]; ok {
		return p
	}
	name := path[strings.LastIndex(path, "/")+1:]
	p := types.NewPackage(path, name)
	h.pkgs[path] = p
	return p
}

// declare fills the package path with the symbols syms (a table of
// internal/policy.Declared); isVar reports the package variables. The
// caller holds h.mu.
func (h *host) declare(path string, syms map[string]reflect.Value, isVar func(string) bool) *types.Package {
	p := h.pkg(path)
	names := make([]string, 0, len(syms))
	for name := range syms {
		names = append(names, name)
	}
	sort.Strings(names)
	scope := p.Scope()
	for _, name := range names {
		if scope.Lookup(name) != nil {
			continue
		}
		v := syms[name]
		if !v.IsValid() {
			continue
		}
		var obj types.Object
		switch {
		case v.Type().Implements(constType):
			cv, ok := v.Interface().(constant.Value)
			if !ok {
				continue
			}
			obj = types.NewConst(token.NoPos, p, name, untypedOf(cv), cv)
		case isVar(name) || v.CanSet():
			obj = types.NewVar(token.NoPos, p, name, h.typeOf(v.Type()))
		case v.Kind() == reflect.Ptr && v.IsNil() && v.Type().Elem().Name() != "":
			// A type: a nil pointer to it.
			t := h.typeOf(v.Type().Elem())
			if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == p {
				obj = n.Obj()
			} else {
				obj = types.NewTypeName(token.NoPos, p, name, t)
			}
		case v.Kind() == reflect.Func:
			sig, ok := h.typeOf(v.Type()).(*types.Signature)
			if !ok {
				continue
			}
			obj = types.NewFunc(token.NoPos, p, name, sig)
		default:
			if cv := constOf(v); cv != nil {
				obj = types.NewConst(token.NoPos, p, name, h.typeOf(v.Type()), cv)
			} else {
				obj = types.NewVar(token.NoPos, p, name, h.typeOf(v.Type()))
			}
		}
		if obj.Name() != name {
			// A type table entry under another name (an alias).
			obj = types.NewTypeName(token.NoPos, p, name, obj.Type())
		}
		scope.Insert(obj)
	}
	p.MarkComplete()
	return p
}

// untypedOf is the untyped basic type of constant value v.
func untypedOf(v constant.Value) types.Type {
	switch v.Kind() {
	case constant.Bool:
		return types.Typ[types.UntypedBool]
	case constant.String:
		return types.Typ[types.UntypedString]
	case constant.Float:
		return types.Typ[types.UntypedFloat]
	case constant.Complex:
		return types.Typ[types.UntypedComplex]
	}
	return types.Typ[types.UntypedInt]
}

// constOf is the constant value of a typed constant of a basic kind, nil
// for another value.
func constOf(v reflect.Value) constant.Value {
	switch v.Kind() {
	case reflect.Bool:
		return constant.MakeBool(v.Bool())
	case reflect.String:
		return constant.MakeString(v.String())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		return constant.MakeFloat64(v.Float())
	}
	return nil
}

var basics = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16,
	reflect.Int32: types.Int32, reflect.Int64: types.Int64, reflect.Uint: types.Uint, reflect.Uint8: types.Uint8,
	reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128, reflect.String: types.String,
	reflect.UnsafePointer: types.UnsafePointer,
}

// typeOf is the types.Type of t. The caller holds h.mu.
func (h *host) typeOf(t reflect.Type) types.Type {
	if t == errorType {
		return types.Universe.Lookup("error").Type()
	}
	if t.Name() != "" && t.PkgPath() != "" {
		return h.namedOf(t)
	}
	switch t.Kind() {
	case reflect.Ptr:
		return types.NewPointer(h.typeOf(t.Elem()))
	case reflect.Slice:
		return types.NewSlice(h.typeOf(t.Elem()))
	case reflect.Array:
		return types.NewArray(h.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Map:
		return types.NewMap(h.typeOf(t.Key()), h.typeOf(t.Elem()))
	case reflect.Chan:
		dir := types.SendRecv
		switch t.ChanDir() {
		case reflect.SendDir:
			dir = types.SendOnly
		case reflect.RecvDir:
			dir = types.RecvOnly
		}
		return types.NewChan(dir, h.typeOf(t.Elem()))
	case reflect.Func:
		return h.signature(t, nil, false)
	case reflect.Interface:
		return h.iface(t)
	case reflect.Struct:
		return h.structOf(t)
	}
	if k, ok := basics[t.Kind()]; ok {
		return types.Typ[k]
	}
	return types.Typ[types.Invalid]
}

// namedOf is the named type t, declared in the package of its PkgPath.
func (h *host) namedOf(t reflect.Type) types.Type {
	if n, ok := h.named[t]; ok {
		return n
	}
	p := h.pkg(t.PkgPath())
	obj := types.NewTypeName(token.NoPos, p, t.Name(), nil)
	n := types.NewNamed(obj, nil, nil)
	h.named[t] = n
	// Not inserted in p's scope: declare does that for the names of p's
	// table, and p may already be complete and in use by other checks.
	// The underlying type: that of the kind, unnamed.
	var under types.Type
	switch t.Kind() {
	case reflect.Struct:
		under = h.structOf(t)
	case reflect.Interface:
		under = h.iface(t)
	case reflect.Func:
		under = h.signature(t, nil, false)
	case reflect.Ptr:
		under = types.NewPointer(h.typeOf(t.Elem()))
	case reflect.Slice:
		under = types.NewSlice(h.typeOf(t.Elem()))
	case reflect.Array:
		under = types.NewArray(h.typeOf(t.Elem()), int64(t.Len()))
	case reflect.Map:
		under = types.NewMap(h.typeOf(t.Key()), h.typeOf(t.Elem()))
	case reflect.Chan:
		under = types.NewChan(types.SendRecv, h.typeOf(t.Elem()))
	default:
		if k, ok := basics[t.Kind()]; ok {
			under = types.Typ[k]
		} else {
			under = types.Typ[types.Invalid]
		}
	}
	n.SetUnderlying(under)
	if t.Kind() == reflect.Interface {
		return n
	}
	// Methods: those of T have a value receiver, those only *T has a
	// pointer receiver. reflect lists exported methods only, promoted
	// ones included (go/types finds those through the embedded field
	// too; a declared one at depth 0 wins).
	value := map[string]bool{}
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		value[m.Name] = true
		recv := types.NewVar(token.NoPos, p, "", n)
		n.AddMethod(types.NewFunc(token.NoPos, p, m.Name, h.signature(m.Type, recv, true)))
	}
	pt := reflect.PointerTo(t)
	for i := 0; i < pt.NumMethod(); i++ {
		m := pt.Method(i)
		if value[m.Name] {
			continue
		}
		recv := types.NewVar(token.NoPos, p, "", types.NewPointer(n))
		n.AddMethod(types.NewFunc(token.NoPos, p, m.Name, h.signature(m.Type, recv, true)))
	}
	return n
}

// signature is the signature of func type t; with method, its first
// parameter is the receiver recv.
func (h *host) signature(t reflect.Type, recv *types.Var, method bool) *types.Signature {
	first := 0
	if method {
		first = 1
	}
	var params, results []*types.Var
	for i := first; i < t.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, nil, "", h.typeOf(t.In(i))))
	}
	for i := 0; i < t.NumOut(); i++ {
		results = append(results, types.NewParam(token.NoPos, nil, "", h.typeOf(t.Out(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.IsVariadic())
}

// iface is the interface type t (its methods, unexported ones included).
func (h *host) iface(t reflect.Type) *types.Interface {
	var ms []*types.Func
	for i := 0; i < t.NumMethod(); i++ {
		m := t.Method(i)
		var p *types.Package
		if m.PkgPath != "" {
			p = h.pkg(m.PkgPath)
		}
		ms = append(ms, types.NewFunc(token.NoPos, p, m.Name, h.signature(m.Type, nil, false)))
	}
	it := types.NewInterfaceType(ms, nil)
	it.Complete()
	return it
}

// structOf is the struct type t, unexported fields included (for
// composite literals and comparisons Go's rules see them).
func (h *host) structOf(t reflect.Type) *types.Struct {
	var fields []*types.Var
	var tags []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		var p *types.Package
		if f.PkgPath != "" {
			p = h.pkg(f.PkgPath)
		} else if t.PkgPath() != "" {
			p = h.pkg(t.PkgPath())
		}
		fields = append(fields, types.NewField(token.NoPos, p, f.Name, h.typeOf(f.Type), f.Anonymous))
		tags = append(tags, string(f.Tag))
	}
	return types.NewStruct(fields, tags)
}
