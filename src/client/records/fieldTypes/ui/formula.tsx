import { lazy } from 'react';
import { useRecordContext } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { formulaPreview, valueKind } from '../../../../common/field-types';
import type { InputComponentProps } from '../inputs';
import { COMPUTED_UI, ComputedBox } from './computed';
import type { FieldTypeUI } from './define';

/** The formula's value, worked out as the other fields are typed; never typed itself. */
function FormulaInput({ descriptor }: InputComponentProps) {
  const values = useWatch() as Record<string, unknown>;
  const record = useRecordContext();
  const live = descriptor.computed?.live;
  const value = live ? live(values ?? {}) : record?.[descriptor.slug];
  return (
    <ComputedBox label={descriptor.label} value={value} help={descriptor.help ?? 'Worked out from the other fields.'} />
  );
}

/** A formula: read-only everywhere; filtered as the kind of value it gives (number, text, date, yes/no). */
export const formula: FieldTypeUI = {
  type: 'formula',
  Input: FormulaInput,
  ...COMPUTED_UI,
  Options: lazy(() => import('./options/FormulaOptions').then((m) => ({ default: m.FormulaOptions }))),
  computed(options, self, fields) {
    const expression = typeof options.expression === 'string' ? options.expression : '';
    const kind = valueKind('formula', options);
    const others = fields.map((field) => ({
      slug: field.slug,
      name: field.name || field.slug,
      type: String(field.type ?? 'text'),
      options: (field.options ?? {}) as Record<string, unknown>,
      kind: valueKind(String(field.type ?? 'text'), (field.options ?? {}) as Record<string, unknown>),
    }));
    return { kind, live: formulaPreview(expression, self, others) };
  },
};
