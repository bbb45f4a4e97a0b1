// /content/funnels/$funnelId/stages/$stageId/message/: a stage's message in the shared editor
// (ui/message-editor): loads it, uploads picked media, saves, and goes back to the stage.
import { useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Funnel, Stage } from '../../../contract/funnels';
import { runChange } from '@/api/action';
import { saveMessage } from '@/api/funnels';
import { usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { Button, FormAlert } from '@/ui/form';
import { draftLimit, MessageEditor, type MessageDraft } from '@/ui/message-editor/MessageEditor';
import { useMessageDraft } from '@/ui/message-editor/useMessageDraft';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { useUnsavedGuard } from '@/ui/UnsavedGuard';
import { describeFailure, success, type TranslatedFailure } from '@/api/useApi';

const NO_ERRORS: TranslatedFailure = { fields: {}, messages: [] };

/** The route loads the stage and its funnel (for the bot's name in the preview) together. */
export function MessageEditorScreen({ stage, funnel, stages }: { stage: Stage; funnel: Funnel; stages: Stage[] }) {
  const { t } = useTranslation();
  usePageHead(t('funnels.message.title'));
  return (
    <Screen>
      <ScreenHeader
        title={t('funnels.message.title')}
        subtitle={stage.title}
        back={<BackLink to="/content/funnels/$funnelId/stages/$stageId/" params={{ funnelId: String(funnel.id), stageId: String(stage.id) }} label={t('common.back')} />}
      />
      <StageMessageForm key={stage.id} stage={stage} funnel={funnel} stages={stages} />
    </Screen>
  );
}

function StageMessageForm({ stage, funnel, stages }: { stage: Stage; funnel: Funnel; stages: Stage[] }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [saved] = useState<MessageDraft>(() => ({
    text: stage.message.text,
    media: stage.message.media,
    mediaSrc: null,
    buttons: stage.message.buttons,
    nextOn: stage.message.next_button !== null,
    nextText: stage.message.next_button?.text ?? t('funnels.message.nextDefault'),
    choices: stage.message.choices,
  }));
  const { draft, setDraft, changed, problems, editorProps } = useMessageDraft(saved, stage.funnel_id);
  const [errors, setErrors] = useState<TranslatedFailure>(NO_ERRORS);
  /** After a first attempt to save, the form's own checks show (and clear) as the author types. */
  const [tried, setTried] = useState(false);
  const { over } = draftLimit(draft);
  const guard = useUnsavedGuard(changed);

  /** A server error goes away once its field is changed. */
  function edit(next: MessageDraft) {
    setErrors((current) => {
      const fields = { ...current.fields };
      if (next.text !== draft.text || next.media !== draft.media) delete fields.text;
      if (next.buttons !== draft.buttons) delete fields.buttons;
      if (next.nextOn !== draft.nextOn || next.nextText !== draft.nextText) delete fields.next_button;
      if (next.media !== draft.media) delete fields.media_id;
      if (next.choices !== draft.choices) delete fields.choices;
      return { ...current, fields };
    });
    setDraft(next);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setTried(true);
    if (problems.any) return;
    const body = {
      text: draft.text,
      media_id: draft.media?.id ?? null,
      buttons: draft.buttons.map((b) => ({ text: b.text.trim(), url: b.url.trim() })),
      next_button: draft.nextOn ? { text: draft.nextText.trim() } : null,
      choices: (draft.choices ?? []).map((c) => ({ text: c.text.trim(), stage_id: c.stage_id })),
    };
    setErrors(NO_ERRORS);
    const result = await runChange(() => saveMessage(stage.id, body));
    if (!result.ok) return setErrors(describeFailure(result.failure, ['text', 'media_id', 'buttons', 'next_button', 'choices']));
    guard.release();
    success(t('funnels.message.saved'));
    await navigate({ to: '/content/funnels/$funnelId/stages/$stageId/', params: { funnelId: String(stage.funnel_id), stageId: String(stage.id) } });
  }


  return (
    <form className="form message-editor" onSubmit={(event) => void save(event)} noValidate>
      <FormAlert messages={errors.messages} />

      {guard.dialog}
      <MessageEditor
        {...editorProps(errors.fields, tried)}
        onChange={edit}
        botName={funnel.name}
        choiceStages={stages.map((s) => ({ id: s.id, title: s.title }))}
      />

      <Button type="submit" disabled={over || (tried && problems.any)}>
        {t('funnels.common.save')}
      </Button>
    </form>
  );
}

