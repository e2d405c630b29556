package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// session writes requests the way the go command does (a JSON line, then for
// a non-empty "put" body a base64 JSON string line) and returns the
// responses cacheprog sent.
func session(t *testing.T, dir string, reqs ...string) []response {
	t.Helper()
	res, err := serveAll(dir, reqs...)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func serveAll(dir string, reqs ...string) ([]response, error) {
	var out bytes.Buffer
	c := &cache{dir: dir}
	if err := c.serve(strings.NewReader(strings.Join(reqs, "")), &out); err != nil {
		return nil, err
	}
	var res []response
	dec := json.NewDecoder(&out)
	for {
		var r response
		if err := dec.Decode(&r); err == io.EOF {
			return res, nil
		} else if err != nil {
			return nil, err
		}
		res = append(res, r)
	}
}

func jsonLine(v any) string {
	b, _ := json.Marshal(v)
	return string(b) + "\n"
}

func put(id int64, actionID []byte, body string) string {
	sum := sha256.Sum256([]byte(body))
	s := jsonLine(map[string]any{"ID": id, "Command": "put", "ActionID": actionID, "OutputID": sum[:], "BodySize": len(body)})
	if body != "" {
		s += `"` + base64.StdEncoding.EncodeToString([]byte(body)) + "\"\n"
	}
	return s
}

func get(id int64, actionID []byte) string {
	return jsonLine(map[string]any{"ID": id, "Command": "get", "ActionID": actionID})
}

func actionID(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}

func TestCacheProgProtocol(t *testing.T) {
	dir := t.TempDir()
	vetx, empty, missing := actionID("vet example.com/chans"), actionID("stdout"), actionID("absent")
	res := session(t, dir,
		put(1, vetx, "facts\x00and more facts"),
		put(2, empty, ""),
		jsonLine(map[string]any{"ID": 3, "Command": "close"}),
	)
	if len(res) != 4 || !slices.Equal(res[0].KnownCommands, []string{"get", "put", "close"}) || res[0].ID != 0 {
		t.Fatalf("handshake and replies: %+v", res)
	}
	for i, r := range res[1:] {
		if r.ID != int64(i+1) || r.Err != "" {
			t.Errorf("reply %d: %+v", i+1, r)
		}
	}
	if res[1].DiskPath == "" || res[2].DiskPath == "" || res[3].DiskPath != "" {
		t.Errorf("put replies need a DiskPath: %+v", res)
	}

	// A second go command, another process, finds the entries.
	res = session(t, dir, get(1, vetx), get(2, empty), get(3, missing))
	body, err := os.ReadFile(res[1].DiskPath)
	sum := sha256.Sum256([]byte("facts\x00and more facts"))
	if err != nil || string(body) != "facts\x00and more facts" || !bytes.Equal(res[1].OutputID, sum[:]) || res[1].Size != int64(len(body)) || res[1].Time == nil || res[1].Miss {
		t.Errorf("get: %+v, body %q, %v", res[1], body, err)
	}
	if fi, err := os.Stat(res[2].DiskPath); err != nil || fi.Size() != 0 || res[2].Miss || res[2].Size != 0 {
		t.Errorf("get of an empty body: %+v, %v", res[2], err)
	}
	if !res[3].Miss || res[3].DiskPath != "" {
		t.Errorf("get of an absent entry: %+v", res[3])
	}
	if !filepath.IsAbs(res[1].DiskPath) {
		t.Errorf("DiskPath %q is not absolute", res[1].DiskPath)
	}

	// A body that does not hash to its output ID is refused, and stays out.
	bad := jsonLine(map[string]any{"ID": 1, "Command": "put", "ActionID": missing, "OutputID": sum[:], "BodySize": 3}) + `"` + base64.StdEncoding.EncodeToString([]byte("abc")) + "\"\n"
	res = session(t, dir, bad, get(2, missing), jsonLine(map[string]any{"ID": 3, "Command": "frobnicate"}))
	if res[1].Err == "" || !res[2].Miss || !strings.Contains(res[3].Err, "unknown command") {
		t.Errorf("bad requests: %+v", res)
	}
}

// TestCacheProgConcurrent runs several caches on one directory at once, as go
// commands on several machines sharing it would: every get sees a whole entry
// or a miss, never a partial body.
func TestCacheProgConcurrent(t *testing.T) {
	dir := t.TempDir()
	bodies := make([]string, 20)
	for i := range bodies {
		bodies[i] = strings.Repeat(fmt.Sprint(i), 5000+i)
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			var reqs []string
			for i, b := range bodies {
				reqs = append(reqs, put(int64(2*i+1), actionID(fmt.Sprint(i)), b), get(int64(2*i+2), actionID(fmt.Sprint((i+w)%len(bodies)))))
			}
			res, err := serveAll(dir, reqs...)
			if err != nil {
				t.Error(err)
				return
			}
			for _, r := range res[1:] {
				if r.Err != "" {
					t.Error(r.Err)
				}
				if r.ID%2 == 0 && !r.Miss {
					if data, err := os.ReadFile(r.DiskPath); err != nil || int64(len(data)) != r.Size || sha256.Sum256(data) != [32]byte(r.OutputID) {
						t.Errorf("get %d: torn or missing body %s: %v", r.ID, r.DiskPath, err)
					}
				}
			}
		})
	}
	wg.Wait()
	left, _ := filepath.Glob(filepath.Join(dir, "*", ".tmp-*"))
	if len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
