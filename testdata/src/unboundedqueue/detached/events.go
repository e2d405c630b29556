package detached

import (
	"sync"

	"k8s.io/client-go/tools/cache"

	"unboundedqueue/detached/cluster"
)

// Pod stands for an informer's object.
type Pod struct{ Name, UID string }

type reporter struct {
	client cluster.Client
	mu     sync.Mutex
	seen   map[string]bool
}

// cleanup deletes through the interface, whose one implementation calls
// the API server: blocking work.
func (r *reporter) cleanup(p *Pod) {
	_ = r.client.DeleteService(p.Name)
}

// remember only takes a lock and writes a map.
func (r *reporter) remember(p *Pod) {
	r.mu.Lock()
	r.seen[r.client.CachedName(p.UID)] = true
	r.mu.Unlock()
}

// handlers starts a goroutine per informer event: each keeps calling the
// API server after the callback returns, and nothing limits how many.
func (r *reporter) handlers() cache.ResourceEventHandlerFuncs {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj interface{}) {
			p, ok := obj.(*Pod)
			if !ok {
				return
			}
			go r.cleanup(p) // want `goroutine started per ResourceEventHandlerFuncs.AddFunc event by a function literal in \(\*reporter\).handlers outlives it: it keeps doing blocking work \(r.cleanup\)`
		},
		UpdateFunc: func(oldObj, newObj interface{}) {
			p, ok := newObj.(*Pod)
			if !ok {
				return
			}
			go r.remember(p) // why: no-blocking-work
		},
	}
}

// OnDelete is the informer's callback through the interface.
func (r *reporter) OnDelete(obj interface{}) {
	if p, ok := obj.(*Pod); ok {
		go r.cleanup(p) // want `goroutine started per ResourceEventHandler.OnDelete event by \(\*reporter\).OnDelete outlives it`
	}
}

func (r *reporter) OnAdd(obj interface{}, isInInitialList bool) {}
func (r *reporter) OnUpdate(oldObj, newObj interface{})         {}

// register hands the callbacks over once: a literal that is not an
// event framework's callback starts one goroutine per call of register.
func (r *reporter) register(inf cache.Informer, p *Pod) {
	_ = inf.AddEventHandler(r.handlers())
	_ = inf.AddEventHandler(r)
	done := func() {
		go r.cleanup(p) // why: not-in-loop
	}
	done()
}
