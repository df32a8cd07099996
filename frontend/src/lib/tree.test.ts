import { describe, expect, it } from 'vitest'
import type { WorkspaceEntry } from '../api'
import { ancestors, buildTree, cleanFolder, conflictFor, foldersWithChanges, formatSize, visibleRows, type TreeNode } from './tree'

const f = (path: string, size = 1, changed?: WorkspaceEntry['changed']): WorkspaceEntry => ({ path, isDir: false, size, changed })
const d = (path: string, changed?: WorkspaceEntry['changed']): WorkspaceEntry => ({ path, isDir: true, size: 0, changed })
const names = (nodes: TreeNode[]) => nodes.map((n) => n.name)

describe('buildTree', () => {
  it('nests flat sorted entries and lists folders first, then files, by name', () => {
    const tree = buildTree([f('b.txt'), d('src'), f('src/main.go', 40), d('src/util'), f('src/util/str.go'), f('A.md'), d('docs'), f('docs/plan.md')])
    expect(names(tree)).toEqual(['docs', 'src', 'A.md', 'b.txt'])
    const src = tree.find((n) => n.name === 'src')!
    expect(src.isDir).toBe(true)
    expect(src.depth).toBe(0)
    expect(names(src.children)).toEqual(['util', 'main.go'])
    expect(src.children[1]).toMatchObject({ path: 'src/main.go', size: 40, depth: 1, isDir: false })
    expect(src.children[0].children[0]).toMatchObject({ path: 'src/util/str.go', depth: 2 })
  })

  it('makes up folders the list lacks (a deleted file inside, a truncated listing)', () => {
    const tree = buildTree([f('a/b/c.txt', 3, 'deleted')])
    expect(tree).toHaveLength(1)
    expect(tree[0]).toMatchObject({ path: 'a', isDir: true })
    expect(tree[0].children[0]).toMatchObject({ path: 'a/b', isDir: true })
    expect(tree[0].children[0].children[0]).toMatchObject({ path: 'a/b/c.txt', changed: 'deleted' })
  })

  it('keeps change marks and counts the changes beneath each folder', () => {
    const tree = buildTree([d('docs'), f('docs/new.md', 1, 'added'), f('docs/old.md', 0, 'deleted'), f('docs/same.md'), f('top.md', 2, 'modified'), d('lib'), f('lib/x.go')])
    const docs = tree.find((n) => n.path === 'docs')!
    expect(docs.changesBelow).toBe(2)
    expect(docs.children.map((c) => [c.name, c.changed ?? ''])).toEqual([
      ['new.md', 'added'],
      ['old.md', 'deleted'],
      ['same.md', ''],
    ])
    expect(tree.find((n) => n.path === 'top.md')!.changed).toBe('modified')
    expect(tree.find((n) => n.path === 'lib')!.changesBelow).toBe(0)
    expect(foldersWithChanges(tree)).toEqual(['docs'])
  })

  it('ignores the root and stray slashes, and a path listed twice keeps the latest facts', () => {
    const tree = buildTree([f('.'), f('/x.md/', 5), f('x.md', 7, 'added')])
    expect(tree).toHaveLength(1)
    expect(tree[0]).toMatchObject({ path: 'x.md', size: 7, changed: 'added' })
  })
})

describe('visibleRows', () => {
  const tree = buildTree([d('a'), f('a/1.txt'), d('a/b'), f('a/b/2.txt'), f('z.txt')])
  it('shows only what expanded folders reveal, in display order', () => {
    expect(visibleRows(tree, new Set()).map((n) => n.path)).toEqual(['a', 'z.txt'])
    expect(visibleRows(tree, new Set(['a'])).map((n) => n.path)).toEqual(['a', 'a/b', 'a/1.txt', 'z.txt'])
    expect(visibleRows(tree, new Set(['a', 'a/b'])).map((n) => n.path)).toEqual(['a', 'a/b', 'a/b/2.txt', 'a/1.txt', 'z.txt'])
    // a collapsed parent hides an expanded child
    expect(visibleRows(tree, new Set(['a/b'])).map((n) => n.path)).toEqual(['a', 'z.txt'])
  })
  it('ancestors', () => {
    expect(ancestors('a/b/c.txt')).toEqual(['a', 'a/b'])
    expect(ancestors('c.txt')).toEqual([])
  })
})

describe('formatSize', () => {
  it('B, KB, MB', () => {
    expect(formatSize(0)).toBe('0 B')
    expect(formatSize(1023)).toBe('1023 B')
    expect(formatSize(1536)).toBe('1.5 KB')
    expect(formatSize(200 * 1024)).toBe('200 KB')
    expect(formatSize(3.2 * 1024 * 1024)).toBe('3.2 MB')
  })
})

describe('conflictFor', () => {
  const msg =
    '2 changes were not applied: notes.md changed on disk since the model read it; review and apply again; docs/a.md was deleted on disk since the model read it; review and apply again'
  it('finds the part of a refusal that names a file', () => {
    expect(conflictFor(msg, 'notes.md')).toBe('notes.md changed on disk since the model read it')
    expect(conflictFor(msg, 'docs/a.md')).toBe('docs/a.md was deleted on disk since the model read it')
  })
  it('matches whole paths only', () => {
    expect(conflictFor(msg, 'a.md')).toBeNull()
    expect(conflictFor(msg, 'notes')).toBeNull()
    expect(conflictFor(msg, 'other.md')).toBeNull()
    expect(conflictFor('x.md: Airlock has no record of what the model saw of it', 'x.md')).toBe('x.md: Airlock has no record of what the model saw of it')
  })
})

describe('cleanFolder', () => {
  it('tidies absolute paths so the same folder is always spelled the same way', () => {
    expect(cleanFolder(' /tmp/x/ ')).toBe('/tmp/x')
    expect(cleanFolder('/tmp//x/./y/../z')).toBe('/tmp/x/z')
    expect(cleanFolder('/')).toBe('/')
    expect(cleanFolder('C:\\Users\\me\\')).toBe('C:\\Users\\me')
    expect(cleanFolder('C:\\')).toBe('C:\\')
  })
  it('refuses relative paths and nothing', () => {
    expect(cleanFolder('relative/dir')).toBeNull()
    expect(cleanFolder('~/project')).toBeNull()
    expect(cleanFolder('  ')).toBeNull()
  })
})
