/** How values read: a choice's label, a number in its format, a social link's network, an address on one line. */
import type { FieldDescriptor, NumberFormat } from './describe';

/** The label of a choice value ('non-union' -> 'Non-Union'); the value itself when unknown. */
export function choiceLabel(descriptor: Pick<FieldDescriptor, 'choices'>, value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const found = descriptor.choices.find((choice) => choice.id === String(value));
  return found ? found.name : String(value);
}

/** Formats a number for display: money as dollars, hours with an 'h', others with grouping. */
export function formatNumber(value: unknown, format: NumberFormat = 'number'): string {
  if (value === null || value === undefined || value === '') return '';
  const number = Number(value);
  if (!Number.isFinite(number)) return String(value);
  if (format === 'money')
    return number.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
  if (format === 'currency') return number.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
  if (format === 'integer') return number.toLocaleString('en-US', { maximumFractionDigits: 0 });
  if (format === 'hours') return `${number.toLocaleString('en-US', { maximumFractionDigits: 2 })} h`;
  return number.toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** The network a social link points at, for its icon and label ('https://twitter.com/x' -> 'twitter'). */
export function socialNetwork(url: unknown): string | null {
  if (typeof url !== 'string' || !url) return null;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
  const networks: Array<[RegExp, string]> = [
    [/(^|\.)facebook\.com$|(^|\.)fb\.com$/, 'facebook'],
    [/(^|\.)twitter\.com$|(^|\.)x\.com$/, 'twitter'],
    [/(^|\.)instagram\.com$/, 'instagram'],
    [/(^|\.)linkedin\.com$/, 'linkedin'],
    [/(^|\.)youtube\.com$|(^|\.)youtu\.be$/, 'youtube'],
    [/(^|\.)tiktok\.com$/, 'tiktok'],
  ];
  for (const [pattern, name] of networks) if (pattern.test(host)) return name;
  return host;
}

/** One address as one line: '291 Main St, Los Angeles, CA 90026'. */
export function addressLine(address: Record<string, unknown> | null | undefined): string {
  if (!address) return '';
  const text = (key: string) => (typeof address[key] === 'string' ? (address[key] as string).trim() : '');
  const statePostal = [text('state'), text('postal_code')].filter(Boolean).join(' ');
  return [text('street'), text('city'), statePostal].filter(Boolean).join(', ');
}
