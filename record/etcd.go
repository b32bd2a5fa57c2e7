package record

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// keys lists the scenario's etcd keys through the etcd client of the
// release's etcd.
func (r *run) keys(ctx context.Context, sc Scenario) ([]Key, error) {
	out, err := r.output(ctx, r.bins.Path("etcd"), "kubewalk-keys", fmt.Sprintf("http://127.0.0.1:%d", r.etcdPort), "/registry/")
	if err != nil {
		return nil, fmt.Errorf("record: etcd keys: %w", err)
	}
	var keys []Key
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var k Key
		if err := dec.Decode(&k); err != nil {
			return nil, fmt.Errorf("record: etcd keys: %w", err)
		}
		for _, p := range sc.Keys {
			if strings.HasPrefix(k.Key, p) {
				keys = append(keys, k)
				break
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].Key < keys[j].Key })
	return keys, nil
}
