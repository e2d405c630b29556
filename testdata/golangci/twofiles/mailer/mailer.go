package mailer

func (m *Mailer) Send(to string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pending = append(m.pending, to) // want:unboundedqueue
	return nil
}

func (m *Mailer) run() {
	for {
		m.mu.Lock()
		if len(m.pending) > 0 {
			m.pending = m.pending[1:]
		}
		m.mu.Unlock()
	}
}
