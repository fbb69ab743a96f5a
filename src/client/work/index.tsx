/** Work on records: the tasks list (`/tasks`) and the notifications (`/notifications`); notes, tasks and documents panels sit on record pages. */
import type { ClientFeature } from '../resources/registry';
import { lazyPage } from '../routing/lazyPage';

const TaskList = lazyPage('TaskList', () => import('./TaskList'));
const NotificationList = lazyPage('NotificationList', () => import('./NotificationList'));

const work: ClientFeature = {
  resources: {
    tasks: { list: TaskList },
    notifications: { list: NotificationList },
  },
};

export default work;
