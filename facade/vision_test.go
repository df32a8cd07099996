package facade

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"airlock/backend/chat"
)

// TestModelVisionFacade: an Ollama-like server says the model has no
// vision; the facade asks it once and keeps the answer, the user's word
// wins over it, and forgetting the user's word asks the server again.
func TestModelVisionFacade(t *testing.T) {
	var shows atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/models":
			w.Write([]byte(`{"object":"list","data":[{"id":"llama3.2:latest","object":"model","created":1745348226,"owned_by":"library"}]}`))
		case "/api/show": // Ollama 0.6+ (testdata of backend/llm: ollama_show.json)
			shows.Add(1)
			w.Write([]byte(`{"details":{"format":"gguf","family":"llama"},"model_info":{"llama.context_length":131072},"capabilities":["completion","tools"]}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	a := testApp(t)
	p, err := a.SaveProvider(chat.Provider{Name: "ollama", BaseURL: srv.URL + "/v1", Model: "llama3.2:latest"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := a.ModelVision(p.ID, "")
	if err != nil || v.Sees != "no" || v.Source != "server" || v.Server != "no" {
		t.Fatalf("first read: %+v %v; want no from the server", v, err)
	}
	if v, _ = a.ModelVision(p.ID, ""); shows.Load() != 1 || v.Sees != "no" {
		t.Fatalf("second read asked again (%d shows) or lost the answer: %+v", shows.Load(), v)
	}
	if v, err = a.SetModelVision(p.ID, "", "yes"); err != nil || v.Sees != "yes" || v.Source != "user" || v.Server != "no" {
		t.Fatalf("the user's yes: %+v %v", v, err)
	}
	if v, err = a.SetModelVision(p.ID, "", ""); err != nil || v.Sees != "no" || v.Source != "server" || shows.Load() != 2 {
		t.Fatalf("forgetting the user's word: %+v %v after %d shows; want the server asked again", v, err, shows.Load())
	}
}
