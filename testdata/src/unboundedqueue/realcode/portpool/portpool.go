// Package portpool is tailscale's stunstamp port pool (a false alarm of an
// earlier version): a free list filled up front with a counting loop; get
// takes the first port and put gives one back, so it never holds more than
// it was filled with.
package portpool

import "sync"

type lportsPool struct {
	sync.Mutex
	ports []int
}

func (pl *lportsPool) get() int {
	pl.Lock()
	defer pl.Unlock()
	ret := pl.ports[0]
	pl.ports = append(pl.ports[:0], pl.ports[1:]...)
	return ret
}

func (pl *lportsPool) put(i int) {
	pl.Lock()
	defer pl.Unlock()
	pl.ports = append(pl.ports, i)
}

var lports *lportsPool

const (
	lportPoolSize = 16000
	lportBase     = 2048
)

func init() {
	lports = &lportsPool{ports: make([]int, 0, lportPoolSize)}
	for i := lportBase; i < lportBase+lportPoolSize; i++ {
		lports.ports = append(lports.ports, i)
	}
}

// The near miss: the same queue without the fill is a work queue.
type jobs struct {
	sync.Mutex
	ids []int
}

func (j *jobs) next() int {
	j.Lock()
	defer j.Unlock()
	ret := j.ids[0]
	j.ids = append(j.ids[:0], j.ids[1:]...)
	return ret
}

func (j *jobs) add(id int) {
	j.Lock()
	defer j.Unlock()
	j.ids = append(j.ids, id) // want `slice queue j.ids grows without bound`
}
