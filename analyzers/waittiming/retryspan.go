package waittiming

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/calls"
	"github.com/queuecheck/queuecheck/analyzers/internal/code"
	"github.com/queuecheck/queuecheck/analyzers/internal/knowledge"
)

// Retries hide behind package boundaries as well as inside a package's own
// helpers: a client library's Upload that loops over attempts with a
// backoff, a service's shared doWithRetry. Three sources say that a call of
// another package retries with pauses:
//
//   - a retriesFact, exported by the package that declares an exported
//     function whose body holds a retry loop (the loop retryInBody finds: it
//     attempts work, pauses between attempts and leaves on the outcome);
//   - the library calls that retry by option (knowledge list retrying-calls,
//     extended with -waittiming.retries): cenkalti/backoff's Retry,
//     retry-go's Do, go-retryablehttp's Client methods, k8s.io's
//     ExponentialBackoff and RetryOnConflict. Their option builders
//     (backoff.NewExponentialBackOff, retry.Attempts) are configuration,
//     not work, in the span;
//   - the clients of SDKs that retry every request by default (knowledge
//     list retrying-client-trees: the AWS SDK, v1 and v2, and the Azure
//     SDK), whose operations are too many to list: retriesByDefault.
//
// A measurement whose only work is such a call is reported like one of a
// helper of the package (hidden.go), without a fix.

// retriesFact is the fact of an exported function whose main path retries
// an attempt with pauses between attempts.
type retriesFact struct {
	Pause string // what pauses between attempts: "time.Sleep", "(*backoff.Backoff).Wait"
	// Result is set when it is not the function that retries but the
	// function it returns: runner := NewRunner(ctx, policy); runner(op).
	Result bool
}

func (*retriesFact) AFact() {}

func (f *retriesFact) String() string {
	if f.Result {
		return "returns a function that retries between " + f.Pause
	}
	return "retries between " + f.Pause
}

// retryingCalls are the library calls that retry by option.
var retryingCalls = calls.NewRetrying("-waittiming.retries")

// libraryPause names what separates the attempts of a library call that
// retries by option.
const libraryPause = "the delays its retry options set"

// sdkPause names what separates the attempts of an SDK client's operation
// that retries by default.
const sdkPause = "the backoff of its SDK's default retries"

// exportRetries records a retriesFact for every exported function of the
// package, outside test files, whose body retries with pauses, or that
// wraps a function that does (wrappedRetry). The standard
// library declares no such helper worth the walk.
func (c *retrier) exportRetries() {
	if code.IsStd(c.pass) {
		return
	}
	retrying := false
	for file := range c.insp.Root().Children() {
		if strings.HasSuffix(c.pass.Fset.File(file.Node().Pos()).Name(), "_test.go") {
			continue
		}
		for d := range file.Children() {
			fd, ok := d.Node().(*ast.FuncDecl)
			if !ok || fd.Body == nil || !fd.Name.IsExported() {
				continue
			}
			fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			if r := c.retriesOf(fn); r != nil {
				c.pass.ExportObjectFact(fn, &retriesFact{Pause: r.name})
				retrying = true
			} else if r := c.resultRetriesOf(fn); r != nil {
				c.pass.ExportObjectFact(fn, &retriesFact{Pause: r.name, Result: true})
			}
		}
	}
	if retrying {
		c.exportIfaceRetries()
	}
}

// exportIfaceRetries records a retriesFact for each method of an interface
// the package declares whose every implementation in the package retries
// (and there is one): a constructor that returns the interface hides an
// unexported implementation from its importers, which see only the
// interface (scheduling.New returns Scheduling).
func (c *retrier) exportIfaceRetries() {
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		iface, ok := tn.Type().Underlying().(*types.Interface)
		if !ok {
			continue
		}
		for m := range iface.ExplicitMethods() {
			if r, ok := c.implsRetry(m); ok {
				c.pass.ExportObjectFact(m, &retriesFact{Pause: r.name})
			}
		}
	}
}

