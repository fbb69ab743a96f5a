/** The kinds of task and how a person reads them, for the screens and for what the server writes out. */
export type TaskType = 'call' | 'meeting' | 'visit';

export const TASK_TYPES: Array<{ id: TaskType; name: string }> = [
  { id: 'call', name: 'Call' },
  { id: 'meeting', name: 'Meeting' },
  { id: 'visit', name: 'Visit' },
];

/** 'meeting' -> 'Meeting'; an unknown kind as it is. */
export function taskTypeLabel(type: string): string {
  return TASK_TYPES.find((candidate) => candidate.id === type)?.name ?? type;
}
