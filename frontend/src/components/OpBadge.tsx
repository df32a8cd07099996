import { useTranslation } from '../i18n'
import type { ChangeOp } from '../api'

const OP_LETTER: Record<ChangeOp, string> = { added: 'A', modified: 'M', deleted: 'D' }

/** The op badge (A/M/D) used by the tree and the changes view. */
export function OpBadge({ op, long }: { op: ChangeOp; long?: boolean }) {
  const { t } = useTranslation()
  return (
    <span className={`op-badge op-badge--${op} ${long ? 'op-badge--long' : ''}`} title={t(`files.ops.${op}`)} data-testid="op-badge" data-op={op}>
      {long ? t(`files.ops.${op}`) : OP_LETTER[op]}
    </span>
  )
}
