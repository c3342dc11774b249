/** The "‹ Reports" link at the top of a screen, back to the screen it was opened from. */
export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <a className="back-link" href={href}>
      {`‹ ${label}`}
    </a>
  );
}

export function BackToReports() {
  return <BackLink href="#/reports" label="Reports" />;
}
