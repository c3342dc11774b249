/**
 * A modal dialog: rendered at the end of <body> with everything else made inert (out of the
 * accessibility tree and the Tab order, as a native showModal() would), focus moves into it,
 * Tab stays inside, Escape closes it, and focus returns to whatever opened it — or, when that
 * is gone, to the screen's heading. Written by hand rather than <dialog> so it behaves the
 * same in Electron, the preview and jsdom (which has no showModal()).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { focusScreenHeading } from '../lib/focus';
import { useWords } from '../lib/i18n';
import { ErrorView } from './ErrorView';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  title: string;
  onClose: () => void;
  children: ReactNode;
  /** "alertdialog" for confirmations of destructive actions. */
  role?: 'dialog' | 'alertdialog';
  /** The id of the element that says what the dialog is about (required for an alertdialog). */
  describedBy?: string;
  /** A sentence under the title that says what the dialog is for; it becomes its description. */
  description?: ReactNode;
}

/** Makes every other child of <body> inert; returns how to undo it. */
function inertBackground(host: Element): () => void {
  const made: Element[] = [];
  for (const sibling of document.body.children) {
    if (sibling === host || sibling.hasAttribute('inert') || sibling.hasAttribute('data-live-region'))
      continue;
    sibling.setAttribute('inert', '');
    made.push(sibling);
  }
  return () => made.forEach((element) => element.removeAttribute('inert'));
}

export function Modal({ title, onClose, children, role = 'dialog', describedBy, description }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const host = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  useEffect(() => {
    closeRef.current = onClose;
  });

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const restoreBackground = host.current ? inertBackground(host.current) : () => undefined;
    const node = panel.current;
    const first =
      node?.querySelector<HTMLElement>('[data-autofocus]') ?? node?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? node)?.focus();

    function onKey(event: KeyboardEvent) {
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        closeRef.current();
        return;
      }
      if (event.key !== 'Tab' || !node) return;
      const items = [...node.querySelectorAll<HTMLElement>(FOCUSABLE)];
      if (items.length === 0) return;
      const firstItem = items[0];
      const lastItem = items[items.length - 1];
      if (
        event.shiftKey &&
        (document.activeElement === firstItem || !node.contains(document.activeElement))
      ) {
        event.preventDefault();
        lastItem.focus();
      } else if (
        !event.shiftKey &&
        (document.activeElement === lastItem || !node.contains(document.activeElement))
      ) {
        event.preventDefault();
        firstItem.focus();
      }
    }
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      restoreBackground();
      if (opener?.isConnected) opener.focus();
      else focusScreenHeading();
    };
  }, []);

  return createPortal(
    <div
      ref={host}
      className="modal-backdrop"
      onMouseDown={(e) => e.target === e.currentTarget && closeRef.current()}
    >
      <div
        className="modal"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={describedBy ?? (description ? descriptionId : undefined)}
        ref={panel}
        tabIndex={-1}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        {description && (
          <p className="modal-description" id={descriptionId}>
            {description}
          </p>
        )}
        {children}
      </div>
    </div>,
    document.body,
  );
}

/** The mutation a confirmation runs (a TanStack `useMutation` result fits). */
export interface ConfirmedAction {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  mutate: () => void;
}

interface ConfirmProps {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Runs on confirm; while it runs the button says so, and if it fails its error shows here. */
  action: ConfirmedAction;
  onCancel: () => void;
  /** Passed to the error: hide the link to Keys & profiles (e.g. on that screen). */
  hideProfileLinks?: boolean;
}

/** A destructive confirmation: Cancel has the focus, so Enter never deletes by accident. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  action,
  onCancel,
  hideProfileLinks,
}: ConfirmProps) {
  const words = useWords();
  const bodyId = useId();
  return (
    <Modal title={title} onClose={onCancel} role="alertdialog" describedBy={bodyId}>
      <div className="modal-body" id={bodyId}>
        {children}
      </div>
      {action.isError && <ErrorView error={action.error} hideProfileLinks={hideProfileLinks} />}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onCancel} data-autofocus>
          {words('dialog.cancel')}
        </button>
        <button
          type="button"
          className="button danger"
          onClick={() => action.mutate()}
          disabled={action.isPending}
        >
          {action.isPending ? words('dialog.working') : confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

/** The buttons under a form in a dialog: Cancel, then the form's submit button. */
export function ModalFormActions({
  onCancel,
  submitLabel,
  disabled,
}: {
  onCancel: () => void;
  submitLabel: string;
  disabled: boolean;
}) {
  const words = useWords();
  return (
    <div className="modal-actions">
      <button type="button" className="button" onClick={onCancel}>
        {words('dialog.cancel')}
      </button>
      <button type="submit" className="button primary" disabled={disabled}>
        {submitLabel}
      </button>
    </div>
  );
}
