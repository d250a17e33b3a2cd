import { useLingui } from '@lingui/react/macro';
import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { Navigate } from 'react-router-dom';

/**
 * An administrator page opened by someone whose role does not reach it: sent home, as the spec's
 * route table says (console-screens §2.1, "non-admins are redirected to /"), and told why in a
 * toast (issue 31), so the redirect is not silent (issue 22). The server refuses the page's calls
 * all the same.
 */
export function RefusedRoute({ rootOnly = false }: { rootOnly?: boolean }) {
  const { t } = useLingui();
  useEffect(() => {
    notifications.show({
      // One toast even when React runs the effect twice (StrictMode) or the user retries.
      id: 'route-refused',
      color: 'yellow',
      title: t`No permission`,
      message: rootOnly
        ? t`Only the super administrator can open that page.`
        : t`Only administrators can open that page. Ask an administrator if you need access.`,
    });
  }, [rootOnly, t]);
  return <Navigate to="/" replace />;
}
