package engine

import (
	"context"
	"io"
	"sync"
	"time"

	"github.com/toolscript/toolscript/internal/policy"
)

// hooks are the execution as the per-execution replacements of
// internal/policy see it (policy.Hooks): each hook is the guard, limit or
// stream of the execution that a replaced symbol uses.
type hooks struct{ x *execution }

var _ policy.Hooks = hooks{}

func (h hooks) Stdout() io.Writer                        { return h.x.stdout }
func (h hooks) Stderr() io.Writer                        { return h.x.stderr }
func (h hooks) CheckPrint(fn string, args []any)         { h.x.checkPrint(fn, args) }
func (h hooks) CheckTemplate(data any) any               { return h.x.checkTemplate(data) }
func (h hooks) CheckAlloc(call string, size uint64)      { h.x.checkAlloc(call, size) }
func (h hooks) MaxAllocBytes() int64                     { return h.x.limits.MaxAllocBytes }
func (h hooks) CheckRepeat(unit, count int)              { h.x.checkRepeat(unit, count) }
func (h hooks) Sleep(d time.Duration)                    { h.x.sleep(d) }
func (h hooks) Exit(code int)                            { h.x.exit(code) }
func (h hooks) Parent(c context.Context) context.Context { return h.x.parent(c) }
func (h hooks) WaitGroupAdd(wg *sync.WaitGroup, delta int) {
	h.x.waits.add(h.x, wg, delta)
}
func (h hooks) WaitGroupGo(wg *sync.WaitGroup, f func()) { h.x.waitGroupGo(wg, f) }
func (h hooks) AfterFunc(d time.Duration, f func()) *time.Timer {
	return h.x.afterFunc(d, f)
}
func (h hooks) ContextAfterFunc(c context.Context, f func()) func() bool {
	return h.x.contextAfterFunc(c, f)
}
