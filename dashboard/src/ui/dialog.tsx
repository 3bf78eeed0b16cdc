import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/**
 * A modal on the native <dialog>: the browser traps focus and closes it on Escape. Focus goes
 * back to what had it when the dialog opened. `onCancel` decides whether Escape may close it.
 */
export function Dialog(props: {
  title: string;
  onClose: () => void;
  onCancel?: () => boolean;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-label={props.title}
      onCancel={(event) => {
        event.preventDefault();
        if (!props.onCancel || props.onCancel()) props.onClose();
      }}
    >
      <h2>{props.title}</h2>
      {props.children}
    </dialog>
  );
}

/** Asks before a destructive action; the confirming button is named like the action. */
export function Confirm(props: {
  title: string;
  action: string;
  children: ComponentChildren;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      <div class="dialog-body">{props.children}</div>
      <div class="actions">
        <button type="button" onClick={props.onClose}>
          Keep
        </button>
        <button
          type="button"
          class="danger"
          onClick={async () => {
            await props.onConfirm();
            props.onClose();
          }}
        >
          {props.action}
        </button>
      </div>
    </Dialog>
  );
}
