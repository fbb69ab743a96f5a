import { SocialLinkValue } from '../displays';
import { containsFilter } from '../filterSpecs';
import { LinkInput } from '../inputs';
import { type FieldTypeUI, never, noNumber, plainHistory } from './define';

/** A profile on a social network: a link named by its network. */
export const socialLink: FieldTypeUI = {
  type: 'social-link',
  Input: LinkInput,
  Value: SocialLinkValue,
  filters: containsFilter,
  editor: () => 'string',
  history: plainHistory,
  wide: never,
  structured: never,
  Options: null,
  numberFormat: noNumber,
};
