/**
 * Mounted once beside the routes: the side panel with the assistant, for a signed-in person, when it is open. It
 * renders once the first screen has painted (layout/firstPaint.ts), so it never delays it.
 */
import { Suspense } from 'react';
import { useSession } from '../app/hooks';
import { useFirstPaintDone } from '../layout/firstPaint';
import { LoadingScreen } from '../layout/LoadingScreen';
import { SidePanel } from '../layout/SidePanel';
import { lazyPage } from '../routing/lazyPage';
import { assistantPanel, useAssistantPanel } from './panelStore';

const AssistantPanel = lazyPage('AssistantPanel', () => import('./AssistantPanel'));

export function AssistantPanelHost() {
  const { open } = useAssistantPanel();
  const { user } = useSession();
  const painted = useFirstPaintDone();
  if (!user || !painted) return null;
  return (
    <SidePanel open={open} onClose={() => assistantPanel.close()} title="Assistant">
      {open ? (
        <Suspense fallback={<LoadingScreen fullHeight={false} />}>
          <AssistantPanel />
        </Suspense>
      ) : null}
    </SidePanel>
  );
}
