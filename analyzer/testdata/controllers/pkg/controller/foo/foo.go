package foo

// Controller is built by NewController.
type Controller struct{ n int }

func NewController(n int) (*Controller, error) { return &Controller{n: n}, nil }

func (c *Controller) Run() {}

// NewHelper is a New… function that no start function calls.
func NewHelper() int { return 0 }
