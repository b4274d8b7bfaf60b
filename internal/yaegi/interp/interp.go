package interp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"go/ast" // toolscript patch 106
	"go/build"
	"go/scanner"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// Interpreter node structure for AST and CFG.
type node struct {
	debug      *nodeDebugData // debug info
	child      []*node        // child subtrees (AST)
	anc        *node          // ancestor (AST)
	param      []*itype       // generic parameter nodes (AST)
	start      *node          // entry point in subtree (CFG)
	tnext      *node          // true branch successor (CFG)
	fnext      *node          // false branch successor (CFG)
	interp     *Interpreter   // interpreter context
	index      int64          // node index (dot display)
	findex     int            // index of value in frame or frame size (func def, type def)
	level      int            // number of frame indirections to access value
	nleft      int            // number of children in left part (assign) or indicates preceding type (compositeLit)
	nright     int            // number of children in right part (assign)
	kind       nkind          // kind of node
	pos        token.Pos      // position in source code, relative to fset
	sym        *symbol        // associated symbol
	typ        *itype         // type of value in frame, or nil
	recv       *receiver      // method receiver node for call, or nil
	types      []reflect.Type // frame types, used by function literals only
	scope      *scope         // frame scope
	action     action         // action
	exec       bltn           // generated function to execute
	gen        bltnGenerator  // generator function to produce above bltn
	val        interface{}    // static generic value (CFG execution)
	rval       reflect.Value  // reflection value to let runtime access interpreter (CFG)
	ident      string         // set if node is a var or func
	redeclared bool           // set if node is a redeclared variable (CFG)
	meta       interface{}    // meta stores meta information between gta runs, like errors

	// toolscript patch 116: a method of an interface wrapper reads its
	// receiver at each call (a value method through a pointer sees the
	// pointed value as it is then), not once as a method value does.
	recvAtCall bool
}

func (n *node) shouldBreak() bool {
	if n == nil || n.debug == nil {
		return false
	}

	if n.debug.breakOnLine || n.debug.breakOnCall {
		return true
	}

	return false
}

func (n *node) setProgram(p *Program) {
	if n.debug == nil {
		n.debug = new(nodeDebugData)
	}
	n.debug.program = p
}

func (n *node) setBreakOnCall(v bool) {
	if n.debug == nil {
		if !v {
			return
		}
		n.debug = new(nodeDebugData)
	}
	n.debug.breakOnCall = v
}

func (n *node) setBreakOnLine(v bool) {
	if n.debug == nil {
		if !v {
			return
		}
		n.debug = new(nodeDebugData)
	}
	n.debug.breakOnLine = v
}

// receiver stores method receiver object access path.
type receiver struct {
	node  *node         // receiver value for alias and struct types
	val   reflect.Value // receiver value for interface type and value type
	index []int         // path in receiver value for interface or value type
}

// frame contains values for the current execution level (a function context).
type frame struct {
	// id is an atomic counter used for cancellation, only accessed
	// via newFrame/runid/setrunid/clone.
	// Located at start of struct to ensure proper alignment.
	id uint64

	debug *frameDebugData

	root *frame          // global space
	anc  *frame          // ancestor frame (caller space)
	data []reflect.Value // values

	mutex     sync.RWMutex
	deferred  [][]reflect.Value  // defer stack
	recovered interface{}        // to handle panic recover
	done      reflect.SelectCase // for cancellation of channel operations
	origin    *frame             // toolscript patch 52: the frame a clone was made from, whose panic recover sees
	goid      int64              // toolscript patch 78: the id of the goroutine running the frame, once known
}

func newFrame(anc *frame, length int, id uint64) *frame {
	f := &frame{
		anc:  anc,
		data: make([]reflect.Value, length),
		id:   id,
	}
	if anc == nil {
		f.root = f
	} else {
		f.done = anc.done
		f.root = anc.root
	}
	return f
}

func (f *frame) runid() uint64      { return atomic.LoadUint64(&f.id) }
func (f *frame) setrunid(id uint64) { atomic.StoreUint64(&f.id, id) }
func (f *frame) clone() *frame {
	f.mutex.RLock()
	defer f.mutex.RUnlock()
	nf := &frame{
		anc:       f.anc,
		root:      f.root,
		deferred:  f.deferred,
		recovered: f.recovered,
		id:        f.runid(),
		done:      f.done,
		debug:     f.debug,
		origin:    f, // toolscript patch 52
	}
	if f.origin != nil {
		nf.origin = f.origin
	}
	nf.data = make([]reflect.Value, len(f.data))
	copy(nf.data, f.data)
	return nf
}

// Exports stores the map of binary packages per package path.
// The package path is the path joined from the import path and the package name
// as specified in source files by the "package" statement.
type Exports map[string]map[string]reflect.Value

// imports stores the map of source packages per package path.
type imports map[string]map[string]*symbol

