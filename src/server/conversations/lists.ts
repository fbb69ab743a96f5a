import { reference } from '../reference-data/reference-resources.js';
import { schemaBacked } from '../schemas/schema-backed.js';

/**
 * The lists conversations choose from, which administrators extend and rename like contact statuses: the outcomes
 * (reached, left a message, no answer...; `reached` says a call list need not offer the person again) and the
 * assessment levels (1 = leader ... 5 = opposed, with the administrator's labels).
 */
export const conversationOutcomesResource = schemaBacked(reference('conversation-outcome', 'conversation_outcomes'));
export const assessmentLevelsResource = schemaBacked(reference('assessment-level', 'assessment_levels'));
