// Package mocks is test support by name (sarama's mocks hold expectations in
// a slice queue): nothing in it is reported.
package mocks

import "sync"

type Producer struct {
	mu           sync.Mutex
	expectations []string
}

func (p *Producer) Expect(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.expectations = append(p.expectations, s)
}

func (p *Producer) Send() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	e := p.expectations[0]
	p.expectations = p.expectations[1:]
	return e
}
