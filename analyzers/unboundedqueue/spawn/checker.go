package spawn

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/internal/admission"
	"github.com/queuecheck/queuecheck/analyzers/internal/edits"
	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A checker holds what one pass has learned for the spawn kinds.
type checker struct {
	sh   *shared.Pkg // what the queue kinds use too
	pass *analysis.Pass
	insp *inspector.Inspector
	adm  *admission.Finder

	loops    []inspector.Cursor // every for and range statement
	inFlight int64              // the limit a fix's semaphore allows

	persend  map[*ast.GoStmt]bool // go statements reported as goroutinepersend
	asked    askedSpawns          // the spawns a kind asked bounded about
	siblings []siblingBound       // the package's bounded fan-outs, built on first use
	findings []*shared.Finding

	grows map[*types.Var]growth // map fields stored into at run time, built on first use (provenance.go)

	perCall *PerCallResult // the functions that spawn per call, of this package and its imports (percall.go)

	services      []*types.TypeName // RPC service interfaces a registration function registers, built on first use (detached.go)
	servicesBuilt bool
}

// Check finds the spawn kinds in the package sh describes, given its loops
// (every for and range statement of the production files) and the number of
// goroutines in flight a fix allows, and the per-call facts (percall.go), and returns their findings, in the
// order goroutinepersend, goroutineperitem, fanout. sh.Adm must be set.
func Check(sh *shared.Pkg, loops []inspector.Cursor, inFlight int64, perCall *PerCallResult) []*shared.Finding {
	c := &checker{
		sh:       sh,
		pass:     sh.Pass,
		insp:     sh.Insp,
		adm:      sh.Adm,
		loops:    loops,
		inFlight: inFlight,
		persend:  make(map[*ast.GoStmt]bool),
		asked:    make(askedSpawns),
		perCall:  perCall,
	}
	perSender{chk: c, pass: c.pass, sh: sh}.goroutinesPerSend()
	c.goroutinesPerItem()
	c.fanOuts()
	dataSizes{c}.indexFanOuts()           // datasize.go
	dataSizes{c}.perCallFanOuts()         // spawncall.go
	dataSizes{c}.perCallItems()           // spawncall.go
	requestSpawns{c}.leakedReceivers()    // leaked.go
	requestSpawns{c}.abandonedSenders()   // abandoned.go
	requestSpawns{c}.unsignalledWaiters() // unsignalled.go
	requestSpawns{c}.detachedSpawns()     // detached.go
	requestSpawns{c}.detachedCalls()      // spawncall.go
	requestSpawns{c}.asyncWrapCalls()     // asyncwrap.go
	keySpawns{c}.perKeySpawns()           // perkey.go
	c.asked.sayNotAsked(c)
	return c.findings
}

// A fixer builds the findings of the spawn kinds and their fixes.
type fixer struct {
	sh    *shared.Pkg
	pass  *analysis.Pass
	insp  *inspector.Inspector
	names *edits.Names
}

func newFixer(sh *shared.Pkg) fixer {
	return fixer{sh: sh, pass: sh.Pass, insp: sh.Insp, names: sh.Names}
}

// A perSender finds goroutines that only send (goroutinepersend), and
// reports them through chk.
type perSender struct {
	chk  *checker
	pass *analysis.Pass
	sh   *shared.Pkg
}
