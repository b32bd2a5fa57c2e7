package bar

type Bar struct{}

// NewBarAlpha and NewBarBeta are handed over as values, one per version.
func NewBarAlpha() *Bar { return &Bar{} }
func NewBarBeta() *Bar  { return &Bar{} }

// Interface is returned by NewTyped; an interface is not a controller type.
type Interface interface{ Run() }

func NewTyped() Interface { return nil }
