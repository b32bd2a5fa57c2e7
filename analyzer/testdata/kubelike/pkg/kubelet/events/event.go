package events

// Container event reason list
const (
	CreatedContainer = "Created"
	StartedContainer = "Started"
	PullingImage     = "Pulling"
	PulledImage      = "Pulled"
)

// Node event reason list
const (
	NodeReady    = "NodeReady"
	NodeNotReady = "NodeNotReady"
)
