package fuzz

import "time"

// Polling loops whose budgets stress the attempt player: odd constants,
// overflowing shifts, divisions by zero and type errors.

func shifts(ch chan int, v int) bool {
	for i := 0; i < 80; i++ {
		select {
		case ch <- v:
			return true
		default:
			time.Sleep(time.Nanosecond << i)
		}
	}
	return false
}

func divides(ch chan int, v int) bool {
	d := time.Second
	for i := 0; i < 3; i++ {
		select {
		case ch <- v:
			return true
		default:
			time.Sleep(d / time.Duration(i))
			d %= time.Duration(i - 1)
		}
	}
	return false
}

func floats(ch chan int, v int) bool {
	d := 1.5
	for i := 0; i < 3; i++ {
		select {
		case ch <- v:
			return true
		default:
			time.Sleep(time.Duration(d * float64(time.Millisecond)))
			d = -d * 2
			if !(d > 2) {
				d = +d
			}
		}
	}
	return false
}

func illTyped(ch chan int, v int) bool {
	d := "soon"
	for i := 0; i < 3; i++ {
		select {
		case ch <- v:
			return true
		default:
			time.Sleep(d)
			d = d + 1
			if d < true {
				d = -d
			}
		}
	}
	return false
}

func huge(ch chan int, v int) bool {
	d := time.Duration(1 << 62)
	for i := 0; i < 1000000; i++ {
		select {
		case ch <- v:
			return true
		default:
			time.Sleep(d)
			d *= 4
		}
	}
	for i := 0; i < 9000; i++ {
		select {
		case ch <- v:
			return true
		default:
			time.Sleep(d)
			d = min(d*2, 1<<62, d+1)
		}
	}
	return false
}
