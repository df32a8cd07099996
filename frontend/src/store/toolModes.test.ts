import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { FormingCall } from '../api'
import { resetStore, selectActiveChatOptions, useStore } from './index'
import { resetForming, subscribeForming, useForming } from './forming'
import { loadModelMode, resetModelMode, setModelMode, subscribeModelMode, useModelMode } from './modelMode'

/** A fake Wails runtime: tests fire events by name. */
let handlers: Record<string, (d: unknown) => void>
const fire = (name: string, data: unknown) => handlers[name]?.(data)

const call = (over: Partial<FormingCall> = {}): FormingCall => ({ name: 'calculate', arguments: '{"expr', format: 'native', complete: false, ...over })

beforeEach(() => {
  resetStore()
  resetForming()
  resetModelMode()
  handlers = {}
  window.runtime = { EventsOn: (name, cb) => ((handlers[name] = cb), () => delete handlers[name]) }
})
afterEach(() => {
  delete window.runtime
  delete window.go
})

describe('forming calls (calls:forming)', () => {
  it('each event replaces the message’s list; stream:end of that message clears it, and a late event is dropped', () => {
    useStore.setState({ activeChatId: 'c1' })
    const off = subscribeForming()
    fire('calls:forming', { chatId: 'c1', messageId: 'm1', calls: [call({ name: '', arguments: '' })] })
    fire('calls:forming', { chatId: 'c1', messageId: 'm1', calls: [call({ complete: true }), call({ name: 'get_current_time', arguments: '{' })] })
    expect(useForming.getState().byMessage.m1.map((c) => `${c.name}:${c.arguments}:${c.complete}`)).toEqual([
      'calculate:{"expr:true',
      'get_current_time:{:false',
    ])
    // another message's end leaves it alone
    fire('stream:end', { chatId: 'c1', messageId: 'm0', seq: 3, message: null })
    expect(useForming.getState().byMessage.m1).toHaveLength(2)
    fire('stream:end', { chatId: 'c1', messageId: 'm1', seq: 9, message: null })
    expect(useForming.getState().byMessage.m1).toBeUndefined()
    fire('calls:forming', { chatId: 'c1', messageId: 'm1', calls: [call()] })
    expect(useForming.getState().byMessage.m1).toBeUndefined()
    off()
  })

  it('an empty list clears the message; another chat’s calls are not kept, and changing chat clears them', () => {
    useStore.setState({ activeChatId: 'c1' })
    const off = subscribeForming()
    fire('calls:forming', { chatId: 'c2', messageId: 'x', calls: [call()] })
    expect(useForming.getState().byMessage).toEqual({})
    fire('calls:forming', { chatId: 'c1', messageId: 'm1', calls: [call()] })
    fire('calls:forming', { chatId: 'c1', messageId: 'm1', calls: null })
    expect(useForming.getState().byMessage).toEqual({})
    fire('calls:forming', { chatId: 'c1', messageId: 'm1', calls: [call()] })
    useStore.setState({ activeChatId: 'c2' })
    expect(useForming.getState().byMessage).toEqual({})
    off()
    // unsubscribed: nothing more is taken
    useStore.setState({ activeChatId: 'c1' })
    fire('calls:forming', { chatId: 'c1', messageId: 'm2', calls: [call()] })
    expect(useForming.getState().byMessage).toEqual({})
  })
})

describe('what Auto knows (ModelMode)', () => {
  it('reads it, sets an override, and reads it again when Auto learned something (chat:notice tool_mode_learned)', async () => {
    const ModelMode = vi
      .fn()
      .mockResolvedValueOnce({ providerId: 'p', model: 'gemma3', learned: '', reason: '', learnedAt: 0, override: '', effective: 'native' })
      .mockResolvedValueOnce({ providerId: 'p', model: 'gemma3', learned: 'text', reason: 'HTTP 400', learnedAt: 9, override: '', effective: 'text' })
    const SetModelMode = vi.fn(async (_c: string, _p: string, _m: string, override: string) => ({ providerId: 'p', model: 'gemma3', learned: '', override, effective: override || 'native' }))
    window.go = { main: { App: { ModelMode, SetModelMode } as unknown as Record<string, (...a: unknown[]) => Promise<unknown>> } }
    await loadModelMode()
    expect(useModelMode.getState().info).toMatchObject({ model: 'gemma3', effective: 'native' })
    expect(await setModelMode('text', false)).toBe(true)
    expect(SetModelMode).toHaveBeenCalledWith('', '', '', 'text', false)
    expect(useModelMode.getState().info).toMatchObject({ override: 'text', effective: 'text' })

    const off = subscribeModelMode()
    fire('chat:notice', { chatId: 'c1', code: 'turn_cap', message: 'paused' })
    expect(ModelMode).toHaveBeenCalledTimes(1)
    fire('chat:notice', { chatId: 'c1', code: 'tool_mode_learned', message: 'Auto: gemma3 uses tool calls written as text from now on' })
    await vi.waitFor(() => expect(useModelMode.getState().info).toMatchObject({ learned: 'text', reason: 'HTTP 400' }))
    expect(ModelMode).toHaveBeenCalledTimes(2)
    off()
  })

  it('a refused override is toasted and keeps what was known', async () => {
    const SetModelMode = vi.fn().mockRejectedValue('{"code":"no_provider","message":"No active provider."}')
    window.go = { main: { App: { SetModelMode } } }
    useModelMode.setState({ info: { providerId: 'p', model: 'm', learned: 'native', reason: '', learnedAt: 1, override: '', effective: 'native' } })
    expect(await setModelMode('text', false)).toBe(false)
    expect(useModelMode.getState().info?.effective).toBe('native')
    expect(useModelMode.getState().busy).toBe(false)
    expect(useStore.getState().toasts[0]).toMatchObject({ kind: 'error', title: 'errors.modelMode', message: 'No active provider.' })
  })

  it('a tool_mode_learned notice is shown as information, not as an error', () => {
    useStore.getState().handleNotice({ chatId: 'c1', code: 'tool_mode_learned', message: 'Auto: gemma3 uses tool calls written as text from now on.' })
    expect(useStore.getState().toasts[0]).toMatchObject({ kind: 'info', title: 'notices.toolModeTitle' })
    expect(useStore.getState().notices.c1.code).toBe('tool_mode_learned')
  })

  it('a provider notice (overloaded, asked again) is information from the provider, not an error', () => {
    useStore.getState().handleNotice({ chatId: 'c1', code: 'provider_notice', message: 'The provider is overloaded. Airlock asks again in 2 seconds (attempt 2 of 4).' })
    expect(useStore.getState().toasts[0]).toMatchObject({ kind: 'info', title: 'notices.providerTitle' })
    expect(useStore.getState().notices.c1.code).toBe('provider_notice')
  })
})

describe('a chat’s tool mode', () => {
  it('an open chat has its own; the lazy new chat takes the settings’ mode until one is picked for it', () => {
    useStore.setState({ chats: [{ id: 'c1', title: '', createdAt: 1, updatedAt: 1, paradigm: 'json', recognizeOthers: true, toolMode: 'native' }], activeChatId: 'c1' })
    expect(selectActiveChatOptions(useStore.getState()).toolMode).toBe('native')
    useStore.setState({ activeChatId: null, settings: { toolMode: 'text' } as never })
    expect(selectActiveChatOptions(useStore.getState()).toolMode).toBe('text')
    useStore.setState({ newChatOptions: { paradigm: 'json', recognizeOthers: true, toolMode: 'auto' } })
    expect(selectActiveChatOptions(useStore.getState()).toolMode).toBe('auto')
  })
})