// opt stores interpreter options.
type opt struct {
	// dotCmd is the command to process the dot graph produced when astDot and/or
	// cfgDot is enabled. It defaults to 'dot -Tdot -o <filename>.dot'.
	dotCmd       string
	context      build.Context     // build context: GOPATH, build constraints
	stdin        io.Reader         // standard input
	stdout       io.Writer         // standard output
	stderr       io.Writer         // standard error
	args         []string          // cmdline args
	env          map[string]string // environment of interpreter, entries in form of "key=value"
	filesystem   fs.FS             // filesystem containing sources
	astDot       bool              // display AST graph (debug)
	cfgDot       bool              // display CFG graph (debug)
	noRun        bool              // compile, but do not run
	fastChan     bool              // disable cancellable chan operations
	specialStdio bool              // allows os.Stdin, os.Stdout, os.Stderr to not be file descriptors
	unrestricted bool              // allow use of non-sandboxed symbols

	readOnly  []reflect.Type          // toolscript patch 40
	hideField func(reflect.Type) bool // toolscript patch 41

	makeCheck func(reflect.Type, int)                                      // toolscript patch 24
	typeCheck func(uint64, string) error                                   // toolscript patch 25
	binMethod func(reflect.Type, string) func(reflect.Value) reflect.Value // toolscript patch 26

	maxCallDepth int64                 // toolscript patch 31
	onCallDepth  func(fn string)       // toolscript patch 31
	session      bool                  // toolscript patch 47
	printCheck   func([]reflect.Value) // toolscript patch 32

	ownedCall func(pkgPath, name string) func(map[string]any) (any, error) // toolscript patch 34
	mapForm   func(pkgPath, name string) reflect.Value                     // toolscript patch 50

	directCall func(pkgPath, name string) func([]reflect.Value) []reflect.Value // toolscript patch 51

	binExt map[string]string // toolscript patch 70

	standIns map[reflect.Type]reflect.Type // toolscript patch 178
}

// Interpreter contains global resources and state.
type Interpreter struct {
	// toolscript patch 27: the context of a CompileWithContext running.
	compileWatch atomic.Pointer[compileWatch]

	// toolscript patch 3: where the last panic started; see PanicSite.
	panicMu    sync.Mutex
	panicValue interface{}
	panicPos   token.Position
	panicFunc  string
	// toolscript patch 22: the frames the last panic went through.
	panicFrames []Frame

	// toolscript patch 61: how fmt's print functions see script types.
	fmtConvs fmtConverters
	named    namedTypes // toolscript patch 89: the script's named types

	// toolscript patch 112: the node of each script type's keys in a
	// map[any], and keepsMethods of each type a run-time check asked.
	keyNodes, keptTypes sync.Map

	// toolscript patch 144: one record of each value of a script type
	// in a map key's interface (a struct's any field), so equal keys are
	// one.
	keyRecords sync.Map

	// toolscript patch 120: the type of the first key of each
	// representation given to native code that compares keys.
	nativeKeys sync.Map

	// id is an atomic counter used for run cancellation,
	// only accessed via runid/stop
	// Located at start of struct to ensure proper alignment on 32-bit
	// architectures.
	id uint64

	// toolscript patch 31: calls is the number of function bodies
	// running, summed over the program's goroutines.
	calls atomic.Int64

	// toolscript patch 47: live counts the goroutines of go statements
	// running in interpreted code; earlier holds the package's type
	// symbols when a compilation started, in a session.
	live    atomic.Int64
	earlier map[string]*symbol

	deadlock deadlockState // toolscript patch 78

	// nindex is a node number incremented for each new node.
	// It is used for debug (AST and CFG graphs). As it is atomically
	// incremented, keep it aligned on 64 bits boundary.
	nindex int64

	name string // name of the input source file (or main)

	opt                                         // user settable options
	cancelChan bool                             // enables cancellable chan operations
	fset       *token.FileSet                   // fileset to locate node in source code
	binPkg     Exports                          // binary packages used in interpreter, indexed by path
	rdir       map[string]bool                  // for src import cycle detection
	mapTypes   map[reflect.Value][]reflect.Type // special interfaces mapping for wrappers

	// toolscript patch 7: symbol tables shared with other interpreters
	// (UseShared); they are read, never written, and copied on the
	// first write (ownPkg).
	sharedPkg      map[string]bool
	sharedMapTypes map[reflect.Value][]reflect.Type

	mutex    sync.RWMutex
	frame    *frame            // program data storage during execution
	universe *scope            // interpreter global level scope
	scopes   map[string]*scope // package level scopes, indexed by import path
	srcPkg   imports           // source packages used in interpreter, indexed by path
	pkgNames map[string]string // package names, indexed by import path
	done     chan struct{}     // for cancellation of channel operations
	roots    []*node
	generic  map[string]*node
	instArgs map[*itype][]*itype // type arguments of each instance of a generic type (toolscript patch 76)
	// instName names the instance of a generic type whose generated type
	// node is being resolved (toolscript patch 128).
	instName map[*node]string

	hooks *hooks // symbol hooks

	debugger *Debugger
}

const (
	mainID     = "main"
	selfPrefix = "github.com/traefik/yaegi"
	selfPath   = selfPrefix + "/interp/interp"
	// DefaultSourceName is the name used by default when the name of the input
	// source file has not been specified for an Eval.
	// TODO(mpl): something even more special as a name?
	DefaultSourceName = "_.go"

	// Test is the value to pass to EvalPath to activate evaluation of test functions.
	Test = false
	// NoTest is the value to pass to EvalPath to skip evaluation of test functions.
	NoTest = true
)

// Self points to the current interpreter if accessed from within itself, or is nil.
var Self *Interpreter

// Symbols exposes interpreter values.
var Symbols = Exports{
	selfPath: map[string]reflect.Value{
		"New": reflect.ValueOf(New),

		"Interpreter": reflect.ValueOf((*Interpreter)(nil)),
		"Options":     reflect.ValueOf((*Options)(nil)),
		"Panic":       reflect.ValueOf((*Panic)(nil)),
	},
}

func init() { Symbols[selfPath]["Symbols"] = reflect.ValueOf(Symbols) }

// _error is a wrapper of error interface type.
type _error struct {
	IValue interface{}
	WError func() string
}

func (w _error) Error() string { return w.WError() }

