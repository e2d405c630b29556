package multifile

func (s *scheduler) addLow(t task) {
	s.mu.Lock()
	s.low = append(s.low, t) // want `slice queue s.low grows without bound`
	s.mu.Unlock()
}

func (s *scheduler) next() (task, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var t task
	switch {
	case len(s.high) > 0:
		t, s.high = s.high[0], s.high[1:]
	case len(s.low) > 0:
		t, s.low = s.low[0], s.low[1:]
	default:
		return t, false
	}
	return t, true
}
