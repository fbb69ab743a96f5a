import fp from 'fastify-plugin';
import type { Feature, FeaturePlugin } from '../app-context.js';
import { assistantMessagesResource, assistantThreadsResource } from './resources.js';
import { registerAssistantRoutes } from './routes.js';

/**
 * The assistant (docs/assistant.md): threads and messages as resources private to their maker, the question, stop,
 * approve and status routes, and the runner that answers. Not encapsulated (fastify-plugin), so `app.assistant` is
 * the app's own (tests wait on it).
 */
const assistant: FeaturePlugin = async (app, { ctx }) => registerAssistantRoutes(app, ctx);

export const assistantFeature: Feature = {
  resources: [assistantThreadsResource, assistantMessagesResource],
  plugin: fp(assistant, { name: 'assistant' }),
};
