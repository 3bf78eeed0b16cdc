import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { dialogClosed, dialogOpened } from './focus-return';

/**
 * A modal on the native <dialog>: the browser traps focus and closes it on Escape. Focus goes
 * back to the control that started the dialog's flow, or near it (focus-return.ts). Escape always closes it: a question on the way out
 * belongs inside the dialog, before (contract §13). `describedBy` names what is read out with the title.
 */
export function Dialog(props: {
  title: string;
  onClose: () => void;
  describedBy?: string;
  /** Room for a table. */
  wide?: boolean;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // Set while the page closes it: the close event that follows is not a user's.
  const closing = useRef(false);
  useEffect(() => {
    const dialog = ref.current!;
    dialogOpened(dialog);
    dialog.showModal();
    return () => {
      closing.current = true;
      // Still in the page and modal while Preact unmounts it, which leaves the page inert: close first.
      if (dialog.open) dialog.close();
      dialogClosed(dialog);
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={props.wide ? 'wide' : undefined}
      aria-label={props.title}
      aria-describedby={props.describedBy}
      onCancel={(event) => {
        // The page closes it (by unmounting), so its state and the screen agree.
        event.preventDefault();
        props.onClose();
      }}
      // Without a user activation since the last Escape, Chromium's cancel cannot be prevented: follow.
      onClose={() => closing.current || props.onClose()}
    >
      <h2>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/**
 * Asks before a destructive action; the confirming button is named like the action and works once
 * a confirmation (a second click while the action runs would do it, and journal it, again).
 */
export function Confirm(props: {
  title: string;
  action: string;
  children: ComponentChildren;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  describedBy?: string;
  wide?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  // A ref, not only the state: a second click can arrive before the disabled button is drawn.
  const running = useRef(false);
  return (
    <Dialog title={props.title} onClose={props.onClose} describedBy={props.describedBy} wide={props.wide}>
      <div class="dialog-body">{props.children}</div>
      <div class="actions">
        <button type="button" onClick={props.onClose}>
          Keep
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={async () => {
            if (running.current) return;
            running.current = true;
            setBusy(true);
            try {
              await props.onConfirm();
            } finally {
              running.current = false;
              setBusy(false);
            }
            props.onClose();
          }}
        >
          {props.action}
        </button>
      </div>
    </Dialog>
  );
}
