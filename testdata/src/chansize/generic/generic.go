package generic

// Queue is generic: the element size is unknown, so only the count limit applies.
type Queue[T any] struct{ ch chan T }

func New[T any]() *Queue[T] {
	return &Queue[T]{ch: make(chan T, 1<<20)} // want `channel buffer of 1048576 items stores overload`
}

func Small[T any]() chan T {
	return make(chan T, 4096)
}

type pair[K comparable, V any] struct {
	k K
	v V
}

func Pairs[K comparable, V any]() chan pair[K, V] {
	return make(chan pair[K, V], 70000) // want `channel buffer of 70000 items stores overload`
}

// A type declared inside a generic function uses T without type arguments.
func Local[T any]() {
	type entry struct {
		key T
		n   int
	}
	ch := make(chan entry, 100) // size unknown, count below the limit
	_ = ch
	big := make(chan entry, 1<<17) // want `channel buffer of 131072 items stores overload`
	_ = big
}
