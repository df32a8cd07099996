import type { ReactNode } from 'react'
import { useStore } from '../store'
import { ArrowLeftIcon } from './icons'

/** The heading of a full-page view (Tool lab, Activity): back to the chat, an icon, the title. */
export function ViewHeading({ icon, title, backLabel, closeTestId }: { icon: ReactNode; title: string; backLabel: string; closeTestId: string }) {
  const setView = useStore((s) => s.setView)
  return (
    <div className="chat__heading">
      <button
        type="button"
        className="icon-btn icon-btn--sm"
        onClick={() => setView('chat')}
        aria-label={backLabel}
        title={backLabel}
        data-testid={closeTestId}
      >
        <ArrowLeftIcon size={16} />
      </button>
      {icon}
      <h1 className="chat__title">{title}</h1>
    </div>
  )
}
