import { useEffect, useId, useState } from 'react'
import { useTranslation } from '../../i18n'
import { errorSentence } from '../../i18n/backendText'
import { ApiError, RULE_SCOPES, type Call, type MatchKind, type RuleDraft, type RuleOptions, type RuleScope, type RuleTest } from '../../api'
import { callSummary, clip, clockTime } from '../../lib/calls'
import { addRuleFromCall, testRule } from '../../store/policy'
import { Dialog } from '../Dialog'
import { useStore } from '../../store'
import { folderChoices, readOnlyServer, whoText } from './describe'
import './policy.css'

export type RuleChoice = { effect: 'allow' | 'deny'; match: MatchKind }

/**
 * Makes a rule from a card: which calls (any arguments, paths under a
 * folder offered from the call's own path, or one argument's exact value),
 * for how long, and for a never rule what the model is told. Test shows the
 * earlier calls of this chat it would have covered, before anything is saved.
 */
export function RuleDialog({
  call: c,
  options,
  choice,
  onClose,
  onSaved,
}: {
  call: Call
  options: RuleOptions
  choice: RuleChoice
  onClose: () => void
  onSaved: () => void
}) {
  const { t, i18n } = useTranslation()
  const ids = useId()
  const never = choice.effect === 'deny'
  const folders = options.folder ? folderChoices(options.folder) : []
  const [match, setMatch] = useState<MatchKind>(choice.match)
  const [folder, setFolder] = useState(folders[0] ?? '.')
  const [arg, setArg] = useState(options.args.find((a) => a.path)?.name ?? options.args[0]?.name ?? '')
  const [scope, setScope] = useState<RuleScope>('chat')
  const [message, setMessage] = useState('')
  const server = useStore((s) => readOnlyServer(s.tools.find((x) => x.name === c.name)))
  const [busy, setBusy] = useState<'' | 'test' | 'save'>('')
  const [error, setError] = useState('')
  const [tested, setTested] = useState<RuleTest | null>(null)

  const draft = (): RuleDraft => ({
    effect: choice.effect,
    match,
    scope,
    ...(match === 'path' ? { path: folder } : {}),
    ...(match === 'exact' ? { arg } : {}),
    ...(never && message.trim() ? { message: message.trim() } : {}),
  })

  // A changed draft makes an old test result stale.
  useEffect(() => setTested(null), [match, folder, arg, scope])

  const onTest = async () => {
    setBusy('test')
    setError('')
    const r = await testRule(c.id, draft())
    setBusy('')
    if (r instanceof ApiError) setError(errorSentence(t, r))
    else {
      setTested(r)
      requestAnimationFrame(() => document.querySelector('[data-testid="rule-test-result"]')?.scrollIntoView?.({ block: 'nearest' }))
    }
  }
  const onSave = async () => {
    setBusy('save')
    setError('')
    const r = await addRuleFromCall(c.id, draft())
    setBusy('')
    if (r instanceof ApiError) setError(errorSentence(t, r))
    else onSaved()
  }

  const kinds: MatchKind[] = [
    'any',
    ...(folders.length ? (['path'] as const) : []),
    ...(options.args.length ? (['exact'] as const) : []),
    ...(server && !never ? (['readonly'] as const) : []),
  ]
  const scopes = options.scopes.length ? options.scopes.filter((s) => RULE_SCOPES.includes(s)) : RULE_SCOPES
  const value = options.args.find((a) => a.name === arg)?.value

  return (
    <Dialog
      open
      onClose={onClose}
      testId="rule-dialog"
      className="rule-dialog"
      title={never ? t('policy.dialog.titleNever', { tool: c.name }) : t('policy.dialog.titleAllow', { tool: c.name })}
      description={never ? t('policy.dialog.introNever') : t('policy.dialog.introAllow')}
      initialFocus="input[name$='-kind']:checked"
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={onClose} disabled={busy === 'save'}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn--secondary" data-testid="rule-test" onClick={() => void onTest()} disabled={!!busy}>
            {busy === 'test' ? t('policy.dialog.testing') : t('policy.dialog.test')}
          </button>
          <button
            type="button"
            className={`btn ${never ? 'btn--danger' : 'btn--primary'}`}
            data-testid="rule-save"
            onClick={() => void onSave()}
            disabled={!!busy}
          >
            {busy === 'save' ? t('policy.dialog.saving') : never ? t('policy.dialog.saveNever') : t('policy.dialog.save')}
          </button>
        </>
      }
    >
      <div className="rule-form">
        <fieldset className="rule-form__group">
          <legend>{t('policy.dialog.kind')}</legend>
          {kinds.map((k) => (
            <label key={k} className="rule-form__option">
              <input type="radio" name={`${ids}-kind`} value={k} checked={match === k} onChange={() => setMatch(k)} data-testid={`rule-kind-${k}`} />
              <span>{k === 'readonly' ? t('rulesReadOnly.kind', { server }) : t(`policy.dialog.kinds.${k}`)}</span>
            </label>
          ))}
        </fieldset>

        {match === 'readonly' && (
          <p className="rule-form__value" data-testid="rule-readonly-claim">
            {t('rulesReadOnly.claim')}
          </p>
        )}
        {match === 'path' && (
          <fieldset className="rule-form__group">
            <legend>{t('policy.dialog.folder')}</legend>
            {folders.map((f) => (
              <label key={f} className="rule-form__option">
                <input type="radio" name={`${ids}-folder`} value={f} checked={folder === f} onChange={() => setFolder(f)} data-testid="rule-folder" />
                <span>{f === '.' ? t('policy.dialog.root') : <code>{f}/</code>}</span>
              </label>
            ))}
          </fieldset>
        )}

        {match === 'exact' && (
          <div className="rule-form__group">
            <label htmlFor={`${ids}-arg`} className="rule-form__label">
              {t('policy.dialog.arg')}
            </label>
            <select id={`${ids}-arg`} className="input" value={arg} onChange={(e) => setArg(e.target.value)} data-testid="rule-arg">
              {options.args.map((a) => (
                <option key={a.name} value={a.name}>
                  {a.name}
                </option>
              ))}
            </select>
            <p className="rule-form__value" data-testid="rule-value">
              {t('policy.dialog.value')} <code>{clip(JSON.stringify(value ?? null), 160)}</code>
            </p>
          </div>
        )}

        <fieldset className="rule-form__group">
          <legend>{t('policy.dialog.scope')}</legend>
          <div className="rule-form__scopes" role="presentation">
            {scopes.map((s) => (
              <label key={s} className={`rule-form__scope ${scope === s ? 'is-on' : ''}`}>
                <input type="radio" name={`${ids}-scope`} value={s} checked={scope === s} onChange={() => setScope(s)} data-testid={`rule-scope-${s}`} />
                <span>{t(`policy.scope.${s}`)}</span>
              </label>
            ))}
          </div>
          <p className="rule-form__value">{t(`policy.scopeHint.${scope}`)}</p>
        </fieldset>

        {never && (
          <div className="rule-form__group">
            <label htmlFor={`${ids}-msg`} className="rule-form__label">
              {t('policy.dialog.message')}
            </label>
            <textarea
              id={`${ids}-msg`}
              className="input rule-form__message"
              rows={2}
              maxLength={1000}
              value={message}
              placeholder={t('policy.dialog.messagePlaceholder')}
              onChange={(e) => setMessage(e.target.value)}
              data-testid="rule-message"
            />
            <p className="rule-form__value">{t('policy.dialog.messageHint')}</p>
          </div>
        )}

        {options.covering.length > 0 && (
          <p className="rule-form__value" data-testid="rule-covering">
            {t('policy.dialog.covered', { ids: options.covering.map((r) => `#${r.id}`).join(', ') })}
          </p>
        )}

        {error && (
          <p className="rule-form__error" role="alert" data-testid="rule-error">
            {error}
          </p>
        )}

        {tested && (
          <div className="rule-test" data-testid="rule-test-result" role="status">
            <p className="rule-test__summary">
              {/* A rule for every chat was tried on every chat's calls. */}
              {t(`${tested.rule.chatId ? 'policy.dialog' : 'finish.ruleTestEverywhere'}.${tested.matched.length === 0 ? 'testNone' : never ? 'testDenied' : 'testAllowed'}`, {
                count: tested.matched.length,
                total: tested.total,
              })}
            </p>
            {tested.matched.length > 0 && (
              <ul className="rule-test__list">
                {tested.matched.slice(0, 20).map((m) => (
                  <li key={m.id} data-testid="rule-test-call">
                    <code>{m.name}</code> <span className="rule-test__args">{callSummary(m.name, m.arguments, 60)}</span>
                    <span className="rule-test__meta">
                      {t(`calls.state.${m.state}`)}
                      {m.decidedBy ? ` · ${whoText(m.decidedBy, t)}` : ''} · {clockTime(m.createdAt, i18n.language)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        )}
      </div>
    </Dialog>
  )
}
