package graph

import "testing"

func TestTemporalUILinks(t *testing.T) {
	run := "0199-abc"
	for _, c := range []struct {
		ui   temporalUI
		run  *string
		want string
	}{
		{temporalUI{}, &run, ""},
		{temporalUI{base: "http://127.0.0.1:8233/", namespace: "default"}, nil, "http://127.0.0.1:8233/namespaces/default/workflows/certification-run-1"},
		{temporalUI{base: "https://t.example", namespace: "prod ns"}, &run, "https://t.example/namespaces/prod%20ns/workflows/certification-run-1/0199-abc/history"},
	} {
		if got := c.ui.link("certification-run-1", c.run); got != c.want {
			t.Errorf("link = %q, want %q", got, c.want)
		}
	}
}
