//go:build !linux && !darwin

package safedir

import "errors"

func exchange(a, b string) error { return unsupported{errors.ErrUnsupported} }
