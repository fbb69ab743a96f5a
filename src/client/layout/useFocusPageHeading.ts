import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/** How long a page may take to render its own h1 (lazy chunk, first data) before the header's title is taken. */
const WAIT_FOR_H1_MS = 800;
/** How long before focus goes to the content itself, when there is no title at all (a slow phone loads a route's chunk for seconds). */
const WAIT_MS = 10_000;

/**
 * After each navigation (and on the first signed-in page) moves focus to the new page's heading, so keyboard
 * and screen-reader users start reading the page they opened instead of the top of the document. The heading
 * is the content's own h1, else the title in the header; the page's content when there is none. A page that
 * focused something of its own (a form's first field) keeps it.
 */
export function useFocusPageHeading(main: RefObject<HTMLElement | null>, header: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    const before = document.activeElement;
    const started = performance.now();
    let frame = 0;
    const focusHeading = () => {
      const content = main.current;
      if (!content) return;
      const active = document.activeElement;
      // Something on the new page took focus itself, or the person moved on already (in the page or elsewhere).
      if (active && active !== before && active !== document.body) return;
      const waited = performance.now() - started;
      const title = waited >= WAIT_FOR_H1_MS && header.current?.textContent?.trim() ? header.current : null;
      const heading = content.querySelector<HTMLElement>('h1') ?? title;
      if (!heading && waited < WAIT_MS) {
        frame = requestAnimationFrame(focusHeading);
        return;
      }
      const target = heading ?? content;
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: first.current });
      first.current = false;
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [pathname, main, header]);
}
