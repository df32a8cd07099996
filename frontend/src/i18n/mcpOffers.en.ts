// English strings of what MCP servers offer besides tools: their instructions,
// prompts ("/" in the composer) and resources (merged into en.ts as `mcpOffers`).
export const mcpOffersEn = {
  instructions: {
    title: 'Instructions from this server',
    on: 'Add to the system prompt',
    onHint: 'The model reads them, marked as coming from this server, in chats that offer its tools.',
    cut: 'Cut at 8 KB, Airlock’s cap for a server’s instructions.',
    show: 'Show instructions',
    hide: 'Hide instructions',
  },
  errors: {
    instructions: 'Couldn’t change the server’s instructions',
  },
}
