/**
 * Where focus goes when a dialog's flow ends: back to the control that started it (a dialog opened
 * over another, such as a rolled key's over the roll's confirmation, continues that one's flow), or,
 * when that control is gone by then (the roll replaced the key's row), the nearest control that
 * still stands where it stood, else the page's heading. Never `body`, where a keyboard or
 * screen-reader user would lose their place.
 */
interface ReturnPoint {
  control: HTMLElement | null;
  /** The control's ancestors when the flow started, nearest first: where to look once it is gone. */
  around: Element[];
}

const open: { dialog: HTMLDialogElement; back: ReturnPoint }[] = [];
let settling: (() => void) | undefined;

/** Call before `showModal`, while focus is still on what opened the dialog. */
export function dialogOpened(dialog: HTMLDialogElement): void {
  settling?.();
  const under = open[open.length - 1];
  open.push({ dialog, back: under ? under.back : pointAt(document.activeElement) });
}

/** Call once the dialog is closed (not modal any more: the page behind it takes focus again). */
export function dialogClosed(dialog: HTMLDialogElement): void {
  const at = open.findIndex((entry) => entry.dialog === dialog);
  if (at < 0) return;
  const [{ back }] = open.splice(at, 1);
  const top = open[open.length - 1];
  if (top) {
    if (!top.dialog.contains(document.activeElement)) focusFirstIn(top.dialog);
    return;
  }
  returnTo(back);
  keepWhileThePageSettles(back);
}

function pointAt(element: Element | null): ReturnPoint {
  const control = element instanceof HTMLElement && element !== document.body ? element : null;
  const around: Element[] = [];
  for (let at = control?.parentElement; at && at !== document.body; at = at.parentElement) around.push(at);
  return { control, around };
}

function returnTo(back: ReturnPoint): void {
  if (back.control && tryFocus(back.control)) return;
  for (const place of back.around) if (place.isConnected && focusFirstIn(place)) return;
  const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('main');
  if (!heading) return;
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  heading.focus();
}

/**
 * What the flow changed may redraw the page after focus came back (a revoked key's list reloads
 * without its Revoke button): focus that falls to `body` with its control is placed again, until
 * the user moves it (or clicks) or another dialog opens.
 */
function keepWhileThePageSettles(back: ReturnPoint): void {
  let placing = false;
  const observer = new MutationObserver(() => {
    if (document.activeElement !== document.body && document.activeElement !== null) return;
    placing = true;
    try {
      returnTo(back);
    } finally {
      placing = false;
    }
  });
  const movedOn = () => {
    if (!placing) stop();
  };
  const stop = () => {
    observer.disconnect();
    document.removeEventListener('focusin', movedOn);
    document.removeEventListener('pointerdown', stop);
    if (settling === stop) settling = undefined;
  };
  settling?.();
  settling = stop;
  observer.observe(document.body, { childList: true, subtree: true });
  document.addEventListener('focusin', movedOn);
  document.addEventListener('pointerdown', stop);
}

const CONTROLS = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

function focusFirstIn(place: Element): boolean {
  for (const control of place.querySelectorAll<HTMLElement>(CONTROLS)) if (tryFocus(control)) return true;
  return false;
}

/** `focus()` does nothing on a control that is hidden, disabled or behind a modal: that one is no place. */
function tryFocus(control: HTMLElement): boolean {
  if (!control.isConnected) return false;
  control.focus();
  return document.activeElement === control;
}
