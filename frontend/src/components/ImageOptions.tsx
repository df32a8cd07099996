// The chat's image options, in the chat options popover: whether tools'
// images go to the model (per chat, on by default) and whether the active
// model takes images (the user's word, else learned from a refusal, else
// what the server says).
import { useEffect, useState } from 'react'
import { useTranslation } from '../i18n'
import type { ModelVision } from '../api'
import { modelVision, setModelVision, setToolImages, toolImages } from '../store/attachments'
import { useStore } from '../store'
import { Switch } from './Switch'

export function ImageOptions({ ids, chatId }: { ids: string; chatId: string | null }) {
  const { t } = useTranslation()
  const toastError = useStore((s) => s.toastError)
  const [on, setOn] = useState(true)
  const [vision, setVision] = useState<ModelVision | null>(null)
  useEffect(() => {
    let live = true
    if (chatId) void toolImages(chatId).then((v) => live && setOn(v))
    void modelVision().then((v) => live && setVision(v))
    return () => {
      live = false
    }
  }, [chatId])
  // The select holds the user's word or what was learned; "" follows the server.
  const own = vision?.source === 'user' || vision?.source === 'learned'
  const sees = own && (vision?.sees === 'yes' || vision?.sees === 'no') ? vision.sees : ''
  const followServer =
    vision?.server === 'yes' ? t('attachments.visionServerYes') : vision?.server === 'no' ? t('attachments.visionServerNo') : t('attach.visionUnknown')
  return (
    <div className="image-options" data-testid="image-options">
      {chatId && (
        <Switch
          id={`${ids}-tool-images`}
          checked={on}
          onChange={(v) => {
            setOn(v)
            setToolImages(chatId, v).catch((err) => {
              setOn(!v)
              toastError('attach.toolImagesError', err)
            })
          }}
          label={t('attach.toolImages')}
          description={t('attach.toolImagesHint')}
          testId="tool-images"
        />
      )}
      {chatId && on && vision?.sees === 'no' && (
        <small className="image-options__unseen" data-testid="tool-images-unseen">
          {t('attachments.toolImagesOff', { model: vision.model })}
        </small>
      )}
      {vision && (
        <label className="image-options__vision">
          <span>{t('attach.vision', { model: vision.model })}</span>
          <select
            data-testid="model-vision"
            value={sees}
            onChange={(e) => {
              const v = e.target.value as '' | 'yes' | 'no'
              setModelVision(v).then(setVision, (err) => toastError('attach.visionError', err))
            }}
          >
            <option value="">{followServer}</option>
            <option value="yes">{t('attach.visionYes')}</option>
            <option value="no">{t('attach.visionNo')}</option>
          </select>
          {vision.source === 'learned' && vision.reason && <small className="image-options__why">{t('attach.visionLearned', { reason: vision.reason })}</small>}
        </label>
      )}
    </div>
  )
}
