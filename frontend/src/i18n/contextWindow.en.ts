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
  cutOff: 'The answer reached its length limit',
  continue: 'Continue',
  continuePrompt: 'Continue exactly where you stopped.',
  runsWith: {
    ollama:
      'Ollama runs {{model}} with a {{loaded}}-token window, though the model can take {{max}}. To raise it, set OLLAMA_CONTEXT_LENGTH where Ollama runs (e.g. OLLAMA_CONTEXT_LENGTH=32768 ollama serve), move the context length slider in the Ollama app, or add PARAMETER num_ctx 32768 to the model’s Modelfile; then reload the model and press Re-detect.',
    lmstudio:
      'LM Studio loaded {{model}} with a {{loaded}}-token window, though the model can take {{max}}. To raise it, load the model with a larger Context Length (My Models → the model’s settings, or lms load --context-length), then press Re-detect.',
    llamacpp:
      'llama-server runs {{model}} with a {{loaded}}-token window per slot, though the model was trained for {{max}}. To raise it, start llama-server with a larger --ctx-size (-c); --parallel divides it among the slots. Then press Re-detect.',
  },
  assumed: '{{model}} is not loaded yet, so the server has not said the window it will run it with. Airlock assumes {{tokens}} tokens until it does, and asks again with the next answer.',
  overLoaded: 'The server runs this model with only {{loaded}} tokens. With a larger window here it will cut the conversation silently, unless you raise its window too.',
  unreachable: 'Airlock could not reach the server to ask about this model’s window. It asks again at the next answer, or when you press Re-detect.',
}
