// Signing in to a remote MCP server (OAuth): the row's state and its Sign in /
// Cancel / Sign out buttons, and the form's pre-registered client fields.
import { useTranslation } from '../i18n'
import { renderText } from '../i18n/backendText'
import { MASKED, type McpServerInfo } from '../api'
import { mcpSignIn } from '../store/mcp'
import { Field } from './settings/fields'

export function McpSignInRow({ s }: { s: McpServerInfo }) {
  const { t } = useTranslation()
  const auth = s.auth ?? ''
  if (!auth) return null
  const button = (action: 'in' | 'cancel' | 'out', label: string, testId: string, primary = false) => (
    <button type="button" className={`btn btn--xs ${primary ? 'btn--primary' : 'btn--secondary'}`} data-testid={testId}
      onClick={() => void mcpSignIn(s.name, action)}>
      {label}
    </button>
  )
  return (
    <div className={`mcp-signin mcp-signin--${auth}`} data-testid="mcp-signin" data-auth={auth}>
      <span className="mcp-signin__text" data-testid="mcp-signin-state" role={auth === 'refused' ? 'alert' : undefined}>
        {t(`mcpLive.signIn.${auth}`, { why: renderText(t, s.authErrorText, s.authError ?? '') })}
      </span>
      {(auth === 'signed_out' || auth === 'refused') && button('in', t('mcpLive.signIn.signIn'), 'mcp-sign-in', true)}
      {auth === 'expired' && button('in', t('mcpLive.signIn.signInAgain'), 'mcp-sign-in', true)}
      {auth === 'signing_in' && button('cancel', t('mcpLive.signIn.cancel'), 'mcp-sign-in-cancel')}
      {(auth === 'signed_in' || auth === 'expired') && button('out', t('mcpLive.signIn.signOut'), 'mcp-sign-out')}
    </div>
  )
}

export function OAuthClientFields(p: {
  id: string
  clientId: string
  secret: string
  onClientId: (v: string) => void
  onSecret: (v: string) => void
}) {
  const { t } = useTranslation()
  return (
    <>
      <Field id={`${p.id}-oauth-id`} label={t('mcpLive.signIn.clientId')} hint={t('mcpLive.signIn.clientIdHint')}>
        <input id={`${p.id}-oauth-id`} className="input input--mono" value={p.clientId} spellCheck={false} autoComplete="off"
          data-testid="mcp-oauth-client-id" onChange={(e) => p.onClientId(e.target.value)} />
      </Field>
      {p.clientId.trim() !== '' && (
        <Field id={`${p.id}-oauth-secret`} label={t('mcpLive.signIn.clientSecret')}
          hint={p.secret === MASKED ? t('mcpLive.signIn.clientSecretMasked') : undefined}>
          <input id={`${p.id}-oauth-secret`} className="input input--mono" type="password" value={p.secret} autoComplete="off"
            data-testid="mcp-oauth-client-secret" onChange={(e) => p.onSecret(e.target.value)} />
        </Field>
      )}
    </>
  )
}
