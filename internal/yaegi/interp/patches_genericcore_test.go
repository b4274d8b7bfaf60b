package interp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGenericInterfaceConstraint checks patch 97: a type parameter
// whose constraint is an instance of a generic interface with one type
// term (PT Initer[T], type Initer[E any] interface{ *E; Init() }) is
// inferred from that term's core type (New[Config]() failed with
// "cannot infer PT"), and a type argument that lacks the interface's
// methods is Go's error at the call (each want is go run's output or go
// vet's message).
func TestGenericInterfaceConstraint(t *testing.T) {
	decls := `package main

import "fmt"

type Initer[E any] interface {
	*E
	Init()
}

type Config struct{ Port int }

func (c *Config) Init() { c.Port = 8080 }

type Bad struct{ N int }

func New[T any, PT Initer[T]]() T {
	var v T
	PT(&v).Init()
	return v
}

func NewAll[T any, PT Initer[T]](n int) []T {
	out := make([]T, n)
	for i := range out {
		PT(&out[i]).Init()
	}
	return out
}

func main() {
	`
	out, err := runGeneric(t, decls+"fmt.Println(New[Config]().Port, len(NewAll[Config](2)), NewAll[Config](2)[1].Port)\n}\n")
	require.NoError(t, err)
	assert.Equal(t, "8080 2 8080\n", out)

	_, err = runGeneric(t, decls+"fmt.Println(New[Bad]().N)\n}\n")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "31:14: *Bad does not satisfy Initer[Bad] (missing method Init)")
}
