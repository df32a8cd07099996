// Preview entry: a fake backend + the real app. Not part of the production build.
// URL params: theme=light|dark|system, lang=en|zh|auto, scene=chat|empty|newchat|error|
// interrupted|streaming|reasoning|settings|settings-general|settings-about|confirm|rename|
// tools|tool-running|tool-paused|lab|run|files|files-overlay|permissions|about|
// mcp|mcp-env|mcp-empty|mcp-form|mcp-new|mcp-import|mcp-chat|mcp-card|mcp-run|
// native (cards forming as a native answer streams; tick=150 to watch)|native-learned (Auto learns a model refuses tools)|
// tool-mode (the chat's Tools menu in Auto; as=demo|env|p-openai|p-ollama picks the active provider; mode=text|native|auto),
// drop=1, tick=ms, manual=1 (auto-continue off)
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
  autoContinue: q.get('manual') !== '1',
  maxTurns: scene === 'tool-paused' ? 1 : undefined,
  mcp: scene === 'mcp-env' ? 'env' : scene === 'mcp-empty' ? 'none' : 'default',
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
  case 'tools':
    // cards in every state: done, edited, denied, problem, two pending (one guarded)
    await s.selectChat(byTitle('Tool calls'))
    break
  case 'tool-running': {
    // "long calc" makes the fake tool take 4 s: the card shows the spinner, elapsed time and Cancel
    await s.selectChat(null)
    await useStore.getState().send('long calc: calculate 6*7')
    const run = () => {
      const b = document.querySelector('[data-testid="tool-card"][data-state="pending"] [data-testid="approve"]') as HTMLElement | null
      if (b) b.click()
      else setTimeout(run, 100)
    }
    run()
    break
  }
  case 'tool-paused': {
    // the turn cap (1) pauses the loop after the first results: notice + Continue
    await s.selectChat(null)
    await useStore.getState().send('loop')
    const run = () => {
      const b = document.querySelector('[data-testid="tool-card"][data-state="pending"] [data-testid="approve"]') as HTMLElement | null
      if (b) b.click()
      else setTimeout(run, 100)
    }
    run()
    break
  }
  case 'lab':
    s.setView('lab')
    setTimeout(() => (document.querySelector('[data-testid="lab-tab-playground"]') as HTMLElement)?.click(), 100)
    break
  case 'files':
  case 'files-overlay': {
    // the files panel: a scratch chat with a few files (files), or an overlay with changes and a conflict (files-overlay)
    const id = byTitle('Rust')!
    await s.selectChat(id)
    if (scene === 'files-overlay') {
      await useStore.getState().setWorkspace(id, { kind: 'overlay', dir: '/home/you/projects/site' })
      fake.workspaces.run(id, 'write_file', { path: 'src/style.css', content: 'body { font: 16px system-ui; }\nh1 { color: teal; }\n' })
      fake.workspaces.run(id, 'write_file', { path: 'docs/notes.md', content: '# Notes\n\n- checked the plan\n' })
      fake.workspaces.conflictOnApply('src/style.css')
    } else {
      fake.workspaces.run(id, 'write_file', { path: 'notes.md', content: '# Notes from Airlock\n\n- The model proposes; you decide.\n' })
      fake.workspaces.run(id, 'write_file', { path: 'src/main.go', content: 'package main\n\nfunc main() {\n\tprintln("hi")\n}\n' })
    }
    useStore.getState().toggleFiles(true)
    if (scene === 'files-overlay') setTimeout(() => (document.querySelector('[data-testid="changes-tab"]') as HTMLElement)?.click(), 300)
    else setTimeout(() => (document.querySelector('[data-testid="file-entry"][data-path="notes.md"]') as HTMLElement)?.click(), 300)
    break
  }
  case 'run':
    s.setView('lab')
    setTimeout(() => (document.querySelector('[data-testid="lab-tab-run"]') as HTMLElement)?.click(), 100)
    break
  case 'permissions':
    fake.addRule('get_current_time')
    fake.addRule('calculate', byTitle('Tool calls') ?? '')
    s.openSettings('permissions')
    break
  case 'about':
    s.openAbout()
    break
  case 'mcp':
  case 'mcp-env':
  case 'mcp-empty':
    s.openSettings('tools')
    if (scene === 'mcp-env') fake.mcp.setEnvError('line 7: "args" must be a list of strings')
    setTimeout(() => (document.querySelector('[data-name="sqlite"] [data-testid="mcp-stderr-toggle"]') as HTMLElement)?.click(), 300)
    break
  case 'mcp-form':
  case 'mcp-new':
    s.openSettings('tools')
    setTimeout(() => {
      const sel = scene === 'mcp-new' ? '[data-testid="mcp-add"]' : '[data-name="everything"] [data-testid="mcp-edit"]'
      ;(document.querySelector(sel) as HTMLElement)?.click()
      setTimeout(() => (document.querySelector('[data-testid="mcp-advanced"]') as HTMLElement)?.click(), 50)
    }, 300)
    break
  case 'mcp-import':
    s.openSettings('tools')
    setTimeout(() => {
      ;(document.querySelector('[data-testid="mcp-import-open"]') as HTMLElement)?.click()
      setTimeout(async () => {
        const box = document.querySelector('[data-testid="mcp-import-text"]') as HTMLTextAreaElement
        Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(
          box,
          JSON.stringify({ mcpServers: { everything: { command: 'npx' }, fetch: { command: 'uvx', args: ['mcp-server-fetch'] }, broken: {} } }, null, 2),
        )
        box.dispatchEvent(new Event('input', { bubbles: true }))
        setTimeout(() => (document.querySelector('[data-testid="mcp-import"]') as HTMLElement)?.click(), 50)
      }, 100)
    }, 300)
    break
  case 'mcp-chat':
    await s.selectChat(byTitle('Rust'))
    setTimeout(() => {
      ;(document.querySelector('[data-testid="chat-options"]') as HTMLElement)?.click()
      setTimeout(() => (document.querySelector('[data-testid="chat-mcp-choose"]') as HTMLElement)?.click(), 300)
    }, 100)
    break
  case 'mcp-card': {
    // an MCP call: the note and badge; run it and its picture shows on the card
    await s.selectChat(null)
    await useStore.getState().send('mcp image please')
    const run = () => {
      const b = document.querySelector('[data-testid="tool-card"][data-state="pending"] [data-testid="approve"]') as HTMLElement | null
      if (b) b.click()
      else setTimeout(run, 100)
    }
    if (q.get('run') !== '0') run()
    break
  }
  case 'mcp-run':
    s.setView('lab')
    setTimeout(() => {
      ;(document.querySelector('[data-testid="lab-tab-run"]') as HTMLElement)?.click()
      setTimeout(() => {
        const sel = document.querySelector('[data-testid="lab-run-tool"]') as HTMLSelectElement
        Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')!.set!.call(sel, 'mcp__everything__tiny_image')
        sel.dispatchEvent(new Event('change', { bubbles: true }))
        setTimeout(() => (document.querySelector('[data-testid="lab-run"]') as HTMLElement)?.click(), 100)
      }, 200)
    }, 200)
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
  case 'native':
    // a new chat (Auto: the demo model calls natively): two calls form while the answer streams, then become cards
    await s.selectChat(null)
    await useStore.getState().send('What time is it, and calculate 17*23 + 2^8 — both please')
    break
  case 'native-learned':
    // Auto asks natively, the model refuses tools: the notice, then a text call
    await s.setActiveProvider('p-ollama')
    await s.selectChat(null)
    await useStore.getState().send('calculate 2+2')
    break
  case 'tool-mode': {
    await s.setActiveProvider(q.get('as') ?? 'env')
    const id = byTitle('Rust')!
    await s.selectChat(id)
    await useStore.getState().setChatOptions(id, { paradigm: 'json', recognizeOthers: true, toolMode: (q.get('mode') as 'text' | 'native' | 'auto') ?? 'auto' })
    setTimeout(() => (document.querySelector('[data-testid="chat-options"]') as HTMLElement)?.click(), 500)
    break
  }
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
if (q.get('panelBottom') === '1') {
  // Settings: show the end of a long panel (e.g. the MCP server form)
  setTimeout(() => {
    const el = document.querySelector('.settings__panel')
    if (el) el.scrollTop = el.scrollHeight
  }, 800)
}
