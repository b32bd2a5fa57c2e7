package fact

// This file holds the feature-gate facts: the release's gate table (Gate)
// and the places where code asks a gate whether it is on (GateCheck).
// (Schema 5.)

import (
	"bytes"
	"encoding/gob"
)

// Stages of a feature gate, as Gate.Stage and GateStage.Stage spell them.
// component-base's featuregate spells them "ALPHA", "BETA", "" (GA),
// "DEPRECATED" and "PRE-ALPHA"; these are the words its documentation and
// the Kubernetes feature-gate reference use.
const (
	StagePreAlpha   = "pre-alpha"
	StageAlpha      = "alpha"
	StageBeta       = "beta"
	StageGA         = "GA"
	StageDeprecated = "deprecated"
)

// Gate is one feature gate of the release, with its spec at the release.
type Gate struct {
	// Name is the gate's name as --feature-gates takes it: "ImageVolume".
	Name string `json:"name"`
	// Const is the go doc name of the constant that declares it:
	// "k8s.io/kubernetes/pkg/features.ImageVolume"; Decl its declaration.
	Const string   `json:"const"`
	Decl  Location `json:"decl"`
	// Spec is the table entry the stage and default were read from (for a
	// gate listed in several tables, kube's own pkg/features wins: it is
	// the table the Kubernetes binaries register).
	Spec Location `json:"spec"`
	// Stage is StageAlpha, StageBeta, StageGA, StageDeprecated, or
	// StagePreAlpha for a versioned gate whose first spec is newer than
	// the release.
	Stage string `json:"stage"`
	// Default is whether the gate is on when no --feature-gates flag
	// names it; LockToDefault, whether the flag may not change that.
	Default       bool `json:"default"`
	LockToDefault bool `json:"lockToDefault,omitempty"`
	// Since is the version ("1.31") in which the gate reached Stage, when
	// the release records it: from the versioned specs, or from the
	// constant's doc comment ("// beta: v1.31") in releases before those.
	Since string `json:"since,omitempty"`
	// Stages lists each stage the release records for the gate, oldest
	// first, with the version it began in.
	Stages []GateStage `json:"stages,omitempty"`
}

// GateStage is a stage of a gate and the version it began in.
type GateStage struct {
	Stage   string `json:"stage"`
	Version string `json:"version"`
	// Default is the gate's default from that version, when the release
	// records it (versioned specs); nil when it does not (doc comments).
	Default *bool `json:"default,omitempty"`
}

// gateStageGob is GateStage as the analyzer's cache stores it: gob
// flattens pointers and leaves zero values out, so a Default pointing to
// false would come back nil.
type gateStageGob struct {
	Stage, Version string
	Default        int8 // 0 not recorded, 1 off, 2 on
}

// GobEncode keeps a Default of false through the cache.
func (s GateStage) GobEncode() ([]byte, error) {
	g := gateStageGob{Stage: s.Stage, Version: s.Version}
	if s.Default != nil {
		g.Default = 1
		if *s.Default {
			g.Default = 2
		}
	}
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(g)
	return b.Bytes(), err
}

// GobDecode reads what GobEncode wrote.
func (s *GateStage) GobDecode(data []byte) error {
	var g gateStageGob
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&g); err != nil {
		return err
	}
	*s = GateStage{Stage: g.Stage, Version: g.Version}
	if g.Default != 0 {
		on := g.Default == 2
		s.Default = &on
	}
	return nil
}

// GateCheck is code that runs only when a feature gate is on (or off):
// a call of Enabled on a feature gate, with a constant gate name, or an if
// on a variable that holds such a call's answer, and the lines whose
// running depends on it.
type GateCheck struct {
	// Gate is the gate's name ("ImageVolume").
	Gate string `json:"gate"`
	// Caller is the function containing the check; At the Enabled call.
	Caller FuncRef  `json:"caller"`
	At     Location `json:"at"`
	// Guarded are the lines that run only when the gate is on (WhenEnabled)
	// or only when it is off (not WhenEnabled):
	//   - "if": the body of the if statement whose condition needs the gate;
	//   - "else": the else branch of such an if;
	//   - "rest": the statements after an if that returns (or breaks,
	//     continues, panics) when the gate is off — `if !Enabled(X) {
	//     return }` — to the end of the enclosing block;
	//   - "use": any other use of the answer (an assignment, an argument,
	//     a return value, a condition it does not decide): the call's line.
	Guarded     Location `json:"guarded"`
	Kind        string   `json:"kind"`
	WhenEnabled bool     `json:"whenEnabled"`
	// Via is the feature gate as written: "utilfeature.DefaultFeatureGate";
	// for an if deciding on a variable or field that holds the gate's
	// answer, that variable as written, and At is where it is read:
	// "pl.enableDRAExtendedResource".
	Via string `json:"via"`
}
