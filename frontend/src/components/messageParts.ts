// The parts of a message that are their own chunks, and their idle preload.
// Apart from MessageItem so that App can start the preload while MessageItem
// itself stays in the message list's chunk (not needed for the first paint).
import { lazyWithPreload } from '../lib/lazy'
import { preloadMarkdown } from './Markdown'
// Code blocks and Show all are styled here for Tool lab too: kept in the start CSS.
import './message.css'

// Tool cards (cards, undo, changes) are their own chunk, fetched while idle
// after start (preloadMessageParts) so they are there before any call arrives.
export const MessageCalls = lazyWithPreload(() => import('./ToolCalls').then((m) => ({ default: m.MessageCalls })))
export const FormingCards = lazyWithPreload(() => import('./FormingCards').then((m) => ({ default: m.FormingCards })))

/** Fetches what messages render with (markdown, tool cards, and `more`) once the page is idle. */
export function preloadMessageParts(more?: () => void) {
  preloadMarkdown(() => {
    void MessageCalls.preload()
    void FormingCards.preload()
    more?.()
  })
}

