// English strings of attachments, second part: the server's word on vision,
// attaching from the Files panel, attachments in the context gauge (merged
// into en.ts as `attachments`).
export const attachmentsEn = {
  visionServerYes: 'As the server says: yes',
  visionServerNo: 'As the server says: no (leave them out)',
  noVisionServer:
    'The server says {{model}} does not take images: they will be left out and the model told a file was there. If it does take images, change this in the chat’s Tools menu.',
  toolImagesOff: '{{model}} does not take images, so tools’ images are not sent to it.',
  attachToMessage: 'Attach to message',
  attachToMessageHint: 'Attach this file to the message you are writing',
  attachFailed: 'Could not attach the file',
  noComposer: 'Open a chat to attach files to a message.',
  gaugeAttachments: 'Attached files',
}
