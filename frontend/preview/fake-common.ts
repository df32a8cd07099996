// What the preview's fake backend modules share: time units, ids, errors as the
// Go side sends them, a short wait, a deep copy, and the sample texts.
export const MIN = 60_000
export const HOUR = 60 * MIN
export const DAY = 24 * HOUR

let idn = 0
export const newId = () => `${Date.now().toString(16)}${(++idn).toString(16).padStart(4, '0')}`


export const apiErr = (code: string, message: string) => JSON.stringify({ code, message })
export const wait = (ms = 60) => new Promise((r) => setTimeout(r, ms))
export const clone = <T,>(v: T): T => JSON.parse(JSON.stringify(v))

export const MARKDOWN_SAMPLE = `Here's a quick comparison for building **command-line tools**:

| | Rust | Go |
|---|---|---|
| Startup time | ~1 ms | ~2 ms |
| Binary size | small (with \`strip\`) | medium |
| Learning curve | steep | gentle |
| Cross-compiling | good | excellent |

### A tiny CLI in Rust

\`\`\`rust
use std::env;

fn main() {
    let name = env::args().nth(1).unwrap_or_else(|| "world".into());
    println!("Hello, {name}!"); // prints a greeting
}
\`\`\`

### The same in Go

\`\`\`go
package main

import (
	"fmt"
	"os"
)

func main() {
	name := "world"
	if len(os.Args) > 1 {
		name = os.Args[1]
	}
	fmt.Printf("Hello, %s!\\n", name)
}
\`\`\`

**My take:**

1. Pick **Go** if you want to ship quickly and your team is new to systems languages.
2. Pick **Rust** when you need tight control over memory or the fastest cold start.
   - Try [clap](https://docs.rs/clap) for argument parsing.
   - Read the [Rust CLI book](https://rust-cli.github.io/book/).

> Either way, keep the binary self-contained — your users will thank you.

This link is inert: [click me](javascript:alert(1)) and this image is blocked: ![tracker](https://example.com/pixel.png)
`

export const REASONING_SAMPLE = `The user is choosing between Rust and Go for CLI tools. Key axes: startup time, binary size, ergonomics, ecosystem.

Both compile to native code, so startup is fast for both. Rust has no GC; Go's runtime adds a little. I'll give a table, two small examples and a recommendation.`

export const STORY = `# The Lighthouse Keeper's Daughter

The fog came in the way it always did in late October — not rolling, but *settling*, as if the sea had exhaled and forgotten to breathe back in. Mara watched it from the lamp room, her breath fogging the glass in small, patient circles.

Her father had kept the light for thirty-one years. He used to say that a lighthouse was not a warning but a promise: *you are not alone out there*. She had not understood that until the winter he died, when she climbed the hundred and twelve steps every night because no one else would.

The ships didn't know who lit the lamp. That was the point.

On the ninth night of the fog, a bell rang out over the water — three slow strokes, then silence. Mara counted the seconds the way her father had taught her. *One, two, three…* At eleven, the bell rang again, closer.

She wound the clockwork, trimmed the wick, and wiped the great lens until it shone like a second moon. Then she did something her father had never done: she opened the gallery door and stepped out into the cold, holding a hand lantern high, as if one more small light could make a difference.

It did.

The boat that came out of the fog was a fishing skiff, its mast snapped, two boys at the oars and an old man bailing with a tin cup. They had followed the beam for an hour, they said, and then — when they lost it in the thickest of the fog — they had followed the little light on the gallery, swinging like a heartbeat.

Mara made them tea. She did not tell them that she had almost stayed inside.

In the spring, the harbour council offered to automate the lighthouse. Mara thanked them, and said no, and climbed the stairs that night the way she always did: one step at a time, counting, keeping the promise.
`

export function chunk(text: string, size = 6): string[] {
  const out: string[] = []
  const words = text.split(/(\s+)/)
  let cur = ''
  for (const w of words) {
    cur += w
    if (cur.length >= size) {
      out.push(cur)
      cur = ''
    }
  }
  if (cur) out.push(cur)
  return out
}
