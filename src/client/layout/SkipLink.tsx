/** The first Tab stop of every signed-in page: moves focus past the header and the menu to the page itself. */
import type { MouseEvent } from 'react';
import { layoutClasses } from './layoutStyles';

export const MAIN_CONTENT_ID = 'main-content';

export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    // The router would take "#main-content" for a navigation; focus the page's content instead.
    event.preventDefault();
    document.getElementById(MAIN_CONTENT_ID)?.focus();
  };
  return (
    <a href={`#${MAIN_CONTENT_ID}`} onClick={skip} data-testid="skip-link" className={layoutClasses.skipLink}>
      Skip to content
    </a>
  );
}
