// The draft of a message in the shared editor, as the stage, mailing and letter editors keep it:
// the draft itself, a picked file checked and uploaded (its problem shown on the editor, a file
// the server found too big as 'File too big'), and the picked file's preview URL let go of.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MEDIA_MAX_BYTES, MEDIA_TYPES } from '../../../contract/funnels';
import { runRead } from '@/api/action';
import { uploadMedia } from '@/api/funnels';
import { describeFailure } from '@/api/useApi';
import { draftProblems, sameDraft, type ButtonErrors, type MessageDraft, type MessageEditorErrors } from './MessageEditor';

export interface FileProblem {
  title: string;
  text: string;
}

export interface MessageDraftState {
  draft: MessageDraft;
  setDraft: (next: MessageDraft) => void;
  /** The draft differs from the saved message. */
  changed: boolean;
  fileProblem: FileProblem | null;
  /** Checks a picked file, uploads it to the funnel's media and puts it in the draft. */
  pickFile: (file: File) => Promise<void>;
  /** The draft's own problems (too long, a button without a link, …), checked before a save. */
  problems: ReturnType<typeof draftProblems>;
  /**
   * What the shared editor shows: the draft, its file and its problem, and the errors of each
   * field: the server's, with the draft's own once the author tried to save (they then clear as
   * the author types).
   */
  editorProps: (serverErrors: Record<string, string[]>, tried: boolean) => MessageEditorBinding;
}

export interface MessageEditorBinding {
  value: MessageDraft;
  onChange: (next: MessageDraft) => void;
  errors: Record<string, string[]>;
  buttonErrors: ButtonErrors[];
  onPickFile: (file: File) => Promise<void>;
  fileProblem: FileProblem | null;
}

/** The server's errors and the draft's own, per field, each message once. */
function mergeErrors(server: Record<string, string[]>, own: MessageEditorErrors): Record<string, string[]> {
  const merged = { ...server };
  for (const [field, list = []] of Object.entries(own) as Array<[string, string[] | undefined]>) merged[field] = [...new Set([...(merged[field] ?? []), ...list])];
  return merged;
}

export function useMessageDraft(saved: MessageDraft, funnelId: number): MessageDraftState {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<MessageDraft>(saved);
  const [fileProblem, setFileProblem] = useState<FileProblem | null>(null);

  // A picked file's preview URL is let go once another replaces it, or the screen closes.
  const mediaSrc = draft.mediaSrc;
  useEffect(() => () => {
    if (mediaSrc) URL.revokeObjectURL(mediaSrc);
  }, [mediaSrc]);

  async function pickFile(file: File) {
    setFileProblem(null);
    const kind = MEDIA_TYPES[file.type];
    if (!kind) return setFileProblem({ title: t('funnels.message.unsupportedTitle'), text: t('funnels.serverErrors.unsupportedFile') });
    if (file.size > MEDIA_MAX_BYTES[kind]) {
      return setFileProblem({ title: t('funnels.message.fileTooBig'), text: t('funnels.message.fileLimit', { count: MEDIA_MAX_BYTES[kind] / (1024 * 1024) }) });
    }
    // An upload changes nothing a screen loaded: the draft takes the new media.
    const result = await runRead(() => uploadMedia(funnelId, file));
    if (!result.ok) {
      const { messages, fields } = describeFailure(result.failure);
      const text = [...messages, ...Object.values(fields).flat()].join(' ');
      const tooBig = result.failure.kind === 'http' && result.failure.status === 413;
      if (text) setFileProblem({ title: tooBig ? t('funnels.message.fileTooBig') : t('funnels.message.uploadFailed'), text });
      return;
    }
    setDraft((current) => ({ ...current, media: result.value, mediaSrc: URL.createObjectURL(file) }));
  }

  const problems = draftProblems(draft, t);
  const editorProps = (serverErrors: Record<string, string[]>, tried: boolean): MessageEditorBinding => ({
    value: draft,
    onChange: setDraft,
    errors: tried ? mergeErrors(serverErrors, problems.fields) : serverErrors,
    buttonErrors: tried ? problems.buttons : [],
    onPickFile: pickFile,
    fileProblem,
  });
  return { draft, setDraft, changed: !sameDraft(draft, saved), fileProblem, pickFile, problems, editorProps };
}
