// Package fanoutdata fans out over collections whose size comes from the
// data — a listing, a decoded request, a map that grows as tenants arrive,
// a channel drained into a slice, a helper's result, a caller's argument —
// each goroutine doing blocking work with nothing bounding how many run.
// Beside each is its safe twin: a literal, a configured list, a semaphore
// taken inside the goroutine, work that only computes, a wait per element.
package fanoutdata

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"runtime"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	"golang.org/x/time/rate"
)

type store interface {
	ListBlocks(ctx context.Context) ([]string, error)
	Fetch(ctx context.Context, id string) error
}

// A listing: as wide as the store.
func syncBlocks(ctx context.Context, s store) error {
	ids, err := s.ListBlocks(ctx)
	if err != nil {
		return err
	}
	g, ctx := errgroup.WithContext(ctx)
	for _, id := range ids {
		g.Go(func() error { return s.Fetch(ctx, id) }) // want `g.Go goroutine per element of ids, whose size comes from the data \(returned by s.ListBlocks\), each doing blocking work \(s.Fetch\) with nothing bounding how many run at once; limit them to maxIdsInFlight at a time`
	}
	return g.Wait()
}

// The twin: a semaphore taken inside the goroutine before its work.
func syncBlocksLimited(ctx context.Context, s store) error {
	ids, err := s.ListBlocks(ctx)
	if err != nil {
		return err
	}
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			_ = s.Fetch(ctx, id)
		}()
	}
	wg.Wait()
	return nil
}

// The twin: each goroutine only computes.
func checksums(ctx context.Context, s store) ([]int, error) {
	ids, err := s.ListBlocks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = len(id)
		}()
	}
	wg.Wait()
	return out, nil
}

// The twin: each goroutine takes the context but only computes with it.
func scores(ctx context.Context, s store) ([]int, error) {
	ids, err := s.ListBlocks(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = score(ctx, id)
		}()
	}
	wg.Wait()
	return out, nil
}

func score(ctx context.Context, id string) int {
	if ctx.Err() != nil {
		return 0
	}
	return len(id)
}

type cluster interface {
	ListPeers(ctx context.Context) ([]string, error)
	Ping(ctx context.Context, peer string) error
}

// The twin: the peers of the cluster, a set the deployment fixes.
func pingPeers(ctx context.Context, c cluster) error {
	peers, err := c.ListPeers(ctx)
	if err != nil {
		return err
	}
	for _, p := range peers {
		go func() { _ = c.Ping(ctx, p) }()
	}
	return nil
}

type claimRequest struct {
	Domains []string `json:"domains"`
}

type peer interface {
	Claim(ctx context.Context, domain string) error
}

// A decoded request: as wide as the client made it.
func claim(ctx context.Context, body []byte, p peer) error {
	var req claimRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, d := range req.Domains {
		wg.Add(1)
		go func(domain string) { // want `goroutine per element of req.Domains, whose size comes from the data \(a field of req, decoded by json.Unmarshal\)`
			defer wg.Done()
			_ = p.Claim(ctx, domain)
		}(d)
	}
	wg.Wait()
	return nil
}

// A request parameter, handed on to a helper that fans out.
func claimAll(ctx context.Context, req *ClaimRequest, p peer) {
	byDomain := map[string]bool{}
	for _, d := range req.Domains {
		byDomain[d] = true
	}
	claimEach(ctx, byDomain, p)
}

// ClaimRequest is what a client sends.
type ClaimRequest struct{ Domains []string }

func claimEach(ctx context.Context, domains map[string]bool, p peer) {
	var wg sync.WaitGroup
	for d := range domains {
		wg.Add(1)
		go func() { // want `goroutine per element of domains, whose size comes from the data \(passed by claimAll, built from req.Domains, req.Domains, a field of the ClaimRequest the caller sent\)`
			defer wg.Done()
			_ = p.Claim(ctx, d)
		}()
	}
	wg.Wait()
}

// The twin: a literal list of domains.
func claimFixed(ctx context.Context, p peer) {
	var wg sync.WaitGroup
	for _, d := range []string{"a.example", "b.example"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = p.Claim(ctx, d)
		}()
	}
	wg.Wait()
}

// A map that grows as tenants arrive.
type registry struct {
	mu      sync.Mutex
	tenants map[string]string
}

func (r *registry) add(name, dir string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.tenants[name] = dir
}

func (r *registry) flushAll() {
	var wg sync.WaitGroup
	for _, dir := range r.tenants {
		wg.Add(1)
		go func() { // want `goroutine per element of r.tenants, whose size comes from the data \(the map r.tenants, which grows as \(\*registry\).add stores entries\), each doing blocking work \(os.WriteFile\)`
			defer wg.Done()
			_ = os.WriteFile(dir+"/flush", nil, 0o600)
		}()
	}
	wg.Wait()
}

