package site

import (
	"maps"

	"github.com/kubewalk/kubewalk/internal/derive/trace"
)

// The generated sentences of traces and controller pages (trace.Note) are
// worded in English by the trace package; their translations are here,
// under "trace.note.<ID>", with the same %s in the same order.
func init() {
	for id, text := range trace.NoteText {
		messages["en"]["trace.note."+id] = text
	}
	maps.Copy(messages["ko"], koNotes)
}

var koNotes = map[string]string{
	"trace.note.ancestor":          "이미 위쪽 경로에 있습니다 (되먹임 고리: 자신이나 자신의 소유자가 쓴 것을 지켜봅니다)",
	"trace.note.after-binding":     "필드 셀렉터 spec.nodeName은 객체가 이 노드에 바인딩된 뒤에야 일치합니다",
	"trace.note.depth":             "따라가지 않음: --depth %s에 이르렀습니다",
	"trace.note.seen":              "위에서 펼쳤습니다",
	"trace.note.other-handler":     "%s 핸들러가 없어 %s 핸들러를 보여 줍니다",
	"trace.note.nothing":           "따라갈 것이 없습니다: 핸들러도 동기화 함수도 알려져 있지 않습니다",
	"trace.note.secondary":         "동기화 함수는 %s를 다룹니다 (%s가 그 이름을 담고 있습니다). 이 감시는 관련 객체를 큐에 넣기만 합니다",
	"trace.note.secondary-unknown": "지켜보는 리소스(%s) 중 어느 것을 동기화하는지 %s만으로는 알 수 없습니다",
	"trace.note.raw-reflector":     "원시 리플렉터: 저장소가 채널이나 콜백으로 객체를 넘기며, 호출 간선은 이를 따라가지 못합니다",

	"trace.note.no-watcher":      "분석한 루트에서 %s의 감시자를 찾지 못했습니다 (리소스를 알 수 없는 인포머, 동적 인포머, 루트 밖의 컨트롤러는 보이지 않습니다)",
	"trace.note.unknown-lw":      "원시 list-watch %s개를 리소스에 맞추지 못했습니다 (분석기가 list-watch의 리소스를 알아내지 못했습니다): %s",
	"trace.note.handler-dynamic": "핸들러: 정적으로 해석되지 않음 (%s)",
	"trace.note.no-sync":         "큐 → 동기화: 핸들러 타입에 sync 핸들러 연결도 Run 메서드도 없어, 쓰기를 핸들러 자체에서 찾습니다",
	"trace.note.sync-by-name":    "큐 → 동기화: %s에 sync 핸들러 필드가 없어, 워커 루프의 경로 %s에서 이름으로 동기화 함수를 찾았습니다",
	"trace.note.sync-from-run":   "큐 → 동기화: %s에 sync 핸들러 필드가 없고 워커 루프가 sync… 메서드를 부르지 않아, 쓰기를 %s에서 찾습니다",
	"trace.note.no-queue":        "핸들러 → 큐: %s에서 작업 큐 필드를 찾지 못했습니다",
	"trace.note.queue-by-field":  "핸들러 → 큐: 함수 필드 %s(연결 위치 %s)를 거친다고 가정했습니다. 함수 필드를 통한 호출은 호출 간선이 아닙니다",
	"trace.note.no-queue-path":   "핸들러 → 큐: 핸들러에서 %s에 넣는 함수까지 %s번 호출 안에 이르는 경로가 없습니다",
	"trace.note.no-reflector":    "리플렉터: list-watch의 함수나 그 함수가 부르는 함수에서 cache.NewReflector 호출을 찾지 못했습니다",
	"trace.note.reflector-push":  "리플렉터 → 소비자: 저장소의 push 함수가 객체를 넘깁니다 (kubelet은 채널로 보냅니다). 그것을 읽는 쪽은 호출 간선으로 이어지지 않습니다",
	"trace.note.no-write":        "동기화 → 쓰기: %s번 호출 안에서 %s의 API 쓰기를 찾지 못했습니다",

	"trace.note.no-constructor":  "%s에서 컨트롤러 패키지의 생성자를 찾지 못했습니다",
	"trace.note.outside":         "%s에는 핸들러 등록도 sync 연결도 사실로 잡히지 않았습니다: 코드가 분석한 패키지 밖에 있습니다",
	"trace.note.no-registration": "%s나 그것이 만드는 값의 Run 메서드에서 %s번 호출 안에 이르는 인포머 핸들러 등록이 %s에 없습니다 (리스터로만 읽는 인포머는 등록이 아닙니다)",
	"trace.note.no-sync-wiring":  "%s에서 sync 연결도 Run 메서드도 찾지 못했습니다",
}

// note is a trace's generated sentence in the page's language.
func (b *builder) note(n trace.Note) string {
	if n.IsZero() {
		return ""
	}
	return n.Format(b.t("trace.note." + n.ID))
}

// notes is note of each.
func (b *builder) notes(ns []trace.Note) []string {
	var out []string
	for _, n := range ns {
		if n.Diagnostic() {
			continue // the analyzer's limits are for `kubewalk trace`, not for readers
		}
		out = append(out, b.note(n))
	}
	return out
}
