// Package worker sizes a buffer by a package constant.
package worker

type job struct{ id, size, prio int64 }

// backlog sizes the job channel and nothing else.
const backlog = 50000

// Jobs is the work queue.
var Jobs = make(chan job, backlog)

//queuecheck:ignore chansize replay buffer, drained at startup before traffic
var replay = make(chan job, 100000)

// Len reports the queue length.
func Len() int { return len(Jobs) + len(replay) }
