/** How figures read: numbers, money and shares in US English ('–' when there is none), and this month's dates. */
export const formatNumber = (value: number | null | undefined, digits = 0) =>
  value === null || value === undefined
    ? '–'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

export const formatMoney = (value: number | null | undefined) =>
  value === null || value === undefined
    ? '–'
    : value.toLocaleString('en-US', {
        style: 'currency',
        currency: 'USD',
        notation: value >= 1e7 ? 'compact' : 'standard',
        maximumFractionDigits: value >= 1e7 ? 1 : 0,
      });

export const formatPercent = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })}%`;

/** First and last day (YYYY-MM-DD) of this month. */
export function thisMonth(now = new Date()) {
  const y = now.getFullYear();
  const m = now.getMonth();
  const pad = (n: number) => String(n).padStart(2, '0');
  const last = new Date(y, m + 1, 0).getDate();
  return { from: `${y}-${pad(m + 1)}-01`, to: `${y}-${pad(m + 1)}-${pad(last)}`, month: `${y}-${pad(m + 1)}` };
}
