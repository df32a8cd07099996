// A one-shot wish for what Settings → Providers shows first when it opens
// ("Connect a real model" wants the Add provider form, not the demo).
let next: 'new' | null = null

export function wantAddProvider() {
  next = 'new'
}

/** The wish, once: the panel reads it when it mounts. */
export function takeProviderIntent(): 'new' | null {
  const v = next
  next = null
  return v
}
