import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from '../i18n'
import { copyText } from '../api'
import { CheckIcon, CopyIcon } from './icons'

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
