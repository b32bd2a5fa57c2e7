package labels

type Selector interface{ String() string }
