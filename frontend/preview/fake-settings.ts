// Settings, providers and About in the preview's fake backend.
import type { AppInfo, Provider, Settings } from '../src/api'
import { apiErr, clone, newId, wait } from './fake-common'

/** What the preview's options say about settings (FakeOptions has them all). */
type SettingsOptions = Pick<Partial<Settings>, 'theme' | 'language' | 'autoContinue' | 'maxTurns'> & { realProvider?: boolean }

export function createFakeSettings(opts: SettingsOptions, info: AppInfo) {
  let settings: Settings = {
    activeProviderId: opts.realProvider ? 'p-openai' : 'demo',
    systemPrompt: '',
    temperature: -1,
    language: opts.language ?? 'en',
    theme: opts.theme ?? 'light',
    autoContinue: opts.autoContinue ?? true,
    maxTurns: opts.maxTurns ?? 25,
    toolTimeoutSeconds: 30,
    toolMode: 'auto',
  }
  const providers: Provider[] = [
    { id: 'demo', name: 'Airlock Demo', baseUrl: 'http://127.0.0.1:41817/v1', apiKey: '', model: 'airlock-demo', demo: true, kind: 'openai', thinkingBudget: 0 },
    { id: 'p-openai', name: 'Work OpenAI', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-proj-abc123', model: 'gpt-4o-mini', demo: false, kind: 'openai', thinkingBudget: 0 },
    { id: 'p-ollama', name: 'Ollama (laptop)', baseUrl: 'http://localhost:11434/v1', apiKey: '', model: 'qwen2.5:14b', demo: false, kind: 'openai', thinkingBudget: 0 },
  ]
  const bindings = {
    GetSettings: async () => clone(settings),
    SaveSettings: async (s: Settings) => {
      await wait()
      if (s.temperature > 2) throw apiErr('invalid', 'Temperature must be between 0 and 2.')
      settings = clone(s)
      return clone(settings)
    },
    ListProviders: async () => clone(providers),
    SaveProvider: async (p: Provider) => {
      await wait()
      if (!/^https?:\/\//.test(p.baseUrl)) throw apiErr('invalid', 'Base URL must start with http:// or https://.')
      if (p.id === 'demo' || p.id === 'env') throw apiErr('invalid', 'This provider is read-only.')
      if (!p.id) {
        const saved = { ...p, id: `p-${newId()}` }
        providers.push(saved)
        return clone(saved)
      }
      const i = providers.findIndex((x) => x.id === p.id)
      providers[i] = clone(p)
      return clone(p)
    },
    DeleteProvider: async (id: string) => {
      if (id === 'demo') throw apiErr('invalid', 'The demo provider cannot be deleted.')
      providers.splice(
        providers.findIndex((x) => x.id === id),
        1,
      )
      if (settings.activeProviderId === id) settings.activeProviderId = 'demo'
    },
    ListModels: async (p: Provider) => {
      await wait(400)
      if (p.baseUrl.includes('localhost:1234')) throw apiErr('unreachable', 'Could not connect to http://localhost:1234/v1 — is LM Studio running?')
      if (p.baseUrl.includes('openai')) return ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-4.1-mini', 'o3-mini', 'o4-mini']
      return ['qwen2.5:14b', 'llama3.1:8b', 'mistral-nemo:12b', 'deepseek-r1:14b', 'phi4:14b']
    },
    About: async () => ({
      name: 'Airlock',
      version: info.version,
      dataDir: info.dataDir,
      logFile: `${info.dataDir}/logs/airlock.log`,
      platform: 'linux/amd64',
      goVersion: 'go1.24.0',
    }),
    OpenDataDir: async () => {
      await wait(100)
      if (opts.realProvider) throw apiErr('open_failed', 'no file manager opener (xdg-open) was found; the folder is ' + info.dataDir)
    },
    TestConnection: async (p: Provider) => {
      await wait(500)
      if (p.baseUrl.includes('localhost:1234')) throw apiErr('unreachable', 'Could not connect to http://localhost:1234/v1 — is LM Studio running?')
      if (p.baseUrl.includes('openai') && !p.apiKey) throw apiErr('unauthorized', 'The server rejected the API key (HTTP 401).')
      return `Connected to ${p.name || p.baseUrl}: ${p.model || 'model'} answered in 412 ms.`
    },
  }
  return { get: () => settings, providers, bindings }
}