// Panic is an error recovered from a panic call in interpreted code.
type Panic struct {
	// Value is the recovered value of a call to panic.
	Value interface{}

	// Callers is the call stack obtained from the recover call.
	// It may be used as the parameter to runtime.CallersFrames.
	Callers []uintptr

	// Stack is the call stack buffer for debug.
	Stack []byte

	// Frames are the functions of the script the panic went through,
	// innermost first, the first at the panic's position (toolscript
	// patch 22); nil when the interpreter did not see the panic start
	// (a panic of its own machinery).
	Frames []Frame
}

// TODO: Capture interpreter stack frames also and remove
// fmt.Fprintln(n.interp.stderr, oNode.cfgErrorf("panic")) in runCfg.

func (e Panic) Error() string { return fmt.Sprint(e.Value) }

// Walk traverses AST n in depth first order, call cbin function
// at node entry and cbout function at node exit.
func (n *node) Walk(in func(n *node) bool, out func(n *node)) {
	// toolscript patch 27: a compilation under CompileWithContext stops
	// once its context is done.
	if w := n.interpWatch(); w != nil {
		if w.steps++; w.steps&255 == 0 && w.ctx.Err() != nil {
			panic(errCompileStopped)
		}
	}
	if in != nil && !in(n) {
		return
	}
	for _, child := range n.child {
		child.Walk(in, out)
	}
	if out != nil {
		out(n)
	}
}

// Options are the interpreter options.
type Options struct {
	// GoPath sets GOPATH for the interpreter.
	GoPath string

	// BuildTags sets build constraints for the interpreter.
	BuildTags []string

	// Standard input, output and error streams.
	// They default to os.Stdin, os.Stdout and os.Stderr respectively.
	Stdin          io.Reader
	Stdout, Stderr io.Writer

	// Cmdline args, defaults to os.Args.
	Args []string

	// Environment of interpreter. Entries are in the form "key=values".
	Env []string

	// SourcecodeFilesystem is where the _sourcecode_ is loaded from and does
	// NOT affect the filesystem of scripts when they run.
	// It can be any fs.FS compliant filesystem (e.g. embed.FS, or fstest.MapFS for testing)
	// See example/fs/fs_test.go for an example.
	SourcecodeFilesystem fs.FS

	// toolscript patch 106: FileSet, if set, is the interpreter's file
	// set (FileSet()), which ParseFile parsed a program into before the
	// interpreter existed; CompileFileWithContext compiles that program.
	FileSet *token.FileSet

	// toolscript patch 31: MaxCallDepth, if positive, bounds the function
	// calls in progress at once, summed over the program's goroutines,
	// whatever the path of the call (direct, a closure, a method value,
	// native code calling back). The call that exceeds it calls
	// OnCallDepth with the function's name and goes on (OnCallDepth is
	// expected to stop the interpreter), or panics if OnCallDepth is nil.
	MaxCallDepth int
	OnCallDepth  func(fn string)

	// toolscript patch 47: Session makes the interpreter run a sequence of
	// programs that share their package's state: a function value made by
	// one program (a closure, a method value) stays callable by the
	// programs that run after it. Otherwise, as upstream, a function
	// value runs under the run it was made in, and fails once that run
	// has stopped.
	Session bool

	// toolscript patch 32: PrintCheck, if set, is called with the
	// arguments of the builtins print and println before they format
	// them (with fmt's %v, which recurses into maps and slices); it
	// panics to refuse them.
	PrintCheck func(args []reflect.Value)

	// Unrestricted allows to run non sandboxed stdlib symbols such as os/exec and environment
	Unrestricted bool

	// toolscript patch 40: ReadOnlyTypes are native types whose values
	// the host shares between executions (time.Location: every time
	// value points at the host's UTC or Local). A script may hold and use
	// pointers to them, but an assignment through a pointer to one of
	// these types (or to a type with the same underlying struct), *p = v,
	// fails to compile.
	ReadOnlyTypes []reflect.Type

	// toolscript patch 41: HiddenFieldType, if set, is asked at compile
	// time for the type of each field of a native struct the script
	// selects; true makes the selection a compile error (a reflect.Type
	// in an error struct, say, that would hand the script reflection).
	HiddenFieldType func(t reflect.Type) bool

	// toolscript patch 34: OwnedCall, if set, is asked at compile time for
	// each call of a native function of the tool signature
	// (func(map[string]any) (any, error)), named as package path and
	// symbol, whose only argument is a composite literal written in the
	// call: nothing but the callee can reach that map. A non-nil result
	// is called instead of the symbol's function, with the map.
	OwnedCall func(pkgPath, name string) func(map[string]any) (any, error)

	// toolscript patch 50: MapForm, if set, is asked at compile time for
	// each call of a native package's function, named as package path and
	// symbol, whose only argument is of type map[string]any or is nil. A
	// valid result (a function of the tool signature, func(map[string]any)
	// (any, error)) is called instead, and the call has its type: a typed
	// tool called with a map of its arguments runs its map form.
	MapForm func(pkgPath, name string) reflect.Value

	// toolscript patch 51: DirectCall, if set, is asked at compile time
	// for each call of a native package's function (other than one of the
	// tool signature), named as package path and symbol; a non-nil result
	// is called with the call's argument values, already of the
	// parameters' types, instead of reflect.Value.Call of the symbol, and
	// returns the results. It must do what the symbol's function does.
	DirectCall func(pkgPath, name string) func(in []reflect.Value) []reflect.Value

	// toolscript patch 178: StandIns maps a native type the host gives
	// scripts in place of another to the type it stands for (toolscript's
	// *os.File, of some of the methods of Go's *os.File, to Go's). A type
	// assertion or a type switch case of an interface type that a value
	// of the stand-in type fails and one of the real type would pass
	// panics, naming the line, the types and the methods, rather than
	// answer otherwise than Go. The map is only read.
	StandIns map[reflect.Type]reflect.Type

	// toolscript patch 78: Deadlock, if set, is called once, with a report
	// naming the line where each goroutine waits, when every goroutine of
	// the program (main and those of its go statements) is blocked in a
	// channel operation on the program's own channels, as Go's runtime
	// reports "all goroutines are asleep" (see deadlockState for what is
	// proven before it is called). The program's goroutines stay blocked:
	// the caller ends the run.
	Deadlock func(report string)

	// toolscript patch 24: MakeCheck, if set, is called before make (and
	// a slice literal) allocates, with the type made (a slice, map or
	// channel type) and the largest of its size arguments. It panics to
	// refuse the allocation; the panic is the script's.
	MakeCheck func(t reflect.Type, n int)

	// toolscript patch 25: TypeCheck, if set, is called at compile time
	// for each array and struct type of the script with its size in
	// bytes (saturated at math.MaxUint64) and its source text; a non-nil
	// error is the compile error at the type.
	TypeCheck func(size uint64, typ string) error

	// toolscript patch 26: BinMethod, if set, is asked when the script
	// selects the method name of a native (binary) value of type recv
	// (at compile time when the type is known then, else when the
	// method is looked up). A non-nil bind replaces the method: given the
	// receiver, it returns a function of the method's signature, which
	// the script calls (or keeps as a method value) in its place.
	BinMethod func(recv reflect.Type, name string) (bind func(recv reflect.Value) reflect.Value)

	// toolscript patch 70: BinaryExtensions maps the import path of a
	// binary package to the import path of a source package (under
	// SourcecodeFilesystem) that extends it with what a native table
	// cannot hold: generic functions. A program importing the binary
	// package compiles the extension too, and a selector the binary
	// table lacks (errors.AsType) resolves to the extension's symbol.
	BinaryExtensions map[string]string
}

