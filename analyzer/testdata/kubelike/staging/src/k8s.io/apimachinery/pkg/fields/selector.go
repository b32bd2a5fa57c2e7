package fields

type Selector interface{ String() string }

type Set map[string]string

func (s Set) AsSelector() Selector { return nil }

func OneTermEqualSelector(k, v string) Selector { return nil }

func ParseSelectorOrDie(s string) Selector { return nil }

func AndSelectors(selectors ...Selector) Selector { return nil }
