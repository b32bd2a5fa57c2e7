package types

type PatchType string

const StrategicMergePatchType PatchType = "application/strategic-merge-patch+json"

type UID string