// New returns a new interpreter.
func New(options Options) *Interpreter {
	i := Interpreter{
		opt:      opt{context: build.Default, filesystem: &realFS{}, env: map[string]string{}},
		frame:    newFrame(nil, 0, 0),
		fset:     token.NewFileSet(),
		universe: initUniverse(),
		scopes:   map[string]*scope{},
		binPkg:   Exports{"": map[string]reflect.Value{"_error": reflect.ValueOf((*_error)(nil))}},
		mapTypes: map[reflect.Value][]reflect.Type{},
		srcPkg:   imports{},
		pkgNames: map[string]string{},
		rdir:     map[string]bool{},
		hooks:    &hooks{},
		generic:  map[string]*node{},
	}

	if i.opt.stdin = options.Stdin; i.opt.stdin == nil {
		i.opt.stdin = os.Stdin
	}

	if i.opt.stdout = options.Stdout; i.opt.stdout == nil {
		i.opt.stdout = os.Stdout
	}

	if i.opt.stderr = options.Stderr; i.opt.stderr == nil {
		i.opt.stderr = os.Stderr
	}

	if i.opt.args = options.Args; i.opt.args == nil {
		i.opt.args = os.Args
	}

	i.opt.readOnly, i.opt.hideField = options.ReadOnlyTypes, options.HiddenFieldType // toolscript patches 40, 41

	// unrestricted allows to use non sandboxed stdlib symbols and env.
	if options.Unrestricted {
		i.opt.unrestricted = true
	} else {
		for _, e := range options.Env {
			a := strings.SplitN(e, "=", 2)
			if len(a) == 2 {
				i.opt.env[a[0]] = a[1]
			} else {
				i.opt.env[a[0]] = ""
			}
		}
	}

	// toolscript patch 31: the call depth bound.
	i.opt.maxCallDepth, i.opt.onCallDepth = int64(options.MaxCallDepth), options.OnCallDepth
	i.opt.session = options.Session       // toolscript patch 47
	i.opt.printCheck = options.PrintCheck // toolscript patch 32
	i.opt.ownedCall = options.OwnedCall   // toolscript patch 34
	i.opt.mapForm = options.MapForm       // toolscript patch 50
	i.opt.directCall = options.DirectCall // toolscript patch 51
	i.opt.standIns = options.StandIns     // toolscript patch 178

	i.opt.binExt = options.BinaryExtensions // toolscript patch 70
	i.deadlock.report = options.Deadlock    // toolscript patch 78
	if options.FileSet != nil {             // toolscript patch 106
		i.fset = options.FileSet
	}
	if options.SourcecodeFilesystem != nil {
		i.opt.filesystem = options.SourcecodeFilesystem
	}
	i.opt.context.GOPATH = options.GoPath
	if len(options.BuildTags) > 0 {
		i.opt.context.BuildTags = options.BuildTags
	}
	// toolscript patches 24 to 26: allocation and native-method hooks.
	i.opt.makeCheck, i.opt.typeCheck, i.opt.binMethod = options.MakeCheck, options.TypeCheck, options.BinMethod

	// toolscript patch 107: the YAEGI_* variables are read once per
	// process (debugEnv), not by every New.
	env := debugEnv()
	i.opt.astDot, i.opt.cfgDot, i.opt.dotCmd, i.opt.noRun = env.astDot, env.cfgDot, env.dotCmd, env.noRun
	i.opt.specialStdio = env.specialStdio
	// toolscript patch 6: channel operations are always cancellable, from
	// the start, so code compiled before ExecuteWatch (closures are
	// generated at compile time) can be stopped too; the host's
	// environment cannot turn this off.
	i.opt.fastChan = false
	i.cancelChan = true

	return &i
}

