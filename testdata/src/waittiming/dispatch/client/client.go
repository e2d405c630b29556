// Package client reaches its pool's wait through func values: commands are
// methods of a func type (cmdable) whose value is the client's Process,
// which runs the hook held in a func field, which retries a call that
// takes a connection from the pool's interface. The caller of a command
// queues for the pool's turn on its first attempt.
package client

import (
	"context"
	"errors"
	"net"
	"time"

	"waittiming/dispatch/connpool"
)

type cmdable func(ctx context.Context, cmd string) error

// Ping sends a ping through whatever function the cmdable is.
func (c cmdable) Ping(ctx context.Context) error { // want Ping:`waits Semaphore \(\*semaphore.Weighted\).Acquire at connpool.go:\d+`
	return c(ctx, "PING")
}

// StatusCmd is a command's outcome.
type StatusCmd struct{ err error }

// Err returns the command's error.
func (cmd *StatusCmd) Err() error { return cmd.err }

// Status runs a command and returns its outcome.
func (c cmdable) Status(ctx context.Context) *StatusCmd { // want Status:`waits Semaphore`
	cmd := &StatusCmd{}
	cmd.err = c(ctx, "STATUS")
	return cmd
}

// A fanout is handed both the client's Process, which queues for the
// pool, and a function that dials at once: a call of one runs either, and
// on the paths that run Process it queues, so the method has the fact
// (func values take the union of what the package hands them).
type fanout func(ctx context.Context, cmd string) error

// Flush sends a flush through whichever function the fanout is.
func (f fanout) Flush(ctx context.Context) error { // want Flush:`waits Semaphore`
	return f(ctx, "FLUSH")
}

// Fanouts returns the client's two ways to send.
func (c *Client) Fanouts() []fanout {
	return []fanout{fanout(c.Process), fanout(dialAndSend)}
}

func dialAndSend(ctx context.Context, cmd string) error {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", "localhost:6379")
	if err != nil {
		return err
	}
	defer nc.Close()
	_, err = nc.Write([]byte(cmd))
	return err
}

type hooks struct {
	process func(ctx context.Context, cmd string) error
}

// Client runs commands on pooled connections.
type Client struct {
	cmdable
	hooks      hooks
	pool       connpool.Pooler
	maxRetries int
}

// New returns a client whose commands go through its hooks to the pool.
func New(pool connpool.Pooler) *Client {
	c := &Client{pool: pool, maxRetries: 3}
	c.hooks = hooks{process: c.process}
	c.cmdable = c.Process
	return c
}

// Process runs cmd through the hook chain.
func (c *Client) Process(ctx context.Context, cmd string) error { // want Process:`waits Semaphore`
	return c.hooks.process(ctx, cmd)
}

// process retries cmd; its first attempt takes a connection.
func (c *Client) process(ctx context.Context, cmd string) error {
	var err error
	for attempt := 0; attempt <= c.maxRetries; attempt++ {
		retry, e := c.attempt(ctx, cmd)
		if e == nil || !retry {
			return e
		}
		err = e
		time.Sleep(time.Duration(attempt+1) * 10 * time.Millisecond)
	}
	return err
}

func (c *Client) attempt(ctx context.Context, cmd string) (bool, error) {
	err := c.withConn(ctx, func(ctx context.Context, cn *connpool.Conn) error {
		return write(cn, cmd)
	})
	return err != nil, err
}

func (c *Client) withConn(ctx context.Context, fn func(context.Context, *connpool.Conn) error) error {
	cn, err := c.pool.Get(ctx)
	if err != nil {
		return err
	}
	defer c.pool.Put(cn)
	return fn(ctx, cn)
}

func write(cn *connpool.Conn, cmd string) error {
	if cn == nil {
		return errors.New("no connection")
	}
	return nil
}

// A batch loop over what it is handed may run no iteration: its calls
// make no wait of the function's main path.
func (c *Client) ProcessAll(ctx context.Context, cmds []string) error { // want ProcessAll:`^work$`
	for _, cmd := range cmds {
		if _, err := c.attempt(ctx, cmd); err != nil {
			return err
		}
	}
	return nil
}

type localCmdable func(ctx context.Context, cmd string) error

// Echo is a method of a func type the package gives only a function that
// does not wait: no fact.
func (c localCmdable) Echo(ctx context.Context) error { // want Echo:`^work$`
	return c(ctx, "ECHO")
}

// Local answers from memory.
type Local struct {
	localCmdable
	seen []string
}

// NewLocal returns a client that never takes a connection.
func NewLocal() *Local {
	l := &Local{}
	l.localCmdable = l.remember
	return l
}

func (l *Local) remember(ctx context.Context, cmd string) error {
	l.seen = append(l.seen, cmd)
	return nil
}
