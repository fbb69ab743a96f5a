/** Where campaigns and their cards are opened. */

const withSource = (path: string, values: Record<string, unknown>) =>
  `${path}?source=${encodeURIComponent(JSON.stringify(values))}`;

/** The card form for a campaign. */
export const addCardPath = (campaignId: number | string) =>
  withSource('/campaign-cards/create', { campaign_id: Number(campaignId) });

/** A new campaign aimed at a contractor. */
export const newCampaignPath = (contractorId: number | string) =>
  withSource('/campaigns/create', { contractor_ids: [Number(contractorId)] });

/** The campaign page's progress and cards. */
export const campaignPath = (campaignId: number | string) => `/campaigns/${campaignId}/show`;
