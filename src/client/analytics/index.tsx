/** Page views for the organization's analytics (when ANALYTICS_URL is set), counted beside the routes. */
import type { ClientFeature } from '../resources/registry';
import { PageViewTracker } from './PageViewTracker';

const analytics: ClientFeature = {
  globals: [<PageViewTracker key="page-views" />],
};

export default analytics;
