/**
 * The greeting card's styles, one stylesheet written once (the greeting is the dashboard's first paint; styles
 * computed per render would be in front of it). The content's padding is scoped under the card (two classes) so it
 * wins over CardContent's own, as `sx` did; CardContent's last-child bottom padding still applies.
 */

import GlobalStyles from '@mui/material/GlobalStyles';
import type { Theme } from '@mui/material/styles';
import { memo } from 'react';

export const greetingClasses = { card: 'om-greeting', content: 'om-greeting-content' } as const;

const styles = (theme: Theme) => ({
  [`.${greetingClasses.card}`]: { marginBottom: theme.spacing(2) },
  [`.${greetingClasses.card} > .${greetingClasses.content}`]: {
    padding: theme.spacing(2),
    [theme.breakpoints.up('sm')]: { padding: theme.spacing(4) },
  },
});

export const GreetingStyles = memo(function GreetingStyles() {
  return <GlobalStyles styles={styles} />;
});
