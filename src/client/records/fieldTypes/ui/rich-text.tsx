import Typography from '@mui/material/Typography';
import { markdownWords } from '../../../../common/field-types/rich-text';
import { Markdown } from '../../../assistant/Markdown';
import type { ValueView } from '../displays';
import { containsFilter } from '../filterSpecs';
import { type InputComponentProps, TextareaInput } from '../inputs';
import { always, type FieldTypeUI, never, noNumber } from './define';

/** Markdown typed in a text box, with a word on what it takes. */
function RichTextInput({ descriptor }: InputComponentProps) {
  return (
    <TextareaInput
      descriptor={{
        ...descriptor,
        help: descriptor.help ?? 'Markdown: **bold**, _italic_, # heading, - list, [link](https://...)',
      }}
    />
  );
}

/** The Markdown rendered (never its HTML) on a page; its words on one clamped line in a list. */
const RichTextValue: ValueView = ({ value, variant }) => {
  if (typeof value !== 'string' || !value) return null;
  return variant === 'show' ? (
    <Markdown text={value} links="web" />
  ) : (
    <Typography component="span" variant="body2" noWrap sx={{ display: 'block' }}>
      {markdownWords(value)}
    </Typography>
  );
};

/** Rich text: Markdown written in a box, rendered safely on pages; found by the words it holds. */
export const richText: FieldTypeUI = {
  type: 'rich-text',
  Input: RichTextInput,
  Value: RichTextValue,
  filters: containsFilter,
  editor: () => null,
  history: (value) => markdownWords(value),
  wide: always,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
