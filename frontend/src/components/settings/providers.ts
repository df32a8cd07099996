// Provider presets and helpers the providers list and form share.
import { DEMO_PROVIDER_ID, ENV_PROVIDER_ID, type Provider } from '../../api'

/** The wire a provider speaks: OpenAI-compatible chat completions, or Anthropic Messages (/v1/messages). */
export type ProviderKind = 'openai' | 'anthropic'
export const PROVIDER_KINDS: ProviderKind[] = ['openai', 'anthropic']
export const kindOf = (p: Provider): ProviderKind => (p.kind === 'anthropic' ? 'anthropic' : 'openai')

/** Base URLs as each provider documents them; the key is typed by the person. */
export const PRESETS: { id: string; name: string; baseUrl: string; kind: ProviderKind }[] = [
  { id: 'openai', name: 'OpenAI', baseUrl: 'https://api.openai.com/v1', kind: 'openai' },
  { id: 'ollama', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', kind: 'openai' },
  { id: 'lmstudio', name: 'LM Studio', baseUrl: 'http://localhost:1234/v1', kind: 'openai' },
  { id: 'openrouter', name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1', kind: 'openai' },
  { id: 'deepseek', name: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1', kind: 'openai' },
  { id: 'anthropic', name: 'Anthropic', baseUrl: 'https://api.anthropic.com', kind: 'anthropic' },
  { id: 'deepseek-anthropic', name: 'DeepSeek', baseUrl: 'https://api.deepseek.com/anthropic', kind: 'anthropic' },
  { id: 'glm', name: 'Zhipu GLM', baseUrl: 'https://open.bigmodel.cn/api/anthropic', kind: 'anthropic' },
  { id: 'kimi', name: 'Moonshot Kimi', baseUrl: 'https://api.moonshot.ai/anthropic', kind: 'anthropic' },
  { id: 'minimax', name: 'MiniMax', baseUrl: 'https://api.minimax.io/anthropic', kind: 'anthropic' },
]

export const emptyProvider = (): Provider => ({ id: '', name: '', baseUrl: '', apiKey: '', model: '', demo: false, kind: 'openai', thinkingBudget: 0 })
export const isDemo = (p: Provider) => p.demo || p.id === DEMO_PROVIDER_ID
export const isEnv = (p: Provider) => p.id === ENV_PROVIDER_ID
