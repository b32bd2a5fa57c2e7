package analyzer

import "github.com/kubewalk/kubewalk/analyzer/fact"

// The plain data the analyzer produces is defined in package fact, so that
// the stages after it (walkthrough, site, and the tools beside them) can
// use facts, symbols and references without importing the loader. These
// aliases name the same types for the analyzer's own code and for callers
// that hold a Result anyway.
type (
	Location            = fact.Location
	Resource            = fact.Resource
	FuncRef             = fact.FuncRef
	Handler             = fact.Handler
	HandlerRegistration = fact.HandlerRegistration
	Wiring              = fact.Wiring
	Write               = fact.Write
	Event               = fact.Event
	ListWatch           = fact.ListWatch
	ListWatchConsumer   = fact.ListWatchConsumer
	Call                = fact.Call
	Facts               = fact.Facts
	Symbol              = fact.Symbol
	Ident               = fact.Ident
	FileXref            = fact.FileXref
	Ref                 = fact.Ref
	Resolved            = fact.Resolved
	NotFoundError       = fact.NotFoundError
)

// SchemaVersion is fact.SchemaVersion, the version of facts.json's schema
// and of the facts in the cache.
const SchemaVersion = fact.SchemaVersion
