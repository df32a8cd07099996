import type { SVGProps } from 'react'

/** A list with a pulse: the Activity view (the audit trail). */
export function ActivityIcon({ size = 16, ...rest }: SVGProps<SVGSVGElement> & { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...rest}>
      <path d="M3 12h4l2.5-6 5 12 2.5-6h4" />
    </svg>
  )
}
