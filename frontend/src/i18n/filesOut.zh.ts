// Chinese strings of Files ▸ Save as… and Open in editor (merged into zh.ts as `filesOut`).
export const filesOutZh = {
  menu: '{{name}} 的操作',
  saveAs: '另存为…',
  dialogTitle: '保存 {{name}} 的副本',
  saveAsHint: '把这个文件的副本保存到你的电脑上',
  openInEditor: '在编辑器中打开',
  openInEditorHint: '用系统中这类文件的默认应用打开',
  saved: '副本已保存',
  savedTo: '已保存到 {{path}}',
  errors: {
    save: '无法保存副本',
    open: '无法打开文件',
  },
}
