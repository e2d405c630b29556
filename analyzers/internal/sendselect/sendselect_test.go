package sendselect_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/sendselect"
)

// check type-checks a file whose function f holds one select in a loop.
func check(t *testing.T, body string) (*types.Info, *ast.SelectStmt, *ast.ForStmt) {
	t.Helper()
	src := `package p

import (
	"context"
	"log"
	"math/rand"
	"runtime"
	"sync/atomic"
	"time"
)

var (
	_ = context.Background
	_ = log.Print
	_ = rand.Intn
	_ = runtime.Gosched
	_ = time.Sleep
	_ atomic.Int64
)

func f(ctx context.Context, ch chan int, v int, n *atomic.Int64) int {
	delay := time.Millisecond
	_ = delay
` + body + `
	return 0
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{
		Types: make(map[ast.Expr]types.TypeAndValue),
		Defs:  make(map[*ast.Ident]types.Object),
		Uses:  make(map[*ast.Ident]types.Object),
	}
	conf := types.Config{Importer: importer.Default()}
	if _, err := conf.Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	var sel *ast.SelectStmt
	var loop *ast.ForStmt
	ast.Inspect(file, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt:
			if loop == nil {
				loop = n
			}
		case *ast.SelectStmt:
			if sel == nil {
				sel = n
			}
		}
		return true
	})
	return info, sel, loop
}

func TestMatch(t *testing.T) {
	for _, tt := range []struct {
		body string
		want bool
	}{
		{"select {\ncase ch <- v:\ndefault:\n}", true},
		{"select {\ndefault:\ncase ch <- v:\n}", true},
		{"select {\ncase ch <- v:\ncase <-ctx.Done():\n}", false},
		{"select {\ncase <-ch:\ndefault:\n}", false},
		{"select {\ncase ch <- v:\ncase <-ctx.Done():\ndefault:\n}", false},
	} {
		_, sel, _ := check(t, tt.body)
		if _, got := sendselect.Match(sel); got != tt.want {
			t.Errorf("Match(%q) = %v, want %v", tt.body, got, tt.want)
		}
	}
}

func TestCase(t *testing.T) {
	for _, tt := range []struct {
		name    string
		dflt    string
		idle    bool
		waits   int
		sleep   bool
		end     sendselect.End
		honours bool
	}{
		{"empty", "", true, 0, false, sendselect.Falls, false},
		{"continue", "continue", true, 0, false, sendselect.Continues, false},
		{"break leaves the select only", "break", true, 0, false, sendselect.Falls, false},
		{"sleep", "time.Sleep(delay)", true, 1, true, sendselect.Falls, false},
		{"gosched", "runtime.Gosched()", true, 1, false, sendselect.Falls, false},
		{"backoff", "time.Sleep(delay)\ndelay = min(delay*2, time.Second)", true, 1, true, sendselect.Falls, false},
		{"log and count", "log.Printf(\"full\")\nn.Add(1)\ncontinue", true, 0, false, sendselect.Continues, false},
		{"timer receive", "<-time.After(delay)", true, 1, false, sendselect.Falls, false},
		{"cancellable wait", "select {\ncase <-time.After(delay):\ncase <-ctx.Done():\nreturn 1\n}", true, 1, false, sendselect.Falls, true},
		{"return", "return 1", true, 0, false, sendselect.Returns, false},
		{"panic", "panic(\"full\")", true, 0, false, sendselect.Panics, false},
		{"fatal", "log.Fatal(\"full\")", true, 0, false, sendselect.Panics, false},
		{"capped backoff", "time.Sleep(delay)\nif delay < time.Second {\ndelay *= 2\n}", true, 1, true, sendselect.Falls, false},
		{"capped backoff, else", "time.Sleep(delay)\nif delay >= time.Second {\ndelay = time.Second\n} else if v > 0 {\ndelay *= 2\n} else {\nv++\n}", true, 1, true, sendselect.Falls, false},
		{"jitter", "j := time.Duration(rand.Int63n(int64(delay)))\ntime.Sleep(delay + j)", true, 1, true, sendselect.Falls, false},
		{"if that gives up", "time.Sleep(delay)\nif delay > time.Second {\nreturn 1\n}", false, 1, true, sendselect.Falls, false},
		{"if that calls", "time.Sleep(delay)\nif f(ctx, ch, v, n) > 0 {\ndelay *= 2\n}", false, 1, true, sendselect.Falls, false},
		{"if that works", "time.Sleep(delay)\nif delay > time.Second {\nv = f(ctx, ch, v, n)\n}", false, 1, true, sendselect.Falls, false},
		{"work", "v = v + f(ctx, ch, v, n)", false, 0, false, sendselect.Falls, false},
		{"send", "ch <- v", false, 0, false, sendselect.Falls, false},
	} {
		info, sel, loop := check(t, "for {\nselect {\ncase ch <- v:\nreturn 0\ndefault:\n"+tt.dflt+"\n}\n}")
		nb, ok := sendselect.Match(sel)
		if !ok || loop == nil {
			t.Fatalf("%s: no non-blocking send in a loop", tt.name)
		}
		p := sendselect.Case(info, nb.Default.Body, nil, nil)
		if p.Idle != tt.idle || len(p.Waits) != tt.waits || (p.Sleep != nil) != tt.sleep || p.End != tt.end || p.HonoursCtx != tt.honours {
			t.Errorf("%s: Case = idle %v, %d waits, sleep %v, end %v, honours %v; want %v, %d, %v, %v, %v",
				tt.name, p.Idle, len(p.Waits), p.Sleep != nil, p.End, p.HonoursCtx, tt.idle, tt.waits, tt.sleep, tt.end, tt.honours)
		}
	}
}

func TestLoopBody(t *testing.T) {
	// Directly in a loop body, an unlabeled break leaves the loop.
	info, _, loop := check(t, "for {\nselect {\ncase ch <- v:\ndefault:\ncontinue\n}\nbreak\n}")
	p := sendselect.LoopBody(info, loop.Body.List[1:], nil, nil)
	if p.End != sendselect.Branches || !p.End.Leaves() {
		t.Errorf("LoopBody(break).End = %v, want Branches", p.End)
	}
}

func TestCallFree(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  bool
	}{
		{"min(v, 2) * int(delay)", true},
		{"v + len(ch)", true},
		{"<-ch", false},
		{"f(ctx, ch, v, n)", false},
		{"int(n.Load())", false},
	} {
		info, sel, _ := check(t, "select {\ncase ch <- "+tt.value+":\ndefault:\n}")
		nb, _ := sendselect.Match(sel)
		if got := code.CallFree(info, nil, nb.Send.Value); got != tt.want {
			t.Errorf("CallFree(%s) = %v, want %v", tt.value, got, tt.want)
		}
	}
}
