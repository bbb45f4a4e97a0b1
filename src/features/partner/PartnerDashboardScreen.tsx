// /partner/dashboard/: the balance (available and pending, per currency), the totals, the links
// in their three forms with copy and share, and a form to add a labelled link.
import { Link, type LinkComponentProps } from '@tanstack/react-router';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PARTNER_LINK_LABEL_MAX, type PartnerBalances, type PartnerLink } from '../../../contract/partner';
import { ROUTES } from '../../../contract/routes';
import { runChange } from '@/api/action';
import { createPartnerLink } from '@/api/partner';
import { describeFailure, success } from '@/api/useApi';
import { showTopInfo, usePageHead } from '@/state/ui';
import { BackLink } from '@/ui/BackLink';
import { EmptyState, RowContent, RowIcon, Section, Stat, type Tint } from '@/ui/blocks';
import { Button, FormAlert, TextField } from '@/ui/form';
import { CopyIcon, SendIcon } from '@/ui/glyphs';
import { ChartIcon, LinkIcon, ListIcon, WalletIcon } from '@/ui/icons';
import { Screen, ScreenHeader } from '@/ui/Screen';
import { BalanceCard } from './BalanceCard';
import { formatMonies, sumMonies } from './format';
import { linkTitle } from './linkTitle';
import { copyText, shareLink } from '@/telegram/share';
import './partner.css';

function NavRow({ to, icon, tint, title }: { to: LinkComponentProps['to']; icon: ReactNode; tint: Tint; title: string }) {
  const id = useId();
  return (
    <Link to={to} className="row" aria-labelledby={id}>
      <RowContent icon={<RowIcon tint={tint}>{icon}</RowIcon>} title={title} titleId={id} />
    </Link>
  );
}

type LinkForm = 'web' | 'bot' | 'app';

function LinkFormRow({ form, url }: { form: LinkForm; url: string }) {
  const { t } = useTranslation();
  const labelId = useId();

  async function copy() {
    if (await copyText(url)) success(t('partner.copied'));
    else window.prompt(t('partner.copy'), url);
  }

  async function share() {
    const outcome = await shareLink(url, t('partner.shareText'));
    if (outcome === 'copied') success(t('partner.copied'));
    else if (outcome === 'failed') showTopInfo({ type: 'info', text: t('partner.copyByHand') });
  }

  return (
    <div className="partner-link-form" data-testid={`partner-link-${form}`}>
      <span className="partner-link-form-body">
        <span className="partner-link-form-name" id={labelId}>
          {t(`partner.forms.${form}`)}
        </span>
        <span className="partner-link-url" data-testid="partner-link-url">
          {url}
        </span>
      </span>
      <button type="button" className="icon-button" aria-label={t('partner.copyForm', { form: t(`partner.forms.${form}`) })} onClick={() => void copy()}>
        <CopyIcon />
      </button>
      <button type="button" className="icon-button" aria-label={t('partner.shareForm', { form: t(`partner.forms.${form}`) })} onClick={() => void share()}>
        <SendIcon />
      </button>
    </div>
  );
}

function PartnerLinkCard({ link }: { link: PartnerLink }) {
  const { t, i18n } = useTranslation();
  const title = linkTitle(link, t('partner.defaultLink'));
  const { totals } = link;
  return (
    <Section title={title}>
      <div data-testid="partner-link" data-uid={link.uid}>
        <LinkFormRow form="web" url={link.web_url} />
        {link.bot_url ? <LinkFormRow form="bot" url={link.bot_url} /> : null}
        {link.app_url ? <LinkFormRow form="app" url={link.app_url} /> : null}
        <Link to="/partner/dashboard/$uid/" params={{ uid: link.uid }} className="row" data-testid="partner-link-stats">
          <RowContent
            icon={
              <RowIcon tint="green">
                <ChartIcon />
              </RowIcon>
            }
            title={t('partner.linkStats')}
            description={t('partner.linkTotals', {
              clicks: totals.clicks,
              signups: totals.signups,
              paying: totals.paying,
              commission: formatMonies(totals.commission, i18n.language, '0'),
            })}
          />
        </Link>
      </div>
    </Section>
  );
}

function AddLinkForm() {
  const { t } = useTranslation();
  const [label, setLabel] = useState('');
  const [errors, setErrors] = useState<{ fields: Record<string, string[]>; messages: string[] }>({ fields: {}, messages: [] });
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = label.trim();
    if (!trimmed) {
      setErrors({ fields: { label: [t('partner.labelRequired')] }, messages: [] });
      return;
    }
    setBusy(true);
    const result = await runChange(() => createPartnerLink({ label: trimmed }), { notice: t('partner.linkAdded') });
    setBusy(false);
    if (result.ok) {
      setLabel('');
      setErrors({ fields: {}, messages: [] });
    } else setErrors(describeFailure(result.failure, ['label']));
  }

  return (
    <Section title={t('partner.addLinkTitle')} footer={t('partner.addLinkHint')}>
      <form className="partner-add-link" onSubmit={(event) => void submit(event)} noValidate>
        <FormAlert messages={errors.messages} />
        <TextField
          label={t('partner.label')}
          name="label"
          value={label}
          maxLength={PARTNER_LINK_LABEL_MAX}
          placeholder={t('partner.labelPlaceholder')}
          errors={errors.fields.label}
          onChange={(event) => setLabel(event.target.value)}
        />
        <Button type="submit" disabled={busy} data-testid="partner-add-link">
          {t('partner.addLink')}
        </Button>
      </form>
    </Section>
  );
}

export function PartnerDashboardScreen({ links, balance }: { links: PartnerLink[]; balance: PartnerBalances }) {
  const { t, i18n } = useTranslation();
  usePageHead(t('partner.title'));
  const clicks = links.reduce((sum, link) => sum + link.totals.clicks, 0);
  const signups = links.reduce((sum, link) => sum + link.totals.signups, 0);
  const paying = links.reduce((sum, link) => sum + link.totals.paying, 0);
  const commission = sumMonies(links.map((link) => link.totals.commission));
  return (
    <Screen>
      <ScreenHeader title={t('partner.title')} subtitle={t('partner.subtitle')} back={<BackLink to={ROUTES.panel} label={t('common.back')} />} />
      <BalanceCard balance={balance} />
      <div className="stat-grid partner-totals">
        <Stat label={t('partner.clicks')} value={clicks} testId="partner-total-clicks" />
        <Stat label={t('partner.signups')} value={signups} testId="partner-total-signups" />
        <Stat label={t('partner.paying')} value={paying} testId="partner-total-paying" />
        <Stat label={t('partner.commission')} value={formatMonies(commission, i18n.language, '0')} testId="partner-total-commission" />
      </div>
      <Section>
        <NavRow to={ROUTES.partnerTransactions} icon={<ListIcon />} tint="blue" title={t('partner.transactions')} />
        <NavRow to={ROUTES.partnerStatistics} icon={<ChartIcon />} tint="green" title={t('partner.statistics')} />
        <NavRow to={ROUTES.partnerWithdraw} icon={<WalletIcon />} tint="orange" title={t('partner.withdraw')} />
      </Section>
      {clicks === 0 ? (
        <Section>
          <EmptyState icon={<LinkIcon />} title={t('partner.linksEmptyTitle')}>
            <p>{t('partner.linksEmptyText')}</p>
          </EmptyState>
        </Section>
      ) : null}
      {links.map((link) => (
        <PartnerLinkCard key={link.uid} link={link} />
      ))}
      <AddLinkForm />
    </Screen>
  );
}
