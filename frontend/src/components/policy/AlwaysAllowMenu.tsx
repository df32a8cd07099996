import { useId, useRef, useState } from 'react'
import { useTranslation } from '../../i18n'
import { toApiError, type Call, type RuleOptions } from '../../api'
import { ruleOptions } from '../../store/policy'
import { useStore } from '../../store'
import { useAgents } from '../../store/agents'
import { KeyboardMenu } from '../KeyboardMenu'
import { ChevronDownIcon, ShieldIcon } from '../icons'
import { RuleDialog, type RuleChoice } from './RuleDialog'
import { readOnlyServer } from './describe'
import './policy.css'

/**
 * A card's "Always allow" menu: the two quick rules (this tool for any
 * arguments, in this chat or everywhere, through AlwaysAllowCall), rules
 * on the arguments (paths under a folder, an exact value) with a scope and
 * a Test, and Never allow with a message to the model. Not offered on a
 * card the loop guard or the turn cap holds (ToolCard leaves it out).
 */
export function AlwaysAllowMenu({
  call: c,
  onPick,
  disabled,
}: {
  call: Call
  /** The quick rules: the card's own action (it runs the call and moves focus on). */
  onPick: (everywhere: boolean) => void
  disabled?: boolean
}) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [options, setOptions] = useState<RuleOptions | null>(null)
  const [choice, setChoice] = useState<RuleChoice | null>(null)
  const [up, setUp] = useState(false)
  const button = useRef<HTMLButtonElement>(null)
  const menuId = useId()
  // A rule for every chat runs nothing in a chat whose agent asks every time: the menu says so.
  const agentId = useStore((s) => s.chats.find((x) => x.id === c.chatId)?.agentId)
  // The server says, in its current list, that this tool is read-only: a rule on its read-only tools is offered.
  const server = useStore((s) => readOnlyServer(s.tools.find((x) => x.name === c.name)))
  const asksEveryTime = useAgents((s) => s.agents.find((a) => a.id === agentId)?.approval === 'ask')

  const show = () => {
    // Opens upwards when the room below the button is short of the menu's height (about 360px).
    const r = button.current?.getBoundingClientRect()
    setUp(!!r && r.bottom + 370 > window.innerHeight && r.top > 370)
    setOpen(true)
    // What the card can make a rule of (the folder to offer, its arguments); the quick items need none of it.
    ruleOptions(c.id).then(setOptions, () => setOptions(null))
  }
  const close = (focusBack: boolean) => {
    setOpen(false)
    if (focusBack) requestAnimationFrame(() => button.current?.focus())
  }
  const pick = (fn: () => void) => () => {
    setOpen(false)
    fn()
  }
  const openDialog = (ch: RuleChoice) => async () => {
    setOpen(false)
    try {
      setOptions(options ?? (await ruleOptions(c.id)))
      setChoice(ch)
    } catch (err) {
      useStore.getState().toastError('policy.dialog.loadError', toApiError(err))
    }
  }
  const saved = () => {
    setChoice(null)
    // The card is decided now: on to the next waiting card, else the composer.
    requestAnimationFrame(() => {
      const next = document.querySelector<HTMLElement>('[data-testid="tool-card"][data-waiting="true"]')
      if (next) next.focus()
      else useStore.getState().focusComposer()
    })
  }

  const folder = options?.folder
  const item = (testId: string, title: string, desc: string, onClick: () => void, danger = false) => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={`menu__item ${danger ? 'menu__item--danger' : ''}`}
      data-testid={testId}
      data-label={title}
      onClick={onClick}
    >
      <span className="menu__title">{title}</span>
      <span className="menu__desc">{desc}</span>
    </button>
  )

  return (
    <div className="menu-wrap">
      <button
        ref={button}
        type="button"
        className="btn btn--sm btn--ghost"
        data-testid="always-allow"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => (open ? close(false) : show())}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault()
            show()
          }
        }}
      >
        <ShieldIcon size={14} />
        {t('calls.alwaysAllow')}
        <ChevronDownIcon size={13} />
      </button>
      {open && (
        <KeyboardMenu id={menuId} label={t('calls.alwaysAllow')} trigger={button} onClose={close} className={`menu rule-menu ${up ? 'menu--up' : ''}`}>
          {item('always-allow-chat', t('calls.allowChat'), t('calls.allowChatDesc'), pick(() => onPick(false)))}
          {item('always-allow-everywhere', t('calls.allowEverywhere'), t(asksEveryTime ? 'agentApproval.everywhereHere' : 'calls.allowEverywhereDesc'), pick(() => onPick(true)))}
          <div className="rule-menu__sep" role="separator" />
          {item('always-allow-any', t('policy.menu.any'), t('policy.menu.anyDesc', { tool: c.name }), openDialog({ effect: 'allow', match: 'any' }))}
          {folder &&
            item(
              'always-allow-path',
              folder === '.' ? t('policy.menu.pathRoot') : t('policy.menu.path', { folder: `${folder}/` }),
              t('policy.menu.pathDesc'),
              openDialog({ effect: 'allow', match: 'path' }),
            )}
          {server &&
            item(
              'always-allow-readonly',
              t('rulesReadOnly.menu', { server }),
              t('rulesReadOnly.menuDesc', { server }),
              openDialog({ effect: 'allow', match: 'readonly' }),
            )}
          {options && options.args.length > 0 &&
            item('always-allow-exact', t('policy.menu.exact'), t('policy.menu.exactDesc'), openDialog({ effect: 'allow', match: 'exact' }))}
          <div className="rule-menu__sep" role="separator" />
          {item('never-allow', t('policy.menu.never'), t('policy.menu.neverDesc'), openDialog({ effect: 'deny', match: 'any' }), true)}
        </KeyboardMenu>
      )}
      {choice && options && (
        <RuleDialog
          call={c}
          options={options}
          choice={choice}
          onClose={() => {
            setChoice(null)
            requestAnimationFrame(() => button.current?.focus())
          }}
          onSaved={saved}
        />
      )}
    </div>
  )
}
