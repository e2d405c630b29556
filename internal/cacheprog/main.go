// Command cacheprog is a GOCACHEPROG program that keeps the go command's
// cache entries in a directory, standing in for a cache shared by CI machines
// (in real CI: a bucket, or a network file system, behind the same protocol).
//
//	GOCACHEPROG="cacheprog [-v] DIR" go vet -vettool=$(which queuecheck) ./...
//
// The go command starts the program, reads the commands it supports, then
// sends one JSON request per line on its standard input ("get", "put",
// "close") and reads one JSON response per request on its standard output;
// the protocol is defined in the Go distribution's cmd/go/internal/cacheprog.
// A "put" request is followed by a line holding its body as a base64 JSON
// string (none when the body is empty). Every cache entry, the result or facts
// of a vet run as much as a compiled package, is an action ID mapped to an
// output ID and a body whose SHA-256 is the output ID.
//
// The directory holds, as the go command's own cache does,
//
//	DIR/xx/<action ID>-a  "<output ID> <size> <unix nanoseconds>" in hex and decimal
//	DIR/xx/<output ID>-d  the body
//
// where xx is the first byte of the ID in hex. Both files are written to a
// temporary file in DIR and renamed into place, so any number of go commands,
// on this machine or on others sharing DIR, can read and write it at once: a
// reader sees a whole entry or none, and a body's name is its own hash, so
// two writers of the same body write the same bytes. An entry's action record
// is written after its body, so a record never names a missing body. Bodies
// are served from DIR itself (the DiskPath of the protocol), which a real
// remote cache would instead download into a local directory first.
//
// Nothing is ever deleted: trim DIR by age from outside if it grows.
//
// With -v, cacheprog prints how many gets hit and missed and how many puts it
// stored to standard error when the go command closes it.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The protocol's messages, as cmd/go/internal/cacheprog defines them.

// request is a message from the go command.
type request struct {
	ID       int64
	Command  string
	ActionID []byte `json:",omitempty"`
	OutputID []byte `json:",omitempty"`
	BodySize int64  `json:",omitempty"`
}

// response is a message to the go command.
type response struct {
	ID            int64
	Err           string     `json:",omitempty"`
	KnownCommands []string   `json:",omitempty"`
	Miss          bool       `json:",omitempty"`
	OutputID      []byte     `json:",omitempty"`
	Size          int64      `json:",omitempty"`
	Time          *time.Time `json:",omitempty"`
	DiskPath      string     `json:",omitempty"`
}

func main() {
	verbose := flag.Bool("v", false, "print hit, miss and put counts to standard error on close")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: GOCACHEPROG=\"cacheprog [-v] DIR\" go ...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	dir, err := filepath.Abs(flag.Arg(0)) // the go command wants absolute DiskPaths
	if err == nil {
		err = os.MkdirAll(dir, 0o777)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "cacheprog: %v\n", err)
		os.Exit(1)
	}
	c := &cache{dir: dir}
	err = c.serve(os.Stdin, os.Stdout)
	if *verbose {
		fmt.Fprintf(os.Stderr, "cacheprog: %d hits, %d misses, %d puts\n", c.hits, c.misses, c.puts)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "cacheprog: %v\n", err)
		os.Exit(1)
	}
}

// A cache serves one go command from a directory.
type cache struct {
	dir                string
	hits, misses, puts int
}

// serve announces the supported commands on w, then answers the requests
// read from r, in order, until "close" or the end of r.
func (c *cache) serve(r io.Reader, w io.Writer) error {
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	send := func(res *response) error {
		if err := enc.Encode(res); err != nil {
			return err
		}
		return bw.Flush()
	}
	if err := send(&response{KnownCommands: []string{"get", "put", "close"}}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReader(r))
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if err == io.EOF {
				return nil // the go command closed our input without "close"
			}
			return fmt.Errorf("reading request: %v", err)
		}
		var body []byte
		if req.Command == "put" && req.BodySize > 0 {
			// The body follows as a JSON string, which encoding/json
			// base64-decodes into a []byte.
			if err := dec.Decode(&body); err != nil {
				return fmt.Errorf("reading body of request %d: %v", req.ID, err)
			}
		}
		res := &response{ID: req.ID}
		var err error
		switch req.Command {
		case "get":
			err = c.get(req.ActionID, res)
		case "put":
			err = c.put(req.ActionID, req.OutputID, req.BodySize, body, res)
		case "close":
			return send(res)
		default:
			err = fmt.Errorf("unknown command %q", req.Command)
		}
		if err != nil {
			res = &response{ID: req.ID, Err: err.Error()}
		}
		if err := send(res); err != nil {
			return err
		}
	}
}

// path returns the file holding id's action record (kind "a") or body ("d").
func (c *cache) path(id []byte, kind string) string {
	h := hex.EncodeToString(id)
	return filepath.Join(c.dir, h[:2], h+"-"+kind)
}

func validID(id []byte) bool { return len(id) == sha256.Size }

func (c *cache) get(actionID []byte, res *response) error {
	if !validID(actionID) {
		return fmt.Errorf("get: bad action ID %x", actionID)
	}
	record, err := os.ReadFile(c.path(actionID, "a"))
	if errors.Is(err, os.ErrNotExist) {
		c.misses++
		res.Miss = true
		return nil
	}
	if err != nil {
		return err
	}
	outputID, size, t, ok := parseRecord(record)
	if !ok {
		c.misses++
		res.Miss = true // a record from another program or version: treat as absent
		return nil
	}
	body := c.path(outputID, "d")
	if fi, err := os.Stat(body); err != nil || fi.Size() != size {
		c.misses++
		res.Miss = true // the body was trimmed away
		return nil
	}
	c.hits++
	res.OutputID, res.Size, res.Time, res.DiskPath = outputID, size, &t, body
	return nil
}

func (c *cache) put(actionID, outputID []byte, size int64, body []byte, res *response) error {
	if !validID(actionID) || !validID(outputID) {
		return fmt.Errorf("put: bad action ID %x or output ID %x", actionID, outputID)
	}
	if int64(len(body)) != size {
		return fmt.Errorf("put %x: body of %d bytes, want %d", actionID, len(body), size)
	}
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], outputID) {
		return fmt.Errorf("put %x: body does not hash to output ID %x", actionID, outputID)
	}
	path := c.path(outputID, "d")
	if fi, err := os.Stat(path); err != nil || fi.Size() != size {
		if err := c.write(path, body); err != nil {
			return err
		}
	}
	record := fmt.Sprintf("%x %d %d\n", outputID, size, time.Now().UnixNano())
	if err := c.write(c.path(actionID, "a"), []byte(record)); err != nil {
		return err
	}
	c.puts++
	res.DiskPath = path
	return nil
}

// write writes data to path atomically: to a temporary file in the same
// directory, then renamed over path.
func (c *cache) write(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// parseRecord parses an action record written by put.
func parseRecord(record []byte) (outputID []byte, size int64, t time.Time, ok bool) {
	f := strings.Fields(string(record))
	if len(f) != 3 {
		return nil, 0, t, false
	}
	outputID, err := hex.DecodeString(f[0])
	if err != nil || !validID(outputID) {
		return nil, 0, t, false
	}
	size, err1 := strconv.ParseInt(f[1], 10, 64)
	nanos, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || size < 0 {
		return nil, 0, t, false
	}
	return outputID, size, time.Unix(0, nanos), true
}
