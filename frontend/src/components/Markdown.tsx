import { memo, Suspense } from 'react'
import { lazyWithPreload } from '../lib/lazy'
import './markdown.css'

// The markdown stack (micromark, mdast, hast, parse5, lowlight: ~400 KB of
// JavaScript) is not needed for the first paint: it is its own chunk, fetched
// right after start (preloadMarkdown) or when a message first needs it. Until
// it is there a message shows as plain text.
const MarkdownRenderer = lazyWithPreload(() => import('./MarkdownRenderer'))
let preloaded = false
/** Starts fetching the renderer (and `more`) when the page is idle (once). */
export function preloadMarkdown(more?: () => void) {
  if (preloaded) return
  preloaded = true
  const go = () => {
    void MarkdownRenderer.preload()
    more?.()
  }
  // Well after the first paint (WebKit's first contentful paint can come a few hundred ms
  // after React's first render), then when idle: never in the way of the first window.
  setTimeout(() => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(go, { timeout: 2000 })
    else go()
  }, 1500)
}

function Plain({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`markdown markdown--plain ${className ?? ''}`}>
      <p>{text}</p>
    </div>
  )
}

function MarkdownImpl({ text, className }: { text: string; className?: string }) {
  return (
    <Suspense fallback={<Plain text={text} className={className} />}>
      <MarkdownRenderer text={text} className={className} />
    </Suspense>
  )
}

export const Markdown = memo(MarkdownImpl)
