// Package mockless is the same queue outside test support: reported.
package mockless

import "sync"

type Producer struct {
	mu           sync.Mutex
	expectations []string
}

func (p *Producer) Expect(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expectations = append(p.expectations, s) // want `slice queue p.expectations grows without bound`
}

func (p *Producer) Send() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.expectations[0]
	p.expectations = p.expectations[1:]
	return e
}
