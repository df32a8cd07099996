import './Markdown.css'
import { memo, useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react'
import { openLink } from '../lib/links'
import ReactMarkdown, { type Components } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import rehypeRaw from 'rehype-raw'
import rehypeSanitize from 'rehype-sanitize'
import rehypeHighlight from 'rehype-highlight'
import { useTranslation } from 'react-i18next'
import { copyText } from '../api'
import { hastText, isRemoteUrl, isSafeExternalUrl, sanitizeSchema, type HastLike } from '../lib/markdown'
import { CheckIcon, CopyIcon } from './icons'

const remarkPlugins = [remarkGfm]
// Order matters: parse raw HTML, sanitize it, THEN highlight.
const rehypePlugins = [
  rehypeRaw,
  [rehypeSanitize, sanitizeSchema],
  [rehypeHighlight, { detect: false }],
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

export function CopyButton({
  text,
  label,
  className,
  testId,
  showLabel = true,
}: {
  text: string
  label?: string
  className?: string
  testId?: string
  showLabel?: boolean
}) {
  const { t } = useTranslation()
  const [copied, setCopied] = useState(false)
  const [failed, setFailed] = useState(false)
  const timer = useRef<number>()
  useEffect(() => () => window.clearTimeout(timer.current), [])
  const onClick = useCallback(async () => {
    try {
      await copyText(text)
      setCopied(true)
      setFailed(false)
    } catch {
      setFailed(true)
    }
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => {
      setCopied(false)
      setFailed(false)
    }, 1600)
  }, [text])
  const current = failed ? t('common.copyFailed') : copied ? t('common.copied') : (label ?? t('common.copy'))
  return (
    <button
      type="button"
      className={`copy-btn ${copied ? 'is-copied' : ''} ${className ?? ''}`}
      onClick={onClick}
      data-testid={testId}
      aria-label={current}
      title={showLabel ? undefined : current}
    >
      {copied ? <CheckIcon /> : <CopyIcon />}
      {showLabel && <span aria-live="polite">{current}</span>}
    </button>
  )
}

function CodeBlock({ node, children }: { node?: HastLike; children?: ReactNode }) {
  const { t } = useTranslation()
  const lang = languageOf(node)
  const text = hastText(node).replace(/\n$/, '')
  return (
    <div className="code-block">
      <div className="code-block__bar">
        <span className="code-block__lang">{lang ?? t('message.codeLabel')}</span>
        <CopyButton text={text} testId="copy-code" label={t('message.copyCode')} />
      </div>
      <pre>{children}</pre>
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

function MarkdownImpl({ text, className }: { text: string; className?: string }) {
  return (
    <div className={`markdown ${className ?? ''}`}>
      <ReactMarkdown remarkPlugins={remarkPlugins} rehypePlugins={rehypePlugins} components={components}>
        {text}
      </ReactMarkdown>
    </div>
  )
}

export const Markdown = memo(MarkdownImpl)
