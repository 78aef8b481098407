package graph

import "github.com/einvoice-ng/einvoice/model/app"

// Resolver is the root of every resolver: it holds the application they call.
type Resolver struct {
	app      *app.App
	work     *workbench
	temporal temporalUI
}
