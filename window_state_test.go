package main

import "testing"

func TestGeometrySane(t *testing.T) {
	cases := []struct {
		name string
		in   windowGeometry
		want windowGeometry
	}{
		{"zero is the default", windowGeometry{}, windowGeometry{Width: defaultWidth, Height: defaultHeight}},
		{"kept", windowGeometry{Width: 1000, Height: 700, X: 10, Y: 20, Placed: true},
			windowGeometry{Width: 1000, Height: 700, X: 10, Y: 20, Placed: true}},
		{"too small grows to the minimum", windowGeometry{Width: 300, Height: 200},
			windowGeometry{Width: minWidth, Height: minHeight}},
		{"negative size is the default", windowGeometry{Width: -5, Height: 700},
			windowGeometry{Width: defaultWidth, Height: defaultHeight}},
		{"absurd size is the default", windowGeometry{Width: 100000, Height: 700},
			windowGeometry{Width: defaultWidth, Height: defaultHeight}},
		{"absurd position is dropped", windowGeometry{Width: 1000, Height: 700, X: -99999, Y: 5, Placed: true},
			windowGeometry{Width: 1000, Height: 700}},
		{"maximised flag kept", windowGeometry{Width: 1000, Height: 700, Maximised: true},
			windowGeometry{Width: 1000, Height: 700, Maximised: true}},
	}
	for _, c := range cases {
		if got := c.in.sane(); got != c.want {
			t.Errorf("%s: sane(%+v) = %+v, want %+v", c.name, c.in, got, c.want)
		}
	}
}

func TestGeometryFitScreen(t *testing.T) {
	cases := []struct {
		name       string
		in         windowGeometry
		screenW, h int
		want       windowGeometry
	}{
		{"fits as it is", windowGeometry{Width: 1000, Height: 700, X: 60, Y: 40, Placed: true}, 1920, 1080,
			windowGeometry{Width: 1000, Height: 700, X: 60, Y: 40, Placed: true}},
		{"off the right and bottom edges moves back", windowGeometry{Width: 1000, Height: 700, X: 1800, Y: 900, Placed: true}, 1920, 1080,
			windowGeometry{Width: 1000, Height: 700, X: 920, Y: 380, Placed: true}},
		{"off the left and top edges moves back", windowGeometry{Width: 1000, Height: 700, X: -400, Y: -50, Placed: true}, 1920, 1080,
			windowGeometry{Width: 1000, Height: 700, X: 0, Y: 0, Placed: true}},
		{"bigger than the screen shrinks", windowGeometry{Width: 2500, Height: 1400, X: 10, Y: 10, Placed: true}, 1920, 1080,
			windowGeometry{Width: 1920, Height: 1080, X: 0, Y: 0, Placed: true}},
		{"never below the minimum size", windowGeometry{Width: 1000, Height: 700}, 800, 500,
			windowGeometry{Width: minWidth, Height: minHeight}},
		{"unplaced stays unplaced", windowGeometry{Width: 1000, Height: 700, X: 5000}, 1920, 1080,
			windowGeometry{Width: 1000, Height: 700, X: 5000}},
		{"unknown screen changes nothing", windowGeometry{Width: 1000, Height: 700, X: 5000, Placed: true}, 0, 0,
			windowGeometry{Width: 1000, Height: 700, X: 5000, Placed: true}},
	}
	for _, c := range cases {
		if got := c.in.fitScreen(c.screenW, c.h); got != c.want {
			t.Errorf("%s: fitScreen(%+v, %dx%d) = %+v, want %+v", c.name, c.in, c.screenW, c.h, got, c.want)
		}
	}
}

func TestParseGeometry(t *testing.T) {
	for _, s := range []string{"", "{", "null", `"x"`, `{"width":"wide"}`} {
		if got := parseGeometry(s); got != defaultGeometry() {
			t.Errorf("parseGeometry(%q) = %+v, want the default", s, got)
		}
	}
	got := parseGeometry(`{"width":1000,"height":700,"x":60,"y":40,"placed":true,"maximised":true}`)
	want := windowGeometry{Width: 1000, Height: 700, X: 60, Y: 40, Placed: true, Maximised: true}
	if got != want {
		t.Errorf("parseGeometry = %+v, want %+v", got, want)
	}
	if got := parseGeometry(`{"width":10,"height":10}`); got.Width != minWidth || got.Height != minHeight {
		t.Errorf("a stored tiny window is not clamped: %+v", got)
	}
}
