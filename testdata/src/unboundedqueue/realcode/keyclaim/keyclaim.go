// Package keyclaim is dendrite's claimRemoteKeys (userapi/internal): a
// goroutine per remote domain named in the client's /keys/claim request,
// each a federation call, with a WaitGroup for the lifetime and nothing for
// the width, which the client decides. The twin fans out to the servers of
// the configuration, which the program decides.
package keyclaim

import (
	"context"
	"sync"
	"time"
)

type PerformClaimKeysRequest struct {
	OneTimeKeys map[string]map[string]string // user → device → algorithm
	Timeout     time.Duration
}

type FederationClient interface {
	ClaimKeys(ctx context.Context, domain string, keys map[string]string) (map[string]string, error)
}

type UserInternalAPI struct {
	FedClient FederationClient
	Servers   []string // from the configuration file
}

func (a *UserInternalAPI) PerformClaimKeys(ctx context.Context, req *PerformClaimKeysRequest) {
	domainToDeviceKeys := make(map[string]map[string]string)
	for userID, devices := range req.OneTimeKeys {
		domainToDeviceKeys[userID] = devices
	}
	if len(domainToDeviceKeys) > 0 {
		a.claimRemoteKeys(ctx, req.Timeout, domainToDeviceKeys)
	}
}

func (a *UserInternalAPI) claimRemoteKeys(ctx context.Context, timeout time.Duration, domainToDeviceKeys map[string]map[string]string) {
	var wg sync.WaitGroup
	wg.Add(len(domainToDeviceKeys))
	for d, k := range domainToDeviceKeys {
		go func(domain string, keysToClaim map[string]string) { // want `goroutine per element of domainToDeviceKeys, whose size comes from the data \(passed by \(\*UserInternalAPI\).PerformClaimKeys, built from req.OneTimeKeys`
			fedCtx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			defer wg.Done()
			_, _ = a.FedClient.ClaimKeys(fedCtx, domain, keysToClaim)
		}(d, k)
	}
	wg.Wait()
}

// Negative: the configured servers, read once at start-up.
func (a *UserInternalAPI) pingServers(ctx context.Context) {
	var wg sync.WaitGroup
	for _, s := range a.Servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = a.FedClient.ClaimKeys(ctx, s, nil)
		}()
	}
	wg.Wait()
}
