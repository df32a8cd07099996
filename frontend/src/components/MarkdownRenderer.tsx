// Markdown rendering of untrusted model output, loaded as its own chunk (see Markdown.tsx).
import './MarkdownRenderer.css'
import { useState, type CSSProperties, type MouseEvent, type ReactNode } from 'react'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import { useTranslation } from '../i18n'
import { openLink } from '../lib/links'
import { rehypeLazyHighlight, useHighlightVersion } from '../lib/highlight'
import { hastText, isRemoteUrl, isSafeExternalUrl, sanitizeSchema, type HastLike } from '../lib/markdown'
import { CopyButton } from './CopyButton'
import { CODE_LIMITS, countLines } from '../lib/collapse'
import './message.css'

const remarkPlugins = [remarkGfm]
// Order matters: parse raw HTML, sanitize it, THEN highlight (grammars load on demand).
const rehypePlugins = [
  rehypeRaw,
  [rehypeSanitize, sanitizeSchema],
  rehypeLazyHighlight,
] as NonNullable<Parameters<typeof ReactMarkdown>[0]['rehypePlugins']>

function languageOf(node: HastLike | undefined): string | null {
  const code = node?.children?.find((c) => c.type === 'element') as
    | (HastLike & { properties?: { className?: unknown } })
    | undefined
  const cls = code?.properties?.className
  const list = Array.isArray(cls) ? cls.map(String) : typeof cls === 'string' ? cls.split(/\s+/) : []
  const lang = list.find((c) => c.startsWith('language-'))
  return lang ? lang.slice('language-'.length) : null
}

function CodeBlock({ node, children }: { node?: HastLike; children?: ReactNode }) {
  const { t } = useTranslation()
  const lang = languageOf(node)
  const text = hastText(node).replace(/\n$/, '')
  // A long block shows its first lines (clipped) until "Show all".
  const lines = countLines(text)
  const long = lines > CODE_LIMITS.maxLines
  const [showAll, setShowAll] = useState(false)
  return (
    <div className={`code-block ${long && !showAll ? 'is-collapsed' : ''}`} style={{ '--code-show-lines': CODE_LIMITS.showLines } as CSSProperties}>
      <div className="code-block__bar">
        <span className="code-block__lang">{lang ?? t('message.codeLabel')}</span>
        <CopyButton text={text} testId="copy-code" label={t('message.copyCode')} />
      </div>
      <pre>{children}</pre>
      {long && (
        <button type="button" className="show-all show-all--code" data-testid="show-all" aria-expanded={showAll} onClick={() => setShowAll((v) => !v)}>
          {showAll ? t('message.showLess') : t('message.showAll', { count: lines })}
        </button>
      )}
    </div>
  )
}

function RemoteImageBlocked({ src, alt }: { src?: string; alt?: string }) {
  const { t } = useTranslation()
  return (
    <span className="md-img-blocked" data-testid="image-blocked" title={alt || undefined}>
      {src && isRemoteUrl(src)
        ? t('message.remoteImageBlocked', { url: src })
        : t('message.imageBlocked', { alt: alt || src || '' })}
    </span>
  )
}

const components: Components = {
  pre: ({ node, children }) => <CodeBlock node={node as HastLike}>{children}</CodeBlock>,
  // Never load images from the network (tracking pixels, exfiltration).
  img: ({ src, alt }) => <RemoteImageBlocked src={typeof src === 'string' ? src : undefined} alt={alt} />,
  a: ({ href, children, title }) => <SafeLink href={href} title={title}>{children}</SafeLink>,
  table: ({ children }) => (
    <div className="md-table-wrap">
      <table>{children}</table>
    </div>
  ),
}

function SafeLink({ href, title, children }: { href?: string; title?: string; children?: ReactNode }) {
  const url = href ?? ''
  const external = isSafeExternalUrl(url)
  const fragment = url.startsWith('#') && url.length > 1
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    // The webview must never navigate: open http(s)/mailto in the system
    // browser, scroll to in-page footnotes, ignore everything else.
    e.preventDefault()
    if (external) {
      void openLink(url)
    } else if (fragment) {
      const id = decodeURIComponent(url.slice(1))
      const root = (e.currentTarget.closest('.markdown') as HTMLElement | null) ?? document
      const target = root.querySelector(`[id="${CSS.escape(id)}"]`)
      target?.scrollIntoView({ block: 'center', behavior: 'smooth' })
    }
  }
  if (!external && !fragment) {
    // Unsafe or missing href (e.g. javascript:): render inert text.
    return (
      <span className="md-link-inert" title={title}>
        {children}
      </span>
    )
  }
  return (
    <a
      href={url}
      title={title ?? (external ? url : undefined)}
      onClick={onClick}
      onAuxClick={(e) => e.preventDefault()}
      rel="noreferrer noopener"
      target="_blank"
    >
      {children}
    </a>
  )
}

/** The full renderer (its own chunk: remark, rehype, parse5, lowlight). Use `Markdown`. */
export default function MarkdownRenderer({ text, className }: { text: string; className?: string }) {
  // Re-render once a code block's grammar has arrived.
  useHighlightVersion()
  return (
    <div className={`markdown ${className ?? ''}`}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  )
}

