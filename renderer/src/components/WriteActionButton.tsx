import type { ReactNode } from 'react';
import { useWriteBlockReason } from '../lib/appState';

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
 * While writes are blocked (offline) it is off and its tooltip says why.
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
  return (
    <button
      type={type}
      className={className}
      disabled={busy || blockReason !== null}
      title={blockReason ?? title}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
