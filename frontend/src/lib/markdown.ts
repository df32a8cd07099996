// The markdown pipeline for UNTRUSTED model output.
//
// remark-gfm → remark-rehype → rehype-raw (parse inline HTML so it can be
// sanitized instead of shown as text) → rehype-sanitize (GitHub's schema,
// tightened) → rehype-highlight (after sanitize, so its classes are ours).
// Images and links are then rendered by components that never load remote
// content and never navigate the webview.
import type { Options as SanitizeSchema } from 'rehype-sanitize'
import { defaultSchema } from 'rehype-sanitize'

const SAFE_LINK_PROTOCOLS = ['http', 'https', 'mailto']

export const sanitizeSchema: SanitizeSchema = {
  ...defaultSchema,
  // GitHub's schema already drops script/style/iframe/object/form/video etc.
  // Also drop <picture>/<source>: their srcset would load remote images.
  tagNames: (defaultSchema.tagNames ?? []).filter((t) => t !== 'picture' && t !== 'source'),
  // Remove these with their contents (not just the tag).
  strip: ['script', 'style', 'template', 'noscript', 'iframe', 'object', 'embed'],
  attributes: {
    ...defaultSchema.attributes,
    // language-* from fenced code; hljs classes are added after sanitizing,
    // but allow them in case the model wrote them in raw HTML (harmless).
    code: [['className', /^language-[\w+#.-]+$/, /^hljs(-[\w-]+)?$/]],
    span: [['className', /^hljs(-[\w-]+)?$/]],
  },
  protocols: {
    ...defaultSchema.protocols,
    href: SAFE_LINK_PROTOCOLS,
    src: ['http', 'https'],
  },
}

/** True for URLs we are willing to hand to the system browser. */
export function isSafeExternalUrl(href: string | undefined | null): boolean {
  if (!href) return false
  return /^(https?:\/\/|mailto:)/i.test(href.trim())
}

export function isRemoteUrl(src: string | undefined | null): boolean {
  if (!src) return false
  return /^(https?:)?\/\//i.test(src.trim())
}

/** Plain text of a hast subtree (for copying code blocks). */
export type HastLike = { type: string; value?: string; children?: HastLike[] }
export function hastText(node: HastLike | undefined): string {
  if (!node) return ''
  if (node.type === 'text') return node.value ?? ''
  return (node.children ?? []).map(hastText).join('')
}
