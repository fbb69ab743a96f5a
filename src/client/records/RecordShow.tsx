/**
 * The generated show page (`/{resource}/{id}/show`): the record's fields, the records related to it, its notes,
 * tasks, documents and history, who else has it open, and what can be done with it. The tab is kept in the URL.
 */

import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { lazy, Suspense } from 'react';
import { RecordContextProvider, Title, useCanAccessResources, useGetOne } from 'react-admin';
import { useParams, useSearchParams } from 'react-router-dom';
import { CATEGORY_PERMISSIONS } from '../../common/permissions';
import { isPersonType } from '../conversations/shared';
import { TYPE_LABELS, titleCase } from '../i18n/labels';
import { LoadingScreen } from '../layout/LoadingScreen';
import { PageHeader } from '../layout/PageHeader';
import { useDocumentTitle } from '../layout/useDocumentTitle';
import { useVisibleDescriptors } from './hooks';
import { OutsideTurfNote } from './OutsideTurfNote';
import { PresenceAvatars } from './presence/PresenceAvatars';
import { recordLabel } from './schema';
import { DetailsTab } from './show/DetailsTab';
import { RecordActions } from './show/RecordActions';
import { LoadFailed, MissingSchema, PageLoading, useRecordScreen } from './ui';

const RelatedTab = lazy(() => import('./show/RelatedTab').then((module) => ({ default: module.RelatedTab })));
const HistoryTab = lazy(() => import('./show/HistoryTab').then((module) => ({ default: module.HistoryTab })));
const NotesPanel = lazy(() => import('../work/NotesPanel').then((module) => ({ default: module.NotesPanel })));
const TasksPanel = lazy(() => import('../work/TasksPanel').then((module) => ({ default: module.TasksPanel })));
const SiteVisitsPanel = lazy(() =>
  import('../visits/SiteVisitsPanel').then((module) => ({ default: module.SiteVisitsPanel })),
);
const CampaignPanel = lazy(() =>
  import('../campaigns/CampaignPanel').then((module) => ({ default: module.CampaignPanel })),
);
const ContractorCampaignsPanel = lazy(() =>
  import('../campaigns/ContractorCampaignsPanel').then((module) => ({ default: module.ContractorCampaignsPanel })),
);
const PersonTimeline = lazy(() =>
  import('../conversations/PersonTimeline').then((module) => ({ default: module.PersonTimeline })),
);
const SiteConversationsPanel = lazy(() =>
  import('../conversations/SiteConversationsPanel').then((module) => ({ default: module.SiteConversationsPanel })),
);
const AssessmentsPanel = lazy(() =>
  import('../assessments/AssessmentsPanel').then((module) => ({ default: module.AssessmentsPanel })),
);
const DocumentsPanel = lazy(() =>
  import('../work/DocumentsPanel').then((module) => ({ default: module.DocumentsPanel })),
);

type TabKey =
  | 'progress'
  | 'details'
  | 'timeline'
  | 'visits'
  | 'conversations'
  | 'assessments'
  | 'campaigns'
  | 'related'
  | 'notes'
  | 'tasks'
  | 'documents'
  | 'history';

/** The resources behind the work and history tabs, each shown to people who may read it. */
const WORK_RESOURCES = [
  'notes',
  'tasks',
  'documents',
  'revisions',
  'visits',
  'campaigns',
  'conversations',
  'contacts',
  'recruits',
  'members',
];

