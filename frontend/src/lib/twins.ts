// Chats that share a title cannot be told apart by it: they get a short
// date and time beside it (when each was started), in the list and in
// search results. Chats with a unique title get nothing.

type Titled = { id: string; title: string; createdAt: number }

/** "Nov 24, 14:02" in the UI's locale. */
export function shortStamp(ts: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ts)
}

/** For each chat whose title another chat also has: its distinguishing label. */
export function twinLabels(chats: Titled[], locale: string, untitled = ''): Map<string, string> {
  const byTitle = new Map<string, Titled[]>()
  for (const c of chats) {
    const key = (c.title || untitled).trim().toLowerCase()
    byTitle.set(key, [...(byTitle.get(key) ?? []), c])
  }
  const out = new Map<string, string>()
  for (const group of byTitle.values()) {
    if (group.length < 2) continue
    const seen = new Map<string, number>()
    for (const c of [...group].sort((a, b) => a.createdAt - b.createdAt)) {
      const stamp = shortStamp(c.createdAt, locale)
      const n = (seen.get(stamp) ?? 0) + 1
      seen.set(stamp, n)
      out.set(c.id, n > 1 ? `${stamp} (${n})` : stamp) // same minute: numbered
    }
  }
  return out
}