// The twin: a map filled only by the constructor, from the configuration.
type shards struct {
	dirs map[int]string
}

func newShards(dirs []string) *shards {
	s := &shards{dirs: map[int]string{}}
	for i, d := range dirs {
		s.dirs[i] = d
	}
	return s
}

func (s *shards) flushAll() {
	var wg sync.WaitGroup
	for _, dir := range s.dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = os.WriteFile(dir+"/flush", nil, 0o600)
		}()
	}
	wg.Wait()
}

// A channel drained into a slice.
func drain(ctx context.Context, in <-chan string, s store) {
	var batch []string
	for id := range in {
		batch = append(batch, id)
	}
	var wg sync.WaitGroup
	for _, id := range batch {
		wg.Add(1)
		go func() { // want `goroutine per element of batch, whose size comes from the data \(drained from the channel in\)`
			defer wg.Done()
			_ = s.Fetch(ctx, id)
		}()
	}
	wg.Wait()
}

// A helper of the package that returns the listing.
func (r *registry) pending(ctx context.Context, s store) []string {
	ids, err := s.ListBlocks(ctx)
	if err != nil {
		return nil
	}
	return ids
}

func (r *registry) fetchPending(ctx context.Context, s store) {
	for _, id := range r.pending(ctx, s) {
		go s.Fetch(ctx, id) // want `goroutine per element of r.pending\(ctx, s\), whose size comes from the data \(returned by r.pending, returned by s.ListBlocks\)`
	}
}

// The twin: one goroutine per CPU.
func warm(ctx context.Context, s store) {
	for i := range make([]struct{}, runtime.NumCPU()) {
		go func() { _ = s.Fetch(ctx, string(rune('a'+i))) }()
	}
}

// The twin: a wait per element.
func fetchOneByOne(ctx context.Context, s store) error {
	ids, err := s.ListBlocks(ctx)
	if err != nil {
		return err
	}
	for _, id := range ids {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = s.Fetch(ctx, id)
		}()
		wg.Wait()
	}
	return nil
}

// A listing walked by index.
func fetchByIndex(ctx context.Context, s store) error {
	ids, err := s.ListBlocks(ctx)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for i := 0; i < len(ids); i++ {
		wg.Add(1)
		go func() { // want `goroutine per element of ids, whose size comes from the data \(returned by s.ListBlocks\)`
			defer wg.Done()
			_ = s.Fetch(ctx, ids[i])
		}()
	}
	wg.Wait()
	return nil
}

// An IndexesRequest asks for the index tables of a time range.
type IndexesRequest struct{ Start, End time.Time }

// An IndexesResponse names them.
type IndexesResponse struct{ Tables []string }

// windows yields one table per hour between start and end.
func windows(start, end time.Time) iter.Seq[string] {
	return func(yield func(string) bool) {
		for t := start; !t.After(end); t = t.Add(time.Hour) {
			if !yield(t.Format(time.DateTime)) {
				return
			}
		}
	}
}

type metastore struct {
	s                        store
	retainFrom, retainToHour time.Time
}

// A response filled field by field from an iterator over the request's
// time range: as many tables as the range is long.
func (m *metastore) Indexes(ctx context.Context, req IndexesRequest) (IndexesResponse, error) {
	resp := IndexesResponse{}
	for t := range windows(req.Start, req.End) {
		resp.Tables = append(resp.Tables, t)
	}
	return resp, m.readTables(ctx, resp.Tables)
}

func (m *metastore) readTables(ctx context.Context, tables []string) error {
	g, ctx := errgroup.WithContext(ctx)
	for _, t := range tables {
		g.Go(func() error { return m.s.Fetch(ctx, t) }) // want `g.Go goroutine per element of tables, whose size comes from the data \(passed by \(\*metastore\).Indexes, stored in resp.Tables, built from windows\(req.Start, req.End\), yielded by windows\(req.Start, req.End\), whose arguments come from the data: req.Start, a field of the IndexesRequest the caller sent\)`
	}
	return g.Wait()
}

// The twin: the iterator's range is the configured retention, not the
// request's.
func (m *metastore) retained(ctx context.Context) error {
	var tables []string
	for t := range windows(m.retainFrom, m.retainToHour) {
		tables = append(tables, t)
	}
	g, ctx := errgroup.WithContext(ctx)
	for _, t := range tables {
		g.Go(func() error { return m.s.Fetch(ctx, t) })
	}
	return g.Wait()
}

