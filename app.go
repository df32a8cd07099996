package main

import "airlock/facade"

// App is what Wails binds: the page calls window.go.main.App.<Method>. The
// methods are facade.App's, grouped by concern in facade/; main keeps this
// name so the bindings the UI calls stay where they are.
type App struct{ *facade.App }
