// English strings added for fit and finish (merged into en.ts as `finish`).
export const finishEn = {
  useTextCalls: 'Use text calls for this model',
  discardEdits: {
    title: 'Discard unsaved changes?',
    message: 'The provider you are editing has changes that are not saved. Close Settings and lose them?',
    confirm: 'Discard changes',
  },
  searchResultsOf: 'Results · {{tools}}',
  refused: 'Running this call will be refused: {{why}}',
  refusedEdit: 'With this edit, running it will be refused: {{why}}',
  revoke: {
    title: 'Revoke rule #{{id}} ({{tool}})?',
    messageAllow: 'Calls of {{tool}} that it allowed will wait on a card again.',
    messageDeny: 'Calls of {{tool}} that it refused will wait on a card again.',
  },
  ruleTestEverywhere: {
    testAllowed_one: 'Would have allowed {{count}} of the {{total}} calls of all chats:',
    testAllowed_other: 'Would have allowed {{count}} of the {{total}} calls of all chats:',
    testDenied_one: 'Would have denied {{count}} of the {{total}} calls of all chats:',
    testDenied_other: 'Would have denied {{count}} of the {{total}} calls of all chats:',
    testNone: 'It would not have covered any of the {{total}} calls of all chats so far.',
  },
  workspace: {
    unavailableTitle: 'This chat’s folder cannot be used',
    unavailableNew: 'Nothing was sent: the folder chosen for this new chat cannot be used. Choose it again, or switch to Scratch, then send.',
    chooseAgain: 'Choose the folder again…',
    useScratch: 'Switch to Scratch',
    switched: 'Workspace changed. Press Retry to send again.',
  },
}
