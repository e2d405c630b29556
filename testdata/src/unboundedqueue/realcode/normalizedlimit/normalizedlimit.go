// Package normalizedlimit is a false goroutineperitem finding from the
// corpus run: github.com/RichardKnop/machinery, v2/brokers/redis/goredis.go,
// (*BrokerGR).consume (and the same code in v2/brokers/redis/redis.go,
// (*Broker).consume).
//
// The acquire is guarded by `if concurrency > 0`, but the only caller,
// StartConsuming, replaces a concurrency below 1 with runtime.NumCPU() * 2
// before it calls consume, so the guard always holds and every spawn waits
// for a token of the pre-filled pool. No finding is wanted. (The AMQP
// broker's consume has the same code without the normalisation: there a
// worker concurrency of 0 means no limit, judged debatable.)
package normalizedlimit

import "runtime"

type redisBroker struct {
	stop chan struct{}
}

func (b *redisBroker) StartConsuming(concurrency int, deliveries <-chan []byte) {
	if concurrency < 1 {
		concurrency = runtime.NumCPU() * 2
	}
	b.consume(deliveries, concurrency)
}

func process([]byte) error { return nil }

func (b *redisBroker) consume(deliveries <-chan []byte, concurrency int) error {
	errorsChan := make(chan error, concurrency*2)
	pool := make(chan struct{}, concurrency)
	go func() {
		for i := 0; i < concurrency; i++ {
			pool <- struct{}{}
		}
	}()
	for {
		select {
		case err := <-errorsChan:
			return err
		case d, open := <-deliveries:
			if !open {
				return nil
			}
			if concurrency > 0 {
				select {
				case <-b.stop:
					continue
				case <-pool:
				}
			}
			go func() { // no finding wanted: concurrency > 0 always holds here
				if err := process(d); err != nil {
					errorsChan <- err
				}
				if concurrency > 0 {
					pool <- struct{}{}
				}
			}()
		}
	}
}

// The goredis broker's consume: a plain receive under the guard, and a
// caller that normalises with GOMAXPROCS.
type goredisBroker struct{}

func (b *goredisBroker) StartConsuming(concurrency int, deliveries <-chan []byte) {
	if concurrency <= 0 {
		concurrency = runtime.GOMAXPROCS(0)
	}
	b.consume(deliveries, concurrency)
}

func (b *goredisBroker) consume(deliveries <-chan []byte, concurrency int) {
	pool := make(chan struct{}, concurrency)
	go func() {
		for i := 0; i < concurrency; i++ {
			pool <- struct{}{}
		}
	}()
	for d := range deliveries {
		if concurrency > 0 {
			<-pool
		}
		go func() { // no finding wanted: concurrency > 0 always holds here
			process(d)
			if concurrency > 0 {
				pool <- struct{}{}
			}
		}()
	}
}

// A constant concurrency holds the guard too.
func startFixed(deliveries <-chan []byte) { consumeFixed(deliveries, 8) }

func consumeFixed(deliveries <-chan []byte, concurrency int) {
	pool := make(chan struct{}, concurrency)
	for i := 0; i < concurrency; i++ {
		pool <- struct{}{}
	}
	for d := range deliveries {
		if concurrency > 0 {
			<-pool
		}
		go func() { // no finding wanted
			process(d)
			pool <- struct{}{}
		}()
	}
}

// Near misses. The AMQP broker passes the worker's concurrency on as it
// is: 0 means no limit, and then every delivery starts a goroutine.
type amqpBroker struct{}

func (b *amqpBroker) StartConsuming(concurrency int, deliveries <-chan []byte) {
	b.consume(deliveries, concurrency)
}

func (b *amqpBroker) consume(deliveries <-chan []byte, concurrency int) {
	pool := make(chan struct{}, concurrency)
	go func() {
		for i := 0; i < concurrency; i++ {
			pool <- struct{}{}
		}
	}()
	for d := range deliveries {
		if concurrency > 0 {
			<-pool
		}
		go func() { // want `goroutine per item received from deliveries with nothing bounding how many run at once`
			process(d)
			if concurrency > 0 {
				pool <- struct{}{}
			}
		}()
	}
}

// A normalisation that lets 0 through.
type clampBroker struct{}

func (b *clampBroker) StartConsuming(concurrency int, deliveries <-chan []byte) {
	if concurrency < 0 {
		concurrency = 0
	}
	b.consume(deliveries, concurrency)
}

func (b *clampBroker) consume(deliveries <-chan []byte, concurrency int) {
	pool := make(chan struct{}, concurrency)
	go func() {
		for i := 0; i < concurrency; i++ {
			pool <- struct{}{}
		}
	}()
	for d := range deliveries {
		if concurrency > 0 {
			<-pool
		}
		go func() { // want `goroutine per item received from deliveries with nothing bounding how many run at once`
			process(d)
			if concurrency > 0 {
				pool <- struct{}{}
			}
		}()
	}
}

// An exported consumer: callers in other packages may pass 0.
func Consume(deliveries <-chan []byte, concurrency int) {
	pool := make(chan struct{}, concurrency)
	go func() {
		for i := 0; i < concurrency; i++ {
			pool <- struct{}{}
		}
	}()
	for d := range deliveries {
		if concurrency > 0 {
			<-pool
		}
		go func() { // want `goroutine per item received from deliveries with nothing bounding how many run at once`
			process(d)
			if concurrency > 0 {
				pool <- struct{}{}
			}
		}()
	}
}
