import type { ReactNode } from 'react';
import { useWriteBlockReason } from '../lib/appState';

/** The id of the visible sentence that says why writes are off (in the offline banner). */
export const WRITE_BLOCK_REASON_ID = 'write-block-reason';

interface WriteActionButtonProps {
  className: string;
  children: ReactNode;
  onClick?: () => void;
  type?: 'button' | 'submit';
  /** The action is already running: off, like when writes are blocked. */
  busy?: boolean;
  /** The tooltip while writes are allowed (e.g. the shortcut). */
  title?: string;
}

/**
 * A button for an action that needs the service to accept writes (a change, a full download).
 * While writes are blocked (offline) it is off, and it points at the banner's visible sentence
 * that says why: a tooltip on a disabled button reaches neither the keyboard nor a screen reader.
 */
export function WriteActionButton({
  className,
  children,
  onClick,
  type = 'button',
  busy = false,
  title,
}: WriteActionButtonProps) {
  const blockReason = useWriteBlockReason();
  const blocked = blockReason !== null;
  return (
    <button
      type={type}
      className={className}
      disabled={busy || blocked}
      title={blocked ? undefined : title}
      aria-describedby={blocked ? WRITE_BLOCK_REASON_ID : undefined}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
