import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';

let committed = 0;

/**
 * Rendered by the layout after its page content: counts the screens committed, on `<body data-screen>`. A route whose
 * code is still loading leaves the previous screen in view, so the browser tests wait for this to change after opening
 * a path inside the app (tests/e2e/support.ts, `openInApp`) before they look at the new screen.
 */
export function ScreenMark() {
  const { key, pathname, search } = useLocation();
  useEffect(() => {
    committed += 1;
    document.body.dataset.screen = `${committed} ${key} ${pathname}${search}`;
  }, [key, pathname, search]);
  return null;
}
