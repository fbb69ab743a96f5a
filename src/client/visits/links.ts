/** Where visits are logged and listed. */

/** The visit form for a site (`?source=` is react-admin's way to give a create form its first values). */
export const logVisitPath = (siteId: number | string) =>
  `/visits/create?source=${encodeURIComponent(JSON.stringify({ site_id: Number(siteId) }))}`;

/** The site page's visits. */
export const siteVisitsPath = (siteId: number | string) => `/sites/${siteId}/show?tab=visits`;
