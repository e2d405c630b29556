// Package cache is a stub of client-go's informer callbacks.
package cache

// ResourceEventHandler is called once per event of an informer.
type ResourceEventHandler interface {
	OnAdd(obj interface{}, isInInitialList bool)
	OnUpdate(oldObj, newObj interface{})
	OnDelete(obj interface{})
}

// ResourceEventHandlerFuncs adapts functions to a ResourceEventHandler.
type ResourceEventHandlerFuncs struct {
	AddFunc    func(obj interface{})
	UpdateFunc func(oldObj, newObj interface{})
	DeleteFunc func(obj interface{})
}

func (r ResourceEventHandlerFuncs) OnAdd(obj interface{}, isInInitialList bool) {}
func (r ResourceEventHandlerFuncs) OnUpdate(oldObj, newObj interface{})         {}
func (r ResourceEventHandlerFuncs) OnDelete(obj interface{})                    {}

// Informer delivers events to its handlers.
type Informer interface {
	AddEventHandler(handler ResourceEventHandler) error
}
