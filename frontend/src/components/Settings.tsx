import { useId, useState, type KeyboardEvent } from 'react'
import { clearUnsaved, hasUnsaved } from '../lib/unsaved'
import { useTranslation } from '../i18n'
import { useStore, type SettingsTab } from '../store'
import { ConfirmDialog, Dialog } from './Dialog'
import { DataPanel } from './DataPanel'
import { CodePanel } from './settings/CodePanel'
import { McpServersPanel } from './McpServers'
import { PermissionsPanel } from './settings/PermissionsPanel'
import { AboutPanel } from './settings/AboutPanel'
import { AgentsPanel } from './settings/AgentsPanel'
import { GeneralPanel } from './settings/GeneralPanel'
import { TrashPanel } from './settings/TrashPanel'
import { ProvidersPanel } from './settings/ProvidersPanel'

const TABS: SettingsTab[] = ['providers', 'agents', 'general', 'tools', 'permissions', 'data', 'trash', 'about']

export function SettingsDialog() {
  const { t } = useTranslation()
  const open = useStore((s) => s.settingsOpen)
  const tab = useStore((s) => s.settingsTab)
  const close = useStore((s) => s.closeSettings)
  const openSettings = useStore((s) => s.openSettings)
  const tabIds = useId()
  const [askDiscard, setAskDiscard] = useState(false)
  // Escape or the close button over unsaved provider edits asks first.
  const requestClose = () => (hasUnsaved() ? setAskDiscard(true) : close())

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.indexOf(tab)
    let next = -1
    if (e.key === 'ArrowDown' || e.key === 'ArrowRight') next = (i + 1) % TABS.length
    else if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') next = (i - 1 + TABS.length) % TABS.length
    else if (e.key === 'Home') next = 0
    else if (e.key === 'End') next = TABS.length - 1
    if (next < 0) return
    e.preventDefault()
    openSettings(TABS[next])
    requestAnimationFrame(() => document.getElementById(`${tabIds}-tab-${TABS[next]}`)?.focus())
  }

  return (
    <>
      <Dialog
        open={open}
        onClose={requestClose}
        title={t('settings.title')}
        testId="settings-dialog"
        className="dialog--settings"
        initialFocus={`[aria-selected="true"]`}
      >
        <div className="settings">
          <div className="settings__tabs" role="tablist" aria-orientation="vertical" aria-label={t('settings.title')}>
            {TABS.map((k) => (
              <button
                key={k}
                id={`${tabIds}-tab-${k}`}
                type="button"
                role="tab"
                aria-selected={tab === k}
                aria-controls={`${tabIds}-panel`}
                tabIndex={tab === k ? 0 : -1}
                className="settings__tab"
                data-testid={`settings-tab-${k}`}
                onClick={() => openSettings(k)}
                onKeyDown={onTabKey}
              >
                {t(`settings.tabs.${k}`)}
              </button>
            ))}
          </div>
          <div
            className="settings__panel"
            role="tabpanel"
            id={`${tabIds}-panel`}
            aria-labelledby={`${tabIds}-tab-${tab}`}
          >
            {tab === 'providers' && <ProvidersPanel />}
            {tab === 'agents' && <AgentsPanel />}
            {tab === 'general' && <GeneralPanel />}
            {tab === 'tools' && (
              <>
                <CodePanel />
                <McpServersPanel />
              </>
            )}
            {tab === 'permissions' && <PermissionsPanel />}
            {tab === 'data' && <DataPanel />}
            {tab === 'trash' && <TrashPanel />}
            {tab === 'about' && <AboutPanel />}
          </div>
        </div>
      </Dialog>
      <ConfirmDialog
        open={open && askDiscard}
        title={t('finish.discardEdits.title')}
        message={t('finish.discardEdits.message')}
        confirmLabel={t('finish.discardEdits.confirm')}
        onConfirm={() => {
          setAskDiscard(false)
          clearUnsaved()
          close()
        }}
        onCancel={() => setAskDiscard(false)}
        testId="confirm-discard-edits"
      />
    </>
  )
}
