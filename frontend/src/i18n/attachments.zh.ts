// 附件的中文文案（第二部分）：服务器对图片支持的说法、从文件面板附加、上下文量表中的附件
// （在 zh.ts 中合并为 `attachments`）。
export const attachmentsZh = {
  visionServerYes: '按服务器所说：是',
  visionServerNo: '按服务器所说：否（省略图片）',
  noVisionServer: '服务器表示 {{model}} 不接受图片：图片将被省略，并告知模型此处有文件。如果它确实支持图片，请在对话的“工具”菜单中更改。',
  toolImagesOff: '{{model}} 不接受图片，因此不会把工具返回的图片发给它。',
  attachToMessage: '附加到消息',
  attachToMessageHint: '把这个文件附加到正在编写的消息',
  attachFailed: '无法附加该文件',
  noComposer: '打开一个对话后才能把文件附加到消息。',
  gaugeAttachments: '附件',
}
