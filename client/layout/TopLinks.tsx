import { useLingui } from '@lingui/react/macro';
import { Group, NavLink, Stack } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router-dom';
import { useStatus } from '../lib/status-context.tsx';
import { useStoredUser } from '../lib/user.ts';
import { topLinks } from './nav.ts';
import { NewYearEgg } from './NewYearEgg.tsx';
import classes from './layout.module.css';

function useLinks() {
  const { i18n } = useLingui();
  const status = useStatus();
  const user = useStoredUser();
  const { pathname } = useLocation();
  return topLinks.flatMap((l) => {
    const href = l.href({ status, user });
    if (href === null) return [];
    const active = !l.external && (href === '/' ? pathname === '/' : pathname.startsWith(href));
    return [{ key: l.key, label: i18n._(l.label), href, external: !!l.external, active }];
  });
}

/** Home, console, pricing, docs and about in the top bar (desktop). */
export function TopLinks() {
  const links = useLinks();
  return (
    <Group gap={2} wrap="nowrap" visibleFrom="sm" component="nav">
      {links.map((l) =>
        l.external ? (
          <a key={l.key} href={l.href} target="_blank" rel="noreferrer" className={classes.topLink}>
            {l.label}
          </a>
        ) : (
          <Link key={l.key} to={l.href} className={classes.topLink} data-active={l.active || undefined}>
            {l.label}
          </Link>
        ),
      )}
      <NewYearEgg />
    </Group>
  );
}

/** The same links stacked, for the mobile drawer. */
export function TopLinksStacked({ onNavigate }: { onNavigate: () => void }) {
  const links = useLinks();
  return (
    <Stack gap={2}>
      {links.map((l) =>
        l.external ? (
          <NavLink
            key={l.key}
            href={l.href}
            target="_blank"
            label={l.label}
            rightSection={<IconExternalLink size={14} />}
            onClick={onNavigate}
            className={classes.navLink}
          />
        ) : (
          <NavLink
            key={l.key}
            component={Link}
            to={l.href}
            label={l.label}
            active={l.active}
            onClick={onNavigate}
            className={classes.navLink}
            variant="light"
          />
        ),
      )}
      <NewYearEgg stacked onNavigate={onNavigate} />
    </Stack>
  );
}
