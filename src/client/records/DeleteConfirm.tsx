/**
 * THE question before a delete: every delete button (a record's page, the bulk delete of a list, a note, a document)
 * asks with this dialog first, saying whether the deleted records can be restored.
 */
import { type ReactElement, useState } from 'react';
import { Confirm } from 'react-admin';

export const RESTORE_HINT = 'They can be restored later from the deleted records.';
export const NO_RESTORE_HINT = 'This cannot be undone.';

export function DeleteConfirm({
  open,
  title,
  restorable,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  restorable: boolean;
  onConfirm: () => Promise<unknown> | void;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Confirm
      isOpen={open}
      loading={busy}
      title={title}
      content={restorable ? RESTORE_HINT : NO_RESTORE_HINT}
      confirm="Delete"
      onConfirm={async () => {
        setBusy(true);
        try {
          await onConfirm();
        } finally {
          setBusy(false);
          onClose();
        }
      }}
      onClose={onClose}
    />
  );
}

/** A delete button that asks first: `button(open)` renders the button, the dialog follows it. */
export function AskBeforeDelete({
  title,
  restorable,
  onConfirm,
  button,
}: {
  title: string;
  restorable: boolean;
  onConfirm: () => Promise<unknown> | void;
  button: (ask: () => void) => ReactElement;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      {button(() => setOpen(true))}
      <DeleteConfirm
        open={open}
        title={title}
        restorable={restorable}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
