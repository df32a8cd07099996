// English strings of Files ▸ Save as… and Open in editor (merged into en.ts as `filesOut`).
export const filesOutEn = {
  menu: 'Actions for {{name}}',
  saveAs: 'Save as…',
  dialogTitle: 'Save a copy of {{name}}',
  saveAsHint: 'Save a copy of this file on your computer',
  openInEditor: 'Open in editor',
  openInEditorHint: 'Open it with your system’s default app for this kind of file',
  saved: 'Copy saved',
  savedTo: 'Saved to {{path}}',
  errors: {
    save: 'Couldn’t save a copy',
    open: 'Couldn’t open the file',
  },
}
