// A false goroutineperitem finding from the corpus run:
// github.com/RichardKnop/machinery, v2/brokers/redis/goredis.go,
// (*BrokerGR).consume (and the same code in v2/brokers/redis/redis.go,
// (*Broker).consume).
//
// The acquire is guarded by `if concurrency > 0`, but the only caller,
// StartConsuming, replaces a concurrency below 1 with runtime.NumCPU() * 2
// before it calls consume, so the guard always holds and every spawn waits
// for a token of the pre-filled pool. No finding is wanted. (The AMQP
// broker's consume has the same code without the normalisation: there a
// worker concurrency of 0 means no limit, judged debatable.)
package unboundedqueue

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
