import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import * as platform from './migrations/001_platform.js';
import * as records from './migrations/002_records.js';
import * as schemas from './migrations/003_schemas.js';
import * as map from './migrations/004_map.js';
import * as imports from './migrations/005_imports.js';
import * as siteLabour from './migrations/006_site_labour.js';
import * as customFieldIndexes from './migrations/007_custom_field_indexes.js';
import * as marketShareCounts from './migrations/009_market_share_counts.js';
import * as logicRules from './migrations/010_logic_rules.js';
import * as assistant from './migrations/011_assistant.js';
import * as revisionBatches from './migrations/012_revision_batches.js';
import * as fieldValueArchive from './migrations/013_field_value_archive.js';
import * as importerAnyType from './migrations/014_importer_any_type.js';
import * as userPreferences from './migrations/015_user_preferences.js';
import * as visits from './migrations/016_visits.js';
import * as importRowHashes from './migrations/017_import_row_hashes.js';
import * as bulkEdits from './migrations/018_bulk_edits.js';
import * as turf from './migrations/019_turf.js';
import * as writeCounters from './migrations/020_write_counters.js';
import * as campaigns from './migrations/021_campaigns.js';
import * as visitConversations from './migrations/022_visit_conversations.js';
import * as idempotencyKeys from './migrations/023_idempotency_keys.js';
import * as marketShareOncePerTransaction from './migrations/024_market_share_once_per_transaction.js';
import * as importRowContentHashes from './migrations/025_import_row_content_hashes.js';
import * as siteRegionIds from './migrations/026_site_region_ids.js';
import * as siteNameKey from './migrations/027_site_name_key.js';
import * as importIndexDeferrals from './migrations/028_import_index_deferrals.js';
import * as accountWriteCounter from './migrations/029_account_write_counter.js';
import * as regionSiteOrder from './migrations/030_region_site_order.js';
import * as idempotencyFingerprints from './migrations/031_idempotency_fingerprints.js';
import * as logForOthers from './migrations/032_log_for_others.js';
import * as backupRuns from './migrations/033_backup_runs.js';
import * as realtimeOutbox from './migrations/034_realtime_outbox.js';
import * as rolePolicies from './migrations/035_role_policies.js';
import * as organizerRoleName from './migrations/036a_organizer_role_name.js';
import * as conversations from './migrations/036b_conversations.js';
import * as assessments from './migrations/036c_assessments.js';
import * as choiceKeysAndArchiveRestore from './migrations/040_choice_keys_and_archive_restore.js';
import * as logicClearHidden from './migrations/041_logic_clear_hidden.js';
import * as autonumberFill from './migrations/042_autonumber_fill.js';
import * as views from './migrations/045_views.js';
import * as personalAccessTokens from './migrations/052_personal_access_tokens.js';
import * as automations from './migrations/054_automations.js';
import * as webhooks from './migrations/055_webhooks.js';
import * as callLists from './migrations/058_call_lists.js';
import * as assistantAnswerList from './migrations/065_assistant_answer_list.js';
import * as messages from './migrations/070_messages.js';
import * as recordChanges from './migrations/071_record_changes.js';
import * as listFilterSortIndexes from './migrations/072_list_filter_sort_indexes.js';
import * as publicForms from './migrations/073_public_forms.js';
import * as customRecordCastsPerType from './migrations/074_custom_record_casts_per_type.js';
import * as recordHolders from './migrations/076_record_holders.js';
import * as messagesSendingIndex from './migrations/079_messages_sending_index.js';
import * as publicSubmissionsRestrict from './migrations/081_public_submissions_restrict.js';
import * as viewDefaults from './migrations/083_view_defaults.js';
import * as sitesTypeSumsIndex from './migrations/086_sites_type_sums_index.js';
import * as publicFormOffers from './migrations/089_public_form_offers.js';
import * as sitesTypeIndexFilters from './migrations/090_sites_type_index_filters.js';
import * as revisionsBatchedIndex from './migrations/091_revisions_batched_index.js';
import type { DB } from './schema.generated.js';

