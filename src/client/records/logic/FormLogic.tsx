/**
 * Form logic in a react-admin form. `<FormLogic schema>` watches ONLY the fields the logic blocks read
 * (`useWatch({name: sources})`), runs the engine of src/common/form-logic when the form opens (always and
 * on-load blocks) and when a watched field changes (always blocks and the on-change blocks that read it), applies
 * set-value actions with `setValue(..., {shouldDirty: true})` unless the value is already there, and keeps the
 * visibility decisions in a small store. Each field slot subscribes to its own visibility (`useFieldVisible`),
 * so typing in a field re-renders neither the form nor the other fields.
 */
import { createContext, type ReactNode, useContext, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { RecordSchema } from '../schema';
import {
  changedFields,
  changedSetValues,
  type LogicEvent,
  logicSources,
  mergeVisibility,
  runLogic,
  type VisibilityMap,
} from './logic';

export class VisibilityStore {
  private map: VisibilityMap = {};
  private listeners = new Set<() => void>();
  get = (): VisibilityMap => this.map;
  set(next: VisibilityMap) {
    if (next === this.map) return;
    this.map = next;
    for (const listener of this.listeners) listener();
  }
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const VisibilityContext = createContext<VisibilityStore | null>(null);

/** Is this field shown? (true outside a form with logic). */
export function useFieldVisible(slug: string): boolean {
  const store = useContext(VisibilityContext);
  const subscribe = store?.subscribe ?? noopSubscribe;
  return useSyncExternalStore(
    subscribe,
    () => (store ? store.get()[slug] !== 'hidden' : true),
    () => true,
  );
}
const noopSubscribe = () => () => undefined;

function LogicRunner({ schema, store }: { schema: RecordSchema; store: VisibilityStore }) {
  const { getValues, setValue } = useFormContext();
  const blocks = schema.actions;
  const fields = useMemo(() => schema.fields.map((field) => ({ id: field.id, slug: field.slug })), [schema.fields]);
  const sources = useMemo(() => logicSources(blocks, fields), [blocks, fields]);
  const watched = useWatch({ name: sources }) as unknown[];
  const previous = useRef<unknown[] | null>(null);
  const loaded = useRef(false);

  useEffect(() => {
    const apply = (event: LogicEvent) => {
      const outcome = runLogic(blocks, getValues(), fields, event);
      store.set(mergeVisibility(store.get(), outcome.visibility));
      for (const [key, value] of changedSetValues(outcome.setValues, getValues())) {
        // The form is told of the new value: it becomes dirty and is saved with the record.
        setValue(key, value, { shouldDirty: true, shouldTouch: true });
      }
    };
    if (!loaded.current) {
      // On load: after react-admin's form has applied its initial values (its reset runs after our first effect).
      const timer = setTimeout(() => {
        loaded.current = true;
        previous.current = sources.map((source) => getValues(source));
        apply({ kind: 'load' });
      }, 0);
      return () => clearTimeout(timer);
    }
    const snapshot = Array.isArray(watched) ? [...watched] : [];
    for (const field of changedFields(sources, previous.current ?? snapshot, snapshot))
      apply({ kind: 'change', field });
    previous.current = snapshot;
    return undefined;
    // `watched` changes only when a source field changes.
  }, [watched, blocks, fields, sources, getValues, setValue, store]);

  return null;
}

export function FormLogic({
  schema,
  initialValues,
  children,
}: {
  schema: RecordSchema;
  initialValues?: Record<string, unknown>;
  children: ReactNode;
}) {
  // Seeded with the load-time visibility, so a field the logic hides never flashes into view while the form opens.
  const store = useMemo(() => {
    const seeded = new VisibilityStore();
    const fields = schema.fields.map((field) => ({ id: field.id, slug: field.slug }));
    seeded.set(runLogic(schema.actions, initialValues ?? {}, fields, { kind: 'load' }).visibility);
    return seeded;
    // Once per form: later changes come through the runner.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <VisibilityContext.Provider value={store}>
      {schema.actions.length > 0 && <LogicRunner schema={schema} store={store} />}
      {children}
    </VisibilityContext.Provider>
  );
}

/** Show pages: visibility from every block against the record (as the server decides what is required). */
export function StaticVisibility({ visibility, children }: { visibility: VisibilityMap; children: ReactNode }) {
  const store = useMemo(() => new VisibilityStore(), []);
  store.set(visibility);
  return <VisibilityContext.Provider value={store}>{children}</VisibilityContext.Provider>;
}
