package graph

import "github.com/einvoice-ng/einvoice/model/service"

// Resolver is the root of every resolver: it holds the service they call.
type Resolver struct {
	svc      *service.Service
	work     *workbench
	temporal temporalUI
}
