// A fake workspace per chat for the preview and the App tests: scratch files
// in memory, and an "overlay" over a made-up folder whose changes wait for
// Apply (with one conflict on demand). Test/preview only.
import type { Change, ChangeOp, Chat, FileView, ToolSpec, WorkspaceEntry, WorkspaceInfo, WorkspaceKind } from '../src/api'
import { apiErr, clone, wait } from './fake-common'


/** The file tools the fake can run (a subset of the real nine). */
export const FILE_TOOL_SPECS: ToolSpec[] = [
  {
    name: 'list_directory',
    kind: 'files',
    description: 'List a folder of the workspace.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Folder to list. Default "." (the root).' },
        recursive: { type: 'boolean', description: 'Also list subfolders. Default false.' },
        depth: { type: 'integer', minimum: 1, maximum: 20, description: 'How many levels to list.' },
      },
    },
  },
  {
    name: 'read_file',
    kind: 'files',
    description: 'Read a text file of the workspace.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File to read.' },
        offset: { type: 'integer', minimum: 1, description: 'First line (1-based).' },
        limit: { type: 'integer', minimum: 1, maximum: 2000, description: 'How many lines.' },
      },
      required: ['path'],
    },
  },
  {
    name: 'write_file',
    kind: 'files',
    changes: true,
    description: 'Create or replace a file.',
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File to write.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
    },
  },
]

const SAMPLE_DISK: Record<string, string> = {
  'README.md': '# Site\n\nA small static site.\n',
  'src/index.html': '<!doctype html>\n<title>Site</title>\n<h1>Hello</h1>\n',
  'src/style.css': 'body { font: 16px system-ui; }\n',
  'docs/plan.md': '# Plan\n\n- ship it\n',
  'logo.png': '\u0000PNG binary',
}

type Space = {
  kind: WorkspaceKind
  dir: string
  /** scratch: the files; overlay: the layer (null = deleted). */
  files: Map<string, string | null>
}

function clean(path: unknown): string {
  const p = String(path ?? '').trim()
  if (p.startsWith('/') || p.split('/').includes('..')) throw apiErr('path_outside', `path "${p}" leaves the workspace; use a path relative to the workspace root`)
  return p.replace(/^\.\/?/, '').replace(/\/+$/, '')
}

function unified(path: string, before: string | null, after: string | null): string {
  const a = before == null ? [] : before.replace(/\n$/, '').split('\n')
  const b = after == null ? [] : after.replace(/\n$/, '').split('\n')
  const head = `--- ${before == null ? '/dev/null' : `a/${path}`}\n+++ ${after == null ? '/dev/null' : `b/${path}`}\n`
  return `${head}@@ -${a.length ? 1 : 0},${a.length} +${b.length ? 1 : 0},${b.length} @@\n${a.map((l) => `-${l}\n`).join('')}${b.map((l) => `+${l}\n`).join('')}`
}

