// Package gated holds code behind feature gates, one shape of guard per
// function, for the gates pass.
package gated

import (
	clientfeatures "k8s.io/client-go/features"
	"k8s.io/component-base/featuregate"
	"k8s.io/kubernetes/pkg/features"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
)

type manager struct {
	fg      featuregate.FeatureGate
	volumes []string
}

// ifBody: the body runs only when the gate is on.
func (m *manager) ifBody() {
	if utilfeature.DefaultFeatureGate.Enabled(features.ImageVolume) { // want gatecheck "if ImageVolume on 21-22 caller=gated.manager.ifBody via=utilfeature.DefaultFeatureGate"
		m.volumes = append(m.volumes, "image")
		m.volumes = append(m.volumes, "image2")
	}
}

// earlyReturn: the rest of the function runs only when the gate is on,
// the body only when it is off.
func (m *manager) earlyReturn() error {
	if !utilfeature.DefaultFeatureGate.Enabled(features.SidecarContainers) { // want gatecheck "if SidecarContainers off 30-30" // want gatecheck "rest SidecarContainers on 32-33"
		return nil
	}
	m.volumes = nil
	return nil
}

// orReturn: `!on || cond` returning leaves the rest to the gate on; the
// body runs when either holds, so it is not the gate's.
func (m *manager) orReturn(ready bool) {
	if !utilfeature.DefaultFeatureGate.Enabled(features.MemoryQoS) || !ready { // want gatecheck "rest MemoryQoS on 42-42"
		return
	}
	m.volumes = nil
}

// andElse: `on && cond` decides the body but not the else.
func (m *manager) andElse(ready bool) {
	if utilfeature.DefaultFeatureGate.Enabled(features.AppArmor) && ready { // want gatecheck "if AppArmor on 48-48"
		m.volumes = nil
	} else {
		m.volumes = []string{}
	}
}

// ifElse: the else branch runs only when the gate is off; an else-if is
// the else of the first gate and the if of the second.
func (m *manager) ifElse() {
	if utilfeature.DefaultFeatureGate.Enabled(features.AppArmor) { // want gatecheck "if AppArmor on 58-58" // want gatecheck "else AppArmor off 59-61"
		m.volumes = nil
	} else if utilfeature.DefaultMutableFeatureGate.Enabled(features.ImageVolume) { // want gatecheck "if ImageVolume on 60-60 caller=gated.manager.ifElse via=utilfeature.DefaultMutableFeatureGate"
		m.volumes = []string{}
	}
}

// loopContinue: inside a loop, the rest of the loop body.
func (m *manager) loopContinue() {
	for _, v := range m.volumes {
		if !m.fg.Enabled(features.ImageVolume) { // want gatecheck "if ImageVolume off 68-68 caller=gated.manager.loopContinue via=m.fg" // want gatecheck "rest ImageVolume on 70-71"
			continue
		}
		_ = v
		m.volumes = nil
	}
}

// uses: an answer kept or passed on is reported at the call.
func (m *manager) uses(fg featuregate.FeatureGate) (bool, []bool) {
	on := fg.Enabled(features.AllowServiceLBStatusOnNonLB) // want gatecheck "use AllowServiceLBStatusOnNonLB on 77-77 caller=gated.manager.uses via=fg"
	flags := []bool{
		clientfeatures.FeatureGates().Enabled(clientfeatures.WatchListClient), // want gatecheck "use WatchListClient on 79-79 caller=gated.manager.uses via=clientfeatures.FeatureGates()"
	}
	if on || utilfeature.DefaultFeatureGate.Enabled(features.AppArmor) { // want gatecheck "use AppArmor on 81-81"
		flags = nil
	}
	return utilfeature.DefaultFeatureGate.Enabled(features.DisableCloudProviders), flags // want gatecheck "use DisableCloudProviders on 84-84"
}

// inLiteral: a check in a func literal belongs to the literal.
func (m *manager) inLiteral() func() {
	return func() {
		if utilfeature.DefaultFeatureGate.Enabled(features.ImageVolume) { // want gatecheck "if ImageVolume on 91-91 caller=gated.manager.inLiteral$1"
			panic("image volumes")
		}
	}
}

// notGates: a gate named by a variable, and Enabled methods that are not
// feature gates, are no checks.
func notGates(f featuregate.Feature, v verbosity) bool {
	if v.Enabled() {
		return utilfeature.DefaultFeatureGate.Enabled(f)
	}
	return false
}

type verbosity bool

func (v verbosity) Enabled() bool { return bool(v) }

// Features is an answer kept for later, as the scheduler keeps its
// plugins' gates.
type Features struct {
	EnableImageVolume bool
	// EnableMixed is given a gate's answer and a constant: it is no gate's.
	EnableMixed bool
}

func newFeatures() Features {
	return Features{
		EnableImageVolume: utilfeature.DefaultFeatureGate.Enabled(features.ImageVolume), // want gatecheck "use ImageVolume on 119-119"
		EnableMixed:       utilfeature.DefaultFeatureGate.Enabled(features.AppArmor),    // want gatecheck "use AppArmor on 120-120"
	}
}

func mixedDefault() Features { return Features{EnableMixed: true} }

type plugin struct{ enableImageVolume bool }

// newPlugin copies the answer into a field of its own; the copy is not a
// check.
func newPlugin(fts Features) *plugin {
	return &plugin{enableImageVolume: fts.EnableImageVolume}
}

// filter decides on the copy: the body runs only with the gate on; on the
// mixed field, nothing is known.
func (pl *plugin) filter(fts Features) {
	if !pl.enableImageVolume { // want gatecheck "if ImageVolume off 138-138 caller=gated.plugin.filter via=pl.enableImageVolume" // want gatecheck "rest ImageVolume on 140-146"
		return
	}
	if fts.EnableMixed {
		pl.enableImageVolume = fts.EnableImageVolume
	}
	local := utilfeature.DefaultFeatureGate.Enabled(features.SidecarContainers) // want gatecheck "use SidecarContainers on 143-143"
	if local && pl.enableImageVolume {                                          // want gatecheck "if SidecarContainers on 145-145 caller=gated.plugin.filter via=local" // want gatecheck "if ImageVolume on 145-145 caller=gated.plugin.filter via=pl.enableImageVolume"
		panic("both")
	}
}
