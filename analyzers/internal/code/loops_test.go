package code_test

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/code"
)

func TestCountsUp(t *testing.T) {
	_, f, info, _ := loadSrc(t, `package p

type c struct{ n int }

func f(max int, k *c) {
	for i := 0; i < 3; i++ {}
	for i := 0; i <= max; i++ {}
	for i := 0; i < max; i++ {}
	for i := 3; i < 3; i++ {}
	for k.n = 0; k.n < 3; k.n++ {}
	for i := 0; i > -3; i-- {}
	for {}
}`)
	type want struct{ counts, toConst bool }
	wants := []want{{true, true}, {true, false}, {true, false}, {true, false}, {false, false}, {false, false}, {false, false}}
	i := 0
	ast.Inspect(f, func(n ast.Node) bool {
		fs, ok := n.(*ast.ForStmt)
		if !ok {
			return true
		}
		_, _, _, counts := code.CountsUp(info, fs)
		if got := (want{counts, code.CountsToConst(info, fs)}); got != wants[i] {
			t.Errorf("loop %d: CountsUp, CountsToConst = %v, want %v", i, got, wants[i])
		}
		i++
		return true
	})
	if i != len(wants) {
		t.Fatalf("saw %d loops, want %d", i, len(wants))
	}
}

func TestAwaitedAt(t *testing.T) {
	_, f, info, _ := loadSrc(t, `package p

func work() error { return nil }

func awaited() error {
	done := make(chan error, 1)
	go func() { done <- work() }()
	return <-done
}

func closed() {
	done := make(chan struct{})
	go func() { defer close(done); _ = work() }()
	select {
	case <-done:
	}
}

func forgotten() {
	done := make(chan error, 1)
	go func() { done <- work() }()
}

func inLoop(n int) {
	done := make(chan error, n)
	for range n {
		go func() { done <- work() }()
	}
	for range n {
		<-done
	}
}

func received(ch chan error) {
	go func() { ch <- work() }()
	<-ch
}

func started() {
	ready := make(chan struct{})
	go func() {
		close(ready)
		_ = work()
	}()
	<-ready
}

func signalled() {
	ready := make(chan error, 1)
	go func() {
		ready <- nil
		_ = work()
	}()
	<-ready
}

func erred() {
	done := make(chan error, 1)
	go func() {
		if err := work(); err != nil {
			done <- err
			return
		}
		done <- work()
	}()
	<-done
}

func laterLiteral() {
	done := make(chan error, 1)
	go func() { done <- work() }()
	f := func() { <-done }
	_ = f
}
`)
	want := map[string]bool{"awaited": true, "closed": true, "forgotten": false, "inLoop": false, "received": true, "laterLiteral": false, "started": false, "signalled": false, "erred": true}
	in := inspector.New([]*ast.File{f})
	for cur := range in.Root().Preorder((*ast.GoStmt)(nil)) {
		name := code.EnclosingFunc(cur).Node().(*ast.FuncDecl).Name.Name
		if got := code.AwaitedAt(info, cur).IsValid(); got != want[name] {
			t.Errorf("%s: awaited = %v, want %v", name, got, want[name])
		}
	}
}
