import './AboutDialog.css'
import { useEffect, useState } from 'react'
import { useTranslation } from '../i18n'
import { toApiError, type AboutInfo } from '../api'
import { loadAbout, openDataDir } from '../store/requests'
import { useStore } from '../store'
import { Dialog } from './Dialog'
import { CopyButton } from './CopyButton'
import { AlertIcon, FolderIcon, LogoMark } from './icons'

/** About Airlock: version, platform, where the data and the log live. */
export function AboutDialog() {
  const { t } = useTranslation()
  const open = useStore((s) => s.aboutOpen)
  const close = useStore((s) => s.closeAbout)
  const [info, setInfo] = useState<AboutInfo | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [opening, setOpening] = useState(false)

  useEffect(() => {
    if (!open) return
    setError(null)
    loadAbout()
      .then(setInfo)
      .catch((err) => setError(toApiError(err).message))
  }, [open])

  const openFolder = async () => {
    if (opening) return
    setOpening(true)
    setError(null)
    try {
      await openDataDir()
    } catch (err) {
      setError(toApiError(err).message)
    } finally {
      setOpening(false)
    }
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={t('aboutDialog.title')}
      testId="about-dialog"
      className="dialog--about"
      initialFocus="[data-testid='open-data-dir']"
      footer={
        <button type="button" className="btn btn--secondary" onClick={close}>
          {t('common.close')}
        </button>
      }
    >
      <div className="about-dialog">
        <div className="about__hero">
          <LogoMark size={44} />
          <div>
            <p className="about__name">{info?.name || t('app.name')}</p>
            <p className="about__tagline">{t('app.tagline')}</p>
          </div>
        </div>
        <dl className="about__facts about__facts--dialog">
          <dt>{t('about.version')}</dt>
          <dd data-testid="about-version">{info?.version || '—'}</dd>
          <dt>{t('aboutDialog.platform')}</dt>
          <dd>{info ? `${info.platform} · ${info.goVersion}` : '—'}</dd>
          <dt>{t('about.dataDir')}</dt>
          <dd className="about__path">
            <code className="mono" data-testid="about-data-dir">{info?.dataDir || '—'}</code>
            {info?.dataDir && <CopyButton text={info.dataDir} showLabel={false} className="icon-btn icon-btn--sm" />}
          </dd>
          <dt>{t('aboutDialog.logFile')}</dt>
          <dd className="about__path">
            <code className="mono" data-testid="about-log-file">{info?.logFile || '—'}</code>
            {info?.logFile && <CopyButton text={info.logFile} showLabel={false} className="icon-btn icon-btn--sm" />}
          </dd>
        </dl>
        <button type="button" className="btn btn--secondary" data-testid="open-data-dir" onClick={() => void openFolder()} aria-busy={opening}>
          {opening ? <span className="spinner" aria-hidden="true" /> : <FolderIcon size={15} />}
          {t('aboutDialog.openDataDir')}
        </button>
        {error && (
          <div className="status-line status-line--error" role="alert" data-testid="about-error">
            <AlertIcon size={15} />
            <span>{error}</span>
          </div>
        )}
      </div>
    </Dialog>
  )
}
