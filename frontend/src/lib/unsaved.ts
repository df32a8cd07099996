// Forms with edits not saved yet, so a dialog closing over them (Escape,
// the close button) can ask first. Read at the moment of closing only.
const marks = new Set<string>()

/** A form says whether it holds unsaved edits (and clears its mark when it goes). */
export function markUnsaved(key: string, on: boolean): void {
  if (on) marks.add(key)
  else marks.delete(key)
}

export const hasUnsaved = (): boolean => marks.size > 0

/** Forgets every mark (the edits were discarded). */
export function clearUnsaved(): void {
  marks.clear()
}
