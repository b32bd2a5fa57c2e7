package rest

// Interface is the REST client a typed client's RESTClient() returns.
type Interface interface{}
