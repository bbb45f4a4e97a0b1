// The "came by which source" filter of a funnel's people and of contacts: every source, then
// "No source"; the empty choice is "All sources". Its value is what the API's `source` takes
// (a source's id, or "none"), as a string.
import { useTranslation } from 'react-i18next';

export function SourceSelect({
  sources,
  value,
  onChange,
  testId,
}: {
  sources: readonly { id: number; name: string }[];
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <select className="field-input field-select" aria-label={t('funnels.sources.source')} value={value} onChange={(event) => onChange(event.target.value)} data-testid={testId}>
      <option value="">{t('funnels.sources.allSources')}</option>
      {sources.map((source) => (
        <option key={source.id} value={source.id}>
          {source.name}
        </option>
      ))}
      <option value="none">{t('funnels.sources.noSource')}</option>
    </select>
  );
}
