/**
 * The feature folders of the app, in the order their screens are declared. To add a screen, export it from its
 * folder's `index.tsx` (resources/registry.tsx `ClientFeature`); a new folder is added here.
 */
import type { ClientFeature } from '../resources/registry';
import records from '../records';
import admin from '../admin';
import schemas from '../schemas';
import work from '../work';
import imports from '../imports';
import importers from '../importers';
import activity from '../activity';
import reports from '../reports';
import map from '../map';
import profile from '../profile';
import assistant from '../assistant';
import visits from '../visits';
import campaigns from '../campaigns';
import offlineWork from '../offline';

export const FEATURES: readonly ClientFeature[] = [records, admin, schemas, work, imports, importers, activity, reports, map, profile, assistant, visits, campaigns, offlineWork];
