import { useEffect, useState } from 'react';

/** The width of the window, for charts that must fit a 390 px phone. */
export function useNarrow(limit = 600) {
  const [narrow, setNarrow] = useState(() => typeof window !== 'undefined' && window.innerWidth < limit);
  useEffect(() => {
    const onResize = () => setNarrow(window.innerWidth < limit);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [limit]);
  return narrow;
}
