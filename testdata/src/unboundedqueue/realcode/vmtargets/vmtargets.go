// Package vmtargets is prometheus's Azure discovery (discovery/azure): a
// goroutine per virtual machine of the listing, scale sets' machines
// appended, each calling the network-interface API. The result channel is
// sized to the machines, so no goroutine parks on it; the calls themselves
// are as many at once as the fleet has machines.
package vmtargets

import (
	"context"
	"sync"
)

type virtualMachine struct {
	ID, Interface string
}

type client interface {
	getVMs(ctx context.Context, group string) ([]virtualMachine, error)
	getScaleSets(ctx context.Context, group string) ([]string, error)
	getScaleSetVMs(ctx context.Context, set string) ([]virtualMachine, error)
	getNetworkInterfaceByID(ctx context.Context, id string) (string, error)
}

type Discovery struct{ group string }

func (d *Discovery) vmToLabels(ctx context.Context, c client, vm virtualMachine) (string, error) {
	return c.getNetworkInterfaceByID(ctx, vm.Interface)
}

func (d *Discovery) refresh(ctx context.Context, c client) ([]string, error) {
	machines, err := c.getVMs(ctx, d.group)
	if err != nil {
		return nil, err
	}
	sets, err := c.getScaleSets(ctx, d.group)
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		vms, err := c.getScaleSetVMs(ctx, s)
		if err != nil {
			return nil, err
		}
		machines = append(machines, vms...)
	}
	var wg sync.WaitGroup
	wg.Add(len(machines))
	ch := make(chan string, len(machines))
	for _, vm := range machines {
		go func(vm virtualMachine) { // want `goroutine per element of machines, whose size comes from the data \(returned by c.getVMs\), each doing blocking work \(d.vmToLabels\)`
			defer wg.Done()
			l, _ := d.vmToLabels(ctx, c, vm)
			ch <- l
		}(vm)
	}
	wg.Wait()
	close(ch)
	var out []string
	for l := range ch {
		out = append(out, l)
	}
	return out, nil
}
