package events

// Container event reason list
const (
	CreatedContainer = "Created"
	StartedContainer = "Started"
	PullingImage     = "Pulling"
	PulledImage      = "Pulled"
)
