// English strings of a model's context window (merged into en.ts as `contextWindow`).
export const contextWindowEn = {
  title: 'Context window',
  loading: 'Asking the server…',
  tokens: '{{tokens}} tokens',
  unknown: 'Unknown: the server does not say and the model is not in Airlock’s table. Set it below.',
  source: {
    user: 'set by you',
    'learned:overflow': 'from the server’s overflow error',
    table: 'from Airlock’s table of well-known models',
    server: 'from the server ({{server}})',
  },
  modelMax: 'The model itself can take {{tokens}} tokens.',
  learned: 'The server refused a longer request, saying the window is {{tokens}} tokens.',
  window: 'Window (tokens)',
  windowHint: 'Empty: what the server says.',
  maxOutput: 'Longest answer (tokens)',
  maxOutputHint: 'Sent as max_tokens. Empty: the server’s default.',
  save: 'Save window',
  saved: 'Saved.',
  detect: 'Re-detect',
  detectHint: 'Ask the server again (after you raised its window).',
  notNumber: 'Enter a whole number of tokens, or leave it empty.',
}
