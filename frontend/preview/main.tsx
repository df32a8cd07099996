// Preview entry: a fake backend + the real app. Not part of the production build.
// URL params: theme=light|dark|system, lang=en|zh|auto, scene=chat|empty|newchat|error|
// interrupted|streaming|reasoning|settings|settings-general|settings-about|confirm|rename, drop=1, tick=ms
import { installFakeBackend } from './fake-backend'

const q = new URLSearchParams(location.search)
const scene = q.get('scene') ?? 'chat'
const fake = installFakeBackend({
  theme: (q.get('theme') as 'light' | 'dark' | 'system') ?? 'light',
  language: (q.get('lang') as 'en' | 'zh' | 'auto') ?? 'en',
  empty: scene === 'empty',
  realProvider: q.get('provider') === 'real',
  dropDeltas: q.get('drop') === '1',
  tick: q.get('tick') ? Number(q.get('tick')) : undefined,
})

await import('../src/main')
const { useStore } = await import('../src/store')

const whenReady = () =>
  new Promise<void>((resolve) => {
    const check = () => (useStore.getState().ready ? resolve() : setTimeout(check, 20))
    check()
  })
await whenReady()
await new Promise((r) => setTimeout(r, 50))
const s = useStore.getState()
const byTitle = (t: string) => s.chats.find((c) => c.title.startsWith(t))?.id ?? null

switch (scene) {
  case 'newchat':
    await s.selectChat(null)
    break
  case 'error':
    await s.selectChat(byTitle('Quarterly'))
    break
  case 'interrupted':
    await s.selectChat(byTitle('Trip'))
    break
  case 'streaming':
    await s.selectChat(byTitle('Trip'))
    await useStore.getState().retry()
    break
  case 'reasoning':
    await s.selectChat(null)
    await useStore.getState().send('Think step by step about why the sky is blue')
    break
  case 'story':
    await s.selectChat(null)
    await useStore.getState().send('Write a long story (slow stream)')
    break
  case 'markdown-stream':
    await s.selectChat(null)
    await useStore.getState().send('Show me some markdown')
    break
  case 'settings':
    s.openSettings('providers')
    break
  case 'provider-form':
    s.openSettings('providers')
    setTimeout(() => {
      ;(document.querySelector('[data-provider-id="p-openai"]') as HTMLElement)?.click()
      setTimeout(() => (document.querySelector('[data-testid="load-models"]') as HTMLElement)?.click(), 50)
      setTimeout(() => (document.querySelector('[data-testid="provider-model"]') as HTMLElement)?.focus(), 600)
    }, 100)
    break
  case 'provider-new':
    s.openSettings('providers')
    setTimeout(() => {
      ;(document.querySelector('[data-testid="provider-add"]') as HTMLElement)?.click()
      setTimeout(() => {
        ;(document.querySelectorAll('.presets .chip')[2] as HTMLElement)?.click()
        setTimeout(() => (document.querySelector('[data-testid="test-connection"]') as HTMLElement)?.click(), 50)
      }, 50)
    }, 100)
    break
  case 'settings-general':
    s.openSettings('general')
    break
  case 'settings-about':
    s.openSettings('about')
    break
  case 'confirm':
    setTimeout(() => (document.querySelector('[data-testid="chat-delete"]') as HTMLElement)?.click(), 100)
    break
  case 'rename':
    setTimeout(() => {
      const el = document.querySelector('[data-testid="chat-item"]') as HTMLElement
      el?.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }))
    }, 100)
    break
  case 'focus':
    setTimeout(() => (document.querySelectorAll('[data-testid="chat-item"]')[1] as HTMLElement)?.focus(), 300)
    break
  case 'toast':
    s.toastError('errors.send', JSON.stringify({ code: 'unreachable', message: 'Could not reach http://localhost:11434/v1 — is Ollama running?' }))
    break
}
if (q.get('top') === '1') {
  setTimeout(() => {
    const el = document.querySelector('.messages')
    if (el) el.scrollTop = 0
  }, 300)
}
void fake
