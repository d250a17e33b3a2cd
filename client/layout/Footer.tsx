import { Trans } from '@lingui/react/macro';
import { useMemo } from 'react';
import { sanitizeHtml } from '../lib/sanitize.ts';
import { useStatus } from '../lib/status-context.tsx';
import classes from './layout.module.css';

/** The operator's footer HTML (sanitised), then a small "powered by" line. */
export function Footer() {
  const status = useStatus();
  const custom = useMemo(() => (status.footer_html ? sanitizeHtml(status.footer_html) : ''), [status.footer_html]);
  const version = status.version ? ` ${status.version}` : '';
  return (
    <footer className={classes.footer} data-testid="footer">
      {custom && <div dangerouslySetInnerHTML={{ __html: custom }} style={{ marginBottom: 6 }} />}
      <div>
        <Trans>
          Powered by <strong>Switchyard</strong>
          {version}
        </Trans>
      </div>
    </footer>
  );
}
