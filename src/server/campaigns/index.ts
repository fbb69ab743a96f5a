import type { Feature } from '../app-context.js';
import { campaignCardsResource } from './campaign-cards-resource.js';
import { campaignsResource } from './campaigns-resource.js';

/** Campaigns toward a majority and the cards signed in them (docs/campaigns.md): record types the generic routes serve. */
export const campaignsFeature: Feature = {
  resources: [campaignsResource, campaignCardsResource],
};