// toolscript patch 107: debugEnv is the interpreter's debugging options
// from the environment, read once per process.
var debugEnv = sync.OnceValue(func() (e struct {
	astDot, cfgDot, noRun, specialStdio bool
	dotCmd                              string
}) {
	// astDot activates AST graph display for the interpreter
	e.astDot, _ = strconv.ParseBool(os.Getenv("YAEGI_AST_DOT"))
	// cfgDot activates CFG graph display for the interpreter
	e.cfgDot, _ = strconv.ParseBool(os.Getenv("YAEGI_CFG_DOT"))
	// dotCmd defines how to process the dot code generated whenever astDot and/or
	// cfgDot is enabled. It defaults to 'dot -Tdot -o<filename>.dot' where filename
	// is context dependent.
	e.dotCmd = os.Getenv("YAEGI_DOT_CMD")
	// noRun disables the execution (but not the compilation) in the interpreter
	e.noRun, _ = strconv.ParseBool(os.Getenv("YAEGI_NO_RUN"))
	// specialStdio allows to assign directly io.Writer and io.Reader to os.Stdxxx,
	// even if they are not file descriptors.
	e.specialStdio, _ = strconv.ParseBool(os.Getenv("YAEGI_SPECIAL_STDIO"))
	return e
})

const (
	bltnAlignof  = "unsafe.Alignof"
	bltnAppend   = "append"
	bltnCap      = "cap"
	bltnClose    = "close"
	bltnComplex  = "complex"
	bltnImag     = "imag"
	bltnCopy     = "copy"
	bltnDelete   = "delete"
	bltnLen      = "len"
	bltnMake     = "make"
	bltnNew      = "new"
	bltnOffsetof = "unsafe.Offsetof"
	bltnPanic    = "panic"
	bltnPrint    = "print"
	bltnPrintln  = "println"
	bltnReal     = "real"
	bltnRecover  = "recover"
	bltnSizeof   = "unsafe.Sizeof"
)

// initUniverse returns the scope of the predeclared identifiers. Its symbols
// are made on first use (universeSymbol), not all in advance: an
// interpreter for a short script uses a handful of the fifty (toolscript
// patch 9; building them all cost a third of the bytes New allocates).
func initUniverse() *scope {
	return &scope{global: true, universe: true, sym: make(map[string]*symbol, 16)}
}

// universeSymbols makes each predeclared identifier's symbol, fresh for
// each interpreter, as the eager universe did. It is set by init: the
// builtins refer back to the scope code that reads it.
var universeSymbols map[string]func() *symbol

func init() { universeSymbols = predeclaredSymbols() }

func predeclaredSymbols() map[string]func() *symbol {
	return map[string]func() *symbol{
		// predefined Go types
		"any":  func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: interfaceT, str: "any"}} },
		"bool": func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: boolT, name: "bool", str: "bool"}} },
		"byte": func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: uint8T, name: "uint8", str: "uint8"}} },
		"comparable": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: comparableT, name: "comparable", str: "comparable"}}
		},
		"complex64": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: complex64T, name: "complex64", str: "complex64"}}
		},
		"complex128": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: complex128T, name: "complex128", str: "complex128"}}
		},
		"error": func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: errorT, name: "error", str: "error"}} },
		"float32": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: float32T, name: "float32", str: "float32"}}
		},
		"float64": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: float64T, name: "float64", str: "float64"}}
		},
		"int":         func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: intT, name: "int", str: "int"}} },
		"int8":        func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: int8T, name: "int8", str: "int8"}} },
		"int16":       func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: int16T, name: "int16", str: "int16"}} },
		"int32":       func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: int32T, name: "int32", str: "int32"}} },
		"int64":       func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: int64T, name: "int64", str: "int64"}} },
		"interface{}": func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: interfaceT, str: "interface{}"}} },
		"rune":        func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: int32T, name: "int32", str: "int32"}} },
		"string": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: stringT, name: "string", str: "string"}}
		},
		"uint":  func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: uintT, name: "uint", str: "uint"}} },
		"uint8": func() *symbol { return &symbol{kind: typeSym, typ: &itype{cat: uint8T, name: "uint8", str: "uint8"}} },
		"uint16": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: uint16T, name: "uint16", str: "uint16"}}
		},
		"uint32": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: uint32T, name: "uint32", str: "uint32"}}
		},
		"uint64": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: uint64T, name: "uint64", str: "uint64"}}
		},
		"uintptr": func() *symbol {
			return &symbol{kind: typeSym, typ: &itype{cat: uintptrT, name: "uintptr", str: "uintptr"}}
		},

		// predefined Go constants
		"false": func() *symbol { return &symbol{kind: constSym, typ: untypedBool(nil), rval: reflect.ValueOf(false)} },
		"true":  func() *symbol { return &symbol{kind: constSym, typ: untypedBool(nil), rval: reflect.ValueOf(true)} },
		"iota":  func() *symbol { return &symbol{kind: constSym, typ: untypedInt(nil)} },

		// predefined Go zero value
		"nil": func() *symbol { return &symbol{typ: &itype{cat: nilT, untyped: true, str: "nil"}} },

		// predefined Go builtins
		bltnAppend:  func() *symbol { return &symbol{kind: bltnSym, builtin: _append} },
		bltnCap:     func() *symbol { return &symbol{kind: bltnSym, builtin: _cap} },
		bltnClose:   func() *symbol { return &symbol{kind: bltnSym, builtin: _close} },
		bltnComplex: func() *symbol { return &symbol{kind: bltnSym, builtin: _complex} },
		bltnImag:    func() *symbol { return &symbol{kind: bltnSym, builtin: _imag} },
		bltnCopy:    func() *symbol { return &symbol{kind: bltnSym, builtin: _copy} },
		bltnDelete:  func() *symbol { return &symbol{kind: bltnSym, builtin: _delete} },
		bltnLen:     func() *symbol { return &symbol{kind: bltnSym, builtin: _len} },
		bltnMake:    func() *symbol { return &symbol{kind: bltnSym, builtin: _make} },
		bltnNew:     func() *symbol { return &symbol{kind: bltnSym, builtin: _new} },
		bltnPanic:   func() *symbol { return &symbol{kind: bltnSym, builtin: _panic} },
		bltnPrint:   func() *symbol { return &symbol{kind: bltnSym, builtin: _print} },
		bltnPrintln: func() *symbol { return &symbol{kind: bltnSym, builtin: _println} },
		bltnReal:    func() *symbol { return &symbol{kind: bltnSym, builtin: _real} },
		bltnRecover: func() *symbol { return &symbol{kind: bltnSym, builtin: _recover} },
	}
}