// The twin: a configuration that a call returns with an error is what an
// operator set, not a listing (nats-server's stream update deletes the
// consumers of the sources its old configuration named).
type streamConfig struct{ Sources []string }

type streamStore interface {
	LoadStreamConfig(ctx context.Context, name string) (*streamConfig, error)
	Fetch(ctx context.Context, id string) error
}

func syncSources(ctx context.Context, s streamStore, name string) error {
	cfg, err := s.LoadStreamConfig(ctx, name)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, src := range cfg.Sources {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = s.Fetch(ctx, src)
		}()
	}
	wg.Wait()
	return nil
}

// A listing of configurations, one per tenant, is data all the same.
type tenantStore interface {
	ListTenantConfigs(ctx context.Context) ([]streamConfig, error)
	Fetch(ctx context.Context, id string) error
}

func syncTenants(ctx context.Context, s tenantStore) error {
	cfgs, err := s.ListTenantConfigs(ctx)
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, cfg := range cfgs {
		wg.Add(1)
		go func() { // want `goroutine per element of cfgs, whose size comes from the data \(returned by s.ListTenantConfigs\)`
			defer wg.Done()
			_ = s.Fetch(ctx, cfg.Sources[0])
		}()
	}
	wg.Wait()
	return nil
}

type historyClient interface {
	Replicate(ctx context.Context, tokens []string) error
}

type shardRouter interface {
	ClientFor(shard int) (historyClient, error)
}

type ReplicateRequest struct{ Shards []int }

// Negative: the request's shards are grouped by the client each maps to,
// and each goroutine calls its own key: one call per destination host,
// however many shards the request names.
func replicateByClient(ctx context.Context, r shardRouter, req *ReplicateRequest) error {
	byClient := make(map[historyClient][]string)
	for _, shard := range req.Shards {
		client, err := r.ClientFor(shard)
		if err != nil {
			return err
		}
		byClient[client] = append(byClient[client], "token")
	}
	var wg sync.WaitGroup
	for client, tokens := range byClient {
		wg.Add(1)
		go func(client historyClient, tokens []string) { // no finding wanted: one per destination
			defer wg.Done()
			_ = client.Replicate(ctx, tokens)
		}(client, tokens)
	}
	wg.Wait()
	return nil
}

// dialShard makes a new client for a shard.
func dialShard(shard int) (historyClient, error) { return nil, nil }

// The twin keys the map by a client it dials per shard: a new key per
// element, however few hosts there are.
func replicateDialed(ctx context.Context, req *ReplicateRequest) error {
	byClient := make(map[historyClient][]string)
	for _, shard := range req.Shards {
		client, err := dialShard(shard)
		if err != nil {
			return err
		}
		byClient[client] = append(byClient[client], "token")
	}
	var wg sync.WaitGroup
	for client, tokens := range byClient {
		wg.Add(1)
		go func(client historyClient, tokens []string) { // want `goroutine per element of byClient, whose size comes from the data`
			defer wg.Done()
			_ = client.Replicate(ctx, tokens)
		}(client, tokens)
	}
	wg.Wait()
	return nil
}

// The twin groups the request's shards by a name made from each and calls
// one shared client per group: as many calls as the request names shards.
func replicateByName(ctx context.Context, client historyClient, req *ReplicateRequest) error {
	byName := make(map[string][]string)
	for _, shard := range req.Shards {
		name := fmt.Sprint("shard-", shard)
		byName[name] = append(byName[name], "token")
	}
	var wg sync.WaitGroup
	for _, tokens := range byName {
		wg.Add(1)
		go func() { // want `goroutine per element of byName, whose size comes from the data`
			defer wg.Done()
			_ = client.Replicate(ctx, tokens)
		}()
	}
	wg.Wait()
	return nil
}

// A scrape loop per tenant, kept in a map that grows as tenants arrive.
type scraper struct {
	target string
	done   chan struct{}
}

func (s *scraper) run()  { _ = os.WriteFile(s.target, nil, 0o600) }
func (s *scraper) stop() { close(s.done) }

type pool struct {
	loops map[string]*scraper
}

func (p *pool) add(tenant string) {
	l := &scraper{target: tenant, done: make(chan struct{})}
	p.loops[tenant] = l
	go l.run()
}

// Negative: a restart stops each entry's old loop in the goroutine that
// runs its replacement, stored under the same key: the loops running stay
// one per entry, and the restart adds none.
func (p *pool) restart() {
	for key, old := range p.loops {
		fresh := &scraper{target: old.target, done: make(chan struct{})}
		go func(old, fresh *scraper) { // no finding wanted: each goroutine retires the loop it replaces
			old.stop()
			fresh.run()
		}(old, fresh)
		p.loops[key] = fresh
	}
}

