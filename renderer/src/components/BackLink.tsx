import { useWords } from '../lib/i18n';

/** The "‹ Reports" link at the top of a screen, back to the screen it was opened from. */
export function BackLink({ href, label }: { href: string; label: string }) {
  const words = useWords();
  return (
    <a className="back-link" href={href}>
      {words('nav.back', { screen: label })}
    </a>
  );
}

export function BackToReports() {
  const words = useWords();
  return <BackLink href="#/reports" label={words('nav.reports')} />;
}
