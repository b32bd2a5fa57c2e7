package reldiff

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/kubewalk/kubewalk/walkthrough"
)

// The test fixture's demo walkthrough cites
//
//	[scheduleOnePod](<go:k8s.io/kubernetes/pkg/controller/demo.Controller.scheduleOnePod | .Controller.ScheduleOne>)
//
// v1.0.0 has only ScheduleOne (the second alternate resolves); v1.0.1
// split the per-pod work out into scheduleOnePod (the first does).
// Compare reports that use as renamed, with the diff of the two
// declarations.
func ExampleCompare() {
	a, b, err := fixtureReleases()
	if err != nil {
		fmt.Println(err)
		return
	}
	refs, err := walkthrough.Refs(os.DirFS("testdata/walkthroughs"), ".")
	if err != nil {
		fmt.Println(err)
		return
	}
	rep := Compare(a, b, refs) // or CompareRef for one reference, as the site does
	var buf bytes.Buffer
	if err := WriteText(&buf, rep); err != nil { // or encoding/json
		fmt.Println(err)
		return
	}
	// The report's renamed reference, its lines as written.
	for _, block := range strings.Split(buf.String(), "\ndemo.md:") {
		if strings.Contains(block, "renamed:") {
			fmt.Print("demo.md:" + block)
		}
	}
	// Output:
	// demo.md:19:1: renamed: go:k8s.io/kubernetes/pkg/controller/demo.Controller.scheduleOnePod | .Controller.ScheduleOne
	//     v1.0.0: demo.Controller.ScheduleOne at pkg/controller/demo/demo.go:38-41 (alternate 2)
	//     v1.0.1: demo.Controller.scheduleOnePod at pkg/controller/demo/demo.go:43-45
	//     --- v1.0.0/pkg/controller/demo/demo.go (demo.Controller.ScheduleOne)
	//     +++ v1.0.1/pkg/controller/demo/demo.go (demo.Controller.scheduleOnePod)
	//     @@ -38,4 +43,3 @@
	//     -// ScheduleOne is split in B, where scheduleOnePod does the work.
	//     -func (c *Controller) ScheduleOne() {
	//     +func (c *Controller) scheduleOnePod() {
	//      	c.recorder.Event(nil, "Normal", "Scheduled", "scheduled")
	//      }
}