// resizeFrame resizes the global frame of interpreter.
func (interp *Interpreter) resizeFrame() {
	l := len(interp.universe.types)
	b := len(interp.frame.data)
	if l-b <= 0 {
		return
	}
	// toolscript patch 47: the frame grows by doubling, so that a session,
	// each of whose programs adds a few globals, does not copy it whole
	// every time.
	data := interp.frame.data[:cap(interp.frame.data)]
	if len(data) < l {
		data = make([]reflect.Value, l, 2*l)
		copy(data, interp.frame.data)
	}
	data = data[:l]
	for j, t := range interp.universe.types[b:] {
		data[b+j] = reflect.New(t).Elem()
	}
	interp.frame.data = data
}

// Eval evaluates Go code represented as a string. Eval returns the last result
// computed by the interpreter, and a non nil error in case of failure.
func (interp *Interpreter) Eval(src string) (res reflect.Value, err error) {
	return interp.eval(src, "", true)
}

// EvalPath evaluates Go code located at path and returns the last result computed
// by the interpreter, and a non nil error in case of failure.
// The main function of the main package is executed if present.
func (interp *Interpreter) EvalPath(path string) (res reflect.Value, err error) {
	path = filepath.ToSlash(path) // Ensure path is in Unix format. Since we work with fs.FS, we need to use Unix path.
	if !isFile(interp.opt.filesystem, path) {
		_, err := interp.importSrc(mainID, path, NoTest)
		return res, err
	}

	b, err := fs.ReadFile(interp.filesystem, path)
	if err != nil {
		return res, err
	}
	return interp.eval(string(b), path, false)
}

// EvalPathWithContext evaluates Go code located at path and returns the last
// result computed by the interpreter, and a non nil error in case of failure.
// The main function of the main package is executed if present.
func (interp *Interpreter) EvalPathWithContext(ctx context.Context, path string) (res reflect.Value, err error) {
	interp.mutex.Lock()
	interp.done = make(chan struct{})
	interp.cancelChan = !interp.opt.fastChan
	interp.mutex.Unlock()

	done := make(chan struct{})
	go func() {
		defer close(done)
		res, err = interp.EvalPath(path)
	}()

	select {
	case <-ctx.Done():
		interp.stop()
		return reflect.Value{}, ctx.Err()
	case <-done:
	}
	return res, err
}

// EvalTest evaluates Go code located at path, including test files with "_test.go" suffix.
// A non nil error is returned in case of failure.
// The main function, test functions and benchmark functions are internally compiled but not
// executed. Test functions can be retrieved using the Symbol() method.
func (interp *Interpreter) EvalTest(path string) error {
	_, err := interp.importSrc(mainID, path, Test)
	return err
}

func isFile(filesystem fs.FS, path string) bool {
	fi, err := fs.Stat(filesystem, path)
	return err == nil && fi.Mode().IsRegular()
}

func (interp *Interpreter) eval(src, name string, inc bool) (res reflect.Value, err error) {
	prog, err := interp.compileSrc(src, name, inc)
	if err != nil {
		return res, err
	}

	if interp.noRun {
		return res, err
	}

	return interp.Execute(prog)
}

// EvalWithContext evaluates Go code represented as a string. It returns
// a map on current interpreted package exported symbols.
func (interp *Interpreter) EvalWithContext(ctx context.Context, src string) (reflect.Value, error) {
	var v reflect.Value
	var err error

	interp.mutex.Lock()
	interp.done = make(chan struct{})
	interp.cancelChan = !interp.opt.fastChan
	interp.mutex.Unlock()

	done := make(chan struct{})
	go func() {
		defer func() {
			if r := recover(); r != nil {
				var pc [64]uintptr
				n := runtime.Callers(1, pc[:])
				err = Panic{Value: hostPanicValue(r), Callers: pc[:n], Stack: debug.Stack()} // toolscript patch 112
			}
			close(done)
		}()
		v, err = interp.Eval(src)
	}()

	select {
	case <-ctx.Done():
		interp.stop()
		return reflect.Value{}, ctx.Err()
	case <-done:
	}
	return v, err
}

// stop sends a semaphore to all running frames and closes the chan
// operation short circuit channel. stop may only be called once per
// invocation of EvalWithContext.
func (interp *Interpreter) stop() {
	atomic.AddUint64(&interp.id, 1)
	// toolscript patch 6: idempotent, so Stop may follow a cancellation.
	interp.mutex.Lock()
	defer interp.mutex.Unlock()
	select {
	case <-interp.done:
	default:
		close(interp.done)
	}
}

