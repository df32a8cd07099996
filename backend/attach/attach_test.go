package attach

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"strings"
	"testing"

	"airlock/backend/chat"
)

func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngBomb is a tiny PNG whose header claims w×h pixels.
func pngBomb(w, h uint32) []byte {
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0 // 8-bit grey
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	binary.Write(&b, binary.BigEndian, uint32(len(ihdr)))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestCheckRefusesWithTheCapOrReasonNamed(t *testing.T) {
	for name, tc := range map[string]struct {
		file string
		data []byte
		want string
	}{
		"200 MB file":    {"big.log", bytes.Repeat([]byte("a"), 200<<20), "at most 20 MB"},
		"PNG bomb":       {"bomb.png", pngBomb(100_000, 100_000), "at most 40 million pixels"},
		"SVG named .png": {"cat.png", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`), "not a PNG, JPEG, GIF or WebP"},
		"PDF":            {"paper.pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), "does not read PDFs"},
		"binary":         {"a.out", []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0}, "not a file Airlock can send"},
		"invalid UTF-8":  {"latin1.txt", []byte("caf\xe9 cr\xe8me"), "UTF-8"},
		"empty":          {"empty.txt", nil, "is empty"},
		"broken PNG":     {"half.png", []byte("\x89PNG\r\n\x1a\n\x00\x00"), "cannot be read"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Check(tc.file, tc.data)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check(%s) = %v; want an error saying %q", tc.file, err, tc.want)
			}
		})
	}
}

func TestCheckAccepts(t *testing.T) {
	img, err := Check("shot.png", pngOf(t, 40, 30))
	if err != nil || img.Kind != KindImage || img.MIME != "image/png" || img.Width != 40 || img.Height != 30 {
		t.Fatalf("png: %+v %v", img.Attachment, err)
	}
	// sniffed, not named: a PNG called .txt is an image
	if a, err := Check("really.txt", pngOf(t, 2, 2)); err != nil || a.Kind != KindImage {
		t.Errorf("PNG named .txt: %+v %v", a.Attachment, err)
	}
	for _, name := range []string{"main.go", "notes.md", "data.csv", "x.json", "server.log"} {
		a, err := Check(name, []byte("id,name\n1,\"数据\"\n"))
		if err != nil || a.Kind != KindText {
			t.Errorf("%s: %+v %v", name, a.Attachment, err)
		}
	}
	if a, _ := Check("d.csv", []byte("a,b")); a.MIME != "text/csv" || len(a.SHA256) != 64 {
		t.Errorf("csv: %+v", a.Attachment)
	}
}

func TestCheckMessageCaps(t *testing.T) {
	f, _ := Check("a.txt", bytes.Repeat([]byte("a"), 19<<20))
	if err := CheckMessage([]chat.AttachmentData{f, f, f}); err == nil || !strings.Contains(err.Error(), "at most 50 MB") {
		t.Errorf("57 MB in one message: %v", err)
	}
}

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"evil\nname\r.png":       "evil_name_.png",
		"../../etc/passwd":       "passwd",
		`C:\Users\x\a.txt`:       "a.txt",
		"a\u202egnp.exe":         "a_gnp.exe",
		"\x00\x1b[31mred.txt":    "__[31mred.txt",
		"":                       "attachment",
		"..":                     "attachment",
		strings.Repeat("é", 300): strings.Repeat("é", MaxNameRunes),
	} {
		if got := SafeName(in); got != want {
			t.Errorf("SafeName(%q) = %q, want %q", in, got, want)
		}
	}
	if _, err := Check("bad\nname.txt", []byte("x")); err != nil {
		t.Fatal(err)
	} else if a, _ := Check("bad\nname.txt", []byte("x")); strings.ContainsAny(a.Name, "\n") {
		t.Errorf("kept name %q", a.Name)
	}
}

func TestDataURLScalesDown(t *testing.T) {
	small := pngOf(t, 10, 10)
	if u := DataURL("image/png", small); !strings.HasPrefix(u, "data:image/png;base64,") || len(u) > 200 {
		t.Errorf("small image changed: %.80s", u)
	}
	m, d, ok := scaleDown("image/png", pngOf(t, 1000, 4000))
	cfg, _, err := image.DecodeConfig(bytes.NewReader(d))
	if !ok || err != nil || m != "image/png" || cfg.Height != MaxSentSide || cfg.Width != 512 {
		t.Errorf("scaled: %v %v %s %dx%d", ok, err, m, cfg.Width, cfg.Height)
	}
}

func TestTextBlockFence(t *testing.T) {
	b := TextBlock("a.md", []byte("x\n```\ny"))
	if !strings.HasPrefix(b, "File: a.md\n````\n") || !strings.HasSuffix(b, "\n````") {
		t.Errorf("block: %q", b)
	}
}
