package desktop

import "testing"

func TestGeometrySane(t *testing.T) {
	cases := []struct {
		name string
		in   Geometry
		want Geometry
	}{
		{"zero is the default", Geometry{}, Geometry{Width: defaultWidth, Height: defaultHeight}},
		{"kept", Geometry{Width: 1000, Height: 700, X: 10, Y: 20, Placed: true},
			Geometry{Width: 1000, Height: 700, X: 10, Y: 20, Placed: true}},
		{"too small grows to the minimum", Geometry{Width: 300, Height: 200},
			Geometry{Width: MinWidth, Height: MinHeight}},
		{"negative size is the default", Geometry{Width: -5, Height: 700},
			Geometry{Width: defaultWidth, Height: defaultHeight}},
		{"absurd size is the default", Geometry{Width: 100000, Height: 700},
			Geometry{Width: defaultWidth, Height: defaultHeight}},
		{"absurd position is dropped", Geometry{Width: 1000, Height: 700, X: -99999, Y: 5, Placed: true},
			Geometry{Width: 1000, Height: 700}},
		{"maximised flag kept", Geometry{Width: 1000, Height: 700, Maximised: true},
			Geometry{Width: 1000, Height: 700, Maximised: true}},
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
		in         Geometry
		screenW, h int
		want       Geometry
	}{
		{"fits as it is", Geometry{Width: 1000, Height: 700, X: 60, Y: 40, Placed: true}, 1920, 1080,
			Geometry{Width: 1000, Height: 700, X: 60, Y: 40, Placed: true}},
		{"off the right and bottom edges moves back", Geometry{Width: 1000, Height: 700, X: 1800, Y: 900, Placed: true}, 1920, 1080,
			Geometry{Width: 1000, Height: 700, X: 920, Y: 380, Placed: true}},
		{"off the left and top edges moves back", Geometry{Width: 1000, Height: 700, X: -400, Y: -50, Placed: true}, 1920, 1080,
			Geometry{Width: 1000, Height: 700, X: 0, Y: 0, Placed: true}},
		{"bigger than the screen shrinks", Geometry{Width: 2500, Height: 1400, X: 10, Y: 10, Placed: true}, 1920, 1080,
			Geometry{Width: 1920, Height: 1080, X: 0, Y: 0, Placed: true}},
		{"never below the minimum size", Geometry{Width: 1000, Height: 700}, 800, 500,
			Geometry{Width: MinWidth, Height: MinHeight}},
		{"unplaced stays unplaced", Geometry{Width: 1000, Height: 700, X: 5000}, 1920, 1080,
			Geometry{Width: 1000, Height: 700, X: 5000}},
		{"unknown screen changes nothing", Geometry{Width: 1000, Height: 700, X: 5000, Placed: true}, 0, 0,
			Geometry{Width: 1000, Height: 700, X: 5000, Placed: true}},
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
	want := Geometry{Width: 1000, Height: 700, X: 60, Y: 40, Placed: true, Maximised: true}
	if got != want {
		t.Errorf("parseGeometry = %+v, want %+v", got, want)
	}
	if got := parseGeometry(`{"width":10,"height":10}`); got.Width != MinWidth || got.Height != MinHeight {
		t.Errorf("a stored tiny window is not clamped: %+v", got)
	}
}
