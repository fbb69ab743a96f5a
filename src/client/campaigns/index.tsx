/** Campaigns toward a majority: the card form (the cards' create screen); the campaign and contractor pages show progress. */
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const AddCardPage = lazyPage('AddCard', () => import('./AddCardPage'));

const campaigns: ClientFeature = {
  resources: { 'campaign-cards': { create: AddCardPage } },
};

export default campaigns;