export function createFakeWorkspaces(opts: { onChanged?: () => void } = {}) {
  const spaces = new Map<string, Space>()
  /** Overlay paths "changed on disk" since the model read them (the next Apply refuses them once). */
  const conflicts = new Set<string>()
  let disk: Record<string, string> = { ...SAMPLE_DISK }

  const space = (chatId: string): Space => {
    let s = spaces.get(chatId)
    if (!s) {
      s = { kind: 'scratch', dir: '', files: new Map() }
      spaces.set(chatId, s)
    }
    return s
  }

  /** What the tools see: scratch files, or the disk under the overlay's layer. */
  const view = (s: Space): Map<string, string> => {
    const out = new Map<string, string>()
    if (s.kind !== 'scratch') for (const [p, c] of Object.entries(disk)) out.set(p, c)
    for (const [p, c] of s.files) {
      if (c === null) out.delete(p)
      else out.set(p, c)
    }
    return out
  }

  const changes = (s: Space): Change[] => {
    if (s.kind !== 'overlay') return []
    const out: Change[] = []
    for (const [p, c] of [...s.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      const before = p in disk ? disk[p] : null
      if (c === before) continue
      const op: ChangeOp = c === null ? 'deleted' : before === null ? 'added' : 'modified'
      out.push({ path: p, op, diff: unified(p, before, c) })
    }
    return out
  }

  const entries = (s: Space): WorkspaceEntry[] => {
    const files = view(s)
    const changed = new Map(changes(s).map((c) => [c.path, c.op]))
    const dirs = new Set<string>()
    const out: WorkspaceEntry[] = []
    for (const [p, c] of files) {
      const parts = p.split('/')
      for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'))
      out.push({ path: p, isDir: false, size: new TextEncoder().encode(c).length, changed: changed.get(p) })
    }
    for (const d of dirs) out.push({ path: d, isDir: true, size: 0 })
    for (const [p, op] of changed) if (op === 'deleted') out.push({ path: p, isDir: false, size: 0, changed: 'deleted' })
    return out.sort((a, b) => (a.path < b.path ? -1 : 1))
  }

  const write = (s: Space, path: string, content: string | null) => {
    s.files.set(path, content)
    opts.onChanged?.()
  }

  return {
    get: (chatId: string): WorkspaceInfo => {
      const s = space(chatId)
      return { kind: s.kind, dir: s.dir, entries: entries(s), truncated: false }
    },
    read: (chatId: string, path: string): FileView => {
      const p = clean(path)
      const c = view(space(chatId)).get(p)
      if (c === undefined) throw apiErr('not_found', `${p} does not exist`)
      const size = new TextEncoder().encode(c).length
      if (c.includes('\u0000')) return { path: p, content: '', binary: true, size, truncated: false }
      return { path: p, content: c, binary: false, size, truncated: false }
    },
    set: (chatId: string, kind: WorkspaceKind, dir: string) => {
      if (kind !== 'scratch' && !dir.startsWith('/')) throw apiErr('invalid', `a ${kind} workspace needs an absolute folder`)
      if (kind !== 'scratch' && dir.includes('missing')) throw apiErr('not_found', `folder ${dir} does not exist`)
      const s = space(chatId)
      if (s.kind !== kind || s.dir !== dir) s.files = new Map()
      s.kind = kind
      s.dir = kind === 'scratch' ? '' : dir
    },
    changes: (chatId: string) => {
      const s = space(chatId)
      if (s.kind !== 'overlay') throw apiErr('not_overlay', `this chat's workspace is a ${s.kind} workspace; only an overlay has changes to review`)
      return changes(s)
    },
    apply: (chatId: string, paths: string[]) => {
      const s = space(chatId)
      const refused: string[] = []
      for (const c of changes(s)) {
        if (paths.length > 0 && !paths.includes(c.path)) continue
        if (conflicts.has(c.path)) {
          conflicts.delete(c.path)
          refused.push(`${c.path} changed on disk since the model read it; review and apply again`)
          continue
        }
        const v = s.files.get(c.path)
        disk = { ...disk }
        if (v === null || v === undefined) delete disk[c.path]
        else disk[c.path] = v
        s.files.delete(c.path)
      }
      if (refused.length) throw apiErr('apply_conflict', `${refused.length} changes were not applied: ${refused.join('; ')}`)
    },
    discard: (chatId: string, paths: string[]) => {
      const s = space(chatId)
      for (const p of [...s.files.keys()]) if (paths.length === 0 || paths.includes(p)) s.files.delete(p)
    },
    reset: (chatId: string) => {
      space(chatId).files = new Map()
    },
    /** Runs one of the fake file tools; undefined when the tool is not a file tool. */
    run: (chatId: string, name: string, args: Record<string, unknown>): string | undefined => {
      const s = space(chatId)
      switch (name) {
        case 'list_directory': {
          const base = clean(args.path ?? '.')
          const all = entries(s).filter((e) => e.changed !== 'deleted' && (base === '' || e.path.startsWith(`${base}/`)))
          return all.map((e) => (e.isDir ? `${e.path}/` : `${e.path} (${e.size} bytes)`)).join('\n') || '(empty)'
        }
        case 'read_file': {
          if (!args.path) throw apiErr('invalid_arguments', 'read_file: path is required')
          const p = clean(args.path)
          const c = view(s).get(p)
          if (c === undefined) throw apiErr('not_found', `${p} does not exist; use list_directory or find_files to see what is there`)
          return c
        }
        case 'write_file': {
          if (!args.path) throw apiErr('invalid_arguments', 'write_file: path is required')
          const p = clean(args.path)
          const content = String(args.content ?? '')
          const existed = view(s).has(p)
          write(s, p, content)
          const lines = content.replace(/\n$/, '').split('\n').length
          return `${existed ? 'Replaced' : 'Created'} ${p} (${lines} lines, ${new TextEncoder().encode(content).length} bytes).`
        }
      }
      return undefined
    },
    /** Marks an overlay path as changed on disk: the next Apply refuses it once. */
    conflictOnApply: (path: string) => conflicts.add(path),
  }
}

/** The bound methods of workspaces; chatOf throws for an unknown chat. */
export function workspaceBindings(workspaces: ReturnType<typeof createFakeWorkspaces>, chatOf: (id: string) => Chat) {
  return {
    GetWorkspace: async (chatId: string) => {
      chatOf(chatId)
      await wait(10)
      return clone(workspaces.get(chatId))
    },
    ReadWorkspaceFile: async (chatId: string, path: string) => {
      chatOf(chatId)
      await wait(10)
      return clone(workspaces.read(chatId, path))
    },
    SetWorkspace: async (chatId: string, kind: WorkspaceKind, dir: string) => {
      const c = chatOf(chatId)
      if (!['scratch', 'folder', 'overlay'].includes(kind)) throw apiErr('invalid', `unknown workspace kind "${kind}"`)
      workspaces.set(chatId, kind, dir)
      c.workspaceKind = kind
      c.workspaceDir = kind === 'scratch' ? '' : dir
      return clone(c)
    },
    // The preview has no disk: a folder under /nonexistent is the one that does not exist.
    CheckWorkspaceFolder: async (kind: WorkspaceKind, dir: string) => {
      if (kind !== 'scratch' && dir.startsWith('/nonexistent')) throw apiErr('not_found', `folder ${dir} does not exist`)
    },
    PickFolder: async () => '/home/you/projects/site',
    WorkspaceChanges: async (chatId: string) => clone(workspaces.changes(chatId)),
    ApplyChanges: async (chatId: string, paths: string[]) => {
      await wait(20)
      workspaces.apply(chatId, paths ?? [])
    },
    DiscardChanges: async (chatId: string, paths: string[]) => workspaces.discard(chatId, paths ?? []),
    ResetScratch: async (chatId: string) => workspaces.reset(chatId),
    // The preview keeps no checkpoints (its folders are not real): an empty History.
    ListCheckpoints: async () => ({ checkpoints: [], bytes: 0, limit: 200 << 20, fileLimit: 10 << 20, dropped: 0 }),
  }
}
