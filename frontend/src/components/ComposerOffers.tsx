import './ComposerOffers.css'
// What the chat's MCP servers offer, in the composer: the "/" menu of their
// prompts (and a prompt's argument form), and the "Attach from an MCP
// server…" button with its picker. Shown only while a server is ready.
import { useCallback, useId, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from '../i18n'
import type { McpFile, McpPart, McpPrompt } from '../api'
import { useMcp } from '../store/mcp'
import { fillPrompt } from '../store/mcpOffers'
import { PromptMenu, type PromptMenuHandle } from './PromptMenu'
import { PromptForm } from './PromptForm'
import { ResourcePicker, ServerIcon } from './ResourcePicker'

type Deps = {
  chatId: string | null
  value: string
  /** Replaces the message box's text. */
  setText: (text: string) => void
  /** Attaches checked files; false when a cap refused them (the composer says why). */
  addFiles: (files: McpFile[]) => boolean
  focus: () => void
  disabled?: boolean
}

export function useComposerOffers({ chatId, value, setText, addFiles, focus, disabled }: Deps) {
  const { t } = useTranslation()
  const ready = useMcp((s) => s.servers.some((x) => x.state === 'ready'))
  const [dismissed, setDismissed] = useState<string | null>(null)
  const [form, setForm] = useState<McpPrompt | null>(null)
  const [picker, setPicker] = useState(false)
  const [error, setError] = useState('')
  const menu = useRef<PromptMenuHandle>(null)
  const listId = useId()
  const [activeId, setActiveId] = useState('')
  const slash = /^\/(\S*)$/.exec(value)
  const menuOpen = ready && !disabled && !!slash && dismissed !== value && !form

  const apply = useCallback(
    (part: McpPart, replace: boolean) => {
      if (!addFiles(part.files)) return false
      if (replace) setText(part.text)
      else if (part.text) setText(value.trim() ? `${value.trimEnd()}\n\n${part.text}` : part.text)
      setError('')
      focus()
      return true
    },
    [addFiles, setText, focus, value],
  )

  const pick = useCallback(
    async (p: McpPrompt) => {
      if (p.arguments.length) return setForm(p)
      setDismissed(value)
      const r = await fillPrompt(p.server, p.name, {})
      if ('error' in r) setError(r.error)
      else apply(r.part, true)
    },
    [apply, value],
  )

  /** The message box's keys go to the menu first while it is open. */
  const onKey = (e: KeyboardEvent) => {
    if (!menuOpen || e.nativeEvent.isComposing) return false
    if (menu.current?.key(e)) {
      e.preventDefault()
      return true
    }
    return false
  }

  const popover = form ? (
    <PromptForm
      prompt={form}
      onCancel={() => {
        setForm(null)
        setDismissed(value)
        focus()
      }}
      onDone={(part) => {
        setForm(null)
        apply(part, true)
      }}
    />
  ) : menuOpen ? (
    <PromptMenu ref={menu} id={listId} chatId={chatId} query={slash![1]} onPick={(p) => void pick(p)} onClose={() => setDismissed(value)}
      onActive={setActiveId} />
  ) : null

  const button = ready ? (
    <>
      <button type="button" className="composer__attach" data-testid="attach-from-server" disabled={disabled}
        aria-label={t('mcpOffers.resources.button')} title={t('mcpOffers.resources.button')} onClick={() => setPicker(true)}>
        <ServerIcon size={17} />
      </button>
      <ResourcePicker open={picker} chatId={chatId} onClose={() => setPicker(false)} onAttach={(p) => apply(p, false)} />
    </>
  ) : null

  /** For the message box while the menu is open: which list it drives and its active option. */
  const aria = menuOpen ? { 'aria-controls': listId, 'aria-activedescendant': activeId || undefined } : {}

  return { onKey, popover, button, error, aria }
}