// Stop stops every goroutine the last evaluation left running: loops end
// at their next step and channel operations return (toolscript patch 6).
// It may be called after EvalWatch returned, more than once.
func (interp *Interpreter) Stop() {
	interp.mutex.RLock()
	started := interp.done != nil
	interp.mutex.RUnlock()
	if started {
		interp.stop()
	}
}

// ExecuteWatch is ExecuteWithContext without its data race on the results
// when ctx ends first, and it also returns a channel closed when the
// executing goroutine has returned, so a caller whose context ended can
// wait for the program to unwind (toolscript patch 6).
func (interp *Interpreter) ExecuteWatch(ctx context.Context, p *Program) (reflect.Value, <-chan struct{}, error) {
	var v reflect.Value
	var err error

	interp.mutex.Lock()
	interp.done = make(chan struct{})
	interp.cancelChan = !interp.opt.fastChan
	interp.mutex.Unlock()

	// toolscript patch 8: generate the node closures here, before the
	// program's goroutine starts: code generation walks deep and would
	// grow the fresh goroutine's stack (copying it) on every execution.
	if err := generate(p); err != nil {
		return reflect.Value{}, closedChan, err
	}

	done := make(chan struct{})
	go func() {
		defer func() {
			if r := recover(); r != nil {
				var pc [64]uintptr
				n := runtime.Callers(1, pc[:])
				err = Panic{Value: hostPanicValue(r), Callers: pc[:n], Stack: debug.Stack()} // toolscript patch 112
			}
			close(done)
		}()
		growStack(0)
		v, err = interp.Execute(p)
	}()

	select {
	case <-ctx.Done():
		interp.stop()
		return reflect.Value{}, done, ctx.Err()
	case <-done:
	}
	return v, done, err
}

// growStack grows a new goroutine's stack once, while it is one frame
// deep, to the size a short program needs (toolscript patch 14): a reflect
// call of fmt made it grow, and copy every frame of the interpreter's
// deep call chain, in each execution.
//
//go:noinline
func growStack(i int) byte {
	var b [12 << 10]byte
	b[i] = 1
	return b[i/2]
}

// closedChan is returned by ExecuteWatch when nothing ran.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// generate produces a compiled program's node closures once, turning a
// panic of the generator into an error (toolscript patch 8).
func generate(p *Program) (err error) {
	if p.generated {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			var pc [64]uintptr
			n := runtime.Callers(1, pc[:])
			err = Panic{Value: hostPanicValue(r), Callers: pc[:n], Stack: debug.Stack()} // toolscript patch 112
		}
	}()
	if err = genRun(p.root); err == nil {
		p.generated = true
	}
	return err
}

func (interp *Interpreter) runid() uint64 { return atomic.LoadUint64(&interp.id) }

// ignoreScannerError returns true if the error from Go scanner can be safely ignored
// to let the caller grab one more line before retrying to parse its input.
func ignoreScannerError(e *scanner.Error, s string) bool {
	msg := e.Msg
	if strings.HasSuffix(msg, "found 'EOF'") {
		return true
	}
	if msg == "raw string literal not terminated" {
		return true
	}
	if strings.HasPrefix(msg, "expected operand, found '}'") && !strings.HasSuffix(s, "}") {
		return true
	}
	return false
}

// ImportUsed automatically imports pre-compiled packages included by Use().
// This is mainly useful for REPLs, or single command lines. In case of an ambiguous default
// package name, for example "rand" for crypto/rand and math/rand, the package name is
// constructed by replacing the last "/" by a "_", producing crypto_rand and math_rand.
// ImportUsed should not be called more than once, and not after a first Eval, as it may
// rename packages.
func (interp *Interpreter) ImportUsed() {
	sc := interp.universe
	for k := range interp.binPkg {
		// By construction, the package name is the last path element of the key.
		name := path.Base(k)
		if sym := sc.symOf(name); sym != nil { // toolscript patch 9
			// Handle collision by renaming old and new entries.
			name2 := key2name(fixKey(sym.typ.path))
			sc.sym[name2] = sym
			if name2 != name {
				delete(sc.sym, name)
			}
			name = key2name(fixKey(k))
		}
		sc.sym[name] = &symbol{kind: pkgSym, typ: &itype{cat: binPkgT, path: k, scope: sc}}
	}
}

func key2name(name string) string {
	return path.Join(name, DefaultSourceName)
}

func fixKey(k string) string {
	i := strings.LastIndex(k, "/")
	if i >= 0 {
		k = k[:i] + "_" + k[i+1:]
	}
	return k
}

