// English strings of MCP servers while their tools run (merged into en.ts as `mcpLive`).
export const mcpLiveEn = {
  asks: '{{server}} asks',
  urlAsks: '{{server}} asks you to open a page on {{domain}}',
  urlHint: 'Nothing opens until you press the button; the page opens in your browser, on {{domain}}.',
  open: 'Open {{domain}}',
  accept: 'Send',
  decline: 'Decline',
  cancel: 'Cancel',
  progress: 'Progress',
  progressOf: '{{progress}} of {{total}}',
  progressSoFar: '{{progress}} so far',
  readOnly: 'read-only',
  destructive: 'may delete or overwrite',
}
