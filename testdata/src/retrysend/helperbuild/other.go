//go:build queuecheck_other

package helperbuild

func (b *box) offer(v int) bool { return b.tryPut(v) }
