// Copyright 2011 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

// Package template is text/template of the Go release toolscript is built
// with, less the functions and methods that read files (ParseFiles,
// ParseGlob, ParseFS and their helpers). Scripts that import
// "text/template" get this package: a script's template reads only the
// text the script gives it, whatever data it executes with. The other
// files are copied unchanged, except exec.go's import of fmtsort, which
// is internal to the standard library and copied next to this package.
package template

// Must is a helper that wraps a call to a function returning ([*Template], error)
// and panics if the error is non-nil. It is intended for use in variable
// initializations such as
//
//	var t = template.Must(template.New("name").Parse("text"))
func Must(t *Template, err error) *Template {
	if err != nil {
		panic(err)
	}
	return t
}
