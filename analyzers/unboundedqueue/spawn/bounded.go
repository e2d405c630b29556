package spawn

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/queuecheck/queuecheck/analyzers/unboundedqueue/internal/shared"
)

// A kind is one of the spawn kinds.
type kind int

const (
	kindPerSend kind = iota // goroutinepersend
	kindPerItem             // goroutineperitem
	kindFanOut              // fanout
)

// A candidate is a spawn a kind looks at, with what the rules ask about it.
type candidate struct {
	sp     spawn
	cur    inspector.Cursor // the spawn
	loop   inspector.Cursor // the loop it runs in (kindPerItem, kindFanOut)
	fn     inspector.Cursor // the function around it (kindPerSend)
	ch     *types.Var       // the channel it sends to (kindPerSend)
	stream ast.Expr         // where the items come from (kindPerItem, kindFanOut)
	recv   ast.Node         // the read that takes the item, or nil (kindPerItem)
}

// chains gives, per kind, the rules bounded asks, in order: the first that
// holds is the reason. The orders are those of the chains of predicates the
// kinds asked before the rules had names (one predicate, perEntity, is now
// three rules: entity-items, long-lived, lives-until-stop); as every rule is
// a question without side effects, the order decides only which rule is named, never whether a
// spawn is reported. The kinds differ: a goroutine per send is kept only by
// a reason not to send in place (a deadlock, retrysend's overflow); a spawn
// per item is asked first what limits the loop, then what makes the stream
// or the goroutine not per message; a fan-out needs work that takes a
// context, and asks only the loop limits (not-a-listing and
// no-bounded-sibling it decides for the whole loop, in fanOuts).
var chains = [...][]*rule{
	kindPerSend: {ruleConsumesHere, ruleLockHeld, ruleOverflowDefault},
	kindPerItem: {
		rulePerSendFinding, ruleNoIterationState, ruleAcquiredBefore, ruleCountGuard, ruleWaitsEach, ruleCounterCap,
		ruleEntityItems, ruleLongLived, ruleLivesUntilStop, ruleRestartsWorker, ruleLimitedGroup,
		ruleAMQPPrefetch, ruleLockstepReply, ruleFiniteStream,
	},
	kindFanOut: {ruleNoIterationState, ruleNoContext, ruleAcquiredBefore, ruleCountGuard, ruleWaitsEach, ruleCounterCap, ruleLimitedGroup},
}

// bounded reports the rule that keeps the kind from reporting the spawn x,
// or false when none holds and the spawn is a finding.
func (c *checker) bounded(k kind, x candidate) (*rule, bool) {
	c.asked[x.cur.Node()] = true
	for _, r := range chains[k] {
		if r.holds(c, x) {
			c.silenced(r, x.cur)
			return r, true
		}
	}
	return nil, false
}

// askedSpawns are the spawns a kind asked bounded about.
type askedSpawns map[ast.Node]bool

// sayNotAsked says, of each spawn of the package that no kind asked
// bounded about (nor reported), the rule that says why no kind counts it:
// not-per-item in a loop, not-in-loop outside one. The user who wonders
// why a goroutine is not reported learns that no kind looked at it.
func (a askedSpawns) sayNotAsked(c *checker) {
	for _, cur := range c.sh.GoStmts {
		a.sayOne(c.sh, cur)
	}
	for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		if sp, ok := c.spawnAt(cur); ok && sp.kind != "go" {
			a.sayOne(c.sh, cur)
		}
	}
}

// sayOne says, of the spawn at cur, why no kind counts it, unless one asked.
func (a askedSpawns) sayOne(sh *shared.Pkg, cur inspector.Cursor) {
	switch {
	case a[cur.Node()]:
	case shared.NearestLoop(cur) != nil:
		sh.Rep.Silence(cur.Node(), ruleNotPerItem.Rule)
	default:
		sh.Rep.Silence(cur.Node(), ruleNotInLoop.Rule)
	}
}

// silenced records that r kept the spawn at cur from being reported.
func (c *checker) silenced(r *rule, cur inspector.Cursor) {
	c.asked[cur.Node()] = true
	c.sh.Rep.Silence(cur.Node(), r.Rule)
}

// silencedAll records that r, decided for a whole loop, kept each of its
// spawns from being reported.
func (c *checker) silencedAll(r *rule, items []perItem) {
	for _, it := range items {
		c.silenced(r, it.cur)
	}
}
