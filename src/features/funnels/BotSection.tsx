// The funnel's bot on its screen: open it in Telegram (t.me/<username>), copy or share its link,
// and rename the funnel.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FUNNEL_NAME_MAX, type Funnel } from '../../../contract/funnels';
import { runChange } from '@/api/action';
import { renameFunnel } from '@/api/funnels';
import { RowContent, RowIcon, Section } from '@/ui/blocks';
import { TextField } from '@/ui/form';
import { CopyIcon, EditIcon, ExternalIcon, SendIcon } from '@/ui/glyphs';
import { ConfirmDialog } from '@/ui/Dialog';
import { openInTelegram } from './telegramLink';
import { describeFailure, success } from '@/api/useApi';

export const botLink = (username: string) => `https://t.me/${username}`;
/** Telegram's own share sheet for a link (works in every client and in a browser). */
const shareLink = (url: string, text: string) => `https://t.me/share/url?url=${encodeURIComponent(url)}&text=${encodeURIComponent(text)}`;

export function BotSection({ funnel, username }: { funnel: Funnel; username: string }) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const link = botLink(username);

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      success(t('funnels.share.copied'));
    } catch {
      // No clipboard (an old WebView): select-and-copy by hand from the link's row.
      window.prompt(t('funnels.share.copy'), link);
    }
  }

  return (
    <>
      <Section title={t('funnels.share.title')} footer={link}>
        <a
          className="row"
          href={link}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => {
            if (openInTelegram(link)) event.preventDefault();
          }}
        >
          <RowContent icon={<RowIcon tint="blue"><ExternalIcon /></RowIcon>} title={t('funnels.share.open', { username })} chevron={false} />
        </a>
        <button type="button" className="row" onClick={() => void copy()}>
          <RowContent icon={<RowIcon tint="gray"><CopyIcon /></RowIcon>} title={t('funnels.share.copy')} chevron={false} />
        </button>
        <a
          className="row"
          href={shareLink(link, t('funnels.share.shareText'))}
          target="_blank"
          rel="noopener noreferrer"
          onClick={(event) => {
            if (openInTelegram(shareLink(link, t('funnels.share.shareText')))) event.preventDefault();
          }}
        >
          <RowContent icon={<RowIcon tint="teal"><SendIcon /></RowIcon>} title={t('funnels.share.share')} chevron={false} />
        </a>
        <button type="button" className="row" onClick={() => setRenaming(true)}>
          <RowContent icon={<RowIcon tint="orange"><EditIcon /></RowIcon>} title={t('funnels.share.rename')} description={funnel.name} chevron={false} />
        </button>
      </Section>
      {renaming ? <RenameDialog funnel={funnel} onDone={() => setRenaming(false)} /> : null}
    </>
  );
}

function RenameDialog({ funnel, onDone }: { funnel: Funnel; onDone: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState(funnel.name);
  const [errors, setErrors] = useState<string[]>([]);

  async function save() {
    if (!name.trim()) return setErrors([t('funnels.serverErrors.blank')]);
    const result = await runChange(() => renameFunnel(funnel.id, name.trim()));
    if (!result.ok) {
      const { fields, messages } = describeFailure(result.failure, ['name']);
      return setErrors([...(fields.name ?? []), ...messages]);
    }
    onDone();
    success(t('funnels.share.renamed'));
  }

  return (
    <ConfirmDialog title={t('funnels.share.renameTitle')} confirmLabel={t('funnels.common.save')} cancelLabel={t('funnels.common.cancel')} onConfirm={() => void save()} onCancel={onDone}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
        noValidate
      >
        <TextField
          label={t('funnels.share.renameLabel')}
          value={name}
          maxLength={FUNNEL_NAME_MAX}
          autoFocus
          onChange={(event) => {
            setName(event.target.value);
            setErrors([]);
          }}
          errors={errors.length ? errors : undefined}
        />
      </form>
    </ConfirmDialog>
  );
}