/** The one migration set for PGlite and PostgreSQL, in order. Add new ones at the end; never edit a shipped one. */
const migrations: Record<string, Migration> = {
  '001_platform': platform,
  '002_records': records,
  '003_schemas': schemas,
  '005_imports': imports,
  '004_map': map,
  '006_site_labour': siteLabour,
  '007_custom_field_indexes': customFieldIndexes,
  '009_market_share_counts': marketShareCounts,
  '010_logic_rules': logicRules,
  '011_assistant': assistant,
  '012_revision_batches': revisionBatches,
  '013_field_value_archive': fieldValueArchive,
  '014_importer_any_type': importerAnyType,
  '015_user_preferences': userPreferences,
  '016_visits': visits,
  '017_import_row_hashes': importRowHashes,
  '018_bulk_edits': bulkEdits,
  '019_turf': turf,
  '020_write_counters': writeCounters,
  '021_campaigns': campaigns,
  '022_visit_conversations': visitConversations,
  '023_idempotency_keys': idempotencyKeys,
  '024_market_share_once_per_transaction': marketShareOncePerTransaction,
  '025_import_row_content_hashes': importRowContentHashes,
  '026_site_region_ids': siteRegionIds,
  '027_site_name_key': siteNameKey,
  '028_import_index_deferrals': importIndexDeferrals,
  '029_account_write_counter': accountWriteCounter,
  '030_region_site_order': regionSiteOrder,
  '031_idempotency_fingerprints': idempotencyFingerprints,
  '032_log_for_others': logForOthers,
  '033_backup_runs': backupRuns,
  '034_realtime_outbox': realtimeOutbox,
  '035_role_policies': rolePolicies,
  '036a_organizer_role_name': organizerRoleName,
  '036b_conversations': conversations,
  '036c_assessments': assessments,
  '040_choice_keys_and_archive_restore': choiceKeysAndArchiveRestore,
  '041_logic_clear_hidden': logicClearHidden,
  '042_autonumber_fill': autonumberFill,
  '045_views': views,
  '052_personal_access_tokens': personalAccessTokens,
  '054_automations': automations,
  '055_webhooks': webhooks,
  '058_call_lists': callLists,
  '065_assistant_answer_list': assistantAnswerList,
  '070_messages': messages,
  '071_record_changes': recordChanges,
  '072_list_filter_sort_indexes': listFilterSortIndexes,
  '073_public_forms': publicForms,
  '074_custom_record_casts_per_type': customRecordCastsPerType,
  '076_record_holders': recordHolders,
  '079_messages_sending_index': messagesSendingIndex,
  '081_public_submissions_restrict': publicSubmissionsRestrict,
  '083_view_defaults': viewDefaults,
  '086_sites_type_sums_index': sitesTypeSumsIndex,
  '089_public_form_offers': publicFormOffers,
  '090_sites_type_index_filters': sitesTypeIndexFilters,
  '091_revisions_batched_index': revisionsBatchedIndex,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Applies what has not been applied yet; running it twice does nothing the second time. */
export async function migrate(db: Kysely<DB>): Promise<string[]> {
  // The usual start: all applied. Checked with one query, since the Migrator first introspects every table of
  // the database (over a second on the embedded one).
  if (await allApplied(db)) return [];
  const migrator = new Migrator({ db: forMigration(db), provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * `db` as a migration is given it: without the table types, which describe the schema after the last migration and
 * not the one a migration finds (as Kysely's guide advises).
 */
export function forMigration(db: Kysely<DB>): Kysely<unknown> {
  return db as unknown as Kysely<unknown>;
}

async function allApplied(db: Kysely<DB>): Promise<boolean> {
  const table = await sql<{ found: boolean }>`select to_regclass('kysely_migration') is not null as found`.execute(db);
  if (!table.rows[0]?.found) return false;
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const names = new Set(applied.rows.map((row) => row.name));
  return Object.keys(migrations).every((name) => names.has(name));
}
