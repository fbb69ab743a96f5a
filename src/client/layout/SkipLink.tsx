/** The first Tab stop of every signed-in page: moves focus past the header and the menu to the page itself. */
import type { MouseEvent } from 'react';
import Box from '@mui/material/Box';

export const MAIN_CONTENT_ID = 'main-content';

export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    // The router would take "#main-content" for a navigation; focus the page's content instead.
    event.preventDefault();
    document.getElementById(MAIN_CONTENT_ID)?.focus();
  };
  return (
    <Box
      component="a"
      href={`#${MAIN_CONTENT_ID}`}
      onClick={skip}
      data-testid="skip-link"
      sx={{
        position: 'fixed',
        top: 8,
        left: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 600,
        boxShadow: 3,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      Skip to content
    </Box>
  );
}
