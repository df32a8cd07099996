// Settings ▸ About.
import './AboutPanel.css'
import { useTranslation } from '../../i18n'
import { useStore } from '../../store'
import { modLabel } from '../../lib/hooks'
import { InfoIcon, LogoMark } from '../icons'

export function AboutPanel() {
  const { t } = useTranslation()
  const info = useStore((s) => s.info)
  const openAbout = useStore((s) => s.openAbout)
  const mod = modLabel()
  const shortcuts: [string, string][] = [
    [`${mod} N`, t('about.shortcuts.newChat')],
    [`${mod} K`, t('about.shortcuts.focus')],
    [`${mod} ,`, t('about.shortcuts.settings')],
    [`${mod} Shift E`, t('about.shortcuts.files')],
    ['Enter', t('about.shortcuts.send')],
    ['Shift Enter', t('about.shortcuts.newline')],
    ['F2', t('about.shortcuts.rename')],
    ['Del', t('about.shortcuts.delete')],
    ['Y', t('about.shortcuts.run')],
    ['N', t('about.shortcuts.deny')],
    ['E', t('about.shortcuts.edit')],
    ['Esc', t('about.shortcuts.escape')],
  ]
  return (
    <div className="about">
      <div className="about__hero">
        <LogoMark size={40} />
        <div>
          <p className="about__name">{t('app.name')}</p>
          <p className="about__tagline">{t('app.tagline')}</p>
        </div>
      </div>
      <dl className="about__facts">
        <dt>{t('about.version')}</dt>
        <dd>{info?.version || '—'}</dd>
        <dt>{t('about.dataDir')}</dt>
        <dd className="mono">{info?.dataDir || '—'}</dd>
        <dt>{t('about.envProvider')}</dt>
        <dd>{info?.envProvider ? t('about.envYes') : t('about.envNo')}</dd>
      </dl>
      <button type="button" className="btn btn--secondary btn--sm about__more" data-testid="about-open" onClick={openAbout}>
        <InfoIcon size={14} />
        {t('about.moreInfo')}
      </button>
      <h3 className="about__h">{t('about.shortcutsTitle')}</h3>
      <dl className="shortcuts">
        {shortcuts.map(([k, v]) => (
          <div key={k} className="shortcuts__row">
            <dt>
              {k.split(' ').map((part) => (
                <kbd key={part} className="kbd">
                  {part}
                </kbd>
              ))}
            </dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}
