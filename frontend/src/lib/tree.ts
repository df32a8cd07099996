// Pure helpers for the files panel: a tree from the workspace's flat, sorted
// entry list, what of it is visible, sizes, and which change an Apply
// conflict is about.
import type { ChangeOp, WorkspaceEntry } from '../api'

export type TreeNode = {
  /** The last path segment. */
  name: string
  /** Slash-separated, relative to the workspace root. */
  path: string
  isDir: boolean
  size: number
  changed?: ChangeOp
  /** How many changed entries sit beneath a folder (overlay). */
  changesBelow: number
  depth: number
  children: TreeNode[]
}

const byFoldersThenName = (a: TreeNode, b: TreeNode) => {
  if (a.isDir !== b.isDir) return a.isDir ? -1 : 1
  const x = a.name.toLowerCase()
  const y = b.name.toLowerCase()
  if (x !== y) return x < y ? -1 : 1
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

/**
 * Builds the tree from flat entries ("a", "a/b.txt", …). Folders a path
 * needs but the list lacks (a deleted file's parent, a truncated listing)
 * are made up; each level lists folders first, then files, by name.
 */
export function buildTree(entries: WorkspaceEntry[]): TreeNode[] {
  const root: TreeNode = { name: '', path: '', isDir: true, size: 0, changesBelow: 0, depth: -1, children: [] }
  const index = new Map<string, TreeNode>([['', root]])

  const ensureDir = (path: string): TreeNode => {
    const known = index.get(path)
    if (known) {
      if (!known.isDir) known.isDir = true // a file listed where a folder is needed: it is a folder
      return known
    }
    const cut = path.lastIndexOf('/')
    const parent = ensureDir(cut < 0 ? '' : path.slice(0, cut))
    const node: TreeNode = {
      name: cut < 0 ? path : path.slice(cut + 1),
      path,
      isDir: true,
      size: 0,
      changesBelow: 0,
      depth: parent.depth + 1,
      children: [],
    }
    parent.children.push(node)
    index.set(path, node)
    return node
  }

  for (const e of entries) {
    const path = e.path.replace(/^\/+|\/+$/g, '')
    if (!path || path === '.') continue
    if (e.isDir) {
      const dir = ensureDir(path)
      if (e.changed) dir.changed = e.changed
      continue
    }
    const known = index.get(path)
    if (known) {
      // Listed twice (e.g. a deleted entry for a path that exists again): keep the latest facts.
      known.size = e.size
      known.changed = e.changed ?? known.changed
      continue
    }
    const cut = path.lastIndexOf('/')
    const parent = ensureDir(cut < 0 ? '' : path.slice(0, cut))
    const node: TreeNode = {
      name: cut < 0 ? path : path.slice(cut + 1),
      path,
      isDir: false,
      size: e.size,
      changed: e.changed,
      changesBelow: 0,
      depth: parent.depth + 1,
      children: [],
    }
    parent.children.push(node)
    index.set(path, node)
  }

  const finish = (n: TreeNode): number => {
    let below = 0
    for (const c of n.children) below += finish(c) + (c.changed ? 1 : 0)
    n.changesBelow = below
    n.children.sort(byFoldersThenName)
    return below
  }
  finish(root)
  return root.children
}

/** The rows a tree shows: every node whose ancestors are all expanded, in display order. */
export function visibleRows(nodes: TreeNode[], expanded: ReadonlySet<string>): TreeNode[] {
  const out: TreeNode[] = []
  const walk = (list: TreeNode[]) => {
    for (const n of list) {
      out.push(n)
      if (n.isDir && expanded.has(n.path)) walk(n.children)
    }
  }
  walk(nodes)
  return out
}

/** The folders holding changes (to open them at first sight in an overlay). */
export function foldersWithChanges(nodes: TreeNode[]): string[] {
  const out: string[] = []
  const walk = (list: TreeNode[]) => {
    for (const n of list) {
      if (n.isDir && n.changesBelow > 0) {
        out.push(n.path)
        walk(n.children)
      }
    }
  }
  walk(nodes)
  return out
}

/** The parent folders of a path, shallowest first ("a/b/c.txt" → ["a", "a/b"]). */
export function ancestors(path: string): string[] {
  const parts = path.split('/')
  const out: string[] = []
  for (let i = 1; i < parts.length; i++) out.push(parts.slice(0, i).join('/'))
  return out
}

/** "512 B", "1.5 KB", "3.2 MB". */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) bytes = 0
  if (bytes < 1024) return `${bytes} B`
  const kb = bytes / 1024
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`
  const mb = kb / 1024
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Whether an Apply error message names `path` (as a whole path: "a.md" is
 * not named by "data.md" or "a.md.bak"). The backend's message for several
 * refusals is "N changes were not applied: <one>; <two>"; the part naming
 * the path is returned, else null.
 */
export function conflictFor(message: string, path: string): string | null {
  if (!message || !path) return null
  const re = new RegExp(`(^|[\\s"'\`(])${escapeRe(path)}(?=$|[\\s"'\`),;:]|\\.(\\s|$))`)
  if (!re.test(message)) return null
  const colon = message.indexOf(': ')
  const body = /^\d+ changes? (was|were) not applied: /.test(message) && colon >= 0 ? message.slice(colon + 2) : message
  const part = body.split('; ').find((p) => re.test(p))
  return (part ?? message).trim()
}

/**
 * Tidies a folder path typed or picked for a workspace: trims it, drops
 * trailing separators, collapses "//", "." and ".." in an absolute POSIX
 * path. The backend keys an open workspace by its cleaned path, so the same
 * folder must always be sent spelled the same way. Returns null when the
 * path is not absolute (the backend would resolve it against its own
 * working directory).
 */
export function cleanFolder(input: string): string | null {
  const dir = input.trim()
  if (!dir) return null
  const win = /^[A-Za-z]:[\\/]/.test(dir) || dir.startsWith('\\\\')
  if (win) {
    const trimmed = dir.replace(/[\\/]+$/, '')
    return /^[A-Za-z]:$/.test(trimmed) ? `${trimmed}\\` : trimmed
  }
  if (!dir.startsWith('/')) return null
  const out: string[] = []
  for (const part of dir.split('/')) {
    if (part === '' || part === '.') continue
    if (part === '..') out.pop()
    else out.push(part)
  }
  return `/${out.join('/')}`
}