export default function RecordShow({ resource: resourceProp }: { resource?: string }) {
  const { resource, schema, featureOff } = useRecordScreen(resourceProp);
  const { id } = useParams<{ id: string }>();
  const descriptors = useVisibleDescriptors(schema);
  const { canAccess: reads = {} } = useCanAccessResources({ action: 'read', resources: WORK_RESOURCES });
  const [params, setParams] = useSearchParams();
  const { data: record, error, isPending } = useGetOne(resource, { id: id! }, { enabled: Boolean(id) });
  const singular = schema ? titleCase(schema.name_singular) : '';
  const label = record ? recordLabel(record) : '';
  useDocumentTitle(record ? `${label} · ${singular}` : singular);

  if (!schema) return <MissingSchema resource={resource} />;
  if (featureOff) return featureOff;
  if (error) return <LoadFailed error={error} />;
  if (isPending || !record) return <PageLoading />;

  // A campaign opens on its progress (src/client/campaigns).
  const tabs: Array<[TabKey, string]> =
    schema.type === 'campaign'
      ? [
          ['progress', 'Progress'],
          ['details', 'Details'],
        ]
      : [['details', 'Details']];
  // A site's visits and head counts (src/client/visits); a contractor's campaigns.
  // A person's timeline of conversations (src/client/conversations); a site's visits and conversations.
  if (isPersonType(schema.type) && reads.conversations) tabs.push(['timeline', 'Timeline']);
  if (schema.type === 'site' && reads.visits) tabs.push(['visits', 'Visits']);
  if (schema.type === 'site' && reads.conversations) tabs.push(['conversations', 'Conversations']);
  // A campaign's or site's people by assessment (src/client/assessments).
  if ((schema.type === 'campaign' || schema.type === 'site') && (reads.contacts || reads.recruits || reads.members))
    tabs.push(['assessments', 'Assessments']);
  if (schema.type === 'contractor' && reads.campaigns) tabs.push(['campaigns', 'Campaigns']);
  tabs.push(['related', 'Related']);
  if (reads.notes) tabs.push(['notes', 'Notes']);
  if (reads.tasks) tabs.push(['tasks', 'Tasks']);
  if (reads.documents) tabs.push(['documents', 'Documents']);
  if (reads.revisions) tabs.push(['history', 'History']);
  const requested = params.get('tab') as TabKey | null;
  const first = tabs[0]![0];
  const tab: TabKey = requested && tabs.some(([key]) => key === requested) ? requested : first;
  const owner = { type: schema.type, id: record.id };
  const category =
    CATEGORY_PERMISSIONS[schema.type] && typeof record.type === 'string'
      ? (TYPE_LABELS[record.type] ?? record.type)
      : null;

  return (
    <RecordContextProvider value={record}>
      <Box sx={{ maxWidth: 1200 }}>
        <Title title={`${singular}: ${label}`} />
        <PageHeader
          title={label}
          subtitle={
            <>
              {category ? `${category} ${singular.toLowerCase()}` : singular}
              <OutsideTurfNote record={record} />
            </>
          }
          actions={
            <>
              <PresenceAvatars type={schema.type} id={record.id} />
              <RecordActions schema={schema} record={record} />
            </>
          }
        />
        <Card variant="outlined">
          <Tabs
            value={tab}
            onChange={(_event, next: TabKey) => {
              const search = new URLSearchParams(params);
              if (next === first) search.delete('tab');
              else search.set('tab', next);
              setParams(search, { replace: true });
            }}
            variant="scrollable"
            scrollButtons="auto"
            sx={{ borderBottom: 1, borderColor: 'divider', px: 1 }}
          >
            {tabs.map(([key, text]) => (
              <Tab key={key} value={key} label={text} data-testid={`tab-${key}`} />
            ))}
          </Tabs>
          <CardContent sx={{ p: { xs: 1.5, sm: 2.5 } }}>
            <Suspense fallback={<LoadingScreen fullHeight={false} />}>
              {tab === 'details' && <DetailsTab schema={schema} descriptors={descriptors} />}
              {tab === 'progress' && <CampaignPanel />}
              {tab === 'timeline' && isPersonType(schema.type) && (
                <PersonTimeline person={{ type: schema.type, id: Number(record.id), name: label }} />
              )}
              {tab === 'visits' && <SiteVisitsPanel siteId={Number(record.id)} />}
              {tab === 'conversations' && <SiteConversationsPanel siteId={Number(record.id)} />}
              {tab === 'assessments' && (
                <AssessmentsPanel
                  scope={
                    schema.type === 'campaign' ? { campaign_id: Number(record.id) } : { site_id: Number(record.id) }
                  }
                />
              )}
              {tab === 'campaigns' && <ContractorCampaignsPanel contractorId={Number(record.id)} />}
              {tab === 'related' && <RelatedTab schema={schema} />}
              {tab === 'notes' && <NotesPanel owner={owner} />}
              {tab === 'tasks' && <TasksPanel owner={owner} />}
              {tab === 'documents' && <DocumentsPanel owner={owner} ownerResource={resource} />}
              {tab === 'history' && <HistoryTab schema={schema} />}
            </Suspense>
          </CardContent>
        </Card>
      </Box>
    </RecordContextProvider>
  );
}