// retriesElsewhere returns what pauses between the attempts of fn, a
// function of another package: its retriesFact, or the delays of a library
// call that retries by option.
func (c *retrier) retriesElsewhere(fn *types.Func) (string, bool) {
	if retryingCalls.Contains(fn) {
		return libraryPause, true
	}
	if retriesByDefault(fn) {
		return sdkPause, true
	}
	var f retriesFact
	if c.pass.ImportObjectFact(fn.Origin(), &f) && !f.Result {
		return f.Pause, true
	}
	return "", false
}

// dropRetryOptions leaves out of the calls of a span those of the package
// of a library call that retries by option, other than the call itself:
// backoff.NewExponentialBackOff(), retry.Attempts(3) configure the retries.
// Of an SDK whose clients retry by default, its packages' calls that take
// no context build the input (aws.String(bucket), to.Ptr(name)); one that
// takes a context is work of its own (a poller's PollUntilDone, a
// waiter's Wait, an uploader's Upload).
func (c *retrier) dropRetryOptions(cs []inspector.Cursor) []inspector.Cursor {
	var lib *types.Package
	sdk := false
	for _, cur := range cs {
		fn := code.Callee(c.pass.TypesInfo, cur.Node().(*ast.CallExpr))
		switch {
		case fn == nil:
		case retryingCalls.Contains(fn):
			lib = fn.Pkg()
		case retriesByDefault(fn):
			sdk = true
		}
	}
	if lib == nil && !sdk {
		return cs
	}
	var out []inspector.Cursor
	for _, cur := range cs {
		fn := code.Callee(c.pass.TypesInfo, cur.Node().(*ast.CallExpr))
		if fn != nil && !retryingCalls.Contains(fn) && !retriesByDefault(fn) &&
			(lib != nil && fn.Pkg() == lib || sdk && fn.Pkg() != nil && knowledge.RetryingClientTrees.Match(fn.Pkg().Path()) && !code.TakesContext(fn)) {
			continue
		}
		out = append(out, cur)
	}
	return out
}

// retriesByDefault reports whether fn is an operation of an SDK client that
// retries every request by default (knowledge list retrying-client-trees):
// an exported method of the SDK that takes a context first and returns an
// error, of a type named like a client or, in the AWS SDK's first version,
// named ...WithContext on a service client (a struct that embeds the SDK's
// *client.Client: credentials and the s3manager's transfers are no
// request of their own). Left out by name (non-retrying-sdk-methods),
// since their time is not attempts and pauses: waiters and polls (Wait…,
// Poll…), receives that block until messages arrive (Receive…),
// presigners, which only sign, and Close.
func retriesByDefault(fn *types.Func) bool {
	if fn.Pkg() == nil || !fn.Exported() || !knowledge.RetryingClientTrees.Match(fn.Pkg().Path()) {
		return false
	}
	recv := code.NamedOf(code.Recv(fn))
	if recv == nil || types.IsInterface(recv) {
		return false
	}
	name := fn.Name()
	if knowledge.NonRetryingSDKMethods.Match(name) {
		return false
	}
	switch {
	case strings.HasSuffix(recv.Obj().Name(), "Client"):
	case strings.HasSuffix(name, "WithContext") && embedsServiceClient(recv):
	default:
		return false
	}
	results := fn.Signature().Results()
	return code.TakesContext(fn) && results.Len() > 0 && code.IsError(results.At(results.Len()-1).Type())
}

// embedsServiceClient reports whether t is a struct that embeds a pointer
// to a type named Client of the SDK (the AWS SDK v1's service clients:
// type S3 struct{ *client.Client }).
func embedsServiceClient(t *types.Named) bool {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for f := range st.Fields() {
		n := code.NamedOf(f.Type())
		if f.Embedded() && n != nil && n.Obj().Name() == "Client" && n.Obj().Pkg() != nil &&
			knowledge.RetryingClientTrees.Match(n.Obj().Pkg().Path()) {
			return true
		}
	}
	return false
}
