package runtime

// Object is what every API type implements.
type Object interface {
	DeepCopyObject() Object
}
