// The workspace chip: where a chat's tools work (kind and folder), shown in the files panel and the Tool lab.
import { useTranslation } from '../i18n'
import type { WorkspaceKind } from '../api'

/** "…/projects/site" for long folder paths (the full path is in the title). */
export function shortDir(dir: string, max = 38): string {
  if (dir.length <= max) return dir
  const sep = dir.includes('\\') && !dir.includes('/') ? '\\' : '/'
  const parts = dir.split(sep).filter(Boolean)
  let out = parts.pop() ?? dir
  while (parts.length > 0 && out.length + parts[parts.length - 1].length + 1 <= max - 2) out = `${parts.pop()}${sep}${out}`
  return `…${sep}${out}`
}

/** Scratch / Folder: path / Overlay: path. */
export function WorkspaceChip({ kind, dir, testId = 'workspace-kind', max = 24 }: { kind: WorkspaceKind; dir: string; testId?: string; max?: number }) {
  const { t } = useTranslation()
  return (
    <span
      className={`ws-chip ws-chip--${kind} ${kind !== 'scratch' && dir ? 'has-dir' : ''}`}
      data-testid={testId}
      data-kind={kind}
      title={t(`workspace.kindTitle.${kind}`, { dir })}
    >
      <span className="ws-chip__kind">{t(`workspace.kinds.${kind}`)}</span>
      {kind !== 'scratch' && dir && <span className="ws-chip__dir">{shortDir(dir, max)}</span>}
    </span>
  )
}
