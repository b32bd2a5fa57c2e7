package features

import (
	"k8s.io/apimachinery/pkg/util/version"
	genericfeatures "k8s.io/apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	logsapi "k8s.io/component-base/logs/api/v1"
	basever "k8s.io/component-base/version"
)

const (
	// owner: @Sh4d1
	AllowServiceLBStatusOnNonLB featuregate.Feature = "AllowServiceLBStatusOnNonLB"

	// owner: @tallclair
	AppArmor featuregate.Feature = "AppArmor"

	// owner: @andrewsykim
	DisableCloudProviders featuregate.Feature = "DisableCloudProviders"

	// owner: @someone (a gate whose first spec is of a later release)
	FutureGate featuregate.Feature = "FutureGate"

	// owner: @saschagrunert
	ImageVolume featuregate.Feature = "ImageVolume"

	// owner: @xiaoxubeii
	MemoryQoS featuregate.Feature = "MemoryQoS"

	// owner: @gjkim42
	SidecarContainers featuregate.Feature = "SidecarContainers"
)

// binaryVersion is read by the gates pass (the fixture's components run
// as 1.31).
var binaryVersion = basever.DefaultKubeBinaryVersion

func init() {
	_ = utilfeature.DefaultMutableFeatureGate.AddVersioned(defaultVersionedKubernetesFeatureGates)
	_ = logsapi.AddFeatureGates(utilfeature.DefaultMutableFeatureGate)
}

var defaultVersionedKubernetesFeatureGates = map[featuregate.Feature]featuregate.VersionedSpecs{
	AllowServiceLBStatusOnNonLB: { // want gate "AllowServiceLBStatusOnNonLB deprecated off since=1.29 stages=GA@1.0:on,deprecated@1.29:off const=pkg/features.AllowServiceLBStatusOnNonLB"
		{Version: version.MustParse("1.0"), Default: true, PreRelease: featuregate.GA},
		{Version: version.MustParse("1.29"), Default: false, PreRelease: featuregate.Deprecated},
		{Version: version.MustParse("1.32"), Default: false, PreRelease: featuregate.Deprecated, LockToDefault: true}, // remove in 1.34
	},

	AppArmor: { // want gate "AppArmor GA on locked since=1.31 stages=beta@1.4:on,GA@1.31:on"
		{Version: version.MustParse("1.4"), Default: true, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.31"), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
	},

	DisableCloudProviders: { // want gate "DisableCloudProviders GA on locked since=1.29 stages=alpha@1.22:off,GA@1.29:on"
		{Version: version.MajorMinor(1, 22), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MajorMinor(1, 29), Default: true, PreRelease: featuregate.GA, LockToDefault: true},
	},

	FutureGate: { // want gate "FutureGate pre-alpha off since= stages="
		{Version: version.MustParse("1.33"), Default: false, PreRelease: featuregate.Alpha},
	},

	ImageVolume: { // want gate "ImageVolume alpha off since=1.31 stages=alpha@1.31:off"
		{Version: version.MustParse("1.31"), Default: false, PreRelease: featuregate.Alpha},
	},

	MemoryQoS: { // want gate "MemoryQoS beta off since=1.31 stages=alpha@1.22:off,beta@1.31:off"
		{Version: version.MustParse("1.22"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.31"), Default: false, PreRelease: featuregate.Beta},
		{Version: version.MustParse("1.31"), Default: true, PreRelease: featuregate.Beta, MinCompatibilityVersion: version.MustParse("1.31")},
	},

	SidecarContainers: { // want gate "SidecarContainers beta on since=1.29 stages=alpha@1.28:off,beta@1.29:on"
		{Version: version.MustParse("1.28"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.29"), Default: true, PreRelease: featuregate.Beta},
	},

	// Gates of the staging modules, relisted as kube does: this entry is
	// the one reported.

	genericfeatures.WatchList: { // want gate "WatchList alpha off since=1.27 stages=alpha@1.27:off const=apiserver/pkg/features.WatchList"
		{Version: version.MustParse("1.27"), Default: false, PreRelease: featuregate.Alpha},
	},

	logsapi.ContextualLogging: { // want gate "ContextualLogging beta on since=1.30 stages=alpha@1.24:off,beta@1.30:on"
		{Version: version.MustParse("1.24"), Default: false, PreRelease: featuregate.Alpha},
		{Version: version.MustParse("1.30"), Default: true, PreRelease: featuregate.Beta},
	},
}
