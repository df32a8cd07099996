// English strings of rules on an MCP server's read-only tools (merged into en.ts as `rulesReadOnly`).
export const rulesReadOnlyEn = {
  menu: 'Read-only tools of {{server}}',
  menuDesc: 'Every tool of {{server}} that the server says is read-only',
  kind: 'read-only tools of {{server}}',
  match: 'tools the server says are read-only',
  claim: 'Read-only is the server’s own claim, not a proof. It is checked each time a call is decided: a tool that stops saying it, says it is destructive, or says nothing waits for you.',
}
