import { AttachmentValue } from '../displays';
import { LazyAttachmentInput } from '../inputs';
import { always, type FieldTypeUI, noNumber, plainHistory } from './define';

/** Files: upload chips; links to the files. The built-in read-only list is not edited or filtered. */
export const attachment: FieldTypeUI = {
  type: 'attachment',
  Input: LazyAttachmentInput,
  Value: AttachmentValue,
  filters: (d) => (d.readOnly ? [] : [{ source: `${d.slug}_null`, kind: 'has-value', label: d.label }]),
  editor: () => null,
  history: plainHistory,
  wide: always,
  structured: always,
  Options: null,
  numberFormat: noNumber,
};
