// A program with line numbers, highlighted: its own chunk (lowlight and the
// grammar load on demand), so the code card costs nothing at start.
import { Fragment, useEffect, useState, type ReactNode } from 'react'
import { lowlight, whenLanguage, MAX_HIGHLIGHT_CHARS } from '../lib/highlight'
import './MarkdownRenderer.css'

type Node = { type: string; value?: string; tagName?: string; properties?: { className?: unknown }; children?: Node[] }

function render(nodes: Node[] | undefined): ReactNode {
  return (nodes ?? []).map((n, i) => {
    if (n.type === 'text') return <Fragment key={i}>{n.value}</Fragment>
    if (n.type !== 'element') return null
    const cls = n.properties?.className
    return (
      <span key={i} className={Array.isArray(cls) ? cls.join(' ') : undefined}>
        {render(n.children)}
      </span>
    )
  })
}

export default function CodeListing({ code, language }: { code: string; language: string }) {
  const [ready, setReady] = useState(() => lowlight.registered(language))
  useEffect(() => {
    let live = true
    void whenLanguage(language).then((ok) => live && setReady(ok))
    return () => {
      live = false
    }
  }, [language])
  const lines = code.replace(/\n$/, '').split('\n')
  const body =
    ready && code.length <= MAX_HIGHLIGHT_CHARS ? render(lowlight.highlight(language, code).children as Node[]) : code
  return (
    <div className="code-listing" data-testid="code-listing" data-highlighted={ready ? 'true' : undefined}>
      <pre className="code-listing__gutter" aria-hidden="true">
        {lines.map((_, i) => `${i + 1}\n`).join('')}
      </pre>
      <pre className="code-listing__code">
        <code className={`hljs language-${language}`}>{body}</code>
      </pre>
    </div>
  )
}
