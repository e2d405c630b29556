// Package mailer declares its queue in one file and fills it in another:
// the unboundedqueue fix edits both (the limit beside the type, the guard
// beside the append).
package mailer

import "sync"

type Mailer struct {
	mu      sync.Mutex
	pending []string
}
