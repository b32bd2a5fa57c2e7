package analyzer

func buildXrefs(prog *Program) []FileXref { return nil }
