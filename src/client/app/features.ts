/**
 * The feature folders of the app, in the order their screens are declared. To add a screen, export it from its
 * folder's `index.tsx` (resources/registry.tsx `ClientFeature`); a new folder is added here.
 */

import activity from '../activity';
import admin from '../admin';
import analytics from '../analytics';
import apiReference from '../apiReference';
import assistant from '../assistant';
import automations from '../automations';
import callLists from '../callLists';
import campaigns from '../campaigns';
import importers from '../importers';
import imports from '../imports';
import map from '../map';
import messages from '../messages';
import offlineWork from '../offline';
import profile from '../profile';
import publicForms from '../publicForms';
import realtime from '../realtime';
import records from '../records';
import reports from '../reports';
import type { ClientFeature } from '../resources/registry';
import schemas from '../schemas';
import visits from '../visits';
import work from '../work';

export const FEATURES: readonly ClientFeature[] = [
  records,
  admin,
  schemas,
  work,
  imports,
  importers,
  activity,
  reports,
  map,
  profile,
  assistant,
  visits,
  campaigns,
  callLists,
  messages,
  automations,
  publicForms,
  apiReference,
  offlineWork,
  realtime,
  analytics,
];
