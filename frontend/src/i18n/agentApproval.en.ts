// English strings of an agent's approval defaults (merged into en.ts as `agentApproval`).
export const agentApprovalEn = {
  title: 'Approval',
  hint: 'Which of your rules decide the calls of chats with this agent. Never-allow rules deny in every mode; the loop guard and the turn cap still hold calls.',
  modes: {
    rules: { label: 'Your rules decide', desc: 'Your Always-allow and Never-allow rules apply; a call no rule covers waits for you.' },
    reads: {
      label: 'Reads run without asking',
      desc: 'As above, and tools that only read (file reads, listings, searches, built-ins) run by themselves when every path is inside the workspace. Writes always ask.',
    },
    ask: {
      label: 'Ask every time',
      desc: 'Your Always-allow rules for every chat do not run anything here: each call waits for you, unless you allow it in this chat.',
    },
  },
  ranBy: 'Ran without asking: {{who}} lets reads inside the workspace run',
  everywhereHere: 'Run this tool without asking in every chat whose agent lets your rules decide; this chat’s agent asks every time, so here only this call runs',
  who: 'agent {{id}}',
}
