// Package armcompute is a stub of the Azure SDK's compute client, whose
// requests retry by default (azcore's retry policy).
package armcompute

import (
	"context"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime"
)

type VirtualMachine struct{ Name *string }

type VirtualMachinesClient struct{}

type CreateResponse struct{ VirtualMachine }

func (c *VirtualMachinesClient) BeginCreateOrUpdate(ctx context.Context, group, name string, vm VirtualMachine) (*runtime.Poller[CreateResponse], error) {
	return &runtime.Poller[CreateResponse]{}, nil
}

type GetResponse struct{ VirtualMachine }

func (c *VirtualMachinesClient) Get(ctx context.Context, group, name string) (GetResponse, error) {
	return GetResponse{}, nil
}
