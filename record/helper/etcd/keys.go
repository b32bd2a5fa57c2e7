//go:build kubewalk_helper

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

// key is one line of output: what etcdctl get --prefix -w json tells of a
// key, what the value's envelope says, and the key's values since the
// cluster began, each decoded with the release's own scheme.
type key struct {
	Key            string `json:"key"`
	Size           int    `json:"size"`
	CreateRevision int64  `json:"createRevision"`
	ModRevision    int64  `json:"modRevision"`
	Version        int64  `json:"version"`
	// Encoding is "protobuf" for values behind the k8s\x00 magic
	// (runtime.Unknown envelopes), "json" for values starting with '{',
	// otherwise "other".
	Encoding   string `json:"encoding"`
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	// Prefix is the value's first bytes, as etcdctl prints them.
	Prefix string `json:"prefix"`
	// Deleted: the key has no value now; the fields above are of its
	// last value, but ModRevision, which is the delete's.
	Deleted   bool       `json:"deleted,omitempty"`
	Revisions []revision `json:"revisions"`
}

// revision is one change of a key: a put, with its value decoded to JSON,
// or a delete.
type revision struct {
	Revision int64 `json:"revision"`
	Version  int64 `json:"version"`
	Deleted  bool  `json:"deleted,omitempty"`
	Size     int   `json:"size,omitempty"`
	// Object is the value as the API serves it in JSON (before the API
	// server sets resourceVersion, which etcd does not store); Error
	// says why there is none.
	Object json.RawMessage `json:"object,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// protobufMagic is what the API server's protobuf serializer puts before
// every value it stores (k8s.io/apimachinery/pkg/runtime/serializer/protobuf).
var protobufMagic = []byte("k8s\x00")

// listKeys prints the keys under the prefixes, each with its history.
// The history is a watch of the whole key space from revision 1 (the API
// server writes outside /registry/ too, its compaction key) read up to
// the revision of the listing, so every revision comes once.
func listKeys(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: etcd kubewalk-keys ENDPOINT PREFIX...")
		return 2
	}
	prefixes := args[1:]
	c, err := clientv3.New(clientv3.Config{Endpoints: []string{args[0]}, DialTimeout: 5 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resp, err := c.Get(ctx, "/registry/", clientv3.WithPrefix(), clientv3.WithSort(clientv3.SortByKey, clientv3.SortAscend))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	keys := map[string]*key{}
	// last holds each key's last value, for a key deleted since.
	last := map[string][]byte{}
	for _, kv := range resp.Kvs {
		if !under(string(kv.Key), prefixes) {
			continue
		}
		k := &key{Key: string(kv.Key), CreateRevision: kv.CreateRevision, ModRevision: kv.ModRevision, Version: kv.Version}
		envelope(k, kv.Value)
		keys[k.Key] = k
	}
	if err := history(ctx, c, resp.Header.Revision, prefixes, keys, last); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	names := make([]string, 0, len(keys))
	for n := range keys {
		names = append(names, n)
	}
	sort.Strings(names)
	enc := json.NewEncoder(os.Stdout)
	for _, n := range names {
		k := keys[n]
		if k.Deleted {
			envelope(k, last[n])
		}
		if err := enc.Encode(k); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

func under(k string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// history watches from revision 1 to end and gives each key under the
// prefixes its revisions; a key deleted since gets a key of its own. A
// compacted history starts at the compaction's revision.
func history(ctx context.Context, c *clientv3.Client, end int64, prefixes []string, keys map[string]*key, last map[string][]byte) error {
	from := int64(1)
	for from <= end {
		wctx, cancel := context.WithCancel(ctx)
		wch := c.Watch(wctx, "\x00", clientv3.WithFromKey(), clientv3.WithRev(from))
		compacted := int64(0)
		for wr := range wch {
			if wr.CompactRevision != 0 {
				compacted = wr.CompactRevision
				break
			}
			if err := wr.Err(); err != nil {
				cancel()
				return fmt.Errorf("watch from revision %d: %w", from, err)
			}
			for _, ev := range wr.Events {
				kv := ev.Kv
				from = kv.ModRevision + 1
				if kv.ModRevision > end || !under(string(kv.Key), prefixes) {
					continue
				}
				name := string(kv.Key)
				k := keys[name]
				if k == nil {
					k = &key{Key: name, Deleted: true}
					keys[name] = k
				}
				rev := revision{Revision: kv.ModRevision, Version: kv.Version}
				if ev.Type == clientv3.EventTypeDelete {
					rev.Deleted = true
					if k.Deleted {
						k.ModRevision = kv.ModRevision
					}
				} else {
					rev.Size = len(kv.Value)
					rev.Object, rev.Error = decode(kv.Value)
					last[name] = kv.Value
					if k.Deleted {
						k.CreateRevision, k.Size = kv.CreateRevision, len(kv.Value)
					}
				}
				k.Revisions = append(k.Revisions, rev)
			}
			if from > end {
				break
			}
		}
		cancel()
		if ctx.Err() != nil {
			return fmt.Errorf("watch: %w", ctx.Err())
		}
		if compacted != 0 {
			from = compacted
		}
	}
	return nil
}

// envelope fills in what the value's first bytes say: its encoding, the
// apiVersion and kind of its envelope, and its prefix as etcdctl prints
// it.
func envelope(k *key, value []byte) {
	if !k.Deleted {
		k.Size = len(value)
	}
	k.Encoding = "other"
	switch {
	case bytes.HasPrefix(value, protobufMagic):
		k.Encoding = "protobuf"
		var u runtime.Unknown
		if err := u.Unmarshal(value[len(protobufMagic):]); err == nil {
			k.APIVersion, k.Kind = u.APIVersion, u.Kind
		}
	case bytes.HasPrefix(value, []byte("{")):
		k.Encoding = "json"
		var tm struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if json.Unmarshal(value, &tm) == nil {
			k.APIVersion, k.Kind = tm.APIVersion, tm.Kind
		}
	}
	n := min(len(value), 40)
	k.Prefix = fmt.Sprintf("%q", value[:n])
}

// decode turns a stored value into the JSON the API would serve, through
// the release's client-go scheme, as etcd-io/auger does: protobuf behind
// k8s\x00 or JSON, whichever the recognizing deserializer finds. A JSON
// value of a kind the scheme does not know is kept as it is.
func decode(value []byte) (json.RawMessage, string) {
	obj, gvk, err := scheme.Codecs.UniversalDeserializer().Decode(value, nil, nil)
	if err != nil {
		if bytes.HasPrefix(value, []byte("{")) && json.Valid(value) {
			return value, ""
		}
		return nil, err.Error()
	}
	obj.GetObjectKind().SetGroupVersionKind(*gvk)
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err.Error()
	}
	return b, ""
}