// REPL performs a Read-Eval-Print-Loop on input reader.
// Results are printed to the output writer of the Interpreter, provided as option
// at creation time. Errors are printed to the similarly defined errors writer.
// The last interpreter result value and error are returned.
func (interp *Interpreter) REPL() (reflect.Value, error) {
	in, out, errs := interp.stdin, interp.stdout, interp.stderr
	ctx, cancel := context.WithCancel(context.Background())
	end := make(chan struct{})     // channel to terminate the REPL
	sig := make(chan os.Signal, 1) // channel to trap interrupt signal (Ctrl-C)
	lines := make(chan string)     // channel to read REPL input lines
	prompt := getPrompt(in, out)   // prompt activated on tty like IO stream
	s := bufio.NewScanner(in)      // read input stream line by line
	var v reflect.Value            // result value from eval
	var err error                  // error from eval
	src := ""                      // source string to evaluate

	signal.Notify(sig, os.Interrupt)
	defer signal.Stop(sig)
	prompt(v)

	go func() {
		defer close(end)
		for s.Scan() {
			lines <- s.Text()
		}
		if e := s.Err(); e != nil {
			fmt.Fprintln(errs, e)
		}
	}()

	go func() {
		for {
			select {
			case <-sig:
				cancel()
				lines <- ""
			case <-end:
				return
			}
		}
	}()

	for {
		var line string

		select {
		case <-end:
			cancel()
			return v, err
		case line = <-lines:
			src += line + "\n"
		}

		v, err = interp.EvalWithContext(ctx, src)
		if err != nil {
			switch e := err.(type) {
			case scanner.ErrorList:
				if len(e) > 0 && ignoreScannerError(e[0], line) {
					continue
				}
				fmt.Fprintln(errs, strings.TrimPrefix(e[0].Error(), DefaultSourceName+":"))
			case Panic:
				fmt.Fprintln(errs, e.Value)
				fmt.Fprintln(errs, string(e.Stack))
			default:
				fmt.Fprintln(errs, err)
			}
		}
		if errors.Is(err, context.Canceled) {
			ctx, cancel = context.WithCancel(context.Background())
		}
		src = ""
		prompt(v)
	}
}

func doPrompt(out io.Writer) func(v reflect.Value) {
	return func(v reflect.Value) {
		if v.IsValid() {
			fmt.Fprintln(out, ":", v)
		}
		fmt.Fprint(out, "> ")
	}
}

// getPrompt returns a function which prints a prompt only if input is a terminal.
func getPrompt(in io.Reader, out io.Writer) func(reflect.Value) {
	forcePrompt, _ := strconv.ParseBool(os.Getenv("YAEGI_PROMPT"))
	if forcePrompt {
		return doPrompt(out)
	}
	s, ok := in.(interface{ Stat() (os.FileInfo, error) })
	if !ok {
		return func(reflect.Value) {}
	}
	stat, err := s.Stat()
	if err == nil && stat.Mode()&os.ModeCharDevice != 0 {
		return doPrompt(out)
	}
	return func(reflect.Value) {}
}

// notePanicSite records the position of a panic the first time its value
// is seen (toolscript patch 3).
func (interp *Interpreter) notePanicSite(v interface{}, at, start *node) {
	if at == nil {
		at = start
	}
	interp.panicMu.Lock()
	defer interp.panicMu.Unlock()
	if sameValue(interp.panicValue, v) {
		return
	}
	interp.panicValue = v
	interp.panicPos = interp.fset.Position(at.pos)
	interp.panicFrames = interp.panicFrames[:0] // toolscript patch 22
	interp.panicFunc = ""
	if at.scope != nil {
		interp.panicFunc = panicFunc(at.scope)
	}
}

// PanicSite returns the position and function where the panic with value
// v started, if the interpreter saw it (toolscript patch 3).
func (interp *Interpreter) PanicSite(v interface{}) (token.Position, string, bool) {
	interp.panicMu.Lock()
	defer interp.panicMu.Unlock()
	if interp.panicValue == nil || !sameValue(interp.panicValue, v) {
		return token.Position{}, "", false
	}
	return interp.panicPos, interp.panicFunc, true
}

func sameValue(a, b interface{}) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a == b
}

// toolscript patch 27: compileWatch is the context of a compilation and
// the count of nodes its walks visited.
type compileWatch struct {
	ctx   context.Context
	steps uint
}

// toolscript patch 27: errCompileStopped unwinds a compilation whose
// context is done.
var errCompileStopped = errors.New("compilation stopped")

// CompileWithContext is Compile under ctx (toolscript patch 27): the
// compiler's walks check ctx every few hundred nodes, so a compilation
// that explodes (a recursive generic instantiation, a quadratic walk of
// a deeply nested expression) stops once ctx is done, with an error that
// matches context.Cause(ctx). Not for concurrent use with another
// compilation on the same interpreter.
func (interp *Interpreter) CompileWithContext(ctx context.Context, src string) (p *Program, err error) {
	return interp.compileWatched(ctx, func() (*Program, error) { return interp.Compile(src) }) // toolscript patch 106
}

// CompileFileWithContext is CompileWithContext of a program ParseFile
// parsed into the interpreter's file set (Options.FileSet): the same
// compilation without parsing the source again (toolscript patch 106).
func (interp *Interpreter) CompileFileWithContext(ctx context.Context, f *ast.File) (*Program, error) {
	return interp.compileWatched(ctx, func() (*Program, error) { return interp.compileFile(f) })
}

// compileWatched runs compile under ctx (toolscript patch 27; patch 106:
// shared by CompileWithContext and CompileFileWithContext).
func (interp *Interpreter) compileWatched(ctx context.Context, compile func() (*Program, error)) (p *Program, err error) {
	interp.compileWatch.Store(&compileWatch{ctx: ctx})
	defer func() {
		interp.compileWatch.Store(nil)
		r := recover()
		if ctx.Err() != nil {
			p, err = nil, fmt.Errorf("%w: %w", errCompileStopped, context.Cause(ctx))
			return
		}
		if r != nil {
			panic(r)
		}
	}()
	p, err = compile()         // toolscript patch 106
	return p, syntaxError(err) // toolscript patch 21: a syntax error is an *Error too
}

// toolscript patch 27: interpWatch is the compile watch of n's
// interpreter, if any.
func (n *node) interpWatch() *compileWatch {
	if n.interp == nil {
		return nil
	}
	return n.interp.compileWatch.Load()
}