// The twin replaces each entry too but stops nothing: the old loops run on
// beside the new, and each restart doubles the loops running.
func (p *pool) restartAgain() {
	for key, old := range p.loops {
		fresh := &scraper{target: old.target, done: make(chan struct{})}
		go func() { // want `goroutine per element of p.loops, whose size comes from the data`
			fresh.run()
		}()
		p.loops[key] = fresh
	}
}

// FolderConfiguration is what an operator set for one folder.
type FolderConfiguration struct {
	ID   string
	Path string
}

// A model keeps a folder's configuration per configured folder, stored
// when the operator adds one.
type model struct {
	mu         sync.Mutex
	folderCfgs map[string]FolderConfiguration
	uploads    map[string]string
}

func (m *model) addFolder(cfg FolderConfiguration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.folderCfgs[cfg.ID] = cfg
}

func (m *model) scan(id string) error { return os.WriteFile(id, nil, 0o600) }

// Negative: the map holds an operator's configuration per folder; as wide
// as the operator made it, not the load.
func (m *model) scanFolders() {
	var wg sync.WaitGroup
	for id := range m.folderCfgs {
		wg.Add(1)
		go func() { // no finding wanted: one per configured folder
			defer wg.Done()
			_ = m.scan(id)
		}()
	}
	wg.Wait()
}

func (m *model) addUpload(id, path string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.uploads[id] = path
}

// The twin's map holds a path per upload a client started: data.
func (m *model) flushUploads() {
	var wg sync.WaitGroup
	for id := range m.uploads {
		wg.Add(1)
		go func() { // want `goroutine per element of m.uploads, whose size comes from the data \(the map m.uploads, which grows as \(\*model\).addUpload stores entries\)`
			defer wg.Done()
			_ = m.scan(id)
		}()
	}
	wg.Wait()
}

// ArchiveRequest names what to archive.
type ArchiveRequest struct{ Targets []string }

type archiver struct{ limiter *rate.Limiter }

// Negative: the function waits on a rate limiter for as many tokens as the
// request names targets before it starts one goroutine per target: the
// fan-out is paid for element by element, and WaitN refuses more than the
// limiter's burst at once.
func (a *archiver) archive(ctx context.Context, req *ArchiveRequest) error {
	n := len(req.Targets)
	if err := a.limiter.WaitN(ctx, n); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, t := range req.Targets {
		wg.Add(1)
		go func() { // no finding wanted: paid per element
			defer wg.Done()
			_ = os.WriteFile(t, nil, 0o600)
		}()
	}
	wg.Wait()
	return nil
}

// The twin waits for one token, whatever the request names.
func (a *archiver) archiveOnce(ctx context.Context, req *ArchiveRequest) error {
	if err := a.limiter.Wait(ctx); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, t := range req.Targets {
		wg.Add(1)
		go func() { // want `goroutine per element of req.Targets, whose size comes from the data`
			defer wg.Done()
			_ = os.WriteFile(t, nil, 0o600)
		}()
	}
	wg.Wait()
	return nil
}

// The twin stops each old loop and clears its entry, and its goroutine
// runs no replacement: one more goroutine per entry, doing the work.
func (p *pool) drain() {
	for key, old := range p.loops {
		go func() { // want `goroutine per element of p.loops, whose size comes from the data`
			old.stop()
			old.run()
		}()
		p.loops[key] = nil
	}
}

// PeerConfig is what a client registers.
type PeerConfig struct{ ID string }

type registrations struct {
	clients map[string]*PeerConfig
}

// register stores a configuration it builds for each client that
// registers: an entry per client, data.
func (r *registrations) register(id string) {
	r.clients[id] = &PeerConfig{ID: id}
}

// The twin fans out over the registered clients.
func (r *registrations) notifyAll() {
	var wg sync.WaitGroup
	for id := range r.clients {
		wg.Add(1)
		go func() { // want `goroutine per element of r.clients, whose size comes from the data`
			defer wg.Done()
			_ = os.WriteFile(id, nil, 0o600)
		}()
	}
	wg.Wait()
}

// Negative: the same inside a handler literal, paying len(req.Targets)
// tokens directly.
var archiveHandler = func(ctx context.Context, a *archiver, req *ArchiveRequest) error {
	if err := a.limiter.WaitN(ctx, len(req.Targets)); err != nil {
		return err
	}
	var wg sync.WaitGroup
	for _, t := range req.Targets {
		wg.Add(1)
		go func() { // no finding wanted: paid per element
			defer wg.Done()
			_ = os.WriteFile(t, nil, 0o600)
		}()
	}
	wg.Wait()
	return nil
}
