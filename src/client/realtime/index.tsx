/**
 * Live updates: the connection starts with the app (its code loads on demand after the first commit, and a screen
 * opened at once must not miss the changes made meanwhile), and the notice that a new version was deployed.
 */
import type { ClientFeature } from '../resources/registry';
import { RealtimeConnector } from './RealtimeConnector';
import { SystemUpdatedOverlay } from './SystemUpdatedOverlay';

const realtime: ClientFeature = {
  globals: [<RealtimeConnector key="realtime" />, <SystemUpdatedOverlay key="system-updated" />],
};

export default realtime;
