import type { ReactNode } from 'react'

/** An on/off switch (a button with role="switch"): Space/Enter toggle it. */
export function Switch({
  checked,
  onChange,
  label,
  description,
  testId,
  disabled,
  id,
}: {
  checked: boolean
  onChange: (v: boolean) => void
  label: ReactNode
  description?: ReactNode
  testId?: string
  disabled?: boolean
  id?: string
}) {
  return (
    <div className="switch-row">
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        className={`switch ${checked ? 'is-on' : ''}`}
        data-testid={testId}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        aria-describedby={description && id ? `${id}-desc` : undefined}
      >
        <span className="switch__thumb" aria-hidden="true" />
      </button>
      <div className="switch-row__text">
        <label className="switch-row__label" htmlFor={id}>
          {label}
        </label>
        {description && (
          <p className="switch-row__desc" id={id ? `${id}-desc` : undefined}>
            {description}
          </p>
        )}
      </div>
    </div>
  )
}
