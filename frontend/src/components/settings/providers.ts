// Provider presets and helpers the providers list and form share.
import { DEMO_PROVIDER_ID, ENV_PROVIDER_ID, type Provider } from '../../api'

export const PRESETS: { id: string; name: string; baseUrl: string }[] = [
  { id: 'openai', name: 'OpenAI', baseUrl: 'https://api.openai.com/v1' },
  { id: 'ollama', name: 'Ollama', baseUrl: 'http://localhost:11434/v1' },
  { id: 'lmstudio', name: 'LM Studio', baseUrl: 'http://localhost:1234/v1' },
  { id: 'openrouter', name: 'OpenRouter', baseUrl: 'https://openrouter.ai/api/v1' },
  { id: 'deepseek', name: 'DeepSeek', baseUrl: 'https://api.deepseek.com/v1' },
]

export const emptyProvider = (): Provider => ({ id: '', name: '', baseUrl: '', apiKey: '', model: '', demo: false })
export const isDemo = (p: Provider) => p.demo || p.id === DEMO_PROVIDER_ID
export const isEnv = (p: Provider) => p.id === ENV_PROVIDER_ID
