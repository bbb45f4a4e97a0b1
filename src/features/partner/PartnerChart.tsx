// Clicks, sign-ups and paying people per day, drawn with uPlot. The library and its stylesheet
// are fetched when a chart first mounts (only the link and statistics screens have one), so no
// other screen carries them. Colours come from the theme's CSS variables, read when drawing.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type uPlot from 'uplot';
import type { PartnerDay } from '../../../contract/partner';

type UPlotConstructor = typeof uPlot;

let library: Promise<UPlotConstructor> | undefined;
function loadChartLibrary(): Promise<UPlotConstructor> {
  library ??= Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(
    ([module]) => module.default,
    (error: unknown) => {
      library = undefined; // tried again on the next mount
      throw error;
    },
  );
  return library;
}

const CHART_HEIGHT = 220;

function cssColor(element: Element, variable: string): string {
  return getComputedStyle(element).getPropertyValue(variable).trim() || 'currentColor';
}

export function PartnerChart({ days }: { days: PartnerDay[] }) {
  const { t, i18n } = useTranslation();
  const frameRef = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const frame = frameRef.current;
    if (!frame) return undefined;
    let chart: uPlot | undefined;
    let cancelled = false;
    let observer: ResizeObserver | undefined;
    loadChartLibrary().then(
      (UPlot) => {
        if (cancelled) return;
        const text = cssColor(frame, '--color-hint');
        const grid = cssColor(frame, '--color-separator');
        const dayFormat = new Intl.DateTimeFormat(i18n.language, { day: 'numeric', month: 'short', timeZone: 'UTC' });
        const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
        const data: uPlot.AlignedData = [
          days.map((day) => Date.parse(`${day.date}T00:00:00Z`) / 1000),
          days.map((day) => day.clicks),
          days.map((day) => day.signups),
          days.map((day) => day.paying),
        ];
        chart = new UPlot(
          {
            width: frame.clientWidth,
            height: CHART_HEIGHT,
            tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
            cursor: { drag: { x: false, y: false } },
            legend: { show: true },
            scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
            axes: [
              // Room for a Russian day ("12 нояб.") between ticks: the default 50 px let them touch.
              { ...axis, space: 72, values: (_u, ticks) => ticks.map((ts) => dayFormat.format(new Date(ts * 1000))) },
              { ...axis, size: 40, values: (_u, ticks) => ticks.map((value) => (Number.isInteger(value) ? String(value) : '')) },
            ],
            series: [
              { label: t('partner.day'), value: (_u, ts) => (ts == null ? '' : dayFormat.format(new Date(ts * 1000))) },
              { label: t('partner.clicks'), stroke: cssColor(frame, '--color-link'), width: 2 },
              { label: t('partner.signups'), stroke: cssColor(frame, '--color-success'), width: 2 },
              { label: t('partner.paying'), stroke: cssColor(frame, '--tint-orange'), width: 2 },
            ],
          },
          data,
          frame,
        );
        observer = new ResizeObserver(() => chart?.setSize({ width: frame.clientWidth, height: CHART_HEIGHT }));
        observer.observe(frame);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [days, t, i18n.language]);

  if (failed) return <p className="partner-chart-failed">{t('partner.chartFailed')}</p>;
  return <div className="partner-chart" ref={frameRef} role="img" aria-label={t('partner.chartLabel')} data-testid="partner-chart" />;
}
