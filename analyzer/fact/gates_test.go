package fact

import (
	"bytes"
	"encoding/gob"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGateStageGob: a stage's default survives the analyzer's gob cache
// whether on, off or not recorded (gob alone turns a pointer to false
// into nil).
func TestGateStageGob(t *testing.T) {
	on, off := true, false
	want := Facts{Gates: []Gate{{Name: "MemoryQoS", Stage: StageBeta, Stages: []GateStage{
		{Stage: StageAlpha, Version: "1.22", Default: &off},
		{Stage: StageBeta, Version: "1.37", Default: &on},
		{Stage: StageGA, Version: "1.40"},
	}}}}
	var b bytes.Buffer
	if err := gob.NewEncoder(&b).Encode(want); err != nil {
		t.Fatal(err)
	}
	var got Facts
	if err := gob.NewDecoder(&b).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after gob (-want +got):\n%s", diff)
	}
}
