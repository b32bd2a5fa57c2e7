package fact

// Locations calls add with every location the facts point at: where each
// handler registration, event, write and wiring is, and the functions it
// names. These are the files a site renders source pages of for its
// facts, and so the packages a recorded run counts coverage in.
func Locations(hs []HandlerRegistration, es []Event, ws []Write, wis []Wiring, add func(Location)) {
	for _, h := range hs {
		add(h.At)
		add(h.Caller.Decl)
		for _, x := range []*Handler{h.Add, h.Update, h.Delete, h.Filter} {
			if x != nil {
				add(x.Decl)
			}
		}
	}
	for _, e := range es {
		add(e.At)
		add(e.Caller.Decl)
	}
	for _, w := range ws {
		add(w.At)
		add(w.Caller.Decl)
	}
	for _, w := range wis {
		add(w.At)
		add(w.Sync.Decl)
		for _, e := range w.Enqueuers {
			add(e.Decl)
		}
		if w.Worker != nil {
			add(w.Worker.Decl)
		}
	}
}
